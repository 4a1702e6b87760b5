"""Helpers shared by the Python framework detectors (not a detector: not in the registry).

* :func:`template` turns an expression into a :class:`~indexer.model.Template` (string literals,
  f-strings, ``+`` concatenation, ``%`` and ``str.format`` formatting, names);
* :func:`scope_of` names the innermost definition whose *body* holds a node, exactly as the extractor
  names a call's caller (``Class.method``, ``outer.inner``; a class body is the class; ``None`` at
  module level; decorators and defaults belong to the enclosing scope);
* :class:`Args` splits an argument list into positional and keyword arguments;
* :class:`ImportTable` qualifies a name through the file's imports (``hx.Client`` -> ``httpx.Client``
  after ``import httpx as hx``; ``get`` -> ``requests.get`` after ``from requests import get``);
* :class:`BindingTable` answers "what was this receiver bound to?" from the extractor's
  :class:`~indexer.model.Binding` records (locals, enclosing functions, module, ``self.<attr>``).

Position convention of every Python detector: a fact sits at the *callee name* of the call that
declares it (``get`` in ``@app.get("/x")``, ``path`` in ``path("x/", v)``, ``send`` in
``producer.send(...)``), as :class:`~indexer.model.CallSite` does.

These read small subtrees (an expression, an argument list) and walk up a node's parents: a query
cannot build a template out of nested expressions nor name the enclosing scope.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from tree_sitter import Node

from indexer.languages.base import SourceText, budget_expired, query, run_query, storable
from indexer.model import (CALLABLE_KINDS, Binding, FileExtraction, Import, Param, Template, base_type, call_ref,
                           is_call_ref)
from indexer.symbols import CONFIG_KEY, inline_definition, inline_header

__all__ = [
    "Args",
    "BindingTable",
    "CallLocator",
    "Context",
    "FunctionBindings",
    "ImportTable",
    "compact",
    "function_bindings",
    "config_key",
    "has_hole",
    "join",
    "library_kind",
    "local_value",
    "outermost_call",
    "ref_text",
    "known_calls",
    "known_self_reads",
    "scope_of",
    "self_attribute_reads",
    "string_value",
    "string_list",
    "template",
]

_WS = re.compile(r"\s+")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_PERCENT = re.compile(r"%%|%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa]")
_BRACES = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
_MAX_DEPTH = 48  # nesting of parentheses / calls a template follows; deeper becomes a hole
_DEFINITIONS = ("function_definition", "class_definition")


def compact(src: SourceText, node: Node | None) -> str:
    """The node's text without whitespace (``app . get`` -> ``app.get``)."""
    return _WS.sub("", src.text(node))


def _collapsed(src: SourceText, node: Node) -> str:
    """The node's text with whitespace runs collapsed to one space (hole texts, for display)."""
    return _WS.sub(" ", src.text(node)).strip()


_SCOPE_MEMO: ContextVar[tuple[SourceText, dict[int, tuple[str, ...]]] | None] = ContextVar(
    "ripple_python_scope_memo", default=None)
"""The file :func:`scope_of` last named scopes in (its ``SourceText``) and, per node id visited
there, the names of the definitions whose bodies hold that node, outermost first."""


def block_definitions(block: Node | None, kind: str) -> list[Node]:
    """The ``kind`` nodes (``"function_definition"``, ``"class_definition"``) among the statements of
    ``block`` (a module or a class body), a decorated one by its definition, in source order; ``[]`` for
    ``None``."""
    out = []
    for stmt in block.named_children if block is not None else ():
        node = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
        if node is not None and node.type == kind:
            out.append(node)
    return out


def scope_of(node: Node, src: SourceText) -> str | None:
    """Qualname of the innermost function / class whose body contains ``node`` (``None``: module).

    Walks up the parents (a query cannot name the enclosing definition), and remembers for every
    node it passes the names found above it, so a later look-up in the same file (same ``src``)
    stops at the first node passed before: each of a file's nodes is walked through at most once,
    which matters since tree-sitter finds a node's parent by descending from the root."""
    memo = _SCOPE_MEMO.get()
    if memo is None or memo[0] is not src:
        memo = (src, {})
        _SCOPE_MEMO.set(memo)
    known = memo[1]
    path: list[tuple[Node, Node]] = []
    child = node
    while True:
        names = known.get(child.id)
        if names is not None:
            break
        parent = child.parent
        if parent is None:
            names = known[child.id] = ()
            break
        path.append((child, parent))
        child = parent
    for child, parent in reversed(path):
        if parent.type in _DEFINITIONS:
            body = parent.child_by_field_name("body")
            if body is not None and body.id == child.id:
                names = (*names, src.text(parent.child_by_field_name("name")))
        known[child.id] = names
    return ".".join(names) or None


