"""Kafka Streams topologies in Kotlin -> :class:`~indexer.model.TopicUse` (framework ``kafka-streams``, broker
``kafka``), in a file importing from ``org.apache.kafka.streams``: the rules of the Java detector
(:mod:`indexer.languages.java.frameworks.kafka_streams`).

* consumes: ``builder.stream(topic)`` / ``builder.stream<K, V>(topic)``, ``table``, ``globalTable`` on a
  ``StreamsBuilder`` (the receiver's declared type; with none, ``streamsbuilder`` in its text), the topic a
  name or a collection written in place (``listOf(a, b)``: one fact per element); owned by the function
  building the topology, at the call.
* produces: ``s.to(topic)`` / ``s.through(topic)`` where the chain ``s`` starts at a stream: a name declared
  ``KStream`` / ``KTable`` / ``KGroupedStream`` / ``KGroupedTable``, a name bound to a source call of a
  ``StreamsBuilder`` (``val stream = builder.stream<String, Order>("orders")``), or such a call in the chain.
  A lambda (a ``TopicNameExtractor``) names no topic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import KAFKA_STREAMS_PACKAGE, KAFKA_STREAMS_SINKS, KAFKA_STREAMS_SOURCES, KAFKA_STREAMS_TYPES
from indexer.languages.kotlin.frameworks.common import (
    callee,
    caller_at,
    declared_type,
    elements,
    short_type,
    string_arg,
    template,
)
from indexer.model import FileExtraction, Template, TopicUse, is_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)
FRAMEWORK = "kafka-streams"
_MAX_CHAIN = 64


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka Streams sources (consumes) and sinks (produces) to ``out.topics``."""
    if not any(i.module.startswith(KAFKA_STREAMS_PACKAGE) for i in out.imports):
        return
    if not any(c.name in KAFKA_STREAMS_SOURCES or c.name in KAFKA_STREAMS_SINKS for c in out.calls):
        return
    found: list[TopicUse] = []
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "call_expression":
            continue
        name_node, receiver = callee(n)
        if name_node is None or receiver is None:
            continue
        name = src.text(name_node)
        line, col = src.line(name_node), src.col(name_node)
        scope = caller_at(out, line, col)
        if name in KAFKA_STREAMS_SOURCES:
            if not _is_builder(receiver, scope, src, out):
                continue
            arg = string_arg(src, n, 0)
            for t in (template(src, e) for e in elements(arg)) if arg is not None else ():
                if _named(t):
                    found.append(TopicUse(FRAMEWORK, "consumes", t, scope, line, col))
        elif name in KAFKA_STREAMS_SINKS and _is_stream(receiver, scope, src, out):
            arg = string_arg(src, n, 0)
            if arg is None or arg.type in ("lambda_literal", "anonymous_function", "callable_reference"):
                continue
            t = template(src, arg)
            if _named(t):
                found.append(TopicUse(FRAMEWORK, "produces", t, scope, line, col))
    out.topics.extend(sorted(found, key=lambda u: (u.line, u.col, u.owner or "", u.topic.parts)))


def _named(t: Template) -> bool:
    """Whether a topic template has a literal or constant piece (a name the linker can render)."""
    return any(k != "hole" and not is_call_ref(x) for k, x in t.parts)






def _is_builder(receiver: Node, scope: str | None, src: SourceText, out: FileExtraction) -> bool:
    text = src.text(receiver).removeprefix("this.")
    if not text.isidentifier():
        return False
    declared = declared_type(out, scope, text)
    return short_type(declared) == "StreamsBuilder" if declared is not None else "streamsbuilder" in text.lower()


def _is_stream(receiver: Node, scope: str | None, src: SourceText, out: FileExtraction) -> bool:
    """Whether the receiver chain of a ``to`` / ``through`` starts at a stream (module docstring)."""
    node = receiver
    for _ in range(_MAX_CHAIN):
        if node.type != "call_expression":
            break
        name_node, obj = callee(node)
        if obj is None:
            return False
        if name_node is not None and src.text(name_node) in KAFKA_STREAMS_SOURCES and _is_builder(obj, scope, src, out):
            return True
        node = obj
    text = src.text(node).removeprefix("this.")
    if node.type not in ("simple_identifier", "navigation_expression", "this_expression") or not text.isidentifier():
        return False
    declared = declared_type(out, scope, text)
    if declared is None:
        return False
    if short_type(declared) in KAFKA_STREAMS_TYPES:
        return True
    head, _, member = declared.partition("(")[0].rpartition(".")  # bound to `builder.stream(...)`
    return member in KAFKA_STREAMS_SOURCES and head.isidentifier() and short_type(declared_type(out, scope, head) or "") == "StreamsBuilder"
