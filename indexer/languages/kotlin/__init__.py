"""Kotlin (``.kt``, ``.kts``): the extractor, its framework detectors (Spring controllers and Kafka,
Ktor routing and client, Retrofit) and the module system, which shares Java's package namespace
(:class:`indexer.resolve.language.JvmModuleSystem`) so Java and Kotlin files of one repository call each other.
``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.kotlin.extractor import EXTRACTOR

__all__ = ["EXTRACTORS"]

EXTRACTORS = (EXTRACTOR,)
