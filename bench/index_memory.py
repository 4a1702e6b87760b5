"""Benchmark: where a cold ``ripple index --no-embed`` spends memory and time, phase by phase.

Usage::

    python bench/index_memory.py PATH [--jobs N] [--memory-budget MIB] [--profile OUT.prof]

Indexes ``PATH`` once into a fresh temporary store (and a fresh extraction cache) in this process,
as ``ripple index PATH --no-embed`` does, while a thread samples this process's resident set
(``/proc/self/statm``) every 20 ms and another the memory of the whole process tree every 100 ms:
the sum of the proportional set sizes (``Pss`` of ``/proc/PID/smaps_rollup``: a page shared by n
processes counts 1/n in each, so shared copy-on-write pages count once) of this process and its live
descendants (extraction workers, the forked binding's copy, the write's chunk preparer).
Prints, per phase (discover, read, extract, resolve, write), the wall time, the resident set at its
start, its end and its peak, and the tree's peak; then the CPU time of this process and of its
worker processes and the peak RSS of both (``getrusage``: ``ru_maxrss`` of this process and of its
largest reaped child, which do not add up to the run's peak). ``--profile`` writes a
cProfile of the main process to ``OUT.prof`` (``python -m pstats OUT.prof``). ``--tracemalloc``
also traces the main process's Python allocations (slower, about 2x): per phase the peak of the
traced heap (what RSS holds beyond it is SQLite's page cache, the allocator's free lists and the
interpreter), and the source lines holding the most memory when the resolve phase ends and when
the run ends. Linux only (statm).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import resource
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from indexer.pipeline import index_repository  # noqa: E402
from indexer.run import IndexOptions  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402

_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mib() -> float:
    """This process's resident set now, MiB."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * _PAGE / (1 << 20)


