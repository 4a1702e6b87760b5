"""Renderings of a blast radius (:class:`analysis.impact.BlastRadius`): the markdown report
(:func:`render_markdown`; front ends pass how a location becomes a link), its one-line summary
(:func:`summary_text`, for hovers and code lenses) and a JSON-serialisable view (:func:`report_json`).
Everything here is a pure function of the report; nothing reads a store.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from analysis.impact import BlastRadius, EndpointHit, PathStep, Reached, WrapperHit, count_noun, services_phrase
from analysis.navigation import dotted_name
from analysis.tables import TableRow, is_table_target, table_rows
from stores.contracts import BROKERS, Node

__all__ = ["plain_link", "summary_text", "services_text", "render_markdown", "report_json", "code_span", "code_block", "markdown_text",
           "mermaid_text", "mermaid_diagram", "diagram_links", "wrapper_summary", "DEFAULT_PER_HOP", "MERMAID_MAX_NODES"]

DEFAULT_PER_HOP = 10
"""Callers named per hop (markdown and JSON); the rest of the hop is counted ("and M more")."""
MERMAID_MAX_NODES = 40
"""Most nodes the diagram draws one by one; a larger blast radius is drawn grouped by hop, with counts."""

_BACKTICKS = re.compile(r"`+")
_MD_SPECIAL = re.compile(r"[\\`*_\[\]<>&~]")
_RESOLUTION_ORDER = {"exact": 0, "inferred": 1, "name": 2}


def plain_link(repo: str, path: str, line: int) -> str:
    """```path:line```: how the CLI prints a location (a code span: a path is shown as it is, whatever
    markdown it holds)."""
    return code_span(f"{path}:{line}")


def summary_text(report: BlastRadius, direct: bool = False) -> str:
    """``N callers · M endpoints`` (direct callers, tests apart; endpoints reached within the depth),
    then `` · K tests`` when test code is kept apart and some is reached (``tests`` mode ``apart``).
    ``direct``: the report's own header, which says ``direct callers`` (the hops below it list
    clients across services too) and counts the topics reached."""
    noun = "direct caller" if direct else "caller"
    text = f"{count_noun(len(report.callers), noun)} · {count_noun(len(report.endpoints), 'endpoint')}"
    if direct and report.topics:
        text += f" · {count_noun(len(report.topics), 'topic')}"
    if report.tests and report.tests_mode == "apart":
        text += f" · {count_noun(len(report.tests), 'test')}"
    return text


def services_text(report: BlastRadius) -> str:
    """``N services`` the report reaches: each repository counts once, or once per application it
    names (a repository holding several services); ``N services in R repositories`` when the two
    differ (:func:`analysis.impact.services_phrase`)."""
    return services_phrase(report.services)


def _signature(node_id: str) -> str:
    """The ``(…)`` that ends a callable's id (overloads differ there), else ``""``."""
    return node_id[node_id.rfind("("):] if node_id.endswith(")") and "(" in node_id else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


_TABLE_COLUMNS_SHOWN = 12
_TABLE_METHODS_SHOWN = 3


def _columns_cell(row: TableRow) -> str:
    """A Tables row's columns: ``all 44 columns`` when an access names every column the table
    declares (a whole-row select or update says nothing about a column), else the columns named
    (the first :data:`_TABLE_COLUMNS_SHOWN`, then how many more), ``–`` when none is."""
    if row.every_column:
        return f"all {row.every_column:,} columns"
    shown = ", ".join(code_span(c) for c in row.columns[:_TABLE_COLUMNS_SHOWN])
    rest = len(row.columns) - _TABLE_COLUMNS_SHOWN
    return (shown + (f" and {rest:,} more" if rest > 0 else "")) or "–"


def _by_cell(row: TableRow, link: Callable[[str, str, int], str]) -> str:
    """A Tables row's methods: each with its place (and its access when they differ), the first
    :data:`_TABLE_METHODS_SHOWN`, then how many more."""
    several = len({h.role for h in row.hits}) > 1
    parts = [f"{code_span(h.via.qualname)}{f' ({h.role})' if several else ''} · {link(h.via.repo, h.via.file, h.line)}"
             for h in row.hits[:_TABLE_METHODS_SHOWN]]
    rest = len(row.hits) - _TABLE_METHODS_SHOWN
    return "; ".join(parts) + (f"; and {rest:,} more" if rest > 0 else "")


