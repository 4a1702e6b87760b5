; Plain names written after their declaration (`x = ...`, `x += ...`, `x++`): a local whose initialiser is
; not its only value (indexer/languages/ecmascript/frameworks/js_scopes.py, ScopeTables.reassigned). Read
; from the detectors' one combined query, not run again per block.
(assignment_expression left: (identifier) @name)
(augmented_assignment_expression left: (identifier) @name)
(update_expression argument: (identifier) @name)
