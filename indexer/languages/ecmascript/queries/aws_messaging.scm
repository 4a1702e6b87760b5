; AWS SDK SQS / SNS (indexer/languages/ecmascript/frameworks/aws_messaging.py): v3 commands
; `new SendMessageCommand({ QueueUrl })` and v2 client calls `sqs.sendMessage({ QueueUrl })`.

(new_expression
  constructor: (identifier) @command
  arguments: (arguments . (object) @config)
  (#any-of? @command "SendMessageCommand" "SendMessageBatchCommand" "ReceiveMessageCommand" "PublishCommand")) @new

(call_expression
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @method)
  arguments: (arguments . (object) @config)
  (#any-of? @method "sendMessage" "sendMessageBatch" "receiveMessage" "publish")) @call
