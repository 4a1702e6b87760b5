"""Kafka producers and consumers in Go: sarama (IBM / Shopify), segmentio kafka-go and
confluent-kafka-go (``TopicUse``, broker ``kafka``; ``owner`` the enclosing function or method);
RabbitMQ through streadway/amqp and its successor rabbitmq/amqp091-go (broker ``rabbitmq``).

* sarama (framework ``sarama``): a ``sarama.ProducerMessage{Topic: t}`` literal produces ``t``;
  ``X.ConsumePartition(t, ...)`` consumes ``t``; ``X.Consume(ctx, []string{t...}, handler)`` (a
  consumer group) consumes each ``t``.
* kafka-go (``kafka-go``): ``kafka.Writer{Topic: t}`` / ``kafka.WriterConfig{Topic: t}`` and a
  ``kafka.Message{Topic: t}`` produce ``t``; ``kafka.ReaderConfig{Topic: t}`` / ``GroupTopics:
  []string{...}`` consume.
* confluent-kafka-go (``confluent-kafka``): ``kafka.TopicPartition{Topic: &t}`` in a produced message
  produces ``t``; ``X.SubscribeTopics([]string{t...}, cb)`` and ``X.Subscribe(t, cb)`` consume.

* amqp (framework ``amqp``; a file importing ``github.com/streadway/amqp`` or
  ``github.com/rabbitmq/amqp091-go``; any receiver, the channel's methods known by name and arity, as
  amqplib's): ``ch.Consume(queue, consumer, autoAck, exclusive, noLocal, noWait, args)`` (7 arguments;
  ``ConsumeWithContext(ctx, ...)`` 8) consumes ``queue``; ``ch.Publish(exchange, key, mandatory,
  immediate, msg)`` (5; ``PublishWithContext`` / ``PublishWithDeferredConfirm(WithContext)`` with a
  leading ``ctx``, 6) produces ``key`` on ``exchange`` (``""``: the default exchange, whose key is the
  queue); ``ch.QueueBind(queue, key, exchange, noWait, args)`` (5) is a :class:`~indexer.model.QueueBinding`.
  A queue written ``q.Name`` where the function gives ``q`` once, from ``ch.QueueDeclare(name, ...)``,
  is ``name`` (the queue the broker declared under that name).

A topic is a literal, a constant of the file (inlined), ``&name`` of one, or a ``ref`` to a named
constant elsewhere (``config.Topic``); a plain variable is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.go.frameworks.common import GoFile, go_file
from indexer.model import FileExtraction, QueueBinding, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("go",)

_SARAMA = ("github.com/IBM/sarama", "github.com/Shopify/sarama")
_KAFKA_GO = ("github.com/segmentio/kafka-go",)
_CONFLUENT = ("github.com/confluentinc/confluent-kafka-go",)
_AMQP = ("github.com/streadway/amqp", "github.com/rabbitmq/amqp091-go")
_AMQP_CONSUME = {"Consume": 7, "ConsumeWithContext": 8}
"""Channel methods consuming a queue: name -> arity; the queue is the argument ``arity - 7``."""
_AMQP_PUBLISH = {"Publish": 5, "PublishWithContext": 6, "PublishWithDeferredConfirm": 6,
                 "PublishWithDeferredConfirmWithContext": 6}
"""Channel methods publishing: name -> arity; exchange and key are arguments ``arity - 5`` and ``arity - 4``."""


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
    if gf.has_import(*_AMQP):
        _amqp(gf, out)
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


def _declared_queue(gf: GoFile, node: Node) -> Template | None:
    """The queue name ``q.Name`` stands for: ``name`` when the function around ``node`` gives ``q``
    exactly one value, the first result of ``X.QueueDeclare(name, ...)`` (or ``QueueDeclarePassive``);
    else ``None``."""
    if node.type != "selector_expression" or gf.text(node.child_by_field_name("field")) != "Name":
        return None
    operand = node.child_by_field_name("operand")
    if operand is None or operand.type != "identifier":
        return None
    name = gf.text(operand)
    fn = node.parent
    while fn is not None and fn.type not in ("function_declaration", "method_declaration", "func_literal"):
        fn = fn.parent
    body = fn.child_by_field_name("body") if fn is not None else None
    given: list[Node] = []
    stack = [body] if body is not None else []
    while stack:
        n = stack.pop()
        if n.type in ("short_var_declaration", "assignment_statement", "var_spec"):
            left = n.child_by_field_name("left")
            names = left.named_children if left is not None else n.children_by_field_name("name")
            if names and gf.text(names[0]) == name:
                given.append(n)
            elif any(gf.text(x) == name for x in names):
                return None  # given in another position: not the declared queue
        stack.extend(n.named_children)
    if len(given) != 1:
        return None
    right = given[0].child_by_field_name("right") or given[0].child_by_field_name("value")
    if right is not None and right.type == "expression_list" and right.named_child_count == 1:
        right = right.named_children[0]
    if right is None or right.type != "call_expression":
        return None
    sel = gf.selector(right)
    args = gf.args(right)
    if sel is None or sel[1] not in ("QueueDeclare", "QueueDeclarePassive") or not args:
        return None
    return gf.string_value(args[0])


def _amqp(gf: GoFile, out: FileExtraction) -> None:
    """Append the file's amqp (streadway / amqp091-go) consumes, publishes and queue bindings."""

    def name_of(node: Node) -> Template | None:
        return _declared_queue(gf, node) or gf.string_value(node)

    def exchange_of(node: Node) -> Template | None:  # "" is the default exchange, Template()
        return Template() if gf.text(node) in ('""', "``") else gf.string_value(node)

    for call in gf.calls:
        sel = gf.selector(call)
        if sel is None:
            continue
        method = sel[1]
        args = gf.args(call)
        line, col = gf.pos(call)
        if _AMQP_CONSUME.get(method) == len(args):
            queue = name_of(args[len(args) - 7])
            if queue is not None:
                out.topics.append(TopicUse("amqp", "consumes", queue, gf.owner(call), line, col, broker="rabbitmq"))
        elif _AMQP_PUBLISH.get(method) == len(args):
            exchange, key = exchange_of(args[len(args) - 5]), name_of(args[len(args) - 4])
            if exchange is not None and key is not None:
                out.topics.append(TopicUse("amqp", "produces", key, gf.owner(call), line, col, broker="rabbitmq",
                                           exchange=exchange))
        elif method == "QueueBind" and len(args) == 5:
            queue, key, exchange = name_of(args[0]), exchange_of(args[1]), exchange_of(args[2])
            if queue is not None and key is not None and exchange is not None:
                out.queue_bindings.append(QueueBinding("amqp", queue, exchange, key, line, col, gf.owner(call)))
