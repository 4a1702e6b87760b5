"""Kotlin framework detectors: one module per framework family, registered in :data:`DETECTOR_MODULES`.

``common`` holds what they share; the rules Kotlin shares with Java (annotation vocabularies, Spring
path composition) are in :mod:`indexer.frameworks.jvm`. The detector protocol and the runner are
language-neutral (:mod:`indexer.frameworks`).
"""

from __future__ import annotations

import functools
from types import ModuleType

from indexer.frameworks import load_detectors

__all__ = ["DETECTOR_MODULES", "detectors_for"]

DETECTOR_MODULES: tuple[str, ...] = (
    "spring_web",
    "spring_kafka",
    "ktor",
    "kotlin_http_clients",
    "openapi_generated",
    "kotlin_jdbc",
    "kotlin_constants",
    "kafka_clients",
    "kafka_streams",
    "url_builders",
    "arg_calls",
)
"""Modules of this package, each exposing ``LANGUAGES`` and ``detect``, in the order they run."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    return load_detectors(__name__, DETECTOR_MODULES, language)
