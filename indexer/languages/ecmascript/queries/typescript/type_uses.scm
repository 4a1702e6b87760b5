; Types named in declarations (model.TypeUse): annotations, generic arguments, casts, `satisfies`,
; type aliases' bodies. @type is a use; @skip marks nodes whose type names are not uses: declared
; names and the extends / implements clauses (those go to Definition.bases / implements).
; @type_param names a type parameter (also `infer M`, mapped `[K in ...]`): their uses are dropped.

(type_identifier) @type
(nested_type_identifier) @type

(class_heritage) @skip
(extends_type_clause) @skip
(class_declaration name: (_) @skip)
(abstract_class_declaration name: (_) @skip)
(interface_declaration name: (_) @skip)
(type_alias_declaration name: (_) @skip)
(type_parameter name: (_) @type_param)
(infer_type (type_identifier) @type_param)
(mapped_type_clause name: (_) @type_param)
