"""Shared machinery for the tree-sitter extractors: parsers, query files, positions.

Extraction rules are data: each language keeps its tree-sitter queries in
``indexer/languages/<language>/queries/*.scm``; an extractor runs them with :func:`run_query` and assembles the
captures into :mod:`indexer.model` records. Python walks a tree only where a query cannot express the
rule, and the extractor says so where it does.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import re
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from itertools import accumulate
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from tree_sitter import Language, Node, Parser, Query, QueryCursor
from tree_sitter_language_pack import get_language, get_parser

from indexer.model import LONG_RECEIVER, Binding, Definition, FileExtraction, drop_generics

__all__ = [
    "type_args",
    "Extractor", "SourceText", "language", "parser", "query", "combined_query", "run_query", "shared_pass", "parse_errors",
    "Budget", "extraction_budget", "kept_on_failure", "MAX_TREE_DEPTH", "collapse_whitespace", "text_outside", "innermost_scopes",
    "storable", "unambiguous_elements", "split_top_level", "declared_type_parameters", "header_type_arguments",
    "class_type_parameters", "class_type_arguments", "generic_arguments", "AngleBracketGenerics",
    "TYPE_TOKENS", "type_token", "class_literal", "ancestors", "around", "NEAR_PARENTS", "Innermost",
    "MAX_RECEIVER_CHARS", "Nested", "chain_receiver", "code_scope", "definition_captures", "doc_comment", "nest",
]

MAX_TREE_DEPTH = 1500
"""Syntax-tree depth below which queries do not look (see :class:`Budget`). Real code stays far
above it (a 500-call builder chain is about 1,000 levels); tree-sitter's query cursor loses track
past 32,767 levels, and qualified names of nested definitions grow with depth."""

_CONTINUATION = re.compile(rb"[\x80-\xbf]")
QUERY_DIR = Path(__file__).resolve().parent
"""Query folders are named relative to this one (``python/queries``, ``ecmascript/queries/typescript``)."""


class ScopeLike(Protocol):
    """What :func:`innermost_scopes` reads of a scope: its byte range."""

    scope_start: int
    scope_end: int


S = TypeVar("S", bound=ScopeLike)


class Extractor(Protocol):
    """What every language module exposes as ``EXTRACTOR``.

    ``language`` is the ripplegraph language name (``python``, ``java``, ``typescript``,
    ``javascript``); ``extensions`` the file suffixes it claims (``.py``); ``extract(path, source)``
    takes the repository-relative POSIX path and the file's bytes and returns a
    :class:`~indexer.model.FileExtraction`. It must not raise on bad source: syntax errors go to
    ``FileExtraction.errors`` and extraction continues over what parsed.
    """

    language: str
    extensions: tuple[str, ...]

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Extract one file; never raises on bad source."""
        ...


@functools.cache
def language(grammar: str) -> Language:
    """The tree-sitter ``Language`` bundled in tree-sitter-language-pack (no download)."""
    return get_language(grammar)  # type: ignore[arg-type]


@functools.cache
def parser(grammar: str) -> Parser:
    """A cached parser for ``grammar`` (parsers are not thread-safe; extraction runs one per process)."""
    return get_parser(grammar)  # type: ignore[arg-type]


@functools.cache
def query(grammar: str, folder: str, name: str) -> Query:
    """Compile ``indexer/languages/<folder>/<name>.scm`` for ``grammar`` (``folder``: ``java/queries``).

    Raises ``tree_sitter.QueryError`` with the file name when the query does not compile.
    """
    text = (QUERY_DIR / folder / f"{name}.scm").read_text(encoding="utf-8")
    return Query(language(grammar), text)


@functools.cache
def combined_query(grammar: str, folders: tuple[str, ...], names: tuple[str, ...]) -> tuple[Query, tuple[str, ...]]:
    """The query files ``names`` compiled as one query for ``grammar``, and each pattern's file name
    (so one pass over a tree serves every section). Each name reads ``indexer/languages/<folder>/<name>.scm``
    for every folder of ``folders`` in order, whichever exist."""
    texts: list[str] = []
    owners: list[str] = []
    for n in names:
        for d in folders:
            path = QUERY_DIR / d / f"{n}.scm"
            if path.exists():
                texts.append(path.read_text(encoding="utf-8") + "\n")
                owners.append(n)
    bounds: list[int] = []
    offset = 0
    for text in texts:
        offset += len(text.encode("utf-8"))
        bounds.append(offset)
    q = Query(language(grammar), "".join(texts))
    starts = (q.start_byte_for_pattern(i) for i in range(q.pattern_count))
    return q, tuple(owners[bisect.bisect_right(bounds, start)] for start in starts)


