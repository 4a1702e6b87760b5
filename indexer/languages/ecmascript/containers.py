"""Functions held in an array, a ``Map`` or a ``Set`` and called out of it (JavaScript / TypeScript):
one :class:`~indexer.model.CallSite` with ``via="element"`` per function the call may take out,
bound by the resolver through values only (never by name) and at most ``inferred``, as Python's
``handlers[kind](x)`` is (``languages/python/implied.py``).

A container is a name declared (``const`` / ``let`` / ``var``, any scope; rules in
``queries/containers.scm``) with an array literal, ``new Map(...)``, ``new Set(...)`` or ``new
Array(...)``. What it holds are the values written as a name or a dotted name (``foo``,
``api.list``): elements of the literal or of the constructor's iterable, arguments of ``push`` /
``unshift`` / ``add``, values of ``set(k, v)`` and of ``x[i] = v``. A call takes a function out
through ``x[i](...)``, ``x.at(i)(...)``, ``x.pop()(...)``, ``x.shift()(...)``, ``m.get(k)(...)``,
the variable of ``for (const f of x)`` called in the loop's body, and the first parameter of an
inline function handed to ``x.forEach`` / ``map`` / ``filter`` / ``some`` / ``every`` / ``find`` /
``flatMap`` called in that function.

Which one, when the code says it: the uses of the name in the scope declaring it are replayed in
source order (the abstract interpretation of straight-line code, as call-graph builders for
JavaScript do for JCG's containers cases) when every use is a statement of the declaration's own
block (no branch, loop or nested function in between) and every use is one of the operations above
or a read that changes nothing (``x.length``, ``x.includes(f)``); then ``f[1]()`` takes the second
element, ``pop`` the last pushed, ``shift`` the first, ``m.get("b")`` what ``m.set("b", ...)`` put,
and an index or key that is no literal, or an element not written as a name, loses the order from
there on. Otherwise (the name escapes: passed, returned, assigned; or it is used in a branch, a
loop, a nested function; or a mutating method such as ``splice`` / ``sort`` is called on it) a call
may take out any function the container was ever given. The query finds the candidates; which uses
a name has, and in what statement, is read off the tree (a query cannot say "every use").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from indexer.languages.ecmascript.reads import declared_around
from indexer.languages.ecmascript.syntax import arity, spelled, unquote
from indexer.model import CallSite

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["MAX_ELEMENT_SITES", "MAX_ELEMENT_TARGETS", "container_calls"]

MAX_ELEMENT_TARGETS = 64
"""The most functions one call out of a container reaches (the first given), as Python's
(:data:`indexer.languages.python.containers.MAX_ELEMENT_TARGETS`)."""

MAX_ELEMENT_SITES = 10_000
"""The most ``via="element"`` sites of one file (the calls after that many give none), as Python's."""

_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_CONSTRUCTORS = frozenset({"Map", "Set", "Array"})
_ADDS = frozenset({"push", "unshift", "add", "set"})
_TAKES = frozenset({"pop", "shift", "get", "at"})
_ITERATES = frozenset({"forEach", "map", "filter", "some", "every", "find", "flatMap"})
_READS = frozenset({"length", "size", "includes", "indexOf", "has", "slice", "concat", "join", "keys", "values",
                    "entries", "toString"})
_STRAIGHT = frozenset({"expression_statement", "return_statement"})
"""Statements between a use and its block that keep it straight-line code (no branch, no loop)."""
_SCOPES = frozenset({"program", "statement_block", "class_body"})
_FUNCTIONS = frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition",
                        "generator_function", "generator_function_declaration"})


