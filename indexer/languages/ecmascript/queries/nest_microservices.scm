; NestJS microservices (indexer/languages/ecmascript/frameworks/nest_microservices.py). Which receivers are
; clients (a ClientProxy of @nestjs/microservices) is decided in Python, from the file's typed bindings.

; @MessagePattern(p) / @EventPattern(p) on a method: @name the decorator's name, @pattern its first argument.
(decorator
  (call_expression
    function: [(identifier) (member_expression)] @name
    arguments: (arguments . (_) @pattern))
  (#match? @name "(^|\\.)(MessagePattern|EventPattern)$")) @handler

; X.send(p, data) / X.emit(p, data): @receiver, @method, @pattern the first argument (a second follows).
(call_expression
  function: [
    (member_expression
      object: (_) @receiver
      property: (property_identifier) @method)
    (await_expression
      (member_expression
        object: (_) @receiver
        property: (property_identifier) @method))]
  arguments: (arguments . (_) @pattern . (_))
  (#any-of? @method "send" "emit")) @call

; Where a transport is configured: NestFactory.createMicroservice(M, options), app.connectMicroservice(options),
; moduleFixture.createNestMicroservice(options) (a server); ClientsModule.register([...]) / registerAsync([...]),
; ClientProxyFactory.create(options) (clients). The receiver is checked in Python.
; TypeScript parses `await NestFactory.createMicroservice<Options>(...)` with the await inside the callee.
(call_expression
  function: [
    (member_expression
      object: (_) @setup_receiver
      property: (property_identifier) @setup)
    (await_expression
      (member_expression
        object: (_) @setup_receiver
        property: (property_identifier) @setup))]
  arguments: (arguments) @setup_args
  (#any-of? @setup "createMicroservice" "connectMicroservice" "createNestMicroservice" "register" "registerAsync"
    "create")) @setup_call
