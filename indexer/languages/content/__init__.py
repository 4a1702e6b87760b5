"""Documentation, configuration and SQL files as files of the index (see :mod:`indexer.content`).

They are no programming language: nothing in them is a definition or a call. They are registered
here so that discovery indexes them (a File node each, kept current by the incremental run like any
file) and the chunk stage cuts their sections, keys and statements (:func:`indexer.content.content_chunks`).
Which files they are is decided by path (:func:`indexer.content.content_language`), not by suffix
alone, so these extractors claim no suffix: :func:`indexer.languages.extractor_for_path` asks
:func:`content_extractor` after the suffix table (a language's own extractor of ``.sql`` comes first).
"""

from __future__ import annotations

from indexer.content import content_language
from indexer.languages.content.extractor import CONTENT_EXTRACTORS, ContentExtractor

__all__ = ["EXTRACTORS", "CONTENT_EXTRACTORS", "ContentExtractor", "content_extractor"]

EXTRACTORS: tuple[ContentExtractor, ...] = ()
"""No suffix claimed (see the module docstring)."""


def content_extractor(path: str) -> ContentExtractor | None:
    """The extractor of the documentation, configuration or SQL file at ``path``, else ``None``."""
    language = content_language(path)
    return CONTENT_EXTRACTORS.get(language) if language is not None else None
