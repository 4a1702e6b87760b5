"""Chunking: cut a file into search chunks that carry their real source text.

One chunk per method, function and constructor (its full source, capped), one per class / interface
/ enum (the header and docstring up to the first member, then one line per member signature), and
``file_section`` chunks for top-level code outside every definition (windows of at most
:data:`SECTION_LINES` lines, blank-only windows dropped). A chunk's ``fqn`` is the id of the graph
node it stands for (a File id for file sections).

Documentation, configuration and SQL files (the languages of :mod:`indexer.content`) are cut by that
package instead: ``doc`` sections, ``config`` keys, ``sql`` statements.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate
from operator import attrgetter

from indexer.chunk_context import with_checksum
from indexer.content import content_chunks, content_kind
from indexer.model import CALLABLE_KINDS, TYPE_KINDS, FileExtraction
from indexer.symbols import definition_ids, file_id
from stores.contracts import Chunk

__all__ = ["MAX_CHUNK_CHARS", "SECTION_LINES", "chunk_file"]

_CHUNK_ORDER = attrgetter("start_line", "id")
"""Sort key of a file's chunks: first line, then id (read in C, no Python call per chunk)."""

MAX_CHUNK_CHARS = 6_000
"""Chunk text cap (characters); longer bodies are cut and end with a ``…`` line."""

SECTION_LINES = 60
"""Largest file section, in lines."""


def _cap(text: str) -> str:
    return text if len(text) <= MAX_CHUNK_CHARS else text[:MAX_CHUNK_CHARS] + "\n…"


class _Lines:
    """A file's lines (split on ``"\n"``, a ``"\r"`` before it dropped) joined once, with the offset
    of each line in the joined text (a prefix sum of the lengths): the text of a run of lines is one
    slice of it, not a join per definition."""

    __slots__ = ("lines", "joined", "offsets", "long")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.joined = "\n".join(lines)
        # offsets[i]: where line i starts in `joined`; offsets[len(lines)] = len(joined) + 1
        self.offsets = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
        self.long = [i for i, line in enumerate(lines) if len(line) > MAX_CHUNK_CHARS]
        """Indexes of the lines longer than the cap (minified code), in order: cut by columns."""

    def text(self, start: int, end: int, start_col: int = 0, end_col: int | None = None) -> str:
        """``"\n".join(lines[start:end])`` built only as far as the cap needs: a definition nested in
        thousands of others costs the cap, not the file (chunking stays linear in the file's size).
        The lines are taken whole up to and including the first one that brings the text past
        :data:`MAX_CHUNK_CHARS` (then :func:`_cap` marks the cut).

        A line longer than :data:`MAX_CHUNK_CHARS` (minified code: one line, many definitions) keeps
        only the definition's columns: from ``start_col`` on the first line, up to ``end_col``
        (``None``: the line's end) on the last, so each definition's chunk is its own text, not the
        line's head. Shorter lines are kept whole (indentation included)."""
        first, end_at = max(start, 0), min(end, len(self.lines))
        if first >= end_at:
            return ""
        offsets = self.offsets
        # the first line whose end passes first + cap is the last one taken
        stop = min(end_at, bisect_right(offsets, offsets[first] + MAX_CHUNK_CHARS + 1))
        long = self.long
        if long and bisect_left(long, first) < bisect_left(long, stop):
            return _cut_lines_text(self.lines, start, end, start_col, end_col)
        if stop == first + 1:
            return self.lines[first]  # one line: the line itself, as a join of one gives it (shared, not copied)
        return self.joined[offsets[first] : offsets[stop] - 1]


def _cut_lines_text(lines: list[str], start: int, end: int, start_col: int, end_col: int | None) -> str:
    """:meth:`_Lines.text` of a run with a line longer than the cap, line by line (``start`` and
    ``end`` as given, unclamped: only the lines they name themselves are cut at a column)."""
    out: list[str] = []
    size = 0
    for i in range(max(start, 0), min(end, len(lines))):
        line = lines[i]
        if len(line) > MAX_CHUNK_CHARS:
            line = line[start_col if i == start else 0 : end_col if i == end - 1 and end_col is not None else None]
        out.append(line)
        size += len(line) + 1
        if size - 1 > MAX_CHUNK_CHARS:  # the joined text is size - 1 long: past the cap, _cap marks the cut
            break
    return "\n".join(out)


