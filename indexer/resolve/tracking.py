"""Memoisation and dependency recording: what each resolver computation read, and when to redo it.

Every lookup of the resolver runs inside a frame of :class:`DependencyTracker`; what it reads is
recorded as tokens (:data:`indexer.resolve.values.Token`): a name of a file, a whole file, a module
key, a short name matched by name. A memoised entry keeps the tokens its computation read and passes
them on to whoever reuses it, so the tokens of a file's output name everything its bindings depend
on (:class:`indexer.resolve.repository.RepositoryResolver` keeps them to answer which files an
update touches).

Invalidation is lazy: :meth:`DependencyTracker.advance` stamps the tokens a change touched with a new
epoch; a memo entry is checked against the stamps when it is next hit (once per epoch).

A bounded memo (``DependencyTracker(budget=N)``, what a one-shot run uses: see
:class:`indexer.resolve.repository.RepositoryResolver`) keeps at most about ``N`` entries that can be
computed again, in two generations (an approximate LRU: an entry hit in the older generation moves to
the younger; when the younger holds ``N // 2`` entries the older is dropped and the younger takes its
place). Dropping an entry and computing it again gives the same value and the same reads, except for
an entry whose computation met a cycle (a key met again while it was being computed yields ``None``
on that path, so its value depends on what was in progress; so does a key met :data:`MAX_MEMO_DEPTH`
computations deep): such a computation records
:data:`CUT` among its reads, which passes on to every computation that reads it, and an entry holding
:data:`CUT` is kept for good (pinned). Those are few (Django: see docs/benchmarks.md).
"""

from __future__ import annotations

import contextlib
import pickle
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Generic, TypeVar

from indexer.resolve.values import Deps, Token, Value

__all__ = ["CUT", "MAX_MEMO_DEPTH", "BoundedMemo", "DependencyTracker", "MemoKey", "Record", "pack_deps", "record_tokens", "strip_cut"]

_T = TypeVar("_T")
_K = TypeVar("_K", bound=Hashable)
MemoKey = tuple[int, str | None, str, str]
"""A memo key: its first element buckets it (a FileCtx's or a Def's ``id()``, 0 for module members),
so that one file's entries can be dropped at once."""

CUT: Token = ("cut", "", "")
"""The read a computation records when a cycle cut one of its paths (:meth:`DependencyTracker.memoised`
returned ``None`` for a key in progress, or one past :data:`MAX_MEMO_DEPTH`), and that every computation reading its result inherits: an
entry holding it is never dropped from a bounded memo. No update ever changes it; records kept for
:meth:`indexer.resolve.repository.RepositoryResolver.dependents` leave it out (:func:`strip_cut`)."""

MAX_MEMO_DEPTH = 96
"""Memoised computations nested at most this deep: one more is cut as a cycle is (``None`` on that
path, :data:`CUT` recorded). A level costs about seven Python frames (``resolve_expr`` ->
``call_result`` -> a function's inferred return -> ``resolve_expr`` ...), so without the bound a chain
of about 150 functions each returning the next one's call, or 100 pytest fixtures each requesting the
next, passed Python's limit of 1,000 frames and the RecursionError ended the whole index run (brk48).
Real repositories nest far less (the deepest seen: see docs/benchmarks.md, brk48)."""


MERGE_ONCE = 8
"""Reads tuples longer than this are merged into a frame once (:meth:`DependencyTracker.use_all`):
the check costs about what merging a few tokens does. On Django 5.2.8 a class's MRO reads are replayed
into the same frame by every member lookup of it (docs/benchmarks.md, session 48)."""


Record = Deps | bytes
"""What one file's output read as a resolver keeps it: the tokens, or :func:`pack_deps`'s bytes."""


