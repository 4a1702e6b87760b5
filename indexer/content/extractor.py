"""The extractor of content files: a :class:`~indexer.model.FileExtraction` with no records (the
chunk stage reads their text, :func:`indexer.content.content_chunks`)."""

from __future__ import annotations

from indexer.content.pieces import CONTENT_LANGUAGES
from indexer.model import FileExtraction

__all__ = ["ContentExtractor", "CONTENT_EXTRACTORS"]


class ContentExtractor:
    """:class:`~indexer.languages.base.Extractor` of one content language; claims no suffix."""

    extensions: tuple[str, ...] = ()

    def __init__(self, language: str) -> None:
        self.language = language

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """An empty extraction of ``path`` (never raises)."""
        return FileExtraction(path=path, language=self.language)


CONTENT_EXTRACTORS = {lang: ContentExtractor(lang) for lang in sorted(CONTENT_LANGUAGES)}
"""language -> its extractor."""
