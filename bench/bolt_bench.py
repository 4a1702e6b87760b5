"""Benchmark: a repository indexed through the Bolt graph backend (ArcadeDB here), checked against the
embedded store, with write throughput and store round trips per blast radius report.

Usage::

    python bench/bolt_bench.py /tmp/corpora/django-5.2.8 [--runs 3] [--files N] [--uri BOLT_URI]
                                [--symbols QuerySet.filter Model.save ...]

Without ``--uri`` every run starts a fresh ArcadeDB (``tools/arcadedb_server.py``: the
``arcadedb-embedded`` wheel, loopback, its own temporary root folder) and stops it afterwards; with
``--uri`` the graph there is cleared before each run (slow on ArcadeDB: deletes cost more than
writes).

1. **Index**: :func:`indexer.pipeline.index_repository` with the Bolt store as the graph and an
   embedded store for search (graph only through Bolt), exactly as ``ripple index`` runs it; the
   batches of :class:`~stores.contracts.IndexedFile` it writes (today one call per run) are kept, and the
   time spent in the Bolt ``replace_files`` calls is measured apart from the rest of the write phase.
2. **Same counts**: the same batches go into a fresh embedded store (chunks dropped: graph only);
   ``stats()`` of both must agree on files per language, nodes per label, edges per kind, CALLS per
   resolution, unresolved calls and repositories (the script exits 1 otherwise).
3. **Write throughput**: ``--runs`` more runs write the kept batches into an empty graph; nodes +
   edges per second of the Bolt ``replace_files`` calls, median (min-max) over all runs (the index run
   included); the embedded store's graph-only figure for comparison; then every batch written again
   into the full graph (each file's old nodes and edges replaced: the cost of a full rewrite; the
   incremental pipeline itself writes only the files that changed).
4. **Blast radius**: :func:`analysis.impact.blast_radius` for each ``--symbols`` entry on both stores;
   contract calls, server round trips (queries) and wall time on Bolt; the reports must name the
   same callers, endpoints and entry points.

``--files N`` indexes the first N files only (a documented subset, for slow machines): the corpus
is copied to a temporary folder in sorted path order.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from indexer.run import IndexOptions  # noqa: E402
from indexer.pipeline import index_repository  # noqa: E402
from stores.contracts import IndexedFile  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from analysis.impact import SymbolQuery, blast_radius  # noqa: E402
from stores.memgraph import MemgraphGraphStore  # noqa: E402
from tools.arcadedb_server import ArcadeDBServer  # noqa: E402

COMPARED = ("files", "nodes", "edges", "calls_by_resolution", "unresolved_calls", "repos")
DEFAULT_SYMBOLS = ("QuerySet.filter", "Model.save", "HttpResponse", "reverse", "get_object_or_404")


class TimedBolt(MemgraphGraphStore):
    """The Bolt store, timing its ``replace_files`` calls and keeping their batches."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.batches: list[list[IndexedFile]] = []
        self.write_s = 0.0
        self.recording = True

    def replace_files(self, files: Sequence[IndexedFile]) -> None:  # noqa: D102
        if self.recording:
            self.batches.append(list(files))
        t0 = time.perf_counter()
        super().replace_files(files)
        self.write_s += time.perf_counter() - t0


def rows(batches: list[list[IndexedFile]]) -> tuple[int, int]:
    """(nodes, edges) the batches write (edges of a file counted once, as stored)."""
    nodes = sum(len(f.nodes) for b in batches for f in b)
    edges = sum(len(dict.fromkeys(f.edges)) for b in batches for f in b)
    return nodes, edges


def subset(src: Path, n: int, dest: Path) -> Path:
    """Copy the first ``n`` source files (sorted paths) of ``src`` under ``dest``."""
    suffixes = {".py", ".js", ".ts", ".tsx", ".java", ".mjs", ".cjs", ".jsx"}
    files = sorted(p for p in src.rglob("*") if p.is_file() and p.suffix in suffixes)[:n]
    for p in files:
        target = dest / p.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, target)
    return dest


class Graph:
    """A fresh graph per run: a new ArcadeDB, or the ``--uri`` graph cleared."""

    def __init__(self, uri: str | None, heap: str) -> None:
        self.uri = uri
        self.heap = heap
        self.server: ArcadeDBServer | None = None

    def open(self, cls: type[MemgraphGraphStore] = MemgraphGraphStore) -> Any:
        if self.uri is None:
            self.server = ArcadeDBServer(heap=self.heap).start()
            return cls(self.server.uri)
        store = cls(self.uri)
        store.clear()
        return store

    def close(self, store: MemgraphGraphStore) -> None:
        store.close()
        if self.server is not None:
            self.server.stop()
            self.server = None


def write_all(store: Any, batches: list[list[IndexedFile]]) -> float:
    t0 = time.perf_counter()
    for batch in batches:
        store.replace_files(batch)
    return time.perf_counter() - t0


def same_report(a: Any, b: Any) -> bool:
    def key(r: Any) -> tuple[Any, ...]:
        return (
            sorted(c.node.id for c in r.callers), sorted((e.id, e.repo, e.hops) for e in r.endpoints),
            sorted((p.node.id, p.hops) for p in r.entry_points), r.callers_by_hop,
        )

    return key(a) == key(b)


