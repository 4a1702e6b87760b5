"""NestJS CQRS (``@nestjs/cqrs``): commands, queries and events dispatched in process by their class ->
:class:`~indexer.model.TopicUse` (framework ``nestjs-cqrs``, broker ``inprocess``), like MediatR's in C#.

The message's class is the destination: ``topic`` is the class as written (``KillDragonCommand``,
``commands.KillDragonCommand``), which the queue linker names by the class it resolves to
(:meth:`indexer.frameworks.queues.QueueLinker.destinations`), so the handler of one command is not
the handler of another of the same short name in another module.

* ``produces``: ``X.execute(m)`` on a ``CommandBus`` / ``QueryBus``, ``X.publish(m)`` /
  ``X.publishAll([m, ...])`` on an ``EventBus``; ``X`` is typed so by a binding of the file (a
  constructor parameter property ``private readonly commandBus: CommandBus``, a parameter, a field),
  or, for a name no binding types, named after the type (``commandBus``, ``this._queryBus``,
  ``app.eventBus``: the last part without leading ``_``, any case). ``this.apply(e)`` in a class
  extending ``AggregateRoot`` imported from ``@nestjs/cqrs`` produces ``e`` too (the event is
  published when the aggregate is committed: the method applying it is what reaches its handlers).
  ``owner``: the code around the call (:meth:`JsFile.code_scope`).
* ``consumes``: a class decorated ``@CommandHandler(C)`` / ``@QueryHandler(Q)`` consumes ``C`` /
  ``Q`` through its ``execute`` method, ``@EventsHandler(A, B)`` each event through its ``handle``
  (the class itself when it declares no such method). Position: that method's name.
* sagas: a member decorated ``@Saga()`` consumes each class of every ``ofType(A, B)`` in it and
  produces each ``new C(...)`` it returns (an arrow's expression body, a ``return``: the commands the
  saga maps events to).

The class of a message is that of ``new C(...)``, or of a name the file binds in the call's scope or
one around it (a local ``const c = new C()``, a parameter ``command: C``); not one of the base types
(``ICommand``, ``IQuery``, ``IEvent``), not a type parameter of the code around it, not anything
else (a call's result, a member: unknown, no use). Only files that import ``@nestjs/cqrs`` (or a path
inside it) are read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.languages.ecmascript.frameworks.nest import decorated_class
from indexer.model import Definition, FileExtraction, Template, TopicUse, drop_generics, simple_name

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["BASES", "LANGUAGES", "SENDERS", "detect"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "nestjs-cqrs"
BROKER = "inprocess"
PACKAGE = "@nestjs/cqrs"

SENDERS = {"CommandBus": ("execute",), "QueryBus": ("execute",), "EventBus": ("publish", "publishAll")}
"""The bus types of ``@nestjs/cqrs`` and the methods that send a message on each."""
BASES = frozenset({"ICommand", "IQuery", "IEvent", "Command", "Query"})
"""The library's message base types: a message typed only so names no destination."""
_HANDLERS = {"CommandHandler": "execute", "QueryHandler": "execute", "EventsHandler": "handle"}
_CONVENTIONAL = {name.lower(): name for name in SENDERS}
_TYPE_SCOPES = frozenset({"class_declaration", "abstract_class_declaration", "class", "function_declaration",
                          "method_definition", "arrow_function", "function_expression", "interface_declaration",
                          "generator_function_declaration", "type_alias_declaration"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's NestJS CQRS message uses (sends, handlers, sagas) to ``out``."""
    if not any(i.module == PACKAGE or i.module.startswith(PACKAGE + "/") for i in out.imports):
        return
    jf = js_file(root, src, out)
    matches = jf.matches("nest_cqrs")
    if not matches:
        return
    members = {d.qualname: d for d in out.definitions}
    sagas: list[tuple[Node, Definition]] = []
    of_types: list[dict[str, list[Node]]] = []
    for caps in matches:
        if "handler" in caps:
            _handler(jf, out, members, caps)
        elif "saga" in caps:
            found = _saga_member(jf, caps["saga"][0])
            if found is not None:
                sagas.append(found)
        elif "of_type" in caps:
            of_types.append(caps)
        else:
            _send(jf, out, caps)
    for node, saga in sagas:
        _saga(jf, out, node, saga, of_types)


def _use(out: FileExtraction, role: str, message: str, owner: str | None, line: int, col: int) -> None:
    out.topics.append(TopicUse(FRAMEWORK, role, Template.of(message), owner, line, col, broker=BROKER))


def _handler(jf: JsFile, out: FileExtraction, members: dict[str, Definition], caps: dict[str, list[Node]]) -> None:
    """``@CommandHandler(C)`` on a class: its ``execute`` consumes ``C`` (``handle`` for events)."""
    cls = decorated_class(caps["handler"][0])
    d = jf.definition_named(cls.child_by_field_name("name")) if cls is not None else None
    if d is None:
        return
    method = members.get(f"{d.qualname}.{_HANDLERS[simple_name(jf.text(caps['name'][0]))]}")
    owner, line, col = (method.qualname, method.name_line, method.name_col) if method else (
        d.qualname, d.name_line, d.name_col)
    for arg in arguments(caps["types"][0]):
        arg = unwrap(arg) or arg
        if arg.type in ("identifier", "member_expression") and simple_name(jf.text(arg)) not in BASES:
            _use(out, "consumes", jf.text(arg), owner, line, col)


def _bus_type(jf: JsFile, receiver: Node) -> str | None:
    """The ``@nestjs/cqrs`` bus type ``receiver`` holds: by a binding of the file, else by its name."""
    text = jf.receiver(receiver)
    typed = {simple_name(b.type) for b in jf.out.bindings if b.name == text}
    if typed:
        return next((t for t in sorted(typed) if t in SENDERS), None)
    return _CONVENTIONAL.get(text.rsplit(".", 1)[-1].lstrip("_").lower())


def _send(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]]) -> None:
    """A bus send (``commandBus.execute(new C())``) or an aggregate's ``this.apply(new E())``."""
    call, receiver, method = caps["call"][0], caps["receiver"][0], jf.text(caps["method"][0])
    if method == "apply":
        if receiver.type != "this" or not _aggregate(jf, call):
            return
    else:
        bus = _bus_type(jf, receiver)
        if bus is None or method not in SENDERS[bus]:
            return
    message = unwrap(caps["message"][0]) or caps["message"][0]
    values = message.named_children if method == "publishAll" and message.type == "array" else [message]
    owner = jf.code_scope(call)
    line, col = jf.pos(call)
    for found in sorted({m for v in values for m in _message_types(jf, v, owner)}):
        _use(out, "produces", found, owner, line, col)


