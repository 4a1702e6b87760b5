"""``ripple similar TARGET``: the code nearest a symbol's chunk by embedding distance (issue 22 item 6),
the command-line face of the language server's ``ripple/similar`` and the agents' ``similar`` tool."""

from __future__ import annotations

import click
from rich.markup import escape

from analysis.impact import PositionQuery, query_nodes
from analysis.targets import position_miss, target_query
from analysis.navigation import dotted_name, lookup
from lsp_server.cli_models import search_engine
from lsp_server.cli_support import Whole, branch_option, cli_stores, emit_json, err, out, terminal_text
from stores.contracts import Node, SearchFilters
from stores.embedder import MODEL_ENV, EmbedderError
from stores.factory import DB_ENV

__all__ = ["similar"]

_CODE = ("Method", "Function", "Class", "Constructor", "Interface")


def _definition(graph: object, target: str, repo: str | None) -> Node:
    """The one code definition ``target`` names (``PATH:LINE[:COL]``, a node id, a dotted name).
    Raises :class:`click.ClickException` when it names none, or several (listed, to choose with
    ``--repo`` or a qualified name)."""
    try:
        query = target_query(graph, target, repo)
    except ValueError as exc:
        raise click.ClickException(terminal_text(str(exc))) from exc
    nodes = query_nodes(graph, query) if isinstance(query, PositionQuery) else lookup(graph, target, repo)[0]
    if not nodes and isinstance(query, PositionQuery):
        raise click.ClickException(terminal_text(position_miss(graph, query)))
    code = [n for n in nodes if n.label in _CODE]
    if not code:
        raise click.ClickException(terminal_text(f"no class, method or function matches {target!r}"
                                                 + (f" in repository {repo!r}" if repo else "")))
    if len(code) > 1:
        listed = ", ".join(f"{n.id}" for n in code[:8]) + (" ..." if len(code) > 8 else "")
        raise click.ClickException(terminal_text(f"{target!r} names {len(code)} definitions ({listed}); "
                                                 "give a qualified name, a node id, PATH:LINE or --repo"))
    return code[0]


@click.command(name="similar")
@click.argument("target")
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--repo", help="Only TARGET's definitions in this repository, and only hits from it.")
@click.option("--language", help="Only hits in this language.")
@click.option("--limit", type=Whole(1, 200), default=10, show_default=True)
@click.option("--model", envvar=MODEL_ENV, help="The fastembed model the index was embedded with, if not the bundled one.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@branch_option
def similar(target: str, db: str | None, repo: str | None, language: str | None, limit: int, model: str | None,
            as_json: bool, branch: str | None) -> None:
    """Code like TARGET (Class.method, module.function, a node id, or PATH:LINE[:COL]): the chunks
    nearest its chunk by embedding distance, nearest first (the same answer as the editor's "Find
    similar code" and the agents' `similar` tool). Needs the index's embeddings (`ripple embed`)."""
    filters = SearchFilters(repo=repo, language=language)
    with cli_stores(db, branch, view=True, freshness=True) as stores:
        node = _definition(stores.graph, target, repo)
        try:
            result = search_engine(stores.graph, stores.search, model, None).similar(node.id, limit, filters)
        except EmbedderError as exc:
            raise click.ClickException(str(exc)) from exc
    if not as_json:
        out.print(f"code similar to {node.id}:", markup=False)
    if as_json:
        emit_json({"target": node.id, "notes": result.notes,
                   "hits": [{"repo": h.chunk.repo, "path": h.chunk.file, "line": h.chunk.start_line,
                             "end_line": h.chunk.end_line, "kind": h.chunk.kind, "fqn": h.node.id,
                             "name": dotted_name(h.node), "score": h.score, "callers": h.callers}
                            for h in result.hits]})
        return
    for note in result.notes:
        err.print(f"[dim]{escape(note)}[/dim]")
    if not result.hits:
        why = "with these filters" if repo or language else "(is the index embedded? `ripple embed`)"
        out.print(f"nothing similar to {node.id} {why}", markup=False)
    multi_repo = len({h.chunk.repo for h in result.hits}) > 1
    for h in result.hits:
        where = f"{h.chunk.repo}/{h.chunk.file}" if multi_repo else h.chunk.file
        out.print(f"{where}:{h.chunk.start_line}  {h.chunk.kind:<8} {dotted_name(h.node)}  {h.score:.4f}  "
                  f"callers {h.callers}", markup=False)
