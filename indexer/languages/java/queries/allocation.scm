; A local initialised with a new instance (indexer/languages/java/narrowing.py, `allocations`):
; `Runnable r = new Task();` holds a Task, whatever type it is declared with, until assigned again.
(local_variable_declaration
  declarator: (variable_declarator
    name: (identifier) @name
    value: (object_creation_expression type: (_) @type) @new)) @local

; assignments of a local name (which end what its initialiser says)
(assignment_expression left: (identifier) @assigned)
