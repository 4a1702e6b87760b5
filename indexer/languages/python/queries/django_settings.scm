; Django settings: the statements that fill MIDDLEWARE (MIDDLEWARE_CLASSES before Django 1.10).
; Module level only (decided in Python); the elements are read in Python.

; MIDDLEWARE = [...] / MIDDLEWARE: list[str] = (...)
(assignment
  left: (identifier) @name
  right: (_) @value
  (#any-of? @name "MIDDLEWARE" "MIDDLEWARE_CLASSES")) @statement

; MIDDLEWARE += [...]
(augmented_assignment
  left: (identifier) @name
  operator: "+="
  right: (_) @value
  (#any-of? @name "MIDDLEWARE" "MIDDLEWARE_CLASSES")) @statement

; MIDDLEWARE.append("x") / .insert(0, "x") / .extend([...])
(call
  function: (attribute
    object: (identifier) @name
    attribute: (identifier) @method)
  arguments: (argument_list (_) @value .)
  (#any-of? @name "MIDDLEWARE" "MIDDLEWARE_CLASSES")
  (#any-of? @method "append" "insert" "extend")) @statement
