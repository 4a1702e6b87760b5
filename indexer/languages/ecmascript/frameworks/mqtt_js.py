"""MQTT through MQTT.js (``mqtt``, ``async-mqtt``; JavaScript and TypeScript) -> :class:`~indexer.model.TopicUse`
(broker ``mqtt``, framework ``mqtt.js``); only in a file importing one of :data:`MODULES`.

* produces: ``client.publish(topic, message[, options][, callback])`` (``publishAsync`` too);
* consumes: ``client.subscribe(topic)``, each string of ``client.subscribe([t1, t2])`` and each key of
  ``client.subscribe({t1: {qos: 1}})`` (``subscribeAsync`` too). A topic is a filter: ``+`` matches one
  level, ``#`` the rest (the linker, :func:`indexer.frameworks.queues.mqtt_matches`, joins each publish
  to the wildcard filters matching it). MQTT.js hands every message of a client to its
  ``client.on('message', handler)`` listeners: the subscription's owner is that handler when the file
  registers one on the same receiver (an inline function becomes a definition of its own named
  ``message <topics>``, owning the calls in its body; a name of the file, the function it names), else
  the code around the ``subscribe`` call.

Any receiver counts (the file uses MQTT.js, and these method names are its client's). Topics are
:meth:`~indexer.languages.ecmascript.frameworks.common.JsFile.template` values (literals, constants,
template strings); a topic with a hole names no destination the linker reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import arguments, js_file, unwrap
from indexer.model import FileExtraction, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

    from indexer.languages.ecmascript.frameworks.common import JsFile

__all__ = ["LANGUAGES", "MODULES", "detect"]

LANGUAGES = ("javascript", "typescript")
FRAMEWORK = "mqtt.js"
MODULES = ("mqtt", "async-mqtt")
"""The packages whose clients publish and subscribe MQTT topics."""
_PUBLISH = frozenset({"publish", "publishAsync"})
_SUBSCRIBE = frozenset({"subscribe", "subscribeAsync"})
_MAX_TOPICS = 64
"""Most topics of one ``subscribe`` read."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's MQTT.js publishes and subscriptions to ``out.topics``."""
    if not any(i.module in MODULES or i.module.startswith("mqtt/") for i in out.imports):
        return
    jf = js_file(root, src, out)
    calls: list[tuple[str, str, Node, list[Node]]] = []  # (method, receiver, call, arguments)
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(reversed(n.named_children))
        fn = n.child_by_field_name("function") if n.type == "call_expression" else None
        if fn is None or fn.type != "member_expression":
            continue
        method, obj = jf.text(fn.child_by_field_name("property")), fn.child_by_field_name("object")
        if obj is not None and method in _PUBLISH | _SUBSCRIBE | {"on"}:
            calls.append((method, jf.receiver(obj), n, arguments(n.child_by_field_name("arguments"))))
    subscribed: dict[str, list[tuple[Node, list[Template]]]] = {}
    for method, receiver, call, args in calls:
        if not args:
            continue
        line, col = jf.pos(call)
        if method in _PUBLISH:
            out.topics.append(TopicUse(FRAMEWORK, "produces", jf.template(args[0]), jf.code_scope(call), line, col,
                                       broker="mqtt"))
        elif method in _SUBSCRIBE:
            subscribed.setdefault(receiver, []).append((call, _topics(jf, args[0])))
    for receiver, subs in subscribed.items():
        shown = "|".join(t.literal() or "{}" for _, topics in subs for t in topics)
        owner = _message_handler(jf, calls, receiver, f"message {shown}")
        for call, topics in subs:
            line, col = jf.pos(call)
            for t in topics:
                out.topics.append(TopicUse(FRAMEWORK, "consumes", t, owner or jf.code_scope(call), line, col,
                                           broker="mqtt"))


def _topics(jf: JsFile, node: Node) -> list[Template]:
    """The topic filters one ``subscribe`` argument names: a string (template, constant), each element
    of an array, each key of an object (``{'a/b': {qos: 1}}``)."""
    node = unwrap(node) or node
    if node.type == "array":
        return [jf.template(e) for e in node.named_children[:_MAX_TOPICS] if e.type != "comment"]
    if node.type == "object":
        return [Template.of(k) for k in list(jf.object_pairs(node))[:_MAX_TOPICS]]
    return [jf.template(node)]


def _message_handler(jf: JsFile, calls: list[tuple[str, str, Node, list[Node]]], receiver: str,
                     name: str) -> str | None:
    """The function the file's first ``receiver.on('message', handler)`` registers (an inline function
    made a definition named ``name``), else ``None``."""
    for method, r, call, args in calls:
        if method == "on" and r == receiver and len(args) >= 2 and jf.string(args[0]) == "message":
            found = jf.handler(args[1], call, name)
            return found[0] if found is not None else None
    return None
