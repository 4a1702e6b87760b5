"""Benchmark: ripple's Python call-graph accuracy on the PyCG micro-benchmark (Salis et al., ICSE 2021).

Usage::

    python bench/pycg_suite.py SNIPPETS [--category CAT ...] [--json] [--show CATEGORY/CASE]

``SNIPPETS`` is PyCG's ``micro-benchmark/snippets`` folder (not part of this repository; e.g.
``git --git-dir=<PyCG mirror> archive HEAD micro-benchmark | tar -x -C /tmp/pycg``). Each case
folder ``<category>/<case>/`` holds ``main.py`` (sometimes more modules) and ``callgraph.json``, the
expected call graph as an adjacency list in PyCG's dotted naming: ``main`` is the module-level code
of ``main.py``, ``main.func`` / ``main.Cls.meth`` / ``main.func.<lambda1>`` its definitions,
``pkg.mod`` a module ``pkg/mod.py`` (``pkg/__init__.py`` is ``pkg``), ``<builtin>.print`` a builtin.

Every case's ``.py`` files are copied to a temporary folder and indexed there in this process as
``ripple index --no-embed`` does (``indexer.pipeline.index_repository`` into a fresh
``stores.embedded.EmbeddedStore``, one extraction process, no cache, no registry entry). Its CALLS
edges are read from the SQLite file and renamed into PyCG's naming:

- a File node (the caller of the module-level code) is its module, named as PyCG does from the
  file's path (``nest/imported.py`` is ``nest.imported`` even when ``nest/`` has no ``__init__.py``
  and ripple's module key is ``imported``);
- any other node is its file's module + ``"." + qualname`` (the id's ``(arity)`` suffix dropped);
- a decorator application: ripple makes the decorated function the caller of its decorator (the
  edge's line is a decorator line, above the definition's name line), PyCG the scope where the
  ``def`` runs; such an edge is moved to the definition's container (CONTAINS parent), so the
  convention does not count as an error;
- a call of a class that defines no ``__init__`` is a CALLS edge to the Class node in ripple and no
  edge at all in PyCG (an inherited ``__init__`` in the case's code is PyCG's callee, and ripple's
  edge to that method is compared as usual); edges to Class nodes are dropped.

Lambdas. Ripple makes a function node for a lambda bound to a name by a statement (``key = lambda
x: ...``; modifier ``lambda``), named by that name, and none for any other lambda, whose calls go to
the enclosing function. A named lambda's node is renamed to PyCG's ``<lambdaN>`` (PyCG numbers the
lambdas of each namespace in the order its AST visitor meets them: :func:`lambda_names`), and every
caller inside a lambda, on both sides, is compared as the enclosing named scope (``X.<lambdaN>`` ->
``X``). So an edge *to* a named lambda is compared as it is, calls made in any lambda count as the
enclosing function's, and an edge to an anonymous lambda (passed or returned) counts as a miss.

Scoring policy. Expected edges fall into three classes by callee:

- ``internal``: the callee is defined in the case's own modules; this is the main figure
  (precision, recall, exact cases) and the only class ripple's edges are compared against;
- ``builtin``: ``<builtin>.len`` and methods of builtin types (``<**PyStr**>.join``). Ripple makes
  no nodes for builtins: counted, not scored;
- ``external``: a module not in the case (``ext.Cls.fun``). Ripple makes no node for an unindexed
  library either and stores nothing of a call it binds there (outcome ``external``, only counted):
  counted, not scored.

For both, ``seen`` counts the expected edges whose caller holds an unresolved call site (ripple's
``unresolved`` table) named as the callee's last component: the call is at least on record.

PyCG's expected graph is flow-insensitive and, in two cases, holds an edge that cannot happen at run
time (``mro/self_assignment``: ``main -> main.B.func``; ``kwargs/chained_call``:
``main.func2 -> main.func2``); they are left expected, so they count as misses.

Ripple edges whose ends cannot be named (none expected) count as extras. Prints, per category and
overall: cases, expected internal edges, found, ripple's edges, precision, recall, exact cases, then
the builtin / external counts. ``--json`` prints the per-case and summary data instead; ``--show``
prints one case's source, its missing and extra edges and its unresolved call sites.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.suite_index import index_read_only  # noqa: E402
from bench.suite_score import LinkScore, summary  # noqa: E402
from bench.suite_score import by_category as categories  # noqa: E402

REPO = "r"
Edge = tuple[str, str]


@dataclass
class CaseResult(LinkScore):
    """One case's comparison (:class:`bench.suite_score.LinkScore`), with the expected links to
    external modules and those ripple saw (not scored)."""

    external: set[Edge] = field(default_factory=set)
    external_seen: set[Edge] = field(default_factory=set)

    def more_json(self) -> dict:
        """Builtin and external counts."""
        return {**super().more_json(), "external": len(self.external), "external_seen": len(self.external_seen)}


def path_module(path: str) -> str:
    """PyCG's module name of a file: its path from the case folder, dotted (``pkg/__init__.py`` is
    ``pkg``). Not ripple's module key, which leaves out a top-level folder without ``__init__.py``."""
    parts = list(Path(path).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def case_modules(case: Path) -> set[str]:
    """PyCG's module names of the case's ``.py`` files."""
    return {m for p in case.rglob("*.py") if (m := path_module(p.relative_to(case).as_posix()))}


def expected_edges(case: Path, graph_file: Path | None = None) -> list[Edge]:
    """The expected ``(caller, callee)`` edges of ``graph_file`` (default: the case's
    ``callgraph.json``), an adjacency list ``{caller: [callee, ...]}``."""
    graph = json.loads((graph_file or case / "callgraph.json").read_text())
    return [(src, dst) for src, dsts in graph.items() for dst in dsts]


def fold_lambda(name: str) -> str:
    """The caller ripple uses for code in a lambda: the enclosing named scope (``main.f.<lambda1>`` is
    ``main.f``)."""
    return name.split(".<lambda", 1)[0]


def lambda_names(case: Path) -> dict[tuple[str, int, str], str]:
    """PyCG's name of each lambda bound to a name by an assignment in the case's ``.py`` files, keyed
    by ``(module, line of the assignment, name)``: ``main.f.<lambda2>`` for the second lambda met in
    ``f``'s namespace, in the order of PyCG's AST visitor (fields in order: an assignment's targets,
    then its value; a lambda nested in a lambda is in the outer lambda's namespace)."""
    out: dict[tuple[str, int, str], str] = {}
    for p in sorted(case.rglob("*.py")):
        module = path_module(p.relative_to(case).as_posix())
        try:
            tree = ast.parse(p.read_text())
        except SyntaxError:
            continue
        counters: dict[str, int] = {}

        assigned = {id(n.value): (n.lineno, n.targets[0].id) for n in ast.walk(tree)
                    if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                    and isinstance(n.value, ast.Lambda)}

        def visit(node: ast.AST, ns: str, module: str = module, counters: dict[str, int] = counters,
                  assigned: dict[int, tuple[int, str]] = assigned) -> None:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = f"{ns}.{node.name}"
                for child in ast.iter_child_nodes(node):
                    visit(child, inner)
                return
            if isinstance(node, ast.Lambda):
                counters[ns] = counters.get(ns, 0) + 1
                inner = f"{ns}.<lambda{counters[ns]}>"
                parent = assigned.get(id(node))
                if parent is not None:
                    out[(module, parent[0], parent[1])] = inner
                for child in ast.iter_child_nodes(node):
                    visit(child, inner)
                return
            for child in ast.iter_child_nodes(node):
                visit(child, ns)

        visit(tree, module)
    return out


def is_internal(name: str, modules: set[str]) -> bool:
    return any(name == m or name.startswith(m + ".") for m in modules)


def ripple_graph(case: Path) -> tuple[set[Edge], list[tuple[str, str, int]]]:
    """Index the case's ``.py`` files; its CALLS edges in PyCG naming and its unresolved call sites
    as ``(caller, name, line)`` (caller in PyCG naming)."""
    lambdas = lambda_names(case)
    with tempfile.TemporaryDirectory(prefix="pycg-") as tmp:
        src = Path(tmp) / "src"
        for p in case.rglob("*.py"):
            dst = src / p.relative_to(case)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, dst)
        db = Path(tmp) / "index.db"
        conn = index_read_only(src, db, REPO)
        try:
            nodes = {nid: (label, qualname, json.loads(props or "{}"), file, line)
                     for nid, label, qualname, props, file, line in conn.execute(
                         "SELECT id, label, qualname, props, file, start_line FROM nodes")}
            parent = {dst: src for src, dst in conn.execute("SELECT src, dst FROM edges WHERE kind = 'CONTAINS'")}
            calls = conn.execute("SELECT src, dst, line FROM edges WHERE kind = 'CALLS'").fetchall()
            unresolved = conn.execute("SELECT caller, name, line FROM unresolved").fetchall()
        finally:
            conn.close()

    def name(nid: str) -> str:
        if nid not in nodes:
            return f"?{nid}"
        label, qualname, props, file, line = nodes[nid]
        if not file.endswith(".py"):
            return f"?{nid}"
        module = path_module(file)
        if "lambda" in props.get("modifiers", ()):
            return lambdas.get((module, line, qualname.rpartition(".")[2]), f"?{nid}")
        return module if label == "File" else f"{module}.{qualname}"

    edges = set()
    for s, d, line in calls:
        if nodes.get(d, ("",))[0] == "Class":
            continue  # instantiating a class with no __init__ of its own: PyCG has no edge (see above)
        props = nodes.get(s, ("", "", {}, "", 0))[2]
        if props.get("name_line") and line and line < props["name_line"] and s in parent:
            s = parent[s]  # a decorator line: the decorator runs in the scope holding the def
        edges.add((fold_lambda(name(s)), name(d)))
    return edges, [(fold_lambda(name(c)), n, line) for c, n, line in unresolved]


