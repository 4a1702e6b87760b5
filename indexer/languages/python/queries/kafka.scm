; Kafka clients (kafka-python, confluent-kafka, aiokafka): produce / subscribe calls and consumers
; built with their topics. Whether a receiver is a producer or consumer is decided in Python
; (imports, bindings).

; producer.send("t", v) / send_and_wait / produce("t", v); consumer.subscribe([...]) / assign([...])
(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @method)
  arguments: (_) @args
  (#any-of? @method "send" "send_and_wait" "produce" "subscribe" "assign")) @call

; KafkaConsumer("t1", "t2", ...) / AIOKafkaConsumer("t", ...)
(call
  function: [(identifier) (attribute)] @ctor.callee
  arguments: (_) @args
  (#match? @ctor.callee "(^|[.])(KafkaConsumer|AIOKafkaConsumer)$")) @ctor
