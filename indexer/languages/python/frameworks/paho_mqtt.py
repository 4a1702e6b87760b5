"""MQTT through paho-mqtt (and aiomqtt / asyncio-mqtt, built on it) -> :class:`~indexer.model.TopicUse`
(broker ``mqtt``, framework ``paho-mqtt``); only in a file importing one of :data:`PACKAGES`.

* ``client.publish("topic", payload)`` (``topic=`` too): produces to the topic;
* ``client.subscribe("topic")``, ``subscribe(("topic", qos))``, ``subscribe([("a", 0), ("b", 1)])`` (``topic=``
  too): consumes each topic filter (``+`` one level, ``#`` the rest: the linker joins each publish to
  the wildcard filters matching it, :func:`indexer.frameworks.queues.mqtt_matches`). paho hands a
  message to the callback ``client.message_callback_add(filter, cb)`` registers for a filter matching its
  topic (that filter is consumed by ``cb`` too, in a file that subscribes: ``$SYS/broker/bytes/#`` under a
  ``$SYS/#`` subscription), else to ``client.on_message = cb``: the subscription's owner is that callback when it names a function or
  method of this file (``on_message``, ``self.on_message``; set on the same receiver, or the file's only
  one: ``subscribe`` is mostly called in ``on_connect`` on the client it is handed), else the function
  around the call (aiomqtt reads ``client.messages`` there).

Topics are templates (literals, constants, f-strings).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import Args, Context, compact, scope_of, template
from indexer.languages.python.frameworks.pubsub_common import callback_owner, pubsub_calls
from indexer.model import FileExtraction, TopicUse

__all__ = ["LANGUAGES", "PACKAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "paho-mqtt"
PACKAGES = ("paho", "aiomqtt", "asyncio_mqtt")
"""The top-level packages whose clients publish and subscribe MQTT topics."""
_MAX_TOPICS = 64
"""Most topics of one ``subscribe`` read."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's MQTT publishes and subscriptions to ``out.topics``."""
    if not Context(src, out).imports.uses(*PACKAGES):
        return
    defs = {d.qualname for d in out.definitions if d.kind in ("function", "method")}
    on_message, by_filter = _callbacks(root, src, defs)
    only = next(iter(set(on_message.values()))) if len(set(on_message.values())) == 1 else None
    subscribed: set[str] = set()
    for c in pubsub_calls(root, src):
        if c.method not in ("publish", "subscribe"):
            continue
        topic = c.args.get(0, "topic")
        if topic is None:
            continue
        line, col = src.line(c.at), src.col(c.at)
        if c.method == "publish":
            out.topics.append(TopicUse(FRAMEWORK, "produces", template(src, topic), c.scope, line, col, broker="mqtt"))
            continue
        for t in _filters(topic):
            text = src.text(t)
            subscribed.add(text)
            owner = (by_filter[text][0] if text in by_filter else None) or on_message.get(c.receiver) or only or c.scope
            out.topics.append(TopicUse(FRAMEWORK, "consumes", template(src, t), owner, line, col, broker="mqtt"))
    if subscribed:  # a callback for a narrower filter than the subscription's gets the messages matching it
        for text, (owner, node) in by_filter.items():
            if text not in subscribed:
                out.topics.append(TopicUse(FRAMEWORK, "consumes", template(src, node), owner, src.line(node),
                                           src.col(node), broker="mqtt"))


def _filters(node: Node) -> list[Node]:
    """The topic expressions of a ``subscribe`` argument: a topic, a ``(topic, qos)`` tuple's first item,
    each tuple's (or string's) of a list."""
    if node.type == "tuple" and node.named_children:
        return [node.named_children[0]]
    if node.type == "list":
        out = []
        for e in node.named_children[:_MAX_TOPICS]:
            out += [e.named_children[0]] if e.type == "tuple" and e.named_children else [e] if e.type != "comment" else []
        return out
    return [node]


def _callbacks(root: Node, src: SourceText, defs: set[str]) -> tuple[dict[str, str], dict[str, tuple[str, Node]]]:
    """The file's message callbacks that name a function of it: ``{client: cb}`` of ``client.on_message =
    cb`` (the first per client) and ``{filter source text: (cb, filter node)}`` of
    ``client.message_callback_add(filter, cb)``."""
    on_message: dict[str, str] = {}
    by_filter: dict[str, tuple[str, Node]] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(reversed(n.named_children))
        if n.type == "assignment":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is not None and right is not None and left.type == "attribute" \
                    and src.text(left.child_by_field_name("attribute")) == "on_message":
                owner = callback_owner(src, right, scope_of(n, src), defs)
                if owner:
                    on_message.setdefault(compact(src, left.child_by_field_name("object")), owner)
        elif n.type == "call":
            fn = n.child_by_field_name("function")
            if fn is None or fn.type != "attribute" or src.text(fn.child_by_field_name("attribute")) != "message_callback_add":
                continue
            args = Args.of(src, n.child_by_field_name("arguments"))
            sub, cb = args.get(0, "sub"), args.get(1, "callback")
            owner = callback_owner(src, cb, scope_of(n, src), defs) if sub is not None else None
            if owner and sub is not None:
                by_filter.setdefault(src.text(sub), (owner, sub))
    return on_message, by_filter


