; graphql-java runtime wiring (indexer/languages/java/frameworks/graphql_java.py):
; `builder.dataFetcher("owner", fetcher)` calls; the type they wire is found in Python (the enclosing
; `.type("Query", b -> ...)` lambda or the `newTypeWiring("Query")` at the start of the chain).
(method_invocation
  name: (identifier) @name
  arguments: (argument_list . (string_literal) @field . (_) @fetcher .)
  (#eq? @name "dataFetcher")) @call
