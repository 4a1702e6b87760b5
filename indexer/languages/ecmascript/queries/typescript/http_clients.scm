; Angular: private http = inject(HttpClient) (a field whose type is only the argument of inject()).
(public_field_definition
  name: (property_identifier) @field
  value: (call_expression
    function: (identifier) @_inject
    arguments: (arguments . (identifier) @injected .))
  (#eq? @_inject "inject"))

; A parameter named `fetch` (see ../ecmascript/http_clients.scm).
(required_parameter pattern: (identifier) @fetch_binding (#eq? @fetch_binding "fetch"))
(optional_parameter pattern: (identifier) @fetch_binding (#eq? @fetch_binding "fetch"))
