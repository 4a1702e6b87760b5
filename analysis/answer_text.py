"""The markdown an agent reads of each answer of :mod:`analysis.agent_queries` (the ``text`` of an
:class:`~analysis.agent_queries.Answer`), built from the same JSON-ready data as its structured
result: one function per kind of answer (``search``, ``symbol``, callers / references, callees,
repositories), the blast radius's Truncated section, and :func:`finish`, which ends every answer with
what was cut and the steps executed. Places are ``path:line`` (1-based), with the repository in
front only when an answer spans several (:func:`analysis.navigation.location_text`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from analysis.impact import StepRun
from analysis.navigation import location_text

__all__ = ["callees_text", "finish", "refs_text", "repos_text", "search_text", "symbol_text", "truncated_section",
           "without_section"]


def _steps_text(steps: Sequence[StepRun]) -> str:
    """The "Steps executed" section: a table of each step's time and store calls."""
    rows = [f"| {s.name} | {s.ms:.1f} ms | {s.round_trips} | {_cell(s.detail)} |" for s in steps]
    return "\n".join(["## Steps executed", "", "| Step | Time | Store calls | Result |", "|---|---|---|---|", *rows])


def _cell(text: str) -> str:
    """``text`` as a markdown table cell (``|`` escaped, one line)."""
    return text.replace("|", "\\|").replace("\n", " ")


def finish(body: list[str], steps: Sequence[StepRun], notes: Sequence[str]) -> str:
    """An answer's markdown: ``body``'s lines, a **Truncated:** line of ``notes`` (when any) and the
    steps executed, ending with a newline."""
    out = list(body)
    if notes:
        out += ["", "**Truncated:** " + " ".join(f"{n}." if not n.endswith(".") else n for n in notes)]
    out += ["", _steps_text(steps)]
    return "\n".join(out) + "\n"


def _fence(text: str, language: str = "") -> str:
    """``text`` in a fenced code block whose fence is longer than any run of backticks in it."""
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}{language}\n{text.rstrip()}\n{ticks}"


def _loc(item: Mapping[str, Any], several: bool) -> str:
    """Where ``item`` (a node's JSON) is, ``path:line`` as :func:`analysis.navigation.location_text`
    prints it: ``repo/path:line`` only when the answer spans ``several`` repositories."""
    line = item.get("line")
    if line:
        return location_text(item.get("repo") or "", item.get("path") or "", line, None, several)
    return f"{item.get('repo')}/{item.get('path')}" if several else f"{item.get('path')}"


def _spans_several(*groups: Iterable[Mapping[str, Any]]) -> bool:
    """Whether the items of ``groups`` (node or site JSON, each with its ``repo``) lie in more than
    one repository: then every place an answer names carries its repository."""
    return len({i.get("repo") for g in groups for i in g}) > 1


def _names(rel: Mapping[str, Any]) -> str:
    """``count: `a`, `b`, and N more`` for a hit's ``{count, names}`` context."""
    names = ", ".join(f"`{n}`" for n in rel["names"])
    more = rel["count"] - len(rel["names"])
    return f"{rel['count']}" + (f": {names}" if names else "") + (f", and {more} more" if more > 0 else "")


def without_section(markdown: str, heading: str) -> str:
    """``markdown`` without the section under ``heading`` (up to the next ``## `` heading)."""
    start = markdown.find(heading + "\n")
    if start < 0:
        return markdown
    end = markdown.find("\n## ", start + len(heading))
    return markdown[:start] + (markdown[end + 1:] if end >= 0 else "")


def truncated_section(markdown: str, cut: Sequence[str], notes: Sequence[str]) -> str:
    """``markdown`` (a rendered blast radius) with its Truncated section listing what the traversal
    cut (``cut``) and then what the budget left out (``notes``); unchanged without ``notes``."""
    if not notes:
        return markdown
    body = "\n".join(["## Truncated", "", *(f"- {t}" for t in cut), *(f"- {n}" for n in notes)]) + "\n"
    start = markdown.find("## Truncated\n")
    if start < 0:
        return markdown.rstrip("\n") + "\n\n" + body
    end = markdown.find("\n## ", start + 1)
    return markdown[:start] + body + (markdown[end:] if end >= 0 else "")


def search_text(title: str, data: Mapping[str, Any]) -> list[str]:
    """The lines of a ``search`` / ``similar`` answer: each hit's place, score, ranks, graph context
    and source."""
    several = _spans_several(data["hits"], (m for h in data["hits"] for m in h.get("mentions", [])))
    lines = [f"# {title}", ""]
    for note in data.get("notes", []):
        lines.append(f"_{note}_")
    if not data["hits"]:
        lines.append("No results.")
    for h in data["hits"]:
        ranks = " ".join(f"{k}#{v}" for k, v in h["ranks"].items())
        lines += ["", f"## {h['rank']}. `{h['name']}` ({h['kind']}, {_loc(h, several)}-"
                      f"{h['end_line']}) score {h['score']:.4f} {ranks}",
                  f"id `{h['id']}` · callers {_names(h['callers'])} · callees {_names(h['callees'])} · "
                  f"endpoints {_names(h['endpoints'])}"
                  + ("".join(f" · mentions `{m['name']}` ({_loc(m, several)})" for m in h.get("mentions", []))),
                  _fence(h["source"], h["language"])]
    if data.get("dropped"):
        lines += ["", f"{data['dropped']} hits dropped: their graph node is missing (re-index the repository)"]
    return lines


