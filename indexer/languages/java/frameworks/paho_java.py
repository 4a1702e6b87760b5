"""MQTT through Eclipse Paho in Java (``org.eclipse.paho.client.mqttv3`` / ``org.eclipse.paho.mqttv5``) ->
:class:`~indexer.model.TopicUse` (broker ``mqtt``, framework ``paho-java``), in a file importing from
``org.eclipse.paho``.

* produces: ``client.publish(topic, message)`` (``publish(topic, payload, qos, retained)`` too);
* consumes: ``client.subscribe(topicFilter, ...)`` and each element of ``subscribe(new String[]{a, b}, ...)``:
  a filter (``+`` one level, ``#`` the rest: the linker joins each publish to the wildcard filters matching
  it). Paho hands messages to the ``IMqttMessageListener`` given to ``subscribe`` (a lambda: its calls are
  the subscribing method's, which owns the use) or else to the client's ``MqttCallback``: the file's one
  ``messageArrived`` method, when the file defines exactly one, owns the use; otherwise the subscribing
  method does.

``client`` is a receiver whose declared type is one of :data:`CLIENT_TYPES`, or, with no declared type,
whose text contains ``mqtt`` or ``client`` (case-insensitive). Topics are templates (literals, constants).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import JavaFile, compact
from indexer.model import FileExtraction, TopicUse, is_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["CLIENT_TYPES", "LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "paho-java"
PACKAGE = "org.eclipse.paho"
CLIENT_TYPES = {t: "mqtt" for t in ("MqttClient", "MqttAsyncClient", "IMqttClient", "IMqttAsyncClient", "mqtt", "client")}
"""The Paho client types (and, for an undeclared receiver, the words its text may contain)."""
_MAX_TOPICS = 64


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Paho publishes and subscriptions to ``out.topics``."""
    if not any(i.module.startswith(PACKAGE) for i in out.imports):
        return
    if not any(c.name in ("subscribe", "publish") for c in out.calls):
        return
    jf = JavaFile.of(root, src, out)
    arrived = [d.qualname for d in out.definitions if d.kind == "method" and d.name == "messageArrived"]
    found: list[TopicUse] = []
    for name_node, name, receiver, args, caller in jf.invocations(("subscribe", "publish")):
        if not args or jf.client_kind(compact(src, receiver), caller, CLIENT_TYPES) != "mqtt":
            continue
        line, col = src.line(name_node), src.col(name_node)
        if name == "publish":
            t = jf.template(args[0])
            if any(k != "hole" and not is_call_ref(x) for k, x in t.parts):
                found.append(TopicUse(FRAMEWORK, "produces", t, caller, line, col, broker="mqtt"))
            continue
        listener = len(args) > 1 and args[-1].type == "lambda_expression"
        owner = arrived[0] if len(arrived) == 1 and not listener else caller
        for e in _topics(args[0]):
            t = jf.template(e)
            if any(k != "hole" and not is_call_ref(x) for k, x in t.parts):
                found.append(TopicUse(FRAMEWORK, "consumes", t, owner, line, col, broker="mqtt"))
    out.topics.extend(sorted(found, key=lambda u: (u.line, u.col, u.owner or "", u.topic.parts)))


def _topics(arg: Node) -> list[Node]:
    """The topic expressions of ``subscribe``'s first argument: itself, or the elements of a ``new
    String[]{...}`` array written in place."""
    if arg.type == "array_creation_expression":
        init = arg.child_by_field_name("value")
        return [c for c in init.named_children if c.type not in ("line_comment", "block_comment")][:_MAX_TOPICS] \
            if init is not None else []
    if arg.type == "array_initializer":
        return [c for c in arg.named_children if c.type not in ("line_comment", "block_comment")][:_MAX_TOPICS]
    return [arg]
