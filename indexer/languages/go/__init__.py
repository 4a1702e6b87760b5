"""Go: everything ripplegraph knows of the language (a minimal trial: extractor, queries, module system).

Two extractors: ``.go`` source files, and ``go.mod`` (claimed through the ``.mod`` suffix: the
registry maps suffixes only), whose module path turns import paths into package folders.
``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.go.extractor import EXTRACTOR, GOMOD_EXTRACTOR

__all__ = ["EXTRACTOR", "EXTRACTORS", "GOMOD_EXTRACTOR"]

EXTRACTORS = (EXTRACTOR, GOMOD_EXTRACTOR)
