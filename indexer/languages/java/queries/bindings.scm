; Names bound to a type inside a method (parameters, locals, loop / catch / pattern / resource
; variables). Fields are bound from the definitions; untyped lambda parameters bind nothing.

(formal_parameter type: (_) @type name: (identifier) @name) @declared
(spread_parameter
  [(type_identifier) (scoped_type_identifier) (generic_type) (array_type)
   (integral_type) (floating_point_type) (boolean_type)] @type
  (variable_declarator name: (identifier) @name)) @declared
(local_variable_declaration
  type: (_) @type
  declarator: (variable_declarator name: (identifier) @name value: (_)? @value)) @local
(enhanced_for_statement type: (_) @type name: (identifier) @name) @declared
(catch_formal_parameter (catch_type) @type name: (identifier) @name) @declared
(instanceof_expression right: (_) @type name: (identifier) @name) @declared
; `case Circle c ->` (a switch's type pattern), `o instanceof Point(int x, Shape s)` (a record pattern's components)
(type_pattern (_) @type . (identifier) @name . (#not-eq? @type "final")) @declared
(record_pattern_component (_) @type . (identifier) @name .) @declared
; a resource written `var` holds its value's type, as a `var` local does
(resource type: (_) @type name: (identifier) @name value: (_)? @value) @local

; A lambda whose untyped parameters a collection, stream, map or Optional hands its elements:
; `owners.forEach(o -> o.save())`, `owners.stream().filter(o -> ...)`, `map.forEach((k, v) -> ...)`.
; The extractor binds them when the receiver's declared type names the element type.
(method_invocation
  object: (_) @receiver
  name: (identifier) @method
  arguments: (argument_list
    (lambda_expression parameters: [(identifier) (inferred_parameters)] @params) @lambda)) @element
