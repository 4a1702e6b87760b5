"""textDocument/hover on a method, function or class: its signature and blast-radius summary, in the
numbers and words of the ``ripple impact`` report; on an entity class or a schema file's ``CREATE
TABLE``, also the table's summary (columns, who reads and writes it: :func:`analysis.tables.table_summary`).
The blast-radius part, in the
numbers and words of the ``ripple impact`` report (same defaults: tests apart, a call site bound to an
interface and its implementations counted once): "N callers · M endpoints", call sites, nodes by hop within
:attr:`lsp_server.server.RippleServer.hops` hops, the endpoints reached)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from stores.contracts import Node
from analysis.services import service_map
from analysis.impact import BlastRadius, NodesQuery, blast_radius, count_noun
from analysis.impact_report import code_block, code_span, markdown_text, summary_text
from analysis.navigation import CALLABLE_LABELS, TYPE_LABELS, dotted_name
from analysis.tables import tables_declared_at, table_summary

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES", "markdown", "impact_of"]

_ENDPOINTS_SHOWN = 5


def impact_of(ls: RippleServer, node: Node) -> BlastRadius:
    """The blast radius of ``node`` as hover and code lens summarise it (``ls.hops`` deep; the
    service map of ``$RIPPLE_SERVICES``, ignored when malformed)."""
    try:
        services = service_map()
    except ValueError:
        services = {}
    return blast_radius(ls.graph(), NodesQuery((node,)), depth=ls.hops, services=services)


def markdown(node: Node, report: BlastRadius) -> str:
    """The hover text of ``node`` and its blast radius (every name and path escaped:
    :func:`analysis.impact_report.code_span` / :func:`analysis.impact_report.markdown_text`)."""
    signature = node.props.get("signature") or f"{node.label.lower()} {node.name}"
    where = "" if node.props.get("module") else f" in {code_span(node.file)}"  # file-module languages
    lines = [code_block(signature), f"{code_span(dotted_name(node))}{where} · {markdown_text(node.repo)}", ""]
    head = f"**Impact:** {summary_text(report)}"
    if report.reached:
        # The report's own numbers and words (render_markdown's headline): call sites counted once
        # per place, tests apart.
        head += (f" — {count_noun(report.call_sites, 'call site')}; {count_noun(report.reached, 'node')} reached "
                 f"within {report.depth} hops ({' / '.join(f'{n:,}' for n in report.callers_by_hop)} by hop)")
    lines.append(head)
    if report.endpoints:
        shown = ", ".join(f"{code_span(f'{h.http_method} {h.shown_path}')} ({markdown_text(h.repo)}, {_n(h.hops, 'hop')})"
                          for h in report.endpoints[:_ENDPOINTS_SHOWN])
        more = f" and {len(report.endpoints) - _ENDPOINTS_SHOWN} more" if len(report.endpoints) > _ENDPOINTS_SHOWN else ""
        lines += ["", f"Endpoints: {shown}{more}"]
    if len(report.services) > 1:
        lines += ["", "Services: " + ", ".join(markdown_text(s.repo) for s in report.services)]
    return "\n".join(lines)


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def hover(ls: RippleServer, params: types.HoverParams) -> types.Hover | None:
    """Signature and blast-radius summary of the symbol at the cursor."""
    cur = ls.at_cursor(params.text_document.uri, params.position)
    nodes = [n for n in cur.symbols if n.label in (*CALLABLE_LABELS, *TYPE_LABELS)] if cur else []
    tables = tables_declared_at(cur.graph, cur.repo, cur.path, cur.at[0], nodes[:1]) if cur else []
    if not cur or not (nodes or tables):
        return None
    parts = [markdown(n, impact_of(ls, n)) for n in nodes[:3]]
    if tables:  # an entity class, or a schema file's CREATE TABLE: who reads and writes the table
        parts.append("**Tables:** " + "; ".join(markdown_text(t) for t in table_summary(cur.graph, tables)))
    text = "\n\n---\n\n".join(parts)
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text), cur.conv.word_range(cur.repo, cur.path, *cur.at))


FEATURES = [(types.TEXT_DOCUMENT_HOVER, None, hover)]
