; Hono (indexer/languages/ecmascript/frameworks/hono.py): which receivers are Hono applications is
; decided in Python (made by `new Hono()` in the file); these patterns select the candidates.

; app.get("/x", ...mw, h) / app.on("GET", "/x", h) / app.route("/api", sub) / app.use("/x/*", mw).
(call_expression
  function: (member_expression
    object: (_) @object
    property: (property_identifier) @verb)
  arguments: (arguments) @args
  (#any-of? @verb "get" "post" "put" "delete" "patch" "all" "options" "on" "route" "use")) @call

; const app = new Hono() / new Hono().basePath("/v1") (@made is the value).
(variable_declarator
  name: (identifier) @name
  value: [(new_expression) (call_expression)] @made
  (#match? @made "^new\\s+Hono\\b")) @declarator
