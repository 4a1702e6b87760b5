; Event listeners (indexer/languages/ecmascript/frameworks/listeners.py): X.on / once / addListener /
; prependListener / prependOnceListener(event, <inline function>). Whether X is an emitter is decided
; in Python; @emitter / @ctor select the names the file binds to `new EventEmitter()` and the like.
(call_expression
  function: (member_expression
    object: (_) @object
    property: (property_identifier) @method)
  arguments: (arguments . (_) @event . [(arrow_function) (function_expression)] @fn .)
  (#any-of? @method "on" "once" "addListener" "prependListener" "prependOnceListener")) @call

(variable_declarator
  name: (identifier) @name
  value: [
    (new_expression constructor: (_) @ctor)
    (call_expression function: (_) @ctor)
    (await_expression (call_expression function: (_) @ctor))
  ]
  (#match? @ctor "(^|[.])([A-Za-z]*(Emitter|Server|Socket)|WebSocket|createServer|connect|io|socketIO|Worker|Redis)$")) @emitter
