"""Benchmark: index real corpora into a fresh embedded store and print counts, phase times, memory.

Usage::

    python bench/index_corpus.py PATH [PATH ...] [--runs 3] [--jobs N]

Each PATH is indexed ``--runs`` times into a new temporary store; the figures printed are the median
of the runs for times and the maximum for memory. Corpora come from ../shared/corpora.md (for example
``pip download --no-deps --no-binary :all: django==5.2.8``); nothing is downloaded here.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def _one_run(path: Path, jobs: int | None) -> dict:
    """Index ``path`` in a child process (fresh memory figures per run) and return its report."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "lsp_server.cli", "index", str(path), "--db", f"{tmp}/index.db", "--json",
               "--no-embed"]  # graph + BM25 only: embeddings are measured by bench/search_bench.py
        if jobs:
            cmd += ["--jobs", str(jobs)]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        return json.loads(out)


def main() -> None:
    """Parse arguments, run the benchmark, print a markdown table per corpus."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for path in args.paths:
        reports = [_one_run(path, args.jobs) for _ in range(args.runs)]
        last = reports[-1]
        print(f"\n## {path.name} ({args.runs} runs)\n")
        print(f"- files indexed: {last['files_indexed']:,} {last['files_by_language']}; "
              f"with syntax errors: {last['files_with_parse_errors']}; skipped: {last['skipped']}")
        print(f"- nodes: {sum(last['nodes'].values()):,} {last['nodes']}")
        print(f"- edges: {sum(last['edges'].values()):,} {last['edges']}")
        print(f"- call sites: {last['calls']}")
        print(f"- chunks: {last['chunks']:,}")
        print("\n| phase | median s | min s | max s |\n|---|---|---|---|")
        for phase in last["phases_s"]:
            values = [r["phases_s"][phase] for r in reports]
            print(f"| {phase} | {statistics.median(values):.2f} | {min(values):.2f} | {max(values):.2f} |")
        main_rss = max(r["peak_rss_mb"]["main"] for r in reports)
        worker_rss = max(r["peak_rss_mb"]["largest_worker"] for r in reports)
        print(f"\npeak RSS: main process {main_rss:.0f} MiB, largest extraction worker {worker_rss:.0f} MiB")


if __name__ == "__main__":
    main()
