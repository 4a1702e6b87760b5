"""C# messaging: Confluent.Kafka producers and consumers, MassTransit consumers and publishers
(``TopicUse``; ``owner`` the enclosing method).

* Confluent.Kafka (framework ``confluent-kafka``, broker ``kafka``), in a file using
  ``Confluent.Kafka``: ``X.ProduceAsync(topic, msg)`` / ``X.Produce(topic, msg)`` produce ``topic``;
  ``X.Subscribe(topic)`` / ``X.Subscribe(new[] { a, b })`` consume each. A topic is a literal, a
  ``const`` of the file, or a ``ref`` to a class constant (``Topics.Orders``).
* MassTransit (``masstransit``, broker ``rabbitmq``), in a file using ``MassTransit``: a class
  implementing ``IConsumer<OrderSubmitted>`` consumes ``OrderSubmitted`` through its ``Consume``
  method; ``X.Publish<OrderSubmitted>(...)``, ``X.Publish(new OrderSubmitted { ... })`` and
  ``X.Send<T>`` / ``X.Send(new T(...))`` produce it. The message type's name is the exchange
  MassTransit declares, used as the topic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import CsFile, cs_file
from indexer.model import FileExtraction, Template, TopicUse, drop_generics

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("csharp",)


def _topics(cf: CsFile, node: Node) -> list[Template]:
    if node.type in ("array_creation_expression", "implicit_array_creation_expression", "collection_expression"):
        init = next((c for c in node.named_children if c.type == "initializer_expression"), node)
        return [t for t in (cf.template(c) for c in init.named_children) if t is not None]
    t = cf.template(node)
    return [t] if t is not None else []


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka and MassTransit message uses to ``out``."""
    cf = cs_file(root, src, out)
    kafka = cf.uses("Confluent.Kafka")
    masstransit = cf.uses("MassTransit")
    if not (kafka or masstransit):
        return
    for call in cf.calls:
        sel = cf.member(call)
        if sel is None:
            continue
        name = sel[1]
        args = cf.args(call)
        line, col = cf.pos(call)
        if kafka and name in ("ProduceAsync", "Produce") and len(args) >= 2:
            for t in _topics(cf, args[0]):
                out.topics.append(TopicUse("confluent-kafka", "produces", t, cf.owner(call), line, col))
        elif kafka and name == "Subscribe" and args:
            for t in _topics(cf, args[0]):
                out.topics.append(TopicUse("confluent-kafka", "consumes", t, cf.owner(call), line, col))
        elif masstransit and name in ("Publish", "Send"):
            types = cf.type_args(call)
            msg = drop_generics(types[0]) if types else None
            if msg is None and args and args[0].type == "object_creation_expression":
                msg = drop_generics(cf.expr(args[0].child_by_field_name("type")))
            if msg:
                out.topics.append(TopicUse("masstransit", "produces", Template.of(msg.rsplit(".", 1)[-1]),
                                           cf.owner(call), line, col, broker="rabbitmq"))
    if masstransit:
        for d in list(out.definitions):
            if d.kind != "class":
                continue
            for text in _consumer_messages(cf, d.qualname):
                consume = f"{d.qualname}.Consume"
                owner = consume if any(x.qualname == consume for x in out.definitions) else d.qualname
                out.topics.append(TopicUse("masstransit", "consumes", Template.of(text), owner, d.name_line,
                                           d.name_col, broker="rabbitmq"))


def _consumer_messages(cf: CsFile, qualname: str) -> list[str]:
    """Message types of the ``IConsumer<T>`` a class implements (generic arguments are dropped from
    ``Definition.implements``, so the base list is read again)."""
    out = []
    for cls in cf.classes:
        name = cls.child_by_field_name("name")
        if name is None or cf.owner_type(name) != qualname:
            continue
        for c in cls.named_children:
            if c.type != "base_list":
                continue
            for b in c.named_children:
                if b.type == "generic_name" and cf.text(b.named_children[0]) == "IConsumer":
                    targs = next((x for x in b.named_children if x.type == "type_argument_list"), None)
                    if targs is not None and targs.named_children:
                        out.append(drop_generics(cf.expr(targs.named_children[0])).rsplit(".", 1)[-1])
    return out
