"""``ripple endpoints``: the endpoint list (route map) of the index, the command-line face of the
agents' ``endpoints`` tool and ``GET /v1/endpoints`` (one analysis:
:func:`analysis.endpoints.endpoint_list`); ``ripple unlinked``: the client calls the linker could not
join to an endpoint or topic, the face of the ``unlinked`` tool and ``GET /v1/unlinked``
(:func:`analysis.unlinked.unlinked_calls`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from analysis.endpoints import endpoint_line, endpoint_list, spans_several
from analysis.unlinked import unlinked_calls, unlinked_line
from lsp_server.cli_support import Whole, branch_option, cli_store, emit_json, out, terminal_text
from stores.factory import DB_ENV

__all__ = ["endpoints", "unlinked"]


def _answer(db: str | None, branch: str | None, as_json: bool, query: Callable[[Any], Any]) -> tuple[Any, dict[str, Any]]:
    """``query`` (an analysis taking the store) run on the index (``--db``, ``--branch``; freshness
    checked) and its answer's ``as_dict()``; with ``--json`` that document printed and ``(None, data)``."""
    with cli_store(db, branch, freshness=True) as store:
        found = query(store)
    data = found.as_dict()
    if as_json:
        emit_json(data)
        return None, data
    return found, data


@click.command(name="endpoints")
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--repo", help="Only endpoints served or called by this repository.")
@click.option("--match", help="Only endpoints whose method and path, or declared route, contain TEXT (case-insensitive).")
@click.option("--limit", type=Whole(1), default=200, show_default=True, help="Most endpoints listed.")
@click.option("--unserved", is_flag=True, help="Also list endpoints only called (no handler indexed: external APIs).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@branch_option
def endpoints(db: str | None, repo: str | None, match: str | None, limit: int, unserved: bool, as_json: bool,
              branch: str | None) -> None:
    """The endpoints the indexed code serves (HTTP routes, GraphQL operations, gRPC methods), by path:
    each with the method serving it (PATH:LINE, the framework), how many clients call it and the
    wrappers (filters, middleware, guards) it runs through."""
    found, data = _answer(db, branch, as_json, lambda store: endpoint_list(store, repo, match, limit, unserved))
    if found is None:
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


@click.command(name="unlinked")
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--repo", help="Only calls made by this repository.")
@click.option("--product", help="Only calls made by the repositories of this product.")
@click.option("--reason", help="Only calls not linked for this reason (url, grpc_ambiguous, topic, ...: the names of "
                               "the index report's 'not linked, by reason' row).")
@click.option("--limit", type=Whole(1), default=200, show_default=True, help="Most calls listed.")
@click.option("--offset", type=Whole(0), default=0, show_default=True,
              help="Calls skipped first, in the list's order (the next page: offset + limit).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@branch_option
def unlinked(db: str | None, repo: str | None, product: str | None, reason: str | None, limit: int, offset: int,
             as_json: bool, branch: str | None) -> None:
    """The client calls (HTTP requests, gRPC stub calls, GraphQL operations, queue uses) the index could not
    link to an endpoint or topic, by file and line: what each names, why it was not linked and the
    nearest candidates the linker had. They are the 'not linked, by reason' row of `ripple index`."""
    found, data = _answer(db, branch, as_json, lambda store: unlinked_calls(store, repo, product, reason, limit, offset))
    if found is None:
        return
    count = f"{len(found.calls)} of {found.total}" if found.left_out or offset else f"{found.total}"
    if offset and found.calls:
        count = f"{offset + 1}-{offset + len(found.calls)} of {found.total}"
    where = "".join(f" {k} {v}" for k, v in (("of repository", repo), ("of product", product),
                                              ("for reason", found.reason)) if v)
    reasons = ", ".join(f"{k} {v:,}" for k, v in found.by_reason.items())
    out.print(f"{count} unlinked call{'s' if found.total != 1 else ''}{where}" + (f" ({reasons})" if reasons else ""),
              markup=False)
    several = len({c["repo"] for c in data["calls"]}) > 1
    for c in data["calls"]:
        out.print(terminal_text("  " + unlinked_line(c, several)), markup=False)
    if found.left_out:
        out.print(f"{found.left_out} more beyond --limit {limit} (next page: --offset {offset + len(found.calls)})",
                  markup=False)
