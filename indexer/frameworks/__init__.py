"""Framework detectors: HTTP routes, HTTP clients and Kafka topics, one module per framework family.

A detector module exposes ``LANGUAGES`` (the ripplegraph language names it reads) and
``detect(root, src, out)``: given a file's tree-sitter root node, its :class:`~indexer.languages.base.SourceText`
and the :class:`~indexer.model.FileExtraction` the language extractor just filled, it appends
:class:`~indexer.model.Route`, :class:`~indexer.model.Router`, :class:`~indexer.model.Mount`,
:class:`~indexer.model.HttpCall`, :class:`~indexer.model.TopicUse` and
:class:`~indexer.model.StringConstant` records to ``out``. Detectors see one file; joining across files
(router prefixes, constants, ``${...}`` placeholders from configuration) is
:mod:`indexer.frameworks.link`'s job.

Extractors call :func:`run_detectors` at the end of ``extract``. A detector that fails costs its
facts for that file (an ``errors`` entry), never the file's extraction.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from indexer.model import FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["DETECTOR_MODULES", "detectors_for", "run_detectors"]

DETECTOR_MODULES: tuple[str, ...] = (
    # Python
    "fastapi",
    "flask",
    "django_urls",
    "python_http_clients",
    "python_kafka",
    "python_constants",
    # Java
    "spring_web",
    "jaxrs",
    "servlet",
    "java_http_clients",
    "spring_kafka",
    "java_constants",
    # JavaScript / TypeScript
    "express",
    "nest",
    "js_http_clients",
    "kafkajs",
    "js_constants",
)
"""Modules under :mod:`indexer.frameworks`, each exposing ``LANGUAGES`` and ``detect``."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    mods = (importlib.import_module(f"indexer.frameworks.{name}") for name in DETECTOR_MODULES)
    return tuple(m for m in mods if language in m.LANGUAGES)


def run_detectors(language: str, root: Node, src: SourceText, out: FileExtraction) -> None:
    """Run every detector of ``language`` over one parsed file, appending facts to ``out``.

    Never raises: a detector's exception becomes an ``errors`` entry naming the detector."""
    for mod in detectors_for(language):
        try:
            mod.detect(root, src, out)
        except Exception as exc:  # noqa: BLE001 - a detector bug costs its facts, not the file
            out.errors.append(f"0:0: detector {mod.__name__} failed: {type(exc).__name__}: {exc}")