def _one_line(text: str) -> str:
    return text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def code_span(text: str) -> str:
    """``text`` as one markdown code span on one line, whatever it holds (names and paths come from
    the indexed code): line breaks become spaces; the fence is one backtick longer than the longest
    run of backticks inside, with a space inside it when the text starts or ends with a backtick.
    Every renderer puts names and paths into markdown through this or :func:`markdown_text`."""
    text = _one_line(text)
    if not text:
        return "` `"
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def code_block(text: str, language: str = "") -> str:
    """``text`` as a fenced code block: the fence is three backticks, or one more than the longest run
    of backticks inside, so no line of ``text`` can close it early."""
    fence = "`" * max(3, max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def markdown_text(text: str) -> str:
    """``text`` (a name, path or repository from the indexed code) as plain markdown text: every
    character markdown or HTML would act on (``\\ ` * _ [ ] < > & ~``) backslash-escaped, line breaks
    made spaces, so it can open no link, emphasis, code span or tag. Table cells also go through
    ``_cell`` (``|``)."""
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), _one_line(text))


_MERMAID_ESCAPES = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "&": "#amp;", "`": "#96;"}
_MERMAID_SPECIAL = re.compile("[" + re.escape("".join(_MERMAID_ESCAPES)) + "]")


def mermaid_text(text: str) -> str:
    """``text`` (a name or path from the indexed code) as the inside of a quoted Mermaid label
    (``id["…"]``): line breaks become spaces; ``# " < > & ``` become Mermaid entity codes
    (``#35;``, ``#quot;``, ``#lt;``, ...), so no label can end the string, open HTML, start a
    markdown string, or close the fenced block around the diagram (no backtick is left)."""
    return _MERMAID_SPECIAL.sub(lambda m: _MERMAID_ESCAPES[m.group(0)], _one_line(text))


def _who(node: Node) -> str:
    return node.file if node.label == "File" else node.qualname


def _target_name(report: BlastRadius, node: Node) -> str:
    """A target as the report names it: an Endpoint by its method and route as its handler declares
    it (``GET /user/<username>``, the first hit of it in :attr:`BlastRadius.endpoints`; ``GET /user/{}``
    is only its key), anything else by :func:`_who`."""
    if node.label != "Endpoint":
        return _who(node)
    return next((f"{h.http_method} {h.shown_path}" for h in report.endpoints if h.id == node.id), node.name)


def _summarised(report: BlastRadius) -> dict[str, WrapperHit]:
    """The wrappers whose endpoints the report summarises in one line instead of listing them: those
    registered for a whole application (scope ``app``, with or without a path limit) wrapping more
    than one endpoint; by node id."""
    return {w.node.id: w for w in report.wrappers if w.scopes == ("app",) and len(w.endpoints) > 1}


def _through(kind: str, node: Node) -> str:
    """``through the filter JwtFilter.doFilterInternal`` (plain text; the name as written)."""
    return f"through the {kind.replace('_', ' ')} {_who(node)}"


def _group_text(w: WrapperHit, paths: Sequence[str]) -> str:
    """``all 12 endpoints of petclinic`` for a wrapper without a path limit; with one, ``12 endpoints of
    nest matching /articles, /user`` (``paths``: its registrations' paths as they are to be shown). Not
    "all" then: a registration may also name the methods it runs for (Nest's ``forRoutes({path:
    'user', method: RequestMethod.GET})``), so not every endpoint under those paths is among them."""
    if not w.paths:
        return f"all {count_noun(len(w.endpoints), 'endpoint')} of {w.application}"
    return f"{count_noun(len(w.endpoints), 'endpoint')} of {w.application} matching {', '.join(paths)}"


def wrapper_summary(w: WrapperHit) -> str:
    """``all 12 endpoints of petclinic, through the filter JwtFilter.doFilterInternal`` (``12 endpoints
    of nest matching /articles, /user, ...`` when the registrations limit the paths,
    :func:`_group_text`): the one line that stands for every endpoint an application-wide wrapper
    runs for. Plain text."""
    return f"{_group_text(w, w.paths)}, {_through(w.kind, w.node)}"


def _drawn_endpoints(report: BlastRadius) -> tuple[list[EndpointHit], dict[str, WrapperHit]]:
    """The endpoints a diagram drawn node by node shows one by one, and the application-wide
    wrappers (:func:`_summarised`) whose endpoints it shows as one node instead."""
    groups = _summarised(report)
    return [h for h in report.endpoints if h.through is None or h.through.node.id not in groups], groups


