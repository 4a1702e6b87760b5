; String constants other files may name: `NAME = "literal"` (also implicit concatenation, `+` of
; literals and names, f-strings, parentheses) directly at module level or directly in a class body.
; Whether the value is a usable template is decided in Python.

(module
  (assignment
    left: (identifier) @name
    right: [(string) (concatenated_string) (binary_operator) (parenthesized_expression)] @value))

(class_definition
  body: (block
    (assignment
      left: (identifier) @name
      right: [(string) (concatenated_string) (binary_operator) (parenthesized_expression)] @value)))
