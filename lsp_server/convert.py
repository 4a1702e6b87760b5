"""The language server's only conversion module: positions, URIs and records <-> LSP types.

Position rule (the one place it is written down):

* The index stores **1-based lines** and **0-based columns counted in Unicode code points** (see
  :mod:`indexer.model`). LSP positions are **0-based lines** and 0-based columns counted in the
  *negotiated position encoding*: ``utf-8`` (bytes) when the client offers it in
  ``general.positionEncodings``, ``utf-32`` (code points), otherwise ``utf-16`` code units (the LSP
  default). A column is converted with the text of its line: ``😀`` is 1 code point, 2 UTF-16 units,
  4 UTF-8 bytes; ``所`` is 1, 1 and 3. When the line's text cannot be read the code-point column is
  sent as is (exact for ASCII and the BMP in UTF-16).
* An open document whose buffer differs from the file on disk (what the index saw) is mapped line by
  line (:class:`LineMap`, difflib): request positions are moved from buffer lines to disk lines before
  the analysis, answer positions from disk lines to buffer lines after it. A line edited in the
  buffer has no disk counterpart: a request there finds nothing; an answer there keeps its disk line.

Every ``to_*`` function goes index -> LSP; every ``from_*`` function LSP -> index.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, unquote

from lsprotocol import types

from stores.contracts import Node
from analysis.navigation import CallGroup, Reference, SymbolTree, container_name, symbol_label
from analysis.reached_through import ReachedThrough

__all__ = [
    "FileText", "LineMap", "Converter", "RIPPLE_SCHEME", "ripple_uri", "parse_ripple_uri", "to_client_col",
    "from_client_col", "word_at",
]

RIPPLE_SCHEME = "ripple"
"""URI scheme of files of an indexed repository that is not on disk: ``ripple:/<repo>/<path>``;
their text is served by the ``ripple/fileContent`` request."""

_KINDS = {
    "Class": types.SymbolKind.Class, "Interface": types.SymbolKind.Interface, "Enum": types.SymbolKind.Enum,
    "Method": types.SymbolKind.Method, "Function": types.SymbolKind.Function,
    "Constructor": types.SymbolKind.Constructor, "Field": types.SymbolKind.Field, "File": types.SymbolKind.File,
}


def ripple_uri(repo: str, path: str) -> str:
    """``ripple:/<repo>/<path>`` (percent-encoded) for a file not on disk."""
    return f"{RIPPLE_SCHEME}:/{quote(repo, safe='')}/{quote(path)}"


def parse_ripple_uri(uri: str) -> tuple[str, str] | None:
    """``(repo, path)`` of a ``ripple:`` URI, else ``None``."""
    if not uri.startswith(RIPPLE_SCHEME + ":/"):
        return None
    repo, _, path = uri[len(RIPPLE_SCHEME) + 2:].lstrip("/").partition("/")
    return (unquote(repo), unquote(path)) if repo and path else None


def to_client_col(line_text: str | None, col: int, encoding: str) -> int:
    """Code-point column ``col`` of ``line_text`` in the client's ``encoding`` units."""
    if line_text is None or encoding == types.PositionEncodingKind.Utf32:
        return col
    head = line_text[:col]
    if head.isascii():
        return col + max(0, col - len(head))
    if encoding == types.PositionEncodingKind.Utf8:
        return len(head.encode("utf-8")) + max(0, col - len(head))
    return len(head.encode("utf-16-le")) // 2 + max(0, col - len(head))


def from_client_col(line_text: str | None, units: int, encoding: str) -> int:
    """The code-point column of ``line_text`` at ``units`` client units (a position inside a
    character moves to that character's start; past the end of the line stays past it)."""
    if line_text is None or encoding == types.PositionEncodingKind.Utf32 or line_text.isascii():
        return units
    width = 1 if encoding == types.PositionEncodingKind.Utf8 else 2
    seen = 0
    for i, ch in enumerate(line_text):
        n = len(ch.encode("utf-8")) if width == 1 else (2 if ord(ch) > 0xFFFF else 1)
        if seen + n > units:
            return i
        seen += n
    return len(line_text) + (units - seen)


def _ident(ch: str) -> bool:
    return ch.isalnum() or ch in "_$"


