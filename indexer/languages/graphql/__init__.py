"""GraphQL schema files (``.graphql`` / ``.graphqls``): extractor and queries.

A schema file is not a programming language: it declares the operations a GraphQL server answers, as
an OpenAPI document declares HTTP endpoints. It still lives here, as a language folder, because it is
read like source code: one file at a time, by a tree-sitter grammar (bundled in
tree-sitter-language-pack), with its rules as queries, cached, chunked for search and kept current
by the incremental run like any other file (a configuration file read by the linker, as Spring's
``application.yml`` is, would be read whole on every run and invisible to search). Its module system
(:mod:`indexer.languages.graphql.modules`) has no imports and no calls.

``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.graphql.extractor import EXTRACTOR

__all__ = ["EXTRACTOR", "EXTRACTORS"]

EXTRACTORS = (EXTRACTOR,)
