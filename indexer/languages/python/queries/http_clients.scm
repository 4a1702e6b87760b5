; requests / httpx calls and the client constructions that give them a base URL. Whether a receiver
; is the library module, a Session / Client or something else is decided in Python (imports, bindings).

; requests.get(url) / client.post(url) / session.request("GET", url) / httpx.stream("GET", url)
(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @verb)
  arguments: (_) @args
  (#any-of? @verb "get" "post" "put" "delete" "patch" "head" "options" "request" "stream")) @call

; get(url) after `from requests import get` (any bare call: an alias may rename the function)
(call
  function: (identifier) @verb
  arguments: (_) @args) @call

; httpx.Client(base_url=...) / AsyncClient(base_url=...): the base URL of the client it builds
(call
  function: [(identifier) (attribute)]
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @keyword
      value: (_) @base))
  (#eq? @keyword "base_url")) @ctor
