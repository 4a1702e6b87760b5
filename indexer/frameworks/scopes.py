"""The innermost definition of a file holding a position, answered from an index of the file's
definition spans built once per file and link pass.

The framework linker asks where each registration, route, mount and wrapper is written (the scope
its expressions are resolved in, and the definition body :mod:`indexer.frameworks.wrap_order`
compares positions within). Scanning every definition per question was quadratic in the file's
size: 10,000 ``app.use(function m(req, res, next) {...})`` lines made 10,000 definitions and as many
questions, 185 s of linking (brk49). Definitions' spans nest (a body holds its inner definitions
whole), so the innermost span holding a position is the one starting last at or before it, or the
nearest enclosing definition of that one which holds the position: a bisection and a walk up at
most as many levels as the definitions nest.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["ScopeIndex", "Scopes"]

Pos = tuple[int, int]


class ScopeIndex:
    """Definition spans ``(start, end, qualname)`` (``(line, col)`` positions, both ends inclusive)
    indexed for :meth:`at`. Spans that overlap without nesting (not produced by any extractor) are
    still answered right: the walk up then goes on to the outermost span."""

    def __init__(self, spans: list[tuple[Pos, Pos, str]]) -> None:
        # sorted by start, and among equal starts the widest first: the narrowest (innermost) is last
        order = sorted(range(len(spans)), key=lambda i: (spans[i][0], (-spans[i][1][0], -spans[i][1][1]), i))
        self._starts = [spans[i][0] for i in order]
        self._ends = [spans[i][1] for i in order]
        self._names = [spans[i][2] for i in order]
        self._parent: list[int] = []  # the nearest earlier span holding each span's start (-1: none)
        stack: list[int] = []
        for k in range(len(order)):
            while stack and self._ends[stack[-1]] < self._starts[k]:
                stack.pop()
            self._parent.append(stack[-1] if stack else -1)
            stack.append(k)

    def at(self, line: int, col: int) -> str | None:
        """The qualname of the innermost span holding ``line:col`` (the one starting last among those
        holding it), ``None`` when none does."""
        pos = (line, col)
        k = bisect.bisect_right(self._starts, pos) - 1
        while k >= 0 and self._ends[k] < pos:
            k = self._parent[k]
        return self._names[k] if k >= 0 else None


class Scopes:
    """One :class:`ScopeIndex` per file for a link pass, built on the file's first question and built
    again when the file context or its definitions change."""

    def __init__(self) -> None:
        self._by_path: dict[str, tuple[FileCtx, int, ScopeIndex]] = {}

    def at(self, fc: FileCtx, line: int, col: int) -> str | None:
        """The qualname of the innermost definition of ``fc`` whose span holds ``line:col`` (``None``:
        the top level)."""
        got = self._by_path.get(fc.path)
        if got is None or got[0] is not fc or got[1] != len(fc.defs):
            spans = [((d.start_line, d.start_col), (d.end_line, d.end_col), d.qualname) for d in (rd.d for rd in fc.defs)]
            got = self._by_path[fc.path] = (fc, len(fc.defs), ScopeIndex(spans))
        return got[2].at(line, col)
