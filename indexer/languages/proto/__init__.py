"""Protocol Buffers files (``.proto``): extractor and module system.

A ``.proto`` file is not a programming language: it declares the messages and the gRPC services a
server answers, as a GraphQL schema or an OpenAPI document declares operations. It lives here, as a
language folder, because it is read like source code: one file at a time, by a tree-sitter grammar
bundled in tree-sitter-language-pack (``proto``), cached, chunked for search, its services and rpcs
symbols of their own, and kept current by the incremental run like any other file. Its module system
(:mod:`indexer.languages.proto.modules`) binds nothing (no calls); its services are framework facts
(:class:`~indexer.model.RpcService`) the linker joins to the server implementations and client stubs
the language detectors report (:mod:`indexer.frameworks.grpc`).

``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.proto.extractor import EXTRACTOR

__all__ = ["EXTRACTOR", "EXTRACTORS"]

EXTRACTORS = (EXTRACTOR,)
