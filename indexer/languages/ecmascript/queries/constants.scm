; String constants other files may name (indexer/frameworks/js_constants.py).

; const NAME = value / export const NAME = value, at module level
(program
  (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_) @value)))
(program
  (export_statement
    declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_) @value))))

; this.x = ... / Foo.x = ...: a field written to after its initialiser is no constant.
(assignment_expression
  left: (member_expression object: [(this) (identifier)] property: (property_identifier) @assigned))
