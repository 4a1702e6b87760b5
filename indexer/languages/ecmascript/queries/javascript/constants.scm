; JavaScript class fields with an initialiser: static X = "..." / x = "..." (js_constants.py).
(class_body (field_definition property: (property_identifier) @field value: (_) @value))
