; Kafka sends: `kafkaTemplate.send(topic, ...)`, `send(new ProducerRecord<>(topic, ...))`. Whether the
; receiver is a KafkaTemplate (declared type or name) is checked in Python.

(method_invocation
  object: (_) @receiver
  name: (identifier) @name
  arguments: (argument_list) @args
  (#eq? @name "send")) @send
