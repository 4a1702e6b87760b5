; Outgoing HTTP calls of Spring clients. Whether a receiver is such a client (its declared type, or
; its name) is checked in Python: a query cannot follow a name to its declaration.

; RestTemplate / RestOperations: `restTemplate.getForObject(url, ...)`, `exchange(url, HttpMethod.X, ...)`.
(method_invocation
  object: (_) @receiver
  name: (identifier) @name
  arguments: (argument_list) @args
  (#any-of? @name
    "getForObject" "getForEntity" "postForObject" "postForEntity" "postForLocation" "put" "delete"
    "patchForObject" "headForHeaders" "optionsForAllow" "exchange" "execute")) @template_call

; WebClient / RestClient: a request spec (`client.get()`, `client.method(HttpMethod.X)`) and its `.uri(...)`.
(method_invocation
  object: (method_invocation
    object: (_) @receiver
    name: (identifier) @verb
    arguments: (argument_list) @verb_args
    (#any-of? @verb "get" "post" "put" "delete" "patch" "head" "options" "method"))
  name: (identifier) @uri
  arguments: (argument_list . (_) @url)
  (#eq? @uri "uri")) @fluent_call

; A client builder given a base URL: `WebClient.builder().baseUrl("http://x")`, `builder.rootUri(...)`.
(method_invocation
  name: (identifier) @base_name
  arguments: (argument_list . (_) @base)
  (#any-of? @base_name "baseUrl" "rootUri")) @base_call
