; A parameter named `fetch` (see ../ecmascript/http_clients.scm).
(formal_parameters (identifier) @fetch_binding (#eq? @fetch_binding "fetch"))
(assignment_pattern left: (identifier) @fetch_binding (#eq? @fetch_binding "fetch"))
