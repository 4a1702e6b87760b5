; What functions return (indexer/languages/ecmascript/returns.py): a `return` statement's value, and
; the expression body of an arrow function (`() => bar`). Which function a value belongs to, and
; whether it names a function, is decided in Python.
(return_statement (_) @value) @return
(arrow_function body: (_) @body) @arrow
