"""Renderings of a blast radius (:class:`analysis.impact.BlastRadius`): the markdown report
(:func:`render_markdown`; front ends pass how a location becomes a link), its one-line summary
(:func:`summary_text`, for hovers and code lenses) and a JSON-serialisable view (:func:`report_json`).
Everything here is a pure function of the report; nothing reads a store.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from analysis.impact import BlastRadius, PathStep, count_noun
from analysis.navigation import dotted_name
from stores.contracts import Node

__all__ = ["plain_link", "summary_text", "render_markdown", "report_json"]

_BACKTICKS = re.compile(r"`+")
_RESOLUTION_ORDER = {"exact": 0, "inferred": 1, "name": 2}


def plain_link(repo: str, path: str, line: int) -> str:
    """``path:line``: how the CLI prints a location."""
    return f"{path}:{line}"


def summary_text(report: BlastRadius) -> str:
    """``N callers · M endpoints`` (direct callers; endpoints reached within the depth)."""
    return f"{count_noun(len(report.callers), 'caller')} · {count_noun(len(report.endpoints), 'endpoint')}"


def _signature(node_id: str) -> str:
    """The ``(…)`` that ends a callable's id (overloads differ there), else ``""``."""
    return node_id[node_id.rfind("("):] if node_id.endswith(")") and "(" in node_id else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    """``text`` as one markdown code span on one line, whatever it holds (names and paths come from
    the indexed code): line breaks become spaces; the fence is one backtick longer than the longest
    run of backticks inside, with a space inside it when the text starts or ends with a backtick."""
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    if not text:
        return "` `"
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _path_text(example: Sequence[PathStep]) -> str:
    return " → ".join(_code(s.name) for s in example)


def render_markdown(report: BlastRadius, link: Callable[[str, str, int], str] = plain_link, limit: int = 50) -> str:
    """The report as markdown: Targets, Direct callers, Reachable endpoints (a table), Topics, Other
    entry points (when any), Services affected, Truncated, Steps executed. Locations go through
    ``link(repo, path, line)``; lists longer than ``limit`` rows are cut (the data keeps them all)."""
    name = report.targets[0].node.qualname if report.targets else report.query
    lines = [f"# Blast radius of {_code(name)}", ""]
    if not report.targets:
        lines += [f"No symbol matches {_code(report.query)}.", ""]
    else:
        lines += [f"**{summary_text(report)}** · {count_noun(len(report.services), 'service')} · "
                  f"{count_noun(report.reached, 'node')} reached within {report.depth} hops", ""]

    def more(items: Sequence[Any]) -> list[str]:
        return [f"- … and {len(items) - limit:,} more"] if len(items) > limit else []

    lines += ["## Targets", ""]
    same_name = Counter(dotted_name(t.node) for t in report.targets)
    for t in report.targets[:limit]:
        n = t.node
        shown = dotted_name(n) + (_signature(n.id) if same_name[dotted_name(n)] > 1 else "")  # overloads apart
        lines.append(f"- {_code(shown)} ({n.label.lower()}, {t.role}) · {n.repo} · {link(n.repo, n.file, n.start_line)}")
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
        calls = " → " + ", ".join(_code(i) for i in into) if names else ""
        lines.append(f"- {_code(who)} · {c.node.repo} · {at}{calls}")
    lines += more(report.callers) or ([] if report.callers else ["- none"])

    lines += ["", "## Reachable endpoints", ""]
    if report.endpoints:
        lines += ["| Method | Path | Repository | Hops | Example path |", "|---|---|---|---|---|"]
        for h in report.endpoints[:limit]:
            where = h.repo if not h.service or h.service == h.repo else f"{h.repo} ({h.service})"
            lines.append(f"| {_cell(h.http_method)} | {_cell(_code(h.path))} | {_cell(where)} | {h.hops} | {_cell(_path_text(h.example))} |")
        lines += more(report.endpoints)
    else:
        lines.append("- none")

    lines += ["", "## Topics", ""]
    for tp in report.topics[:limit]:
        roles = []
        if tp.consumers:
            roles.append("consumed by " + ", ".join(f"{_code(n.qualname)} ({n.repo})" for n in tp.consumers))
        if tp.producers:
            roles.append("produced by " + ", ".join(f"{_code(n.qualname)} ({n.repo})" for n in tp.producers))
        lines.append(f"- {_code(tp.name)}: {'; '.join(roles)} · {count_noun(tp.hops, 'hop')} · {_path_text(tp.example)}")
    lines += more(report.topics) or ([] if report.topics else ["- none"])

    others = [p for p in report.entry_points if not {"http", "kafka"} & set(p.kinds)]
    if others:
        lines += ["", "## Other entry points", ""]
        for p in others[:limit]:
            who = p.node.file if p.node.label == "File" else p.node.qualname
            kinds = ", ".join(p.kinds)
            lines.append(f"- {_code(who)} ({kinds}) · {p.node.repo} · {count_noun(p.hops, 'hop')} · "
                         f"{link(p.node.repo, p.node.file, p.node.start_line)}")
        lines += more(others)

    lines += ["", "## Services affected", ""]
    if report.services:
        lines += ["| Repository | Nodes | Endpoints | Nearest hop |", "|---|---|---|---|"]
        lines += [f"| {_cell(s.repo + (' (' + ', '.join(s.applications) + ')' if s.applications and s.applications != (s.repo,) else ''))}"
                  f" | {s.nodes} | {s.endpoints} | {s.hops} |" for s in report.services]
    else:
        lines.append("- none")

    lines += ["", "## Truncated", ""]
    lines += [f"- {t}" for t in report.truncated] or [f"- nothing: every caller within {report.depth} hops was followed"]

    lines += ["", "## Steps executed", "", "| # | Step | Time | Store calls | Result |", "|---|---|---|---|---|"]
    for i, s in enumerate(report.steps, 1):
        lines.append(f"| {i} | {s.name} | {s.ms:.1f} ms | {s.round_trips} | {_cell(s.detail)} |")
    lines.append(f"| | Total | {report.ms:.1f} ms | {report.round_trips} | |")
    return "\n".join(lines) + "\n"


