; Celery tasks and the calls that queue them. Which decorator makes a task, and whether a receiver is
; a task, is decided in Python (the decorator's import) and by the linker (the receiver's definition).

(decorated_definition
  (decorator) @deco
  definition: (function_definition name: (identifier) @fname)) @task

(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @method)
  arguments: (argument_list) @args
  (#any-of? @method "delay" "apply_async" "s" "si" "send_task")) @call
