; kafkajs (indexer/frameworks/kafkajs.py). Which receivers are producers / consumers is decided in
; Python (created by .producer() / .consumer() / .transaction() in the file, or named like one).

; producer.send({ topic, messages }) / producer.sendBatch({ topicMessages }) /
; consumer.subscribe({ topic }) / consumer.subscribe({ topics: [...] }) /
; consumer.run({ eachMessage: async (...) => ... })
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @method)
  arguments: (arguments . (object) @config)
  (#any-of? @method "send" "sendBatch" "subscribe" "run")) @call

; const producer = kafka.producer() / const consumer = kafka.consumer({ groupId }) /
; const tx = await producer.transaction() / this.producer = kafka.producer(): @made is the name.
(variable_declarator
  name: (identifier) @made
  value: [
    (call_expression function: (member_expression property: (property_identifier) @kind))
    (await_expression (call_expression function: (member_expression property: (property_identifier) @kind)))
  ]
  (#any-of? @kind "producer" "consumer" "transaction"))

(assignment_expression
  left: [(identifier) (member_expression)] @made
  right: [
    (call_expression function: (member_expression property: (property_identifier) @kind))
    (await_expression (call_expression function: (member_expression property: (property_identifier) @kind)))
  ]
  (#any-of? @kind "producer" "consumer" "transaction"))