def symbol_text(data: Mapping[str, Any]) -> list[str]:
    """The lines of a ``symbol`` answer: each definition's signature, place, source, callers and callees."""
    defs = data["definitions"]
    several = _spans_several(defs, (x for d in defs for x in (*d["callers"], *d["callees"])))
    lines = [f"# Symbol {data['target']}"]
    for d in defs:
        sig = f" {d['signature']}" if d.get("signature") else ""
        lines += ["", f"## `{d['name']}`{sig} ({d['label'].lower()}, {_loc(d, several)}-{d['end_line']})", f"id `{d['id']}`"]
        if d["decorators"]:
            lines.append("decorators: " + ", ".join(f"`{x}`" for x in d["decorators"]))
        if d["endpoints"]:
            lines.append("serves: " + ", ".join(f"`{x}`" for x in d["endpoints"]))
        lines.append(_fence(d["source"], d["language"]))
        lines.append(f"**Callers** ({d['caller_count']} call sites)"
                     + (f", {len(d['callers'])} shown" if len(d["callers"]) < d["caller_count"] else ""))
        lines += [f"- `{r['from_name']}` at {location_text(r['repo'], r['path'], r['line'], r['col'], several)} "
                  f"[{r['resolution']}]"
                  for r in d["callers"]]
        lines.append(f"**Callees** ({d['callee_count']})"
                     + (f", {len(d['callees'])} shown" if len(d["callees"]) < d["callee_count"] else ""))
        lines += [f"- `{c['name']}` ({_loc(c, several)}), called at line " + ", ".join(str(s["line"]) for s in c["sites"])
                  for c in d["callees"]]
    if data["also_named"]:
        lines += ["", "Also named so (pass an id to choose): " + ", ".join(f"`{n['id']}`" for n in data["also_named"])]
    return lines


def _targets_line(data: Mapping[str, Any], several: bool = True) -> list[str]:
    """``Target: `name` (place, id `...`)``: the place ``repo/path:line``, or ``path:line`` when the
    answer lies in one repository (not ``several``)."""
    out = ["Target: " + ", ".join(f"`{t['name']}` ({_loc(t, several) + ', ' if t.get('path') else ''}id `{t['id']}`)"
                                  for t in data["targets"])]  # an Endpoint has no place
    if data["also_named"]:
        out.append("Also named so, not included: " + ", ".join(f"`{n['id']}`" for n in data["also_named"]))
    return out


def refs_text(title: str, data: Mapping[str, Any], key: str) -> list[str]:
    """Callers / references as ``ripple callers`` prints them: each site ``path:line:col`` (the
    repository in front only when the sites span several, :func:`analysis.navigation.location_text`)."""
    several = len({r["repo"] for r in (*data[key], *data["targets"])}) > 1
    lines = [f"# {title} ({data['count']})", "", *_targets_line(data, several), ""]
    for r in data[key]:
        how = f" [{r['resolution']}]" if r["resolution"] else ""
        kind = "" if r["kind"] == "CALLS" else f" {r['kind']}"
        where = location_text(r["repo"], r["path"], r["line"], r["col"], several)
        lines.append(f"- {where} `{r['from_name']}`{kind}{how}")
    return lines


def callees_text(data: Mapping[str, Any]) -> list[str]:
    """The lines of a ``callees`` answer: each callee and the lines it is called at."""
    several = _spans_several(data["targets"], data["callees"])
    lines = [f"# Callees ({data['count']})", "", *_targets_line(data, several), ""]
    for c in data["callees"]:
        lines.append(f"- `{c['name']}` ({_loc(c, several)}), called at line " + ", ".join(str(s["line"]) for s in c["sites"]))
    return lines


def repos_text(data: Mapping[str, Any]) -> list[str]:
    """The lines of a ``repositories`` answer: a table of the indexed repositories and the totals."""
    lines = ["# Repositories", "", "| Repository | Files | Chunks (embedded) | Indexed at | Changed on disk since "
             "| Folder |", "|---|---|---|---|---|---|"]
    for r in data["repositories"]:
        changed = "?" if r["changed_files"] is None else str(r["changed_files"])
        lines.append(f"| {_cell(r['name'])} | {r['files']:,} | {r['chunks']:,} ({r['embedded']:,}) | "
                     f"{r['indexed_at'] or '?'} | {changed} | "
                     f"{_cell(r['root'] or '?')} |")
    t = data["totals"]
    nodes = ", ".join(f"{k} {v:,}" for k, v in sorted(t["nodes"].items()))
    lines += ["", f"Nodes: {nodes or 'none'}. Chunks: {t['chunks']:,} ({t['embedded']:,} embedded)."]
    return lines
