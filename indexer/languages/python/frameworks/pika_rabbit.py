"""RabbitMQ through pika -> :class:`~indexer.model.TopicUse` (broker ``rabbitmq``, framework ``pika``)
and :class:`~indexer.model.QueueBinding`; only in a file importing from ``pika``.

* consumes: ``ch.basic_consume(queue="q", on_message_callback=cb)`` (pika 1.x, positional
  ``(queue, on_message_callback)``; pika 0.x ``basic_consume(cb, queue="q")``): the queue is consumed
  by the callback when it names a function or method of this file (``cb``, ``self.on_message``),
  else by the function enclosing the call;
* produces: ``ch.basic_publish(exchange="x", routing_key="k", body=...)`` (positional
  ``(exchange, routing_key, body)``): routing key ``k`` on exchange ``x`` (``""``: the default
  exchange, whose key is the queue's name);
* bindings: ``ch.queue_bind(queue="q", exchange="x", routing_key="k")`` (positional
  ``(queue, exchange, routing_key)``; no key: the queue's name, as pika does).

Names are templates (literals, constants, f-strings); a name built at run time is a hole.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, Context, scope_of, template
from indexer.languages.python.frameworks.pubsub_common import callback_owner
from indexer.model import FileExtraction, QueueBinding, TopicUse

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "pika"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's pika consumes, publishes and queue bindings to ``out``."""
    ctx = Context(src, out)
    if not ctx.imports.uses("pika"):
        return
    defs = {d.qualname for d in out.definitions if d.kind in ("function", "method")}
    found: list[TopicUse] = []
    for _, caps in run_query(query("python", "python/queries", "pika"), root):
        method_node = caps["method"][0]
        method = src.text(method_node)
        args = Args.of(src, caps["args"][0])
        scope = scope_of(caps["call"][0], src)
        line, col = src.line(method_node), src.col(method_node)
        if method == "basic_consume":
            queue = args.keywords.get("queue")
            callback = args.keywords.get("on_message_callback") or args.keywords.get("consumer_callback")
            if queue is None and args.positional:
                first = args.positional[0]
                if first.type in ("string", "concatenated_string") or callback is not None:
                    queue = first
                    if callback is None and len(args.positional) > 1:
                        callback = args.positional[1]
                else:  # pika 0.x: basic_consume(callback, queue)
                    callback = first
                    queue = args.positional[1] if len(args.positional) > 1 else None
            elif callback is None and args.positional:
                callback = args.positional[0]
            if queue is None:
                continue
            owner = callback_owner(src, callback, scope, defs) or scope
            found.append(TopicUse(FRAMEWORK, "consumes", template(src, queue), owner, line, col, broker="rabbitmq"))
        elif method == "basic_publish":
            exchange, key = args.get(0, "exchange"), args.get(1, "routing_key")
            if exchange is None or key is None:
                continue
            found.append(TopicUse(FRAMEWORK, "produces", template(src, key), scope, line, col, broker="rabbitmq",
                                  exchange=template(src, exchange)))
        else:
            queue, exchange, key = args.get(0, "queue"), args.get(1, "exchange"), args.get(2, "routing_key")
            if queue is None or exchange is None:
                continue
            out.queue_bindings.append(QueueBinding(FRAMEWORK, template(src, queue), template(src, exchange),
                                                   template(src, key if key is not None else queue), line, col, scope))
    found.sort(key=lambda u: (u.line, u.col))
    out.topics.extend(found)