def chunk_file(repo: str, product: str, extraction: FileExtraction, source: str) -> list[Chunk]:
    """Chunks of one file, in source order.

    ``source`` is the decoded file text (the extractor's lenient decoding: invalid bytes as U+FFFD).
    Lines in chunks are 1-based and inclusive.
    """
    if content_kind(extraction.language) is not None:
        return content_chunks(repo, product, extraction.path, extraction.language,
                              file_id(repo, extraction.path), source, MAX_CHUNK_CHARS)
    # Split on "\n" only, as the parser counts lines (str.splitlines also splits on form feeds,
    # U+2028 and other separators, which would shift every chunk after one).
    lines = source.split("\n")
    if "\r" in source:
        lines = [line.removesuffix("\r") for line in lines]
    if lines and lines[-1] == "":
        lines.pop()
    texts = _Lines(lines)
    # Read once: the resolver's extractions keep their definitions parked (indexer.parked), where
    # every iteration or index of the list reads the whole of it back.
    definitions = list(extraction.definitions)
    ids = definition_ids(repo, extraction, definitions)
    path, lang = extraction.path, extraction.language
    fid = file_id(repo, path)
    by_qualname = {d.qualname: i for i, d in enumerate(definitions)}
    chunks: list[Chunk] = []
    covered = [False] * (len(lines) + 2)
    children: dict[str | None, list[int]] = {}
    for i, d in enumerate(definitions):
        children.setdefault(d.parent, []).append(i)

    for i, d in enumerate(definitions):
        if d.generated:  # no text of its own: its signature is listed in its class's chunk
            continue
        parent_fqn = ids[by_qualname[d.parent]] if d.parent in by_qualname else None
        if d.kind in CALLABLE_KINDS:
            text = texts.text(d.start_line - 1, d.end_line, d.start_col, d.end_col)
            kind = "method" if d.kind in ("method", "constructor") else "function"
        elif d.kind in TYPE_KINDS:
            members = [definitions[j] for j in children.get(d.qualname, ())]
            first, first_col = min(((m.start_line, m.start_col) for m in members if not m.generated),
                                   default=(d.end_line + 1, 0))
            # the name line stays in the header even when a member starts on it (a Kotlin primary
            # constructor's properties) after decorator lines
            header_end = max(d.start_line, min(d.name_line, first), first - 1)
            header = texts.text(d.start_line - 1, header_end, d.start_col,
                                 first_col if first == header_end else d.end_col if d.end_line == header_end
                                 else None).split("\n")
            sigs = [m.signature or m.name for m in members if m.kind in CALLABLE_KINDS]
            fields = [f"{m.name}: {m.field_type}" if m.field_type else m.name for m in members if m.kind == "field"]
            text = "\n".join([*header, *fields, *sigs])
            kind = "class"
        else:
            continue
        outer = definitions[by_qualname[d.parent]] if d.parent in by_qualname else None
        if outer is None or not outer.start_line <= d.start_line <= outer.end_line:
            # top level, or outside its parent's text (a Go method beside its type): no file section
            last = min(d.end_line, len(lines))
            if last >= d.start_line:
                covered[d.start_line : last + 1] = [True] * (last + 1 - d.start_line)
        text = _cap(text)
        chunks.append(Chunk(
            id=ids[i], repo=repo, product=product, file=path, language=lang, kind=kind, name=d.name,
            fqn=ids[i], parent=parent_fqn, start_line=d.start_line, end_line=d.end_line,
            text=text, checksum="",
        ))

    for start, end in _uncovered_windows(covered, len(lines)):
        body = lines[start - 1 : end]
        if not any(line.strip() for line in body):
            continue
        text = _cap("\n".join(body))
        chunks.append(Chunk(
            id=f"{fid}#L{start}-{end}", repo=repo, product=product, file=path, language=lang,
            kind="file_section", name=path.rsplit("/", 1)[-1], fqn=fid, parent=None,
            start_line=start, end_line=end, text=text, checksum="",
        ))
    chunks.sort(key=_CHUNK_ORDER)
    return [with_checksum(c) for c in chunks]  # the digest of what is embedded: header + text



def _uncovered_windows(covered: list[bool], n_lines: int) -> list[tuple[int, int]]:
    """Runs of lines outside every top-level definition, cut into windows of SECTION_LINES."""
    windows = []
    start = None
    for n in range(1, n_lines + 2):
        inside = n <= n_lines and not covered[n]
        if inside and start is None:
            start = n
        elif not inside and start is not None:
            for s in range(start, n, SECTION_LINES):
                windows.append((s, min(s + SECTION_LINES - 1, n - 1)))
            start = None
    return windows
