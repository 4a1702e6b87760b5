"""What Python code implies beyond the calls and assignments written: the dunder calls the language
makes (``with``, ``for``, operators, subscripts, ``len()``...) and names bound by iteration and by
unpacking (issue 16); calls through containers are :mod:`indexer.languages.python.containers`'.

:class:`ImpliedFacts` is a mixin of the extractor's per-file state (``src``, ``scopes``, ``out``,
``root`` and its ``receiver_text``, ``arity`` and ``binding_type`` methods); its rules live in
``queries/implicit_calls.scm`` and ``queries/unpacking.scm``.
"""

from __future__ import annotations

import re
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol

from tree_sitter import Node

from indexer.languages.base import query, run_query, split_top_level
from indexer.model import Binding, CallSite

if TYPE_CHECKING:
    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["CALL_THROUGH", "ITEM_SOURCE", "ImpliedFacts", "ScopeTable", "element_types"]

_AT = attrgetter("line", "col")
"""Sort key of records in source order: ``(line, col)``, read in C (no Python call per record)."""


class ScopeTable(Protocol):
    """The extractor's definition bodies: ``items[i]`` has ``kind``, ``parent`` (index, -1 at
    module level) and ``qualname``."""

    items: list[Any]

    def at(self, offset: int) -> int:
        """Index of the innermost scope holding byte ``offset`` (-1: module level)."""
        ...

    def qualname(self, index: int) -> str | None:
        """The qualname of scope ``index`` (``None`` for -1)."""
        ...

_GRAMMAR = "python"
_WS = re.compile(r"\s+")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_ITERABLE = re.compile(r"[A-Za-z_]\w*(?:\(\))?(?:\.[A-Za-z_]\w*(?:\(\))?)*")
"""An iterable's receiver text an ``element`` binding records: names, attributes and calls (``q``,
``Check.objects.filter()``)."""
ITEM_SOURCE = re.compile(r"[A-Za-z_]\w*(?:\(\)|\[[^\[\]]*\])*(?:\.[A-Za-z_]\w*(?:\(\)|\[[^\[\]]*\])*)*")
"""A value's receiver text an ``item`` binding records: names, attributes, calls and subscripts
(``f()``, ``self.pairs[0]``)."""
CALL_THROUGH = frozenset({"partial", "functools.partial", "sync_to_async", "async_to_sync",
                          "asgiref.sync.sync_to_async", "asgiref.sync.async_to_sync"})
"""Library wrappers whose result, called, calls the function handed first (``functools.partial``,
asgiref's ``sync_to_async`` / ``async_to_sync``): the name assigned one is an alias of that function."""
_COPIED_CALLS = frozenset({"list()", "sorted()", "tuple()", "reversed()"})
"""Iterables built of another's elements: a loop over one iterates those (``for x in sorted(q)``)."""

_BINARY_DUNDERS = {
    "+": "__add__", "-": "__sub__", "*": "__mul__", "@": "__matmul__", "/": "__truediv__",
    "//": "__floordiv__", "%": "__mod__", "**": "__pow__", "<<": "__lshift__", ">>": "__rshift__",
    "&": "__and__", "|": "__or__", "^": "__xor__",
}
_COMPARISON_DUNDERS = {"==": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}
_UNARY_DUNDERS = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}
_BUILTIN_DUNDERS = {
    "len": "__len__", "iter": "__iter__", "next": "__next__", "str": "__str__", "repr": "__repr__",
    "hash": "__hash__", "bool": "__bool__", "abs": "__abs__", "reversed": "__reversed__",
    "format": "__format__", "bytes": "__bytes__",
}
_SEQUENCES = frozenset(
    """list List set Set frozenset FrozenSet Iterable Iterator Sequence MutableSequence Collection
    AbstractSet MutableSet Generator AsyncIterable AsyncIterator AsyncGenerator KeysView ValuesView
    Deque deque QuerySet""".split()
)
_MAPPINGS = frozenset("dict Dict Mapping MutableMapping DefaultDict defaultdict OrderedDict ChainMap".split())


def _generic_args(text: str) -> tuple[str, list[str]] | None:
    """``"list[Foo]"`` -> ``("list", ["Foo"])``; top-level commas split the arguments; ``None`` when
    the text is no subscripted name."""
    head, sep, rest = text.partition("[")
    if not sep or not rest.endswith("]"):
        return None
    return head.strip().rpartition(".")[2], [x.strip() for x in split_top_level(rest[:-1], ",", "[(", "])")]




