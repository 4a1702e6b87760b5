"""Per-file tables of a JavaScript / TypeScript file's local scopes, built once and read by every lookup.

:meth:`~indexer.languages.ecmascript.frameworks.common.JsFile.template` resolves a local name to its
initialiser (``const url = base + "/x"; fetch(url)``) by walking up from the use: at each function, is the
name one of its parameters; at each block, which declarator of that name comes before the use, and does any
assignment in the block change it. Each of those questions scanned the source again per lookup (a regular
expression compiled per name over the parameters' text, the block's statements, a tree-sitter query over the
block): 15,109 lookups over 1,200 files of outline cost 0.97 s (session 52's profile). Here each function's
parameter words, each block's declarators by name and the file's assigned names are computed once, the
first time a lookup needs them, and kept for the file's :class:`ScopeTables`.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["ScopeTables"]

_WORD = re.compile(r"[\w$]+")


class ScopeTables:
    """Lazily built lookup tables of one file's tree (texts from ``src``); ``names`` are the matches of
    ``queries/local_names.scm`` over the file (``{"assigned": [identifier]}`` or ``{"declared":
    [identifier]}`` each), which the detectors' combined query found in its one pass.

    Keys are tree-sitter node ids, valid while the tree lives (the owner holds its root)."""

    def __init__(self, src: SourceText, names: list[dict[str, list[Node]]]) -> None:
        self.src = src
        self.names = names
        self._declared: frozenset[str] | None = None  # every name a declarator of the file declares
        self._words: dict[int, frozenset[str]] = {}  # function node id -> the words of its parameters' text
        self._declarators: dict[int, dict[str, list[tuple[int, int, Node]]]] = {}  # block id -> name -> decls
        self._assigned: dict[str, list[int]] | None = None  # name -> start bytes where it is assigned, sorted

    def declared(self, name: str) -> bool:
        """Whether any ``variable_declarator`` of the file declares the plain name ``name`` (anywhere: a
        cheap test before the walk up the blocks around a use)."""
        if self._declared is None:
            self._declared = frozenset(self.src.text(n) for caps in self.names for n in caps.get("declared", ()))
        return name in self._declared

    def parameter_word(self, params: Node, fn: Node, name: str) -> bool:
        """Whether ``name`` is a whole word of the text of ``fn``'s parameter list ``params`` (a parameter,
        but also a type or default naming it, as the regular expression ``(?<![\\w$])name(?![\\w$])``
        over that text this replaces)."""
        if not _WORD.fullmatch(name):
            return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", self.src.text(params)) is not None
        words = self._words.get(fn.id)
        if words is None:
            words = self._words[fn.id] = frozenset(_WORD.findall(self.src.text(params)))
        return name in words

    def declarator_before(self, block: Node, name: str, pos: int) -> Node | None:
        """The last ``variable_declarator`` of ``name`` (a plain identifier target) among the declarations
        that are statements of ``block``, the statement starting before byte ``pos`` and the declarator
        ending at or before it; ``None`` when there is none."""
        table = self._declarators.get(block.id)
        if table is None:
            table = self._declarators[block.id] = self._block_declarators(block)
        for start, end, d in reversed(table.get(name, ())):
            if start < pos and end <= pos:
                return d
        return None

    def _block_declarators(self, block: Node) -> dict[str, list[tuple[int, int, Node]]]:
        """name -> ``(statement start, declarator end, declarator)`` of ``block``'s declarations, in order."""
        table: dict[str, list[tuple[int, int, Node]]] = {}
        for stmt in block.named_children:
            if stmt.type not in ("lexical_declaration", "variable_declaration"):
                continue
            for d in stmt.named_children:
                target = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                if target is not None and target.type == "identifier":
                    table.setdefault(self.src.text(target), []).append((stmt.start_byte, d.end_byte, d))
        return table

    def reassigned(self, block: Node, name: str) -> bool:
        """Whether an assignment, ``+=`` or ``++`` inside ``block`` writes the plain name ``name`` (the file's
        assignments indexed by name the first time any block asks)."""
        if self._assigned is None:
            self._assigned = {}
            for caps in self.names:
                for n in caps.get("assigned", ()):
                    self._assigned.setdefault(self.src.text(n), []).append(n.start_byte)
            for starts in self._assigned.values():
                starts.sort()
        starts = self._assigned.get(name)
        if not starts:
            return False
        i = bisect.bisect_left(starts, block.start_byte)
        return i < len(starts) and starts[i] < block.end_byte
