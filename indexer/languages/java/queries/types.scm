; Places where a type is named. Each captured @type subtree is searched (in Python: a type subtree is
; small) for its class names: `List<Owner>` yields List and Owner; primitives yield nothing.

(formal_parameter type: (_) @type)
(spread_parameter
  [(type_identifier) (scoped_type_identifier) (generic_type) (array_type)] @type)
(method_declaration type: (_) @type)
(annotation_type_element_declaration type: (_) @type)
(field_declaration type: (_) @type)
(constant_declaration type: (_) @type)
(local_variable_declaration type: (_) @type)
(object_creation_expression type: (_) @type)
(array_creation_expression type: (_) @type)
(cast_expression type: (_) @type)
(catch_type (_) @type)
(instanceof_expression right: (_) @type)
(enhanced_for_statement type: (_) @type)
(resource type: (_) @type)

; Type variables (`<T extends Base>`) are not class names: uses of these names are dropped
; (file-wide, an approximation: a class named like a type variable of the same file is missed).
(type_parameter . (type_identifier) @type_param)
