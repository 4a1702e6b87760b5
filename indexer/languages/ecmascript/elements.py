"""Names a loop or an array method's callback receives from an array: ``for (const u of users)``,
``users.forEach(u => ...)``, ``(await repo.find()).map(u => ...)``.

Each is an ``element`` :class:`~indexer.model.Binding` of the iterated expression's receiver text:
the resolver gives it an element of that value when the value is a container of a repository class
(a name declared ``User[]``, a method returning ``Promise<User[]>``: the module system's
``container_element``, :func:`indexer.languages.ecmascript.syntax.array_element`); a callback's first
parameter written with a type (``forms.map((f: Form) => f.validate())``) is ``declared`` that type.

The name is a variable of the loop or callback, not of the function around it: each binding holds on
the lines of its loop or callback only (its ``end``: :func:`indexer.model.holds_on_lines`), where a
lookup knowing its line reads it before the function's other bindings and imports of the name
(``import { ref } from "vue"`` ... ``forms.map((ref) => ref.validate())``: ``ref`` is the import above
the callback, the form inside it). Lines carry no columns: a name also written outside the loop or
callback on its first or last line (``xs.map((ref) => ref.x()); ref();``, minified code) gets no
range (:class:`LineWords`), so the other name keeps its meaning on that line. Lookups that know no line (a local's alias ``const p = u.profile``
read later) read bindings per function: there the name is also bound in the whole function when
nothing else there binds it, no import of the file names it and one expression alone hands it (an
import or another binding keeps its meaning around the loop). Queries: ``queries/elements.scm``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from indexer.languages.base import unambiguous_elements
from indexer.languages.ecmascript.assignments import function_of
from indexer.languages.ecmascript.refs import is_box
from indexer.model import LONG_RECEIVER, Binding
from indexer.resolve.values import EXTERNAL, PAIRS, QueryV, Value, container_call

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["ELEMENT_CALLBACKS", "element_bindings", "query_call"]

ELEMENT_CALLBACKS = frozenset({"forEach", "map", "filter", "find", "findLast", "findIndex", "findLastIndex", "some",
                               "every", "flatMap"})
"""Array methods whose callback's first parameter is an element of the array."""
_NAMED = re.compile(r"(?:new )?[A-Za-z_$]")


def _first_parameter(callback: Node) -> Node | None:
    single = callback.child_by_field_name("parameter")
    if single is not None:
        return single if single.type == "identifier" else None
    params = callback.child_by_field_name("parameters")
    first = params.named_children[0] if params is not None and params.named_children else None
    if first is not None and first.type == "required_parameter":  # TypeScript: `(u: User) => ...` is typed
        pattern = first.child_by_field_name("pattern")
        return pattern if pattern is not None and first.child_by_field_name("type") is None and \
            pattern.type == "identifier" else None
    return first if first is not None and first.type == "identifier" else None


def _typed_first_parameter(callback: Node) -> tuple[Node, Node] | None:
    """``(name, type)`` of a callback's first parameter written as a plain name with a type
    (``(u: User) => ...``), else ``None``."""
    params = callback.child_by_field_name("parameters")
    first = params.named_children[0] if params is not None and params.named_children else None
    if first is None or first.type != "required_parameter":
        return None
    pattern, annotation = first.child_by_field_name("pattern"), first.child_by_field_name("type")
    if pattern is None or pattern.type != "identifier" or annotation is None or not annotation.named_children:
        return None
    return pattern, annotation.named_children[0]


def _lines(node: Node) -> tuple[int, int]:
    """The first and last line (1-based) of ``node``."""
    return node.start_point[0] + 1, node.end_point[0] + 1


def _loop(name: Node) -> Node:
    """The ``for ... of`` statement declaring ``name`` (its ``left``)."""
    node = name
    while node.parent is not None and node.type != "for_in_statement":
        node = node.parent
    return node