@dataclass(slots=True)
class Budget:
    """What extracting one file may cost, and whether it was cut short (``partial``).

    * **depth**: subtrees rooted deeper than ``max_depth`` are left out of every query
      (:func:`run_query` runs its query on the byte ranges between them), so a file of
      ``f(f(f(...)))`` 50,000 deep or of 5,000 nested classes is extracted down to that depth, in
      time and memory linear in its size; ``partial`` becomes ``"too_deep"``;
    * **width of errors**: an ERROR node with more than :data:`MAX_ERROR_CHILDREN` children (50,000
      unclosed ``(``) is left out the same way: tree-sitter's query cursor spends time quadratic in
      that width; ``partial`` becomes ``"syntax_errors"``;
    * **time**: once ``deadline`` (the extracting thread's CPU time, ``time.thread_time()``) has
      passed, queries return nothing (``partial``: ``"time_budget"``). CPU, not wall time: the budget
      bounds what a file costs, so a file is cut the same on a loaded machine as on an idle one (a
      wall-clock budget cut ordinary files short under load and made the index depend on it). The
      check is made before each query, not inside one: tree-sitter 0.26's progress callback crashes
      the interpreter on some queries.

    What was matched before the cut is kept: the file is indexed as far as it got."""

    deadline: float
    max_depth: int = MAX_TREE_DEPTH
    partial: str | None = None
    _root: int | None = field(default=None, repr=False)
    _gaps: list[tuple[int, int]] | None = field(default=None, repr=False)

    def expired(self) -> bool:
        """Whether the time is up (and if so, say so in ``partial``)."""
        if time.thread_time() > self.deadline:
            self.partial = "time_budget"
            return True
        return False

    def gaps(self, node: Node) -> list[tuple[int, int]] | None:
        """Byte ranges of ``node``'s tree clear of too-deep subtrees (``None``: the whole tree)."""
        root = node
        while root.parent is not None:
            root = root.parent
        if self._root != root.id:
            self._root, self._gaps, reason = root.id, *_shallow_ranges(root, self.max_depth)
            if reason is not None:
                self.partial = self.partial or reason
        return self._gaps


_BUDGET: ContextVar[Budget | None] = ContextVar("ripple_extraction_budget", default=None)


def budget_expired() -> bool:
    """Whether the current :func:`extraction_budget`'s time is up (``False`` with none set): what
    :func:`run_query` checks before it yields a match, for a caller reading matches another walk
    kept (the budget's ``partial`` is set the same way)."""
    budget = _BUDGET.get()
    return budget is not None and budget.expired()


@contextlib.contextmanager
def extraction_budget(seconds: float, max_depth: int = MAX_TREE_DEPTH) -> Iterator[Budget]:
    """Run the block's queries (this thread or task) within a :class:`Budget` of ``seconds`` of
    this thread's CPU time from now (``time.thread_time()``) and trees cut at ``max_depth``; read
    ``partial`` afterwards."""
    budget = Budget(time.thread_time() + seconds, max_depth)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


@contextlib.contextmanager
def kept_on_failure(out: FileExtraction) -> Iterator[FileExtraction]:
    """Run one file's extraction into ``out`` so that a failure costs what was not yet found, never
    the file or the run: an exception raised in the block is swallowed and listed in ``out.errors``
    as ``"1:0: internal error: <Type>: <message>"`` (``"1:0: internal error: nesting too deep"`` for a
    RecursionError); what the block added to ``out`` before it stays. Yields ``out``. Every
    extractor's ``extract`` runs its work inside one (the contract of
    :class:`~indexer.languages.base.Extractor`: never raise on bad input)."""
    try:
        yield out
    except RecursionError:
        out.errors.append("1:0: internal error: nesting too deep")
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop a run
        out.errors.append(f"1:0: internal error: {type(exc).__name__}: {exc}")


MAX_ERROR_CHILDREN = 4096
"""An ERROR node with more children than this is left out of queries (see :class:`Budget`)."""


def _shallow_ranges(root: Node, max_depth: int) -> tuple[list[tuple[int, int]] | None, str | None]:
    """The byte ranges of ``root``'s tree between the subtrees rooted at depth ``max_depth + 1`` and
    the too-wide ERROR nodes (``None`` when there is none), and why something was cut. Only nodes
    with enough descendants to reach the depth or the width are visited, so a normal tree costs a
    few hundred steps and any tree at most one step per node."""
    cut: list[tuple[int, int]] = []
    reason = None
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            cut.append((node.start_byte, node.end_byte))
            reason = reason or "too_deep"
            continue
        if depth + node.descendant_count <= max_depth and node.descendant_count <= MAX_ERROR_CHILDREN:
            continue  # too few nodes below to reach the limits
        if node.is_error and node.child_count > MAX_ERROR_CHILDREN:
            cut.append((node.start_byte, node.end_byte))
            reason = reason or "syntax_errors"
            continue
        stack.extend((child, depth + 1) for child in reversed(node.children))
    if not cut:
        return None, None
    cut.sort()
    ranges, pos = [], root.start_byte
    for start, end in cut:
        if start > pos:
            ranges.append((pos, start))
        pos = max(pos, end)
    if pos < root.end_byte:
        ranges.append((pos, root.end_byte))
    return ranges, reason


def run_query(q: Query, node: Node) -> Iterator[tuple[int, dict[str, list[Node]]]]:
    """An iterator of ``(pattern_index, {capture_name: [nodes]})`` for every match under ``node``,
    within the current :func:`extraction_budget` if one is set (see :class:`Budget`: it is checked
    now, when the query is asked for). Inside a :func:`shared_pass` over ``node`` that ran ``q``,
    the matches come from that pass (once: a second run of ``q`` over ``node`` runs the query again).
    A plain function, no generator: the matches are a list already, and a generator's step per
    match cost more than the loops reading them (a million matches over Django)."""
    budget = _BUDGET.get()
    shared = _SHARED.get()
    if shared is not None and node == shared.root:
        found = shared.matches.pop(id(q), None)
        if found is not None:
            return iter(found) if budget is None or not budget.expired() else iter(())
    if budget is None:
        return iter(QueryCursor(q).matches(node))
    if budget.expired():
        return iter(())
    gaps = budget.gaps(node)
    if gaps is None:
        return iter(QueryCursor(q).matches(node))
    return _gap_matches(q, node, gaps, [])


