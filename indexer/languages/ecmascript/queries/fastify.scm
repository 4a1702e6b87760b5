; Fastify (indexer/languages/ecmascript/frameworks/fastify.py). Which receivers are Fastify instances
; is decided in Python (created by Fastify() in the file, or named like one); these patterns only
; select the candidates.

; fastify.get("/x", [opts,] handler) / server.route({ method, url, handler }) / fastify.addHook("onRequest", fn)
; / app.register(plugin, { prefix }): @object is the receiver.
(call_expression
  function: (member_expression
    object: (_) @object
    property: (property_identifier) @verb)
  arguments: (arguments) @args
  (#any-of? @verb "get" "post" "put" "delete" "patch" "all" "options" "head" "route" "addHook" "register")) @call

; const app = Fastify({ logger }) / const server = require("fastify")() / fastify.default(): @factory.
(variable_declarator
  name: (identifier) @name
  value: [
    (call_expression function: (_) @factory)
    (await_expression (call_expression function: (_) @factory))
  ]
  (#match? @factory "([Ff]astify|require\\([\"']fastify[\"']\\))$"))