def _aggregate(jf: JsFile, node: Node) -> bool:
    """Whether ``node`` is in a class extending ``@nestjs/cqrs``'s ``AggregateRoot``."""
    cls = jf.class_of(node)
    d = next((x for x in jf.out.definitions if x.qualname == cls and x.kind == "class"), None) if cls else None
    if d is None:
        return False
    for base in d.bases:
        head = drop_generics(base).split(".", 1)[0]
        module = jf.imported(head)
        if module is not None and (module == PACKAGE or module.startswith(PACKAGE + "/")) and (
                simple_name(base) == "AggregateRoot"):
            return True
    return False


def _message_types(jf: JsFile, node: Node, scope: str | None) -> list[str]:
    """The class names a message expression holds (see the module docstring); ``[]`` when unknown."""
    node = unwrap(node) or node
    if node.type == "new_expression":
        ctor = node.child_by_field_name("constructor")
        if ctor is None or ctor.type not in ("identifier", "member_expression"):
            return []
        name = jf.text(ctor)
        return [] if simple_name(name) in BASES else [name]
    if node.type != "identifier":
        return []
    name = jf.text(node)
    s = scope
    while True:
        typed = sorted({drop_generics(b.type) for b in jf.out.bindings
                        if b.scope == s and b.name == name and b.how in ("declared", "constructed") and b.type})
        if typed:
            return [t for t in typed if simple_name(t) not in BASES and not _type_parameter(jf, node, simple_name(t))]
        if not s:
            return []
        s = s.rpartition(".")[0] or None


def _type_parameter(jf: JsFile, node: Node, name: str) -> bool:
    """Whether ``name`` is a type parameter of a declaration around ``node`` (``<T extends ICommand>``)."""
    n = node.parent
    while n is not None:
        if n.type in _TYPE_SCOPES:
            tps = n.child_by_field_name("type_parameters")
            for tp in tps.named_children if tps is not None else ():
                tp_name = tp.child_by_field_name("name")
                if tp_name is not None and jf.text(tp_name) == name:
                    return True
        n = n.parent
    return False


def _saga_member(jf: JsFile, decorator: Node) -> tuple[Node, Definition] | None:
    """The member a ``@Saga()`` decorator is written on (a method, or a field holding an arrow) and
    its definition."""
    parent = decorator.parent
    member: Node | None = parent if parent is not None and parent.type != "class_body" else None
    if parent is not None and parent.type == "class_body":
        member = decorator.next_named_sibling
        while member is not None and member.type in ("decorator", "comment"):
            member = member.next_named_sibling
    if member is None:
        return None
    name = member.child_by_field_name("name") or member.child_by_field_name("property")
    d = jf.definition_named(name)
    return (member, d) if d is not None else None


def _saga(jf: JsFile, out: FileExtraction, member: Node, saga: Definition,
          of_types: list[dict[str, list[Node]]]) -> None:
    """A saga's events (``ofType(A, B)`` in it) and the commands it returns (``new C(...)``)."""
    line, col = saga.name_line, saga.name_col
    inside = [c for c in of_types if member.start_byte <= c["of_type"][0].start_byte < member.end_byte]
    for caps in inside:
        for arg in arguments(caps["of_types"][0]):
            arg = unwrap(arg) or arg
            if arg.type in ("identifier", "member_expression") and simple_name(jf.text(arg)) not in BASES:
                _use(out, "consumes", jf.text(arg), saga.qualname, line, col)
    produced: set[str] = set()
    stack = [member]
    while stack:
        n = stack.pop()
        if n.type == "new_expression" and _returned(n):
            produced.update(_message_types(jf, n, saga.qualname))
        stack.extend(n.named_children)
    for message in sorted(produced):
        _use(out, "produces", message, saga.qualname, line, col)


def _returned(node: Node) -> bool:
    """Whether an expression is what a function returns: an arrow's expression body or a ``return``'s
    value (through parentheses and casts)."""
    n = node
    while n.parent is not None and n.parent.type in ("parenthesized_expression", "as_expression",
                                                     "satisfies_expression", "non_null_expression"):
        n = n.parent
    p = n.parent
    if p is None:
        return False
    return p.type == "return_statement" or (p.type == "arrow_function" and p.child_by_field_name("body") == n)