def pss_mib(pid: int | str = "self") -> float | None:
    """The proportional set size of process ``pid`` now (``Pss`` of ``/proc/PID/smaps_rollup``),
    MiB; ``None`` when it cannot be read (the process ended, no such file)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def tree_pss_mib() -> float:
    """The memory of this process and its live descendants now, MiB: the sum of their
    :func:`pss_mib` (a process that ends while it is read counts 0)."""
    me = psutil.Process()
    try:
        kids = me.children(recursive=True)
    except psutil.Error:
        kids = []
    return sum(pss_mib(p) or 0.0 for p in ["self", *(k.pid for k in kids)])


class PhaseSampler:
    """A :class:`indexer.run.ProgressSink` that records per phase its wall time and resident set
    (start, end, peak) while a daemon thread samples the resident set, and the peak memory of the
    process tree (:func:`tree_pss_mib`) sampled by another every ``tree_period`` seconds."""

    def __init__(self, period: float = 0.02, tree_period: float = 0.1) -> None:
        self.period = period
        self.tree_period = tree_period
        self.phase = "setup"
        self.rows: dict[str, dict[str, float]] = {}
        self.snapshots: dict[str, tracemalloc.Snapshot] = {}
        self._open("setup")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        self._tree = threading.Thread(target=self._sample_tree, daemon=True)
        self._tree.start()

    def _open(self, phase: str) -> None:
        if tracemalloc.is_tracing():
            if phase == "write":
                self.snapshots["resolve end"] = tracemalloc.take_snapshot()
            tracemalloc.reset_peak()
        now = rss_mib()
        self.phase = phase
        self.rows[phase] = {"t0": time.perf_counter(), "start": now, "peak": now, "end": now, "wall": 0.0,
                            "tree_peak": 0.0}

    def _sample(self) -> None:
        while not self._stop.wait(self.period):
            row = self.rows[self.phase]
            row["peak"] = max(row["peak"], rss_mib())

    def _sample_tree(self) -> None:
        while True:
            row = self.rows[self.phase]
            row["tree_peak"] = max(row["tree_peak"], tree_pss_mib())
            if self._stop.wait(self.tree_period):
                return

    def start(self, phase: str, total: int | None) -> None:
        """A phase begins (the previous one ends)."""
        self._close()
        self._open(phase)

    def advance(self, n: int = 1) -> None:
        """Nothing to record per unit."""

    def done(self, phase: str) -> None:
        """Phases end when the next starts (the orchestrator does work between them too)."""

    def _close(self) -> None:
        row = self.rows[self.phase]
        now = rss_mib()
        row["end"], row["peak"] = now, max(row["peak"], now)
        row["wall"] = time.perf_counter() - row["t0"]
        if tracemalloc.is_tracing():
            row["traced_peak"] = tracemalloc.get_traced_memory()[1] / (1 << 20)

    def stop(self) -> None:
        """End the last phase and the sampler."""
        self._close()
        self._stop.set()
        self._thread.join()
        self._tree.join()


def main() -> None:
    """Parse arguments, index once, print the per-phase table and a JSON line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", type=Path)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--memory-budget", type=int, default=None, help="MiB (IndexOptions.memory_budget_mib)")
    ap.add_argument("--profile", type=Path, default=None)
    ap.add_argument("--tracemalloc", action="store_true", help="trace Python allocations (see above)")
    args = ap.parse_args()
    if args.tracemalloc:
        tracemalloc.start(1)
    extra = {}
    if args.memory_budget is not None:
        extra["memory_budget_mib"] = args.memory_budget
    with tempfile.TemporaryDirectory(prefix="ripple-mem-") as tmp:
        store = EmbeddedStore(f"{tmp}/index.db")
        options = IndexOptions(repo=args.path.resolve().name, jobs=args.jobs, state_dir=f"{tmp}/state", **extra)
        sampler = PhaseSampler()
        cpu0 = os.times()
        t0 = time.perf_counter()
        prof = cProfile.Profile() if args.profile else None
        if prof:
            prof.enable()
        report = index_repository(args.path, store, store, options, sampler)
        if prof:
            prof.disable()
            prof.dump_stats(str(args.profile))
        wall = time.perf_counter() - t0
        if args.tracemalloc:
            sampler.snapshots["run end"] = tracemalloc.take_snapshot()
        sampler.stop()
        cpu1 = os.times()
        store.close()
    main_cpu = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
    child_cpu = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system - cpu0.children_system)
    print(f"{args.path}: {report.files_indexed:,} files, {sum(report.nodes.values()):,} nodes, "
          f"{sum(report.edges.values()):,} edges, {report.chunks:,} chunks")
    traced = args.tracemalloc
    print("\n| phase | wall s | RSS start MiB | RSS peak MiB | RSS end MiB | tree Pss peak MiB |"
          + (" traced peak MiB |" if traced else "") + "\n|---|---:|---:|---:|---:|---:|" + ("---:|" if traced else ""))
    for phase, row in sampler.rows.items():
        print(f"| {phase} | {row['wall']:.2f} | {row['start']:.0f} | {row['peak']:.0f} | {row['end']:.0f} |"
              + (f" {row['tree_peak']:.0f} |" if row["tree_peak"] else " - |") + (f" {row.get('traced_peak', 0):.0f} |" if traced else ""))
    for name, snap in sampler.snapshots.items():
        stats = snap.statistics("lineno")
        print(f"\nPython heap at {name}: {sum(s.size for s in stats) / (1 << 20):.0f} MiB; largest source lines:")
        for st in stats[:15]:
            frame = st.traceback[0]
            print(f"  {st.size / (1 << 20):7.1f} MiB {st.count:>9,} blocks  {frame.filename.split('/wt/')[-1]}:{frame.lineno}")
    peak_main = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    tree_peak = max(row["tree_peak"] for row in sampler.rows.values())
    print(f"\nwall {wall:.2f} s; CPU main {main_cpu:.2f} s, workers {child_cpu:.2f} s; "
          f"peak RSS main {peak_main:.0f} MiB, largest worker {peak_child:.0f} MiB (ru_maxrss); "
          f"process tree peak {tree_peak:.0f} MiB (Pss)")
    print(json.dumps({"path": str(args.path), "files": report.files_indexed, "wall_s": round(wall, 2),
                      "cpu_main_s": round(main_cpu, 2), "cpu_workers_s": round(child_cpu, 2),
                      "peak_main_mib": round(peak_main), "peak_worker_mib": round(peak_child),
                      "tree_peak_mib": round(tree_peak),
                      "phases": {k: {kk: round(v, 2) for kk, v in r.items() if kk != "t0"} for k, r in sampler.rows.items()}}))


if __name__ == "__main__":
    main()
