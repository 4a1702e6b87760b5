"""Apex framework detectors: one module per family of platform facts, registered in
:data:`DETECTOR_MODULES`. The detector protocol and the runner are language-neutral
(:mod:`indexer.frameworks`).
"""

from __future__ import annotations

import functools
from types import ModuleType

from indexer.frameworks import load_detectors

__all__ = ["DETECTOR_MODULES", "detectors_for"]

DETECTOR_MODULES: tuple[str, ...] = (
    "platform",
    "rest",
    "callouts",
    "sobject_tables",
    "platform_events",
    "record_triggers",
)
"""Modules of this package, each exposing ``LANGUAGES`` and ``detect``, in the order they run."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    return load_detectors(__name__, DETECTOR_MODULES, language)
