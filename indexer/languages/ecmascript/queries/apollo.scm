; Apollo-style resolver maps (indexer/languages/ecmascript/frameworks/apollo.py): an object literal
; with a `Query`, `Mutation` or `Subscription` key whose value is an object literal. @map is the
; whole map; which of its entries are resolvers is read in Python.
(object
  (pair
    key: [(property_identifier) (string)] @root
    value: (object))
  (#match? @root "^[\"']?(Query|Mutation|Subscription)[\"']?$")) @map

; Apollo Server's options (apollo.py, `_server_options`): `new ApolloServer({...})` (Apollo Server 2 to 4) and the
; context options Apollo Server 4's integrations take, `startStandaloneServer(server, { context })`.
(new_expression
  constructor: [(identifier) @ctor (member_expression property: (property_identifier) @ctor)]
  arguments: (arguments . (object) @options)
  (#eq? @ctor "ApolloServer"))
(call_expression
  function: [(identifier) @ctor (member_expression property: (property_identifier) @ctor)]
  arguments: (arguments (_) . (object) @options)
  (#match? @ctor "^(startStandaloneServer|expressMiddleware|startServerAndCreateLambdaHandler|startServerAndCreateNextHandler)$"))
