; Local names for indexer/languages/ecmascript/frameworks/js_scopes.py (ScopeTables), read from the
; detectors' one combined query, not run again per block or per lookup:
; names written after their declaration (`x = ...`, `x += ...`, `x++`): a local whose initialiser is not
; its only value (ScopeTables.reassigned);
(assignment_expression left: (identifier) @assigned)
(augmented_assignment_expression left: (identifier) @assigned)
(update_expression argument: (identifier) @assigned)
; every name a declarator declares (`const url = ...`): a name declared nowhere in the file has no local
; value, whatever encloses its use (ScopeTables.declared)
(variable_declarator name: (identifier) @declared)
