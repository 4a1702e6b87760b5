"""A file's bindings per ``(scope, name)``, with the function-local ones read back from disk on demand.

The resolver looks a name up in a file's bindings (``x = Foo()``, ``self.x: Bar``, ``def f(x: T)``)
by scope and name. Most bindings are local to a function (94% of the synthetic monorepo's, 61-68% of
Home Assistant's and Django's), and only the binding of that file itself reads them; other files
read only the scopes they can reach (module level, class bodies, and the scopes enclosing a class or
a function whose return is inferred: :meth:`indexer.resolve.context.FileCtx.exposed_scopes`, the
same scopes the file's interface digests).

:class:`ScopedBindings` keeps the bindings of those reachable scopes (and every ``reverse`` binding,
which the lookup tables index) in memory. When the file's bindings list is parked on disk
(:class:`indexer.parked.ParkedList`, the one-shot run's resolver), the other scopes are looked up in
a table built from the parked list on first use and dropped again once :data:`OPEN_FILES` other
files' tables were built since (least recently built first): a run holds the local bindings of a
few files at a time, not of every file (the 45-package monorepo: about 100 MiB of binding objects
and 80 MiB of their table). Answers are the same either way; only where they come from differs.
When the list is not parked (a watcher's resolver) the whole table stays in memory, as before.
"""

from __future__ import annotations

from bisect import bisect_right
from sys import intern
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence

from indexer.model import Binding, holds_on_lines
from indexer.parked import ParkedList
from indexer.resolve.held_tables import HeldTables

__all__ = ["LineRanges", "OPEN_FILES", "REGISTERS", "SMALL_SCOPES", "TABLED_BINDINGS", "ScopedBindings", "Key", "held_tables"]

Key = tuple[str | None, str]
"""``(scope qualname or None for module level, bound name)``."""

REGISTERS = "registers"
"""The :attr:`~indexer.model.Binding.how` of a function registered with a library by a call
(``jwt.user_loader_callback_loader(f)``: name ``@jwt.user_loader_callback_loader``, type ``f``), which
the lookup tables index beside the functions decorated so (:meth:`indexer.resolve.language.Lookup.registrations`)."""
TABLED_BINDINGS = frozenset({"reverse", REGISTERS})
"""Bindings the lookup tables index whatever their scope (:class:`indexer.resolve.tables.ModuleTables`)."""
OPEN_FILES = 8
"""How many files' local-binding tables are held at once, at most (least recently built dropped
first). Binding a file reads its own table many times and other files' rarely."""


def _keep(owner: ScopedBindings, table: dict[Key, list[Binding]] | None) -> None:
    owner._local = table


_open: HeldTables[ScopedBindings, dict[Key, list[Binding]]] = HeldTables(_keep, weak=False)
"""The files' bindings whose local table is built, least recently built first (strongly: a
:class:`ScopedBindings` belongs to a resolver's context and holds no run resource)."""


SMALL_SCOPES = 8
"""Exposed scopes held as a tuple at most (searched in order; a frozenset takes 216 bytes even for
one scope, a tuple of three 64): more are held as a frozenset."""

_NO_OBJECTS: frozenset[str] = frozenset()
"""The objects of a file binding none (one shared set)."""


def _small(scopes: set[str | None]) -> Collection[str | None]:
    """``scopes`` as a tuple when there are at most :data:`SMALL_SCOPES` (``None`` first, the rest
    sorted: the same tuple for the same set), else a frozenset."""
    if len(scopes) > SMALL_SCOPES:
        return frozenset(scopes)
    named = sorted(x for x in scopes if x is not None)
    return (None, *named) if None in scopes else tuple(named)


def held_tables() -> tuple[ScopedBindings, ...]:
    """The files' bindings whose local table the process holds now (least recently built first)."""
    return _open.owners()


_LINES = "lines"
"""The third part of the key a binding holding on its lines only is tabled under (``(scope, name,
"lines")``: never a :data:`Key`, so no lookup by ``(scope, name)`` sees it)."""


