"""Eventuate Tram (commands, sagas and domain events) -> :class:`~indexer.model.TopicUse` (broker
``eventuate``, framework ``eventuate-tram``).

Eventuate Tram sends messages over channels (Kafka topics, or another transport's, as configured)
and dispatches them by their type. Two kinds of destination, named as Eventuate names them:

* **commands**: the channel and the command's class, ``<channel>/<Command>`` (``kitchenService/CreateTicket``,
  the class by its simple name), since a channel's handlers each take one command type:

  - consumes: ``CommandHandlersBuilder`` / ``SagaCommandHandlersBuilder`` ``.fromChannel(CH)
    .onMessage(Cmd.class, handler)``: each ``onMessage`` of the chain (on the channel of the nearest
    ``fromChannel`` / ``andFromChannel`` before it), owned by the handler (a method
    reference ``this::createTicket`` / ``Type::m`` naming a method of the enclosing class), else by
    the method building the chain;
  - produces: a saga step's ``send(new Cmd(...)).to(CH)`` (the simple DSL's
    ``CommandWithDestinationBuilder``), owned by the method holding it;
  - produces: a saga step naming a participant's endpoint, ``invokeParticipant(proxy.create, maker)``
    / ``withCompensation(...)`` / ``notifyParticipant(...)`` with a field as first argument: the
    destination is that field's (a ``ref`` the linker resolves through the receiver's class); the
    field ``create = CommandEndpointBuilder.forCommand(Cmd.class).withChannel(CH)...build()`` is
    recorded as a :class:`~indexer.model.StringConstant` of its qualname whose value is its
    destination ``<channel>/<Cmd>``, so it is found like any class constant.

* **domain events**: the aggregate type's full class name (Eventuate's channel for them; an event's own
  type is not known where a list of events is published, so every handler of the aggregate consumes it):

  - consumes: ``DomainEventHandlersBuilder.forAggregateType(AGG).onEvent(Evt.class, handler)``, each
    ``onEvent`` (of the nearest ``forAggregateType`` / ``andForAggregateType`` before it), owned as
    ``onMessage`` is;
  - produces: ``publisher.publish(Agg.class | "a.b.Agg", id, events)`` (``DomainEventPublisher``;
    the class literal's full name from the file's imports, else its package), and
    ``publisher.publish(aggregate, events)`` on an ``AbstractAggregateDomainEventPublisher`` subclass:
    its destination is a ``ref`` to the receiver's class constant ``aggregateType``, which the
    subclass's declaration ``class P extends AbstractAggregateDomainEventPublisher<Agg, E>``
    records (:data:`AGGREGATE_TYPE`: the full name of ``Agg``).

Only in files importing ``io.eventuate`` (every form above needs a class of it, or a subclass whose
own file imports it: the subclass's constant is recorded there). Names are templates (literals,
constants). Not read: replies (``withSuccess`` / ``onReply``), ``CommandProducer.send`` outside sagas,
events published through a list of aggregate types at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import class_literal, class_type_arguments
from indexer.languages.java.frameworks.common import JavaFile, compact
from indexer.model import FileExtraction, StringConstant, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["AGGREGATE_TYPE", "BROKER", "FRAMEWORK", "LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "eventuate-tram"
BROKER = "eventuate"
AGGREGATE_TYPE = "aggregateType"
"""The class constant of an ``AbstractAggregateDomainEventPublisher`` subclass holding its aggregate's
full class name (the base class's own field of that name holds the aggregate's class)."""
_AGGREGATE_PUBLISHER = "AbstractAggregateDomainEventPublisher"
_CONSUMERS = {"onMessage": frozenset({"fromChannel", "andFromChannel"}),
              "onEvent": frozenset({"forAggregateType", "andForAggregateType"})}
"""Per consumer registration, the calls naming its channel: the nearest one down the chain."""
_PARTICIPANTS = frozenset({"invokeParticipant", "withCompensation", "notifyParticipant"})
_NAMES = frozenset({"onMessage", "onEvent", "to", "publish", "withChannel", *_PARTICIPANTS})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Eventuate Tram uses to ``out.topics`` and its endpoints' and aggregate
    publishers' destinations to ``out.constants`` (module docstring)."""
    if not any(i.module.startswith("io.eventuate") for i in out.imports):
        return
    jf = JavaFile.of(root, src, out)
    for d in out.definitions:
        args = class_type_arguments(d).get(_AGGREGATE_PUBLISHER) if d.kind == "class" else None
        if args:
            out.constants.append(StringConstant(f"{d.qualname}.{AGGREGATE_TYPE}", Template.of(_full_name(out, args[0]))))
    if not jf.calls_any(_NAMES):
        return
    first = len(out.topics)
    chains: dict[tuple[int, frozenset[str]], Node | None] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type == "method_invocation":
            _invocation(jf, n, chains)
    out.topics[first:] = sorted(out.topics[first:], key=lambda u: (u.line, u.col))