def _gap_matches(q: Query, node: Node, gaps: list[tuple[int, int]],
                 cursors: list[QueryCursor]) -> Iterator[tuple[int, dict[str, list[Node]]]]:
    """The matches of ``q`` under ``node`` within the byte ranges ``gaps`` (the budget's depth cut),
    each once; every cursor it runs is appended to ``cursors`` (for ``did_exceed_match_limit``)."""
    seen: set[tuple[int, tuple[tuple[str, tuple[int, ...]], ...]]] = set()
    for start, end in gaps:
        lo, hi = max(start, node.start_byte), min(end, node.end_byte)
        if lo >= hi:
            continue
        cursor = QueryCursor(q)
        cursor.set_byte_range(lo, hi)
        cursors.append(cursor)
        for pattern, caps in cursor.matches(node):
            # A match around a cut subtree meets two ranges: yield it once.
            key = (pattern, tuple(sorted((name, tuple(n.id for n in nodes)) for name, nodes in caps.items())))
            if key not in seen:
                seen.add(key)
                yield pattern, caps


@dataclass(slots=True)
class _SharedPass:
    """The matches of one :func:`shared_pass`: per query (``id``), its matches over ``root`` in the
    order its own run yields them; ``queries`` keeps those ids valid."""

    root: Node
    matches: dict[int, list[tuple[int, dict[str, list[Node]]]]]
    queries: tuple[Query, ...]


_SHARED: ContextVar[_SharedPass | None] = ContextVar("ripple_shared_pass", default=None)


@functools.cache
def _shared_query(grammar: str, folder: str, names: tuple[str, ...]) -> tuple[Query, tuple[Query, ...], tuple[int, ...],
                                                                            tuple[int, ...]]:
    """The query files ``names`` of ``folder`` compiled as one query; their own queries
    (:func:`query`, in the order of ``names``); and per pattern of the combined query, the position
    in ``names`` of its file and the pattern's index in that file's own query. Raises ``ValueError``
    when a file's patterns do not line up with its own compilation (a file that does not exist)."""
    combined, owners = combined_query(grammar, (folder,), names)
    queries = tuple(query(grammar, folder, name) for name in names)
    slots = tuple(k for k, own in enumerate(queries) for _ in range(own.pattern_count))
    indexes = tuple(i for own in queries for i in range(own.pattern_count))
    if len(slots) != combined.pattern_count or list(owners) != [names[k] for k in slots]:
        raise ValueError(f"shared_pass: the patterns of {names} do not line up in {folder}")
    return combined, queries, slots, indexes


def _all_matches(q: Query, node: Node) -> list[tuple[int, dict[str, list[Node]]]] | None:
    """Every match of ``q`` under ``node`` as :func:`run_query` yields them (within the current
    budget), or ``None`` when the time is up or a cursor dropped matches past tree-sitter's match
    limit (then separate runs of the smaller queries must decide)."""
    budget = _BUDGET.get()
    if budget is not None and budget.expired():
        return None
    gaps = budget.gaps(node) if budget is not None else None
    if gaps is None:
        cursor = QueryCursor(q)
        found = cursor.matches(node)
        return None if cursor.did_exceed_match_limit else found
    cursors: list[QueryCursor] = []
    out = list(_gap_matches(q, node, gaps, cursors))
    if any(cursor.did_exceed_match_limit for cursor in cursors):
        return None
    return out


@contextlib.contextmanager
def shared_pass(grammar: str, folder: str, names: tuple[str, ...], root: Node) -> Iterator[None]:
    """Run the query files ``names`` of ``folder`` (``python/queries``) over ``root`` as one query,
    one walk of the tree instead of one per file: inside the block, :func:`run_query` of
    ``query(grammar, folder, name)`` over ``root`` yields that file's matches from this walk, the
    same matches in the same order as its own run (tree-sitter orders each pattern's matches the
    same whatever other patterns share the cursor; each file's pattern indexes are its own). When
    the walk cannot stand for the separate runs (the time budget is up, or the cursor hit
    tree-sitter's match limit), nothing is shared and each query runs on its own as before. On
    Django 5.2.8 the ten queries every Python file runs cost 2.6x less CPU this way."""
    combined, queries, slots, indexes = _shared_query(grammar, folder, names)
    found = _all_matches(combined, root)
    if found is None:
        yield
        return
    lists: list[list[tuple[int, dict[str, list[Node]]]]] = [[] for _ in queries]
    add = [lists[k].append for k in slots]  # per pattern: where its matches go
    for pattern, caps in found:
        add[pattern]((indexes[pattern], caps))
    del found, add  # each query's list holds its matches now
    token = _SHARED.set(_SharedPass(root, {id(q): m for q, m in zip(queries, lists)}, queries))
    try:
        yield
    finally:
        _SHARED.reset(token)


