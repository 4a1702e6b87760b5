; NestJS CQRS (indexer/languages/ecmascript/frameworks/nest_cqrs.py). @handler: a class decorator
; @CommandHandler(C) / @QueryHandler(Q) / @EventsHandler(A, B) (@name the decorator's name, @types its
; arguments, the message classes); @saga: a member decorator @Saga().
(decorator
  (call_expression
    function: [(identifier) (member_expression)] @name
    arguments: (arguments) @types)
  (#match? @name "(^|\\.)(CommandHandler|QueryHandler|EventsHandler)$")) @handler

(decorator
  (call_expression
    function: [(identifier) (member_expression)] @_saga)
  (#match? @_saga "(^|\\.)Saga$")) @saga

; X.execute(m) / X.publish(m) / X.publishAll([m, ...]) / this.apply(m): a send when X is a bus (or the
; aggregate root itself for apply); @receiver, @method, @message the first argument.
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @method)
  arguments: (arguments . (_) @message)
  (#match? @method "^(execute|publish|publishAll|apply)$")) @call

; ofType(A, B) in a saga: the events it listens to.
(call_expression
  function: (identifier) @_of
  arguments: (arguments) @of_types
  (#eq? @_of "ofType")) @of_type