def _group_label(w: WrapperHit) -> str:
    """The text of an application-wide wrapper's one diagram node: ``all 6 endpoints of petclinic``."""
    return _group_text(w, w.paths)


def _one_by_one(report: BlastRadius, max_nodes: int) -> bool:
    """Whether :func:`mermaid_diagram` draws every node of ``report`` (else it groups them by hop)."""
    endpoints, groups = _drawn_endpoints(report)
    size = (len(report.targets) + sum(len(hop) for hop in report.hops) + len(endpoints) + len(groups)
            + len(report.topics))
    return size <= max_nodes


def _endpoint_keys(endpoints: Sequence[EndpointHit]) -> list[str]:
    """The diagram key of each of ``endpoints``: its endpoint id, or for a later hit of that id
    declaring another route (two routes normalising to one endpoint: ``checks/<uuid:code>`` and
    ``checks/<sha1:unique_key>``) ``id + "\t" + route``, drawn as a node of its own. Clients
    reached through the endpoint hang below the first (their parent is the endpoint id)."""
    first: dict[str, str | None] = {}
    keys = []
    for h in endpoints:
        route = first.setdefault(h.id, h.route)
        keys.append(f"{h.id}\t{h.route}" if h.route is not None and h.route != route else h.id)
    return keys


def _diagram_ids(report: BlastRadius) -> dict[str, str]:
    """``{graph node id: diagram node id}`` of a diagram drawn node by node: targets ``t0…``, callers
    (by hop) ``c0…``, endpoints ``e0…`` (one per endpoint id and declared route,
    :func:`_endpoint_keys`), topics ``k0…``; the node of an application-wide wrapper's endpoints is
    ``w0…`` (in :func:`_summarised` order, not in this map)."""
    ids: dict[str, str] = {}
    for i, t in enumerate(report.targets):
        ids[t.node.id] = f"t{i}"
    for i, r in enumerate(r for hop in report.hops for r in hop):
        ids[r.node.id] = f"c{i}"
    for i, key in enumerate(_endpoint_keys(_drawn_endpoints(report)[0])):
        ids.setdefault(key, f"e{i}")
    for i, tp in enumerate(report.topics):
        ids[tp.id] = f"k{i}"
    return ids


def diagram_links(report: BlastRadius, max_nodes: int = MERMAID_MAX_NODES) -> list[tuple[str, str, Node]]:
    """The nodes of :func:`mermaid_diagram` (same ``max_nodes``) that stand for code, as
    ``(diagram node id, label, code node)`` in drawing order, for front ends that make each node a
    link to its code: a target or caller is its own node, an endpoint its handler, a topic its first
    consumer, else its first producer, the one node of an application-wide wrapper's endpoints
    (``all N endpoints of <application>``) the wrapper. Drawn grouped, only ``t0`` (the first
    target) is code; the hop and count nodes are not. The label is the node's text before Mermaid
    escaping."""
    if not report.targets:
        return []
    if not _one_by_one(report, max_nodes):
        first = report.targets[0].node
        more = f" +{len(report.targets) - 1}" if len(report.targets) > 1 else ""
        return [("t0", _target_name(report, first) + more, first)]
    ids = _diagram_ids(report)
    links = [(ids[t.node.id], _target_name(report, t.node), t.node) for t in report.targets]
    links += [(ids[r.node.id], _who(r.node), r.node) for hop in report.hops for r in hop]
    endpoints, groups = _drawn_endpoints(report)
    seen: set[str] = set()
    for h, key in zip(endpoints, _endpoint_keys(endpoints)):
        if key not in seen:
            seen.add(key)
            links.append((ids[key], f"{h.http_method} {h.shown_path}", h.handler))
    links += [(f"w{i}", _group_label(w), w.node) for i, w in enumerate(groups.values())]
    for tp in report.topics:
        code = (*tp.consumers, *tp.producers)
        if code:
            links.append((ids[tp.id], f"topic {tp.name}", code[0]))
    return links


