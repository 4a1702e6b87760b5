"""Benchmark: ripple's JavaScript and Python call graphs on JCG's cases (Reif et al., ISSTA 2019).

Usage::

    python bench/jcg_links.py RESOURCES [--language js|python] [--category CAT ...] [--json]
                              [--show CATEGORY/CASE]

``RESOURCES`` is JCG's ``jcg_testcases/src/main/resources`` folder (``opalj/JCG``, not part of this
repository). Its ``js/`` and ``python/`` folders hold one markdown file a category;
:mod:`bench.jcg_cases` reads them. Each case has source files and the expected links::

    {"directLinks": [["<global>", "CL1.inner"], ["CL1.inner", "CL1.foo"]],
     "indirectLinks": ["DCG1.foo"]}

Every case's files are written to a temporary folder and indexed there in this process as ``ripple
index --no-embed`` does (``indexer.pipeline.index_repository`` into a fresh
``stores.embedded.EmbeddedStore``, one extraction process, no cache, no registry entry), as
``bench/pycg_suite.py`` does for PyCG's suite. Its CALLS edges are read from the SQLite file and named
as JCG names functions.

JCG's naming (read off the 62 JavaScript and 64 Python cases):

- ``<global>`` is the module-level code of the case's main file (``Main.js`` / ``Main.py`` when the
  case has one, else its only file);
- any other function is ``<Stem>.<name>``: the stem of the file defining it and its own name, not
  its enclosing scopes (``CL1.inner`` for ``inner`` nested in ``outer``; ``C2.test`` for method
  ``test`` of class ``Foo``); a few Python cases qualify a method by its class
  (``OO1.Foo.__getitem__``), so a name also matches a trailing part of ripple's qualname;
- ``:<line>`` is appended to tell same-named functions apart (``ND3.bar:3``, ``ND3.bar:11``), and,
  unevenly, to some others (``C2.test:7``, but ``C3.bar``). The line is the definition's line
  counted from 0 (the path comment heading the listing is line 0) for callees, but from 1 for the
  named callers of JavaScript C5 and Python C6 / C8 (``C6.foo:8`` is the ``foo`` that ``C6.foo:7``
  is): a line matches either way;
- ``<Stem>.<anonymous:<line>>`` is a function expression, arrow function or lambda (0-based line);
- ``Native.<name>`` is a builtin (``Native.console_log``, ``Native.Array_prototype_map``,
  ``Native.print``).

Ripple's side. A File node is ``<global>`` (main file) or ``<Stem>.<global>`` (another file's
module-level code; JCG expects no edge from there). A definition is ``<Stem>.<name>`` when its file
defines no other callable of that name, else ``<Stem>.<name>:<line>`` (0-based); an edge is renamed
to the expected link it matches when there is one (so ``C3.bar`` and ``C2.test:7`` are both
matched), else to that default name. Conventions mapped:

- ripple makes no node for an anonymous function or lambda and gives the calls written in one to
  the innermost enclosing named function (``indexer/model.py``): an expected link whose *caller* is
  ``<anonymous:L>`` is compared as from that function (or ``<global>``). Links *to* an anonymous
  function stay expected: ripple cannot produce them, and they count as misses;
- a decorator application: ripple makes the decorated function the caller of its decorator (the
  edge's line is above the definition's name line), JCG the scope where the definition runs; such
  an edge is moved to the definition's container, as in ``bench/pycg_suite.py``;
- ``new C()`` / ``C()`` of a class with no constructor of its own is a CALLS edge to the Class node
  in ripple and no link in JCG: edges to Class nodes are dropped.

Scoring policy. ``directLinks`` are the main figure. A link with a ``Native.`` end is ``builtin``:
ripple makes no node for a builtin, so it is counted, not scored; it is ``seen`` when the call is on
record: for ``(f, Native.x)`` an unresolved call site in ``f`` named as ``x``'s last part
(``Array_prototype_map`` -> ``map``, ``console_log`` -> ``log``), for ``(Native.x, g)`` (a builtin
calling back ``g``) a CALLS or REFERENCES edge to ``g``; ripple's CALLS edge from the caller to
such a ``g`` (``map(g, xs)``: the library calls ``g`` for its caller, PyCG's convention) is that
builtin link, not an extra. Every other link is ``internal``: recall
(expected links ripple has), precision (ripple's scored edges that are expected) and exact cases
(every expected link found, no scored edge unexpected) are computed on these.

JCG's links list what a case tests, not every call in it: JavaScript HOF1 expects ``HOF1.foo ->
HOF1.bar`` but not ``<global> -> HOF1.foo`` for the ``foo(bar)`` written there, C2 no link to the
constructor ``new Foo(1)`` runs. So an edge that is not expected is ``unlisted`` (shown, not
scored) when it sits at a call written with the callee's own name (``foo(...)``, ``obj.foo(...)``,
``new Foo(...)`` / ``Foo(...)`` / ``super(...)`` to its constructor, ``@dec``: :func:`direct_call`)
and no expected link of the same caller calls a function of that name. Every other unexpected edge
is an error: one reached through a value (a variable, a container, a parameter, a returned
function, a callback; those are what the cases test), and one to the wrong function of a name the
caller's links call (a name-fallback guess: JavaScript C4's ``f.foo()`` bound to ``Baz.foo``).
``indirectLinks`` name functions reached only through ``eval`` / ``Function`` / ``setTimeout`` with a
string or a computed property name; they are counted separately: ``reached`` when some CALLS edge of
ripple's ends at that function.

Known faults of the expected links, left as they are (they count against ripple): Python M2 imports
``M1`` but its file is ``M2.py``; Python M6 calls ``foo`` inside ``bar`` yet expects ``<global> ->
M6.foo``; Python D3 and D4 disagree on what calling a decorated function links (D3: the decorated
function, D4: the wrappers).

Prints, per category and overall: cases, exact cases, expected internal links, ripple's scored
edges, hits, precision, recall, unlisted edges, builtin links (seen), indirect links (reached). ``--json`` prints the
per-case and summary data instead; ``--show`` prints one case's source, its missing, extra and hit
links, its builtin links and its unresolved call sites.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.jcg_cases import JcgCase, language_files, read_cases, write_case  # noqa: E402
from bench.suite_index import index_read_only  # noqa: E402
from bench.suite_score import LinkScore, lines, summary  # noqa: E402
from bench.suite_score import by_category as categories  # noqa: E402

REPO = "r"
GLOBAL = "<global>"
NATIVE = "Native."
Link = tuple[str, str]
_JCG_NAME = re.compile(r"^(?P<stem>[^.]+)\.(?P<path>.+?)(?::(?P<line>\d+))?$")
_ANONYMOUS = re.compile(r"^<anonymous:(?P<line>\d+)>$")


@dataclass(frozen=True)
class RippleNode:
    """One node of ripple's index as the renaming needs it: ``stem`` of its file, ``qualname``
    (``None`` for a File node), ``line`` (1-based line of its name, or of the file's first line),
    ``end_line``, ``label`` (``File``, ``Function``, ``Method``, ``Class``...) and ``main``: whether
    its file is the case's main file."""

    stem: str
    qualname: str | None
    line: int
    end_line: int
    label: str
    main: bool = False

    @property
    def name(self) -> str:
        """Its own name: the last part of the qualname."""
        return (self.qualname or GLOBAL).rsplit(".", 1)[-1]


def default_name(node: RippleNode, same_named: int) -> str:
    """JCG's name of a ripple node when no expected link says otherwise: ``<global>`` (main file's
    module-level code), ``Stem.<global>`` (another file's), ``Stem.name`` when ``same_named`` (the
    count of callables of that name in its file) is 1, else ``Stem.name:<0-based line>``."""
    if node.qualname is None:
        return GLOBAL if node.main else f"{node.stem}.{GLOBAL}"
    base = f"{node.stem}.{node.name}"
    return base if same_named <= 1 else f"{base}:{node.line - 1}"


def denotes(jcg: str, node: RippleNode) -> bool:
    """Whether JCG's name ``jcg`` (``CL1.inner``, ``ND3.bar:11``, ``OO1.Foo.__getitem__``, ``<global>``)
    names ripple's ``node``: same file stem, ``jcg``'s dotted path the node's name or a trailing part
    of its qualname, and its line (if any) the node's line counted from 0 or from 1 (see the module
    docstring). ``<global>`` names the main file's File node. Anonymous functions name no node."""
    if jcg == GLOBAL:
        return node.qualname is None and node.main
    m = _JCG_NAME.match(jcg)
    if not m or node.qualname is None or m.group("stem") != node.stem:
        return False
    path = m.group("path")
    if path != node.qualname and not node.qualname.endswith("." + path):
        return False
    line = m.group("line")
    return line is None or int(line) in (node.line - 1, node.line)


def fold_anonymous(jcg: str, nodes: list[RippleNode]) -> str | None:
    """The node key (index in ``nodes``) standing for JCG's caller ``Stem.<anonymous:L>``: the
    innermost callable of that file whose span holds line ``L + 1`` (1-based), else the file's
    module-level code. ``None`` when ``jcg`` is no anonymous function or the file has no node."""
    m = _JCG_NAME.match(jcg)
    anon = _ANONYMOUS.match(m.group("path")) if m else None
    if not anon:
        return None
    line = int(anon.group("line")) + 1
    best: tuple[int, int] | None = None
    for i, n in enumerate(nodes):
        if n.stem != m.group("stem"):
            continue
        if n.qualname is None:
            if best is None:
                best = (1 << 30, i)
        elif n.label != "Class" and n.line <= line <= n.end_line and (best is None or n.end_line - n.line < best[0]):
            best = (n.end_line - n.line, i)
    return None if best is None else str(best[1])


def simple_name(jcg: str) -> str:
    """The function's own name in JCG's name ``jcg``: ``OO1.Foo.__getitem__`` -> ``__getitem__``,
    ``ND3.bar:3`` -> ``bar``, ``<global>`` -> ``<global>``."""
    m = _JCG_NAME.match(jcg)
    return m.group("path").rsplit(".", 1)[-1] if m else jcg


def rename_edges(edges: list[tuple[int, int, bool]], nodes: list[RippleNode], expected: set[Link]
                 ) -> tuple[set[Link], set[Link]]:
    """Ripple's edges ``(caller index, callee index, direct)`` into ``nodes`` in JCG's naming:
    ``(found, unlisted)``.

    An edge is renamed to every expected link whose names denote its two ends (:func:`denotes`; an
    expected anonymous caller denotes the node :func:`fold_anonymous` picks); an edge matching none
    is renamed with :func:`default_name` on both ends. Edges to Class nodes are dropped. ``found``
    holds every renamed edge; ``unlisted`` those of them that are not expected, sit at a call
    written with the callee's own name (``direct``) and call a function of a name no expected link
    of that caller calls: a call JCG's links leave out (see the module docstring), not scored.
    """
    counts: dict[tuple[str, str], int] = {}
    for n in nodes:
        if n.qualname is not None and n.label != "Class":
            counts[(n.stem, n.name)] = counts.get((n.stem, n.name), 0) + 1

    def names(i: int, side: int) -> set[str]:
        out = set()
        for link in expected:
            folded = fold_anonymous(link[side], nodes)
            if (folded == str(i)) if folded is not None else denotes(link[side], nodes[i]):
                out.add(link[side])
        return out

    found: set[Link] = set()
    unlisted: set[Link] = set()
    scored: set[Link] = set()
    for s, d, direct in edges:
        if nodes[d].label == "Class":
            continue
        callers = names(s, 0)
        hits = {(a, b) for a in callers for b in names(d, 1)} & expected
        if hits:
            found |= hits
            continue
        link = (default_name(nodes[s], counts.get((nodes[s].stem, nodes[s].name), 0)),
                default_name(nodes[d], counts.get((nodes[d].stem, nodes[d].name), 0)))
        found.add(link)
        called = {simple_name(b) for a, b in expected if a in callers}
        (unlisted if direct and nodes[d].name not in called else scored).add(link)
    return found, unlisted - scored


def direct_call(text: str, line: int, col: int, callee: RippleNode) -> bool:
    """Whether the call at ``line`` (1-based) / ``col`` (0-based) of ``text`` is written with the
    callee's own name: the identifier there is ``callee``'s name (for a constructor, also its
    class's name or ``super``) and is called (``(`` follows) or applied as a decorator (``@``
    precedes)."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return False
    row = lines[line - 1]
    m = re.match(r"[\w$]+", row[col:])
    if not m:
        return False
    word = m.group(0)
    names = {callee.name}
    if callee.name in ("constructor", "__init__") and callee.qualname and "." in callee.qualname:
        names |= {callee.qualname.rsplit(".", 2)[-2], "super"}
    if word not in names:
        return False
    return row[col + len(word):].lstrip().startswith("(") or row[:col].rstrip().endswith("@")


@dataclass
class CaseResult(LinkScore):
    """One case's comparison (:class:`bench.suite_score.LinkScore`); links in JCG's naming. Ripple's
    ``unlisted`` links are left out of the score; ``indirect`` / ``indirect_reached``: the callees
    JCG reaches only indirectly, and those ripple reached."""

    unlisted: set[Link] = field(default_factory=set)
    indirect: set[str] = field(default_factory=set)
    indirect_reached: set[str] = field(default_factory=set)

    @property
    def scored(self) -> set[Link]:
        """Ripple's links that count: all but the unlisted ones."""
        return self.found - self.unlisted

    def more_json(self) -> dict:
        """Unlisted links, builtin and indirect counts."""
        return {"unlisted": lines(self.unlisted), **super().more_json(),
                "indirect": len(self.indirect), "indirect_reached": len(self.indirect_reached)}


def main_file(case: JcgCase) -> str:
    """The case's main file: ``Main.<ext>`` if it has one, else its first file."""
    files = list(case.files)
    return next((f for f in files if PurePosixPath(f).stem == "Main"), files[0])


def index_case(case: JcgCase) -> tuple[list[RippleNode], list[tuple[int, int, bool]], list[tuple[int, int]],
                                       list[tuple[int, str, int]]]:
    """Index the case's files; its nodes, CALLS edges ``(caller, callee, direct)`` (node indexes;
    ``direct``: :func:`direct_call`), REFERENCES edges ``(src, dst)`` and unresolved call sites
    ``(caller index, name, line)``. A decorator's CALLS edge (line above the
    caller's name line) is moved to the caller's container (see the module docstring)."""
    main = main_file(case)
    with tempfile.TemporaryDirectory(prefix="jcg-") as tmp:
        src = Path(tmp) / "src"
        write_case(case, src)
        db = Path(tmp) / "index.db"
        conn = index_read_only(src, db, REPO)
        try:
            rows = conn.execute("SELECT id, label, qualname, file, start_line, end_line, props FROM nodes").fetchall()
            parent = {dst: src for src, dst in conn.execute("SELECT src, dst FROM edges WHERE kind = 'CONTAINS'")}
            edges = conn.execute("SELECT kind, src, dst, file, line, col FROM edges WHERE kind IN ('CALLS', 'REFERENCES')").fetchall()
            unresolved = conn.execute("SELECT caller, name, line FROM unresolved").fetchall()
        finally:
            conn.close()
    index: dict[str, int] = {}
    nodes: list[RippleNode] = []
    name_lines: dict[str, int] = {}
    for nid, label, qualname, file, start, end, props in rows:
        if file not in case.files:
            continue  # Endpoint, Repository and other nodes outside the case's files
        p = json.loads(props or "{}")
        name_lines[nid] = p.get("name_line") or start
        index[nid] = len(nodes)
        nodes.append(RippleNode(PurePosixPath(file).stem, None if label == "File" else qualname,
                                name_lines[nid], end, label, file == main))
    calls, refs = [], []
    for kind, s, d, file, line, col in edges:
        if kind == "CALLS" and line and s in name_lines and line < name_lines[s] and s in parent:
            s = parent[s]
        if s not in index or d not in index:
            continue
        if kind == "CALLS":
            calls.append((index[s], index[d], direct_call(case.files.get(file, ""), line, col, nodes[index[d]])))
        else:
            refs.append((index[s], index[d]))
    return nodes, calls, refs, [(index[c], n, line) for c, n, line in unresolved if c in index]


def native_name(name: str) -> str:
    """The method or function a ``Native.`` name calls: ``Native.Array_prototype_map`` -> ``map``,
    ``Native.console_log`` -> ``log``, ``Native.print`` -> ``print``."""
    return name.removeprefix(NATIVE).rsplit("_", 1)[-1]


def run_case(case: JcgCase) -> CaseResult:
    """Index one case and compare (see the module docstring's scoring policy)."""
    res = CaseResult(f"{case.category}/{case.name}")
    expected = case.expected or {}
    for src, dst in expected.get("directLinks", []):
        (res.builtin if src.startswith(NATIVE) or dst.startswith(NATIVE) else res.expected).add((src, dst))
    res.indirect = set(expected.get("indirectLinks", []))
    try:
        nodes, calls, refs, unresolved = index_case(case)
    except Exception as exc:  # a crash is a failed case, not a failed run
        res.error = f"{type(exc).__name__}: {exc}"
        return res
    res.found, res.unlisted = rename_edges(calls, nodes, res.expected)
    # `map(foo, arr)`: ripple links the caller to foo (the call a library makes on its behalf,
    # PyCG's convention); JCG writes it (Native.map, foo), a builtin link: not scored here
    called_back = {d for s, d in res.builtin if s.startswith(NATIVE)}
    res.found = {link for link in res.found if link in res.expected or link[1] not in called_back}
    res.unlisted &= res.found
    counts: dict[tuple[str, str], int] = {}
    for n in nodes:
        if n.qualname is not None and n.label != "Class":
            counts[(n.stem, n.name)] = counts.get((n.stem, n.name), 0) + 1
    label = lambda i: default_name(nodes[i], counts.get((nodes[i].stem, nodes[i].name), 0))  # noqa: E731
    res.unresolved = [(label(c), n, line) for c, n, line in unresolved]
    sites = {(c, n) for c, n, _ in unresolved}
    reached = {d for _, d, _ in calls} | {d for _, d in refs}
    for s, d in res.builtin:
        if d.startswith(NATIVE):
            seen = any((i, native_name(d)) in sites for i, n in enumerate(nodes) if denotes(s, n))
        else:
            seen = any(denotes(d, nodes[i]) for i in reached)
        if seen:
            res.builtin_seen.add((s, d))
    called = {d for _, d, _ in calls}
    res.indirect_reached = {f for f in res.indirect if any(denotes(f, nodes[i]) for i in called)}
    return res


COUNTED = ("unlisted", "builtin", "builtin_seen", "indirect", "indirect_reached")
"""The sets of a :class:`CaseResult` whose sizes a summary adds up, in its order."""


def summarize(results: list[CaseResult]) -> dict:
    """Totals over ``results``: cases, exact, expected, found, hits, precision, recall, builtin (seen),
    indirect (reached), errors."""
    return summary(results, COUNTED)


def by_category(results: list[CaseResult]) -> dict[str, dict]:
    """:func:`summarize` per category."""
    return categories(results, COUNTED)


def print_table(results: list[CaseResult]) -> None:
    head = (f"{'category':<22}{'cases':>6}{'exact':>6}{'expect':>7}{'ripple':>7}{'hits':>6}"
            f"{'prec':>7}{'recall':>7}{'unlist':>7}{'builtin':>8}{'seen':>5}{'indir':>6}{'reach':>6}")
    print(head)
    print("-" * len(head))
    rows = list(by_category(results).items()) + [("TOTAL", summarize(results))]
    for cat, s in rows:
        if cat == "TOTAL":
            print("-" * len(head))
        print(f"{cat:<22}{s['cases']:>6}{s['exact']:>6}{s['expected']:>7}{s['found']:>7}{s['hits']:>6}"
              f"{s['precision']:>7.1%}{s['recall']:>7.1%}{s['unlisted']:>7}{s['builtin']:>8}{s['builtin_seen']:>5}"
              f"{s['indirect']:>6}{s['indirect_reached']:>6}")
    failing = [r for r in results if not r.exact]
    if failing:
        print(f"\nnot exact ({len(failing)}): " + ", ".join(
            f"{r.name} (-{len(r.missing)} +{len(r.extra)}{' ERROR' if r.error else ''})" for r in failing))


def show(case: JcgCase) -> None:
    r = run_case(case)
    for rel, text in case.files.items():
        print(f"--- {rel}")
        for i, line in enumerate(text.splitlines()):
            print(f"{i:3} {line}")  # 0-based, as JCG's :<line> suffixes count
    if r.error:
        print(f"ERROR {r.error}")
    print(f"\n{r.name}: expected {len(r.expected)}, ripple {len(r.scored)} scored + {len(r.unlisted)} unlisted,"
          f" hits {len(r.hits)}"
          f"{' (exact)' if r.exact else ''}")
    for title, links in (("missing", r.missing), ("extra", r.extra), ("hit", r.hits),
                         ("unlisted (not scored)", r.unlisted),
                         ("builtin (not scored)", r.builtin)):
        for s, d in sorted(links):
            seen = " [seen]" if (s, d) in r.builtin_seen else ""
            print(f"  {title:<22} {s} -> {d}{seen}")
    for f in sorted(r.indirect):
        print(f"  {'indirect':<22} {f}{' [reached]' if f in r.indirect_reached else ''}")
    for c, n, line in sorted(r.unresolved, key=lambda u: u[2]):
        print(f"  {'unresolved site':<22} {c}: {n} (line {line}, 1-based)")


def load(resources: Path, language: str, categories: list[str] | None) -> list[JcgCase]:
    """The cases of one language, optionally of some categories only."""
    out = [c for md in language_files(resources, language) for c in read_cases(md)]
    return [c for c in out if not categories or c.category in categories]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("resources", type=Path, help="JCG's jcg_testcases/src/main/resources folder")
    ap.add_argument("--language", choices=("js", "python"), default="js")
    ap.add_argument("--category", action="append", help="only this category (repeatable)")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--show", metavar="CATEGORY/CASE", help="missing and extra links of one case")
    args = ap.parse_args()
    cases = load(args.resources.resolve(), args.language, args.category)
    if args.show:
        match = [c for c in cases if f"{c.category}/{c.name}" == args.show]
        if not match:
            ap.error(f"no case {args.show} in {args.language}")
        show(match[0])
        return
    results = [run_case(c) for c in cases]
    if args.json:
        print(json.dumps({"summary": summarize(results), "categories": by_category(results),
                          "cases": [r.as_json() for r in results]}, indent=2))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
