; HTTP clients (indexer/frameworks/js_http_clients.py): fetch, axios, Angular HttpClient.
; Which receiver is which client is decided in Python from the file's imports, bindings and the
; instances below.

; fetch(url, init) / axios(config) / axios(url, config) / AngularJS $http(config)
(call_expression
  function: (identifier) @function
  arguments: (arguments) @args
  (#any-of? @function "fetch" "axios" "$http")) @call

; axios.get(url) / api.post(url, data) / this.http.get<T>(url) / http.request("GET", url) /
; window.fetch(url)
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @method)
  arguments: (arguments) @args
  (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "request" "jsonp" "fetch")) @call

; const api = axios.create({ baseURL: ... }) / this.api = axios.create(...): @instance is the name.
(variable_declarator
  name: (identifier) @instance
  value: (call_expression
    function: (member_expression object: (_) @factory property: (property_identifier) @_create)
    arguments: (arguments) @args)
  (#eq? @_create "create"))

(assignment_expression
  left: [(identifier) (member_expression)] @instance
  right: (call_expression
    function: (member_expression object: (_) @factory property: (property_identifier) @_create)
    arguments: (arguments) @args)
  (#eq? @_create "create"))

; axios.defaults.baseURL = "..." (the base of the default instance's calls in this file)
(assignment_expression
  left: (member_expression
    object: (member_expression object: (_) @factory property: (property_identifier) @_defaults)
    property: (property_identifier) @_base)
  right: (_) @default_base
  (#eq? @_defaults "defaults")
  (#eq? @_base "baseURL"))

; A file that binds the name `fetch` itself (a parameter, a variable, a function, a destructured
; name) calls that, not the global fetch: @fetch_binding marks it (imports are read in Python).
((shorthand_property_identifier_pattern) @fetch_binding (#eq? @fetch_binding "fetch"))
(pair_pattern value: (identifier) @fetch_binding (#eq? @fetch_binding "fetch"))
(variable_declarator name: (identifier) @fetch_binding (#eq? @fetch_binding "fetch"))
(function_declaration name: (identifier) @fetch_binding (#eq? @fetch_binding "fetch"))
