"""What the framework linker worked out per file in an earlier run, kept while what it read holds.

A link runs over every framework file of a repository whenever links may have changed (see
:meth:`indexer.resolve.repository.RepositoryResolver.resolve`), but most of its work is one file's
facts against tables every file shares: a file's table accesses (:mod:`indexer.frameworks.tables`)
against the table declarations. :class:`LinkMemo` keeps, per part of the link and per file, what
that work gave (the nodes it emitted, the edges it added, the outcomes it counted) with what it
read through the resolver (tokens of :mod:`indexer.resolve.tracking`, checked against the
tracker's epochs as the resolver's own memo entries are) and the shared inputs it was computed
with. The next link replays an entry instead of computing it when:

* the file is the same context with the same bytes (a context adopted in place after a body edit
  has a new checksum; a file whose id path moved has a new context);
* the shared inputs of the part are equal to the last link's (:meth:`LinkMemo.begin`: for the table
  accesses, the declarations, mapped classes, repositories, managers, join tables and cascades);
* no token the work read changed since (:meth:`indexer.resolve.tracking.DependencyTracker.still_valid`).

Work over several files at once (the table declarations: every model of the repository) is kept
as one :class:`RecordedPass`, replayed while the files it read are the same contexts with the same
bytes and no token it read changed; it holds the state the pass left (the declarations that the
accesses then read) besides what it emitted.

A replay gives exactly what computing again would (the work reads nothing else), so the link's
result is the same as a full link's. One memo belongs to one tracker (one resolver): the resolver
that builds new lookup tables starts a new memo.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from indexer.resolve.tracking import DependencyTracker
from indexer.resolve.values import Deps
from stores.contracts import Edge, Node

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["LinkMemo", "Recorded", "RecordedPass"]


_R = TypeVar("_R", "Recorded", "RecordedPass")


@dataclass(slots=True)
class Recorded:
    """One file's share of one part of a link: the ``(node id, node)`` pairs it emitted (in order,
    repeats included: the emitter drops repeats itself), the edges it added to the file, the
    outcomes it counted, what it read (``deps``) and the tracker epoch it was computed or last found
    valid at."""

    fc: FileCtx
    checksum: str
    deps: Deps
    epoch: int
    nodes: list[tuple[str, Node]]
    edges: list[Edge]
    outcomes: Counter[str]


@dataclass(slots=True)
class RecordedPass:
    """A pass over several files: the files it read with their checksums, what it read through the
    resolver and when (``deps``, ``epoch``), the ``(file, node id, node)`` emits and the edges (each
    its own file's, :attr:`Edge.file`) it made in order, its outcomes, and ``state``: what the pass
    left for later work to read (its owner's to interpret)."""

    files: list[tuple[FileCtx, str]]
    deps: Deps
    epoch: int
    nodes: list[tuple[FileCtx, str, Node]]
    edges: list[Edge]
    outcomes: Counter[str]
    state: object


class LinkMemo:
    """Per part of the link (a name such as ``"tables"``) and per file path, the last
    :class:`Recorded` work; see the module docstring."""

    def __init__(self, tracker: DependencyTracker) -> None:
        self.tracker = tracker
        self._inputs: dict[str, object] = {}
        self._entries: dict[str, dict[str, Recorded]] = {}
        self._passes: dict[str, RecordedPass] = {}
        self._flags: dict[tuple[str, str], tuple[FileCtx, str, bool]] = {}
        self.hits: Counter[str] = Counter()
        self.misses: Counter[str] = Counter()
        """Per part, replays and computations since the memo was made (what tests and benchmarks read)."""

    def begin(self, part: str, inputs: object) -> None:
        """Start a link's pass over ``part``: ``inputs`` are the values every file's work of that part
        reads besides its own file and the resolver (compared with ``==`` to the last pass's; every
        entry of the part is dropped when they differ)."""
        if part in self._inputs and self._inputs[part] == inputs:
            return
        self._inputs[part] = inputs
        self._entries[part] = {}

    def get(self, part: str, fc: FileCtx) -> Recorded | None:
        """The work of ``part`` for ``fc`` as it was recorded, when it still holds (then its reads are
        recorded in the computation under way, as a memo hit's are); ``None`` otherwise."""
        entry = self._entries.get(part, {}).get(fc.path)
        return self._reused(part, entry, entry is not None and entry.fc is fc and entry.checksum == fc.checksum)

    def put(self, part: str, entry: Recorded) -> None:
        """Keep ``entry`` (computed during :meth:`begin`'s pass of ``part``) for the next pass."""
        self._entries.setdefault(part, {})[entry.fc.path] = entry

    def retain(self, part: str, paths: Collection[str]) -> None:
        """Forget the entries of ``part`` for files not in ``paths`` (a set: files gone, or without
        work of that part any more)."""
        entries = self._entries.get(part)
        if entries is not None and any(p not in paths for p in entries):
            self._entries[part] = {p: e for p, e in entries.items() if p in paths}

    def retain_flags(self, name: str, paths: Collection[str]) -> None:
        """Forget the :meth:`flag` ``name`` of files not in ``paths`` (a set: files gone)."""
        if any(n == name and p not in paths for n, p in self._flags):
            self._flags = {k: v for k, v in self._flags.items() if k[0] != name or k[1] in paths}

    def flag(self, name: str, fc: FileCtx, compute: Callable[[FileCtx], bool]) -> bool:
        """``compute(fc)``, a property of ``fc``'s own facts, computed once per context and bytes."""
        known = self._flags.get((name, fc.path))
        if known is not None and known[0] is fc and known[1] == fc.checksum:
            return known[2]
        value = compute(fc)
        self._flags[(name, fc.path)] = (fc, fc.checksum, value)
        return value

    def get_pass(self, part: str, files: list[FileCtx]) -> RecordedPass | None:
        """The pass of ``part`` as it was recorded, when it read exactly ``files`` (the same contexts,
        in order, with the same bytes) and nothing it read through the resolver changed since (its
        reads are then recorded in the computation under way); ``None`` otherwise."""
        done = self._passes.get(part)
        return self._reused(part, done, done is not None and len(done.files) == len(files) and all(
            fc is was and fc.checksum == checksum for fc, (was, checksum) in zip(files, done.files)))

    def _reused(self, part: str, recorded: _R | None, same: bool) -> _R | None:
        """``recorded`` when it was made from the ``same`` inputs and nothing it read through the
        resolver changed since (its reads then count in the computation under way); else ``None``.
        Counts the hit or miss of ``part``."""
        if not same or not self.tracker.still_valid(recorded.deps, recorded.epoch):
            self.misses[part] += 1
            return None
        recorded.epoch = self.tracker.epoch
        self.tracker.use_all(recorded.deps)
        self.hits[part] += 1
        return recorded

    def put_pass(self, part: str, done: RecordedPass) -> None:
        """Keep ``done`` for the next link's :meth:`get_pass`."""
        self._passes[part] = done