_CALL_INDEX: ContextVar[tuple[SourceText, dict[tuple[int, int], Node]] | None] = ContextVar(
    "ripple_python_call_index", default=None)
"""The file whose calls :func:`known_calls` holds (its ``SourceText``) and its calls by callee
name position."""


@contextmanager
def known_calls(src: SourceText, calls: dict[tuple[int, int], Node]) -> Iterator[None]:
    """Inside the block, :class:`CallLocator` over the file ``src`` holds finds its calls ``calls``
    by the IR position (1-based line, code-point column) of their callee name: ``f`` of ``f(x)``,
    ``m`` of ``a.m(x)`` (the extractor has them in hand when it records its call sites). A position
    must be that of a non-empty identifier whose call :meth:`CallLocator.call_at` would find there,
    so that a look-up in the index answers as the tree search does; a position not in it is searched
    in the tree. The index (and the tree its nodes keep) is let go when the block ends."""
    token = _CALL_INDEX.set((src, calls))
    try:
        yield
    finally:
        _CALL_INDEX.reset(token)


_SELF_READS: ContextVar[tuple[SourceText, list[Node]] | None] = ContextVar("ripple_python_self_reads", default=None)
"""The file whose ``self.<name>`` attribute nodes :func:`known_self_reads` holds (its ``SourceText``), and
those nodes."""


@contextmanager
def known_self_reads(src: SourceText, nodes: list[Node]) -> Iterator[None]:
    """Inside the block, :func:`self_attribute_reads` over the file ``src`` answers with ``nodes``:
    every ``attribute`` node of the file whose object is the identifier ``self`` and whose attribute
    is an identifier, in source order, as the extractor's walk of the attribute reads
    (``queries/value_reads.scm``) met them; what ``queries/orm_attribute_reads.scm`` matches, so that
    query is not run over the tree a second time. Let go when the block ends."""
    token = _SELF_READS.set((src, nodes))
    try:
        yield
    finally:
        _SELF_READS.reset(token)


def self_attribute_reads(root: Node, src: SourceText) -> list[tuple[Node, Node]]:
    """``(attribute node, attribute name node)`` of every ``self.<name>`` under ``root`` (the file's
    root), in source order: from :func:`known_self_reads` when it holds the file (empty once the
    extraction's time budget is up, as a query run then would be), else by running
    ``queries/orm_attribute_reads.scm``."""
    known = _SELF_READS.get()
    if known is not None and known[0] is src:
        return [] if budget_expired() else [(node, node.child_by_field_name("attribute")) for node in known[1]]
    return [(caps["read"][0], caps["attr"][0])
            for _, caps in run_query(query("python", "python/queries", "orm_attribute_reads"), root)]


class CallLocator:
    """Finds the tree node of a call the extractor recorded (:class:`~indexer.model.CallSite`
    ``line`` / ``col``: its callee name), so detectors visit only the calls they care about instead
    of running a query over the whole tree. The calls :func:`known_calls` holds for the file
    are found by a dictionary look-up (Django 5.2.8's detectors ask for 82k), others by a descent
    from the root."""

    def __init__(self, root: Node, src: SourceText) -> None:
        self.root, self.src = root, src
        known = _CALL_INDEX.get()
        self._known = known[1] if known is not None and known[0] is src else {}

    def node_at(self, line: int, col: int) -> Node | None:
        """The named node starting at 1-based ``line``, code-point ``col`` (``None`` out of range)."""
        return self.src.node_at(self.root, line, col)

    def call_at(self, line: int, col: int) -> Node | None:
        """The call whose callee name (``f`` of ``f(x)``, ``m`` of ``a.m(x)``) is at (line, col)."""
        found = self._known.get((line, col))
        if found is not None:
            return found
        n = self.node_at(line, col)
        if n is None:
            return None
        if n.parent is not None and n.parent.type == "attribute" and n.parent.child_by_field_name("attribute") == n:
            n = n.parent
        p = n.parent
        return p if p is not None and p.type == "call" and p.child_by_field_name("function") == n else None


def outermost_call(call: Node, limit: int = 64) -> Node:
    """The last call of the method chain ``call`` starts (``a.b(x).c().d()`` from ``b(x)``: the
    ``d()`` call); at most ``limit`` links are followed."""
    top = call
    for _ in range(limit):
        p = top.parent
        if p is not None and p.type == "attribute" and p.child_by_field_name("object") == top:
            q = p.parent
            if q is not None and q.type == "call" and q.child_by_field_name("function") == p:
                top = q
                continue
        break
    return top