def _node_json(n: Node) -> dict[str, Any]:
    return {"id": n.id, "name": n.name, "qualname": n.qualname, "label": n.label, "repo": n.repo, "path": n.file,
            "line": n.start_line, "col": n.start_col}


def _path_json(example: Sequence[PathStep]) -> list[dict[str, Any]]:
    return [{"id": s.id, "name": s.name, "label": s.label, "repo": s.repo, "path": s.file, "line": s.line}
            for s in example]


def report_json(report: BlastRadius) -> dict[str, Any]:
    """The report as JSON-ready data (lines 1-based, columns 0-based code points, as stored)."""
    return {
        "query": report.query,
        "depth": report.depth,
        "summary": {"callers": len(report.callers), "call_sites": report.call_sites, "endpoints": len(report.endpoints),
                    "topics": len(report.topics), "services": len(report.services), "reached": report.reached,
                    "text": summary_text(report)},
        "targets": [{**_node_json(t.node), "role": t.role} for t in report.targets],
        "callers": [{**_node_json(c.node), "sites": [
            {"target": s.target, "repo": s.repo, "path": s.file, "line": s.line, "col": s.col,
             "resolution": s.resolution} for s in c.sites]} for c in report.callers],
        "endpoints": [{"id": h.id, "http_method": h.http_method, "path": h.path, "repo": h.repo, "service": h.service,
                       "hops": h.hops,
                       "handler": _node_json(h.handler), "example": _path_json(h.example)} for h in report.endpoints],
        "topics": [{"id": t.id, "name": t.name, "consumers": [n.id for n in t.consumers],
                    "producers": [n.id for n in t.producers], "hops": t.hops, "example": _path_json(t.example)}
                   for t in report.topics],
        "entry_points": [{**_node_json(p.node), "kinds": list(p.kinds), "hops": p.hops} for p in report.entry_points],
        "services": [{"repo": s.repo, "nodes": s.nodes, "endpoints": s.endpoints, "hops": s.hops,
                      "applications": list(s.applications)}
                     for s in report.services],
        "callers_by_hop": list(report.callers_by_hop),
        "truncated": list(report.truncated),
        "steps": [{"name": s.name, "ms": s.ms, "round_trips": s.round_trips, "detail": s.detail} for s in report.steps],
        "ms": round(report.ms, 3),
        "round_trips": report.round_trips,
    }
