"""The "module system" of content files: they import, export and call nothing."""

from __future__ import annotations

from indexer.content.pieces import CONTENT_LANGUAGES
from indexer.resolve.language import UnboundModuleSystem

__all__ = ["MODULE_SYSTEM", "ContentModuleSystem"]


class ContentModuleSystem(UnboundModuleSystem):
    """The :class:`~indexer.resolve.language.ModuleSystem` of documentation and configuration files
    (SQL files belong to :mod:`indexer.languages.sql`, whose extractor reads their tables; their
    ``sql`` chunks are still cut here, by language)."""

    languages = CONTENT_LANGUAGES - {"sql"}
    namespace = "content"


MODULE_SYSTEM = ContentModuleSystem()