def word_at(line_text: str, col: int) -> tuple[int, str]:
    """``(start column, identifier)`` of the identifier at or just before code-point ``col``;
    ``(col, "")`` when there is none."""
    if col < len(line_text) and _ident(line_text[col]):
        pos = col
    elif 0 < col <= len(line_text) and _ident(line_text[col - 1]):
        pos = col - 1
    else:
        return col, ""
    start = pos
    while start > 0 and _ident(line_text[start - 1]):
        start -= 1
    end = pos
    while end < len(line_text) and _ident(line_text[end]):
        end += 1
    return start, line_text[start:end]


class LineMap:
    """Lines of a buffer matched to lines of the file on disk (1-based both), by difflib's matching
    blocks; edited lines have no counterpart."""

    def __init__(self, buffer: list[str], disk: list[str]) -> None:
        self._to_disk: dict[int, int] = {}
        self._to_buffer: dict[int, int] = {}
        matcher = difflib.SequenceMatcher(None, buffer, disk, autojunk=False)
        for a, b, size in matcher.get_matching_blocks():
            for k in range(size):
                self._to_disk[a + k + 1] = b + k + 1
                self._to_buffer[b + k + 1] = a + k + 1

    def to_disk(self, line: int) -> int | None:
        """The disk line of buffer ``line``, ``None`` when the line was edited."""
        return self._to_disk.get(line)

    def to_buffer(self, line: int) -> int | None:
        """The buffer line of disk ``line``, ``None`` when it was edited away."""
        return self._to_buffer.get(line)


@dataclass(slots=True)
class FileText:
    """A file as the server sees it: ``uri``; ``disk`` lines (what the index saw; ``None`` when not
    readable); ``buffer`` lines of the open document when they differ from disk, with their ``map``."""

    uri: str
    disk: list[str] | None
    buffer: list[str] | None = None
    map: LineMap | None = None

    def client_line(self, line: int) -> tuple[int, str | None]:
        """Index line (1-based) -> (LSP line, 0-based; text of that line in the client's view)."""
        if self.buffer is not None and self.map is not None:
            b = self.map.to_buffer(line)
            if b is not None:
                return b - 1, self.buffer[b - 1]
        return line - 1, _line(self.disk, line)


def _line(lines: list[str] | None, line: int) -> str | None:
    return lines[line - 1] if lines is not None and 0 < line <= len(lines) else None


