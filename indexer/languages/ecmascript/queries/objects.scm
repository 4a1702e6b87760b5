; Object literals bound to a name (objects.py): `const o = { b: foo, c }` (any scope). Which of their
; properties name a function is decided in Python (a query cannot tell which names are functions).
(variable_declarator name: (identifier) @owner value: (object) @object)

; `export default { Articles, login: doLogin }`: the module's default export is that object (objects.py)
(export_statement value: (object) @default_object)

; Names destructured from a value (returned_objects.py): `const { a, b: c } = f()` binds a to f().a
(variable_declarator name: (object_pattern) @pattern value: (_) @source)
