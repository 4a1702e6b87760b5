"""Benchmark: one run's phases with the extractions from a kept extraction cache, for comparing
the resolve phase of two checkouts side by side.

Usage::

    python bench/index_memory_warm.py TREE PATH STATE [DB]

Indexes ``PATH`` in process into a fresh store (``DB``, kept for ``tests/index_dump.py``
a
temporary one without it) with the code of the checkout ``TREE``, the run's state folder (and so
its extraction cache) being ``STATE``: a first run fills the cache, later runs read every
extraction from it, so their resolve phase is a cold run's without the extract phase's noise. (Their
write phase is not: the main process cuts every file's chunks, which a cold run's workers do.)
Prints one JSON line: files, nodes, edges, the main process's CPU, its peak RSS, the memo's entries
(droppable, pinned) and how many it dropped when the resolver was released, and per phase
``[RSS start, peak, end MiB, wall s, CPU s]`` (:class:`index_memory.PhaseSampler`)."""
import os
import resource
import sys
import tempfile
import time
import json
import tracemalloc
tree, path, state = sys.argv[1:4]  # noqa: E402
sys.path.insert(0, tree)
sys.path.insert(0, tree + "/bench")
from pathlib import Path  # noqa: E402
from index_memory import PhaseSampler as _PS  # noqa: E402
class PhaseSampler(_PS):
    def _open(self, phase):
        super()._open(phase)
        self.rows[phase]["cpu0"] = time.process_time()
    def _close(self):
        super()._close()
        r = self.rows[self.phase]
        r["cpu"] = time.process_time() - r["cpu0"]
from indexer.pipeline import index_repository  # noqa: E402
from indexer.run import IndexOptions  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from indexer.resolve.repository import RepositoryResolver  # noqa: E402
stats = {}
orig_rel = RepositoryResolver.release
def release(self, paths):
    tr = self._resolver.track
    stats["memo"] = tr.memo_size() if hasattr(tr, "memo_size") else (0, sum(len(b) for b in tr._memo.values()))
    stats["evicted"] = getattr(tr, "evicted", None)
    stats["deps_refs"] = sum(len(d) for d in self._deps.values())
    return orig_rel(self, paths)
RepositoryResolver.release = release
if "--trace" in sys.argv:
    tracemalloc.start(1)
with tempfile.TemporaryDirectory(prefix="warm-") as tmp:
    db = sys.argv[4] if len(sys.argv) > 4 and not sys.argv[4].startswith("--") else f"{tmp}/index.db"
    store = EmbeddedStore(db)
    opts = IndexOptions(repo=Path(path).resolve().name, state_dir=state)
    s = PhaseSampler()
    c0 = os.times()
    t0 = time.perf_counter()
    rep = index_repository(path, store, store, opts, s)
    s.stop()
    c1 = os.times()
    store.close()
print(json.dumps({"tree": tree, "path": path, "files": rep.files_indexed, "edges": sum(rep.edges.values()), "nodes": sum(rep.nodes.values()),
   "cpu_main": round((c1.user - c0.user) + (c1.system - c0.system), 2), "cpu_children": round(c1.children_user - c0.children_user + c1.children_system - c0.children_system, 2),
   "wall": round(time.perf_counter() - t0, 1), "peak_main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
   **stats,
   "phases": {k: (round(v["start"]), round(v["peak"]), round(v["end"]), round(v["wall"], 1), round(v.get("cpu", 0), 1)) for k, v in s.rows.items()}}))
