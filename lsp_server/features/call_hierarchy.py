"""textDocument/prepareCallHierarchy, callHierarchy/incomingCalls and callHierarchy/outgoingCalls,
across every indexed repository; follow-ups re-resolve the item from the node id in ``data``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from analysis.navigation import CALLABLE_LABELS, TYPE_LABELS, incoming_calls, innermost_callable, outgoing_calls
from analysis.reached_through import incoming_through

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES"]


def prepare(ls: RippleServer, params: types.CallHierarchyPrepareParams) -> list[types.CallHierarchyItem] | None:
    """The callables (and classes: their constructors' callers) named at the cursor; where no
    identifier names one (a parameter, a keyword or a local in a body), the innermost callable
    around the cursor."""
    cur = ls.at_cursor(params.text_document.uri, params.position)
    if cur is None:
        return None
    items = [cur.conv.call_item(n) for n in cur.symbols if n.label in (*CALLABLE_LABELS, *TYPE_LABELS)]
    if not items:
        line, col = cur.at[0], cur.at[1]
        around = innermost_callable(cur.graph, cur.repo, cur.path, line, col)
        items = [cur.conv.call_item(around)] if around is not None else []
    return items or None


def incoming(ls: RippleServer, params: types.CallHierarchyIncomingCallsParams) -> list[types.CallHierarchyIncomingCall]:
    """Callers of the item, ``fromRanges`` = their call sites; then the clients and producers reaching it
    through the endpoints and topics it serves or consumes (a handler's callers in other services:
    :func:`analysis.reached_through.incoming_through`), each item's detail ending ``through NAME``."""
    node = ls.node_of(params.item)
    if node is None:
        return []
    conv, graph = ls.converter(), ls.graph()
    direct = [conv.incoming_call(g, node) for g in incoming_calls(graph, node)]
    return direct + [conv.incoming_through(g, entry) for entry, g in incoming_through(graph, node)]


def outgoing(ls: RippleServer, params: types.CallHierarchyOutgoingCallsParams) -> list[types.CallHierarchyOutgoingCall]:
    """Callees of the item, ``fromRanges`` = the call sites in its body."""
    node = ls.node_of(params.item)
    if node is None:
        return []
    conv = ls.converter()
    return [conv.outgoing_call(g, node) for g in outgoing_calls(ls.graph(), node)]


FEATURES = [
    (types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY, None, prepare),
    (types.CALL_HIERARCHY_INCOMING_CALLS, None, incoming),
    (types.CALL_HIERARCHY_OUTGOING_CALLS, None, outgoing),
]
