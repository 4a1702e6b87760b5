"""Benchmark: the main process's CPU per phase of one ``ripple index --no-embed`` run, and how much of
the write phase the doc mentions take (issue 19 goals 1 and 3: ``indexer.mentions``).

Usage::

    python bench/mention_cpu.py PATH [--tree TREE] [--db DB --repo NAME --product NAME] [--jobs N]

Indexes ``PATH`` once with the code of ``TREE`` (a checkout of this project, default the one this
script is in: run it with ``--tree`` pointing at two trees, alternating, to compare them on one
machine), into ``DB`` (default a fresh temporary store, removed after; an existing store, e.g. a
copy of a big central one, is indexed into and kept) and a fresh extraction cache. Prints per phase
the main process's CPU seconds (user + system, ``os.times``: what load does not inflate the way it
does wall time) and wall seconds; then the CPU inside ``add_mention_edges`` (the lookup and the
matching, summed over the write batches), how many times a spilled output was unpickled
(``SpilledOutputs._load``) in the write phase, the nodes the mention lookup read from the store
(``find_symbols`` / ``find_symbol_keys`` results, whichever the tree calls), the MENTIONS edges
written and the peak RSS of the main process (``getrusage``). A JSON line last.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


class CpuPhases:
    """A ``ProgressSink`` that records, per phase, the main process's CPU and wall seconds."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, float]] = {}
        self.phase = "setup"
        self._t = (_cpu(), time.perf_counter())

    def _close(self) -> None:
        cpu, wall = _cpu(), time.perf_counter()
        row = self.rows.setdefault(self.phase, {"cpu": 0.0, "wall": 0.0})
        row["cpu"] += cpu - self._t[0]
        row["wall"] += wall - self._t[1]
        self._t = (cpu, wall)

    def start(self, phase: str, total: int | None) -> None:
        """A phase begins (the previous one ends)."""
        self._close()
        self.phase = phase

    def advance(self, n: int = 1) -> None:
        """Nothing to record per unit."""

    def done(self, phase: str) -> None:
        """Phases end when the next starts."""

    def stop(self) -> None:
        """End the last phase."""
        self._close()


def main() -> None:
    """Parse arguments, index once, print the table and a JSON line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", type=Path)
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--db", type=Path, default=None)
    ap.add_argument("--repo", default=None)
    ap.add_argument("--product", default=None)
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    import indexer.writer as writer
    from indexer.pipeline import index_repository
    from indexer.run import IndexOptions
    from indexer.spill import SpilledOutputs
    from stores.embedded import EmbeddedStore

    counts = {"mention_cpu_s": 0.0, "loads_in_write": 0, "lookup_nodes": 0}
    phases = CpuPhases()
    add_mention_edges = writer.add_mention_edges
    load = SpilledOutputs._load

    def timed_mentions(*a, **k):  # type: ignore[no-untyped-def]
        t = _cpu()
        try:
            return add_mention_edges(*a, **k)
        finally:
            counts["mention_cpu_s"] += _cpu() - t

    def counted_load(self, item):  # type: ignore[no-untyped-def]
        if phases.phase == "write":
            counts["loads_in_write"] += 1
        return load(self, item)

    writer.add_mention_edges = timed_mentions
    SpilledOutputs._load = counted_load  # type: ignore[method-assign]
    for method in ("find_symbols", "find_symbol_keys"):
        original = getattr(EmbeddedStore, method, None)
        if original is None:
            continue

        def counted(self, *a, __o=original, **k):  # type: ignore[no-untyped-def]
            got = __o(self, *a, **k)
            counts["lookup_nodes"] += sum(len(v) for v in got.values())
            return got

        setattr(EmbeddedStore, method, counted)

    with tempfile.TemporaryDirectory(prefix="ripple-mcpu-") as tmp:
        db = str(args.db) if args.db else f"{tmp}/index.db"
        store = EmbeddedStore(db)
        repo = args.repo or args.path.resolve().name
        options = IndexOptions(repo=repo, product=args.product, jobs=args.jobs, state_dir=f"{tmp}/state")
        cpu0, wall0 = _cpu(), time.perf_counter()
        report = index_repository(args.path, store, store, options, phases)
        phases.stop()
        cpu, wall = _cpu() - cpu0, time.perf_counter() - wall0
        store.close()
    # lookup_nodes counts every find_symbols call of the run (the resolver's too, if it makes any)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.path} with {args.tree}: {report.files_indexed:,} files, {report.edges.get('MENTIONS', 0):,} MENTIONS")
    print("\n| phase | main CPU s | wall s |\n|---|---:|---:|")
    for phase, row in phases.rows.items():
        print(f"| {phase} | {row['cpu']:.2f} | {row['wall']:.2f} |")
    print(f"\nmain CPU {cpu:.2f} s, wall {wall:.2f} s; add_mention_edges CPU {counts['mention_cpu_s']:.2f} s; "
          f"outputs unpickled in the write phase {counts['loads_in_write']:,}; nodes read by name lookups "
          f"{counts['lookup_nodes']:,}; peak RSS main {peak:.0f} MiB")
    print(json.dumps({"path": str(args.path), "tree": str(args.tree), "files": report.files_indexed,
                      "mentions": report.edges.get("MENTIONS", 0), "cpu_main_s": round(cpu, 2), "wall_s": round(wall, 2),
                      "phases": {p: {k: round(v, 2) for k, v in r.items()} for p, r in phases.rows.items()},
                      **{k: round(v, 2) if isinstance(v, float) else v for k, v in counts.items()},
                      "peak_main_mib": round(peak)}))


if __name__ == "__main__":
    main()