def ref_text(src: SourceText, node: Node) -> str:
    """An expression naming a handler, normalised like a receiver: whitespace dropped, every call in
    a chain written ``()`` (``X.as_view("n")`` -> ``X.as_view()``, ``views . f`` -> ``views.f``)."""
    parts: list[str] = []
    for _ in range(_MAX_DEPTH):
        if node.type == "identifier":
            parts.append(src.text(node))
            break
        if node.type == "attribute":
            parts.append("." + src.text(node.child_by_field_name("attribute")))
            node = node.child_by_field_name("object")
            continue
        if node.type == "call":
            parts.append("()")
            node = node.child_by_field_name("function")
            continue
        parts.append(compact(src, node))
        break
    return "".join(reversed(parts))


# ---------------------------------------------------------------------------------------- strings


def _string_parts(src: SourceText, node: Node) -> tuple[Node, Node, str, str] | None:
    """``(string_start, string_end, prefix, opening quote)`` of a complete string literal (the prefix
    in lower case: ``""``, ``f``, ``rb``...; the quote ``"``, ``'''``...), else ``None``."""
    if node.child_count < 2:
        return None
    start, end = node.children[0], node.children[-1]
    if start.type != "string_start" or end.type != "string_end":
        return None
    opening = src.text(start)
    quote_at = min(i for i in (opening.find('"'), opening.find("'"), len(opening)) if i >= 0)
    return start, end, opening[:quote_at].lower(), opening[quote_at:]


def _decode(prefix: str, open_quote: str, close_quote: str, body: str) -> str:
    """The value of a literal piece ``body`` written between the given quotes with ``prefix``
    (``r`` or nothing; ``f`` removed by the caller); the raw text when it does not decode."""
    if "\\" not in body or "r" in prefix:
        return body
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = ast.literal_eval(prefix + open_quote + body + close_quote)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return body
    return storable(value) if isinstance(value, str) else body


def string_value(src: SourceText, node: Node | None) -> str | None:
    """The value of a plain string literal (implicit concatenation and parentheses too); ``None`` for
    anything else (f-strings, bytes, names, calls)."""
    if node is None:
        return None
    # a loop, not a call per level: 5,000 nested parentheses exceeded the recursion limit (brk55)
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type == "concatenated_string":
        values = [string_value(src, c) for c in node.named_children if c.type != "comment"]
        return None if any(v is None for v in values) else "".join(values)  # type: ignore[arg-type]
    if node.type != "string":
        return None
    parts = _string_parts(src, node)
    if parts is None:
        return None
    start, end, prefix, quote = parts
    if "f" in prefix or "b" in prefix:
        return None
    body = src.data[start.end_byte : end.start_byte].decode("utf-8", "replace")
    return _decode(prefix.replace("u", ""), quote, src.text(end), body)


def string_list(src: SourceText, node: Node | None) -> list[str] | None:
    """The values of a list / tuple / set of string literals, or of one string; ``None`` when any
    element is not a plain string literal."""
    if node is None:
        return None
    if node.type in ("list", "tuple", "set"):
        values = [string_value(src, c) for c in node.named_children if c.type != "comment"]
        return None if any(v is None for v in values) else values  # type: ignore[return-value]
    value = string_value(src, node)
    return None if value is None else [value]


# ---------------------------------------------------------------------------------------- templates


_merge = Template.merged


def template(src: SourceText, node: Node | None) -> Template:
    """The template an expression builds (``Template()`` for ``None``).

    String literal -> ``lit``; f-string -> its literal pieces, ``ref`` for a plain or dotted name in
    braces and ``hole`` for any other expression; ``a + b`` -> the parts of both; ``"%s/x" % v`` and
    ``"{}/x".format(v)`` -> literal pieces with a ``hole`` per placeholder; a plain or dotted name ->
    ``ref``; anything else -> one ``hole`` with the expression's text."""
    if node is None:
        return Template()
    return _merge(_parts(src, node, 0))


def join(*templates: Template) -> Template:
    """The templates one after the other, adjacent literal pieces joined."""
    return _merge(part for t in templates for part in t.parts)


def has_hole(t: Template) -> bool:
    """Whether the template holds a value not known statically."""
    return any(kind == "hole" for kind, _ in t.parts)


