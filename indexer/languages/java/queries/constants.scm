; String fields and interface constants, each declarator with its value (a field without a value is
; kept for its @Value annotation). Which of them become constants is decided in java_constants.py.

(field_declaration
  type: (_) @type
  declarator: (variable_declarator name: (identifier) @name value: (_)? @value)
  (#match? @type "^(java\\.lang\\.)?String$")) @field

(constant_declaration
  type: (_) @type
  declarator: (variable_declarator name: (identifier) @name value: (_) @value)
  (#match? @type "^(java\\.lang\\.)?String$")) @field

; Constructor injection of configuration: `Client(@Value("${svc.url}") String url) { this.url = url; }`.
(constructor_declaration
  parameters: (formal_parameters
    (formal_parameter
      (modifiers (annotation name: (_) @ann arguments: (annotation_argument_list . (_) @ann_value)))
      name: (identifier) @param))
  (#match? @ann "(^|\\.)Value$")) @ctor_param

(constructor_declaration
  body: (constructor_body
    (expression_statement
      (assignment_expression
        left: [(field_access object: (this) field: (identifier) @target) (identifier) @target]
        right: (identifier) @source)))) @ctor_assign