def _invocation(jf: JavaFile, call: Node, chains: dict[tuple[int, frozenset[str]], Node | None]) -> None:
    """The use or endpoint one ``method_invocation`` is, if any (``chains``: :func:`_chain_call`'s
    answers so far)."""
    src, out = jf.src, jf.out
    name_node, args_node = call.child_by_field_name("name"), call.child_by_field_name("arguments")
    if name_node is None or args_node is None:
        return
    name = src.text(name_node)
    args = [a for a in args_node.named_children if a.type not in ("line_comment", "block_comment")]
    line, col = src.line(name_node), src.col(name_node)
    if name in _CONSUMERS and len(args) == 2:
        head = _chain_call(jf, call.child_by_field_name("object"), _CONSUMERS[name], chains)
        kind = class_literal(compact(src, args[0]))
        if head is None or kind is None:
            return
        topic = jf.template(head)
        if name == "onMessage":
            topic = topic + Template.of("/" + kind.rsplit(".", 1)[-1])
        out.topics.append(TopicUse(FRAMEWORK, "consumes", topic, _handler(jf, args[1], call), line, col, BROKER))
    elif name == "to" and len(args) == 1:
        sent = call.child_by_field_name("object")
        if sent is None or sent.type != "method_invocation" or src.text(sent.child_by_field_name("name")) != "send":
            return
        sent_args = sent.child_by_field_name("arguments")
        built = sent_args.named_children[0] if sent_args is not None and sent_args.named_children else None
        kind_node = built.child_by_field_name("type") if built is not None and built.type == "object_creation_expression" else None
        if kind_node is None:
            return
        topic = jf.template(args[0]) + Template.of("/" + _simple(src.text(kind_node)))
        out.topics.append(TopicUse(FRAMEWORK, "produces", topic, jf.enclosing(call), line, col, BROKER))
    elif name == "withChannel" and len(args) == 1:
        _endpoint(jf, call, args[0], chains)
    elif name in _PARTICIPANTS and args and args[0].type == "field_access":
        ref = Template((("ref", compact(src, args[0])),))
        out.topics.append(TopicUse(FRAMEWORK, "produces", ref, jf.enclosing(call), line, col, BROKER))
    elif name == "publish":
        _publish(jf, call, args, line, col)


def _endpoint(jf: JavaFile, call: Node, channel: Node, chains: dict[tuple[int, frozenset[str]], Node | None]) -> None:
    """``Cmd`` endpoint field ``f = CommandEndpointBuilder.forCommand(Cmd.class).withChannel(CH)...``:
    the constant ``Owner.f`` = ``<channel>/<Cmd>``."""
    src = jf.src
    head = _chain_call(jf, call.child_by_field_name("object"), frozenset({"forCommand"}), chains)
    kind = class_literal(compact(src, head)) if head is not None else None
    p = call.parent
    while p is not None and p.type not in ("variable_declarator", "class_body", "block"):
        p = p.parent
    field = jf.field(p.child_by_field_name("name")) if p is not None and p.type == "variable_declarator" else None
    if kind is not None and field is not None:
        value = jf.template(channel) + Template.of("/" + kind.rsplit(".", 1)[-1])
        jf.out.constants.append(StringConstant(field.qualname, value))


def _publish(jf: JavaFile, call: Node, args: list[Node], line: int, col: int) -> None:
    """``publisher.publish(Agg.class | "a.b.Agg", id, events)`` and ``publisher.publish(aggregate, events)``."""
    src, out = jf.src, jf.out
    receiver = call.child_by_field_name("object")
    if receiver is None:
        return
    if len(args) == 3:
        named = class_literal(compact(src, args[0]))
        if named is not None:
            topic = Template.of(_full_name(out, named))
        elif args[0].type == "string_literal" or args[0].type == "field_access":
            topic = jf.template(args[0])
        else:
            return
    elif len(args) == 2:
        topic = Template((("ref", f"{compact(src, receiver)}.{AGGREGATE_TYPE}"),))
    else:
        return
    out.topics.append(TopicUse(FRAMEWORK, "produces", topic, jf.enclosing(call), line, col, BROKER))


def _chain_call(jf: JavaFile, node: Node | None, names: frozenset[str],
                chains: dict[tuple[int, frozenset[str]], Node | None]) -> Node | None:
    """The single argument of the nearest call of one of ``names`` down the receiver chain from
    ``node`` (``b.fromChannel(CH).onMessage(...)``: the ``CH`` node; ``.andForAggregateType(B)``
    starts another aggregate's handlers), or ``None``. ``chains`` keeps the answer of every call
    passed, so the calls of one chain cost its length once, not its length at each call (a chain
    of 3,000 ``.onMessage(...)``)."""
    passed: list[int] = []
    found: Node | None = None
    while node is not None and node.type == "method_invocation":
        key = (node.id, names)
        if key in chains:
            found = chains[key]
            break
        passed.append(node.id)
        if jf.src.text(node.child_by_field_name("name")) in names:
            args = node.child_by_field_name("arguments")
            named = [a for a in args.named_children if a.type not in ("line_comment", "block_comment")] if args else []
            found = named[0] if len(named) == 1 else None
            break
        node = node.child_by_field_name("object")
    chains.update(((i, names), found) for i in passed)
    return found


def _handler(jf: JavaFile, arg: Node, call: Node) -> str | None:
    """The owner of a consumer: the method a reference ``this::m`` / ``Type::m`` names when the
    enclosing class declares it, else the definition holding the chain."""
    around = jf.enclosing(call)
    if arg.type == "method_reference":
        name = arg.named_children[-1] if arg.named_children else None
        cls = jf.enclosing_type(call)
        owner = jf.qualname(cls) if cls is not None else None
        if name is not None and owner is not None:
            q = f"{owner}.{jf.src.text(name)}"
            if any(d.qualname == q and d.kind == "method" for d in jf.out.definitions):
                return q
    return around


def _full_name(out: FileExtraction, name: str) -> str:
    """The full name of the type ``name`` as the file names it: its single-type import, else the
    file's package (the same package), else ``name`` as written."""
    if "." in name:
        return name
    for imp in out.imports:
        if imp.local == name and imp.name == name:
            return f"{imp.module}.{name}"
    return f"{out.package}.{name}" if out.package else name


def _simple(type_text: str) -> str:
    """A type's simple name (``a.b.Cmd<X>`` -> ``Cmd``)."""
    return type_text.split("<", 1)[0].strip().rsplit(".", 1)[-1]
