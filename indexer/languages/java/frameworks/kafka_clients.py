"""Plain Apache Kafka clients in Java -> :class:`~indexer.model.TopicUse` (framework ``kafka-clients``,
broker ``kafka``, the rules of the Kotlin detector of the same name), in a file importing from
``org.apache.kafka.clients``.

* consumes: ``c.subscribe(Collections.singletonList(topic))`` / ``List.of(a, b)`` / ``Arrays.asList`` /
  ``Set.of`` / ``Collections.singleton`` (one fact per element; a ``Pattern`` or a collection held in a
  variable names no topic here) on a consumer: a receiver whose declared type is one of
  :data:`~indexer.frameworks.jvm.KAFKA_CONSUMERS`, or, with no declared type, whose text contains
  ``consumer`` (case-insensitive). The topic is consumed where records are read: by each method calling
  ``poll`` on the same consumer (a local or parameter: in the subscribing method; a field: in the
  methods of its class), at that ``poll``; with no such ``poll``, by the subscribing method, at
  ``subscribe``.
* produces: ``p.send(record)`` / ``p.send(record, callback)`` on a producer (declared type in
  :data:`~indexer.frameworks.jvm.KAFKA_PRODUCERS`, or ``producer`` in its text), the record a
  ``new ProducerRecord<>(topic, ...)`` in place or in a local declared once
  (:func:`~indexer.languages.java.frameworks.spring_kafka.record_topic`); at ``send``, owned by the
  enclosing method.

Topics are templates (:meth:`~indexer.languages.java.frameworks.common.JavaFile.template`): literals,
constants as ``ref``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import KAFKA_CLIENTS_PACKAGE, KAFKA_CONSUMERS, KAFKA_PRODUCERS
from indexer.languages.java.frameworks.common import JavaFile, compact
from indexer.languages.java.frameworks.spring_kafka import record_topic
from indexer.model import FileExtraction, Template, TopicUse, is_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "kafka-clients"
_CONSUMERS = {t: "consumer" for t in KAFKA_CONSUMERS}
_PRODUCERS = {t: "producer" for t in KAFKA_PRODUCERS}
_COLLECTIONS = frozenset({"singletonList", "singleton", "of", "asList"})
"""Factories of a collection of their arguments (``Collections.singletonList``, ``List.of``...)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka client subscriptions (with the methods polling them) and record sends
    to ``out.topics``."""
    if not any(i.module.startswith(KAFKA_CLIENTS_PACKAGE) for i in out.imports):
        return
    if not any(c.name in ("subscribe", "send") for c in out.calls):
        return
    jf = JavaFile.of(root, src, out)
    found: list[TopicUse] = []
    for name_node, name, receiver, args, caller in jf.invocations(("subscribe", "send")):
        text = compact(src, receiver)
        if name == "subscribe" and args and jf.client_kind(text, caller, _CONSUMERS) == "consumer":
            topics = [t for t in (jf.template(e) for e in _elements(src, args[0])) if any(k != "hole" and not is_call_ref(x) for k, x in t.parts)]
            sites = _polls(jf, out, receiver, text, caller, src) or [(caller, src.line(name_node), src.col(name_node))]
            found += [TopicUse(FRAMEWORK, "consumes", t, owner, ln, cl) for owner, ln, cl in sites for t in topics]
        elif name == "send" and args and jf.client_kind(text, caller, _PRODUCERS) == "producer":
            topic = record_topic(jf, src, args[0])
            t = jf.template(topic) if topic is not None else Template()
            if any(k != "hole" and not is_call_ref(x) for k, x in t.parts):
                found.append(TopicUse(FRAMEWORK, "produces", t, caller, src.line(name_node), src.col(name_node)))
    out.topics.extend(sorted(found, key=lambda u: (u.line, u.col, u.owner or "", u.topic.parts)))


def _elements(src: SourceText, arg: Node) -> list[Node]:
    """The element expressions of a collection written in place (:data:`_COLLECTIONS`); ``[]`` for
    anything else."""
    if arg.type != "method_invocation" or src.text(arg.child_by_field_name("name")) not in _COLLECTIONS:
        return []
    args = arg.child_by_field_name("arguments")
    return [c for c in args.named_children if c.type not in ("line_comment", "block_comment")] if args is not None else []


def _polls(jf: JavaFile, out: FileExtraction, receiver: Node, text: str, caller: str | None,
           src: SourceText) -> list[tuple[str | None, int, int]]:
    """The ``poll`` call sites on the consumer ``receiver`` names: in ``caller`` (and its lambdas) when
    it is a local or parameter there, else, a field, in the methods of the class holding it."""
    name = text.removeprefix("this.")
    if not name.isidentifier() or caller is None:
        return []
    local, _ = jf.local(receiver) if receiver.type == "identifier" else (False, None)
    scope = caller if local else caller.rpartition(".")[0]
    if not scope:
        return []
    found = {(c.caller, c.line, c.col) for c in out.calls
             if c.name == "poll" and c.receiver in (name, f"this.{name}") and c.caller is not None
             and (c.caller == scope or c.caller.startswith(f"{scope}."))}
    return sorted(found, key=lambda s: (s[1], s[2]))
