; TypeScript class fields with an initialiser: static readonly X = "..." / private url = "..."
; (js_constants.py), and string enum members at module level.
(class_body (public_field_definition name: (property_identifier) @field value: (_) @value))

(program (enum_declaration name: (identifier) @enum body: (enum_body (enum_assignment name: (property_identifier) @member value: (_) @value))))
(program
  (export_statement
    declaration: (enum_declaration name: (identifier) @enum body: (enum_body (enum_assignment name: (property_identifier) @member value: (_) @value)))))
