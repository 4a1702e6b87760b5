; Containers that may hold functions (ecmascript/containers.py): a name declared with an array
; literal or `new Map(...)` / `new Set(...)` / `new Array(...)` (the constructor is checked in Python).
;   @container  the declarator; @name its name
(variable_declarator name: (identifier) @name value: (array)) @container
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier))) @container

; Names a function may be taken out of (@taken): only a container so used is read further.
(call_expression function: (subscript_expression object: (identifier) @taken))
(call_expression
  function: (call_expression
    function: (member_expression object: (identifier) @taken property: (property_identifier) @_take))
  (#match? @_take "^(pop|shift|get|at)$"))
(for_in_statement right: (identifier) @taken)
(call_expression
  function: (member_expression object: (identifier) @taken property: (property_identifier) @_each)
  arguments: (arguments . [(arrow_function) (function_expression)])
  (#match? @_each "^(forEach|map|filter|some|every|find|flatMap)$"))