def mermaid_diagram(report: BlastRadius, max_nodes: int = MERMAID_MAX_NODES) -> str:
    """The blast radius as a Mermaid flowchart (left to right, without the fence): targets -> callers
    by hop -> endpoints and topics, each code node inside a subgraph of its service (repository).
    Drawn node by node when targets, callers, endpoints and topics number at most ``max_nodes``;
    otherwise grouped: one node per hop (``hop 2 · 37 callers``) and one per hop's endpoints and
    topics, with counts, and the services named in one node. Labels go through :func:`mermaid_text`."""
    out = ["flowchart LR"]
    callers = [r for hop in report.hops for r in hop]
    endpoints, groups = _drawn_endpoints(report)  # an application-wide wrapper's endpoints: one node
    if not report.targets:
        return "\n".join([*out, '  none["nothing found"]'])
    if _one_by_one(report, max_nodes):
        ids = _diagram_ids(report)
        keys = _endpoint_keys(endpoints)
        # An endpoint or topic target belongs to no repository: it is drawn once, as the endpoints
        # and topics are below, outside the services' subgraphs (it was a subgraph titled "").
        shared = {ids[k] for k in keys} | {ids[tp.id] for tp in report.topics}
        by_repo: dict[str, list[str]] = {}
        for t in report.targets:
            if not t.node.repo and ids[t.node.id] in shared:
                continue
            by_repo.setdefault(t.node.repo, []).append(f'{ids[t.node.id]}(["{mermaid_text(_target_name(report, t.node))}"])')
        for r in callers:
            by_repo.setdefault(r.node.repo, []).append(f'{ids[r.node.id]}["{mermaid_text(_who(r.node))}"]')
        for n, (repo, items) in enumerate(by_repo.items()):
            if not repo:
                out += [f"  {item}" for item in items]
                continue
            out.append(f'  subgraph s{n}["{mermaid_text(repo)}"]')
            out += [f"    {item}" for item in items]
            out.append("  end")
        drawn: set[str] = set()
        for h, key in zip(endpoints, keys):
            if key not in drawn:
                drawn.add(key)
                out.append(f'  {ids[key]}{{{{"{mermaid_text(h.http_method + " " + h.shown_path)}"}}}}')
        for i, w in enumerate(groups.values()):
            out.append(f'  w{i}{{{{"{mermaid_text(_group_label(w))}"}}}}')
        for tp in report.topics:
            out.append(f'  {ids[tp.id]}[("{mermaid_text("topic " + tp.name)}")]')
        edges: list[str] = []
        for r in callers:
            below = ids.get(r.parent)
            if below is None and r.parent.startswith("endpoint:"):  # a client of one method of an any-method endpoint
                below = ids.get("endpoint:* " + r.parent.removeprefix("endpoint:").partition(" ")[2])
            if below is not None:
                edges.append(f"  {below} --> {ids[r.node.id]}")
        for h, key in zip(endpoints, keys):
            via = h.through.node.id if h.through is not None else h.handler.id
            if via in ids:
                edges.append(f"  {ids[via]} --> {ids[key]}")
        for i, w in enumerate(groups.values()):
            if w.node.id in ids:
                edges.append(f"  {ids[w.node.id]} --> w{i}")
        parents = {r.node.id: r.parent for r in callers}
        for tp in report.topics:
            for n in (*tp.consumers, *tp.producers):
                # A producer reached through the topic hangs below it already (topic --> producer).
                if n.id in ids and parents.get(n.id) != tp.id:
                    edges.append(f"  {ids[n.id]} --> {ids[tp.id]}")
        out += list(dict.fromkeys(edges))
        return "\n".join(out)
    first = report.targets[0].node
    more = f" +{len(report.targets) - 1}" if len(report.targets) > 1 else ""
    out.append(f'  t0(["{mermaid_text(_target_name(report, first) + more)}"])')
    below = "t0"
    for k, hop in enumerate(report.hops, 1):
        out.append(f'  h{k}["{mermaid_text(f"hop {k} · " + count_noun(len(hop), "caller"))}"]')
        out.append(f"  {below} --> h{k}")
        below = f"h{k}"
    for k in range(0, len(report.hops) + 1):
        eps = [h for h in report.endpoints if h.hops == k]
        tps = [tp for tp in report.topics if tp.hops == k]
        src = "t0" if k == 0 else f"h{k}"
        if eps:
            out.append(f'  e{k}{{{{"{mermaid_text(count_noun(len(eps), "endpoint"))}"}}}}')
            out.append(f"  {src} --> e{k}")
        if tps:
            out.append(f'  k{k}[("{mermaid_text(count_noun(len(tps), "topic"))}")]')
            out.append(f"  {src} --> k{k}")
    if report.services:
        names = ", ".join(s.repo for s in report.services)
        out.append(f'  s["{mermaid_text(count_noun(len(report.services), "service") + ": " + names)}"]')
    return "\n".join(out)


