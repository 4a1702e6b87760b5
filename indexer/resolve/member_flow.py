"""Which bindings of an instance attribute (``self.x``) decide its value at a line: flow order within
the method reading it, each method's last binding elsewhere.

Inside a method that assigns the attribute before the line read (``self.x = A()`` ... ``self.x =
B()`` ... ``self.x.m()``), the assignment written last before that line decides, as for a local name
(statement order: the definitions reaching a use along a straight-line path, Aho, Lam, Sethi, Ullman,
"Compilers", 2nd ed., 9.2.4, reaching definitions; a branch join written on an ``if`` statement's last
line, :mod:`indexer.languages.python.branches`, is the group of that line, a union). Anywhere else (another
method, or the method before its first assignment) the attribute holds what any method leaves: each
method's last binding (:func:`indexer.resolve.either.methods_last`), as a flow-insensitive points-to
analysis takes a field. Real code: ``__init__`` methods that set a default then replace it
(``self.stream = sys.stdout`` ... ``self.stream = Wrapper(self.stream)``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary

from indexer.resolve.multimap import every

if TYPE_CHECKING:
    from indexer.model import Binding
    from indexer.resolve.context import FileCtx
    from indexer.resolve.values import Def

__all__ = ["in_method_before", "method_starts", "per_attribute"]

T = TypeVar("T")

_STARTS: WeakKeyDictionary[FileCtx, dict[str, list[int]]] = WeakKeyDictionary()
"""Per file context, per class qualname, its callable members' first lines, sorted. A file's classes and
their members do not change while its :class:`~indexer.resolve.context.FileCtx` lives (a changed file
gets a new one), so the table needs no dependency of its own and goes with the context."""

_ATTRS: WeakKeyDictionary[FileCtx, dict[tuple[str, str, str], tuple[list[Binding], Any]]] = WeakKeyDictionary()
"""Per file context, per ``(class qualname, attribute, what)``: the bindings list read and what was
built from it (:func:`per_attribute`)."""


def per_attribute(c: Def, bindings: list[Binding], what: str, build: Callable[[], T]) -> T:
    """``build()``, kept per class ``c``, attribute (``bindings[0].name``; ``bindings`` non-empty, of
    ``c``'s scope in ``c``'s file) and ``what``, while the same list object is read: a parked file's local
    table is read back as new lists, which builds it again. Each read of ``self.x`` scanned all the
    attribute's bindings, quadratic in a class whose N methods assign it."""
    per_file = _ATTRS.get(c.file)
    if per_file is None:
        per_file = _ATTRS.setdefault(c.file, {})
    key = (c.qualname, bindings[0].name, what)
    held = per_file.get(key)
    if held is not None and held[0] is bindings:
        return held[1]
    value = build()
    per_file[key] = (bindings, value)
    return value


def method_starts(c: Def) -> list[int]:
    """The first lines of class ``c``'s callable members, sorted (a method ends before the next one
    starts), built once per class and file context: :meth:`~indexer.resolve.values.Def.members` builds
    the whole member table from the file's definitions on each read, so sorting it per attribute read
    was quadratic on a class of N methods each reading ``self.x`` (1,000 methods: 9.2 of 10 s;
    tests/hostile/test_py53.py)."""
    per_file = _STARTS.get(c.file)
    if per_file is None:
        per_file = _STARTS.setdefault(c.file, {})
    starts = per_file.get(c.qualname)
    if starts is None:
        starts = per_file[c.qualname] = sorted(d.line for d in every(c.members) if d.is_callable)
    return starts


def in_method_before(c: Def, bindings: list[Binding], scope: str | None, line: int) -> list[Binding] | None:
    """Of ``bindings`` (of one attribute, in class ``c``'s scope), those on the last
    line before ``line`` inside the method ``scope`` (a method of ``c`` itself, whose body holds
    ``line``), in their order; ``None`` when ``scope`` is no method of ``c`` or it binds the attribute
    on no line before ``line``. An attribute with a declared type (``self.x: Base = A()``) gives
    ``None``: the declaration decides, as before."""
    if scope is None or scope.rpartition(".")[0] != c.qualname:
        return None
    declared, order, lines = per_attribute(c, bindings, "by-line", lambda: _by_line(bindings))
    if declared:
        return None
    named = [d for d in c.member(scope.rpartition(".")[2]) if d.is_callable and d.line <= line]
    if not named:
        return None
    method = max(named, key=lambda d: d.line)  # a property's setter after its getter: the one above
    starts = method_starts(c)
    i = bisect_right(starts, method.line)
    stop = starts[i] if i < len(starts) else None  # the next method's first line: this one ends before it
    if stop is not None and line >= stop:
        return None
    end = bisect_left(lines, line)  # ``lines`` sorted: a file's joins are appended after its other bindings
    if end == 0 or lines[end - 1] < method.line:
        return None
    last = lines[end - 1]
    return [bindings[i] for i in sorted(order[bisect_left(lines, last, hi=end):end])]


def _by_line(bindings: list[Binding]) -> tuple[bool, list[int], list[int]]:
    """Whether one of ``bindings`` is ``declared``; their positions sorted by line (stable); those lines."""
    order = sorted(range(len(bindings)), key=lambda i: bindings[i].line)
    return any(b.how == "declared" for b in bindings), order, [bindings[i].line for i in order]
