; What a loop or an array method's callback receives from an array (ecmascript/elements.py).

; for (const u of users) ...
(for_in_statement left: (identifier) @name operator: "of" right: (_) @iterable)

; users.forEach(u => ...), xs.map(function (x) { ... }): the callback's first parameter
(call_expression
  function: (member_expression object: (_) @receiver property: (property_identifier) @method)
  arguments: (arguments . [(arrow_function) (function_expression)] @callback))