class SourceText:
    """A file's bytes with position helpers.

    ``col(node)`` converts tree-sitter's byte column to the IR's 0-based code-point column, and
    ``line(node)`` gives the 1-based line. ``text(node)`` decodes a node's bytes leniently
    (invalid UTF-8 becomes U+FFFD so a file in another encoding is still extracted).
    """

    __slots__ = ("data", "_line_starts", "_continuations", "_ascii", "_str")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._ascii = data.isascii()  # every column a byte column (most files)
        self._str = data.decode("ascii") if self._ascii else None
        """An ASCII file's text, decoded once: a node's text is a slice of it (byte offsets are
        character offsets), not a decode per node."""
        # where each line starts: 0, then one past each "\n" (a running sum of the lines' lengths + 1)
        starts = list(accumulate(map((1).__add__, map(len, data.split(b"\n"))), initial=0))
        starts.pop()  # the end of the last line, one past the data
        self._line_starts = starts
        self._continuations: dict[int, tuple[int, ...]] = {}

    def text(self, node: Node | None) -> str:
        """The node's source text, leniently decoded ("" for ``None``)."""
        if node is None:
            return ""
        if self._str is not None:
            return self._str[node.start_byte : node.end_byte]
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    @staticmethod
    def line(node: Node) -> int:
        """1-based line where ``node`` starts."""
        return node.start_point[0] + 1

    def col(self, node: Node) -> int:
        """0-based code-point column where ``node`` starts."""
        row, byte_col = node.start_point
        if self._ascii:
            return byte_col
        cont = self._continuations.get(row)  # point_col's look-up, inlined: the commonest call
        if cont is None:
            return self.point_col(row, byte_col)
        return byte_col - bisect.bisect_left(cont, byte_col) if cont else byte_col

    def line_col(self, node: Node) -> tuple[int, int]:
        """``(line(node), col(node))`` from one look at ``node``'s start."""
        row, byte_col = node.start_point
        if self._ascii:
            return row + 1, byte_col
        cont = self._continuations.get(row)
        if cont is None:
            return row + 1, self.point_col(row, byte_col)
        return row + 1, (byte_col - bisect.bisect_left(cont, byte_col) if cont else byte_col)

    def end_col(self, node: Node) -> int:
        """0-based code-point column where ``node`` ends."""
        row, byte_col = node.end_point
        return self.point_col(row, byte_col)

    def point_col(self, row: int, byte_col: int) -> int:
        """Convert a (0-based row, byte column) point to a 0-based code-point column.

        Each line is scanned once: an ASCII line maps bytes to columns one to one; otherwise the
        offsets of its UTF-8 continuation bytes are kept and a column is the byte column minus the
        continuation bytes before it (a bisection), so a long minified line costs linear time.
        """
        if self._ascii:
            return byte_col
        cont = self._continuations.get(row)
        if cont is None:
            starts = self._line_starts
            begin = starts[row] if row < len(starts) else 0
            end = starts[row + 1] if row + 1 < len(starts) else len(self.data)
            line = self.data[begin:end]
            cont = () if line.isascii() else tuple(m.start() for m in _CONTINUATION.finditer(line))
            self._continuations[row] = cont
        if not cont:
            return byte_col
        return byte_col - bisect.bisect_left(cont, byte_col)

    def node_at(self, root: Node, line: int, col: int) -> Node | None:
        """The named node of ``root`` starting at an IR position (1-based ``line``, 0-based code-point
        ``col``, as :class:`~indexer.model.CallSite` records it); ``None`` when the file has no such line.
        An ASCII file or line maps the column as is (a minified line of 60,000 calls was scanned whole
        for each: quadratic); a line with multi-byte characters is decoded up to ``col``."""
        starts = self._line_starts
        if not 0 < line <= len(starts):
            return None
        byte_col = col
        if col and not self._ascii:
            self.point_col(line - 1, 0)  # the line's continuation bytes, found once per line
            if self._continuations[line - 1]:  # a line with multi-byte characters: decode it up to col
                begin = starts[line - 1]
                end = starts[line] if line < len(starts) else len(self.data)
                byte_col = len(self.data[begin:end].decode("utf-8", "replace")[:col].encode("utf-8"))
        return root.named_descendant_for_point_range((line - 1, byte_col), (line - 1, byte_col))


def parse_errors(root: Node, src: SourceText, limit: int = 20) -> list[str]:
    """``"line:col: syntax error"`` / ``"line:col: missing X"`` for the first ``limit`` ERROR and
    MISSING nodes (a tree walk: queries cannot select MISSING nodes reliably)."""
    if not root.has_error:
        return []
    out: list[str] = []
    stack = [root]
    while stack and len(out) < limit:
        n = stack.pop()
        if n.is_missing:
            out.append(f"{n.start_point[0] + 1}:{src.col(n)}: missing {n.type}")
        elif n.is_error:
            out.append(f"{n.start_point[0] + 1}:{src.col(n)}: syntax error")
            continue
        if n.has_error:
            stack.extend(reversed(n.children))
    return out


_WS = re.compile(r"\s+")
_OPEN_SP = re.compile(r"([(<\[])\s+")
_SP_CLOSE = re.compile(r"\s+([)>\],])")


