"""What the content readers share: the content languages, :class:`Piece` (a chunk to be) and
:func:`windows` (lines cut into pieces of at most :data:`SECTION_LINES`)."""

from __future__ import annotations

__all__ = ["Piece", "windows", "content_kind", "SECTION_LINES", "MAX_CHUNKS", "DOC_LANGUAGES", "CONFIG_LANGUAGES",
           "CONTENT_LANGUAGES"]

DOC_LANGUAGES = {".md": "markdown", ".markdown": "markdown", ".rst": "restructuredtext", ".adoc": "asciidoc",
                 ".asciidoc": "asciidoc"}
"""Documentation suffixes and the language their chunks carry."""
CONFIG_LANGUAGES = ("yaml", "properties", "dotenv")
"""Languages of configuration chunks."""
CONTENT_LANGUAGES = frozenset({"sql", *CONFIG_LANGUAGES, *DOC_LANGUAGES.values()})
"""Every language a content file carries."""

SECTION_LINES = 80
"""Most lines in one chunk; a longer section continues in the next chunk (same name)."""
MAX_CHUNKS = 2_000
"""Most chunks one file gives (a generated reference page or a huge values file): the rest is left out."""


def content_kind(language: str) -> str | None:
    """The chunk kind of a content language (``doc``, ``config``, ``sql``), ``None`` for code."""
    if language == "sql":
        return "sql"
    if language in CONFIG_LANGUAGES:
        return "config"
    if language in DOC_LANGUAGES.values():
        return "doc"
    return None


class Piece:
    """One chunk to be: ``name`` (section title, dotted key, table), 1-based inclusive lines, text."""

    __slots__ = ("name", "start", "end", "text")

    def __init__(self, name: str, start: int, end: int, text: str) -> None:
        self.name, self.start, self.end, self.text = name, start, end, text


def windows(name: str, lines: list[str], start: int, end: int) -> list[Piece]:
    """Lines ``start``..``end`` (1-based, inclusive) of ``lines`` as pieces of at most
    :data:`SECTION_LINES` lines, all named ``name``; blank-only windows dropped."""
    out = []
    for s in range(start, end + 1, SECTION_LINES):
        e = min(s + SECTION_LINES - 1, end)
        body = "\n".join(lines[s - 1:e]).strip("\n")
        if body.strip():
            out.append(Piece(name, s, e, body))
    return out
