; Python `gql` clients (indexer/languages/python/frameworks/gql_python.py). @doc_call: a `gql(...)` call,
; @doc its first argument (the document); @run_call: a client or session call that runs a document,
; @args its arguments.
(call
  function: (identifier) @tag
  arguments: (argument_list . (_) @doc)
  (#eq? @tag "gql")) @doc_call
(call
  function: (attribute attribute: (identifier) @method)
  arguments: (argument_list) @args
  (#any-of? @method "execute" "execute_async" "execute_sync" "subscribe" "subscribe_async")) @run_call
