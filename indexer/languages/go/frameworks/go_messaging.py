"""Kafka producers and consumers in Go: sarama (IBM / Shopify), segmentio kafka-go and
confluent-kafka-go (``TopicUse``, broker ``kafka``; ``owner`` the enclosing function or method).

* sarama (framework ``sarama``): a ``sarama.ProducerMessage{Topic: t}`` literal produces ``t``;
  ``X.ConsumePartition(t, ...)`` consumes ``t``; ``X.Consume(ctx, []string{t...}, handler)`` (a
  consumer group) consumes each ``t``.
* kafka-go (``kafka-go``): ``kafka.Writer{Topic: t}`` / ``kafka.WriterConfig{Topic: t}`` and a
  ``kafka.Message{Topic: t}`` produce ``t``; ``kafka.ReaderConfig{Topic: t}`` / ``GroupTopics:
  []string{...}`` consume.
* confluent-kafka-go (``confluent-kafka``): ``kafka.TopicPartition{Topic: &t}`` in a produced message
  produces ``t``; ``X.SubscribeTopics([]string{t...}, cb)`` and ``X.Subscribe(t, cb)`` consume.

A topic is a literal, a constant of the file (inlined), ``&name`` of one, or a ``ref`` to a named
constant elsewhere (``config.Topic``); a plain variable is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.go.frameworks.common import GoFile, go_file
from indexer.model import FileExtraction, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("go",)

_SARAMA = ("github.com/IBM/sarama", "github.com/Shopify/sarama")
_KAFKA_GO = ("github.com/segmentio/kafka-go",)
_CONFLUENT = ("github.com/confluentinc/confluent-kafka-go",)


def _keyed(gf: GoFile, literal: Node) -> dict[str, Node]:
    """``{field: value}`` of a keyed composite literal."""
    out: dict[str, Node] = {}
    body = literal.child_by_field_name("body")
    for el in body.named_children if body is not None else ():
        if el.type == "keyed_element" and el.named_child_count == 2:
            key, value = el.named_children
            if key.named_children:
                key = key.named_children[0]
            if value.type == "literal_element" and value.named_children:
                value = value.named_children[0]
            out[gf.text(key)] = value
    return out


def _strings(gf: GoFile, node: Node | None) -> list[Template]:
    """The topics of ``[]string{...}`` or of one string expression."""
    if node is None:
        return []
    if node.type == "composite_literal":
        body = node.child_by_field_name("body")
        items = [c.named_children[0] if c.type == "literal_element" and c.named_children else c
                 for c in (body.named_children if body is not None else [])]
        return [t for t in (gf.string_value(i) for i in items) if t is not None]
    t = gf.string_value(node)
    return [t] if t is not None else []


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka topic uses to ``out``."""
    gf = go_file(root, src, out)
    sarama = gf.has_import(*_SARAMA)
    kafka_go = gf.has_import(*_KAFKA_GO)
    confluent = gf.has_import(*_CONFLUENT)
    if not (sarama or kafka_go or confluent):
        return

    def add(fw: str, role: str, topics: list[Template], node: Node) -> None:
        line, col = gf.pos(node)
        owner = gf.owner(node)
        for t in topics:
            out.topics.append(TopicUse(fw, role, t, owner, line, col))

    for lit in gf.literals:
        tnode = lit.child_by_field_name("type")
        t = gf.expr(tnode) if tnode is not None else ""
        pkg, _, name = t.rpartition(".")
        if sarama and pkg == sarama and name == "ProducerMessage":
            add("sarama", "produces", _strings(gf, _keyed(gf, lit).get("Topic")), lit)
        elif kafka_go and pkg == kafka_go:
            fields = _keyed(gf, lit)
            if name in ("Writer", "WriterConfig", "Message"):
                add("kafka-go", "produces", _strings(gf, fields.get("Topic")), lit)
            elif name == "ReaderConfig":
                add("kafka-go", "consumes", _strings(gf, fields.get("Topic")) + _strings(gf, fields.get("GroupTopics")),
                    lit)
        elif confluent and pkg == confluent and name == "TopicPartition":
            add("confluent-kafka", "produces", _strings(gf, _keyed(gf, lit).get("Topic")), lit)
    for call in gf.calls:
        sel = gf.selector(call)
        if sel is None:
            continue
        _, name = sel
        args = gf.args(call)
        if sarama and name == "ConsumePartition" and args:
            add("sarama", "consumes", _strings(gf, args[0]), call)
        elif sarama and name == "Consume" and len(args) == 3:
            add("sarama", "consumes", _strings(gf, args[1]), call)
        elif confluent and name in ("SubscribeTopics", "Subscribe") and args:
            add("confluent-kafka", "consumes", _strings(gf, args[0]), call)
