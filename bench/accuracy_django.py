#!/usr/bin/env python3
"""Accuracy of ripplegraph's CALLS edges on Django, against jedi as a type-aware reference.

What it does
------------
1. Opens a ripplegraph index of a Django source tree (``ripple index DJANGO_ROOT`` first) and lists
   every ``Method`` / ``Function`` node defined under ``django/`` whose name is not a dunder.
2. Samples ``--n`` of them uniformly with ``random.Random(--seed)`` (ids sorted first, so the draw is
   reproducible). No filter on callers: symbols with no caller on either side stay in the sample and
   are counted (they add nothing to precision or recall).
3. Callers per ripplegraph: ``analysis.navigation.callers`` (every CALLS edge into the node, whatever
   its resolution: exact, inferred, name).
4. Callers per jedi: ``jedi.Script(path, project).get_references(line, col)`` at the definition's
   name, keeping the references that are *call sites* (the name followed by ``(`` after optional
   whitespace), that are not the definition itself, in ``.py`` files. Jedi's default search limits
   (it parses at most 30 files holding the name and opens at most 2,000) would truncate the
   reference on a tree this size, so they are lifted; ``tests/`` is added to jedi's sys.path as
   Django's own ``runtests.py`` does.
5. Scope, identical for both sides: call sites in ``.py`` files under ``django/`` and ``tests/``
   (``docs/``, ``scripts/``, ``extras/`` are left out).
6. Levels: *file* — the set of files holding a call site; *symbol* — the set of
   ``(file, enclosing scope)``, the enclosing scope being the innermost ``def`` / ``class`` whose
   body holds the call (decorators and default values belong to the outer scope, as in Python),
   ``<module>`` at top level. Precision and recall are micro-averaged over the sample; jedi is the
   reference (its misses, e.g. calls through a base type that reach an override, show up as ripple
   "false positives" and are explained in ``docs/accuracy.md``).

Usage::

    ripple index /path/to/django-5.2.8
    python bench/accuracy_django.py --django-root /path/to/django-5.2.8 --out /tmp/acc.json

Prints a summary table and the per-symbol disagreements; ``--out`` writes every per-symbol row
(callers on each side, with ripple's resolution per call site) as JSON.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

SCOPE_DIRS: tuple[str, ...] = ("django/", "tests/")
"""Folders whose call sites both sides count (``--scope``)."""
_SYS_PATH: list[str] = ["tests"]
"""Folders under the root added to jedi's sys.path (``--sys-path``), as Django's ``runtests.py`` adds ``tests/``."""
_RANK = {"exact": 0, "inferred": 1, "name": 2}


# --------------------------------------------------------------------------------------------------
# Sampling and ripplegraph's side.


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def candidate_symbols(graph, repo: str, under: str = "django/") -> list:
    """Every non-dunder Method / Function node in a ``.py`` file whose path starts with ``under``
    (``""``: every file), sorted by id."""
    paths = sorted(p for p in graph.file_checksums(repo) if p.startswith(under) and p.endswith(".py"))
    out = []
    for path in paths:
        for n in graph.nodes_in_file(repo, path):
            if n.label in ("Method", "Function") and not _is_dunder(n.name):
                out.append(n)
    out.sort(key=lambda n: n.id)
    return out


def in_scope(path: str) -> bool:
    return path.endswith(".py") and path.startswith(SCOPE_DIRS)


def ripple_callers(graph, node) -> list[dict]:
    """Call sites of ``node`` per the index: file, line, col, enclosing scope, resolution."""
    from analysis.navigation import callers

    out = []
    for r in callers(graph, [node]):
        if not in_scope(r.file):
            continue
        scope = "<module>" if r.source.label == "File" else r.source.qualname
        out.append({"file": r.file, "line": r.line, "col": r.col, "scope": scope, "resolution": r.resolution})
    return out


# --------------------------------------------------------------------------------------------------
# Jedi's side.


def name_position(root: Path, node) -> tuple[int, int]:
    """1-based line and 0-based column of ``def <name>`` inside the node's span."""
    lines = (root / node.file).read_text(encoding="utf-8").splitlines()
    pattern = re.compile(r"\bdef\s+(" + re.escape(node.name) + r")\b")
    for i in range(node.start_line - 1, min(node.end_line, len(lines))):
        m = pattern.search(lines[i])
        if m:
            return i + 1, m.start(1)
    raise LookupError(f"no 'def {node.name}' in {node.file}:{node.start_line}-{node.end_line}")


