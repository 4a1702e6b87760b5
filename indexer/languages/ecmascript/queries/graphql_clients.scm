; GraphQL client documents and the calls that run them
; (indexer/languages/ecmascript/frameworks/graphql_clients.py).
; @doc_call: a `gql` / `graphql` tagged template (Apollo Client, urql, graphql-tag, Relay) or call
; (graphql-request, gql.tada, codegen's `graphql()`); @doc: the document's literal.
(call_expression
  function: (identifier) @tag
  arguments: (template_string) @doc
  (#match? @tag "^(gql|graphql)$")) @doc_call
(call_expression
  function: (identifier) @tag
  arguments: (arguments . [(template_string) (string)] @doc)
  (#match? @tag "^(gql|graphql)$")) @doc_call
; @run_call: a call that may run a document (a hook, a client method); @runner its name, @args its
; arguments. Which argument is the document is read in Python (`send`: a request to a GraphQL path only).
(call_expression
  function: [(identifier) @runner (member_expression property: (property_identifier) @runner)]
  arguments: (arguments) @args
  (#match? @runner "^(useQuery|useLazyQuery|useMutation|useSubscription|useSuspenseQuery|useBackgroundQuery|useLazyLoadQuery|useQueryLoader|usePreloadedQuery|query|mutate|mutation|subscribe|subscription|watchQuery|request|rawRequest|fetchQuery|loadQuery|commitMutation|requestSubscription|execute|executeOperation|graphql|send)$")) @run_call