def storable(text: str) -> str:
    """``text`` as UTF-8 can hold it: a string literal's escapes may name UTF-16 surrogates
    (``"\\ud83d\\ude00"`` in Java or JavaScript, a lone ``"\\ud800"`` in any language); a pair
    becomes its character, a lone one U+FFFD. Otherwise ``text`` itself (one encode to check)."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def collapse_whitespace(text: str) -> str:
    """Whitespace runs become one space, with none just inside brackets or before a comma: the form
    of signatures and type texts (``public  void m( int a )`` -> ``public void m(int a)``)."""
    if not _WS.search(text):
        return text
    return _SP_CLOSE.sub(r"\1", _OPEN_SP.sub(r"\1", _WS.sub(" ", text).strip()))


def text_outside(data: bytes, starts: list[int], ends: list[int], start: int, end: int) -> str:
    """The text of ``data[start:end]`` without the byte ranges ``[starts[i], ends[i])`` (sorted by
    start; annotations and comments left out of a signature), the kept pieces joined by one space
    and whitespace collapsed (:func:`collapse_whitespace`). Linear in the pieces inside the range."""
    pieces: list[bytes] = []
    pos = start
    i = bisect.bisect_left(starts, start)
    while i < len(starts) and starts[i] < end:
        if starts[i] >= pos:
            pieces.append(data[pos : starts[i]])
        pos = max(pos, ends[i])
        i += 1
    if pos < end:
        pieces.append(data[pos:end])
    return collapse_whitespace(b" ".join(pieces).decode("utf-8", "replace"))


def innermost_scopes(scopes: list[S], positions: list[int]) -> list[S | None]:
    """For each byte position, the innermost of ``scopes`` whose ``[scope_start, scope_end)`` holds it
    (``None``: none does). ``scopes`` sorted by ``(scope_start, -scope_end)``, properly nested. One
    sweep over the sorted positions: ``O((n + m) log m)``, never a search per position."""
    order = sorted(range(len(positions)), key=positions.__getitem__)
    result: list[S | None] = [None] * len(positions)
    stack: list[S] = []
    j = 0
    for i in order:
        pos = positions[i]
        while j < len(scopes) and scopes[j].scope_start <= pos:
            nxt = scopes[j]
            while stack and stack[-1].scope_end <= nxt.scope_start:
                stack.pop()
            stack.append(nxt)
            j += 1
        while stack and stack[-1].scope_end <= pos:
            stack.pop()
        result[i] = stack[-1] if stack else None
    return result


def unambiguous_elements(found: list[Binding], bound: list[Binding]) -> list[Binding]:
    """The ``element`` bindings of ``found`` (a loop's or a callback's name, typed by what an
    expression hands out) to keep beside a file's other bindings ``bound``: those whose ``(scope,
    name)`` nothing else binds and that one expression alone hands. A binding is per function, not
    per loop or callback, so a name received from two expressions, or bound otherwise too, gets none."""
    taken = {(b.scope, b.name) for b in bound}
    sources: dict[tuple[str | None, str], set[str]] = {}
    for b in found:
        sources.setdefault((b.scope, b.name), set()).add(b.type)
    return [b for b in found if (b.scope, b.name) not in taken and len(sources[(b.scope, b.name)]) == 1]


def split_top_level(text: str, sep: str = ",", opening: str = "[({<", closing: str = "])}>") -> list[str]:
    """``text`` split at each ``sep`` outside brackets (any of ``opening`` opens one, of ``closing``
    closes one), the parts as written (not stripped): ``"A, Map<K, V>"`` -> ``["A", " Map<K, V>"]``.
    Type texts' argument lists and unions; unbalanced text splits where its depth is zero. The ``>``
    of an arrow ``=>`` closes nothing (``[() => void, User]``: two items)."""
    parts, depth, cur = [], 0, []
    prev = ""
    for ch in text:
        depth += (ch in opening) - (ch in closing and not (ch == ">" and prev == "="))
        prev = ch
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


_ANNOTATION = re.compile(r"@[\w.]+(?:\([^()]*\))?")
_VARIANCE = frozenset({"in", "out", "reified", "const", "readonly"})


def _group_end(text: str, start: int, opening: str, closing: str) -> int:
    """The index just past the bracket closing the group whose opening bracket is at ``start - 1``,
    or ``-1`` when it never closes (brackets of other kinds are not counted)."""
    depth = 1
    for j in range(start, len(text)):
        ch = text[j]
        if ch == opening:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def _arguments(inner: str) -> tuple[str, ...]:
    return tuple(a.strip() for a in split_top_level(inner, ",", "[(<{", "])>}"))


def declared_type_parameters(header: str | None, name: str, opening: str = "<", closing: str = ">") -> tuple[str, ...]:
    """The type parameters a class declaration's header text (:attr:`indexer.model.Definition.signature`)
    declares right after the class's name, in order, each by its name alone: ``class Repo<T, ID
    extends Serializable>`` -> ``("T", "ID")``; Kotlin's ``out T`` and C#'s ``in T`` -> ``T``;
    annotations and bounds dropped. Empty when it declares none or the list never closes."""
    if not header or opening not in header:
        return ()
    m = re.search(r"(?<![\w$])" + re.escape(name) + r"\s*" + re.escape(opening), header)
    if m is None:
        return ()
    end = _group_end(header, m.end(), opening, closing)
    if end < 0:
        return ()
    out: list[str] = []
    for part in _arguments(_ANNOTATION.sub(" ", header[m.end():end - 1])):
        words = [w for w in re.findall(r"[A-Za-z_$][\w$]*", part) if w not in _VARIANCE]
        if words:
            out.append(words[0])
    return tuple(out)


def header_type_arguments(header: str | None, name: str, opening: str = "<", closing: str = ">") -> dict[str, tuple[str, ...]]:
    """Per generic type a class declaration's header text names after the class's own name and type
    parameters (the bases it extends or implements), by the last dotted part of that type's name, the
    type arguments written for it, as written (``name`` empty: every generic type of the text): ``class UserRepo extends Repo<User, Long> implements
    Api<User>`` -> ``{"Repo": ("User", "Long"), "Api": ("User",)}``. A bracket group that never
    closes ends the scan. Linear in the header's length."""
    out: dict[str, tuple[str, ...]] = {}
    if not header or opening not in header:
        return out
    m = re.search(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", header) if name else None
    i = m.end() if m is not None else 0
    if header[i:].lstrip().startswith(opening):  # the class's own type parameters
        i = header.index(opening, i) + 1
        i = _group_end(header, i, opening, closing)
        if i < 0:
            return out
    while True:
        j = header.find(opening, i)
        if j < 0:
            return out
        end = _group_end(header, j + 1, opening, closing)
        if end < 0:
            return out
        head = header[i:j].rstrip()
        k = len(head)
        while k > 0 and (head[k - 1].isalnum() or head[k - 1] in "_$."):
            k -= 1
        base = head[k:].rsplit(".", 1)[-1]
        if base and not base[0].isdigit():
            out.setdefault(base, _arguments(header[j + 1:end - 1]))
        i = end


def generic_arguments(text: str, opening: str = "<", closing: str = ">") -> tuple[str, ...]:
    """The type arguments of a generic type text as a whole, as written: ``Repo<User, Long>`` ->
    ``("User", "Long")``; empty for a text that is no (dotted) name followed by one bracketed group
    ending it (``List<User>[]``, ``Repo<User``): a module system's optional ``type_arguments`` hook
    (:mod:`indexer.resolve.generics`)."""
    t = text.strip()
    i = t.find(opening)
    if i <= 0 or not t.endswith(closing) or not re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*", t[:i].strip()):
        return ()
    if _group_end(t, i + 1, opening, closing) != len(t):
        return ()
    return _arguments(t[i + 1:-1])


TYPE_TOKENS = frozenset({"Class", "KClass", "Type", "Constructor", "ClassType", "ClassConstructor", "Constructable",
                         "Newable", "ObjectType"})
"""Generic types whose values are classes, not instances, by their last name part: Java's ``Class<T>``,
Kotlin's ``KClass<T>``, and the constructor types of TypeScript libraries (NestJS and Angular ``Type<T>``,
class-transformer ``ClassConstructor<T>``, TypeDI ``Constructable<T>``, InversifyJS ``Newable<T>``,
TypeORM ``ObjectType<T>``)."""

_CONSTRUCTOR_TYPE = re.compile(r"(?:abstract\s+)?new\s*\([^()]*\)\s*=>\s*([A-Za-z_$][\w$]*)")


def type_token(text: str) -> str | None:
    """The type whose class a class-object type text stands for: ``Class<T>`` / ``Class<? extends T>``
    / ``KClass<T>`` / ``Type<T>`` (:data:`TYPE_TOKENS`) and TypeScript's constructor type ``new (...args:
    any[]) => T`` -> ``T``; ``None`` for any other text (an optional module system hook)."""
    t = text.strip()
    m = _CONSTRUCTOR_TYPE.fullmatch(t)
    if m:
        return m[1]
    outer, args = type_args(t)
    if outer not in TYPE_TOKENS or len(args) != 1:
        return None
    arg = args[0].removeprefix("?").strip().removeprefix("extends").strip().removeprefix("out ").strip()
    return arg if re.fullmatch(r"[A-Za-z_$][\w$]*", arg) else None


def class_literal(text: str) -> str | None:
    """The class a class-literal expression names: Java's ``User.class``, Kotlin's ``User::class`` /
    ``User::class.java`` -> ``User``; ``None`` for any other text (an optional module system hook)."""
    for suffix in ("::class.java", "::class", ".class"):
        if text.endswith(suffix) and len(text) > len(suffix):
            return text[:-len(suffix)]
    return None


def class_type_parameters(d: Definition) -> tuple[str, ...]:
    """A class's type parameters as its declaration's header names them in angle brackets (Java,
    TypeScript, C#, Kotlin: :func:`declared_type_parameters` over ``d.signature``): a module system's
    optional ``type_parameters`` hook (:mod:`indexer.resolve.generics`)."""
    return declared_type_parameters(d.signature, d.name)


def class_type_arguments(d: Definition) -> dict[str, tuple[str, ...]]:
    """The type arguments a class's declaration writes for each generic base, by the base's last
    name part (:func:`header_type_arguments` over ``d.signature``, then the base texts for what the
    header left out): a module system's optional ``base_type_arguments`` hook
    (:mod:`indexer.resolve.generics`)."""
    out = header_type_arguments(d.signature, d.name)
    for text in (*d.bases, *d.implements):
        for base, args in header_type_arguments(text, "").items():
            out.setdefault(base, args)
    return out


def type_args(text: str) -> tuple[str, list[str]]:
    """``Map<String, List<Owner>>`` -> (``Map``, [``String``, ``List<Owner>``]): the simple name of
    the outer type and its top-level type arguments (none when the text has no ``<...>``); the
    generic type texts of Java and Kotlin read the same (:func:`split_top_level` over the angle brackets)."""
    outer, lt, rest = text.partition("<")
    rest = rest.strip()
    if not lt or not rest.endswith(">"):
        return outer.strip().rsplit(".", 1)[-1], []
    return outer.strip().rsplit(".", 1)[-1], [a.strip() for a in split_top_level(rest[:-1], ",", "<", ">")]


class AngleBracketGenerics:
    """The optional generics hooks of a module system whose classes declare type parameters in angle
    brackets (Java, Kotlin, C#, TypeScript), for :mod:`indexer.resolve.generics`; a module system
    takes them by deriving from this class."""

    type_parameters = staticmethod(class_type_parameters)
    """A class's type parameters (``class Repo<T, ID>``: :func:`class_type_parameters`)."""
    base_type_arguments = staticmethod(class_type_arguments)
    """The type arguments a class's declaration writes for its generic bases (``extends Repo<User,
    Long>``: :func:`class_type_arguments`)."""
    type_arguments = staticmethod(generic_arguments)
    """The type arguments of a declared type (``Repo<User>``: :func:`generic_arguments`)."""
    type_token = staticmethod(type_token)
    """The type a class-object type names (``Class<T>``: :func:`type_token`), for
    :mod:`indexer.resolve.generic_calls`."""
    class_literal = staticmethod(class_literal)
    """The class a class-literal expression names (``User.class``: :func:`class_literal`)."""

# -- Java-shaped grammars ---------------------------------------------------------------------------
# What the extractors of the grammars shaped like tree-sitter-java share (Java, and Apex, whose
# grammar derives from it): the same node types (``method_invocation``, ``field_access``,
# ``object_creation_expression``, ``enum_constant``, ``/** ... */`` comments before a declaration)
# read the same way. Each language folder keeps what its language adds (Java's casts and method
# references, Apex's triggers and platform dispatch).

MAX_RECEIVER_CHARS = 2000
"""Longest receiver text kept for a call (normalised: ``a.b().c()``; real builder chains stay far
below); a longer one is :data:`indexer.model.LONG_RECEIVER` (unknown to the resolver)."""

_RECEIVER_WS = re.compile(r"\s+")
_CHAIN = ("method_invocation", "field_access")
"""The links of a receiver chain in a Java-shaped grammar (their ``object`` field is the rest)."""


class Nested(Protocol):
    """A definition under construction as :func:`nest` reads it: its IR record, its node, its place
    among the records made of one node (``index``: a field declaration's declarators), and the
    definition it nests in (set by :func:`nest`)."""

    rec: Definition
    node: Node
    index: int
    parent_def: Nested | None


N = TypeVar("N", bound=Nested)


def definition_captures(matches: Iterable[tuple[int, dict[str, list[Node]]]], make: Callable[[str, Node], list[N]],
                        containers: Collection[str]) -> tuple[list[N], list[tuple[Node, str, Node]]]:
    """Read the matches of a Java-shaped ``definitions.scm``: each ``@def.<kind>`` capture is a declaration
    node that ``make(kind, node)`` turns into records; a match capturing ``@heritage`` (a type) with
    ``@base`` or ``@implements`` (a type it names) is what the type extends or implements. Returns the
    definitions sorted by (start byte, end byte descending, ``index``) and nested (:func:`nest` with
    ``containers``), and the heritage as ``(type node, "base" | "implements", named type node)`` in
    match order."""
    pending: list[N] = []
    heritage: list[tuple[Node, str, Node]] = []
    for _, m in matches:
        if "heritage" in m:
            key = "base" if "base" in m else "implements"
            heritage.append((m["heritage"][0], key, m[key][0]))
            continue
        for cap, nodes in m.items():
            if cap.startswith("def."):
                pending.extend(make(cap[4:], nodes[0]))
    pending.sort(key=lambda d: (d.node.start_byte, -d.node.end_byte, d.index))
    nest(pending, containers)
    return pending, heritage


def nest(defs: Sequence[Nested], containers: Collection[str]) -> None:
    """Give each of ``defs`` (sorted by start byte, outer before inner) its ``parent_def``, its
    record's ``parent`` and ``qualname`` (``Outer.Inner.name``), and an enum constant the enum's
    name as ``field_type``; only definitions whose kind is in ``containers`` hold others. One
    sweep with a stack: ``O(n)`` over the sorted definitions."""
    stack: list[Nested] = []
    for d in defs:
        start = d.node.start_byte
        while stack and stack[-1].node.end_byte <= start:
            stack.pop()
        parent = stack[-1] if stack else None
        d.parent_def = parent
        d.rec.parent = parent.rec.qualname if parent else None
        d.rec.qualname = f"{parent.rec.qualname}.{d.rec.name}" if parent else d.rec.name
        if d.node.type == "enum_constant" and parent is not None:
            d.rec.field_type = parent.rec.name
        if d.rec.kind in containers:
            stack.append(d)


def code_scope(d: Nested | None) -> str | None:
    """Qualname of the method / constructor / class whose code holds a position owned by ``d``: a
    field's initialiser runs in its class; ``None`` outside every definition."""
    if d is None:
        return None
    return d.rec.parent if d.rec.kind == "field" else d.rec.qualname


def doc_comment(src: SourceText, node: Node) -> str | None:
    """The ``/** ... */`` comment right before ``node`` (its previous named sibling), without the
    delimiters and each line's leading ``*``, stripped; ``None`` when there is none, it is a plain
    ``/* */`` or ``/**/`` comment, or it holds nothing."""
    prev = node.prev_named_sibling
    if prev is None or prev.type != "block_comment":
        return None
    text = src.text(prev)
    if not text.startswith("/**") or text.startswith("/**/"):
        return None
    lines = [ln.strip() for ln in text[3:-2].splitlines()]
    doc = "\n".join(ln[1:].strip() if ln.startswith("*") else ln for ln in lines).strip()
    return doc or None


def chain_receiver(src: SourceText, node: Node, cache: dict[int, str],
                   head: Callable[[Node], str | None] | None = None) -> str:
    """Normalised receiver text of ``node``: ``this.repo``, ``a.b()`` for a call, ``new Foo()`` for
    an object creation, generics and whitespace dropped.

    A chain ``a.b().c().d()`` (``method_invocation`` / ``field_access`` links on their ``object``
    field) is unrolled iteratively and each link is memoised in ``cache`` (node id -> text), so a long
    builder chain costs linear time over all its calls and no recursion depth. The expression the
    chain starts from is read by ``head`` first (a language's own form, Java's cast ``(Owner)``; it
    returns ``None`` when it does not apply). A receiver longer than :data:`MAX_RECEIVER_CHARS` is
    :data:`~indexer.model.LONG_RECEIVER` (unknown), and so is every link above it: keeping each
    link's whole prefix would cost memory quadratic in the chain (20 GB for a 400 KB file)."""
    chain: list[Node] = []
    cur: Node | None = node
    while cur is not None and cur.id not in cache and cur.type in _CHAIN:
        chain.append(cur)
        cur = cur.child_by_field_name("object")
    if cur is None:
        prefix = ""
    elif cur.id in cache:
        prefix = cache[cur.id]
    else:
        own = head(cur) if head is not None else None
        if own is not None:
            prefix = own
        elif cur.type == "object_creation_expression":
            # `new Foo<>(x).bar()`: the receiver is written `new Foo()` (the type is what matters).
            prefix = f"new {drop_generics(_RECEIVER_WS.sub('', src.text(cur.child_by_field_name('type'))))}()"
        elif cur.end_byte - cur.start_byte > MAX_RECEIVER_CHARS:
            prefix = LONG_RECEIVER  # not even read: a receiver that long is unknown anyway
        else:
            prefix = drop_generics(_RECEIVER_WS.sub("", src.text(cur)))
            if len(prefix) > MAX_RECEIVER_CHARS:
                prefix = LONG_RECEIVER
        cache[cur.id] = prefix
    for link in reversed(chain):
        if prefix != LONG_RECEIVER:
            if link.type == "method_invocation":
                part = src.text(link.child_by_field_name("name")) + "()"
            else:
                part = src.text(link.child_by_field_name("field"))
            prefix = f"{prefix}.{part}" if prefix else part
            if len(prefix) > MAX_RECEIVER_CHARS:
                prefix = LONG_RECEIVER
        cache[link.id] = prefix
    return prefix


def ancestors(root: Node, node: Node) -> list[Node] | None:
    """The nodes holding ``node`` in the tree of ``root``, innermost first (``node``'s parent, ...,
    ``root``), found by one descent from ``root`` (a :class:`tree_sitter.TreeCursor` going to the child
    that holds ``node``'s bytes at each level): a cost linear in ``node``'s depth. Walking up
    ``Node.parent`` costs that depth at every step (tree-sitter finds a parent by descending from the
    root), its square in all: 5 s for a call 3,000 deep. ``None`` when the descent does not reach
    ``node`` (a zero-width node, a node of another tree): walk ``Node.parent`` then."""
    out: list[Node] = []
    cursor = root.walk()
    start, end = node.start_byte, node.end_byte
    for _ in range(MAX_TREE_DEPTH * 4 + 1_000_000):  # a tree is finite: the bound is a guard, never reached
        here = cursor.node
        if here is None:
            return None
        if here.id == node.id:
            out.reverse()
            return out
        out.append(here)
        if cursor.goto_first_child_for_byte(start) is None:
            return None
        while not (cursor.node.start_byte <= start and cursor.node.end_byte >= end and cursor.node.end_byte > cursor.node.start_byte):
            if not cursor.goto_next_sibling():
                return None
    return None


NEAR_PARENTS = 64
"""Nodes :func:`around` walks out by ``Node.parent`` before it finds the rest by one descent."""


def around(root: Node, node: Node) -> Iterator[Node]:
    """The nodes holding ``node`` in the tree of ``root``, innermost first, lazily: the first
    :data:`NEAR_PARENTS` by ``Node.parent``, the rest from one :func:`ancestors` descent. What an upward
    walk (``n = n.parent`` until a function or class) should iterate: each ``Node.parent`` costs the
    node's depth (tree-sitter finds a parent from the root), so a walk out of a call 3,000 links down a
    chain cost its square, and a walk per call of the chain its cube; this costs the depth once past
    the near nodes, which an ordinary walk never leaves."""
    cur = node.parent
    for _ in range(NEAR_PARENTS):
        if cur is None:
            return
        yield cur
        cur = cur.parent
    if cur is None:
        return
    rest = ancestors(root, node)
    if rest is not None:
        yield from rest[NEAR_PARENTS:]
        return
    while cur is not None:  # a node the descent cannot reach (zero width): the walk as before
        yield cur
        cur = cur.parent


class Innermost:
    """The innermost node of one of ``types`` holding a node of the tree of ``root`` (``None`` when a node
    of a ``stop`` type or the root comes first), for many nodes of one tree: each walk out
    (:func:`around`) remembers its answer for every node it passed, so the calls of one chain, each
    a link inside the next, walk out once between them, not once each."""

    def __init__(self, root: Node, types: Collection[str], stop: Collection[str] = ()) -> None:
        self.root, self.types, self.stop = root, types, stop
        self._memo: dict[int, Node | None] = {}

    def of(self, node: Node) -> Node | None:
        """The innermost node of :attr:`types` strictly holding ``node``."""
        walked, found = [node.id], None
        for n in around(self.root, node):
            if n.type in self.types:
                found = n
                break
            if n.id in self._memo:  # not one of the types: what holds it holds ``node``
                found = self._memo[n.id]
                break
            if n.type in self.stop:
                break
            walked.append(n.id)
        for i in walked:
            self._memo[i] = found
        return found
