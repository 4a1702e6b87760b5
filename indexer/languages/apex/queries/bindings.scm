; Names bound to a type inside a method or trigger (parameters, catch variables, locals, loop variables).
; Fields are bound from the definitions.

(formal_parameter type: (_) @type name: (identifier) @name) @declared
(local_variable_declaration
  type: (_) @type
  declarator: (variable_declarator name: (identifier) @name)) @declared
(enhanced_for_statement type: (_) @type name: (identifier) @name) @declared