def element_types(annotation: str, view: str | None = None) -> list[str]:
    """The types iterating a value annotated ``annotation`` yields, one per unpacked name:
    ``list[Foo]`` -> ``["Foo"]``; ``dict[K, V]`` -> ``["K"]``, with ``view`` ``"items"`` ->
    ``["K", "V"]``, ``"values"`` -> ``["V"]``; ``tuple[Foo, ...]`` -> ``["Foo"]``;
    ``Optional[...]`` / ``X | None`` are looked through; ``[]`` when unknown (an unparameterised
    or unknown container, a ``tuple`` of mixed types)."""
    text = annotation.strip().strip("\"'")
    parts = [p for p in [x.strip() for x in split_top_level(text, "|", "[(", "])")] if p not in ("None", "")]
    if len(parts) != 1:
        return []
    text = parts[0]
    g = _generic_args(text)
    if g is not None and g[0] == "Optional" and len(g[1]) == 1:
        text = g[1][0]
        g = _generic_args(text)
    if g is None:
        return []
    head, args = g
    if head in _MAPPINGS and len(args) == 2:
        return {None: args[:1], "keys": args[:1], "values": args[1:], "items": args}[view]
    if view is not None:
        return []
    if head in _SEQUENCES and len(args) == 1:
        return args
    if head in ("tuple", "Tuple") and len(args) == 2 and args[1] == "...":
        return args[:1]
    if head in ("Generator", "AsyncGenerator") and args:
        return args[:1]
    return []


