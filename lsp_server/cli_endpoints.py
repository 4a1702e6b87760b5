"""``ripple endpoints``: the endpoint list (route map) of the index, the command-line face of the
agents' ``endpoints`` tool and ``GET /v1/endpoints`` (one analysis:
:func:`analysis.endpoints.endpoint_list`)."""

from __future__ import annotations

import click

from analysis.endpoints import endpoint_line, endpoint_list, spans_several
from lsp_server.cli_support import branch_option, cli_store, emit_json, out, terminal_text
from stores.factory import DB_ENV

__all__ = ["endpoints"]


@click.command(name="endpoints")
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--repo", help="Only endpoints served or called by this repository.")
@click.option("--match", help="Only endpoints whose method and path, or declared route, contain TEXT (case-insensitive).")
@click.option("--limit", type=click.IntRange(1), default=200, show_default=True, help="Most endpoints listed.")
@click.option("--unserved", is_flag=True, help="Also list endpoints only called (no handler indexed: external APIs).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@branch_option
def endpoints(db: str | None, repo: str | None, match: str | None, limit: int, unserved: bool, as_json: bool,
              branch: str | None) -> None:
    """The endpoints the indexed code serves (HTTP routes, GraphQL operations, gRPC methods), by path:
    each with the method serving it (PATH:LINE, the framework), how many clients call it and the
    wrappers (filters, middleware, guards) it runs through."""
    with cli_store(db, branch, freshness=True) as store:
        found = endpoint_list(store, repo, match, limit, unserved)
    data = found.as_dict()
    if as_json:
        emit_json(data)
        return
    shown = data["endpoints"]
    several = spans_several(data)
    count = f"{len(shown)} of {found.total}" if found.left_out else f"{found.total}"
    out.print(f"{count} endpoint{'s' if found.total != 1 else ''}" + (f" matching {match!r}" if match else "")
              + (f" of repository {repo}" if repo else ""), markup=False)
    for e in shown:
        out.print(terminal_text("  " + endpoint_line(e, several)), markup=False)
    if found.left_out:
        out.print(f"{found.left_out} more beyond --limit {limit}", markup=False)
    if found.unserved and not unserved:
        out.print(f"{found.unserved} more only called (no handler indexed); --unserved lists them", markup=False)
