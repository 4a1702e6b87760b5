"""Benchmark: a cold ``ripple index --no-embed`` against a raw tree-sitter parse of the same files,
measured side by side in one invocation (issue 19 goal 3), for one or more versions of the code.

Usage::

    python bench/parse_ratio.py PATH [--code NAME=DIR ...] [--rounds 3] [--jobs N] [--memory-budget MIB] [--keep DIR]

Each round runs, in this order: the raw parse (this process: every file discovery keeps whose suffix
has a tree-sitter grammar below is read and parsed, nothing else), then one cold index per ``--code``
tree (a child ``python -m lsp_server.cli index PATH --db <fresh> --no-embed --json`` with that tree
first on ``PYTHONPATH`` and a fresh ``XDG_CACHE_HOME``, so no extraction cache helps; default: the
tree this script lives in). Printed per code tree: median wall seconds, median CPU seconds (the child
and its extraction workers, from ``getrusage(RUSAGE_CHILDREN)``), peak RSS of the main process and of
the largest worker (the run's own report), and the ratios to the raw parse's wall and CPU time.
``--keep DIR`` keeps each run's index as ``DIR/<code name>-<round>.db`` (to compare the trees'
indexes row by row afterwards, ``tests/index_dump.py``) instead of deleting it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from indexer.discovery import discover, read_source  # noqa: E402
from indexer.languages.base import parser  # noqa: E402

GRAMMARS = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".jsx": "javascript", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".java": "java", ".go": "go", ".kt": "kotlin", ".kts": "kotlin", ".cs": "csharp", ".cls": "apex",
    ".trigger": "apex", ".proto": "proto", ".vue": "vue",
}
"""Suffix -> tree-sitter grammar (tree-sitter-language-pack) of the source files the raw parse reads."""


def raw_parse(root: Path) -> dict[str, float]:
    """Read and parse every source file of ``root`` with a grammar in :data:`GRAMMARS`, in this
    process; returns files, bytes, wall and CPU seconds (reading included, discovery not)."""
    files = [sf for sf in discover(root).files if Path(sf.path).suffix.lower() in GRAMMARS]
    for grammar in set(GRAMMARS.values()):
        parser(grammar)  # load the grammars before the clock starts
    n = size = 0
    cpu0, t0 = time.process_time(), time.perf_counter()
    for sf in files:
        data = read_source(sf.abs_path, 10 << 20, sf.confine)
        parser(GRAMMARS[Path(sf.path).suffix.lower()]).parse(data)
        n += 1
        size += len(data)
    return {"files": n, "bytes": size, "wall": time.perf_counter() - t0, "cpu": time.process_time() - cpu0}


def cold_index(root: Path, code: Path, jobs: int | None, budget: int | None, keep: Path | None = None) -> dict[str, float]:
    """One cold ``ripple index`` of ``root`` by the code at ``code``; wall, CPU (child + its
    workers), peak RSS main / largest worker (MiB) and the phases. ``keep``: where the index goes
    (a path that must not exist yet); default a temporary file, deleted."""
    with tempfile.TemporaryDirectory(prefix="ripple-ratio-") as tmp:
        env = {**os.environ, "PYTHONPATH": str(code), "XDG_CACHE_HOME": f"{tmp}/cache"}
        db = str(keep) if keep is not None else f"{tmp}/index.db"
        if keep is not None and keep.exists():
            raise FileExistsError(f"{keep} exists: a cold run needs a fresh index")
        cmd = [sys.executable, "-m", "lsp_server.cli", "index", str(root), "--db", db, "--no-embed",
               "--json"]
        if jobs:
            cmd += ["--jobs", str(jobs)]
        if budget:
            cmd += ["--memory-budget", str(budget)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd=str(code)).stdout
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = json.loads(out)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "main": report["peak_rss_mb"]["main"], "worker": report["peak_rss_mb"]["largest_worker"],
            "files": report["files_indexed"], "chunks": report["chunks"],
            "edges": sum(report["edges"].values()), **{f"phase_{k}": v for k, v in report["phases_s"].items()}}


def main() -> None:
    """Parse arguments, alternate the raw parse and the cold runs, print a table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", type=Path)
    ap.add_argument("--code", action="append", default=[], metavar="NAME=DIR")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--memory-budget", type=int, default=None)
    ap.add_argument("--keep", type=Path, default=None, metavar="DIR")
    args = ap.parse_args()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    codes = [tuple(c.split("=", 1)) for c in args.code] or [("this", str(HERE))]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    raws: list[dict[str, float]] = []
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in codes}
    for rnd in range(args.rounds):
        raws.append(raw_parse(args.path))
        for name, code in codes:
            keep = args.keep / f"{name}-{rnd + 1}.db" if args.keep is not None else None
            runs[name].append(cold_index(args.path, Path(code), args.jobs, args.memory_budget, keep))
    raw_wall = statistics.median(r["wall"] for r in raws)
    raw_cpu = statistics.median(r["cpu"] for r in raws)
    print(f"\n{args.path}: raw tree-sitter parse of {raws[0]['files']:,} files ({raws[0]['bytes'] / 1e6:.1f} MB), "
          f"one process: median wall {raw_wall:.2f} s, CPU {raw_cpu:.2f} s ({args.rounds} rounds); "
          f"load at the end {os.getloadavg()[0]:.1f}\n")
    print("| code | files | edges | chunks | wall s (median) | CPU s (median) | wall / raw | CPU / raw | peak RSS main / worker MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, rs in runs.items():
        wall = statistics.median(r["wall"] for r in rs)
        cpu = statistics.median(r["cpu"] for r in rs)
        print(f"| {name} | {rs[-1]['files']:,.0f} | {rs[-1]['edges']:,.0f} | {rs[-1]['chunks']:,.0f} | {wall:.1f} | {cpu:.1f} | "
              f"{wall / raw_wall:.1f}x | {cpu / raw_cpu:.1f}x | {max(r['main'] for r in rs):.0f} / {max(r['worker'] for r in rs):.0f} |")
    print(json.dumps({"raw": raws, "runs": runs}))


if __name__ == "__main__":
    main()
