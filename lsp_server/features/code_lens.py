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

__all__ = ["FEATURES", "COMMANDS", "SHOW_CALLERS"]

SHOW_CALLERS = "ripple.showCallers"
"""The lens's command: arguments ``[uri, position]``; editors map it to their call-hierarchy view."""


def code_lens(ls: RippleServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    """One unresolved lens per callable and type of the document (``data`` holds the node id)."""
    repo, path = ls.locate(params.text_document.uri)
    conv = ls.converter()
    nodes = ls.graph().nodes_in_file(repo, path)
    return [types.CodeLens(conv.selection_range(n), data={"id": n.id})
            for n in nodes if n.label in (*CALLABLE_LABELS, *TYPE_LABELS)]


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
