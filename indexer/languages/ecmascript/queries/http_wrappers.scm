; Calls whose first argument is a string or template literal, a concatenation or a name
; (indexer/languages/ecmascript/frameworks/http_wrappers.py): candidate uses of a thin HTTP wrapper
; (`request("/orders")`, `api.get("orders")`, `request(Paths.ORDERS)`). Which names count, and which
; callee wraps a client, is decided in Python (names) and by the linker across files (callees).
(call_expression
  function: [(identifier) (member_expression)] @fn
  arguments: (arguments . [(string) (template_string) (binary_expression) (identifier) (member_expression)] @first)) @call
