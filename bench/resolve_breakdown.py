"""Benchmark: where the resolve phase's memory is, by allocation site and by owning structure.

Usage::

    python bench/resolve_breakdown.py TREE PATH

Indexes ``PATH`` in process as ``ripple index`` does (fresh store and extraction cache, in a
temporary folder under ``/tmp``) with the code of the checkout ``TREE`` (``/work/main`` or a
``git archive`` copy: main and a branch measured alike), tracing Python allocations
(``tracemalloc``), and stops where the run releases the resolver (``RepositoryResolver.release``:
the end of the resolve phase). Prints the traced heap there, the 25 source lines holding most, then
lets go of the read records, the memo (with its interned tokens), the class hierarchy, the lookup
tables, the rest of the resolver and the contexts of the files released, one at a time with a full
collection between: each drop of the traced heap is what that structure owned. About 2x a run's
time. Linux or macOS
no output is written."""
import gc
import sys
import tempfile
import time
import tracemalloc
sys.path.insert(0, sys.argv[1])
from pathlib import Path  # noqa: E402
from indexer.pipeline import index_repository  # noqa: E402
from indexer.run import IndexOptions  # noqa: E402
from indexer.resolve.repository import RepositoryResolver  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402

class Stop(Exception):
    pass

def mib():
    gc.collect()
    return tracemalloc.get_traced_memory()[0] / (1 << 20)

orig = RepositoryResolver.release
def release(self, paths):
    paths = list(paths)
    print(f"traced peak so far {tracemalloc.get_traced_memory()[1]/(1<<20):.1f} MiB", flush=True)
    snap = tracemalloc.take_snapshot()
    t0 = mib()
    print(f"at end of resolve: {t0:.1f} MiB traced", flush=True)
    for st in snap.statistics("lineno")[:25]:
        fr = st.traceback[0]
        print(f"  {st.size/(1<<20):7.1f} MiB {st.count:>9,}  {fr.filename.split('/')[-3:]}:{fr.lineno}")
    r = self._resolver
    steps = []
    self._deps = {}
    t = mib()
    steps.append(("read records (_deps)", t0 - t))
    t0 = t
    r.track._memo = {}
    if hasattr(r.track, "_young"):  # a bounded memo (indexer.resolve.tracking)
        r.track._young, r.track._old = {}, {}
    r.track._tokens = {}
    t = mib()
    steps.append(("memo (+ interned tokens)", t0 - t))
    t0 = t
    for c in [fc for fc in self.files.values()]:
        for rd in c.defs:
            rd.bases = None
            rd.subclasses = ()  # not []: a new list per definition would be counted against the drop
            rd.bases_deps = ()
    r.classes = None
    r.calls = None
    t = mib()
    steps.append(("class hierarchy (bases, mro, subclasses)", t0 - t))
    t0 = t
    r.tables = None
    r._modules = r._packages = None
    t = mib()
    steps.append(("module tables", t0 - t))
    t0 = t
    self._resolver = None
    r = None
    t = mib()
    steps.append(("rest of Resolver", t0 - t))
    t0 = t
    for p in paths:
        fc = self.files.get(p)
        if fc is not None:
            self.files[p] = fc.released()
    t = mib()
    steps.append(("FileCtx + extractions (released)", t0 - t))
    t0 = t
    for n, d in steps:
        print(f"  {n:45s} {d:8.1f} MiB", flush=True)
    print(f"left after: {t0:.1f} MiB", flush=True)
    raise Stop

RepositoryResolver.release = release
tracemalloc.start(1)
path = Path(sys.argv[2])
with tempfile.TemporaryDirectory(prefix="res19-where-", dir=None) as tmp:
    store = EmbeddedStore(f"{tmp}/index.db")
    opts = IndexOptions(repo=path.resolve().name, state_dir=f"{tmp}/state")
    t = time.time()
    try:
        index_repository(path, store, store, opts)
    except Stop:
        pass
    print(f"wall {time.time()-t:.0f} s")
