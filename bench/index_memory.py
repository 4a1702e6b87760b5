"""Benchmark: where a cold ``ripple index --no-embed`` spends memory and time, phase by phase.

Usage::

    python bench/index_memory.py PATH [--jobs N] [--memory-budget MIB] [--profile OUT.prof] [--tracemalloc] [--pages]

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

Then, per phase, the processes at the tree's peak (named by ancestry: ``main>1`` is main's first
child by pid, the forked resolve child of a large run; ``main>1>2`` its second) with their Pss split
into anonymous and file pages, and the tree's anonymous peak. The file part is the interpreter's and
libraries' pages (about 16 MiB resident a process), divided among every process on the machine that
maps them: on a busy machine it nearly vanishes, on a quiet one the tree counts it whole, so two runs
at different loads differ by up to that much with the same heaps (the 400 MB monorepo's 367 MiB in
session 65 beside CI against 389 in session 66 alone, docs/benchmarks.md, session 67). Compare runs
side by side, by the anonymous part, or with ``--pages``: a separate process
(``bench/tree_pages.py``, needs ``CAP_SYS_ADMIN``) counts the tree's distinct physical pages every
0.5 s, what a quiet machine's Pss would be, and the run prints its peak per phase.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
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
    fields = pss_fields(pid)
    return None if fields is None else fields[0]


def pss_fields(pid: int | str = "self") -> tuple[float, float, float] | None:
    """``(Pss, Pss_Anon, Pss_File)`` of process ``pid`` now (``/proc/PID/smaps_rollup``), MiB;
    ``None`` when it cannot be read. The anonymous part is the process's own heap, shared only with
    the processes it forked or was forked from; the file part is its mapped files' pages (the
    interpreter, extension modules: about 14 MiB resident a process), each page divided by the number
    of processes mapping it on the whole machine, so it falls when other programs run the same
    interpreter and libraries and rises on a quiet machine (by up to the tree's file pages, about 15-20
    MiB): compare runs by the anonymous part, or side by side. Kernels before 4.14 give no split
    (both parts 0)."""
    got = {"Pss:": 0.0, "Pss_Anon:": 0.0, "Pss_File:": 0.0}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                key = line.split(None, 1)[0]
                if key in got:
                    got[key] = int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return got["Pss:"], got["Pss_Anon:"], got["Pss_File:"]


def tree_pss_mib(skip: int | None = None) -> float:
    """The memory of this process and its live descendants (but ``skip``) now, MiB: the sum of their
    :func:`pss_mib` (a process that ends while it is read counts 0)."""
    return sum(pss for _, _, pss, _, _ in tree_pss_by_process(skip))


def tree_pss_by_process(skip: int | None = None) -> list[tuple[int, int, float, float, float]]:
    """This process and its live descendants (but ``skip``: the page sampler of ``--pages``) now,
    each as ``(pid, parent pid, Pss, Pss_Anon, Pss_File)`` in MiB (:func:`pss_fields`; a process that
    ends while it is read counts 0, its parent pid then 0 too)."""
    me = psutil.Process()
    try:
        kids = [k for k in me.children(recursive=True) if k.pid != skip]
    except psutil.Error:
        kids = []
    rows = [(me.pid, 0, *(pss_fields("self") or (0.0, 0.0, 0.0)))]
    for kid in kids:
        try:
            ppid = kid.ppid()
        except psutil.Error:
            ppid = 0
        rows.append((kid.pid, ppid, *(pss_fields(kid.pid) or (0.0, 0.0, 0.0))))
    return rows


def process_roles(rows: list[tuple[int, int, float, float, float]]) -> dict[int, str]:
    """A name per process of :func:`tree_pss_by_process`'s ``rows``: ``main`` (this process), then
    by ancestry, ``main>1`` being main's first child seen (by pid), ``main>1>2`` that child's second."""
    parent = {row[0]: row[1] for row in rows}
    names: dict[int, str] = {rows[0][0]: "main"}

    def name(pid: int) -> str:
        if pid not in names:
            up = parent.get(pid, 0)
            siblings = sorted(p for p, pp in parent.items() if pp == up)
            names[pid] = (name(up) if up in parent else "?") + f">{siblings.index(pid) + 1}"
        return names[pid]

    for row in rows:
        name(row[0])
    return names


class PhaseSampler:
    """A :class:`indexer.run.ProgressSink` that records per phase its wall time and resident set
    (start, end, peak) while a daemon thread samples the resident set, and the peak memory of the
    process tree (:func:`tree_pss_mib`) sampled by another every ``tree_period`` seconds."""

    def __init__(self, period: float = 0.02, tree_period: float = 0.1, skip: int | None = None) -> None:
        self.skip = skip
        """A child not to count (the page sampler of ``--pages``)."""
        self.period = period
        self.tree_period = tree_period
        self.phase = "setup"
        self.rows: dict[str, dict[str, float]] = {}
        self.snapshots: dict[str, tracemalloc.Snapshot] = {}
        self.at_peak: dict[str, list[tuple[int, int, float, float, float]]] = {}
        """Per phase, the processes at its tree peak (:func:`tree_pss_by_process`)."""
        self.largest: dict[str, dict[int, tuple[int, float]]] = {}
        """Per phase, each process's largest Pss sampled in it: pid -> (parent pid, MiB)."""
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
        self.at_peak[phase] = []
        self.largest[phase] = {}
        self.rows[phase] = {"t0": time.perf_counter(), "epoch": time.time(), "start": now, "peak": now, "end": now, "wall": 0.0,
                            "tree_peak": 0.0, "tree_anon_peak": 0.0}
        self.phase = phase  # last: the sampling threads read the phase's tables through it

    def _sample(self) -> None:
        while not self._stop.wait(self.period):
            row = self.rows[self.phase]
            row["peak"] = max(row["peak"], rss_mib())

    def _sample_tree(self) -> None:
        while True:
            phase = self.phase
            row = self.rows[phase]
            procs = tree_pss_by_process(self.skip)
            total = sum(p[2] for p in procs)
            if total > row["tree_peak"]:
                row["tree_peak"], self.at_peak[phase] = total, procs
            row["tree_anon_peak"] = max(row["tree_anon_peak"], sum(p[3] for p in procs))
            largest = self.largest[phase]
            for pid, ppid, pss, _, _ in procs:
                if pss > largest.get(pid, (0, 0.0))[1]:
                    largest[pid] = (ppid, pss)
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


