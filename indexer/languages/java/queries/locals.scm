; Local variables of a method body and the names assigned in it: a local declared once with a value
; and never assigned again is inlined into URL / topic templates (`String base = "http://x/"`), and a
; local `ProducerRecord` is followed to its topic. Run on one method's subtree at a time.

(local_variable_declaration
  type: (_) @type
  declarator: (variable_declarator name: (identifier) @name value: (_)? @value)) @local

(assignment_expression left: (identifier) @assigned)