def _path_text(example: Sequence[PathStep]) -> str:
    return " → ".join(code_span(s.name) for s in example)


def _via_text(kind: str, node: Node) -> str:
    """``through the filter `JwtFilter.doFilterInternal`: `` (markdown, before an example path)."""
    return f"through the {markdown_text(kind.replace('_', ' '))} {code_span(_who(node))}: "


_CERTAINTY_NOTE = {"inferred": "inferred binding on the path", "name": "through a name binding"}


def _reached_line(r: Reached, link: Callable[[str, str, int], str]) -> str:
    note = f" · {_CERTAINTY_NOTE[r.certainty]}" if r.certainty in _CERTAINTY_NOTE else ""
    if r.ambiguous:  # a relative URL several services serve
        note += f" · ambiguous: its URL names no service; {', '.join(markdown_text(s) for s in r.ambiguous)} serve the route"
    return (f"- {code_span(_who(r.node))} · {markdown_text(r.node.repo)} · "
            f"{link(r.node.repo, r.node.file, r.node.start_line)}{note}")


def _served(kinds: Sequence[str]) -> bool:
    """Whether an entry point of these kinds is listed with the endpoints or topics it serves (HTTP,
    gRPC, GraphQL, a broker's topics) rather than under "Other entry points"."""
    return any(k in ("http", "grpc") or k in BROKERS or k.startswith("graphql ") for k in kinds)


def _several_named(report: BlastRadius) -> list[str]:
    """A note when the query's name selected symbols of one qualified name in several files (``AccountStore.Update``:
    the interfaces of two Go packages and the struct of a third), so the answer is the union of their blast radii:
    which files, and how to ask for one. ``[]`` otherwise (one file's symbols: overloads; the methods a
    ``table:`` target selects)."""
    selected = [t.node for t in report.targets if t.role == "selected" and t.node.file]
    files = sorted({(n.repo, n.file) for n in selected})
    names = {n.qualname for n in selected}
    if len(files) < 2 or len(names) != 1:  # one file's; or what a table / several names selected
        return []
    shown = ", ".join(markdown_text(f) for _, f in files[:5]) + (f" and {len(files) - 5:,} more" if len(files) > 5 else "")
    return [f"{code_span(names.pop())} names {len(selected):,} symbols in {len(files):,} files ({shown}); this is "
            "the blast radius of them all. Ask for one by `PATH:LINE` or a longer qualified name.", ""]


