"""textDocument/hover on a method, function or class: its signature and impact summary (call sites,
direct callers, callers within :attr:`lsp_server.server.RippleServer.hops` hops)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from stores.navigation import CALLABLE_LABELS, TYPE_LABELS, Impact, dotted_name, impact

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES", "markdown"]


def markdown(summary: Impact, hops: int) -> str:
    """The hover text of an impact summary."""
    node = summary.node
    signature = node.props.get("signature") or f"{node.label.lower()} {node.name}"
    lines = [f"```\n{signature}\n```", f"`{dotted_name(node)}` · {node.repo}", ""]
    if not summary.call_sites:
        lines.append("**Impact:** no known callers")
    else:
        lines.append(f"**Impact:** {_n(summary.call_sites, 'call site')} from {_n(summary.direct_callers, 'direct caller')}; "
                     f"{_n(summary.transitive_callers, 'caller')} within {hops} hops "
                     f"({' / '.join(str(n) for n in summary.callers_by_hop)} by hop)")
    return "\n".join(lines)


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def hover(ls: RippleServer, params: types.HoverParams) -> types.Hover | None:
    """Impact summary of the symbol at the cursor."""
    cur = ls.at_cursor(params.text_document.uri, params.position)
    nodes = [n for n in cur.symbols if n.label in (*CALLABLE_LABELS, *TYPE_LABELS)] if cur else []
    if not cur or not nodes:
        return None
    text = "\n\n---\n\n".join(markdown(impact(cur.graph, n, ls.hops), ls.hops) for n in nodes[:3])
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text), cur.conv.word_range(cur.repo, cur.path, *cur.at))


FEATURES = [(types.TEXT_DOCUMENT_HOVER, None, hover)]