def _parts(src: SourceText, node: Node, depth: int) -> list[tuple[str, str]]:
    """Template parts of ``node`` (unmerged); ``depth`` bounds the recursion."""
    kind = node.type
    if depth > _MAX_DEPTH:
        return [("hole", _collapsed(src, node))]
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return _parts(src, node.named_children[0], depth + 1)
    if kind == "string":
        value = string_value(src, node)
        if value is not None:
            return [("lit", value)]
        fparts = _fstring_parts(src, node)
        return fparts if fparts is not None else [("hole", _collapsed(src, node))]
    if kind == "concatenated_string":
        out: list[tuple[str, str]] = []
        for child in node.named_children:
            if child.type != "comment":
                out.extend(_parts(src, child, depth + 1))
        return out
    if kind == "binary_operator":
        return _binary_parts(src, node, depth)
    if kind == "call":
        formatted = _format_parts(src, node, depth)
        if formatted is not None:
            return formatted
        fallback = _env_default(src, node)
        if fallback is not None:
            return _parts(src, fallback, depth + 1)
    if kind in ("subscript", "call"):
        key = config_key(src, node)
        if key is not None:
            return [("ref", CONFIG_KEY + key)]
    if kind == "call":
        return [_call_piece(src, node, depth)]
    if kind in ("identifier", "attribute"):
        text = compact(src, node)
        if _DOTTED.fullmatch(text):
            return [("ref", text)]
    return [("hole", _collapsed(src, node))]


def _binary_parts(src: SourceText, node: Node, depth: int) -> list[tuple[str, str]]:
    """``a + b + c`` (flattened without recursion on the left-nested chain) and ``"fmt" % args``."""
    operator = node.child_by_field_name("operator")
    op = operator.type if operator is not None else ""
    if op == "%":
        fmt = string_value(src, node.child_by_field_name("left"))
        if fmt is not None:
            return _placeholders(fmt, _PERCENT)
        return [("hole", _collapsed(src, node))]
    if op != "+":
        return [("hole", _collapsed(src, node))]
    operands: list[Node] = []
    current: Node | None = node
    while current is not None and current.type == "binary_operator":
        op_node = current.child_by_field_name("operator")
        if op_node is None or op_node.type != "+":
            break
        right = current.child_by_field_name("right")
        if right is not None:
            operands.append(right)
        current = current.child_by_field_name("left")
    if current is not None:
        operands.append(current)
    out: list[tuple[str, str]] = []
    for operand in reversed(operands):
        out.extend(_parts(src, operand, depth + 1))
    return out


def _format_parts(src: SourceText, call: Node, depth: int = 0) -> list[tuple[str, str]] | None:
    """``"/owners/{}".format(x)``: literal pieces and a hole per placeholder; ``None`` otherwise. When
    every placeholder is an automatic ``{}`` and the call passes exactly that many positional
    arguments and nothing else (``'http://{}/users'.format(host)``), each placeholder is its argument's
    parts instead (Python's ``str.format`` fills them in order)."""
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "attribute" or src.text(callee.child_by_field_name("attribute")) != "format":
        return None
    fmt = string_value(src, callee.child_by_field_name("object"))
    if fmt is None:
        return None
    parts = _placeholders(fmt, _BRACES)
    holes = [i for i, (k, _) in enumerate(parts) if k == "hole"]
    args = Args.of(src, call.child_by_field_name("arguments"))
    if (holes and all(parts[i][1] == "{}" for i in holes) and len(args.positional) == len(holes)
            and not args.keywords and not args.splat):
        out: list[tuple[str, str]] = []
        filled = iter(args.positional)
        for k, text in parts:
            out.extend(_parts(src, next(filled), depth + 1) if k == "hole" else [(k, text)])
        return out
    return parts


MAX_CALL_ARGUMENTS = 4
"""The most arguments of a call in a string kept as a call (:func:`_call_piece`); more: a hole."""
_PLAIN_ARGUMENTS = frozenset({"string", "concatenated_string", "binary_operator", "identifier", "attribute",
                              "parenthesized_expression"})


def _call_piece(src: SourceText, node: Node, depth: int) -> tuple[str, str]:
    """A call in a string: a ``ref`` to the call (:func:`~indexer.model.call_ref`) when its callee is a plain or
    dotted name and it passes 1 to :data:`MAX_CALL_ARGUMENTS` positional arguments, at least one a string or name
    and none a call (``urls.api_url("orders")``: the linker folds it when the callee is the application's
    :class:`~indexer.model.UrlBuilder`); a ``hole`` otherwise."""
    callee = node.child_by_field_name("function")
    name = compact(src, callee) if callee is not None and callee.type in ("identifier", "attribute") else ""
    args = Args.of(src, node.child_by_field_name("arguments"))
    if not _DOTTED.fullmatch(name) or args.keywords or args.splat or not 1 <= len(args.positional) <= MAX_CALL_ARGUMENTS:
        return ("hole", _collapsed(src, node))
    built: list[Template | None] = []
    for a in args.positional:
        if a.type not in _PLAIN_ARGUMENTS:
            built.append(None)
            continue
        t = _merge(_parts(src, a, depth + 1))
        if any(k == "ref" and is_call_ref(x) for k, x in t.parts):
            return ("hole", _collapsed(src, node))  # one level: a call of a call is unknown
        built.append(t)
    if all(b is None for b in built):
        return ("hole", _collapsed(src, node))
    return ("ref", call_ref(name, built))