def render_markdown(report: BlastRadius, link: Callable[[str, str, int], str] = plain_link, limit: int = 50,
                    per_hop: int = DEFAULT_PER_HOP) -> str:
    """The report as markdown: Targets, Direct callers, Callers by hop (the first ``per_hop`` of each
    hop by name and location, then "and M more"), Reachable endpoints (a table, with how sure each
    path is; an endpoint reached through cross-cutting code says so, "through the filter `X`: ...",
    and the endpoints of an application-wide wrapper are one row, "all N endpoints of <application>"), Topics, Tables (read or written by the targets and their callees: table, R / W / RW, columns, method, hops, resolution), Other entry points (when any), Tests affected, Services affected, Diagram (Mermaid,
    :func:`mermaid_diagram`), Truncated, Steps executed. Locations go through ``link(repo, path, line)``
    (lines 1-based); other lists longer than ``limit`` rows are cut (the data keeps them all)."""
    name = report.targets[0].node.qualname if report.targets and not is_table_target(report.query) else report.query
    if report.targets and report.targets[0].node.label == "Endpoint":  # as its route declares it, not ``/owners/{}``
        name = _target_name(report, report.targets[0].node)
    lines = [f"# Blast radius of {code_span(name)}", ""]
    if not report.targets:
        lines += [f"No symbol matches {code_span(report.query)}.", ""]
    else:
        unbound = f" · {count_noun(report.unbound, 'unbound call site')} of that name (see Truncated)" \
            if report.unbound else ""
        lines += [f"**{summary_text(report, direct=True)}** · {services_text(report)} · "
                  f"{count_noun(report.reached, 'node')} reached within {report.depth} hops{unbound}", ""]
        lines += _several_named(report)

    def more(items: Sequence[Any]) -> list[str]:
        return [f"- … and {len(items) - limit:,} more"] if len(items) > limit else []

    lines += ["## Targets", ""]
    same_name = Counter(dotted_name(t.node) for t in report.targets)
    for t in report.targets[:limit]:
        n = t.node
        shown = _target_name(report, n) if n.label == "Endpoint" else \
            dotted_name(n) + (_signature(n.id) if same_name[dotted_name(n)] > 1 else "")  # overloads apart
        where = f" · {markdown_text(n.repo)} · {link(n.repo, n.file, n.start_line)}" if n.file else ""  # an Endpoint: none
        lines.append(f"- {code_span(shown)} ({n.label.lower()}, {t.role}){where}")
    lines += more(report.targets) or ([] if report.targets else ["- none"])

    lines += ["", "## Direct callers", ""]
    names = {t.node.id: t.node.qualname + _signature(t.node.id) for t in report.targets} if len(report.targets) > 1 else {}
    for c in report.callers[:limit]:
        # One entry per call site: a call bound to several targets (an interface method and its
        # implementations) is one place in the code, shown with its strongest resolution.
        sites: dict[tuple[str, str, int, int], Any] = {}
        for s in sorted(c.sites, key=lambda s: _RESOLUTION_ORDER.get(s.resolution or "", 3)):
            sites.setdefault((s.repo, s.file, s.line, s.col), s)
        at = ", ".join(link(s.repo, s.file, s.line) + (f" ({s.resolution})" if s.resolution else "")
                       for _, s in sorted(sites.items(), key=lambda kv: kv[0]))
        who = c.node.file if c.node.label == "File" else c.node.qualname
        into = sorted({names.get(s.target, s.target) for s in c.sites})
        calls = " → " + ", ".join(code_span(i) for i in into) if names else ""
        lines.append(f"- {code_span(who)} · {markdown_text(c.node.repo)} · {at}{calls}")
    lines += more(report.callers) or ([] if report.callers else ["- none"])

    lines += ["", "## Callers by hop", ""]
    for k, hop in enumerate(report.hops, 1):
        lines.append(f"### Hop {k} · {count_noun(len(hop), 'caller')}")
        lines.append("")
        lines += [_reached_line(r, link) for r in hop[:per_hop]]
        lines += [f"- … and {len(hop) - per_hop:,} more"] if len(hop) > per_hop else []
        lines += [] if hop else ["- none"]
        lines.append("")
    if not report.hops:
        lines += ["- none", ""]
    lines.pop()

    lines += ["", "## Reachable endpoints", ""]
    groups = _summarised(report)
    listed = [h for h in report.endpoints if h.through is None or h.through.node.id not in groups]
    if listed or groups:
        lines += ["| Method | Path | Repository | Hops | Certainty | Example path |", "|---|---|---|---|---|---|"]
        folded = list(groups.values())
        for w in folded[:limit]:  # "all N endpoints of <application>, through the filter X"
            path = _group_text(replace(w, application=markdown_text(w.application)), [code_span(p) for p in w.paths])
            lines.append(f"| – | {_cell(path)} | {_cell(markdown_text(w.node.repo))} | {w.hops} | {w.certainty} "
                         f"| {_cell(_via_text(w.kind, w.node) + _path_text(w.example))} |")
        if len(folded) > limit:
            lines.append(f"| – | {_cell(f'… and {len(folded) - limit:,} more wrappers reaching whole applications')} "
                         "| | | | |")
        for h in listed[:limit]:
            where = h.repo if not h.service or h.service == h.repo else f"{h.repo} ({h.service})"
            via = _via_text(h.through.kind, h.through.node) if h.through is not None else ""
            shown = code_span(h.shown_path) + (f" (operation {code_span(h.operation_id)})" if h.operation_id else "")
            lines.append(f"| {_cell(markdown_text(h.http_method))} | {_cell(shown)} | {_cell(markdown_text(where))} "
                         f"| {h.hops} | {h.certainty} | {_cell(via + _path_text(h.example))} |")
        lines += more(listed)
    else:
        lines.append("- none")

    lines += ["", "## Topics", ""]
    for tp in report.topics[:limit]:
        roles = []
        if tp.consumers:
            roles.append("consumed by " + ", ".join(f"{code_span(n.qualname)} ({markdown_text(n.repo)})" for n in tp.consumers))
        if tp.producers:
            roles.append("produced by " + ", ".join(f"{code_span(n.qualname)} ({markdown_text(n.repo)})" for n in tp.producers))
        # Kafka topics linked by name as written say nothing more (as ever); every other link says its
        # broker and how sure it is.
        kind = "" if tp.broker == "kafka" and tp.match is None else \
            f" ({markdown_text(tp.broker)}, {markdown_text(tp.match or 'exact')})"
        lines.append(f"- {code_span(tp.name)}{kind}: {'; '.join(roles)} · {count_noun(tp.hops, 'hop')} · "
                     f"{_path_text(tp.example)}")
    lines += more(report.topics) or ([] if report.topics else ["- none"])

    lines += ["", "## Tables", ""]
    if report.tables:  # read / written by the targets and their callees (analysis.tables)
        lines += ["| Table | Access | Columns | By | Hops | Resolution |", "|---|---|---|---|---|---|"]
        rows = table_rows(report.tables)  # each table once: its methods together
        for row in rows[:limit]:
            repo = row.table.props.get("repository") or ""
            lines.append(f"| {_cell(code_span(row.table.qualname))} ({_cell(markdown_text(repo))}) | {row.role} "
                         f"| {_cell(_columns_cell(row))} | {_cell(_by_cell(row, link))} "
                         f"| {row.hops} | {row.resolution} |")
        lines += more(rows)
    else:
        lines.append("- none")

    others = [p for p in report.entry_points if not _served(p.kinds)]
    if others:
        lines += ["", "## Other entry points", ""]
        for p in others[:limit]:
            who = p.node.file if p.node.label == "File" else p.node.qualname
            kinds = ", ".join(p.kinds)
            lines.append(f"- {code_span(who)} ({kinds}) · {markdown_text(p.node.repo)} · {count_noun(p.hops, 'hop')} · "
                         f"{link(p.node.repo, p.node.file, p.node.start_line)}")
        lines += more(others)

    lines += ["", f"## Tests affected · {len(report.tests):,}", ""]
    if report.tests_mode == "include":
        lines.append("- counted with the callers (tests included)")
    elif report.tests_mode == "exclude":
        lines.append(f"- {count_noun(report.excluded_tests, 'test caller')} not followed (tests excluded)")
    else:
        lines += [_reached_line(r, link)[:2] + f"hop {r.hops} · " + _reached_line(r, link)[2:]
                  for r in report.tests[:limit]]
        lines += more(report.tests) or ([] if report.tests else ["- none"])

    lines += ["", "## Services affected", ""]
    if report.services:
        lines += ["| Repository | Nodes | Endpoints | Nearest hop |", "|---|---|---|---|"]
        lines += [f"| {_cell(markdown_text(s.repo + (' (' + ', '.join(s.applications) + ')' if s.applications and s.applications != (s.repo,) else '')))}"
                  f" | {s.nodes} | {s.endpoints} | {s.hops} |" for s in report.services]
    else:
        lines.append("- none")

    lines += ["", "## Diagram", "", code_block(mermaid_diagram(report), "mermaid")]

    lines += ["", "## Truncated", ""]
    lines += [f"- {t}" for t in report.truncated] or [f"- nothing: every caller within {report.depth} hops was followed"]

    lines += ["", "## Steps executed", "", "| # | Step | Time | Store calls | Result |", "|---|---|---|---|---|"]
    for i, s in enumerate(report.steps, 1):
        lines.append(f"| {i} | {s.name} | {s.ms:.1f} ms | {s.round_trips} | {_cell(s.detail)} |")
    lines.append(f"| | Total | {report.ms:.1f} ms | {report.round_trips} | |")
    return "\n".join(lines) + "\n"


