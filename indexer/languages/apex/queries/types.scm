; Places where a type is named. Each captured @type subtree is searched for its class names.

(formal_parameter type: (_) @type)
(method_declaration type: (_) @type)
(field_declaration type: (_) @type)
(local_variable_declaration type: (_) @type)
(object_creation_expression type: (_) @type)
(array_creation_expression type: (_) @type)
(cast_expression type: (_) @type)
(enhanced_for_statement type: (_) @type)
