"""Member reads and names JavaScript / TypeScript code makes without calling them
(:class:`~indexer.model.ValueRead`), which the resolver decides through values only
(:mod:`indexer.resolve.reads`): ``r.text`` runs the ``get text()`` accessor of ``r``'s class, and a
name or member handed on as a value (an argument, a declaration's value, an assignment's right
side, an array element, a property's value, a returned value, an arrow function's expression
body: ``app.use(logger)``, ``emitter.on("x", this.onX)``, ``return bar``) may be a function used
as one (a ``REFERENCES`` edge). Rules in ``queries/value_reads.scm``; this module keeps the member
reads that are neither a call's callee, nor a ``new``'s constructor, nor assigned, updated or
deleted, and the bare names handed on that the file defines as a function (at module level or
nested in a function: a method or an object's property is no bare name) or imports (a local
variable, a parameter, a global cannot be a function of the repository). ``this`` inside an
anonymous ``function`` callback is not the class's: such member reads are left out."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from indexer.languages.ecmascript.local_scopes import HEAD_TYPES, bound_words
from indexer.model import CALLABLE_KINDS, LONG_RECEIVER, ValueRead

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.model import Definition

__all__ = ["declared_around", "member_reads"]

_WRITES = frozenset({"assignment_expression", "augmented_assignment_expression"})
_CALLEES = {"call_expression": "function", "new_expression": "constructor"}
_HANDED_PARENTS = frozenset({"arguments", "array", "return_statement"})
"""Nodes whose children are values handed on (an argument, an array's element, a returned value)."""
_HANDED_FIELDS = {"variable_declarator": "value", "assignment_expression": "right", "pair": "value",
                  "arrow_function": "body"}
"""Nodes one field of which is a value handed on."""
_FUNCTION_VALUES = frozenset({"function_expression", "arrow_function", "function", "generator_function", "class"})
"""Declarator values that make the declared name a definition, not a variable."""


def member_reads(fr: Any, matches: list[dict[str, list[Node]]], own_this: Callable[[Node], bool],
                 destructured: frozenset[str] = frozenset()) -> None:
    """Append to ``fr.out.value_reads`` (``fr``: the extractor's file run, with ``src``, ``out``,
    ``receiver`` and ``code_scope``; its definitions and imports already read) one
    :class:`ValueRead` per member read and per bare name handed on of ``matches``, in source order;
    ``own_this(node)`` says whether ``this`` at ``node`` is the enclosing class's; ``destructured``:
    the names the file destructures from a call or a name (``const { onDone } = useHook()``), which
    may be functions of the repository too."""
    src, out = fr.src, fr.out.value_reads
    known = _bare_functions(fr.out.definitions) | {i.local for i in fr.out.imports} | destructured
    declared: dict[int, frozenset[str]] = {}  # per function node id: what it declares itself
    for caps in matches:
        if "value" in caps:
            node = caps["value"][0]
            text = src.text(node)
            if text in known:
                scope = fr.code_scope(node)
                if not declared_around(fr, node, text, declared, read=True):
                    out.append(ValueRead(scope, text, None, src.line(node), src.col(node), True))
            continue
        node = caps["read"][0]
        if not _is_read(node):
            continue
        receiver = fr.receiver(caps["receiver"][0])
        if receiver == LONG_RECEIVER or ((receiver == "this" or receiver.startswith("this.")) and not own_this(node)):
            continue
        name = caps["name"][0]
        out.append(ValueRead(fr.code_scope(node), src.text(name), receiver, src.line(name), src.col(name), _handed(node)))
    out.sort(key=lambda r: (r.line, r.col))


_FUNCTION_NODES = frozenset({"function_declaration", "function_expression", "arrow_function", "function",
                             "generator_function_declaration", "generator_function", "method_definition"})


def declared_around(fr: Any, node: Node, name: str, declared: dict[int, frozenset[str]], stop: Node | None = None,
                    read: bool = False) -> bool:
    """Whether a function holding ``node``, named or anonymous (an IIFE's, a callback's),
    declares ``name`` itself as a parameter or a variable whose value is no function, or a ``catch``
    clause or ``for`` head holding it declares ``name`` (``catch (go) { register(go) }``, ``for (const
    run of xs) register(run)``, :func:`indexer.languages.ecmascript.local_scopes.bound_words`): then a
    ``name`` handed on there is that variable, not the file's function of that name (lodash's ``var
    result = []; ... return result`` in 122 functions is no reference to ``_.result``).
    ``declared`` memoises each function's names (and each head's words) by node id; each function body is walked once
    (not into the functions nested in it), so a file costs one walk in all. ``stop``: only the
    functions inside that node count (the scope declaring the name in question). ``read``: ``node``
    is an identifier read as a value (never one that declares), so a function whose bytes spell
    ``name`` nowhere but at ``node`` cannot declare it: such a function is not walked (a cheap gate)."""
    gate = fr.src.data[node.start_byte:node.end_byte] if read and "\ufffd" not in name else None
    n = node.parent
    while n is not None and (stop is None or n.id != stop.id):
        if n.type in _FUNCTION_NODES:
            names = declared.get(n.id)
            if names is None:
                if gate is not None and not _spelled_elsewhere(fr.src.data, gate, n, node.start_byte):
                    n = n.parent
                    continue
                names = declared[n.id] = _own_names(fr, n)
            if name in names:
                return True
        elif n.type in HEAD_TYPES and (gate is None or _spelled_elsewhere(fr.src.data, gate, n, node.start_byte)):
            words = declared.get(n.id)
            if words is None:
                words = declared[n.id] = bound_words(fr.src.text, n)
            if name in words:
                return True
        n = n.parent
    return False


def _spelled_elsewhere(data: bytes, word: bytes, fn: Node, at: int) -> bool:
    """Whether ``word`` occurs in ``data`` within ``fn``'s bytes anywhere but at offset ``at``."""
    i = data.find(word, fn.start_byte, fn.end_byte)
    if i == at:
        i = data.find(word, at + 1, fn.end_byte)
    return i != -1


def _own_names(fr: Any, fn: Node) -> frozenset[str]:
    """The parameters of ``fn`` and the variables its body declares (outside the functions nested
    in it) whose value is no function."""
    out: set[str] = set()
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    stack = [params] if params is not None else []
    while stack:  # parameters: plain, defaulted, destructured, rest
        p = stack.pop()
        if p.type in ("identifier", "shorthand_property_identifier_pattern"):
            out.add(fr.src.text(p))
        elif p.type not in _FUNCTION_NODES:
            # only what a parameter binds: not its default value nor its TypeScript type
            bound = p.child_by_field_name("pattern") or p.child_by_field_name("left")
            stack.extend([bound] if bound is not None else p.named_children)
    body = fn.child_by_field_name("body")
    stack = [body] if body is not None else []
    while stack:
        n = stack.pop()
        if n.type == "variable_declarator":
            name, value = n.child_by_field_name("name"), n.child_by_field_name("value")
            if name is not None and name.type == "identifier" and (value is None or value.type not in _FUNCTION_VALUES):
                out.add(fr.src.text(name))
        stack.extend(c for c in n.named_children if c.type not in _FUNCTION_NODES and c.type != "class_declaration")
    return frozenset(out)


def _bare_functions(definitions: list[Definition]) -> set[str]:
    """The names a bare identifier may call a function of the file by: functions at module level or
    nested in a function (``function f``, ``const f = () => ...``), not methods nor properties
    (``obj.m = function``, ``{ m() {} }``), which only a member expression reaches."""
    kinds = {d.qualname: d.kind for d in definitions}
    return {d.name for d in definitions
            if d.kind in CALLABLE_KINDS and (d.parent is None or kinds.get(d.parent) in ("function", "method", "constructor"))}


def _handed(node: Node) -> bool:
    """Whether ``node`` is written where its value is handed on (see the module docstring)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in _HANDED_PARENTS:
        return True
    field = _HANDED_FIELDS.get(parent.type)
    return field is not None and parent.child_by_field_name(field) == node


def _is_read(node: Node) -> bool:
    """Whether the member expression ``node`` is read as a value."""
    parent = node.parent
    if parent is None:
        return True
    kind = parent.type
    field = _CALLEES.get(kind)
    if field is not None:
        return parent.child_by_field_name(field) != node
    if kind in _WRITES:
        return parent.child_by_field_name("left") != node
    if kind == "update_expression":
        return False
    return not (kind == "unary_expression" and parent.child_by_field_name("operator") is not None
                and parent.child_by_field_name("operator").type == "delete")
