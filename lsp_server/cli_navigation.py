"""``ripple callers SYMBOL`` and ``ripple references SYMBOL``: the direct callers of a symbol and every
reference to it (:mod:`analysis.navigation`), rendered as text or JSON; and what ``ripple impact``
shares with them: the error for a target matching nothing (:func:`no_match`), the note on a name
defined in several repositories (:func:`note_repos`) or also naming other symbols (:func:`also_named`)."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import click
from rich.markup import escape

from analysis.endpoints import declared_names
from analysis.reached_through import reached_text, reached_through
from analysis.impact import PositionQuery, query_nodes
from analysis.navigation import (Reference, callers, closest_endpoints, dotted_name, gateway_miss, inherited_note,
                                 location_text, lookup, references, symbol_label)
from analysis.targets import closest_symbols, position_miss, quoted_target, target_query
from analysis.testcode import is_test_path
from lsp_server.cli_support import branch_option, cli_store, emit_json, err, out, terminal_text
from stores.contracts import GraphStore, Node
from stores.factory import DB_ENV

__all__ = ["also_named", "callers_cmd", "no_match", "note_repos", "references_cmd"]


def _ref_json(r: Reference) -> dict[str, object]:
    return {
        "target": r.target, "kind": r.kind, "repo": r.repo, "path": r.file, "line": r.line, "col": r.col + 1,
        "from": r.source.id, "from_name": dotted_name(r.source),
        "resolution": r.resolution,
    }


def no_match(store: Any, symbol: str, repo: str | None) -> str:
    """The error for a target matching nothing: with ``--repo R`` naming no indexed repository, the
    indexed ones (a misspelt ``R`` shows at once); else the closest names the index holds
    (:func:`analysis.targets.closest_symbols`) and the forms a target takes."""
    if repo is not None:
        names = sorted(store.repos())
        known = ", ".join(names[:20]) + (f" and {len(names) - 20} more" if len(names) > 20 else "")
        if repo not in names:
            return f"no repository {repo!r} is indexed here (indexed: {known or 'none'})"
    routed = gateway_miss(store, symbol)
    if routed is not None:  # an API gateway takes the path to a service that does not serve it
        return f"no endpoint matches {quoted_target(symbol)}: {routed}"
    endpoints = closest_endpoints(store, symbol, 5)
    if endpoints is not None:  # a METHOD /path target: the endpoints whose path ends like it
        listed = "; closest: " + ", ".join(n.name for n in endpoints) if endpoints else ""
        return f"no endpoint matches {quoted_target(symbol)}{listed}; `ripple endpoints --unserved` lists them all"
    near = closest_symbols(store, symbol, repo, 5)
    hint = "; closest names: " + ", ".join(symbol_label(n) for n in near) if near else ""
    where = f" in repository {repo!r}" if repo is not None else ""
    return (f"no symbol matches {quoted_target(symbol)}{where}{hint}; try a qualified name such as Class.method or "
            "package.module.function, a node id or PATH:LINE")


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def also_named(symbol: str, others: list[Node]) -> str:
    """The note naming what a bare ``symbol`` also matched (rich markup escaped)."""
    names = ", ".join(symbol_label(n) for n in others[:5]) + (" …" if len(others) > 5 else "")
    return escape(f"also named {symbol!r}, not shown: {names} (qualify the name to choose)")


def _count_line(refs: list[Reference], noun: str) -> str:
    """``6 call sites from 3 callers (2 in test code)``: the sites, the distinct callers (what ``ripple
    search`` counts as a hit's callers) and how many of those are test code (what ``ripple impact``
    lists apart from its direct callers, :func:`analysis.testcode.is_test_path`)."""
    sources = {r.source.id: r.file for r in refs}
    line = _plural(len(refs), noun)
    if sources:
        line += f" from {_plural(len(sources), 'caller' if noun == 'call site' else 'referrer')}"
        tests = sum(is_test_path(f) for f in sources.values())
        line += f" ({tests} in test code)" if tests else ""
    return line


def _print_refs(symbol: str, targets: list[Node], others: list[Node], refs: list[Reference], noun: str,
                shown: dict[str, str]) -> None:
    if not targets:
        raise click.ClickException(
            f"no symbol matches {quoted_target(symbol)}; try a qualified name such as Class.method or package.module.function, "
            "or a node id as printed by ripple callers/references"
        )
    multi_repo = len({r.repo for r in refs}) > 1
    for t in targets:
        if t.id in shown:  # an Endpoint: its route as declared (GET /user/<username>), then its key; no location
            out.print(f"[bold]{escape(shown[t.id])}[/bold]  ({t.label.lower()} {escape(t.id)})")
            continue
        where = f", {escape(t.file)}:{t.start_line}" if t.file else ""  # a node without a place (a Topic)
        out.print(f"[bold]{escape(t.id)}[/bold]  ({t.label.lower()}{where})")
    inherited = inherited_note(symbol, targets)
    if inherited:  # Class.member the class inherits: its base's definition and all its callers
        out.print(f"[dim]{escape(inherited)}[/dim]")
    if others:
        out.print(f"[dim]{also_named(symbol, others)}[/dim]")
    out.print(_count_line(refs, noun), markup=False)
    names = _target_names(targets)
    for r in refs:
        where = location_text(r.repo, r.file, r.line, r.col + 1, multi_repo)
        tag = f"  [{r.resolution}]" if r.resolution else ""
        kind = "" if r.kind == "CALLS" else f"  {r.kind}"
        src = r.source.qualname if r.source.label != "File" else "(top-level code)"  # the location is the call site
        into = f"  -> {names.get(r.target, r.target)}" if len(targets) > 1 else ""
        out.print(f"{where}  {src}{kind}{tag}{into}", markup=False)


def _target_names(targets: list[Node]) -> dict[str, str]:
    """Each target's name as a reference line ends with it: its qualname, with its parameter list
    (the node id's ``(...)`` tail, ``Owner.getPet(Integer)``) when overloads share the qualname, and its
    ``(file:line)`` when that still names several (the same name in several files)."""
    counts = Counter(t.qualname for t in targets)
    out = {}
    for t in targets:
        params = t.id[t.id.rfind("("):] if t.id.endswith(")") and "(" in t.id else ""
        out[t.id] = t.qualname + params if counts[t.qualname] > 1 else t.qualname
    same = Counter(out.values())  # still alike: one name in several files (two Go packages' `AccountStore.Update`)
    for t in targets:
        if same[out[t.id]] > 1 and t.file:
            out[t.id] += f" ({t.file}:{t.start_line})"
    return out


def _render_refs(symbol: str, targets: list[Node], others: list[Node], refs: list[Reference], key: str,
                 as_json: bool, repo: str | None, unmatched: str | None = None,
                 shown: dict[str, str] | None = None, extra: dict[str, object] | None = None) -> None:
    """JSON (``{"targets": [...], "repos": [...], key: [...], **extra}``, exit 1 when nothing matched) or
    text; a note on stderr when the targets lie in several repositories (``--repo`` chooses).
    ``unmatched``: the error when ``--repo`` matched nothing (:func:`no_match`); ``shown``: the endpoints'
    names as their routes declare them (:func:`analysis.endpoints.declared_names`)."""
    repos = sorted({t.repo for t in targets})
    if as_json:
        emit_json({"targets": [t.id for t in targets], "repos": repos, key: [_ref_json(r) for r in refs],
                   **(extra or {})})
        if not targets:
            sys.exit(1)
        return
    if not targets and unmatched is not None:
        raise click.ClickException(terminal_text(unmatched))
    note_repos(symbol, repos)
    _print_refs(symbol, targets, others, refs, "call site" if key == "callers" else "reference", shown or {})


def note_repos(symbol: str, repos: list[str]) -> None:
    """Say that ``symbol`` named definitions in several repositories, merged in one answer (an
    Endpoint's empty repository, shared by every repository, not counted)."""
    repos = [r for r in repos if r]
    if len(repos) > 1:
        err.print(f"[yellow]{escape(repr(symbol))} is defined in {len(repos)} repositories ({escape(', '.join(repos))}); "
                  "the answer covers them all: --repo NAME chooses one[/yellow]", soft_wrap=True)


_REPO_HELP = "Only SYMBOL's definitions in this repository (a name defined in several)."


def _lookup_target(store: GraphStore, symbol: str, repo: str | None = None) -> tuple[list[Node], list[Node]]:
    """What ``symbol`` names, as ``ripple impact`` reads it (:func:`analysis.targets.target_query`):
    ``PATH:LINE[:COL]`` (1-based) is the symbol written there (with a column) or the innermost
    definition around the line; anything else goes to :func:`analysis.navigation.lookup` (only
    ``repo``'s definitions when given)."""
    try:
        query = target_query(store, symbol, repo)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    if isinstance(query, PositionQuery):
        found = query_nodes(store, query)
        if not found:
            raise click.ClickException(terminal_text(position_miss(store, query)))
        return found, []
    return lookup(store, symbol, repo)


@click.command(name="callers")
@click.argument("symbol")
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--resolution", "resolutions", multiple=True, type=click.Choice(["exact", "inferred", "name"]), help="Keep only calls bound this way (repeatable).")
@click.option("--repo", help=_REPO_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@branch_option
def callers_cmd(symbol: str, db: str | None, resolutions: tuple[str, ...], repo: str | None, as_json: bool,
                branch: str | None) -> None:
    """Direct callers of SYMBOL (Class.method, module.function, a node id, or PATH:LINE[:COL])."""
    with cli_store(db, branch, freshness=True) as store:
        targets, others = _lookup_target(store, symbol, repo)
        refs = callers(store, targets, list(resolutions) or None)
        unmatched = no_match(store, symbol, repo) if not targets else None
        shown = declared_names(store, targets)
        through = [e.as_dict() for e in reached_through(store, targets)]
    _render_refs(symbol, targets, others, refs, "callers", as_json, repo, unmatched, shown,
                 {"reached_through": through})
    for line in reached_text(through) if not as_json else ():  # reached from other services: the entries' callers
        out.print(f"[dim]{escape(terminal_text(line))}[/dim]")


@click.command(name="references")
@click.argument("symbol")
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--include-declaration", is_flag=True, help="List the declarations too.")
@click.option("--repo", help=_REPO_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@branch_option
def references_cmd(symbol: str, db: str | None, include_declaration: bool, repo: str | None, as_json: bool,
                   branch: str | None) -> None:
    """Every reference to SYMBOL (Class.method, module.function, a node id, or PATH:LINE[:COL]): call
    sites, type uses, injections, subclasses, overrides."""
    with cli_store(db, branch) as store:
        targets, others = _lookup_target(store, symbol, repo)
        refs = references(store, targets, include_declaration)
        unmatched = no_match(store, symbol, repo) if not targets else None
        shown = declared_names(store, targets)
    _render_refs(symbol, targets, others, refs, "references", as_json, repo, unmatched, shown)
