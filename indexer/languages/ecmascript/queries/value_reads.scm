; Member reads that are no call (indexer/languages/ecmascript/reads.py): `r.text` may run a
; `get text()` accessor. Which ones are called, assigned, updated or deleted is decided in Python.
(member_expression
  object: (_) @receiver
  property: (property_identifier) @name) @read

; A bare name handed on as a value: an argument, the value of a declaration, the right side of an
; assignment, an element of an array, a property's value (`{ a: f }`, `{ f }`), a returned value, an
; arrow function's expression body (`app.use(logger)`, `const h = f`, `[a, b]`, `return bar`).
; reads.py keeps those the file defines as a function or imports.
(arguments (identifier) @value)
(variable_declarator value: (identifier) @value)
(assignment_expression right: (identifier) @value)
(array (identifier) @value)
(pair value: (identifier) @value)
(object (shorthand_property_identifier) @value)
(return_statement (identifier) @value)
(arrow_function body: (identifier) @value)

; A function bound, not called (`onError: handleError.bind(showToast)`): `f.bind(x)` hands f on
(call_expression
  function: (member_expression object: (identifier) @value property: (property_identifier) @_bind)
  (#eq? @_bind "bind"))