def _table(bindings: Iterable[Binding], exposed: Collection[str | None], local: bool) -> dict[Key, list[Binding]]:
    """``bindings`` grouped by ``(scope, name)`` in their order: those of the ``exposed`` scopes, or
    (``local``) those of every other scope; a binding holding on its lines only
    (:func:`~indexer.model.holds_on_lines`) under ``(scope, name, "lines")``."""
    table: defaultdict[Key, list[Binding]] = defaultdict(list)
    for b in bindings:
        if (b.scope in exposed) is not local:
            found = table[(b.scope, b.name, _LINES) if holds_on_lines(b) else (b.scope, b.name)]  # type: ignore[index]
            if not found or found[-1] != b:  # a repeat says nothing new (see _by_name)
                found.append(b)
    for key, found in table.items():
        if len(key) == 3 and len(found) > _SCANNED:
            table[key] = LineRanges.of(found)  # type: ignore[assignment]
    return dict(table)


_SCANNED = 8
"""At most this many bindings of one name holding on their lines are scanned per lookup; more (a
function of thousands of ``xs.forEach((a) => ...)``: each lookup of ``a`` scanned them all, quadratic)
are indexed by line (:class:`LineRanges`)."""


class LineRanges(list):
    """The bindings of one ``(scope, name)`` holding on their lines only, in order of ``(line, -end)``
    (the table's order among equal ranges), indexed to answer :meth:`at` in O(log n + nesting
    depth): each one's nearest enclosing range (``parents``; ``-1``: none). Only for ranges that
    nest or are apart (a laminar family, as the loops and callbacks of one name are: two sharing a
    line get no range, :class:`indexer.languages.ecmascript.elements.LineWords`);
    :meth:`of` gives back the list itself for any other. Among the ranges holding on a line the
    innermost is the one starting last there, and every range holding on it encloses it (the
    classic argument for laminar families), so the walk from the last range starting on or before
    the line up its parents finds it."""

    __slots__ = ("starts", "parents")

    @classmethod
    def of(cls, bindings: list[Binding]) -> list[Binding]:
        """``bindings`` indexed, or ``bindings`` itself when two of them overlap without nesting."""
        ordered = sorted(bindings, key=lambda b: (b.line, -b.end))
        parents: list[int] = []
        stack: list[int] = []
        for i, b in enumerate(ordered):
            while stack and ordered[stack[-1]].end < b.line:
                stack.pop()
            if stack and ordered[stack[-1]].end < b.end:
                return bindings  # overlapping, not nested: scanned
            parents.append(stack[-1] if stack else -1)
            stack.append(i)
        made = cls(ordered)
        made.starts = [b.line for b in ordered]
        made.parents = parents
        return made

    def at(self, line: int) -> list[Binding]:
        """The bindings of the innermost range holding on ``line`` (several when that range binds the
        name several ways, in the table's order), else ``[]``."""
        i = bisect_right(self.starts, line) - 1
        while i >= 0 and self[i].end < line:
            i = self.parents[i]
        if i < 0:
            return []
        first = self[i]
        k = i
        while k > 0 and self[k - 1].line == first.line and self[k - 1].end == first.end:
            k -= 1
        return self[k:i + 1]


Hot = dict[str, "Binding | list[Binding] | dict[str | None, list[Binding]]"]
"""Bindings per name (:attr:`ScopedBindings.hot`): a name bound once is held as its binding, a name
bound several times in one scope as their list, a name bound in several scopes as a dict per scope of
the same (a binding, or the list of several: a one-item list per scope was 80 bytes, and about
170 bytes a file of the 10-package generated monorepo went to them; session 62)."""