class Converter:
    """Conversions for one request: the negotiated ``encoding`` and ``texts(repo, path)``, which
    returns the :class:`FileText` of an indexed file (its URI and lines)."""

    def __init__(self, encoding: str, texts: Callable[[str, str], FileText]) -> None:
        self.encoding = encoding
        self._texts = texts
        self._cache: dict[tuple[str, str], FileText] = {}

    def text(self, repo: str, path: str) -> FileText:
        """The (per-request cached) text of ``repo``/``path``."""
        key = (repo, path)
        if key not in self._cache:
            self._cache[key] = self._texts(repo, path)
        return self._cache[key]

    # ---------------------------------------------------------------------------- LSP -> index

    def from_position(self, repo: str, path: str, pos: types.Position) -> tuple[int, int, str] | None:
        """An LSP position in ``repo``/``path`` -> ``(line, col of the identifier's start,
        identifier)`` in index terms (the identifier may be ``""``); ``None`` on a line edited in
        the buffer."""
        ft = self.text(repo, path)
        if ft.buffer is not None and ft.map is not None:
            text = _line(ft.buffer, pos.line + 1)
            line = ft.map.to_disk(pos.line + 1)
            if line is None:
                return None
        else:
            line, text = pos.line + 1, _line(ft.disk, pos.line + 1)
        col = from_client_col(text, pos.character, self.encoding)
        start, word = word_at(text, col) if text is not None else (col, "")
        return line, start, word

    # ---------------------------------------------------------------------------- index -> LSP

    def position(self, repo: str, path: str, line: int, col: int) -> types.Position:
        """Index line (1-based) / code-point column -> LSP position in the client's encoding."""
        lsp_line, text = self.text(repo, path).client_line(line)
        return types.Position(lsp_line, to_client_col(text, col, self.encoding))

    def range(self, repo: str, path: str, line: int, col: int, end_line: int, end_col: int) -> types.Range:
        """An index span -> LSP range."""
        return types.Range(self.position(repo, path, line, col), self.position(repo, path, end_line, end_col))

    def word_range(self, repo: str, path: str, line: int, col: int, word: str) -> types.Range:
        """The range of identifier ``word`` written at ``line`` / ``col``."""
        return self.range(repo, path, line, col, line, col + len(word))

    def node_range(self, node: Node) -> types.Range:
        """The whole definition of ``node``."""
        return self.range(node.repo, node.file, node.start_line, node.start_col, node.end_line, node.end_col)

    def selection_range(self, node: Node) -> types.Range:
        """The node's name: where the index says it is written (props ``name_line`` / ``name_col``)
        when the name is there on disk; else (an older index) its first occurrence as a word from the
        definition's start (after decorators / annotations, within the definition), else the
        definition's start."""
        lines = self.text(node.repo, node.file).disk
        at_line, at_col = node.props.get("name_line"), node.props.get("name_col")
        if lines is not None and isinstance(at_line, int) and isinstance(at_col, int) and 0 < at_line <= len(lines):
            if lines[at_line - 1][at_col : at_col + len(node.name)] == node.name:
                return self.word_range(node.repo, node.file, at_line, at_col, node.name)
        if lines is not None:  # the name is near the start: a bounded look, whatever the definition's size
            for line in range(node.start_line, min(node.end_line, len(lines), node.start_line + _NAME_LINES) + 1):
                text = lines[line - 1]
                at = text.find(node.name, node.start_col if line == node.start_line else 0)
                while at >= 0:
                    end = at + len(node.name)
                    if (at == 0 or not _ident(text[at - 1])) and (end == len(text) or not _ident(text[end])):
                        return self.word_range(node.repo, node.file, line, at, node.name)
                    at = text.find(node.name, at + 1)
        return self.word_range(node.repo, node.file, node.start_line, node.start_col, "")

    def location(self, repo: str, path: str, line: int, col: int, word: str) -> types.Location:
        """The location of identifier ``word`` at ``line`` / ``col`` of ``repo``/``path``."""
        return types.Location(self.text(repo, path).uri, self.word_range(repo, path, line, col, word))

    def reference_location(self, ref: Reference, targets: dict[str, Node]) -> types.Location:
        """A reference's location, spanning the target's name (the declaration's name for
        ``DECLARATION`` references)."""
        if ref.kind == "DECLARATION":
            return types.Location(self.text(ref.repo, ref.file).uri, self.selection_range(ref.source))
        target = targets.get(ref.target)
        return self.location(ref.repo, ref.file, ref.line, ref.col, target.name if target else "")

    def call_item(self, node: Node, site: types.Range | None = None) -> types.CallHierarchyItem:
        """A call-hierarchy item; ``data`` holds the node id (follow-ups re-resolve from it). A File
        node (code at module level, a caller outside every definition) is named after its file and
        selects ``site``, the range of its first call site, so the editor jumps there, not to line 1."""
        if node.label == "File":
            base = node.file.rsplit("/", 1)[-1]
            selected = site if site is not None else self.node_range(node)
            return types.CallHierarchyItem(
                name=f"{base} (top-level code)", kind=types.SymbolKind.File, uri=self.text(node.repo, node.file).uri,
                range=self.node_range(node), selection_range=selected, detail=_short(f"{node.repo} · {node.file}"),
                data={"id": node.id},
            )
        return types.CallHierarchyItem(
            name=node.name,
            kind=_KINDS.get(node.label, types.SymbolKind.Function),
            uri=self.text(node.repo, node.file).uri,
            range=self.node_range(node),
            selection_range=self.selection_range(node),
            detail=_short(f"{node.repo} · {symbol_label(node)}"),
            data={"id": node.id},
        )

    def _site_ranges(self, group: CallGroup, name: str, caller: Node) -> list[types.Range]:
        """The ranges of ``group``'s sites in ``caller``'s file (``fromRanges`` are relative to the
        caller's document); a function handed to a parameter its callee calls is called by the
        callee from a site in the file handing it over (:mod:`indexer.resolve.callbacks`): the
        caller's name stands for it then."""
        ranges = [self.word_range(s.repo, s.file, s.line, s.col, name) for s in group.sites
                  if (s.repo, s.file) == (caller.repo, caller.file)]
        return ranges or [self.selection_range(caller)]

    def incoming_call(self, group: CallGroup, callee: Node) -> types.CallHierarchyIncomingCall:
        """A caller with ``fromRanges`` = its call sites (the callee's name at each)."""
        name = _called_name(callee)
        ranges = self._site_ranges(group, name, group.node)
        return types.CallHierarchyIncomingCall(self.call_item(group.node, ranges[0] if ranges else None), ranges)

    def incoming_through(self, group: CallGroup, entry: ReachedThrough) -> types.CallHierarchyIncomingCall:
        """A client or producer reaching the item through the endpoint or topic ``entry`` it serves or
        consumes (:func:`analysis.reached_through.incoming_through`): the caller's item, its ``detail``
        ending ``through NAME`` and its ``data`` holding the entry's id under ``through``, with
        ``fromRanges`` = its requests, sends or stub calls (the identifier written at each)."""
        caller = group.node
        ranges = [self._identifier_range(s.repo, s.file, s.line, s.col) for s in group.sites
                  if (s.repo, s.file) == (caller.repo, caller.file)] or [self.selection_range(caller)]
        item = self.call_item(caller, ranges[0])
        item.detail = _short(f"{item.detail} · through {entry.name}")
        item.data = {"id": caller.id, "through": entry.id}
        return types.CallHierarchyIncomingCall(item, ranges)

    def _identifier_range(self, repo: str, path: str, line: int, col: int) -> types.Range:
        """The identifier written at ``line`` / ``col`` (``get`` of ``requests.get(...)``); an empty
        range there when none is (a file changed since, or not on this disk)."""
        lines = self.text(repo, path).disk
        text = lines[line - 1] if lines is not None and 0 < line <= len(lines) else ""
        m = _IDENTIFIER.match(text, col) if 0 <= col <= len(text) else None
        return self.range(repo, path, line, col, line, m.end() if m else col)

    def outgoing_call(self, group: CallGroup, caller: Node) -> types.CallHierarchyOutgoingCall:
        """A callee with ``fromRanges`` = the call sites in ``caller``'s body."""
        return types.CallHierarchyOutgoingCall(self.call_item(group.node),
                                               self._site_ranges(group, _called_name(group.node), caller))

    def symbol_information(self, node: Node) -> types.SymbolInformation:
        """A workspace-symbol entry (container: the repository and :func:`analysis.navigation.container_name`)."""
        return types.SymbolInformation(
            name=node.name, kind=_KINDS.get(node.label, types.SymbolKind.Variable),
            location=types.Location(self.text(node.repo, node.file).uri, self.selection_range(node)),
            container_name=_short(f"{node.repo} · {container_name(node)}"),
        )

    def document_symbol(self, tree: SymbolTree) -> types.DocumentSymbol:
        """A document symbol with its children (the tree's depth is bounded by
        :func:`analysis.navigation.document_symbols`)."""
        node = tree.node
        return types.DocumentSymbol(
            name=node.name, kind=_KINDS.get(node.label, types.SymbolKind.Variable),
            range=self.node_range(node), selection_range=self.selection_range(node),
            detail=_short(str(node.props.get("signature") or "")),
            children=[self.document_symbol(c) for c in tree.children],
        )


_NAME_LINES = 200
"""Lines after a definition's start searched for its name (decorators, annotations, a long signature)."""

DETAIL_CHARS = 300
"""Longest detail / container text sent (a deeply nested definition's dotted name can be huge)."""


_IDENTIFIER = re.compile(r"[\w$]+")


def _short(text: str) -> str:
    return text if len(text) <= DETAIL_CHARS else "…" + text[-(DETAIL_CHARS - 1):]


def _called_name(callee: Node) -> str:
    """The identifier written at a call site of ``callee``: Python constructors are called by their
    class name (``Owner(...)``), so the range covers the class name, not ``__init__``."""
    if callee.label == "Constructor" and callee.name in ("__init__", "constructor"):
        return callee.qualname.rsplit(".", 2)[-2] if "." in callee.qualname else callee.name
    return callee.name
