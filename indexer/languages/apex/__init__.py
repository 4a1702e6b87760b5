"""Apex (Salesforce): classes and triggers (``.cls``, ``.trigger``): the extractor, its queries,
the module system (one org-wide namespace, case-insensitive type names) and the platform's
framework detectors (triggers, schedulers, REST resources, HTTP callouts).

``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.apex.extractor import EXTRACTOR

__all__ = ["EXTRACTOR", "EXTRACTORS"]

EXTRACTORS = (EXTRACTOR,)