_ENV_GETTERS = frozenset({"os.getenv", "os.environ.get", "environ.get", "getenv"})
"""Callees reading an environment variable with a default (``os.getenv("API", "http://api:8080")``)."""

_CONFIG_MAPS = frozenset({"config"})
"""Attribute names of an application's configuration mapping (Flask's ``app.config``)."""


def _env_default(src: SourceText, call: Node) -> Node | None:
    """The default of ``os.getenv("X", default)`` / ``os.environ.get("X", default)`` (what a process
    without ``X`` set gets, as a JavaScript ``process.env.X || "lit"`` is read); ``None`` for any other
    call or one without a default."""
    callee = call.child_by_field_name("function")
    if callee is None or compact(src, callee) not in _ENV_GETTERS:
        return None
    args = Args.of(src, call.child_by_field_name("arguments"))
    return args.get(1, "default")


_SCOPE_NODES = frozenset({"function_definition", "class_definition", "lambda"})
_BINDERS = {"for_statement": "left", "for_in_clause": "left", "augmented_assignment": "left",
            "named_expression": "name", "as_pattern": "alias", "global_statement": "", "nonlocal_statement": "",
            "delete_statement": "", "import_statement": "", "import_from_statement": ""}
"""Statements that (re)bind a name, and the field holding the names bound (``""``: the whole statement)."""
_MAX_LOCAL_NODES = 20_000


def local_value(src: SourceText, ident: Node) -> Node | None:
    """The value of the local variable ``ident`` names when its function binds it exactly once, by a plain
    ``name = value`` written before ``ident`` (``url = '{}/{}'.format(base, user); requests.post(url=url)``):
    not a parameter, and no other assignment, loop, ``with``, walrus, ``del``, ``global`` or import in the
    function (nested functions and classes excluded) names it; ``None`` otherwise, at module level, and
    past :data:`_MAX_LOCAL_NODES` nodes of the function. The function's bindings are read once
    (:func:`function_bindings`), not once per name asked: a test of 5,000 requests in one function took
    the square of its size."""
    if ident.type != "identifier":
        return None
    name = src.text(ident)
    fn = ident.parent
    while fn is not None and fn.type not in _SCOPE_NODES:
        fn = fn.parent
    if fn is None or fn.type != "function_definition":
        return None
    known = function_bindings(src, fn)
    if known.too_big or name in known.params or name in known.other:
        return None
    found = known.plain.get(name, ())
    if len(found) != 1 or found[0].end_byte > ident.start_byte:
        return None
    return found[0].child_by_field_name("right")


@dataclass(slots=True)
class FunctionBindings:
    """The names one function's own body binds (nested functions, classes and lambdas left out), read in one
    walk (:func:`function_bindings`): ``plain``, name -> its ``name = value`` assignments in the walk's order
    (:func:`local_value` needs exactly one; ``url_names`` the last before a point, by ``start_byte``);
    ``other``: names bound any other way (unpacked, a loop or ``with`` target, a walrus, ``del``, ``global``,
    an import); ``params``: the parameters' names; ``too_big``: the body has more than
    :data:`_MAX_LOCAL_NODES` nodes (:func:`local_value` then knows nothing, as before it was read once)."""

    plain: dict[str, list[Node]] = field(default_factory=dict)
    other: set[str] = field(default_factory=set)
    params: set[str] = field(default_factory=set)
    too_big: bool = False


_last_bindings: list[tuple[SourceText, int, int, int, FunctionBindings]] = []