def phase_pages(sampler: PhaseSampler, pager: subprocess.Popen[bytes], out: Path) -> dict[str, dict[str, object]]:
    """Stop the page sampler ``pager`` and read its samples (``out``, JSON lines of
    :mod:`bench.tree_pages`, then removed): per phase of ``sampler``, the sample with the most
    distinct pages, ``{"total", "anon", "file", "procs"}`` (MiB); phases with no sample are left out;
    nothing when the sampler could not read page frames (it exits at once, saying so)."""
    pager.terminate()
    pager.wait()
    try:
        samples = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    finally:
        out.unlink(missing_ok=True)
    starts = sorted((row["epoch"], phase) for phase, row in sampler.rows.items())
    best: dict[str, dict[str, object]] = {}
    for sample in samples:
        phase = next((ph for t, ph in reversed(starts) if t <= sample["t"]), None)
        total = sample["anon"] + sample["file"]
        if phase is not None and total > best.get(phase, {}).get("total", -1.0):  # type: ignore[operator]
            best[phase] = {"total": round(total, 1), "anon": sample["anon"], "file": sample["file"],
                           "procs": sample["procs"]}
    return best


def _within(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a decimal integer from ``low`` to ``high``; else ``ArgumentTypeError`` naming the range."""

    def parse(text: str) -> int:
        if not text.isascii() or not text.isdigit() or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"expected an integer from {low} to {high}, not {text!r}")
        return int(text)

    return parse


def main() -> None:
    """Parse arguments, index once, print the per-phase table and a JSON line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", type=Path)
    ap.add_argument("--jobs", type=_within(1, 64), default=None, help="1 to 64 (as `ripple index --jobs`)")
    ap.add_argument("--memory-budget", type=_within(64, 1 << 22), default=None,
                    help="MiB, 64 or more (IndexOptions.memory_budget_mib, as `ripple index --memory-budget`)")
    ap.add_argument("--profile", type=Path, default=None)
    ap.add_argument("--tracemalloc", action="store_true", help="trace Python allocations (see above)")
    ap.add_argument("--pages", action="store_true",
                    help="also count the tree's distinct physical pages every 0.5 s in a separate process "
                         "(bench/tree_pages.py: the quiet machine's Pss on any machine; needs CAP_SYS_ADMIN)")
    args = ap.parse_args()
    if not args.path.is_dir():  # before the page counter starts: no traceback, nothing left running
        ap.error(f"not a directory: {args.path}")
    pager = None
    pages_out = None
    if args.pages:
        pages_out = Path(tempfile.mkstemp(prefix="ripple-pages-", suffix=".jsonl")[1])
        pager = subprocess.Popen([sys.executable, str(Path(__file__).with_name("tree_pages.py")), str(os.getpid()),
                                  str(pages_out)])
    if args.tracemalloc:
        tracemalloc.start(1)
    extra = {}
    if args.memory_budget is not None:
        extra["memory_budget_mib"] = args.memory_budget
    with tempfile.TemporaryDirectory(prefix="ripple-mem-") as tmp:
        store = EmbeddedStore(f"{tmp}/index.db")
        options = IndexOptions(repo=args.path.resolve().name, jobs=args.jobs, state_dir=f"{tmp}/state", **extra)
        sampler = PhaseSampler(skip=pager.pid if pager else None)
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
    pages = phase_pages(sampler, pager, pages_out) if pager is not None and pages_out is not None else {}
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
    if pages:
        print("\nDistinct physical pages of the tree (bench/tree_pages.py; the quiet machine's Pss), peak per phase:")
        for phase, got in pages.items():
            print(f"- {phase}: {got['total']:.0f} MiB ({got['anon']:.0f} anonymous + {got['file']:.0f} file): "
                  + ", ".join(f"{pid} {a:.0f}+{f:.0f}" for pid, _, a, f in got["procs"]))
    print("\nProcesses at each phase's tree peak (Pss MiB, its anonymous + file parts; names by ancestry: main>1"
          " is main's first child, by pid), the tree's anonymous Pss peak, and each process's own largest Pss in"
          " the phase:")
    for phase, procs in sampler.at_peak.items():
        if not procs:
            continue
        seen = {p[0] for p in procs}
        roles = process_roles(procs + [(pid, pp, 0.0, 0.0, 0.0) for pid, (pp, _) in sampler.largest[phase].items()
                                       if pid not in seen])
        at = ", ".join(f"{roles[pid]} {pss:.0f} ({anon:.0f} + {file:.0f})" for pid, _, pss, anon, file in procs)
        at += (f"; sum {sum(p[3] for p in procs):.0f} anon + {sum(p[4] for p in procs):.0f} file;"
               f" anon peak {sampler.rows[phase]['tree_anon_peak']:.0f}")
        own = ", ".join(f"{roles.get(pid, str(pid))} {pss:.0f}"
                        for pid, (_, pss) in sorted(sampler.largest[phase].items(), key=lambda kv: -kv[1][1])[:8])
        print(f"- {phase}: at the peak {at}; largest each: {own}")
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
          f"process tree peak {tree_peak:.0f} MiB (Pss), its anonymous part's peak "
          f"{max(row['tree_anon_peak'] for row in sampler.rows.values()):.0f} MiB")
    print(json.dumps({"path": str(args.path), "files": report.files_indexed, "wall_s": round(wall, 2),
                      "cpu_main_s": round(main_cpu, 2), "cpu_workers_s": round(child_cpu, 2),
                      "peak_main_mib": round(peak_main), "peak_worker_mib": round(peak_child),
                      "tree_peak_mib": round(tree_peak),
                      "pages": pages,
                      "tree_anon_peak_mib": round(max(row["tree_anon_peak"] for row in sampler.rows.values())),
                      "at_peak": {k: [[round(x, 1) for x in p] for p in procs] for k, procs in sampler.at_peak.items()},
                      "phases": {k: {kk: round(v, 2) for kk, v in r.items() if kk != "t0"} for k, r in sampler.rows.items()}}))


if __name__ == "__main__":
    main()
