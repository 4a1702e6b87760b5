; Message calls of boto3 SQS / SNS clients, NATS and Redis pub/sub. Which library a call belongs to
; is decided in Python (the file's imports, the keyword arguments).

(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @method)
  arguments: (argument_list) @args
  (#any-of? @method "send_message" "send_message_batch" "receive_message" "publish" "subscribe")) @call
