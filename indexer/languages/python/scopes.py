"""Nesting of the Python extractor: the definition bodies of a file as scopes, in source order, and the
innermost one enclosing an offset, found by bisection (never by walking a node's parents per capture).

A definition's *body* is its scope (:mod:`indexer.model`): the calls, bindings and nested definitions
inside it are its own; decorators, defaults and annotations belong to the enclosing scope.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from indexer.model import Definition

__all__ = ["Scope", "Scopes"]


@dataclass(slots=True)
class Scope:
    """A definition body: the scope of the calls, bindings and nested definitions inside it."""

    start: int
    end: int
    qualname: str
    kind: str
    parent: int  # index of the enclosing scope, -1 at module level
    param_types: dict[str, str] = field(default_factory=dict)
    definition: Definition | None = None


class Scopes:
    """Definition bodies in source order, for "innermost enclosing definition" look-ups.

    Bodies nest properly, so the innermost body containing an offset is the last body starting at or
    before it, or one of that body's ancestors: a bisection plus a walk of a few nesting levels.
    """

    def __init__(self) -> None:
        self.items: list[Scope] = []
        self._starts: list[int] = []

    def add(self, scope: Scope) -> int:
        """Append a scope (callers add them in source order) and return its index."""
        self.items.append(scope)
        self._starts.append(scope.start)
        return len(self.items) - 1

    def at(self, offset: int) -> int:
        """Index of the innermost scope whose body contains byte ``offset``, or -1 (module level)."""
        i = bisect_right(self._starts, offset) - 1
        items = self.items
        while i >= 0 and items[i].end <= offset:
            i = items[i].parent
        return i

    def qualname(self, index: int) -> str | None:
        """The qualname of scope ``index`` (``None`` for -1, the module)."""
        return self.items[index].qualname if index >= 0 else None

    def qualname_at(self, offset: int) -> str | None:
        """``qualname(at(offset))`` in one call: the qualname of the innermost scope whose body
        contains byte ``offset``, ``None`` at module level."""
        i = bisect_right(self._starts, offset) - 1
        items = self.items
        while i >= 0 and items[i].end <= offset:
            i = items[i].parent
        return items[i].qualname if i >= 0 else None
