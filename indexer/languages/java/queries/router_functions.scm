; Spring WebFlux / WebMvc functional routes: a request predicate `GET("/x")` given to
; `RouterFunctions.route(...)` / `andRoute(...)`, or a builder call `route().GET("/x", handler)`.
; Which form, the handler and the enclosing `path` / `nest` prefixes are read in Python.

(method_invocation
  name: (identifier) @verb
  arguments: (argument_list) @args
  (#any-of? @verb "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS")) @call