def main() -> int:
    """Run the benchmark and print markdown."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", type=Path)
    ap.add_argument("--runs", type=int, default=3, help="write runs after the index run (default 3)")
    ap.add_argument("--files", type=int, default=None, help="index only the first N files (a subset)")
    ap.add_argument("--uri", default=None, help="an existing Bolt server (cleared per run) instead of ArcadeDB")
    ap.add_argument("--heap", default="1g", help="ArcadeDB's Java -Xmx (default %(default)s)")
    ap.add_argument("--repo", default=None, help="repository name (default: the folder name)")
    ap.add_argument("--symbols", nargs="*", default=list(DEFAULT_SYMBOLS))
    args = ap.parse_args()
    repo = args.repo or args.path.name
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.1f}")
    graph = Graph(args.uri, args.heap)
    with tempfile.TemporaryDirectory() as tmp:
        root = args.path
        if args.files:
            root = subset(args.path, args.files, Path(tmp) / "subset" / args.path.name)
            print(f"SUBSET: the first {args.files} source files of {args.path} (sorted paths)")

        # 1. index through Bolt (search embedded)
        bolt = graph.open(TimedBolt)
        search = EmbeddedStore(Path(tmp) / "search.db")
        t0 = time.perf_counter()
        report = index_repository(root, bolt, search, IndexOptions(repo=repo))
        total = time.perf_counter() - t0
        search.close()
        bolt.recording = False
        batches = bolt.batches
        index_write_s = bolt.write_s
        n_nodes, n_edges = rows(batches)
        print(f"\n## {args.path.name} through Bolt ({bolt.ping()['agent']})\n")
        print(f"- files indexed: {report.files_indexed:,}; nodes {n_nodes:,}; edges {n_edges:,}; "
              f"write batches {len(batches)}")
        print(f"- index run: total {total:.1f} s; phases " + ", ".join(f"{k} {v:.1f} s" for k, v in report.phases.items())
              + f"; of the write phase, Bolt replace_files {bolt.write_s:.1f} s")
        bolt_stats = bolt.stats()

        # 2. the same batches into the embedded store
        ref = EmbeddedStore(Path(tmp) / "graph.db")
        graph_only = [[replace(f, chunks=[]) for f in b] for b in batches]
        emb_s = write_all(ref, graph_only)
        ref_stats = ref.stats()
        equal = all(bolt_stats[k] == ref_stats[k] for k in COMPARED)
        print("\n| count | Bolt (ArcadeDB) | embedded |\n|---|---|---|")
        for k in COMPARED:
            print(f"| {k} | {bolt_stats[k]} | {ref_stats[k]} |")
        print(f"\nsame counts: {'yes' if equal else 'NO'}")

        # 4. blast radius (before the write runs replace this graph)
        print("\n| blast radius | callers | endpoints | contract calls | server queries | Bolt ms | embedded ms | same |"
              "\n|---|---|---|---|---|---|---|---|")
        same_all = True
        for sym in args.symbols:
            trips = bolt.round_trips
            t = time.perf_counter()
            mine = blast_radius(bolt, SymbolQuery(sym))
            bolt_ms = (time.perf_counter() - t) * 1000
            queries = bolt.round_trips - trips
            t = time.perf_counter()
            theirs = blast_radius(ref, SymbolQuery(sym))
            emb_ms = (time.perf_counter() - t) * 1000
            same = same_report(mine, theirs)
            same_all &= same
            calls = sum(s.round_trips for s in mine.steps)
            print(f"| {sym} | {len(mine.callers)} | {len(mine.endpoints)} | {calls} | {queries} | {bolt_ms:.0f} |"
                  f" {emb_ms:.0f} | {'yes' if same else 'NO'} |")
        ref.close()

        # 3. write throughput
        rewrite_s = write_all(bolt, batches)
        graph.close(bolt)
        times = [index_write_s]
        for _ in range(args.runs):
            store = graph.open()
            try:
                times.append(write_all(store, batches))
            finally:
                graph.close(store)
        rate = [(n_nodes + n_edges) / s for s in times]
        print(f"\nwrite throughput, Bolt replace_files, {len(times)} runs (the index run + {args.runs}), "
              f"{n_nodes + n_edges:,} nodes + edges:")
        print(f"- Bolt: median {statistics.median(times):.1f} s (runs: {', '.join(f'{t:.1f}' for t in times)} s) = "
              f"**{statistics.median(rate):,.0f} nodes+edges/s** ({min(rate):,.0f}-{max(rate):,.0f})")
        print(f"- embedded (graph only, one run): {emb_s:.1f} s = {(n_nodes + n_edges) / emb_s:,.0f} nodes+edges/s")
        print(f"- Bolt, every file replaced again in the full graph (deletes + writes; `ripple index` itself"
              f" rewrites only changed files): {rewrite_s:.1f} s = "
              f"{(n_nodes + n_edges) / rewrite_s:,.0f} nodes+edges/s")
    return 0 if equal and same_all else 1


if __name__ == "__main__":
    sys.exit(main())
