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
  - consumes: a method annotated ``@EventuateCommandHandler(channel = CH)`` whose first parameter is
    a ``CommandMessage<Cmd>`` (Eventuate's annotation API);
  - produces: a saga step's ``send(new Cmd(...)).to(CH)`` (the simple DSL's
    ``CommandWithDestinationBuilder``), owned by the method holding it; a method holding one such
    command (a participant proxy's ``reserveCredit(...)``) records it as the constant of its
    qualname, so ``invokeParticipant(this::m)`` of a saga whose ``m`` returns ``proxy.reserveCredit(...)``
    finds it like an endpoint field;
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

* **replies**: a command handler's reply goes back to the saga that sent the command, whose step
  dispatches it by the reply's class (``onReply(ReplyClass.class, handler)``, keyed by the class's
  name); the destination is the command's and the reply class's simple name,
  ``<channel>/<Command>/<Reply>`` (``kitchenService/CreateTicket/CreateTicketReply``):

  - produces: in the method an ``onMessage(Cmd.class, this::h)`` names, each ``withSuccess(r)`` /
    ``withFailure(r)`` (``CommandHandlerReplyBuilder``'s, or ``withLock(...).withSuccess(r)``), ``r`` a
    ``new Reply(...)`` or a local / parameter of a declared type; ``withSuccess()`` / ``withFailure()``
    reply Eventuate's ``Success`` / ``Failure``; in an ``@EventuateCommandHandler`` method also each
    ``return new Reply(...)`` (the annotation API replies with the returned object). A reply is a use only when some saga of the
    repository handles it (:attr:`TopicUse.needs_consumer`): most replies carry no class a step reads;
  - consumes: ``onReply(Reply.class, handler)`` of a saga step (or ``onReply(Proxy.reply, handler)``, a
    field ``Class<Reply> reply = Reply.class`` of a file using Eventuate, recorded as a constant of
    the reply's simple name), for the command of the nearest
    ``invokeParticipant`` / ``withCompensation`` before it down the chain (as Eventuate does: after a
    compensation the reply handlers are the compensation's): a participant endpoint field (a ``ref``,
    as for the command), or a method reference ``this::m`` to a method of the saga whose
    ``send(new Cmd(...)).to(CH)`` builds the command (or which returns ``field.m(...)``: the constant
    ``m`` records). The handler (a method reference ``this::h`` or
    ``State::h``) is the use's :attr:`TopicUse.target`, resolved like a callee (else the method
    holding the chain consumes).

Only in files importing ``io.eventuate`` (every form above needs a class of it, or a subclass whose
own file imports it: the subclass's constant is recorded there). Names are templates (literals,
constants). Not read: ``CommandProducer.send`` outside sagas, events published through a list of
aggregate types at run time, replies built in another method than the handler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import class_literal, class_type_arguments
from indexer.languages.java.frameworks.common import Annotation, JavaFile, compact
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
_REPLIED = frozenset({"invokeParticipant", "withCompensation"})
"""The step calls whose command an ``onReply`` after them handles the replies of (the nearest)."""
_REPLIES = {"withSuccess": "Success", "withFailure": "Failure"}
"""Reply builders, and the reply class of one given no reply object."""
_NAMES = frozenset({"onMessage", "onEvent", "to", "publish", "withChannel", "onReply", *_PARTICIPANTS})
_ANNOTATED_HANDLER = "EventuateCommandHandler"


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
    first = len(out.topics)
    sends: set[tuple[int, int]] = set()  # positions of the saga commands `send(new Cmd()).to(CH)`
    chains: dict[tuple[int, frozenset[str]], Node | None] = {}
    for decl, anns in jf.annotated(_ANNOTATED_HANDLER):
        _annotated_handler(jf, decl, next(a for a in anns if a.name == _ANNOTATED_HANDLER))
    if jf.calls_any(_NAMES):
        stack = [root]
        while stack:
            n = stack.pop()
            stack.extend(n.named_children)
            if n.type == "method_invocation":
                _invocation(jf, n, sends, chains)
            elif n.type == "field_declaration":
                _class_field(jf, n)
    out.topics[first:] = sorted(out.topics[first:], key=lambda u: (u.line, u.col))
    sent: dict[str, list[Template]] = {}
    for u in out.topics[first:]:
        if u.role == "produces" and u.owner and (u.line, u.col) in sends:
            sent.setdefault(u.owner, []).append(u.topic)
    for owner, topics in sent.items():  # a method building one command stands for it (a participant proxy's)
        if len(topics) == 1 and not any(c.qualname == owner for c in out.constants):
            out.constants.append(StringConstant(owner, topics[0]))


def _invocation(jf: JavaFile, call: Node, sends: set[tuple[int, int]],
                chains: dict[tuple[int, frozenset[str]], Node | None]) -> None:
    """The use or endpoint one ``method_invocation`` is, if any (``sends``: the positions of saga
    commands found so far; ``chains``: :func:`_chain_call`'s answers so far)."""
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
        owner = _handler(jf, args[1], call)
        out.topics.append(TopicUse(FRAMEWORK, "consumes", topic, owner, line, col, BROKER))
        if name == "onMessage" and owner is not None and owner != jf.enclosing(call):
            _replies(jf, call, owner, topic)
    elif name == "onReply" and len(args) == 2:
        _on_reply(jf, call, args, line, col)
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
        sends.add((line, col))
    elif name == "withChannel" and len(args) == 1:
        _endpoint(jf, call, args[0], chains)
    elif name in _PARTICIPANTS and args and args[0].type == "field_access":
        ref = Template((("ref", compact(src, args[0])),))
        out.topics.append(TopicUse(FRAMEWORK, "produces", ref, jf.enclosing(call), line, col, BROKER))
    elif name == "publish":
        _publish(jf, call, args, line, col)


def _replies(jf: JavaFile, call: Node, owner: str, command: Template) -> None:
    """The replies of the handler method ``owner`` (of the class around ``call``) of ``command``
    (:func:`_method_replies`)."""
    cls = jf.enclosing_type(call)
    short = owner.rpartition(".")[2]
    methods = [m for m in jf.methods(cls) if jf.src.text(m.child_by_field_name("name")) == short] if cls else []
    if len(methods) == 1:
        _method_replies(jf, methods[0], owner, command, returns=False)


def _annotated_handler(jf: JavaFile, decl: Node, ann: Annotation) -> None:
    """``@EventuateCommandHandler(channel = CH) R m(CommandMessage<Cmd> cm)``: ``m`` consumes
    ``CH/Cmd`` and produces its replies (the returned objects too)."""
    d = jf.definition(decl)
    channel = ann.values("channel")
    params = decl.child_by_field_name("parameters")
    first = next((p for p in params.named_children if p.type == "formal_parameter"), None) if params else None
    kind = first.child_by_field_name("type") if first is not None else None
    text = jf.src.text(kind) if kind is not None else ""
    if d is None or d.kind != "method" or not channel or len(channel) != 1 or "<" not in text \
            or _simple(text) != "CommandMessage":
        return
    command = jf.template(channel[0]) + Template.of("/" + _simple(text[text.index("<") + 1:text.rindex(">")]))
    name = decl.child_by_field_name("name")
    jf.out.topics.append(TopicUse(FRAMEWORK, "consumes", command, d.qualname, jf.src.line(name), jf.src.col(name), BROKER))
    _method_replies(jf, decl, d.qualname, command, returns=True)


def _class_field(jf: JavaFile, decl: Node) -> None:
    """A field initialised with a class literal (``Class<R> reply = R.class``): the constant of its
    qualname is the class's simple name (an ``onReply`` names replies so)."""
    for v in decl.named_children:
        value = v.child_by_field_name("value") if v.type == "variable_declarator" else None
        named = class_literal(compact(jf.src, value)) if value is not None and value.type == "class_literal" else None
        field = jf.field(v.child_by_field_name("name")) if named is not None else None
        if field is not None and named is not None:
            jf.out.constants.append(StringConstant(field.qualname, Template.of(named.rsplit(".", 1)[-1])))


def _method_replies(jf: JavaFile, method: Node, owner: str, command: Template, returns: bool) -> None:
    """Each ``withSuccess(r)`` / ``withFailure(r)`` in ``method`` (and, ``returns``, each ``return
    new R(...)``) produces ``<command>/<Reply>``, held until a saga handles that reply."""
    body = method.child_by_field_name("body")
    stack = [body] if body is not None else []
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if returns and n.type == "return_statement" and n.named_children \
                and n.named_children[0].type == "object_creation_expression":
            reply = _reply_class(jf, n.named_children[0], owner)
            if reply is not None:
                at = n.named_children[0]
                jf.out.topics.append(TopicUse(FRAMEWORK, "produces", command + Template.of("/" + reply), owner,
                                              jf.src.line(at), jf.src.col(at), BROKER, needs_consumer=True))
            continue
        if n.type != "method_invocation":
            continue
        name = jf.src.text(n.child_by_field_name("name"))
        args_node = n.child_by_field_name("arguments")
        if name not in _REPLIES or args_node is None:
            continue
        args = [a for a in args_node.named_children if a.type not in ("line_comment", "block_comment")]
        reply = _REPLIES[name] if not args else _reply_class(jf, args[0], owner) if len(args) == 1 else None
        if reply is None:
            continue
        name_node = n.child_by_field_name("name")
        jf.out.topics.append(TopicUse(FRAMEWORK, "produces", command + Template.of("/" + reply), owner,
                                      jf.src.line(name_node), jf.src.col(name_node), BROKER, needs_consumer=True))


def _reply_class(jf: JavaFile, arg: Node, scope: str) -> str | None:
    """The simple class name of a reply object: ``new Reply(...)``, or a local or parameter of a
    declared type; ``None`` otherwise."""
    if arg.type == "object_creation_expression":
        kind = arg.child_by_field_name("type")
        return _simple(jf.src.text(kind)) if kind is not None else None
    if arg.type == "identifier":
        declared = jf.declared_type(jf.src.text(arg), scope)
        return _simple(declared) if declared else None
    return None


def _on_reply(jf: JavaFile, call: Node, args: list[Node], line: int, col: int) -> None:
    """``onReply(Reply.class, handler)`` in a saga step: consumes ``<command>/<Reply>`` of the
    command the nearest ``invokeParticipant`` / ``withCompensation`` down the chain sends."""
    src = jf.src
    kind = class_literal(compact(src, args[0]))
    reply = Template.of("/" + kind.rsplit(".", 1)[-1]) if kind is not None else \
        Template((("lit", "/"), ("ref", compact(src, args[0])))) if args[0].type in ("field_access", "identifier") else None
    step = call.child_by_field_name("object")
    while step is not None and step.type == "method_invocation" and src.text(step.child_by_field_name("name")) not in _REPLIED:
        if src.text(step.child_by_field_name("name")) == "step":
            return  # the step has no participant invocation before this reply handler
        step = step.child_by_field_name("object")
    if reply is None or step is None or step.type != "method_invocation":
        return
    step_args = step.child_by_field_name("arguments")
    first = step_args.named_children[0] if step_args is not None and step_args.named_children else None
    if first is None:
        return
    if first.type == "field_access":
        command = Template((("ref", compact(src, first)),))
    elif first.type == "method_reference":
        command = _sent_by(jf, call, first)
        if command is None:
            return
    else:
        return
    target = compact(src, args[1]).replace("::", ".") if args[1].type == "method_reference" else None
    jf.out.topics.append(TopicUse(FRAMEWORK, "consumes", command + reply, jf.enclosing(call), line, col, BROKER,
                                  target=target))


def _sent_by(jf: JavaFile, call: Node, ref: Node) -> Template | None:
    """The command a saga's own method ``this::m`` builds: the one ``send(new Cmd(...)).to(CH)`` in
    its body, as ``<channel>/<Cmd>``; ``None`` when it has none or several."""
    src = jf.src
    if not ref.named_children or src.text(ref.named_children[0]) != "this":
        return None
    cls = jf.enclosing_type(call)
    short = src.text(ref.named_children[-1])
    methods = [m for m in jf.methods(cls) if src.text(m.child_by_field_name("name")) == short] if cls else []
    if len(methods) != 1:
        return None
    found: list[Template] = []
    stack = [methods[0]]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type == "method_invocation" and src.text(n.child_by_field_name("name")) == "to":
            sent = n.child_by_field_name("object")
            args = n.child_by_field_name("arguments")
            if sent is None or sent.type != "method_invocation" or src.text(sent.child_by_field_name("name")) != "send" \
                    or args is None or len(args.named_children) != 1:
                continue
            sent_args = sent.child_by_field_name("arguments")
            built = sent_args.named_children[0] if sent_args is not None and sent_args.named_children else None
            kind = built.child_by_field_name("type") if built is not None and built.type == "object_creation_expression" else None
            if kind is not None:
                found.append(jf.template(args.named_children[0]) + Template.of("/" + _simple(src.text(kind))))
    if not found:  # `return customerService.reserveCredit(...)`: the proxy method's constant
        body = methods[0].child_by_field_name("body")
        returns = [c for c in body.named_children if c.type == "return_statement"] if body is not None else []
        value = returns[0].named_children[0] if len(returns) == 1 and returns[0].named_children else None
        receiver = value.child_by_field_name("object") if value is not None and value.type == "method_invocation" else None
        if receiver is not None and receiver.type in ("identifier", "field_access"):
            found.append(Template((("ref", f"{compact(src, receiver)}.{src.text(value.child_by_field_name('name'))}"),)))
    return found[0] if len(found) == 1 else None


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
