"""Java: everything ripplegraph knows of the language (extractor, queries, framework detectors).

``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.java.extractor import EXTRACTOR

__all__ = ["EXTRACTOR", "EXTRACTORS"]

EXTRACTORS = (EXTRACTOR,)
