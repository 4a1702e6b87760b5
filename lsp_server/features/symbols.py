"""workspace/symbol (camelCase-aware, every indexed repository) and textDocument/documentSymbol."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from analysis.navigation import document_symbols

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES", "LIMIT", "MAX_DOCUMENT_SYMBOLS", "MAX_DEPTH"]

LIMIT = 100
"""Workspace symbols per answer (clients filter further as the user types)."""

MAX_DOCUMENT_SYMBOLS = 5000
"""Document symbols per answer: the file's first definitions in source order."""

MAX_DEPTH = 32
"""Nesting levels of document symbols; a definition nested deeper is listed under its ancestor at
the last level (the answer stays bounded whatever the file's nesting)."""


def workspace_symbol(ls: RippleServer, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
    """Symbols whose name matches the query (rule: :meth:`stores.contracts.GraphStore.search_symbols`)
    that have a place in a file: nodes found without one (a SQL table or column, an HTTP endpoint, a
    topic: ``file`` empty, line 0) are left out; an LSP location cannot name them (their line -1 made
    the whole answer an internal error)."""
    conv = ls.converter()
    found = ls.graph().search_symbols(params.query, LIMIT)
    if any(not n.file for n in found):
        found = [n for n in ls.graph().search_symbols(params.query, 4 * LIMIT) if n.file][:LIMIT]
    return [conv.symbol_information(n) for n in found]


def document_symbol(ls: RippleServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    """The document's definitions, nested by qualified name (at most :data:`MAX_DOCUMENT_SYMBOLS`,
    :data:`MAX_DEPTH` levels deep)."""
    repo, path = ls.locate(params.text_document.uri)
    conv = ls.converter()
    trees = document_symbols(ls.graph(), repo, path, max_depth=MAX_DEPTH, limit=MAX_DOCUMENT_SYMBOLS)
    return [conv.document_symbol(t) for t in trees]


FEATURES = [
    (types.WORKSPACE_SYMBOL, None, workspace_symbol),
    (types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, document_symbol),
]
