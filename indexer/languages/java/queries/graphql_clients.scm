; Java GraphQL clients (indexer/languages/java/frameworks/graphql_clients_java.py).
; @run_call: Spring GraphQlClient `.document(...)` / `.documentName(...)`, DGS GraphQLClient
; `executeQuery(...)` / `reactiveExecuteQuery(...)`; @args its arguments.
(method_invocation
  name: (identifier) @method
  arguments: (argument_list) @args
  (#any-of? @method "document" "documentName" "executeQuery" "reactiveExecuteQuery")) @run_call
; @gen: a DGS codegen query class instantiated (`new ShowsGraphQLQuery()`, `new ShowsGraphQLQuery.Builder()`)
; or asked for a request (`ShowsGraphQLQuery.newRequest()`).
(object_creation_expression
  type: (_) @gen
  (#match? @gen "GraphQLQuery(\\.Builder)?$")) @new
(method_invocation
  object: (identifier) @gen
  name: (identifier) @factory
  (#eq? @factory "newRequest")
  (#match? @gen "GraphQLQuery$")) @new
; @const: a String field whose initialiser is a literal (a document held in a constant).
(field_declaration
  declarator: (variable_declarator
    name: (identifier) @const
    value: (string_literal) @value))
