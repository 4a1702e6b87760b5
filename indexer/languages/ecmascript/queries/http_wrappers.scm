; Calls whose first argument is a string or template literal, a concatenation or a name
; (indexer/languages/ecmascript/frameworks/http_wrappers.py): candidate uses of a thin HTTP wrapper
; (`request("/orders")`, `api.get("orders")`, `request(Paths.ORDERS)`). Which names count, and which
; callee wraps a client, is decided in Python (names) and by the linker across files (callees).
(call_expression
  function: [(identifier) (member_expression)] @fn
  arguments: (arguments . [(string) (template_string) (binary_expression) (identifier) (member_expression)] @first)) @call

; `(retry ? send : retry(send))(url, init)`, `retry(send)(url)`: a local function called through a
; conditional or a higher-order wrapper (the callee is reduced to the function in Python)
(call_expression
  function: [(parenthesized_expression) (call_expression)] @fn
  arguments: (arguments . [(string) (template_string) (binary_expression) (identifier) (member_expression)] @first)) @call

; `request({ url: `${basePath}/cart`, method: "POST", body })`: an options object first, read by a template whose
; parameter is destructured (`({ url, method }) => fetch(url, { method })`; its properties in the Python)
(call_expression
  function: [(identifier) (member_expression)] @fn
  arguments: (arguments . (object) @first)) @call
