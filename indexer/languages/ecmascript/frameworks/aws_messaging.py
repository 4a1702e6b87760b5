"""AWS SQS and SNS through the AWS SDK for JavaScript -> :class:`~indexer.model.TopicUse` (brokers
``sqs`` / ``sns``, framework ``aws-sdk``); only in a file importing ``@aws-sdk/client-sqs``,
``@aws-sdk/client-sns`` or ``aws-sdk``.

* v3 commands: ``new SendMessageCommand({ QueueUrl, ... })`` / ``SendMessageBatchCommand``: produces
  to the SQS queue; ``new ReceiveMessageCommand({ QueueUrl })``: consumes it; ``new PublishCommand({
  TopicArn })``: produces to the SNS topic;
* v2 client calls: ``sqs.sendMessage({ QueueUrl })`` / ``sendMessageBatch`` / ``receiveMessage``,
  ``sns.publish({ TopicArn })``.

Owned by the function around the command or call. Names are templates (literals, constants,
``process.env`` values with defaults); the linker keeps the URL's or ARN's last segment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import js_file
from indexer.model import FileExtraction, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
FRAMEWORK = "aws-sdk"
_MODULES = ("@aws-sdk/client-sqs", "@aws-sdk/client-sns", "aws-sdk")
_ROLES = {
    "SendMessageCommand": "produces", "SendMessageBatchCommand": "produces", "ReceiveMessageCommand": "consumes",
    "sendMessage": "produces", "sendMessageBatch": "produces", "receiveMessage": "consumes",
}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's SQS sends / receives and SNS publishes to ``out.topics``."""
    if not any(i.module in _MODULES for i in out.imports):
        return
    jf = js_file(root, src, out)
    for caps in jf.matches("aws_messaging"):
        name = jf.text(caps["command"][0] if "command" in caps else caps["method"][0])
        node = caps["new"][0] if "new" in caps else caps["call"][0]
        config = jf.object_pairs(caps["config"][0])
        line, col = jf.pos(node)
        scope = jf.code_scope(node)
        if name in ("PublishCommand", "publish"):
            arn = config.get("TopicArn")
            if arn is not None:
                out.topics.append(TopicUse(FRAMEWORK, "produces", jf.template(arn), scope, line, col, broker="sns"))
        elif name in _ROLES:
            url = config.get("QueueUrl")
            if url is not None:
                out.topics.append(TopicUse(FRAMEWORK, _ROLES[name], jf.template(url), scope, line, col, broker="sqs"))
