"""textDocument/references: call sites, type uses, injections, uses as a value, subclasses and
overrides of the symbol at the cursor; the declarations too when the client asks (``includeDeclaration``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from analysis.navigation import references as find_references

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES"]


def references(ls: RippleServer, params: types.ReferenceParams) -> list[types.Location] | None:
    """Every reference to the symbol at the cursor, sorted by location."""
    cur = ls.at_cursor(params.text_document.uri, params.position)
    if cur is None:
        return None
    refs = find_references(cur.graph, cur.symbols, params.context.include_declaration)
    by_id = {t.id: t for t in cur.symbols}
    locations = [cur.conv.reference_location(r, by_id) for r in refs]
    # `new Owner(…)` is a type use and a constructor call at one place: one location
    return list({(loc.uri, str(loc.range)): loc for loc in locations}.values())


FEATURES = [(types.TEXT_DOCUMENT_REFERENCES, None, references)]