class ScopeMap:
    """Innermost enclosing def/class of a line, per file, the way the extractor scopes calls."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[str, list[tuple[int, int, str]]] = {}

    def _spans(self, rel: str) -> list[tuple[int, int, str]]:
        if rel not in self._cache:
            spans: list[tuple[int, int, str]] = []
            try:
                tree = ast.parse((self.root / rel).read_text(encoding="utf-8", errors="replace"))
            except SyntaxError:  # a deliberately broken test fixture: everything at module level
                self._cache[rel] = spans
                return spans

            def walk(node: ast.AST, prefix: str) -> None:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        q = f"{prefix}.{child.name}" if prefix else child.name
                        spans.append((child.body[0].lineno, child.end_lineno or child.lineno, q))
                        walk(child, q)
                    else:
                        walk(child, prefix)

            walk(tree, "")
            self._cache[rel] = spans
        return self._cache[rel]

    def scope_at(self, rel: str, line: int) -> str:
        best = None
        for start, end, q in self._spans(rel):
            if start <= line <= end and (best is None or start >= best[0]):
                best = (start, end, q)
        return best[2] if best else "<module>"


def _is_call_site(lines: list[str], line: int, col: int, name: str) -> bool:
    """The reference at (line, col) is ``name`` followed by ``(`` (whitespace / newlines allowed)."""
    text = lines[line - 1]
    if text[col:col + len(name)] != name:
        return False
    rest = text[col + len(name):]
    i = line
    while not rest.strip() and i < len(lines):
        rest = lines[i]
        i += 1
    return rest.lstrip().startswith("(")


_JEDI = {}


def _jedi_project(root: Path):
    if "project" not in _JEDI:
        import tempfile

        import jedi
        import jedi.inference.references as refs
        import parso.cache as parso_cache

        # One parso pickle cache per worker process: a shared one races between workers.
        jedi.settings.cache_directory = tempfile.mkdtemp(prefix="jedi-cache-")

        refs._PARSED_FILE_LIMIT = 10**9  # default 30: would cut the reference short on Django
        refs._OPENED_FILE_LIMIT = 10**9  # default 2000
        parso_cache._CACHED_SIZE_TRIGGER = 10**9  # default 600: evicts trees jedi still holds
        _JEDI["project"] = jedi.Project(root, added_sys_path=[str(root / p) for p in _SYS_PATH])
        _JEDI["scopes"] = ScopeMap(root)
    return _JEDI["project"], _JEDI["scopes"]


def jedi_callers(root: Path, file: str, name: str, line: int, col: int) -> list[dict]:
    import jedi

    project, scopes = _jedi_project(root)
    script = jedi.Script(path=str(root / file), project=project)
    out = []
    texts: dict[str, list[str]] = {}
    for ref in script.get_references(line, col, include_builtins=False):
        if ref.module_path is None or ref.is_definition():
            continue
        try:
            rel = Path(ref.module_path).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
        if not in_scope(rel):
            continue
        if rel not in texts:
            texts[rel] = (root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
        if not _is_call_site(texts[rel], ref.line, ref.column, name):
            continue
        out.append({"file": rel, "line": ref.line, "col": ref.column, "scope": scopes.scope_at(rel, ref.line)})
    return out


def _jedi_task(args: tuple[str, str, str, int, int]) -> tuple[list[dict], float]:
    root, file, name, line, col = args
    t0 = time.perf_counter()
    found = jedi_callers(Path(root), file, name, line, col)
    return found, time.perf_counter() - t0


# --------------------------------------------------------------------------------------------------
# Scoring.


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, ours: set, ref: set) -> None:
        self.tp += len(ours & ref)
        self.fp += len(ours - ref)
        self.fn += len(ref - ours)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def as_dict(self) -> dict:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn,
                "precision": round(self.precision, 4), "recall": round(self.recall, 4)}


@dataclass
class Row:
    id: str
    ripple: list[dict]
    jedi: list[dict]
    jedi_seconds: float
    levels: dict = field(default_factory=dict)


def _strongest(sites: list[dict], key) -> dict:
    """``{key: strongest resolution}`` over ripple's call sites."""
    out: dict = {}
    for s in sites:
        k = key(s)
        if k not in out or _RANK[s["resolution"]] < _RANK[out[k]]:
            out[k] = s["resolution"]
    return out


def score(rows: list[Row]) -> dict:
    keys = {"file": lambda s: s["file"], "symbol": lambda s: (s["file"], s["scope"])}
    totals = {lvl: Counts() for lvl in keys}
    by_resolution = {lvl: defaultdict(Counts) for lvl in keys}  # precision per strongest resolution
    for row in rows:
        for lvl, key in keys.items():
            ours = {key(s) for s in row.ripple}
            ref = {key(s) for s in row.jedi}
            totals[lvl].add(ours, ref)
            strongest = _strongest(row.ripple, key)
            for k, how in strongest.items():
                by_resolution[lvl][how].add({k}, ref)
            row.levels[lvl] = {
                "fp": sorted(map(str, ours - ref)), "fn": sorted(map(str, ref - ours)), "tp": len(ours & ref),
            }
    return {
        "totals": {lvl: c.as_dict() for lvl, c in totals.items()},
        "precision_by_resolution": {
            lvl: {how: {"tp": c.tp, "fp": c.fp, "precision": round(c.precision, 4)}
                  for how, c in sorted(d.items(), key=lambda kv: _RANK[kv[0]])}
            for lvl, d in by_resolution.items()
        },
    }


# --------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--django-root", "--root", dest="django_root", type=Path, required=True,
                    help="source tree (Django's holds django/ and tests/)")
    ap.add_argument("--symbols-under", default="django/", help="sample definitions in files under this folder ('' for all)")
    ap.add_argument("--scope", default="django/,tests/", help="comma-separated folders whose call sites count ('' for all)")
    ap.add_argument("--sys-path", default="tests", help="comma-separated folders added to jedi's sys.path")
    ap.add_argument("--db", type=Path, help="ripplegraph index (default: DJANGO_ROOT/.ripple/index.db)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--n", type=int, default=30, help="symbols to sample")
    ap.add_argument("--out", type=Path, help="write per-symbol results as JSON here")
    ap.add_argument("--jobs", type=int, default=2, help="jedi worker processes")
    args = ap.parse_args(argv)
    global SCOPE_DIRS
    SCOPE_DIRS = tuple(x for x in args.scope.split(",") if x) or ("",)
    _SYS_PATH[:] = [x for x in args.sys_path.split(",") if x]

    from stores.factory import default_db_path, open_store

    root = args.django_root.resolve()
    db = args.db or default_db_path(root)
    graph = open_store(db)
    repos = graph.repos()
    if len(repos) != 1:
        ap.error(f"expected one repository in {db}, found {repos}")
    repo = repos[0]

    pool_nodes = candidate_symbols(graph, repo, args.symbols_under)
    sample = random.Random(args.seed).sample(pool_nodes, args.n)
    print(f"{len(pool_nodes)} candidate symbols under {args.symbols_under or './'}; sampled {args.n} with seed {args.seed}", file=sys.stderr)

    tasks = []
    for n in sample:
        line, col = name_position(root, n)
        tasks.append((str(root), n.file, n.name, line, col))
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jedi_results = list(pool.map(_jedi_task, tasks))

    rows = [Row(n.id, ripple_callers(graph, n), found, round(secs, 1)) for n, (found, secs) in zip(sample, jedi_results)]
    summary = score(rows)
    summary["zero_callers_both_sides"] = sum(1 for r in rows if not r.ripple and not r.jedi)
    summary["params"] = {"seed": args.seed, "n": args.n, "candidates": len(pool_nodes), "scope": list(SCOPE_DIRS)}

    print(f"\n{'symbol':<80} {'rip':>4} {'jedi':>4} {'fFP':>4} {'fFN':>4} {'sFP':>4} {'sFN':>4}")
    for r in rows:
        f, s = r.levels["file"], r.levels["symbol"]
        print(f"{r.id.split(':', 1)[1]:<80} {len({x['file'] for x in r.ripple}):>4} {len({x['file'] for x in r.jedi}):>4}"
              f" {len(f['fp']):>4} {len(f['fn']):>4} {len(s['fp']):>4} {len(s['fn']):>4}")
    for lvl, c in summary["totals"].items():
        print(f"{lvl:>6} level: P {c['precision']:.3f}  R {c['recall']:.3f}  (tp {c['tp']}, fp {c['fp']}, fn {c['fn']})")
    for lvl, d in summary["precision_by_resolution"].items():
        print(f"{lvl:>6} precision by resolution: " + ", ".join(f"{h} {v['precision']:.3f} ({v['tp']}/{v['tp'] + v['fp']})" for h, v in d.items()))
    print(f"zero callers on both sides: {summary['zero_callers_both_sides']} / {args.n}")
    print("\nDisagreements (file level):")
    for r in rows:
        for f in r.levels["file"]["fp"]:
            print(f"  FP {r.id.split(':', 1)[1]}  <- {f}")
        for f in r.levels["file"]["fn"]:
            print(f"  FN {r.id.split(':', 1)[1]}  <- {f}")
    if args.out:
        args.out.write_text(json.dumps({"summary": summary, "symbols": [r.__dict__ for r in rows]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