def pack_deps(deps: Deps) -> bytes:
    """``deps`` as one compressed pickle (zlib level 1): what a whole-tree run keeps per file until
    the records are saved (Home Assistant: 6,743 blocks instead of about 400,000 token tuples and
    strings made while the files were bound, which kept the memory of the freed extractions from
    going back once the files were released; Django's 302,730 tokens 7.1 MiB pickled, 2.7 MiB
    compressed, 0.11 s). :func:`record_tokens` reads it back.

    The bytes depend on the tokens' values only: pickle writes an object met again as a reference
    to the first, so equal tokens whose strings were one object or several (a record made by a
    forked copy, or with tokens a memo replayed) gave different bytes; each distinct token and
    string is made one object first (a dict pass, about 0.15 s per 300,000 tokens). ``deps``: tokens
    (tuples of strings); raises ``TypeError`` for an unhashable one."""
    one: dict[object, object] = {}
    same = one.setdefault
    canonical = tuple(same(t, tuple(same(x, x) for x in t)) for t in deps)
    return zlib.compress(pickle.dumps(canonical, protocol=pickle.HIGHEST_PROTOCOL), 1)


def record_tokens(record: Record) -> Deps:
    """The tokens of ``record`` (a tuple as it is; :func:`pack_deps`'s bytes unpickled). Raises
    ``ValueError`` when it is no tuple of tokens (three strings each): a saved record damaged or
    edited by hand, which must bind every file rather than fail (``unhashable type``) or match
    nothing."""
    if isinstance(record, bytes):
        try:
            deps = pickle.loads(zlib.decompress(record))
        except Exception as exc:  # damaged bytes: say so instead of binding with wrong records
            raise ValueError(f"dependency record unreadable: {exc}") from exc
    else:
        deps = record
    if not isinstance(deps, tuple):
        raise ValueError(f"dependency record is a {type(deps).__name__}, not a tuple of tokens")
    for t in deps:
        if not (type(t) is tuple and len(t) == 3 and type(t[0]) is str and type(t[1]) is str and type(t[2]) is str):
            raise ValueError(f"dependency record holds {t!r:.80}, not a token (three strings)")
    return deps


def strip_cut(deps: Deps) -> Deps:
    """``deps`` without :data:`CUT` (the same tuple when it does not hold it)."""
    return tuple(t for t in deps if t != CUT) if CUT in deps else deps