def container_calls(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Append to ``fr.out.calls`` the ``via="element"`` sites of the calls taking a function out of
    a container (``fr``: the extractor's file run with ``text``, ``src``, ``code_scope``, ``root``
    and ``out``; ``matches``: ``containers.scm``'s, one per declared container and one per name a
    function may be taken out of; only containers of such names are read). Bounded:
    :data:`MAX_ELEMENT_TARGETS` per call, :data:`MAX_ELEMENT_SITES` per file."""
    taken = {fr.text(caps["taken"][0]) for caps in matches if "taken" in caps}
    matches = [caps for caps in matches if "container" in caps and fr.text(caps["name"][0]) in taken]
    if not matches:
        return  # most files: no declared container is ever called through
    names = {fr.text(caps["name"][0]) for caps in matches}
    uses: dict[str, list[Node]] = {}
    for name in names:  # every identifier spelled as a container's name: looked up where the bytes spell it
        found = spelled(fr.root, fr.src.data, name, _IDENTIFIER)
        if found is None:
            uses = _walk_uses(fr, names)
            break
        if found:
            uses[name] = found
    before = len(fr.out.calls)
    for caps in matches:
        name = caps["name"][0]
        _Container(fr, name, caps["container"][0]).run(uses.get(fr.text(name), []),
                                                        MAX_ELEMENT_SITES - (len(fr.out.calls) - before))
    if len(fr.out.calls) > before:
        fr.out.calls.sort(key=lambda c: (c.line, c.col))


_IDENTIFIER = frozenset({"identifier"})


def _walk_uses(fr: Any, names: set[str]) -> dict[str, list[Node]]:
    """Every identifier of the file spelled as one of ``names``, by name: one walk of the tree (a name
    :func:`~indexer.languages.ecmascript.syntax.spelled` cannot look up)."""
    uses: dict[str, list[Node]] = {}
    stack = [fr.root]
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            text = fr.text(n)
            if text in names:
                uses.setdefault(text, []).append(n)
        else:
            stack.extend(n.children)
    return uses


class _Container:
    """One declared container: its uses, replayed or summed up, and the element sites they give."""

    def __init__(self, fr: Any, name: Node, decl: Node) -> None:
        self.fr, self.name, self.decl = fr, fr.text(name), decl
        self.value = decl.child_by_field_name("value")
        self.statement = decl.parent  # the declaration statement
        self.block = self.statement.parent if self.statement is not None else None
        self.ordered = True
        self.items: list[str | None] = []
        self.keyed: dict[str, str | None] = {}
        self.held: list[str] = []  # every function ever put in, in source order
        self.sites: list[tuple[Node, Node, list[str | None] | None]] = []  # (call, args, taken or None: any)

    def run(self, spelled: list[Node], room: int) -> None:
        """Read the initial value and every use (``spelled``: the file's identifiers spelled as its
        name), then emit the sites, at most ``room`` (no call's sites once they would not fit)."""
        if self.block is None or self.value is None or not self._initial(self.value):
            return
        root = self.block
        while root.parent is not None and root.type not in _SCOPES:
            root = root.parent
        own = self.decl.child_by_field_name("name")
        declared: dict[int, frozenset[str]] = {}  # a function inside the scope binding the name itself: not this one
        uses = sorted((n for n in spelled if root.start_byte <= n.start_byte < root.end_byte and n.id != own.id
                       and not declared_around(self.fr, n, self.name, declared, root)),
                      key=lambda n: n.start_byte)
        for use in uses:
            if use.start_byte < self.decl.start_byte:
                self.ordered = False  # used before its declaration (hoisted `var`): no order
            if not self._use(use):
                self.ordered = False
        if not self.held:
            return
        unique: dict[int, tuple[list[str | None] | list[str], list[str]]] = {}  # id(names) -> (names, first ones)
        for call, args, taken in self.sites:
            names = self.held if taken is None or not self.ordered else taken
            if id(names) not in unique:  # one pass per list, not per site (a 20,000-entry Map: 70 s, brk44)
                unique[id(names)] = (names, list(dict.fromkeys(n for n in names if n is not None))[:MAX_ELEMENT_TARGETS])
            reached = unique[id(names)][1]
            if len(reached) > room:
                break
            room -= len(reached)
            caller = self.fr.code_scope(call)
            for text in reached:
                receiver, _, short = text.rpartition(".")
                self.fr.out.calls.append(CallSite(caller, short, receiver or None, arity(args),
                                                  self.fr.src.line(call), self.fr.src.col(call), via="element"))

    # -- values -------------------------------------------------------------------------------------

    def _name(self, node: Node | None) -> str | None:
        """The name or dotted name ``node`` is written as (``None``: anything else)."""
        while node is not None and node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        if node is None or node.type not in ("identifier", "member_expression"):
            return None
        text = self.fr.text(node)
        if not _DOTTED.fullmatch(text) or text.split(".", 1)[0] in ("this", "undefined", "null"):
            return None
        return text

    def _put(self, node: Node | None) -> str | None:
        name = self._name(node)
        if name is not None:
            self.held.append(name)
        return name

    def _initial(self, value: Node) -> bool:
        """Read the initial value; ``False`` when it is no container."""
        if value.type == "array":
            self.items = self._elements(value)
            return True
        if value.type != "new_expression":
            return False
        ctor = self.fr.text(value.child_by_field_name("constructor"))
        if ctor not in _CONSTRUCTORS:
            return False
        args = value.child_by_field_name("arguments")
        first = [a for a in args.named_children if a.type != "comment"] if args is not None else []
        if not first:
            return True
        if ctor == "Map" and first[0].type == "array":
            for pair in first[0].named_children:
                kv = [c for c in pair.named_children if c.type != "comment"] if pair.type == "array" else []
                if len(kv) == 2 and kv[0].type == "string":
                    self.keyed[unquote(self.fr.text(kv[0]))] = self._put(kv[1])
                else:
                    self.ordered = False
        elif ctor == "Set" and first[0].type == "array":
            self.items = self._elements(first[0])
        else:
            self.ordered = False  # `new Array(3)`, `new Set(other)`: what it holds is not written here
        return True

    def _elements(self, array: Node) -> list[str | None]:
        out: list[str | None] = []
        for e in array.named_children:
            if e.type == "comment":
                continue
            if e.type == "spread_element":
                self.ordered = False
            out.append(self._put(e))
        return out

    # -- uses ---------------------------------------------------------------------------------------

    def _use(self, use: Node) -> bool:
        """Apply one use of the name; ``False`` when it breaks the replay (an escape, a mutation the
        model does not follow, a use off the declaration's block)."""
        parent = use.parent
        straight = _statement_in(use, self.block)
        if parent is None:
            return False
        if parent.type == "for_in_statement" and parent.child_by_field_name("right") == use:
            if not any(c.type == "of" for c in parent.children):
                return True  # `for (k in x)`: keys
            left, body = parent.child_by_field_name("left"), parent.child_by_field_name("body")
            if left is not None and left.type == "identifier" and body is not None:
                self._param_calls(body, self.fr.text(left))
            return True
        if parent.type == "subscript_expression" and parent.child_by_field_name("object") == use:
            outer = parent.parent
            index = parent.child_by_field_name("index")
            if outer is not None and outer.type == "assignment_expression" and outer.child_by_field_name("left") == parent:
                self._write(index, outer.child_by_field_name("right"))
                return straight
            if outer is not None and outer.type == "call_expression" and outer.child_by_field_name("function") == parent:
                self.sites.append((outer, outer.child_by_field_name("arguments"), [self._at(index)]))
            return straight
        if parent.type != "member_expression" or parent.child_by_field_name("object") != use:
            return False  # handed on, returned, assigned: anything may happen to it
        method = self.fr.text(parent.child_by_field_name("property"))
        call = parent.parent
        if call is None or call.type != "call_expression" or call.child_by_field_name("function") != parent:
            return method in _READS and straight
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        if method in _ADDS:
            if method == "set":
                self._write(args[0] if args else None, args[1] if len(args) > 1 else None)
            else:
                values = [self._put(a) for a in args]
                if any(a.type == "spread_element" for a in args):
                    self.ordered = False
                if method == "unshift":
                    self.items[0:0] = values
                else:
                    self.items.extend(values)
            return straight
        if method in _TAKES:
            taken = self._take(method, args[0] if args else None)
            outer = call.parent
            if outer is not None and outer.type == "call_expression" and outer.child_by_field_name("function") == call:
                self.sites.append((outer, outer.child_by_field_name("arguments"), [taken]))
            return straight
        if method in _ITERATES:
            fn = args[0] if args else None
            if fn is not None and fn.type in ("arrow_function", "function_expression"):
                params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
                first = params if params is not None and params.type == "identifier" else (
                    next((p for p in params.named_children if p.type == "identifier"), None) if params is not None else None)
                body = fn.child_by_field_name("body")
                if first is not None and body is not None:
                    self._param_calls(body, self.fr.text(first))
            return straight
        return method in _READS and straight

    def _param_calls(self, body: Node, name: str) -> None:
        """Each call of ``name`` (an element: a loop variable, a callback's parameter) in ``body``: a
        site that may take out any element."""
        for n in _identifiers(body, name):
            call = n.parent
            if call is not None and call.type == "call_expression" and call.child_by_field_name("function") == n:
                self.sites.append((call, call.child_by_field_name("arguments"), None))

    def _index(self, node: Node | None) -> int | str | None:
        """A literal index or key: an integer, a string; ``None`` for anything else."""
        if node is None:
            return None
        text = self.fr.text(node)
        if node.type == "number" and text.isdigit():
            return int(text)
        if node.type == "string":
            return unquote(text)
        return None

    def _write(self, index: Node | None, value: Node | None) -> None:
        name = self._put(value)
        key = self._index(index)
        if isinstance(key, int) and key < 10_000:
            self.items.extend([None] * (key + 1 - len(self.items)))
            self.items[key] = name
        elif isinstance(key, str):
            self.keyed[key] = name
        else:
            self.ordered = False

    def _at(self, index: Node | None) -> str | None:
        key = self._index(index)
        if isinstance(key, int):
            return self.items[key] if key < len(self.items) else None
        if isinstance(key, str):
            return self.keyed.get(key)
        self.ordered = False
        return None

    def _take(self, method: str, arg: Node | None) -> str | None:
        if method == "pop":
            return self.items.pop() if self.items else None
        if method == "shift":
            return self.items.pop(0) if self.items else None
        if method == "at" and arg is not None and arg.type == "unary_expression" and self.fr.text(arg).startswith("-"):
            key = self._index(arg.named_children[0]) if arg.named_children else None
            return self.items[-key] if isinstance(key, int) and 0 < key <= len(self.items) else None
        return self._at(arg)


def _identifiers(root: Node, name: str) -> list[Node]:
    """The identifiers spelled ``name`` in ``root``'s tree (properties and keys are other node types)."""
    out, stack = [], [root]
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            if n.text is not None and n.text.decode("utf-8", "replace") == name:
                out.append(n)
            continue
        stack.extend(n.children)
    return out


def _statement_in(node: Node, block: Node) -> bool:
    """Whether ``node`` sits in a statement of ``block`` itself, with no function, branch or loop
    between them."""
    cur = node
    while cur.parent is not None and cur.parent.id != block.id:
        cur = cur.parent
        if cur.type in _FUNCTIONS or (cur.type.endswith("_statement") and cur.type not in _STRAIGHT):
            return False
    return cur.parent is not None
