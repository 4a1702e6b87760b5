"""Language extractors, one module per language, and the registry that maps file suffixes to them."""

from __future__ import annotations

import functools
import importlib

from indexer.languages.base import Extractor

__all__ = ["LANGUAGE_MODULES", "extractor_for_path", "extractors"]

# language -> module under indexer.languages exposing ``EXTRACTOR``.
LANGUAGE_MODULES: dict[str, str] = {
    "python": "indexer.languages.python",
    "java": "indexer.languages.java",
    "typescript": "indexer.languages.typescript",
    "javascript": "indexer.languages.javascript",
}


@functools.cache
def extractors() -> dict[str, Extractor]:
    """``{suffix: extractor}`` for every registered language (modules imported on first use)."""
    table: dict[str, Extractor] = {}
    for module in LANGUAGE_MODULES.values():
        ex: Extractor = importlib.import_module(module).EXTRACTOR
        for ext in ex.extensions:
            table[ext] = ex
    return table


def extractor_for_path(path: str) -> Extractor | None:
    """The extractor claiming ``path``'s suffix (``.d.ts`` is claimed by TypeScript), or ``None``."""
    lower = path.lower()
    dot = lower.rfind(".")
    if dot < 0:
        return None
    return extractors().get(lower[dot:])
