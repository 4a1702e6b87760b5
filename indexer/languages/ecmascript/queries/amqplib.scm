; amqplib channel calls (indexer/languages/ecmascript/frameworks/amqplib.py): consume / sendToQueue /
; publish / bindQueue. Whether the file uses amqplib is checked in Python (its imports).

(call_expression
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @method)
  arguments: (arguments) @args
  (#any-of? @method "consume" "sendToQueue" "publish" "bindQueue")) @call
