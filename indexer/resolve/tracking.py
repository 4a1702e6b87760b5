"""Memoisation and dependency recording: what each resolver computation read, and when to redo it.

Every lookup of the resolver runs inside a frame of :class:`DependencyTracker`; what it reads is
recorded as tokens (:data:`indexer.resolve.values.Token`): a name of a file, a whole file, a module
key, a short name matched by name. A memoised entry keeps the tokens its computation read and passes
them on to whoever reuses it, so the tokens of a file's output name everything its bindings depend
on (:class:`indexer.resolve.repository.RepositoryResolver` keeps them to answer which files an
update touches).

Invalidation is lazy: :meth:`DependencyTracker.advance` stamps the tokens a change touched with a new
epoch; a memo entry is checked against the stamps when it is next hit (once per epoch).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from indexer.resolve.values import Deps, Token, Value

__all__ = ["DependencyTracker", "MemoKey"]

_T = TypeVar("_T")
MemoKey = tuple[int, str | None, str, str]
"""A memo key: its first element buckets it (a FileCtx's or a Def's ``id()``, 0 for module members),
so that one file's entries can be dropped at once."""


class DependencyTracker:
    """Frames of what computations read, and the memo of values computed under them."""

    __slots__ = ("_deps", "_tokens", "_memo", "_in_progress", "_epoch", "_changed_at")

    def __init__(self) -> None:
        # A stack of frames, each the set of what one computation read.
        self._deps: list[set[Token]] = []
        self._tokens: dict[Token, Token] = {}
        # Each entry: [value, what it read, the epoch it was computed or last found valid at].
        self._memo: dict[int, dict[MemoKey, list]] = {}  # type: ignore[type-arg]
        self._in_progress: set[MemoKey] = set()
        self._epoch = 0
        self._changed_at: dict[Token, int] = {}

    def use(self, token: Token) -> None:
        """Record that the computation under way read ``token``. Tokens are interned: memo entries
        share them."""
        if self._deps:
            self._deps[-1].add(self._tokens.setdefault(token, token))

    def use_all(self, tokens: Deps) -> None:
        """Record every one of ``tokens`` (what a reused computation read)."""
        if self._deps and tokens:
            self._deps[-1].update(tokens)

    def tracked(self, compute: Callable[[], _T]) -> tuple[_T, Deps]:
        """``compute()`` and what it read (passed on to an enclosing computation too), as a tuple:
        about a quarter of a frozenset's memory, and memo entries keep one each."""
        self._deps.append(set())
        try:
            value = compute()
        finally:
            deps = tuple(self._deps.pop())
        self.use_all(deps)
        return value, deps

    def memoised(self, key: MemoKey, compute: Callable[[], Value]) -> Value:
        """``compute()`` once per key; a key met again while it is being computed (a cycle through
        imports, aliases or return types) yields ``None`` on that path instead of recursing."""
        bucket = self._memo.get(key[0])
        if bucket is None:
            bucket = self._memo[key[0]] = {}
        else:
            hit = bucket.get(key)
            if hit is not None and hit[2] != self._epoch:
                changed_at = self._changed_at
                if any(changed_at.get(t, -1) > hit[2] for t in hit[1]):
                    hit = None  # read something changed since: compute again
                else:
                    hit[2] = self._epoch
            if hit is not None:
                self.use_all(hit[1])
                return hit[0]
        if key in self._in_progress:
            return None
        self._in_progress.add(key)
        try:
            v, deps = self.tracked(compute)
        finally:
            self._in_progress.discard(key)
        bucket[key] = [v, deps, self._epoch]
        return v

    def drop(self, owners: Iterable[Hashable]) -> None:
        """Forget the memo buckets of ``owners`` (objects whose ``id()`` keys them)."""
        for owner in owners:
            self._memo.pop(id(owner), None)

    def advance(self, tokens: Iterable[Token]) -> None:
        """Start a new epoch in which ``tokens`` count as changed: entries that read one of them
        are computed again when next hit."""
        self._epoch += 1
        for token in tokens:
            self._changed_at[token] = self._epoch
