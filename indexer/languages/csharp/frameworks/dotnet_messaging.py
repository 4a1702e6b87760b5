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
* Integration events (``eventbus``, broker ``rabbitmq``; the event bus of eShop and
  eShopOnContainers, whose RabbitMQ implementation publishes with the event's class name as routing
  key, ``@event.GetType().Name``, and binds each subscription's queue to ``typeof(T).Name``):
  ``X.PublishAsync(e)`` / ``X.Publish(e)`` on a name typed ``IEventBus`` produces the class of ``e``
  (``new E(...)``, a conditional of two creations, or a local every value of which is one);
  a class implementing ``IIntegrationEventHandler<E>`` consumes ``E`` through its ``Handle``. An
  event handed to another method first (an outbox's ``SaveEventAsync(e)``, a wrapper taking the
  base ``IntegrationEvent``) is not followed.
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
    """Append the file's Kafka, MassTransit and integration-event-bus message uses to ``out``."""
    cf = cs_file(root, src, out)
    if b"IEventBus" in src.data or b"IIntegrationEventHandler" in src.data:
        _event_bus(cf, out)
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


def _event_bus(cf: CsFile, out: FileExtraction) -> None:
    """Integration events (framework ``eventbus``): ``X.PublishAsync(e)`` / ``X.Publish(e)`` on a
    name typed ``IEventBus`` produces ``e``'s class name; a class implementing
    ``IIntegrationEventHandler<E>`` consumes ``E`` through its ``Handle``."""
    buses = {b.name for b in out.bindings if _short(b.type) == "IEventBus"}
    buses |= {n for d in out.definitions if d.kind == "field" and _short(d.field_type or "") == "IEventBus"
              for n in (d.name, f"this.{d.name}")}
    for call in cf.calls:
        sel = cf.member(call)
        args = cf.args(call)
        if sel is None or sel[1] not in ("PublishAsync", "Publish") or sel[0] not in buses or not args:
            continue
        line, col = cf.pos(call)
        for msg in _message_types(cf, args[0]):
            out.topics.append(TopicUse("eventbus", "produces", Template.of(msg), cf.owner(call), line, col,
                                       broker="rabbitmq"))
    for d in list(out.definitions):
        if d.kind != "class":
            continue
        for text in _consumer_messages(cf, d.qualname, "IIntegrationEventHandler"):
            handle = f"{d.qualname}.Handle"
            owner = handle if any(x.qualname == handle for x in out.definitions) else d.qualname
            out.topics.append(TopicUse("eventbus", "consumes", Template.of(text), owner, d.name_line, d.name_col,
                                       broker="rabbitmq"))


def _short(type_text: str) -> str:
    return drop_generics(type_text).rsplit(".", 1)[-1].rstrip("?")


def _message_types(cf: CsFile, node: Node) -> list[str]:
    """Class names of the messages an argument holds: ``new E(...)``, either side of ``c ? new A() :
    new B()``, or every value a local is given when each is one of those; ``[]`` when any is not
    known (a parameter, a call's result)."""
    if node.type == "object_creation_expression":
        return [_short(cf.expr(node.child_by_field_name("type")))]
    if node.type == "conditional_expression":
        sides = [_message_types(cf, node.child_by_field_name(f)) for f in ("consequence", "alternative")]
        return sides[0] + sides[1] if all(sides) else []
    if node.type == "parenthesized_expression" and node.named_children:
        return _message_types(cf, node.named_children[0])
    if node.type == "identifier":
        values = cf.local_values(node)
        found = [_message_types(cf, v) for v in values or () if v.type != "identifier"]
        return sorted({m for f in found for m in f}) if found and all(found) else []
    return []


def _consumer_messages(cf: CsFile, qualname: str, interface: str = "IConsumer") -> list[str]:
    """Message types of the ``IConsumer<T>`` (or another generic ``interface``) a class implements
    (generic arguments are dropped from ``Definition.implements``, so the base list is read again)."""
    out = []
    for cls in cf.classes:
        name = cls.child_by_field_name("name")
        if name is None or cf.owner_type(name) != qualname:
            continue
        for c in cls.named_children:
            if c.type != "base_list":
                continue
            for b in c.named_children:
                if b.type == "generic_name" and cf.text(b.named_children[0]) == interface:
                    targs = next((x for x in b.named_children if x.type == "type_argument_list"), None)
                    if targs is not None and targs.named_children:
                        out.append(drop_generics(cf.expr(targs.named_children[0])).rsplit(".", 1)[-1])
    return out