def element_bindings(run, matches: list[dict[str, list[Node]]]) -> None:
    """Append to ``run.out.bindings`` the ``element`` bindings of ``matches`` (the ``elements``
    query's: a ``for ... of`` loop's name, an array method's callback's first parameter; a typed
    callback parameter ``declared``), each holding on its loop's or callback's lines; and, for the
    lookups that know no line, an ``element`` binding in the whole scope of each that no other
    binding of its scope names, no import of the file names, and that one expression alone hands
    (see the module docstring); ``run`` is the extractor's per-file run (``text``, ``receiver``,
    ``code_scope``, ``src``, ``out``, ``type_params``)."""
    found: list[Binding] = []
    ranged: list[Binding] = []
    items: list[tuple[Binding, int, int]] = []
    words = LineWords(run.src.data)
    for caps in matches:
        if "item.name" in caps or "item.pattern" in caps:
            made = _items(run, caps)
            fn = function_of((caps.get("item.name") or caps["item.pattern"])[0]) if made else None
            if fn is not None:
                items.extend((b, fn.start_point[0] + 1, fn.end_point[0] + 1) for b in made)
            continue
        if "name" in caps:
            name, source = caps["name"][0], caps["iterable"][0]
            span = _loop(name)
            lo, hi = _lines(span)
        else:
            callback = span = caps["callback"][0]
            lo, hi = _lines(callback)
            typed = _typed_first_parameter(callback)
            if typed is not None:  # `(f: Form) => ...`: the type written, whatever the method
                name, annotation = typed
                if run.text(annotation) not in run.type_params and not words.beside(span, name):
                    ranged.append(Binding(run.code_scope(name), run.text(name), run.text(annotation), "declared",
                                          lo, hi))
                continue
            if run.text(caps["method"][0]) not in ELEMENT_CALLBACKS:
                continue
            name, source = _first_parameter(callback), caps["receiver"][0]
            if name is None:
                continue
        receiver = run.receiver(source)
        if receiver == LONG_RECEIVER or not _NAMED.match(receiver):  # `[1, 2]`, a literal: no class's elements
            continue
        if "method" in caps and run.text(caps["method"][0]) == "forEach":  # a Map's forEach hands values first
            receiver += ".values()"
        found.append(Binding(run.code_scope(name), run.text(name), receiver, "element", run.src.line(name)))
        if not words.beside(span, name):  # else its lines hold the name outside it too: no range tells them apart
            ranged.append(Binding(run.code_scope(name), run.text(name), receiver, "element", lo, hi))
    # In the whole function, a name an import has (`import { ref } from "vue"` ... `list.map((ref) =>
    # ref.recipe)`) stays the import's: its ranged binding alone holds inside the callback
    imported = {i.local for i in run.out.imports}
    found = [b for b in found if b.name not in imported]
    run.out.bindings.extend(unambiguous_elements(found, run.out.bindings))
    run.out.bindings.extend(_unambiguous_items(items, run.out.bindings))
    run.out.bindings.extend(ranged)  # after the others' checks: they are about the whole function


_WORD = re.compile(rb"(?<![\w$.])[A-Za-z_$][\w$]*")
"""A name written whole in JavaScript / TypeScript source, not after a ``.`` (no property read)."""


_LINES_HELD = 64
"""How many lines' words :class:`LineWords` keeps at most (then it starts over): a file of thousands of
one-line callbacks held a table per line (+5.6 MB run peak on 4,000), while the lines asked about again
are the few around the callbacks being read, or a minified file's one line."""


class LineWords:
    """The names written on a file's lines (:data:`_WORD`, strings and comments included), each line
    tokenized once, when first asked about: a minified file's one line of a megabyte is read once for
    its thousands of callbacks, not once per callback."""

    __slots__ = ("data", "_lines")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._lines: dict[int, dict[bytes, list[int]]] = {}

    def _words(self, start: int) -> dict[bytes, list[int]]:
        """``{name: byte offsets, ascending}`` of the line starting at byte ``start``."""
        words = self._lines.get(start)
        if words is None:
            end = self.data.find(b"\n", start)
            words = {}
            for m in _WORD.finditer(self.data, start, len(self.data) if end < 0 else end):
                words.setdefault(m.group(), []).append(m.start())
            if len(self._lines) >= _LINES_HELD:
                self._lines.clear()
            self._lines[start] = words
        return words

    def beside(self, span: Node, name: Node) -> bool:
        """Whether the name ``name`` (a node inside ``span``) is also written outside ``span`` on the
        line ``span`` starts on (before it) or the line it ends on (after it): there a binding holding
        on ``span``'s lines (:func:`~indexer.model.holds_on_lines`, lines without columns) would
        take the other name's uses for its own (``xs.map((reset) => reset.x()); reset();`` on one
        line, any minified file). Over-approximate: a word in a string, a comment or a property key
        counts too."""
        data, word = self.data, self.data[name.start_byte:name.end_byte]
        first = data.rfind(b"\n", 0, span.start_byte) + 1
        last = data.rfind(b"\n", 0, span.end_byte) + 1
        before = self._words(first).get(word, ())
        if before and bisect_left(before, span.start_byte) > 0:  # an offset below span's start
            return True
        after = self._words(last).get(word, ())
        return bool(after) and bisect_left(after, span.end_byte) < len(after)


