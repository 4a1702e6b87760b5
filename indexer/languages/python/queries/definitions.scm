; Python definitions and their header details.
; Every match carries the definition node it describes (@class / @function / @def); the extractor
; groups captures by that node. Nesting (qualname, parent, method vs function) is computed from the
; definitions' body ranges in Python, because a query cannot name the innermost enclosing definition.

; The definitions themselves.
(class_definition name: (identifier) @class.name) @class
(function_definition name: (identifier) @function.name) @function

; Decorators (texts without '@'); the span of a decorated definition starts at the first one.
(decorated_definition
  (decorator (_) @decorator)+
  definition: (_) @def) @decorated

; `@overload` / `@typing.overload` / `@t.overload` stubs: signatures for type checkers only. The
; extractor drops them when the same block defines the implementation (and keeps one per name
; otherwise, as in a `.pyi` stub).
(decorated_definition
  (decorator [(identifier) (attribute)] @overload)
  definition: (function_definition) @def
  (#match? @overload "^((typing|typing_extensions|t)[.])?overload$"))

; Header details.
(function_definition "async" @async) @def
(function_definition return_type: (type) @return_type) @def
(class_definition
  superclasses: (argument_list
    [(identifier) (attribute) (subscript) (call)] @base)) @def

; Docstring: the first statement of the body when it is a string literal.
(function_definition
  body: (block . [(string) (concatenated_string)] @docstring)) @def
(class_definition
  body: (block . [(string) (concatenated_string)] @docstring)) @def

; Parameters, one match each (@param is the whole parameter, used for ordering). The bare `*`
; (keyword_separator) and `/` (positional_separator) are not parameters and are not captured.
(function_definition
  parameters: (parameters
    [
      (identifier) @param.name
      (typed_parameter (identifier) @param.name type: (type) @param.type)
      (default_parameter name: (identifier) @param.name value: (_) @param.default)
      (typed_default_parameter
        name: (identifier) @param.name type: (type) @param.type value: (_) @param.default)
      (list_splat_pattern (identifier) @param.name) @param.star
      (typed_parameter
        (list_splat_pattern (identifier) @param.name) @param.star type: (type) @param.type)
      (dictionary_splat_pattern (identifier) @param.name) @param.starstar
      (typed_parameter
        (dictionary_splat_pattern (identifier) @param.name) @param.starstar type: (type) @param.type)
    ] @param)) @def
