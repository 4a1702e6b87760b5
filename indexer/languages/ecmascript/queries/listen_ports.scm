; The port a server of the application's own code listens on (indexer/languages/ecmascript/frameworks/listen_ports.py):
; app.listen(3000), server.listen(PORT, cb), await app.listen(process.env.PORT || 3000) (Express, Koa, Node's http,
; Nest), fastify.listen({ port: 3000 }).
(call_expression
  function: (member_expression property: (property_identifier) @_listen)
  arguments: (arguments . (_) @port)
  (#eq? @_listen "listen")) @listen_call