def _unambiguous_items(items: list[tuple[Binding, int, int]], bound: list[Binding]) -> list[Binding]:
    """The ``item`` bindings of ``items`` (each with the lines its innermost function spans) that no
    other binding of their ``(scope, name)`` written in that function contradicts: bound otherwise
    there, or an item of another expression there. A binding's scope is a definition, while callbacks
    given inline (a test's ``it('...', async () => { const [res] = await once(...) })``) are no
    definition when the bindings are read: names bound in two such callbacks are two variables, not
    one name bound two ways (:func:`indexer.languages.base.unambiguous_elements` compares the scope)."""
    by_key: dict[tuple[str | None, str], list[Binding]] = {}
    for b in bound:
        by_key.setdefault((b.scope, b.name), []).append(b)
    out: list[Binding] = []
    for b, lo, hi in items:
        key = (b.scope, b.name)
        if any(lo <= o.line <= hi for o in by_key.get(key, ())):
            continue
        if any(o is not b and o.scope == b.scope and o.name == b.name and o.type != b.type and lo <= o.line <= hi
               for o, _, _ in items):
            continue
        out.append(b)
    return out


def _items(run, caps: dict[str, list[Node]]) -> list[Binding]:
    """The ``item`` bindings of one ``elements`` match: ``const u = users[0]`` (``users[0]``),
    ``const [a, b] = pair()`` (``pair()[0]``, ``pair()[1]``), ``for (const [k, v] of map)``
    (``map[*][0]``, ``map[*][1]``: an item of one element); names of a pattern that are no plain
    identifier (holes, defaults, rest, nesting) stop the pattern."""
    source = (caps.get("item.value") or caps["item.iterable"])[0]
    receiver = run.receiver(source)
    if receiver == LONG_RECEIVER or not _NAMED.match(receiver) or receiver.startswith("new "):
        return []
    if "item.name" in caps:
        name = caps["item.name"][0]
        return [Binding(run.code_scope(name), run.text(name), receiver, "item", run.src.line(name))]
    pattern = caps["item.pattern"][0]
    names = [c for c in pattern.named_children if c.type != "comment"]
    if any(n.type != "identifier" for n in names) or pattern.child_count != 2 * len(names) + 1 - (len(names) == 0):
        return []  # `[a, , b]`, `[a = x]`, `[...rest]`, `[[a]]`
    element = "[*]" if "item.iterable" in caps else ""
    return [Binding(run.code_scope(n), run.text(n), f"{receiver}{element}[{i}]", "item", run.src.line(n))
            for i, n in enumerate(names)]


_ONE = frozenset({"find", "findLast", "at", "pop", "shift"})
"""Array methods returning one element (or ``undefined``)."""
_SAME = frozenset({"filter", "slice", "sort", "reverse", "concat", "toSorted", "toReversed", "toSpliced", "splice",
                   "values", "flat"})
"""Array methods returning an array of the same elements."""


_MAP_ONE = frozenset({"get"})
"""A ``Map``'s read of one value."""
_MAP_VIEWS = {"values": "", "entries": PAIRS}
"""A ``Map``'s methods handing out its values (a sequence) or its ``[key, value]`` entries."""


_OBJECT_VIEWS = {"$values": "", "$entries": PAIRS}
"""``Object.values(x)`` / ``Object.entries(x)``, written ``x.$values()`` / ``x.$entries()`` in a
receiver (the extractor's ``receiver``): a sequence of the values, the ``[key, value]`` entries."""


def query_call(v: QueryV) -> Value:
    """What calling the array method ``v.method`` on an array of ``v.c``'s instances returns (the
    module system's ``query_call``): an instance for a one-element read (``find``, ``at``, ``pop``),
    the same array for a step (``filter``, ``slice``, ``sort``), else the library's value (``map``,
    ``length``, ``join``); on a ``Map`` of them (``v.view``), ``get`` gives one, ``values()`` the
    values, ``entries()`` the entries. ``Object.values`` / ``Object.entries`` (``$values`` /
    ``$entries``) of a ``Record`` or an array give its values / entries; of a ``Map`` (no own
    enumerable properties) nothing."""
    if is_box(v):  # `form.value` is read as a property, not called
        return EXTERNAL
    if v.method in _OBJECT_VIEWS:
        if v.view == PAIRS:
            return EXTERNAL
        return QueryV(v.c, view=_OBJECT_VIEWS[v.method], inner=v.inner)
    return container_call(v, _ONE, _SAME, _MAP_ONE, _MAP_VIEWS)
