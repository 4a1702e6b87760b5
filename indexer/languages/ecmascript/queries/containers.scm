; Containers that may hold functions (ecmascript/containers.py): a name declared with an array
; literal or `new Map(...)` / `new Set(...)` / `new Array(...)` (the constructor is checked in Python).
;   @container  the declarator; @name its name
(variable_declarator name: (identifier) @name value: (array)) @container
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier))) @container
