"""AWS SQS and SNS through boto3 -> :class:`~indexer.model.TopicUse` (brokers ``sqs`` / ``sns``,
framework ``boto3``); only in a file importing ``boto3`` or ``aioboto3``.

* ``x.send_message(QueueUrl=url, ...)`` / ``send_message_batch(QueueUrl=url, ...)``: produces to the
  SQS queue; ``x.receive_message(QueueUrl=url, ...)``: consumes it (the enclosing function);
* ``x.publish(TopicArn=arn, ...)``: produces to the SNS topic.

The keyword names (``QueueUrl``, ``TopicArn``) are boto3's client API: they decide, whatever the
receiver. The name is a template (literal, constant, f-string); the linker keeps the queue URL's or
topic ARN's last segment (``https://sqs.eu-west-1.amazonaws.com/123/orders`` -> ``orders``,
``arn:aws:sns:eu-west-1:123:billing`` -> ``billing``).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import Context, template
from indexer.languages.python.frameworks.pubsub_common import pubsub_calls
from indexer.model import FileExtraction, TopicUse

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "boto3"
_SQS = {"send_message": "produces", "send_message_batch": "produces", "receive_message": "consumes"}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's SQS sends / receives and SNS publishes to ``out.topics``."""
    if not Context(src, out).imports.uses("boto3", "aioboto3"):
        return
    for c in pubsub_calls(root, src):
        line, col = src.line(c.at), src.col(c.at)
        if c.method in _SQS and "QueueUrl" in c.args.keywords:
            out.topics.append(TopicUse(FRAMEWORK, _SQS[c.method], template(src, c.args.keywords["QueueUrl"]), c.scope,
                                       line, col, broker="sqs"))
        elif c.method == "publish" and "TopicArn" in c.args.keywords:
            out.topics.append(TopicUse(FRAMEWORK, "produces", template(src, c.args.keywords["TopicArn"]), c.scope,
                                       line, col, broker="sns"))