def run_case(case: Path, root: Path, graph_file: Path | None = None, name: str | None = None) -> CaseResult:
    """Score one case folder: its expected graph (``graph_file``, default the case's
    ``callgraph.json``) against ripple's edges; the result is named ``name`` (default the case's path
    under ``root``). A crash while indexing is the result's ``error``, not an exception."""
    res = CaseResult(name or case.relative_to(root).as_posix())
    modules = case_modules(case)
    for src, dst in expected_edges(case, graph_file):
        src = fold_lambda(src)
        if is_internal(dst, modules):
            res.expected.add((src, dst))
        elif dst.startswith("<"):  # <builtin>.len, <**PyStr**>.join
            res.builtin.add((src, dst))
        else:
            res.external.add((src, dst))
    try:
        res.found, res.unresolved = ripple_graph(case)
    except Exception as exc:  # a crash is a failed case, not a failed run
        res.error = f"{type(exc).__name__}: {exc}"
        return res
    sites = {(c, n) for c, n, _ in res.unresolved}
    res.builtin_seen = {(s, d) for s, d in res.builtin if (s, d.rsplit(".", 1)[-1]) in sites}
    res.external_seen = {(s, d) for s, d in res.external if (s, d.rsplit(".", 1)[-1]) in sites}
    return res