def _node_json(n: Node) -> dict[str, Any]:
    return {"id": n.id, "name": n.name, "qualname": n.qualname, "label": n.label, "repo": n.repo, "path": n.file,
            "line": n.start_line, "col": n.start_col + 1}


def _path_json(example: Sequence[PathStep]) -> list[dict[str, Any]]:
    return [{"id": s.id, "name": s.name, "label": s.label, "repo": s.repo, "path": s.file, "line": s.line or None}
            for s in example]


def _endpoint_json(h: EndpointHit) -> dict[str, Any]:
    through = ({**_node_json(h.through.node), "kind": h.through.kind, "scope": h.through.scope}
               if h.through is not None else None)
    return {"id": h.id, "http_method": h.http_method, "path": h.path, "route": h.route, "repo": h.repo, "service": h.service,
            "operation_id": h.operation_id, "hops": h.hops, "certainty": h.certainty, "handler": _node_json(h.handler), "example": _path_json(h.example),
            "through": through}


def _reached_json(r: Reached) -> dict[str, Any]:
    return {**_node_json(r.node), "hops": r.hops, "parent": r.parent, "certainty": r.certainty,
            "ambiguous": list(r.ambiguous)}


def _sites_json(sites: Sequence[Any]) -> list[dict[str, Any]]:
    """One entry per place in the code; ``targets`` are every target bound there (an interface method
    and its implementations), ``resolution`` the strongest binding."""
    grouped: dict[tuple[str, str, int, int], list[Any]] = {}
    for s in sorted(sites, key=lambda s: _RESOLUTION_ORDER.get(s.resolution or "", 3)):
        grouped.setdefault((s.repo, s.file, s.line, s.col), []).append(s)
    return [{"target": group[0].target, "targets": sorted({s.target for s in group}), "repo": repo, "path": path,
             "line": line, "col": col + 1, "resolution": group[0].resolution}
            for (repo, path, line, col), group in sorted(grouped.items(), key=lambda kv: kv[0])]


