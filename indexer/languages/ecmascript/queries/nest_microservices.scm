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
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @method)
  arguments: (arguments . (_) @pattern . (_))
  (#any-of? @method "send" "emit")) @call