def function_bindings(src: SourceText, fn: Node) -> FunctionBindings:
    """The bindings (:class:`FunctionBindings`) of the ``function_definition`` ``fn`` of ``src``'s tree; the
    last function asked is remembered (the requests of one function are read one after another), so a
    function of N requests is walked once, not N times."""
    key = (fn.id, fn.start_byte, fn.end_byte)
    if _last_bindings and _last_bindings[0][0] is src and _last_bindings[0][1:4] == key:
        return _last_bindings[0][4]
    out = FunctionBindings()
    params = fn.child_by_field_name("parameters")
    out.params = {src.text(n) for n in _identifiers(params)} if params is not None else set()
    body = fn.child_by_field_name("body")
    stack = list(body.named_children) if body is not None else []
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if node.type in _SCOPE_NODES:
            continue
        if node.type == "assignment":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                out.plain.setdefault(src.text(left), []).append(node)
            elif left is not None:
                out.other.update(src.text(n) for n in _identifiers(left))  # `a, url = ...`: unpacked
        elif node.type in _BINDERS:
            target = node.child_by_field_name(_BINDERS[node.type]) if _BINDERS[node.type] else node
            if target is not None:
                out.other.update(src.text(n) for n in _identifiers(target))
        stack.extend(node.named_children)
    out.too_big = seen > _MAX_LOCAL_NODES
    _last_bindings[:] = [(src, *key, out)]
    return out


def _identifiers(node: Node) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack and len(out) < 1000:
        n = stack.pop()
        if n.type == "identifier":
            out.append(n)
        elif n.type not in ("call", "subscript", "attribute", "block"):
            stack.extend(n.named_children)
    return out


def config_key(src: SourceText, node: Node) -> str | None:
    """The key an application's configuration mapping is read or written at: ``app.config["K"]``,
    ``current_app.config.get("K")`` / ``.get("K", default)`` (any receiver whose last attribute is
    ``config``, :data:`_CONFIG_MAPS`) -> ``"K"``; ``None`` for any other expression. The linker gives
    the read the value written under that key in the same service folder
    (:data:`~indexer.symbols.CONFIG_KEY` constants)."""
    if node.type == "subscript":
        mapping = node.child_by_field_name("value")
        key = node.child_by_field_name("subscript")
    elif node.type == "call":
        callee = node.child_by_field_name("function")
        if callee is None or callee.type != "attribute" or src.text(callee.child_by_field_name("attribute")) != "get":
            return None
        mapping = callee.child_by_field_name("object")
        args = Args.of(src, node.child_by_field_name("arguments"))
        key = args.get(0, "key")
    else:
        return None
    if mapping is None or key is None or mapping.type != "attribute":
        return None
    attr = mapping.child_by_field_name("attribute")
    if attr is None or src.text(attr) not in _CONFIG_MAPS:
        return None
    value = string_value(src, key)
    return value if value and _DOTTED.fullmatch(value) else None