def _by_name(bindings: Iterable[Binding]) -> Hot:
    """``bindings`` (in source order, their names interned) per name, as :data:`Hot` holds them: per
    ``(scope, name)`` key a tuple and a list besides the bindings (about 140 bytes a key), while the
    names are strings every file shares (two packages of the generated monorepo: the bindings a context
    holds 1,154 -> 986 bytes a file; docs/benchmarks.md, session 55). A binding equal in every field
    to the one before it of its key is kept once: it adds no way the name is bound, and every lookup
    scans a key's list (thousands of ``xs.forEach(function (a) ...)`` written on one line, whose
    parameters get no line range, bound ``a`` thousands of times identically: lookups quadratic in
    them). The list of
    several bindings of one key is one object for the whole run, so that what is built from it
    (:func:`indexer.resolve.member_flow.per_attribute`) is kept while it is read."""
    table: Hot = {}
    for b in bindings:
        v = table.get(b.name)
        if v is None:
            table[b.name] = b
        elif type(v) is dict:
            found = v.get(b.scope)  # type: ignore[union-attr]
            if found is None:
                v[b.scope] = b  # type: ignore[index]
            elif type(found) is list:
                if found[-1] != b:
                    found.append(b)
            elif found != b:
                v[b.scope] = [found, b]  # type: ignore[index]
        else:
            first = v[0] if type(v) is list else v  # type: ignore[index]
            if first.scope == b.scope:  # type: ignore[union-attr]
                if (v[-1] if type(v) is list else v) == b:  # type: ignore[index]
                    continue  # the same binding again: kept once (see the docstring)
                if type(v) is list:
                    v.append(b)  # type: ignore[union-attr]
                else:
                    table[b.name] = [v, b]  # type: ignore[list-item]
            else:
                table[b.name] = {first.scope: v, b.scope: b}  # type: ignore[union-attr,dict-item]
    return table


def _interned(b: Binding) -> Binding:
    """``b`` with its texts interned (in place): a binding kept for the whole run shares its scope,
    name, type and kind strings with every other that spells them (one string each per file read
    back otherwise; the 10-package generated monorepo: about 1 of the 1.4 MiB its kept bindings'
    texts took)."""
    b.scope = intern(b.scope) if b.scope is not None else None
    b.name, b.type, b.how = intern(b.name), intern(b.type), intern(b.how)
    return b


