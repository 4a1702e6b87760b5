"""RabbitMQ through amqplib (JavaScript and TypeScript) -> :class:`~indexer.model.TopicUse` (broker
``rabbitmq``, framework ``amqplib``) and :class:`~indexer.model.QueueBinding`; only in a file
importing ``amqplib`` or ``amqplib/callback_api``.

* consumes: ``ch.consume(queue, handler)``: the queue is consumed by the handler (an inline function
  becomes a definition of its own named ``consume <queue>``; a name of this file, the function it
  names), else by the function around the call;
* produces: ``ch.sendToQueue(queue, content)`` (the default exchange: routing key = the queue) and
  ``ch.publish(exchange, routingKey, content)``;
* bindings: ``ch.bindQueue(queue, exchange, pattern)``.

Any receiver counts (the file uses amqplib, and these method names with these arities are its
channel's). Names are templates (literals, constants).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import arguments, js_file
from indexer.model import FileExtraction, QueueBinding, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
FRAMEWORK = "amqplib"
_MODULES = ("amqplib", "amqplib/callback_api")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's amqplib consumes, sends, publishes and bindings to ``out``."""
    if not any(i.module in _MODULES for i in out.imports):
        return
    jf = js_file(root, src, out)
    for caps in jf.matches("amqplib"):
        method = jf.text(caps["method"][0])
        call = caps["call"][0]
        args = arguments(caps["args"][0])
        line, col = jf.pos(call)
        scope = jf.code_scope(call)
        if method == "consume" and len(args) >= 2:
            queue = jf.template(args[0])
            owner = scope
            shown = queue.literal()
            handled = jf.handler(args[1], call, f"consume {shown if shown is not None else '{}'}")
            if handled is not None and handled[0] is not None:
                owner = handled[0]
            out.topics.append(TopicUse(FRAMEWORK, "consumes", queue, owner, line, col, broker="rabbitmq"))
        elif method == "sendToQueue" and len(args) >= 2:
            out.topics.append(TopicUse(FRAMEWORK, "produces", jf.template(args[0]), scope, line, col,
                                       broker="rabbitmq", exchange=Template()))
        elif method == "publish" and len(args) >= 3:
            out.topics.append(TopicUse(FRAMEWORK, "produces", jf.template(args[1]), scope, line, col,
                                       broker="rabbitmq", exchange=jf.template(args[0])))
        elif method == "bindQueue" and len(args) >= 3:
            out.queue_bindings.append(QueueBinding(FRAMEWORK, jf.template(args[0]), jf.template(args[1]),
                                                   jf.template(args[2]), line, col, scope))