class ImpliedFacts:
    """Mixin: the implied call sites and bindings of one file (see the module docstring)."""

    src: SourceText
    out: FileExtraction
    root: Node
    scopes: ScopeTable

    def receiver_text(self, node: Node) -> str:
        """Normalised receiver text of a call chain (the extractor's)."""
        raise NotImplementedError

    def arity(self, args: Node) -> int:
        """Arguments written, -1 with a splat (the extractor's)."""
        raise NotImplementedError

    def binding_type(self, type_node: Node | None, value: Node | None, method: Any) -> tuple[str, str] | None:
        """``(type, how)`` of an assigned value, or ``None`` (the extractor's)."""
        raise NotImplementedError

    def _copied(self, value: Node) -> str | None:
        """The iterable text a ``list(q)`` / ``sorted(q)`` call copies, or ``None`` (the extractor's)."""
        raise NotImplementedError

    def implicit_calls(self) -> None:
        """The dunder calls Python makes for ``with``, ``for``, operators, subscripts and a few
        builtins, as call sites ``via="dunder"`` (:class:`CallSite`) on the operand whose type picks the method
        (the resolver binds them only through that type). The operand must be a name, an attribute
        or a call chain; anything else (a literal, an operator) names no type."""
        src, scopes, out = self.src, self.scopes, self.out.calls
        start = len(out)

        def add(operand: Node, name: str, arity: int, at: Node) -> None:
            while operand.type == "parenthesized_expression" and operand.named_child_count == 1:
                operand = operand.named_children[0]
            if operand.type not in ("identifier", "attribute", "call"):
                return
            receiver = self.receiver_text(operand)
            if receiver in ("self", "cls", "super") or receiver.startswith("super"):
                return  # self + x inside the class: rare, and `super` is no operand
            out.append(CallSite(scopes.qualname_at(at.start_byte), name, receiver, arity,
                                *src.line_col(at), via="dunder"))

        for _, caps in run_query(query(_GRAMMAR, "python/queries", "implicit_calls"), self.root):
            if "with.value" in caps:
                v = caps["with.value"][0]
                add(v, "__enter__", 0, v)
                add(v, "__exit__", 3, v)
            elif "iter.value" in caps:
                v = caps["iter.value"][0]
                add(v, "__iter__", 0, v)
                add(v, "__next__", 0, v)
            elif "binary" in caps:
                node = caps["binary"][0]
                op = node.child_by_field_name("operator")
                dunder = _BINARY_DUNDERS.get(op.type if op is not None else "")
                if dunder:
                    add(caps["binary.left"][0], dunder, 1, op)
            elif "comparison" in caps:
                node = caps["comparison"][0]
                operands = node.named_children
                ops = [c for c in node.children if not c.is_named]
                i = 0
                for op in ops:  # a < b < c: one comparison per operator, between neighbours
                    if i + 1 >= len(operands):
                        break
                    kind = src.text(op)
                    if kind in ("in", "not in") or op.type in ("in", "not in"):
                        add(operands[i + 1], "__contains__", 1, op)
                    elif kind in _COMPARISON_DUNDERS:
                        add(operands[i], _COMPARISON_DUNDERS[kind], 1, op)
                    if kind != "not" and kind != "is":  # `not in` / `is not` are two tokens
                        i += 1
            elif "unary" in caps:
                node = caps["unary"][0]
                op = node.child_by_field_name("operator")
                dunder = _UNARY_DUNDERS.get(op.type if op is not None else "")
                if dunder:
                    add(caps["unary.arg"][0], dunder, 0, op)
            elif "augmented" in caps:
                node = caps["augmented"][0]
                op = node.child_by_field_name("operator")
                dunder = _BINARY_DUNDERS.get((op.type if op is not None else "").removesuffix("="))
                if dunder:
                    add(caps["augmented.left"][0], "__i" + dunder[2:], 1, op)
            elif "subscript" in caps:
                node = caps["subscript"][0]
                parent = node.parent
                name = "__getitem__"
                if parent is not None and parent.type in ("assignment", "augmented_assignment") and \
                        parent.child_by_field_name("left") == node:
                    name = "__setitem__" if parent.type == "assignment" else "__getitem__"
                elif parent is not None and parent.type == "delete_statement":
                    name = "__delitem__"
                add(caps["subscript.value"][0], name, 2 if name == "__setitem__" else 1, node)
            elif "builtin" in caps:
                b = caps["builtin"][0]
                add(caps["builtin.arg"][0], _BUILTIN_DUNDERS[src.text(b)], 0, b)
        out[start:] = sorted(out[start:], key=_AT)

    def unpacking(self) -> None:
        """Bindings of loop variables (``for x in items``, comprehensions) typed by the element
        type of the iterable's annotation, and of names unpacked from a tuple / list display
        (``a, (b, *c) = A(), (B(), C(), D())``). Runs after :meth:`assignments`, whose declared
        bindings (annotated locals, class-body annotations) it reads."""
        declared: dict[tuple[str | None, str], str] = {}
        for b in self.out.bindings:
            if b.how == "declared":
                declared.setdefault((b.scope, b.name), b.type)
        for _, caps in run_query(query(_GRAMMAR, "python/queries", "unpacking"), self.root):
            if "for" in caps:
                self._loop_binding(caps, declared)
            else:
                index = self.scopes.at(caps["unpack"][0].start_byte)
                if index >= 0 and self.scopes.items[index].kind == "class":
                    continue  # class-body tuple assignments are no receivers worth typing
                value = caps.get("unpack.from", caps.get("unpack.value", caps.get("unpack.chain")))[0]
                while value is not None and value.type == "assignment":  # `a, b = c, d = f, g`: `f, g`
                    value = value.child_by_field_name("right")
                target = caps["unpack.target"][0]
                if value is None:
                    continue
                if value.type in ("expression_list", "tuple", "list"):
                    self._unpack(self.scopes.qualname(index), target, value, 0)
                elif value.type in ("call", "identifier", "attribute", "subscript") and target.type != "list_pattern":
                    self._items(self.scopes.qualname(index), target, self.receiver_text(value), "")  # `f()[0]`

    def _items(self, scope: str | None, target: Node, source: str, element: str) -> None:
        """Bind each name of a flat target pattern (``a, b``; no star, no nesting) as an ``item``
        of the value ``source`` (a name, attribute, call or subscript chain): ``a`` -> ``f()[0]``, or
        with ``element`` ``"[*]"`` (a loop) an item of one element, ``d.items()[*][1]``. The resolver
        reads them (:meth:`indexer.resolve.interpreter.Resolver.subscripted`)."""
        names = [c for c in target.named_children if c.type != "comment"]
        if not ITEM_SOURCE.fullmatch(source) or any(n.type != "identifier" for n in names):
            return
        for i, n in enumerate(names):
            if self.src.text(n) != "_":
                self.out.bindings.append(Binding(scope, self.src.text(n), f"{source}{element}[{i}]", "item",
                                                 self.src.line(n)))

    def _unpack(self, scope: str | None, target: Node, value: Node, depth: int) -> None:
        """Pair the names of a target pattern with the elements of a display of the same length;
        with one starred name (a list: no type), the names before it pair from the start and those
        after it from the end. Nested pairs at most 4 deep."""
        if depth > 4:
            return
        targets = [c for c in target.named_children if c.type != "comment"]
        values = [c for c in value.named_children if c.type != "comment"]
        if any(v.type in ("list_splat", "parenthesized_list_splat") for v in values):
            return
        stars = [i for i, t in enumerate(targets) if t.type == "list_splat_pattern"]
        if len(stars) == 1 and len(values) >= len(targets) - 1:  # `a, *rest, z = ...`
            star = stars[0]
            after = len(targets) - star - 1
            pairs = list(zip(targets[:star], values[:star]))
            if after:
                pairs += list(zip(targets[star + 1:], values[-after:]))
        elif not stars and len(targets) == len(values):
            pairs = list(zip(targets, values))
        else:
            return
        for t, v in pairs:
            if t.type in ("pattern_list", "tuple_pattern", "list_pattern") and v.type in ("tuple", "list", "expression_list"):
                self._unpack(scope, t, v, depth + 1)
            elif t.type == "identifier":
                binding = self.binding_type(None, v, None)
                if binding is not None:
                    self.out.bindings.append(Binding(scope, self.src.text(t), binding[0], binding[1], self.src.line(t)))

    def _loop_binding(self, caps: dict[str, list[Node]], declared: dict[tuple[str | None, str], str]) -> None:
        """Bind a loop variable (:meth:`_typed_loop_binding`); a single name the element type leaves
        unbound is bound as an ``element`` of the iterable's text when that is a name, attribute or
        call chain (``for c in q``, ``[c.f() for c in Check.objects.filter()]``): the resolver knows
        what iterating some values yields (:meth:`indexer.resolve.interpreter.Resolver.element_of`)."""
        before = len(self.out.bindings)
        self._typed_loop_binding(caps, declared)
        target, it = caps["for.target"][0], caps["for.iter"][0]
        pattern = target.type in ("pattern_list", "tuple_pattern")
        if len(self.out.bindings) > before or not (pattern or target.type == "identifier") or \
                it.type not in ("identifier", "attribute", "call", "subscript"):
            return
        text = self.receiver_text(it)
        if text in _COPIED_CALLS:  # `for f in sorted(q, key=k)`: the elements of q
            text = self._copied(it) or ""
        scope = self.scopes.qualname(self.scopes.at(caps["for"][0].start_byte))
        if pattern:  # `for k, v in d.items()`: `v` is an item of an element, `d.items()[*][1]`
            self._items(scope, target, text, "[*]")
        elif _ITERABLE.fullmatch(text):
            self.out.bindings.append(Binding(scope, self.src.text(target), text, "element", self.src.line(target)))

    def _typed_loop_binding(self, caps: dict[str, list[Node]], declared: dict[tuple[str | None, str], str]) -> None:
        """``for x in items``: ``x`` declared as the element type of ``items``' annotation, when
        ``items`` is a name or ``self.<attr>`` annotated in this file (optionally followed by
        ``.items()`` / ``.values()`` / ``.keys()`` of a mapping); ``for k, v in d.items()`` types both;
        ``for x in [A(), A(1)]`` (a display whose elements all call one name) constructs ``x``."""
        src, scopes = self.src, self.scopes
        index = scopes.at(caps["for"][0].start_byte)
        scope = scopes.qualname(index)
        it = caps["for.iter"][0]
        view = None
        if it.type == "call" and it.child_by_field_name("function").type == "attribute":
            args = it.child_by_field_name("arguments")
            method = it.child_by_field_name("function").child_by_field_name("attribute")
            if args is None or args.named_child_count or src.text(method) not in ("items", "values", "keys"):
                return
            view, it = src.text(method), it.child_by_field_name("function").child_by_field_name("object")
        target = caps["for.target"][0]
        if it.type in ("list", "tuple", "set") and view is None and target.type == "identifier":
            # `for x in [A(), A(a=1)]`: every element a call of one class or factory
            callees = {_WS.sub("", src.text(e.child_by_field_name("function"))) if e.type == "call" else None
                       for e in it.named_children if e.type != "comment"}
            if len(callees) == 1 and None not in callees:
                callee = callees.pop()
                if _DOTTED.fullmatch(callee):
                    self.out.bindings.append(Binding(scope, src.text(target), callee, "constructed", src.line(target)))
            return
        if it.type not in ("identifier", "attribute"):
            return
        text = _WS.sub("", src.text(it))
        annotation = None
        if text.startswith("self.") and text.count(".") == 1:
            cls = index
            while cls >= 0 and scopes.items[cls].kind != "class":
                cls = scopes.items[cls].parent
            if cls >= 0:
                annotation = declared.get((scopes.items[cls].qualname, text))
        elif "." not in text:
            s = index
            while annotation is None:  # the loop's scope, then enclosing functions (closures)
                annotation = declared.get((scopes.qualname(s), text))
                if s < 0 or scopes.items[s].kind == "class":
                    break
                s = scopes.items[s].parent
        if annotation is None:
            return
        types = element_types(annotation, view)
        if target.type == "identifier" and len(types) == 1:
            names = [target]
        elif target.type in ("pattern_list", "tuple_pattern") and len(types) == target.named_child_count:
            names = list(target.named_children)
        else:
            return
        for name, t in zip(names, types):
            if name.type == "identifier" and t:
                self.out.bindings.append(Binding(scope, src.text(name), t, "declared", src.line(name)))
