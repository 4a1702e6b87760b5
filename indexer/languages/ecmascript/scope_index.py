"""Definitions as scopes for the ECMAScript extractor: :class:`Scope` (what code inside a definition is
attributed to) and :class:`ScopeIndex` (the innermost definition around a byte offset, by bisection of
properly nested ranges)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node


@dataclass(slots=True, frozen=True)
class Scope:
    """A definition seen as a scope: what code inside it is attributed to."""

    qualname: str
    kind: str
    code_scope: str  # caller / binding scope of code inside it (a field's initialiser -> its class)
    class_qualname: str | None  # nearest enclosing class-like definition, for ``this.x`` bindings


class ScopeIndex:
    """Definitions as properly nested byte ranges, for "innermost definition around byte ``pos``".

    Definitions are added in document order (parents first). The innermost definition containing a
    position is the last one starting at or before it, or one of that one's ancestors. A definition's
    own decorators (and its parameters' decorators) are excluded from its range: code in a decorator
    runs in the scope around the decorated definition.
    """

    __slots__ = ("starts", "ends", "parents", "excluded", "scopes")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.parents: list[int] = []
        self.excluded: list[tuple[tuple[int, int], ...]] = []
        self.scopes: list[Scope] = []

    def add(self, node: Node, scope: Scope, parent: int, excluded: tuple[tuple[int, int], ...]) -> int:
        """Append ``node``'s range as ``scope`` below the definition at index ``parent`` (``-1``: none),
        ``excluded`` the byte ranges of its decorators; returns its index."""
        self.starts.append(node.start_byte)
        self.ends.append(node.end_byte)
        self.parents.append(parent)
        self.excluded.append(excluded)
        self.scopes.append(scope)
        return len(self.scopes) - 1

    def find(self, pos: int) -> int:
        """Index of the innermost definition containing ``pos``, or ``-1``."""
        i = bisect.bisect_right(self.starts, pos) - 1
        while i >= 0:
            if pos < self.ends[i] and not any(s <= pos < e for s, e in self.excluded[i]):
                return i
            i = self.parents[i]
        return -1
