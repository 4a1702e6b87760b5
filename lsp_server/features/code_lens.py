"""textDocument/codeLens ("N callers · M endpoints" above each method, function and class: direct
callers and the endpoints of its blast radius), resolved lazily by codeLens/resolve; the client is
asked to refresh them when an index run ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_server.features.hover import impact_of
from analysis.impact_report import summary_text
from analysis.navigation import CALLABLE_LABELS, TYPE_LABELS

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES", "COMMANDS", "SHOW_CALLERS", "MAX_LENSES", "MAX_ID_BYTES"]

MAX_LENSES = 1000
"""Code lenses per document: its first definitions in source order."""

MAX_ID_BYTES = 1 << 20
"""Node ids (the lenses' ``data``) per document, in bytes: a deeply nested definition's id holds
every enclosing name, so ids can grow with the square of the nesting; lenses stop at this budget."""

SHOW_CALLERS = "ripple.showCallers"
"""The lens's command: arguments ``[uri, position]``; editors map it to their call-hierarchy view."""


def code_lens(ls: RippleServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    """One unresolved lens per callable and type of the document (``data`` holds the node id), at
    most :data:`MAX_LENSES` and :data:`MAX_ID_BYTES` of ids."""
    repo, path = ls.locate(params.text_document.uri)
    conv = ls.converter()
    lenses: list[types.CodeLens] = []
    budget = MAX_ID_BYTES
    for n in ls.graph().nodes_in_file(repo, path):
        if n.label not in (*CALLABLE_LABELS, *TYPE_LABELS):
            continue
        budget -= len(n.id)
        if len(lenses) == MAX_LENSES or budget < 0:
            break
        lenses.append(types.CodeLens(conv.selection_range(n), data={"id": n.id}))
    return lenses


def resolve(ls: RippleServer, lens: types.CodeLens) -> types.CodeLens:
    """Summarise the blast radius of the lens's node (a node gone since: no callers, no endpoints)."""
    node_id = lens.data.get("id") if isinstance(lens.data, dict) else getattr(lens.data, "id", None)
    node = ls.graph().get_nodes([node_id]).get(node_id) if isinstance(node_id, str) else None
    title = summary_text(impact_of(ls, node)) if node is not None else "0 callers · 0 endpoints"
    uri = ls.converter().text(node.repo, node.file).uri if node is not None else ""
    lens.command = types.Command(title=title, command=SHOW_CALLERS, arguments=[uri, lens.range.start])
    return lens


def show_callers(ls: RippleServer, *args: object) -> None:
    """No-op on the server: the client shows its call hierarchy at the lens's position."""
    return None


FEATURES = [
    (types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=True), code_lens),
    (types.CODE_LENS_RESOLVE, None, resolve),
]
COMMANDS = [(SHOW_CALLERS, show_callers)]
