"""The extractor of content files: a :class:`~indexer.model.FileExtraction` with no records (the
chunk stage reads their text, :func:`indexer.content.content_chunks`), but with what the chunk stage
will meet: a configuration file's syntax errors (``errors``, counted as files with parse errors) and
a file past the chunk cap (``partial`` ``chunk_cap``, counted as indexed in part), so neither is silent."""

from __future__ import annotations

from indexer.content.config import read as read_config
from indexer.content.docs import sections
from indexer.content.pieces import CONTENT_LANGUAGES, MAX_CHUNKS, content_kind
from indexer.content.sql import statements
from indexer.model import FileExtraction

__all__ = ["ContentExtractor", "CONTENT_EXTRACTORS"]


class ContentExtractor:
    """:class:`~indexer.languages.base.Extractor` of one content language; claims no suffix."""

    extensions: tuple[str, ...] = ()

    def __init__(self, language: str) -> None:
        self.language = language

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """The extraction of ``path``: no records; ``errors`` when a configuration file does not parse
        (the keys of the ``---`` documents before the broken one still become chunks);
        ``partial = "chunk_cap"`` when the file gives more chunks than
        :data:`indexer.content.MAX_CHUNKS` (the rest is left out). Never raises."""
        out = FileExtraction(path=path, language=self.language)
        text = source.decode("utf-8", "replace")
        kind = content_kind(self.language)
        if kind == "config":
            pieces, out.errors = read_config(path, self.language, text)
            over = len(pieces) > MAX_CHUNKS
        elif kind == "doc":
            over = len(sections(path, self.language, text)) > MAX_CHUNKS
        else:
            over = len(statements(path, text, MAX_CHUNKS + 1)) > MAX_CHUNKS
        if over:
            out.partial = "chunk_cap"
        return out


CONTENT_EXTRACTORS = {lang: ContentExtractor(lang) for lang in sorted(CONTENT_LANGUAGES)}
"""language -> its extractor."""
