"""Framework detection, the language-neutral part: the detector protocol, running detectors, and
(:mod:`indexer.frameworks.link`) joining their facts across files.

The detectors themselves are tree-sitter rules of one language each and live in that language's
folder (``indexer/languages/<language>/frameworks/``), which lists them in its ``DETECTOR_MODULES``.
A detector module exposes ``LANGUAGES`` (the ripplegraph language names it reads) and
``detect(root, src, out)``: given a file's tree-sitter root node, its :class:`~indexer.languages.base.SourceText`
and the :class:`~indexer.model.FileExtraction` the language extractor just filled, it appends
:class:`~indexer.model.Route`, :class:`~indexer.model.Router`, :class:`~indexer.model.Mount`,
:class:`~indexer.model.HttpCall`, :class:`~indexer.model.TopicUse` and
:class:`~indexer.model.StringConstant` records to ``out``. Detectors see one file; joining across files
(router prefixes, constants, ``${...}`` placeholders from configuration) is
:mod:`indexer.frameworks.link`'s job.

GraphQL documents embedded in code or written in ``.graphql`` files are read by one language-neutral
reader (:mod:`indexer.frameworks.graphql_documents`); its functions are re-exported here, the surface
language folders may import. So are the rules the JVM languages (Java, Kotlin) share
(:mod:`indexer.frameworks.jvm`: Spring's annotation vocabularies and path composition).

Extractors call :func:`run_detectors` at the end of ``extract``. A detector that fails costs its
facts for that file (an ``errors`` entry), never the file's extraction.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from indexer.frameworks.arg_call_rule import MAX_PER_FILE as ARG_CALLS_PER_FILE, arg_call, parameter_names, reassigned
from indexer.frameworks.env_config import ENV_READ
from indexer.frameworks.graphql_documents import (
    DOCUMENTS_FRAMEWORK,
    LOOKS_LIKE_GRAPHQL,
    document_of,
    operation_qualname,
    parse_tree,
)
from indexer.frameworks.jvm import (
    CTOR_INJECT,
    FIELD_INJECT,
    GENERATED_API,
    HTTP_METHODS,
    KAFKA_CLIENTS_PACKAGE,
    KAFKA_CONSUMERS,
    KAFKA_LISTENERS,
    KAFKA_PRODUCERS,
    KAFKA_STREAMS_PACKAGE,
    KAFKA_STREAMS_SINKS,
    KAFKA_STREAMS_SOURCES,
    KAFKA_STREAMS_TYPES,
    KAFKA_TEMPLATES,
    MAPPINGS,
    RETROFIT_VERBS,
    STEREOTYPES,
    URI_BUILDER_KEEPS,
    URI_BUILDER_ROOTS,
    URI_BUILDERS,
    VERB_MAPPINGS,
    annotation_name,
    is_controller,
    join_path,
    rooted,
)
from indexer.frameworks.sql_text import declared_tables, looks_like_sql
from indexer.frameworks.ui_templates import template_calls
from indexer.frameworks.url_builder_rule import builder_from, call_piece, returned_values
from indexer.model import FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["ARG_CALLS_PER_FILE", "CTOR_INJECT", "DOCUMENTS_FRAMEWORK", "ENV_READ", "FIELD_INJECT", "GENERATED_API", "HTTP_METHODS",
           "KAFKA_CLIENTS_PACKAGE", "KAFKA_CONSUMERS", "KAFKA_LISTENERS", "KAFKA_PRODUCERS", "KAFKA_STREAMS_PACKAGE",
           "KAFKA_STREAMS_SINKS", "KAFKA_STREAMS_SOURCES", "KAFKA_STREAMS_TYPES", "KAFKA_TEMPLATES",
           "LOOKS_LIKE_GRAPHQL", "MAPPINGS", "RETROFIT_VERBS", "STEREOTYPES", "URI_BUILDERS", "URI_BUILDER_KEEPS", "URI_BUILDER_ROOTS",
           "VERB_MAPPINGS", "annotation_name", "arg_call",
           "builder_from", "call_piece", "declared_tables", "document_of", "is_controller", "join_path", "load_detectors",
           "looks_like_sql", "operation_qualname", "parameter_names", "reassigned",
           "parse_tree", "returned_values", "rooted", "run_detectors", "template_calls"]


def load_detectors(package: str, names: Iterable[str], language: str) -> tuple[ModuleType, ...]:
    """The modules ``package.<name>`` for ``names`` (imported now) that read ``language``, in order."""
    mods = (importlib.import_module(f"{package}.{name}") for name in names)
    return tuple(m for m in mods if language in m.LANGUAGES)


def run_detectors(detectors: Sequence[ModuleType], root: Node, src: SourceText, out: FileExtraction) -> None:
    """Run ``detectors`` (detector modules) over one parsed file, appending facts to ``out``.

    Never raises: a detector's exception becomes an ``errors`` entry naming the detector."""
    for mod in detectors:
        try:
            mod.detect(root, src, out)
        except Exception as exc:  # noqa: BLE001 - a detector bug costs its facts, not the file
            out.errors.append(f"0:0: detector {mod.__name__} failed: {type(exc).__name__}: {exc}")
