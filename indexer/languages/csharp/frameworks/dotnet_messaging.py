"""C# messaging: Confluent.Kafka producers and consumers, MassTransit consumers and publishers
(``TopicUse``; ``owner`` the enclosing method).

* Confluent.Kafka (framework ``confluent-kafka``, broker ``kafka``), in a file using
  ``Confluent.Kafka``: ``X.ProduceAsync(topic, msg)`` / ``X.Produce(topic, msg)`` produce ``topic``;
  ``X.Subscribe(topic)`` / ``X.Subscribe(new[] { a, b })`` consume each, owned by the methods of the
  type calling ``X.Consume(...)`` (at that call), else by the ``Subscribe`` call's method. A topic is a
  literal, a ``const`` or ``readonly`` string of the file (an environment variable's literal default:
  ``Environment.GetEnvironmentVariable("T") ?? "orders"``), or a ``ref`` to a class constant (``Topics.Orders``).
* MassTransit (``masstransit``, broker ``rabbitmq``), in a file using ``MassTransit``: a class
  implementing ``IConsumer<OrderSubmitted>`` consumes ``OrderSubmitted`` through its ``Consume``
  method; ``X.Publish<OrderSubmitted>(...)``, ``X.Publish(new OrderSubmitted { ... })`` and
  ``X.Send<T>`` / ``X.Send(new T(...))`` produce it. The message type's name is the exchange
  MassTransit declares, used as the topic.
* Dispatch by message type (:data:`TYPE_BUSES`, one :class:`TypeBus` per library): the message's
  class is the destination. Integration events (``eventbus``, broker ``rabbitmq``; the event bus of
  eShop and eShopOnContainers, whose RabbitMQ implementation publishes with the event's class name as
  routing key, ``@event.GetType().Name``, and binds each subscription's queue to ``typeof(T).Name``):
  ``X.PublishAsync(e)`` / ``X.Publish(e)`` on a name typed ``IEventBus`` produces the class of ``e``;
  a class implementing ``IIntegrationEventHandler<E>`` consumes ``E`` through its ``Handle``.
  MediatR (``mediatr``, broker ``inprocess``): ``X.Send(r)`` / ``X.Publish(n)`` on an ``IMediator`` /
  ``ISender`` / ``IPublisher`` produce the class of ``r`` / ``n``, which the ``Handle`` of each class
  implementing ``IRequestHandler<R, ...>`` / ``INotificationHandler<N>`` consumes; a
  ``Send(new Wrapper<Inner, bool>(...))`` also produces ``Inner`` (the wrapper's handler sends it on);
  every ``Send`` also produces ``IRequest``, which each ``IPipelineBehavior<,>`` consumes. The class
  of the message is that of ``new E(...)``, a conditional of two creations, a local every value of
  which is one, or a parameter's declared type (not the bus's base type, not a type parameter). An
  event handed to another method first (an outbox's ``SaveEventAsync(e)``, a wrapper taking the
  base ``IntegrationEvent``) is not followed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import CsFile, cs_file
from indexer.model import Definition, FileExtraction, Template, TopicUse, drop_generics

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "TYPE_BUSES", "TypeBus", "detect"]

LANGUAGES = ("csharp",)

_TYPE_NAMES = re.compile(r"[\w.]+")


def _topics(cf: CsFile, node: Node, owner: str | None = None) -> list[Template]:
    """The topic names ``node`` gives (one, or each of an array's); a parameter of the method ``owner`` alone is a
    ``ref`` of its name (a topic wrapper: :mod:`indexer.frameworks.topic_wrappers`)."""
    if node.type in ("array_creation_expression", "implicit_array_creation_expression", "collection_expression"):
        init = next((c for c in node.named_children if c.type == "initializer_expression"), node)
        return [t for t in (cf.name_template(c) for c in init.named_children) if t is not None]
    params = frozenset()
    if node.type == "identifier" and owner is not None:
        params = frozenset(p.name for d in cf.out.definitions if d.qualname == owner for p in d.params)
    t = cf.name_template(node, params)
    return [t] if t is not None else []


def _consuming_sites(cf: CsFile, subscribe: Node, receiver: str) -> list[Node]:
    """The ``Consume`` calls on the consumer a ``Subscribe`` call subscribes (the same field or local,
    ``this.`` aside) in the methods of the same type: the code that takes the topic's messages
    (opentelemetry-demo's accounting subscribes in its constructor and consumes in ``ExecuteAsync``).
    ``[]`` when none (the ``Subscribe`` call's method stands for the consumer)."""
    field = receiver.removeprefix("this.")
    owner = cf.owner_type(subscribe)
    out: list[Node] = []
    for call in cf.calls:
        sel = cf.member(call)
        if (sel is not None and sel[1] == "Consume" and sel[0].removeprefix("this.") == field
                and cf.owner_type(call) == owner):
            out.append(call)
    return out


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka, MassTransit and integration-event-bus message uses to ``out``."""
    cf = cs_file(root, src, out)
    for bus in TYPE_BUSES:
        sends = _type_bus(cf, out, bus) if any(m in src.data for m in bus.markers) else set()
        _handed_messages(cf, out, bus, sends)
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
            owner = cf.owner(call)
            for t in _topics(cf, args[0], owner):
                out.topics.append(TopicUse("confluent-kafka", "produces", t, owner, line, col))
        elif kafka and name == "Subscribe" and args:
            sites = _consuming_sites(cf, call, sel[0]) or [call]
            for t in _topics(cf, args[0]):
                for site in sites:
                    out.topics.append(TopicUse("confluent-kafka", "consumes", t, cf.owner(site), *cf.pos(site)))
        elif masstransit and name in ("Publish", "Send"):
            types = cf.type_args(call)
            msg = drop_generics(types[0]) if types else None
            if msg is None and args and args[0].type == "object_creation_expression":
                msg = drop_generics(cf.expr(args[0].child_by_field_name("type")))
            if msg:
                out.topics.append(TopicUse("masstransit", "produces", Template.of(msg.rsplit(".", 1)[-1]),
                                           cf.owner(call), line, col, broker="rabbitmq"))
    if masstransit:
        members = _members(out)
        for d in list(out.definitions):
            if d.kind != "class":
                continue
            for text in map(_short, _consumer_messages(cf, d.qualname)):
                owner, line, col = _consuming(members, d, "Consume", text)
                out.topics.append(TopicUse("masstransit", "consumes", Template.of(text), owner, line, col,
                                           broker="rabbitmq"))


@dataclass(frozen=True, slots=True)
class TypeBus:
    """A library dispatching messages by their type (the message's class is its destination): calls
    of ``send`` methods on a receiver typed one of ``senders`` produce the argument's class; a class
    implementing one of ``handlers`` (``(generic interface, method)``) consumes its first type
    argument through that method. ``bases``: the message base types, which name no destination (a
    message typed only so is unknown). ``wildcards``: generic interfaces whose implementations receive
    every message sent with ``wrapped`` methods (MediatR's pipeline behaviors wrap every ``Send``),
    consuming the topic ``any_topic`` that each such send also produces. A handler whose message is a
    type parameter of its class (``class Logger<TRequest> : IRequestPreProcessor<TRequest>``) handles no
    one type: it consumes ``any_topic`` when its interface is one of ``open_handlers``, else nothing."""

    framework: str
    broker: str
    markers: tuple[bytes, ...]
    senders: tuple[str, ...]
    send: tuple[str, ...]
    handlers: tuple[tuple[str, str], ...]
    bases: tuple[str, ...] = ()
    wildcards: tuple[tuple[str, str], ...] = ()
    wrapped: tuple[str, ...] = ()
    any_topic: str = ""
    open_handlers: tuple[str, ...] = ()


TYPE_BUSES = (
    # eShop's event bus: RabbitMQ routing keys are the event's class name (see the module docstring).
    TypeBus("eventbus", "rabbitmq", (b"IEventBus", b"IIntegrationEventHandler"), ("IEventBus",),
            ("PublishAsync", "Publish"), (("IIntegrationEventHandler", "Handle"),), ("IntegrationEvent",)),
    # MediatR: IMediator / ISender ``Send(request)`` runs the one IRequestHandler<TRequest(, TResponse)> of
    # the request's type, IMediator / IPublisher ``Publish(notification)`` every INotificationHandler<T>,
    # ``CreateStream(request)`` the IStreamRequestHandler<TRequest, T>; IPipelineBehavior<TRequest, TResponse>
    # implementations wrap every Send, an IRequestPreProcessor<TRequest> / IRequestPostProcessor<TRequest, R>
    # runs (``Process``) before / after the handler of its request type, or of every request when generic.
    # Mediator (martinothamar/Mediator, a source generator with the same IMediator / ISender / IPublisher
    # and Send / Publish / CreateStream) adds ICommandHandler<TCommand(, R)>, IQueryHandler<TQuery, R> and
    # their stream variants, whose messages are ICommand / IQuery (one bus: a Send is read once).
    TypeBus("mediatr", "inprocess", (b"Mediator", b"IRequestHandler", b"INotificationHandler", b"ISender",
                                     b"IPublisher", b"IPipelineBehavior", b"ICommandHandler", b"IQueryHandler",
                                     b"IStreamRequestHandler", b"IStreamCommandHandler", b"IStreamQueryHandler",
                                     b"IRequestPreProcessor", b"IRequestPostProcessor"),
            ("IMediator", "ISender", "IPublisher"), ("Send", "Publish", "CreateStream"),
            (("IRequestHandler", "Handle"), ("INotificationHandler", "Handle"), ("ICommandHandler", "Handle"),
             ("IQueryHandler", "Handle"), ("IStreamRequestHandler", "Handle"), ("IStreamCommandHandler", "Handle"),
             ("IStreamQueryHandler", "Handle"), ("IRequestPreProcessor", "Process"),
             ("IRequestPostProcessor", "Process")),
            ("IRequest", "IBaseRequest", "INotification", "ICommand", "IBaseCommand", "IQuery", "IBaseQuery",
             "IMessage", "IStreamRequest", "IStreamCommand", "IStreamQuery", "IStreamMessage"),
            (("IPipelineBehavior", "Handle"),), ("Send",), "IRequest",
            ("IRequestPreProcessor", "IRequestPostProcessor")),
)
"""The libraries dispatching in-process or through a bus by message type, one entry each."""

_PREDEFINED = frozenset(("bool", "byte", "char", "decimal", "double", "float", "int", "long", "object", "sbyte",
                         "short", "string", "uint", "ulong", "ushort", "void", "dynamic", "nint", "nuint"))


def _type_bus(cf: CsFile, out: FileExtraction, bus: TypeBus) -> set[int]:
    """The uses of one :class:`TypeBus` in a file: ``X.Send(e)`` on a name typed one of the bus's
    sender types produces the class of ``e``; a class implementing a handler interface consumes its
    first type argument through the handler method. A receiver is typed by a binding of the file
    (field, property, parameter, primary-constructor parameter) or, for a member of another object
    (``services.Mediator``), by the convention that names it after its type (``Mediator``,
    ``_mediator``, ``sender``: the type's name without its leading ``I``). Returns the start bytes
    of the sending calls."""
    typed = {b.name for b in out.bindings if _short(b.type) in bus.senders}
    typed |= {n for d in out.definitions if d.kind == "field" and _short(d.field_type or "") in bus.senders
              for n in (d.name, f"this.{d.name}")}
    conventional = {s[1:].lower() for s in bus.senders}
    sends: set[int] = set()
    for call in cf.calls:
        sel = cf.member(call)
        args = cf.args(call)
        if sel is None or sel[1] not in bus.send or not args:
            continue
        recv = sel[0]
        if recv not in typed and not ("." in recv and recv.rsplit(".", 1)[-1].lstrip("_").lower() in conventional):
            continue
        sends.add(call.start_byte)
        line, col = cf.pos(call)
        owner = cf.owner(call)
        found = [m for m in _message_types(cf, args[0], include_type_args=True) if _short(m) not in bus.bases]
        for msg in found:
            out.topics.append(TopicUse(bus.framework, "produces", _message(bus, msg), owner, line, col,
                                       broker=bus.broker))
        if found and sel[1] in bus.wrapped and bus.any_topic:
            out.topics.append(TopicUse(bus.framework, "produces", Template.of(bus.any_topic), owner, line, col,
                                       broker=bus.broker))
    handlers = [(i, m, None) for i, m in bus.handlers] + [(i, m, bus.any_topic) for i, m in bus.wildcards]
    members = _members(out)
    for d in list(out.definitions):
        if d.kind != "class":
            continue
        params = _type_parameters(d)
        for interface, method, topic in handlers:
            for text in _consumer_messages(cf, d.qualname, interface):
                consumed = topic
                if topic is None and text in params:
                    if interface not in bus.open_handlers or not bus.any_topic:
                        continue
                    consumed = bus.any_topic
                owner, line, col = _consuming(members, d, method, _short(text))
                out.topics.append(TopicUse(bus.framework, "consumes",
                                           Template.of(consumed) if consumed else _message(bus, text),
                                           owner, line, col, broker=bus.broker))
    return sends


def _type_parameters(cls: Definition) -> frozenset[str]:
    """The type parameters a class declares (``class Logger<TRequest, TResponse> : ...`` ->
    ``{"TRequest", "TResponse"}``), read from its signature."""
    m = re.search(rf"\b{re.escape(cls.name)}\s*<([^<>]*)>", cls.signature or "")
    return frozenset(p.split()[-1] for p in m.group(1).split(",") if p.split()) if m else frozenset()


def _members(out: FileExtraction) -> dict[str, list[Definition]]:
    """The file's definitions by qualname, in source order (overloads share one)."""
    members: dict[str, list[Definition]] = {}
    for x in out.definitions:
        members.setdefault(x.qualname, []).append(x)
    return members


def _consuming(members: dict[str, list[Definition]], cls: Definition, method: str, message: str) -> tuple[str, int, int]:
    """Who consumes ``message`` for the handler class ``cls``, and where: its ``method`` (``Handle``,
    ``Consume``) at the class's name, or the class itself when it declares none. A class handling
    several message types (``INotificationHandler<A>, INotificationHandler<B>``) declares an
    overload per type: the one whose first parameter is typed ``message`` (``Handle(A a, ...)``),
    else has it as a type argument (MassTransit's ``Consume(ConsumeContext<A> c)``), and the use is
    placed at that overload's name so that the linker's owner is that overload (the first one
    otherwise: brk45, every message of such a class went to its first ``Handle``)."""
    handle = f"{cls.qualname}.{method}"
    overloads = members.get(handle)
    if not overloads:
        return cls.qualname, cls.name_line, cls.name_col
    if len(overloads) > 1:
        typed = [(d, d.params[0].type) for d in overloads if d.params and d.params[0].type]
        for d, text in typed:
            if _short(text) == message:
                return handle, d.name_line, d.name_col
        for d, text in typed:
            if message in (p.rsplit(".", 1)[-1] for p in _TYPE_NAMES.findall(text)):
                return handle, d.name_line, d.name_col
    return handle, cls.name_line, cls.name_col


def _handed_messages(cf: CsFile, out: FileExtraction, bus: TypeBus, sends: set[int]) -> None:
    """Messages handed to a wrapper or an outbox before the bus sends them
    (``integrationEventService.AddAndSaveEventAsync(new OrderShippedIntegrationEvent(...))``, an
    entity's ``AddDomainEvent(new OrderCancelledDomainEvent(this))``): each argument of a call that
    is a creation of a class, or a local every value of which is one, is a candidate use
    (``TopicUse.handed_as`` the bus's base types) that the linker keeps when the callee declares a
    parameter of a base type (:meth:`indexer.frameworks.queues.QueueLinker.destinations`). The
    argument's class alone cannot tell: it is declared in another file."""
    if not bus.bases:
        return
    for call in cf.calls:
        fn = call.child_by_field_name("function")
        if call.start_byte in sends or fn is None or fn.type not in ("identifier", "member_access_expression"):
            continue
        found = {m for a in cf.args(call) if a.type != "identifier" or cf.local_values(a) is not None
                 for m in _message_types(cf, a) if _short(m) not in bus.bases}
        if not found:
            continue
        line, col = cf.pos(call)
        owner, target = cf.owner(call), drop_generics(cf.expr(fn))
        for msg in sorted(found):
            out.topics.append(TopicUse(bus.framework, "produces", _message(bus, msg), owner, line, col,
                                       broker=bus.broker, target=target, handed_as=bus.bases))


def _short(type_text: str) -> str:
    return drop_generics(type_text).rsplit(".", 1)[-1].rstrip("?")


def _written(type_text: str) -> str:
    """A type as written, generics, ``?`` and ``global::`` dropped: ``Create.Command``."""
    return drop_generics(type_text).rstrip("?").removeprefix("global::")


def _message(bus: TypeBus, type_text: str) -> Template:
    """The topic of a message of type ``type_text`` on ``bus``: the type as written (``Create.Command``)
    when the bus dispatches in process by the message's class (MediatR; the queue linker names it by
    the class it resolves to, :meth:`indexer.frameworks.queues.QueueLinker.destinations`), else the
    short name the broker routes by (the event bus's ``GetType().Name``)."""
    return Template.of(type_text if bus.broker == "inprocess" else _short(type_text))


def _created_types(cf: CsFile, type_node: Node | None, include_type_args: bool) -> list[str]:
    """The class of ``new T<A, B>(...)``, then (``include_type_args``) each of its type arguments
    that is no predefined type: a message wrapping another (``IdentifiedCommand<CreateOrderCommand,
    bool>``) is handled by a handler that sends the inner one on."""
    out = [_written(cf.expr(type_node))] if type_node is not None else []
    if include_type_args and type_node is not None and type_node.type == "generic_name":
        targs = next((x for x in type_node.named_children if x.type == "type_argument_list"), None)
        for t in targs.named_children if targs is not None else ():
            name = _written(cf.expr(t))
            if name and name not in _PREDEFINED and t.type != "predefined_type":
                out.append(name)
    return out


def _message_types(cf: CsFile, node: Node, include_type_args: bool = False) -> list[str]:
    """Class names of the messages an argument holds: ``new E(...)`` (also cast to a base type),
    either side of ``c ? new A() : new B()``, every value a local is given when each is one of those, or a parameter's declared
    type (unless a type parameter of the code around it); ``[]`` when any is not known (a call's
    result, a member, or a local whose values come back to itself: ``x = c ? x : new A()``, the locals
    being read kept, so a cycle ends instead of recursing without bound). Each expression is read
    once per set of locals being read (locals reading one another through conditionals,
    ``x2 = c ? x1 : x1``, ``x3 = c ? x2 : x2``, ..., were read once per path: 2^n), at most
    :data:`MAX_MESSAGE_STEPS` reads in all and :data:`MAX_LOCAL_CHAIN` locals deep (past them: not
    known, ``[]``)."""
    return _read_messages(cf, node, include_type_args, frozenset(), {}, [MAX_MESSAGE_STEPS])


MAX_MESSAGE_STEPS = 10_000
"""Expressions :func:`_message_types` reads for one argument at most."""
MAX_LOCAL_CHAIN = 64
"""Locals :func:`_message_types` follows one through another at most (a deeper chain is not known: it
would take the reading past Python's recursion limit)."""


def _read_messages(cf: CsFile, node: Node, include_type_args: bool, expanding: frozenset[str],
                   memo: dict[tuple[int, frozenset[str]], list[str]], steps: list[int]) -> list[str]:
    """:func:`_message_types` of ``node``, ``expanding`` the locals being read; ``memo`` the answers so
    far, ``steps`` the reads left (shared by the whole walk)."""
    key = (node.id, expanding)
    if key in memo:
        return memo[key]
    steps[0] -= 1
    if steps[0] < 0:
        return []
    memo[key] = found = _read_message(cf, node, include_type_args, expanding, memo, steps)
    return found


def _read_message(cf: CsFile, node: Node, include_type_args: bool, expanding: frozenset[str],
                  memo: dict[tuple[int, frozenset[str]], list[str]], steps: list[int]) -> list[str]:
    if node.type == "object_creation_expression":
        return _created_types(cf, node.child_by_field_name("type"), include_type_args)
    if node.type == "conditional_expression":
        sides = [_read_messages(cf, node.child_by_field_name(f), include_type_args, expanding, memo, steps)
                 for f in ("consequence", "alternative")]
        return sides[0] + sides[1] if all(sides) else []
    if node.type == "parenthesized_expression" and node.named_children:
        return _read_messages(cf, node.named_children[0], include_type_args, expanding, memo, steps)
    if node.type == "cast_expression" and node.child_by_field_name("value") is not None:  # (Base)new E()
        return _read_messages(cf, node.child_by_field_name("value"), include_type_args, expanding, memo, steps)
    if node.type == "identifier":
        name = cf.text(node)
        if name in expanding or len(expanding) >= MAX_LOCAL_CHAIN:
            return []
        values = cf.local_values(node)
        if values is None:
            return _parameter_type(cf, node)
        inner = expanding | {name}
        found = [_read_messages(cf, v, include_type_args, inner, memo, steps) for v in values if v.type != "identifier"]
        return sorted({m for f in found for m in f}) if found and all(found) else []
    return []


def _parameter_type(cf: CsFile, node: Node) -> list[str]:
    """The declared type of the parameter ``node`` names (``[]``: no parameter of the enclosing
    function, or typed by a type parameter of a declaration around it)."""
    name = cf.text(node)
    fn = cf.enclosing_function(node)
    params = fn.child_by_field_name("parameters") if fn is not None else None
    for p in params.named_children if params is not None else ():
        if p.type == "parameter" and cf.text(p.child_by_field_name("name")) == name:
            t = p.child_by_field_name("type")
            if t is None or t.type == "predefined_type":
                return []
            short = _short(cf.expr(t))
            scope = node.parent
            while scope is not None:
                tps = next((c for c in scope.named_children if c.type == "type_parameter_list"), None)
                if tps is not None and any(cf.text(tp).split()[-1] == short for tp in tps.named_children):
                    return []
                scope = scope.parent
            return [_written(cf.expr(t))]
    return []


def _consumer_messages(cf: CsFile, qualname: str, interface: str = "IConsumer") -> list[str]:
    """Message types of the ``IConsumer<T>`` (or another generic ``interface``) a class implements
    (generic arguments are dropped from ``Definition.implements``, so the base list is read again)."""
    return [arg for name, arg in cf.generic_bases().get(qualname, ()) if name == interface]