class BoundedMemo(Generic[_K, _T]):
    """A memo of values that can be computed again, holding about ``budget`` entries at most
    (``None``: every entry), in the same two generations as :class:`DependencyTracker`'s bounded
    memo (an approximate LRU: an entry found in the older generation moves to the younger; when the
    younger holds ``budget // 2`` entries the older is dropped and the younger takes its place).
    What is dropped costs its computation again, never a different answer: only pure functions of
    state that :meth:`clear` is called for when it changes belong here. Raises ``ValueError`` for a
    budget under 2."""

    __slots__ = ("budget", "_young", "_old", "evicted")

    def __init__(self, budget: int | None = None) -> None:
        if budget is not None and budget < 2:
            raise ValueError(f"memo budget must be at least 2 entries, not {budget}")
        self.budget = budget
        self._young: dict[_K, _T] = {}
        self._old: dict[_K, _T] = {}
        self.evicted = 0
        """How many entries were dropped so far."""

    def get(self, key: _K) -> _T | None:
        """The value kept for ``key``, or ``None``."""
        hit = self._young.get(key)
        if hit is None and self._old:
            hit = self._old.pop(key, None)
            if hit is not None:
                self[key] = hit
        return hit

    def __setitem__(self, key: _K, value: _T) -> None:
        young = self._young
        young[key] = value
        if self.budget is not None and len(young) * 2 >= self.budget:
            self.evicted += len(self._old)
            self._old, self._young = young, {}

    def __len__(self) -> int:
        return len(self._young) + len(self._old)

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` is kept (without moving it to the younger generation)."""
        return key in self._young or key in self._old

    def __iter__(self) -> Iterator[_K]:
        """The keys kept, the older generation's first."""
        yield from self._old
        yield from self._young

    def clear(self) -> None:
        """Forget every entry."""
        self._young, self._old = {}, {}


class DependencyTracker:
    """Frames of what computations read, and the memo of values computed under them."""

    __slots__ = ("_deps", "_merged", "_tokens", "_memo", "_in_progress", "_epoch", "_changed_at", "budget", "_young",
                 "_old", "evicted")

    def __init__(self, budget: int | None = None) -> None:
        """``budget``: at most about this many memo entries that can be computed again are kept
        (``None``: every entry is kept; see the module docstring). Raises ``ValueError`` for a budget
        under 2."""
        if budget is not None and budget < 2:
            raise ValueError(f"memo budget must be at least 2 entries, not {budget}")
        self.budget = budget
        # Bounded memo: the two generations of droppable entries (key -> entry); pinned entries
        # (CUT among their reads) and every entry of an unbounded memo stay in _memo's buckets.
        self._young: dict[MemoKey, list] = {}  # type: ignore[type-arg]
        self._old: dict[MemoKey, list] = {}  # type: ignore[type-arg]
        self.evicted = 0
        """How many entries a bounded memo dropped so far."""
        # A stack of frames, each the set of what one computation read.
        self._deps: list[set[Token]] = []
        # Per frame, the reads tuples :meth:`use_all` merged into it whole (id -> the tuple, held so
        # that the id stays its own while the frame lives): merging one again adds nothing.
        self._merged: list[dict[int, Deps]] = []
        self._tokens: dict[Token, Token] = {}
        # Each entry: [value, what it read, the epoch it was computed or last found valid at].
        self._memo: dict[int, dict[MemoKey, list]] = {}  # type: ignore[type-arg]
        self._in_progress: set[MemoKey] = set()
        self._epoch = 0
        self._changed_at: dict[Token, int] = {}

    def use(self, token: Token) -> None:
        """Record that the computation under way read ``token``. Tokens are interned: memo entries
        share them."""
        deps = self._deps
        if deps:
            top = deps[-1]
            if token not in top:  # more than half the reads repeat one the frame holds (Django: 55%)
                top.add(self._tokens.setdefault(token, token))

    def use_all(self, tokens: Deps) -> None:
        """Record every one of ``tokens`` (what a reused computation read). A tuple of more than
        :data:`MERGE_ONCE` tokens merged into the same frame before (the same object: a memo entry's
        reads, replayed on every hit) is not merged again; the frame's set is the same either way
        (a set's layout changes only when an element is inserted, so its order is the same too)."""
        deps = self._deps
        if deps and tokens:
            if len(tokens) > MERGE_ONCE:
                merged = self._merged[-1]
                key = id(tokens)
                if merged.get(key) is tokens:
                    return
                merged[key] = tokens
            deps[-1].update(tokens)

    def tracked(self, compute: Callable[[], _T]) -> tuple[_T, Deps]:
        """``compute()`` and what it read (passed on to an enclosing computation too), as a tuple:
        about a quarter of a frozenset's memory, and memo entries keep one each."""
        self._deps.append(set())
        self._merged.append({})
        try:
            value = compute()
        finally:
            deps = tuple(self._deps.pop())
            self._merged.pop()
        self.use_all(deps)
        return value, deps

    def memoised(self, key: MemoKey, compute: Callable[[], Value]) -> Value:
        """``compute()`` once per key; a key met again while it is being computed (a cycle through
        imports, aliases or return types), or met :data:`MAX_MEMO_DEPTH` computations deep, yields
        ``None`` on that path instead of recursing (and records :data:`CUT`). A bounded memo may compute a key again once it dropped it (see the
        module docstring)."""
        bucket = self._memo.get(key[0])
        hit = bucket.get(key) if bucket is not None else None
        if hit is None and self.budget is not None:
            hit = self._young.get(key)
            if hit is None:
                hit = self._old.pop(key, None)
                if hit is not None:
                    self._keep(key, hit)
        if hit is not None:
            if hit[2] != self._epoch:
                changed_at = self._changed_at
                if any(changed_at.get(t, -1) > hit[2] for t in hit[1]):
                    hit = None  # read something changed since: compute again
                else:
                    hit[2] = self._epoch
            if hit is not None:
                self.use_all(hit[1])
                return hit[0]
        if key in self._in_progress or len(self._in_progress) >= MAX_MEMO_DEPTH:
            if self._deps:
                self._deps[-1].add(CUT)
            return None
        self._in_progress.add(key)
        try:
            v, deps = self.tracked(compute)
        finally:
            self._in_progress.discard(key)
        entry = [v, deps, self._epoch]
        bucket = self._memo.get(key[0])  # compute() may have made it
        if self.budget is None or CUT in deps:
            if bucket is None:
                bucket = self._memo[key[0]] = {}
            bucket[key] = entry
            if self._young or self._old:  # recomputed after a change: one place only
                self._young.pop(key, None)
                self._old.pop(key, None)
        else:
            if bucket is not None:
                bucket.pop(key, None)
            self._keep(key, entry)
        return v

    def _keep(self, key: MemoKey, entry: list) -> None:  # type: ignore[type-arg]
        """Enter a droppable entry in the young generation; a full young generation becomes the
        old one, the old one is dropped."""
        young = self._young
        young[key] = entry
        if len(young) * 2 >= self.budget:  # type: ignore[operator]
            self.evicted += len(self._old)
            self._old = young
            self._young = {}
            # The intern table would otherwise keep every token ever read (a one-shot run's records
            # are packed, the memo bounded): it starts again, the entries kept hold theirs.
            self._tokens = {}

    @contextlib.contextmanager
    def memo_aside(self) -> Iterator[None]:
        """Inside: an empty memo, dropped on leaving, where the memo was is as it was. For work whose
        entries must not reach the computations after it: what a computation records can depend on the
        mode the resolver was in when it ran (the framework linker's whole files,
        :attr:`indexer.resolve.interpreter.Resolver.whole_files`), and an entry passes its reads on
        to whoever reuses it."""
        kept = self._memo, self._young, self._old, self._in_progress, self._tokens, self.evicted
        self._memo, self._young, self._old, self._in_progress = {}, {}, {}, set()
        try:
            yield
        finally:
            self._memo, self._young, self._old, self._in_progress, self._tokens, self.evicted = kept

    def memo_size(self) -> tuple[int, int]:
        """``(entries kept that can be dropped, pinned or unbounded entries)``."""
        return len(self._young) + len(self._old), sum(len(b) for b in self._memo.values())

    def drop(self, owners: Iterable[Hashable]) -> None:
        """Forget the memo buckets of ``owners`` (objects whose ``id()`` keys them)."""
        ids = {id(owner) for owner in owners}
        for i in ids:
            self._memo.pop(i, None)
        if ids and (self._young or self._old):
            self._young = {k: e for k, e in self._young.items() if k[0] not in ids}
            self._old = {k: e for k, e in self._old.items() if k[0] not in ids}

    @property
    def epoch(self) -> int:
        """The current epoch (:meth:`advance` starts a new one): what a computation done now is
        stamped with, for :meth:`still_valid`."""
        return self._epoch

    def still_valid(self, deps: Deps, epoch: int) -> bool:
        """Whether a computation done at ``epoch`` that read ``deps`` would read the same now: none
        of ``deps`` changed in a later epoch (the memo's own check, for values kept outside it)."""
        if epoch == self._epoch:
            return True
        changed_at = self._changed_at
        return not any(changed_at.get(t, -1) > epoch for t in deps)

    def advance(self, tokens: Iterable[Token]) -> None:
        """Start a new epoch in which ``tokens`` count as changed: entries that read one of them
        are computed again when next hit."""
        self._epoch += 1
        for token in tokens:
            self._changed_at[token] = self._epoch
