; What a loop or an array method's callback receives from an array (ecmascript/elements.py).

; for (const u of users) ...
(for_in_statement left: (identifier) @name operator: "of" right: (_) @iterable)

; users.forEach(u => ...), xs.map(function (x) { ... }): the callback's first parameter
(call_expression
  function: (member_expression object: (_) @receiver property: (property_identifier) @method)
  arguments: (arguments . [(arrow_function) (function_expression)] @callback))

; Items (ecmascript/elements.py item_bindings): const u = users[0]
(variable_declarator name: (identifier) @item.name value: (subscript_expression) @item.value)

; const [a, b] = pair(), const [a, b] = await pair()
(variable_declarator name: (array_pattern) @item.pattern value: (_) @item.value)

; for (const [k, v] of map)
(for_in_statement left: (array_pattern) @item.pattern operator: "of" right: (_) @item.iterable)
