; Module-level values made by a call (extractor.py, "values"): candidates only. Whether the call hands
; over a function of this file or an imported one -- which makes the value a callable definition of
; its own -- is decided in Python (a query cannot tell which names are functions).
;   @value  the definition node (the declarator, or the pair of an object literal)
;   @name   its name; @owner the object literal's name (`const auth = { required: jwt(...) }`)
;   @call   the value expression (a call once parentheses / `as` / `!` are taken off)
;   @exports  `module.exports = { key: call(...) }` (the key is a top-level, exported name)

; const X = call(...) / let / var, also behind `export`
(program
  [
    (lexical_declaration (variable_declarator name: (identifier) @name value: (_) @call) @value)
    (variable_declaration (variable_declarator name: (identifier) @name value: (_) @call) @value)
    (export_statement declaration: [
      (lexical_declaration (variable_declarator name: (identifier) @name value: (_) @call) @value)
      (variable_declaration (variable_declarator name: (identifier) @name value: (_) @call) @value)
    ])
  ])

; const X = { key: call(...) }: each pair whose value is a call
(program
  [
    (lexical_declaration (variable_declarator name: (identifier) @owner
      value: (object (pair key: (property_identifier) @name value: (_) @call) @value)))
    (variable_declaration (variable_declarator name: (identifier) @owner
      value: (object (pair key: (property_identifier) @name value: (_) @call) @value)))
    (export_statement declaration: [
      (lexical_declaration (variable_declarator name: (identifier) @owner
        value: (object (pair key: (property_identifier) @name value: (_) @call) @value)))
      (variable_declaration (variable_declarator name: (identifier) @owner
        value: (object (pair key: (property_identifier) @name value: (_) @call) @value)))
    ])
  ])

; module.exports = { key: call(...) }
(program
  (expression_statement
    (assignment_expression
      left: (member_expression object: (identifier) @_module property: (property_identifier) @exports)
      right: (object (pair key: (property_identifier) @name value: (_) @call) @value)))
  (#eq? @_module "module")
  (#eq? @exports "exports"))
