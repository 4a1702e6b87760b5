"""The "module system" of content files: they import, export and call nothing."""

from __future__ import annotations

from indexer.content.pieces import CONTENT_LANGUAGES
from indexer.resolve.language import UnboundModuleSystem

__all__ = ["MODULE_SYSTEM", "ContentModuleSystem"]


class ContentModuleSystem(UnboundModuleSystem):
    """The :class:`~indexer.resolve.language.ModuleSystem` of documentation, configuration and SQL files."""

    languages = CONTENT_LANGUAGES
    namespace = "content"


MODULE_SYSTEM = ContentModuleSystem()