def report_json(report: BlastRadius, per_hop: int = DEFAULT_PER_HOP) -> dict[str, Any]:
    """The report as JSON-ready data. Positions are 1-based, lines and columns alike (columns count
    code points); a path step of a shared node (endpoint, topic) has ``line`` null. ``hops`` names
    the first ``per_hop`` callers of each hop (``more``: how many are left out); ``tests`` lists all
    the test code reached; ``endpoints`` lists every endpoint, each with ``through`` (the wrapper it is
    reached through: node, ``kind``, ``scope``; null when through its handler); ``wrappers`` the
    cross-cutting code reached with every endpoint it wraps and, when the markdown folds them into one
    line, that line (``summary``); ``mermaid`` is the diagram of the markdown report."""
    return {
        "query": report.query,
        "depth": report.depth,
        "tests_mode": report.tests_mode,
        "summary": {"callers": len(report.callers), "call_sites": report.call_sites, "endpoints": len(report.endpoints),
                    "topics": len(report.topics), "services": len(report.services), "reached": report.reached,
                    "tests": len(report.tests), "excluded_tests": report.excluded_tests,
                    "tables": len({h.table.id for h in report.tables}), "text": summary_text(report)},
        "targets": [{**_node_json(t.node), "role": t.role} for t in report.targets],
        "callers": [{**_node_json(c.node), "sites": _sites_json(c.sites)} for c in report.callers],
        "hops": [{"hop": k, "count": len(hop), "callers": [_reached_json(r) for r in hop[:per_hop]],
                  "more": max(0, len(hop) - per_hop)} for k, hop in enumerate(report.hops, 1)],
        "tests": [_reached_json(r) for r in report.tests],
        "endpoints": [_endpoint_json(h) for h in report.endpoints],
        "wrappers": [{**_node_json(w.node), "kind": w.kind, "framework": w.framework, "scopes": list(w.scopes),
                      "paths": list(w.paths), "hops": w.hops, "certainty": w.certainty, "application": w.application,
                      "endpoints": list(w.endpoints), "example": _path_json(w.example),
                      "summary": wrapper_summary(w) if w.node.id in _summarised(report) else None}
                     for w in report.wrappers],
        "topics": [{"id": t.id, "name": t.name, "consumers": [n.id for n in t.consumers],
                    "producers": [n.id for n in t.producers], "hops": t.hops, "example": _path_json(t.example),
                    "broker": t.broker, "match": t.match}
                   for t in report.topics],
        "entry_points": [{**_node_json(p.node), "kinds": list(p.kinds), "hops": p.hops} for p in report.entry_points],
        "tables": [{"id": h.table.id, "name": h.table.name, "schema": h.table.props.get("schema"),
                    "repo": h.table.props.get("repository"), "access": h.role, "columns": list(h.columns),
                    "every_column": h.every_column, "via": {**_node_json(h.via), "line": h.line}, "hops": h.hops, "resolution": h.resolution}
                   for h in report.tables],
        "services": [{"repo": s.repo, "nodes": s.nodes, "endpoints": s.endpoints, "hops": s.hops,
                      "applications": list(s.applications)}
                     for s in report.services],
        "callers_by_hop": list(report.callers_by_hop),
        "truncated": list(report.truncated),
        "unbound": report.unbound,
        "mermaid": mermaid_diagram(report),
        "steps": [{"name": s.name, "ms": s.ms, "round_trips": s.round_trips, "detail": s.detail} for s in report.steps],
        "ms": round(report.ms, 3),
        "round_trips": report.round_trips,
    }
