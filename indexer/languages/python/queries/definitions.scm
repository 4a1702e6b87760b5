; Python definitions and their header details.
; Every match carries the definition node it describes (@class / @function / @def); the extractor
; groups captures by that node. Nesting (qualname, parent, method vs function) is computed from the
; definitions' body ranges in Python, because a query cannot name the innermost enclosing definition.

; The definitions themselves.
(class_definition name: (identifier) @class.name) @class
(function_definition name: (identifier) @function.name) @function
; A lambda bound to a name by a statement at module level or in a class body (`key = lambda x: x.id`;
; `__str__ = lambda self: self.name`): a function (a method) of that name whose body is the lambda's
; expression. The extractor keeps those only (not `a = b = lambda: 0`, not one inside an expression,
; not one in a function body, whose calls stay the function's as any other lambda's do).
(assignment left: (identifier) @lambda.name right: (lambda) @lambda.value) @lambda

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

; A named lambda's parameters (a lambda's take no annotations).
(assignment
  left: (identifier)
  right: (lambda
    parameters: (lambda_parameters
      [
        (identifier) @param.name
        (default_parameter name: (identifier) @param.name value: (_) @param.default)
        (list_splat_pattern (identifier) @param.name) @param.star
        (dictionary_splat_pattern (identifier) @param.name) @param.starstar
      ] @param))) @def
