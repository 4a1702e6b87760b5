"""The language registry: one package per language (or language family) under this folder.

Each package (``python/``, ``java/``, ``ecmascript/``) holds everything that knows its language: it
exposes ``EXTRACTORS`` (this module maps file suffixes to them) and its ``modules`` submodule exposes
``MODULE_SYSTEM`` (the :class:`~indexer.resolve.language.ModuleSystem` the resolver core plugs in). Adding a language is one new folder
plus one line in :data:`LANGUAGE_MODULES` (see ARCHITECTURE.md, "Adding a language").
"""

from __future__ import annotations

import functools
import importlib

from typing import TYPE_CHECKING

from indexer.languages.base import Extractor

if TYPE_CHECKING:
    from indexer.resolve.language import ModuleSystem

__all__ = ["LANGUAGE_MODULES", "extractor_for_path", "extractors", "language_names", "module_systems"]

# language (family) -> its package under indexer.languages (``EXTRACTORS``, ``modules.MODULE_SYSTEM``).
LANGUAGE_MODULES: dict[str, str] = {
    "python": "indexer.languages.python",
    "java": "indexer.languages.java",
    "ecmascript": "indexer.languages.ecmascript",  # typescript and javascript
    "graphql": "indexer.languages.graphql",  # schema files (.graphql / .graphqls): see its docstring
    "proto": "indexer.languages.proto",  # Protocol Buffers (.proto): see its docstring
    "go": "indexer.languages.go",  # Go (.go) and go.mod
    "csharp": "indexer.languages.csharp",
    "apex": "indexer.languages.apex",  # Salesforce Apex (.cls, .trigger)
    "aura": "indexer.languages.aura",  # Salesforce Aura component markup (.cmp, .app): see its docstring
    "content": "indexer.content",  # docs, configuration and SQL, claimed by path: see its docstring
    "kotlin": "indexer.languages.kotlin",  # shares Java's package namespace (indexer.resolve.language.JvmModuleSystem)
    "sql": "indexer.languages.sql",  # database schemas (.sql scripts, .prisma): see its docstring
}


@functools.cache
def extractors() -> dict[str, Extractor]:
    """``{suffix: extractor}`` for every registered language (modules imported on first use)."""
    table: dict[str, Extractor] = {}
    for module in LANGUAGE_MODULES.values():
        found: tuple[Extractor, ...] = importlib.import_module(module).EXTRACTORS
        for ex in found:
            for ext in ex.extensions:
                table[ext] = ex
    return table


def language_names() -> list[str]:
    """The sorted names of every registered language (``["java", "javascript", ...]``), as chunks and
    File nodes carry them; imports every language package on first use (about 0.2 s)."""
    from indexer.content import CONTENT_EXTRACTORS

    claimed = {ex.language for m in LANGUAGE_MODULES.values() for ex in getattr(importlib.import_module(m), "CLAIMED", ())}
    return sorted({ex.language for ex in extractors().values()} | claimed | set(CONTENT_EXTRACTORS))


def extractor_for_path(path: str) -> Extractor | None:
    """The extractor claiming ``path``'s suffix (``.d.ts`` is claimed by TypeScript), else the one a
    language package claims it with by path (a Liquibase change log), else the one of a
    documentation, configuration or SQL file (by its name and folders,
    :func:`indexer.content.content_extractor`), or ``None``. ``path`` is repository-relative."""
    from indexer.content import content_extractor

    lower = path.lower()
    dot = lower.rfind(".")
    found = extractors().get(lower[dot:]) if dot >= 0 and "/" not in lower[dot:] else None
    if found is None:
        found = _path_claim(path)
    return found if found is not None else content_extractor(path)


def _path_claim(path: str) -> Extractor | None:
    """The extractor a language package claims ``path`` with by name and folders (its optional
    ``claim(path)``: Liquibase change logs in the ``sql`` package), else ``None``."""
    for module in LANGUAGE_MODULES.values():
        claim = getattr(importlib.import_module(module), "claim", None)
        found = claim(path) if claim is not None else None
        if found is not None:
            return found
    return None


@functools.cache
def module_systems() -> dict[str, ModuleSystem]:
    """``{language name: module system}`` for every registered language: each package's
    ``modules.MODULE_SYSTEM`` (imported on first use), what the resolver core plugs in."""
    table: dict[str, ModuleSystem] = {}
    for module in LANGUAGE_MODULES.values():
        ms: ModuleSystem = importlib.import_module(f"{module}.modules").MODULE_SYSTEM
        for lang in sorted(ms.languages):
            table[lang] = ms
    return table
