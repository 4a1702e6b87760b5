; pika channel calls: basic_consume / basic_publish / queue_bind. Whether the file uses pika is
; checked in Python (its imports).

(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @method)
  arguments: (argument_list) @args
  (#any-of? @method "basic_consume" "basic_publish" "queue_bind")) @call
