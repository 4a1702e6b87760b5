"""Kafka Streams topologies in Java -> :class:`~indexer.model.TopicUse` (framework ``kafka-streams``, broker
``kafka``), in a file importing from ``org.apache.kafka.streams``.

* consumes: ``builder.stream(topic, ...)``, ``builder.table(topic, ...)``, ``builder.globalTable(topic, ...)``
  on a ``StreamsBuilder`` (the receiver's declared type; with none known, ``streamsbuilder`` in its text,
  case-insensitive), the topic a name or a collection written in place (``List.of(a, b)``,
  ``Arrays.asList``, ``Collections.singletonList``, ``Set.of``: one fact per element; a ``Pattern`` names no
  topic). The topology's processors (``join(..., service::confirm)``, ``mapValues(v -> ...)``) are calls of the
  method building it, so that method is the consumer, at the ``stream`` call.
* produces: ``s.to(topic, ...)`` / ``s.through(topic, ...)`` where the chain ``s`` starts at a stream of the
  topology: a name declared ``KStream`` / ``KTable`` / ``KGroupedStream`` / ``KGroupedTable`` (locals,
  parameters, fields) or a ``StreamsBuilder`` call above; at ``to``, owned by the enclosing method. A
  ``TopicNameExtractor`` (a lambda, a name of another type) names no topic.

Topics are templates (:meth:`~indexer.languages.java.frameworks.common.JavaFile.template`): literals,
constants as ``ref``; one with no literal or constant piece is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import KAFKA_STREAMS_PACKAGE, KAFKA_STREAMS_SINKS, KAFKA_STREAMS_SOURCES, KAFKA_STREAMS_TYPES
from indexer.languages.java.frameworks.common import JavaFile, compact
from indexer.model import FileExtraction, Template, TopicUse, is_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "kafka-streams"
_BUILDERS = {"StreamsBuilder": "builder"}
_COLLECTIONS = frozenset({"singletonList", "singleton", "of", "asList"})
_MAX_CHAIN = 64


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka Streams sources (consumes) and sinks (produces) to ``out.topics``."""
    if not any(i.module.startswith(KAFKA_STREAMS_PACKAGE) for i in out.imports):
        return
    if not any(c.name in KAFKA_STREAMS_SOURCES or c.name in KAFKA_STREAMS_SINKS for c in out.calls):
        return
    jf = JavaFile.of(root, src, out)
    found: list[TopicUse] = []
    for name_node, name, receiver, args, caller in jf.invocations(KAFKA_STREAMS_SOURCES | KAFKA_STREAMS_SINKS):
        if not args:
            continue
        if name in KAFKA_STREAMS_SOURCES:
            if not _is_builder(jf, src, receiver, caller):
                continue
            for t in (jf.template(e) for e in _elements(src, args[0])):
                if _named(t):
                    found.append(TopicUse(FRAMEWORK, "consumes", t, caller, src.line(name_node), src.col(name_node)))
        elif _is_stream(jf, src, receiver, caller) and args[0].type not in ("lambda_expression", "method_reference"):
            t = jf.template(args[0])
            if _named(t):
                found.append(TopicUse(FRAMEWORK, "produces", t, caller, src.line(name_node), src.col(name_node)))
    out.topics.extend(sorted(found, key=lambda u: (u.line, u.col, u.owner or "", u.topic.parts)))


def _named(t: Template) -> bool:
    """Whether a topic template has a literal or constant piece (a name the linker can render)."""
    return any(k != "hole" and not is_call_ref(x) for k, x in t.parts)


def _is_builder(jf: JavaFile, src: SourceText, receiver: Node, caller: str | None) -> bool:
    return jf.client_kind(compact(src, receiver), caller, _BUILDERS) == "builder"


def _is_stream(jf: JavaFile, src: SourceText, receiver: Node, caller: str | None) -> bool:
    """Whether the receiver chain of a ``to`` / ``through`` starts at a stream: a name of a stream type or
    a source call on a ``StreamsBuilder``."""
    node = receiver
    for _ in range(_MAX_CHAIN):
        if node.type != "method_invocation":
            break
        obj = node.child_by_field_name("object")
        name = src.text(node.child_by_field_name("name"))
        if obj is not None and name in KAFKA_STREAMS_SOURCES and _is_builder(jf, src, obj, caller):
            return True
        if obj is None:
            return False
        node = obj
    if node.type == "field_access" and src.text(node.child_by_field_name("object")) == "this":
        node = node.child_by_field_name("field")
    if node.type != "identifier":
        return False
    declared = jf.declared_type(src.text(node), caller)
    return declared is not None and declared.split(".")[-1] in KAFKA_STREAMS_TYPES


def _elements(src: SourceText, arg: Node) -> list[Node]:
    """The topic expressions of a source's first argument: each element of a collection written in place
    (:data:`_COLLECTIONS`), else the argument itself; ``[]`` for a ``Pattern``."""
    if arg.type == "method_invocation":
        name = src.text(arg.child_by_field_name("name"))
        if name in _COLLECTIONS:
            args = arg.child_by_field_name("arguments")
            return [c for c in args.named_children if c.type not in ("line_comment", "block_comment")] \
                if args is not None else []
        if name == "compile":
            return []
    return [arg]