class ScopedBindings(Mapping[Key, list[Binding]]):
    """One file's bindings per ``(scope, name)`` (a read-only mapping to lists of
    :class:`~indexer.model.Binding` in source order). ``bindings``: the file's extraction's list
    (a :class:`~indexer.parked.ParkedList` or a list); ``exposed``: the scopes other files reach
    (``None``: module level). See the module docstring for what stays in memory.

    ``get``, ``in`` and ``[]`` answer from memory for keys of an exposed scope; for any other key they
    build (or reuse) the local table, which reads a parked list back from its spill file (raising
    :class:`indexer.parked.ParkedDataError` when it cannot). :attr:`visible` lists, in memory
    and in source order, the bindings other files may read."""

    __slots__ = ("exposed", "hot", "ranged", "visible", "source", "_local", "objects")

    def __init__(self, bindings: Sequence[Binding], exposed: Collection[str | None]) -> None:
        items = list(bindings)  # a parked list is read back once here
        self.objects = frozenset(b.name if b.scope is None else f"{b.scope}.{b.name}"
                                 for b in items if b.how == "object") or _NO_OBJECTS
        """The qualnames of the names bound ``object`` (JS ``const o = {...}``): scopes of their
        properties' bindings (``{ b: foo }``), which other files read through the object, so exposed
        (most files have none: one shared empty set, not 216 bytes each)."""
        self.exposed: Collection[str | None] = _small(set(exposed) | self.objects)
        """The scopes other files reach (see the class docstring): a tuple when there are at most
        :data:`SMALL_SCOPES` (most files: module level and a class or two), else a frozenset."""
        self.visible: list[Binding] = [_interned(b) for b in items  # sliced: a list of its exact size
                                       if b.scope in self.exposed or b.how in TABLED_BINDINGS][:]
        """The bindings other files may read, in source order: those of exposed scopes and every
        binding the lookup tables index (:data:`TABLED_BINDINGS`)."""
        self.hot = _by_name(b for b in self.visible if b.scope in self.exposed and not holds_on_lines(b))
        """The bindings of the exposed scopes per name (see :func:`_by_name`; read by :meth:`get`), but
        those holding on their lines only (:func:`~indexer.model.holds_on_lines`)."""
        self.ranged: dict[Key, list[Binding]] | None = _table(
            [b for b in self.visible if b.scope in self.exposed and holds_on_lines(b)], self.exposed, local=False) or None
        """The exposed scopes' bindings holding on their lines only (a module-level callback's
        parameter), as :func:`_table` keys them; ``None`` when there are none (most files). Read by
        :meth:`at_line` only."""
        local = any(b.scope not in self.exposed for b in items)
        self.source: Sequence[Binding] | None = bindings if local else None
        """Where the local bindings are read from (``None``: the file has none)."""
        self._local: dict[Key, list[Binding]] | None = None
        if local and not isinstance(bindings, ParkedList):  # nothing on disk: keep them all
            self._local = _table(items, self.exposed, local=True)

    @property
    def parked(self) -> bool:
        """Whether the local bindings are read back from disk (and dropped) rather than held."""
        return isinstance(self.source, ParkedList)

    def _local_table(self) -> dict[Key, list[Binding]]:
        table = self._local
        if table is not None:
            return table
        if self.source is None:
            return {}
        table = _table(self.source, self.exposed, local=True)
        _open.hold(self, table, OPEN_FILES)
        return table

    def get(self, key: Key, default: list[Binding] | None = None) -> list[Binding] | None:  # type: ignore[override]
        """The bindings of ``key`` (``default`` when there are none)."""
        scope = key[0]
        if scope in self.exposed:
            v = self.hot.get(key[1])
            if v is None:
                return default
            t = type(v)
            if t is list:  # several, of one scope
                return v if v[0].scope == scope else default  # type: ignore[union-attr]
            if t is dict:  # of several scopes: each scope's as above
                found = v.get(scope)  # type: ignore[union-attr]
                if found is None:
                    return default
                return found if type(found) is list else [found]  # type: ignore[list-item,return-value]
            return [v] if v.scope == scope else default  # type: ignore[union-attr,list-item]
        return self._local_table().get(key, default)

    def at_line(self, scope: str | None, name: str, line: int) -> list[Binding]:
        """The bindings of ``name`` in ``scope`` that hold on their lines only
        (:func:`~indexer.model.holds_on_lines`) and hold on ``line``: the innermost range's (the one
        starting last, then ending first; several when that range binds it several ways), else ``[]``."""
        table = (self.ranged or {}) if scope in self.exposed else self._local_table()
        ranged = table.get((scope, name, _LINES))  # type: ignore[call-overload]
        if not ranged:
            return []
        if type(ranged) is LineRanges:
            return ranged.at(line)
        held = [b for b in ranged if b.line <= line <= b.end]
        if not held:
            return []
        inner = max((b.line, -b.end) for b in held)
        return [b for b in held if (b.line, -b.end) == inner]

    def __getitem__(self, key: Key) -> list[Binding]:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and len(key) == 2 and self.get(key) is not None  # type: ignore[arg-type]

    def _hot_keys(self) -> dict[Key, None]:
        """The keys of the exposed scopes' bindings, in the order of their first binding."""
        exposed = self.exposed
        return dict.fromkeys((b.scope, b.name) for b in self.visible if b.scope in exposed and not holds_on_lines(b))

    def __iter__(self) -> Iterator[Key]:
        yield from self._hot_keys()
        yield from self._local_table()

    def __len__(self) -> int:
        return len(self._hot_keys()) + len(self._local_table())

    def release(self) -> None:
        """Drop the local table if it is held for a parked list (it is built again on demand)."""
        if self.parked:
            _open.release(self)