def _placeholders(fmt: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """Cut a format string at its placeholders; each placeholder becomes a hole whose text is the
    placeholder itself (``{id}``, ``%s``: the arguments are not matched to them); ``{{`` / ``}}`` and
    ``%%`` stay literal."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in pattern.finditer(fmt):
        piece = m.group(0)
        out.append(("lit", fmt[pos : m.start()]))
        out.append(("lit", piece[0]) if piece in ("{{", "}}", "%%") else ("hole", piece))
        pos = m.end()
    out.append(("lit", fmt[pos:]))
    return out


def _fstring_parts(src: SourceText, node: Node) -> list[tuple[str, str]] | None:
    """Parts of an f-string: literal runs between interpolations, a ``ref`` per plain / dotted name
    interpolated as it is, a ``hole`` per other expression or converted / formatted one (``{x!r}``,
    ``{n:>3}``); ``None`` for bytes or a broken literal."""
    parts = _string_parts(src, node)
    if parts is None:
        return None
    start, end, prefix, quote = parts
    if "f" not in prefix or "b" in prefix:
        return None
    prefix = prefix.replace("f", "")
    closing = src.text(end)
    data = src.data
    out: list[tuple[str, str]] = []

    def literal(begin: int, stop: int) -> None:
        body = data[begin:stop].decode("utf-8", "replace")
        out.append(("lit", _decode(prefix, quote, closing, body).replace("{{", "{").replace("}}", "}")))

    pos = start.end_byte
    for child in node.children[1:-1]:
        if child.type != "interpolation":
            continue
        literal(pos, child.start_byte)
        expr = child.child_by_field_name("expression")
        text = compact(src, expr) if expr is not None else ""
        formatted = any(c.type in ("type_conversion", "format_specifier") for c in child.children)
        if expr is not None and expr.type in ("identifier", "attribute") and _DOTTED.fullmatch(text) and not formatted:
            out.append(("ref", text))
        elif expr is not None and not formatted and expr.type in ("subscript", "call") and config_key(src, expr):
            out.append(("ref", CONFIG_KEY + str(config_key(src, expr))))
        else:
            out.append(("hole", _collapsed(src, expr) if expr is not None else ""))
        pos = child.end_byte
    literal(pos, end.start_byte)
    return out


# ---------------------------------------------------------------------------------------- arguments


@dataclass(slots=True)
class Args:
    """An argument list: ``positional`` nodes in order and ``keywords`` by name (``*x`` / ``**x``
    set ``splat`` and are not listed)."""

    positional: list[Node] = field(default_factory=list)
    keywords: dict[str, Node] = field(default_factory=dict)
    splat: bool = False

    @staticmethod
    def of(src: SourceText, node: Node | None) -> Args:
        """Split an ``argument_list`` node (anything else, e.g. a generator argument: no arguments)."""
        args = Args()
        if node is None or node.type != "argument_list":
            return args
        for child in node.named_children:
            kind = child.type
            if kind == "keyword_argument":
                name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
                if name is not None and value is not None:
                    args.keywords[src.text(name)] = value
            elif kind in ("list_splat", "dictionary_splat"):
                args.splat = True
            elif kind != "comment":
                args.positional.append(child)
        return args

    def get(self, index: int, name: str) -> Node | None:
        """The argument passed as keyword ``name``, else the ``index``-th positional one (``-1``:
        keyword only), else ``None``."""
        if name in self.keywords:
            return self.keywords[name]
        if 0 <= index < len(self.positional):
            return self.positional[index]
        return None


# ---------------------------------------------------------------------------------------- names


_IMPORT_MEMO: ContextVar[tuple[FileExtraction, list[Import], int, ImportTable] | None] = ContextVar(
    "ripple_python_import_memo", default=None)
"""The extraction :meth:`ImportTable.of` last built a table for, its imports list and length, and the table."""


class ImportTable:
    """The file's imports, for qualifying a name as its library spells it. Read-only once built:
    :meth:`of` hands one table to every detector of a file."""

    def __init__(self, imports: Iterable[Import]) -> None:
        self.by_local: dict[str, Import] = {}
        self.packages: set[str] = set()
        for imp in imports:
            if imp.level == 0 and imp.module:
                self.packages.add(imp.module.split(".", 1)[0])
            if imp.local != "*":
                self.by_local.setdefault(imp.local, imp)

    @classmethod
    def of(cls, out: FileExtraction) -> ImportTable:
        """The table of ``out.imports``, built once per file: the detectors of one file ask for it
        one after the other (Django 5.2.8: 40,000 tables for 2,818 files, 1.4 s of a 98 s profiled
        extraction). Built again when ``out`` is another file's or its imports list was replaced
        or changed length since."""
        memo = _IMPORT_MEMO.get()
        if memo is not None and memo[0] is out and memo[1] is out.imports and memo[2] == len(out.imports):
            return memo[3]
        table = cls(out.imports)
        _IMPORT_MEMO.set((out, out.imports, len(out.imports), table))
        return table

    def uses(self, *packages: str) -> bool:
        """Whether the file imports from one of the top-level ``packages`` (absolute imports)."""
        return any(p in self.packages for p in packages)

    def is_imported(self, name: str) -> bool:
        """Whether ``name`` (the head of a dotted expression) is bound by an import."""
        return name.split(".", 1)[0] in self.by_local

    def qualify(self, text: str) -> str:
        """``text`` with its head replaced by what the import binding it names: ``hx.Client`` ->
        ``httpx.Client`` (``import httpx as hx``), ``Session`` -> ``requests.Session`` (``from
        requests import Session``). Unchanged when the head is not imported or is imported relatively."""
        head, dot, rest = text.partition(".")
        imp = self.by_local.get(head)
        if imp is None or imp.level:
            return text
        base = imp.module if imp.name is None else f"{imp.module}.{imp.name}"
        return base + dot + rest


def library_kind(qualified: str | None, table: dict[tuple[str, str], str]) -> str | None:
    """``table[(top-level package, last name)]`` for a qualified name (``httpx._client.Client`` ->
    ``("httpx", "Client")``), or ``None``."""
    if not qualified:
        return None
    head = qualified.split(".", 1)[0]
    last = qualified.rsplit(".", 1)[-1]
    return table.get((head, last))


class BindingTable:
    """The extractor's bindings by scope, for resolving a receiver to the type it was bound to."""

    def __init__(self, bindings: Iterable[Binding], class_scopes: Iterable[str]) -> None:
        self.by_key: dict[tuple[str | None, str], list[Binding]] = {}
        for b in bindings:
            self.by_key.setdefault((b.scope, b.name), []).append(b)
        self.classes = set(class_scopes)

    def lookup(self, scope: str | None, receiver: str) -> list[Binding]:
        """Bindings of ``receiver`` seen from ``scope``: the innermost scope binding it wins. A plain
        name is looked up in the scope, its enclosing functions and the module (class bodies are not
        visible from their methods); ``self.x`` / ``cls.x`` in the enclosing classes (as ``self.x``
        or as a class attribute ``x``)."""
        head, _, attr = receiver.partition(".")
        is_self = head in ("self", "cls") and attr and "." not in attr
        current = scope
        while True:
            if is_self:
                hits = self.by_key.get((current, "self." + attr)) or (
                    self.by_key.get((current, attr)) if current in self.classes else None
                )
            elif current is None or current == scope or current not in self.classes:
                hits = self.by_key.get((current, receiver))
            else:
                hits = None
            if hits:
                return hits
            if current is None:
                return []
            current = current.rpartition(".")[0] or None

    def types(self, imports: ImportTable, scope: str | None, receiver: str) -> list[tuple[str, Binding]]:
        """``(qualified type, binding)`` for each binding of ``receiver`` seen from ``scope``."""
        out = []
        for b in self.lookup(scope, receiver):
            if b.how == "alias":
                continue
            t = base_type(b.type)
            if t:
                out.append((imports.qualify(t), b))
        return out


class Context:
    """What a detector needs besides the tree: the source, the extraction so far, its imports,
    bindings (built on first use) and callables (qualname -> kind, on first use)."""

    def __init__(self, src: SourceText, out: FileExtraction) -> None:
        self.src = src
        self.out = out
        self.imports = ImportTable.of(out)
        self._bindings: BindingTable | None = None
        self._kinds: dict[str, str] | None = None

    @property
    def kinds(self) -> dict[str, str]:
        """``{qualname: kind}`` of the file's definitions."""
        if self._kinds is None:
            self._kinds = {d.qualname: d.kind for d in self.out.definitions}
        return self._kinds

    @property
    def bindings(self) -> BindingTable:
        """The file's bindings (see :class:`BindingTable`)."""
        if self._bindings is None:
            classes = (q for q, k in self.kinds.items() if k == "class")
            self._bindings = BindingTable(self.out.bindings, classes)
        return self._bindings

    def bound_to(self, scope: str | None, receiver: str, table: dict[tuple[str, str], str]) -> str | None:
        """The ``table`` value of the library type ``receiver`` is bound to seen from ``scope``."""
        for qualified, _ in self.bindings.types(self.imports, scope, receiver):
            kind = library_kind(qualified, table)
            if kind is not None:
                return kind
        return None

    def inline_function(self, node: Node, name: str, scope: str | None) -> str:
        """Make the ``lambda`` at ``node`` (a view passed inline) a definition of its own and return
        its qualname (the convention is in :mod:`indexer.symbols`): kind ``function``, named ``name``
        (made unique among ``scope``'s definitions with ``#2`` …), under ``scope`` (the qualname of the
        code around it, ``None`` at module level), spanning the lambda, its name position the
        lambda's start. The calls in its body that belonged to ``scope`` now belong to it."""
        line, col = self.src.line(node), self.src.col(node)
        for d in self.out.definitions:
            if d.kind == "function" and (d.name_line, d.name_col) == (line, col) and d.parent == scope:
                return d.qualname  # asked twice for one lambda
        params: list[Param] = []
        plist = node.child_by_field_name("parameters")
        for p in plist.named_children if plist is not None else ():
            if p.type == "identifier":
                params.append(Param(self.src.text(p)))
            elif p.type == "default_parameter":
                params.append(Param(self.src.text(p.child_by_field_name("name")), has_default=True))
            elif p.type == "list_splat_pattern":
                params.append(Param(self.src.text(p).lstrip("*"), variadic="*"))
            elif p.type == "dictionary_splat_pattern":
                params.append(Param(self.src.text(p).lstrip("*"), variadic="**"))
        signature = inline_header(self.src, node).removesuffix(":").strip()
        qualname = inline_definition(self.out, self.src, node, name, scope, params, signature)
        self.kinds[qualname] = "function"
        return qualname

    def handler(self, node: Node, scope: str | None) -> tuple[str | None, str | None]:
        """``(handler, handler_ref)`` of a view passed by expression: the qualname of a function or
        method of this file that the name reaches from ``scope`` (``fn``; ``Class.method`` through
        the class name), else ``(None, normalised expression)``."""
        text = compact(self.src, node)
        if node.type in ("identifier", "attribute") and _DOTTED.fullmatch(text):
            kinds = self.kinds
            current = scope
            while True:
                candidate = f"{current}.{text}" if current else text
                if kinds.get(candidate) in CALLABLE_KINDS:
                    return candidate, None
                if current is None:
                    break
                current = current.rpartition(".")[0] or None
        return None, ref_text(self.src, node)
