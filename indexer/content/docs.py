"""Documentation split by section: Markdown (by markdown-it-py's parse: ATX and setext headings,
never a ``#`` inside a fenced block), reStructuredText (a title line under, and optionally over, a
line of one punctuation character at least as long) and AsciiDoc (``=`` to ``======`` titles outside
``----`` / ``....`` delimited blocks).

Every heading starts a section that runs to the next heading of any level; its chunk is named by the
heading's title and starts with the titles above it (``Install > From source``), so a search for the
page's subject finds its subsections. Text before the first heading is a section named by the file.
"""

from __future__ import annotations

import posixpath
import re

from indexer.content.pieces import Piece, windows

__all__ = ["sections", "headings"]

_RST_ADORN = re.compile(r"([=\-`:'\"~^_*+#<>.!$%&,/;?@\\|])\1{2,}\s*")
_ADOC_TITLE = re.compile(r"(={1,6}|#{1,6})\s+(\S.*?)\s*=*\s*")
_ADOC_FENCE = re.compile(r"(-{4,}|\.{4,}|`{3,}|\+{4,}|/{4,}|_{4,}|={4,})\s*")


def headings(language: str, lines: list[str]) -> list[tuple[int, int, str]]:
    """``[(line, level, title)]`` of a document's headings, 1-based lines, in order."""
    if language == "markdown":
        return _markdown(lines)
    if language == "asciidoc":
        return _asciidoc(lines)
    return _rst(lines)


def sections(path: str, language: str, text: str) -> list[Piece]:
    """The sections of one document (see the module docstring) as pieces of at most
    :data:`indexer.content.pieces.SECTION_LINES` lines."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    found = headings(language, lines)
    out: list[Piece] = []
    first = found[0][0] if found else len(lines) + 1
    if first > 1:
        out += windows(posixpath.basename(path), lines, 1, first - 1)
    trail: list[tuple[int, str]] = []
    for i, (line, level, title) in enumerate(found):
        end = found[i + 1][0] - 1 if i + 1 < len(found) else len(lines)
        trail = [t for t in trail if t[0] < level] + [(level, title)]
        crumbs = " > ".join(t for _, t in trail)
        for j, piece in enumerate(windows(title, lines, line, end)):
            piece.text = (crumbs + "\n" + piece.text) if j == 0 and len(trail) > 1 else piece.text
            out.append(piece)
    return out


def _markdown(lines: list[str]) -> list[tuple[int, int, str]]:
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse("\n".join(lines))
    out = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map is not None:
            title = tokens[i + 1].content.strip() if i + 1 < len(tokens) else ""
            out.append((tok.map[0] + 1, int(tok.tag[1]), title or "(untitled)"))
    return out


def _rst(lines: list[str]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    styles: list[tuple[str, bool]] = []  # adornment styles in order of appearance = levels
    i = 0
    n = len(lines)
    while i < n - 1:
        title, under = lines[i], lines[i + 1]
        over = i > 0 and _RST_ADORN.fullmatch(lines[i - 1]) is not None
        m = _RST_ADORN.fullmatch(under)
        if (m and title.strip() and not _RST_ADORN.fullmatch(title) and not title.startswith((" ", "\t", ".. "))
                and len(under.rstrip()) >= len(title.rstrip())):
            style = (m.group(1), over and lines[i - 1].strip()[:1] == m.group(1))
            if style not in styles:
                styles.append(style)
            start = i if style[1] else i + 1  # an overlined title starts at its overline
            out.append((start, styles.index(style) + 1, title.strip()))
            i += 2
            continue
        i += 1
    return out


def _asciidoc(lines: list[str]) -> list[tuple[int, int, str]]:
    out = []
    fence: str | None = None
    for i, line in enumerate(lines, 1):
        f = _ADOC_FENCE.fullmatch(line)
        if f:
            fence = None if fence == f.group(1) else (fence or f.group(1))
            continue
        if fence is None:
            m = _ADOC_TITLE.fullmatch(line)
            if m:
                out.append((i, len(m.group(1)), m.group(2)))
    return out
