; Message sends and polling receives of Spring AMQP / JMS templates and RabbitMQ binding builders. Whether the receiver is
; a RabbitTemplate / JmsTemplate (declared type or name) is checked in Python.

(method_invocation
  object: (_) @receiver
  name: (identifier) @name
  arguments: (argument_list) @args
  (#any-of? @name "convertAndSend" "send" "convertSendAndReceive" "sendAndReceive" "bind"
    "receive" "receiveAndConvert" "receiveAndReply" "receiveSelected" "receiveSelectedAndConvert")) @call

; `new Binding("q", Binding.DestinationType.QUEUE, "exchange", "key", args)`
(object_creation_expression
  type: (_) @new_type
  arguments: (argument_list) @new_args
  (#match? @new_type "Binding$")) @new