def cases(root: Path, categories: list[str] | None) -> list[Path]:
    out = sorted(p.parent for p in root.glob("*/*/callgraph.json"))
    if categories:
        out = [p for p in out if p.parent.name in categories]
    return out


COUNTED = ("builtin", "builtin_seen", "external", "external_seen")
"""The sets of a :class:`CaseResult` whose sizes a summary adds up, in its order."""


def summarize(results: list[CaseResult]) -> dict:
    """Totals over ``results`` (:func:`bench.suite_score.summary`)."""
    return summary(results, COUNTED)


def by_category(results: list[CaseResult]) -> dict[str, dict]:
    """:func:`summarize` per category."""
    return categories(results, COUNTED)


def print_table(results: list[CaseResult]) -> None:
    head = (f"{'category':<14}{'cases':>6}{'exact':>6}{'expect':>7}{'ripple':>7}{'hits':>6}"
            f"{'prec':>7}{'recall':>7}{'builtin':>8}{'seen':>5}{'extern':>7}{'seen':>5}")
    print(head)
    print("-" * len(head))
    rows = list(by_category(results).items()) + [("TOTAL", summarize(results))]
    for cat, s in rows:
        if cat == "TOTAL":
            print("-" * len(head))
        print(f"{cat:<14}{s['cases']:>6}{s['exact']:>6}{s['expected']:>7}{s['found']:>7}{s['hits']:>6}"
              f"{s['precision']:>7.1%}{s['recall']:>7.1%}{s['builtin']:>8}{s['builtin_seen']:>5}{s['external']:>7}{s['external_seen']:>5}")
    failing = [r for r in results if not r.exact]
    if failing:
        print(f"\nnot exact ({len(failing)}): " + ", ".join(
            f"{r.name} (-{len(r.missing)} +{len(r.extra)}{' ERROR' if r.error else ''})" for r in failing))


def print_case(r: CaseResult, case: Path) -> None:
    """Print a scored case: the sources under ``case`` with line numbers, then its score, its missing / extra / hit
    edges (those seen as unresolved marked) and its unresolved call sites. Shared with ``bench/jarvis_suite.py``."""
    for p in sorted(case.rglob("*.py")):
        print(f"--- {p.relative_to(case)}")
        for i, line in enumerate(p.read_text().splitlines(), 1):
            print(f"{i:3} {line}")
    if r.error:
        print(f"ERROR {r.error}")
    print(f"\n{r.name}: expected {len(r.expected)}, ripple {len(r.found)}, hits {len(r.hits)}"
          f"{' (exact)' if r.exact else ''}")
    for title, edges in (("missing", r.missing), ("extra", r.extra), ("hit", r.hits),
                         ("builtin (not scored)", r.builtin), ("external (not scored)", r.external)):
        for s, d in sorted(edges):
            seen = " [seen as unresolved]" if (s, d) in r.external_seen | r.builtin_seen else ""
            print(f"  {title:<22} {s} -> {d}{seen}")
    for c, n, line in sorted(r.unresolved, key=lambda u: u[2]):
        print(f"  {'unresolved site':<22} {c}: {n} (line {line})")


def show(case: Path, root: Path) -> None:
    print_case(run_case(case, root), case)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("snippets", type=Path, help="PyCG's micro-benchmark/snippets folder")
    ap.add_argument("--category", action="append", help="only this category (repeatable)")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--show", metavar="CATEGORY/CASE", help="missing and extra edges of one case")
    args = ap.parse_args()
    root = args.snippets.resolve()
    if args.show:
        show(root / args.show, root)
        return
    results = [run_case(c, root) for c in cases(root, args.category)]
    if args.json:
        print(json.dumps({"summary": summarize(results), "categories": by_category(results),
                          "cases": [r.as_json() for r in results]}, indent=2))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
