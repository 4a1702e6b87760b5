"""Benchmark: the resolve phase's CPU time on a real repository, trees side by side.

Usage::

    python bench/resolve_cpu.py PATH TREE [TREE ...] [--runs 3] [--suffix .cs --suffix .java]
                                [--profile N] [--budget]

Extracts every file of ``PATH`` with one of the suffixes once (with the first ``TREE``'s code; the
extractions are pickled under ``/tmp``, keyed by the path, the suffixes and the first tree's
``indexer/model*.py``, and handed to every run), then, ``--runs`` times in turn for
each ``TREE`` (``/work/main`` or a ``git archive`` copy: main and a branch measured alike), resolves
them in a fresh child process (:func:`indexer.resolve.repository.resolve_repository`, the phase
``ripple index`` reports as ``resolve``, without the framework linker's store reads) and prints its
CPU time (``time.process_time``: user + system of that process, the load of a shared machine moves it
far less than wall time), the number of edges and a SHA-256 of every edge and unresolved call sorted,
which must be equal across trees when a change is to keep the index identical. ``--profile N``: also
print the N functions of most cumulative time of one run per tree (``cProfile``). ``--budget``: resolve
as a one-shot ``ripple index`` does (:class:`indexer.incremental.IncrementalIndexer`): the resolver's
``memo_budget`` is :data:`indexer.resolve.repository.MEMO_BUDGET` (bounded memos, so lookups the memo
dropped are computed again: about 1-3 s more CPU on Django, docs/benchmarks.md, session 66, cpu66b) and
``keep_link_memo`` is off; without it the memos are unbounded (a tree whose resolver has no
``MEMO_BUDGET`` fails with ``--budget``). Prints which mode it ran. Prints figures only.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile

_CHILD = r"""
import cProfile, hashlib, io, pickle, pstats, sys, time
sys.path.insert(0, sys.argv[1])
from indexer.resolve.repository import RepositoryResolver
with open(sys.argv[2], "rb") as f:
    extractions = pickle.load(f)
prof = cProfile.Profile() if int(sys.argv[3]) else None
budget = sys.argv[4] == "budget"
t0 = time.process_time()
if prof: prof.enable()
resolver = RepositoryResolver("r", None)  # as resolve_repository builds it
if budget:  # as IncrementalIndexer.run sets it for a one-shot `ripple index`
    from indexer.resolve.repository import MEMO_BUDGET
    resolver.memo_budget = MEMO_BUDGET
    resolver.keep_link_memo = False
resolver.update(extractions)
result = resolver.resolve([ex.path for ex, _, _ in extractions])
if prof: prof.disable()
cpu = time.process_time() - t0
rows = sorted(f"{e.kind} {e.src} {e.dst} {e.line} {e.col} {e.resolution}" for f in result.files for e in f.edges)
rows += sorted(repr(u) for f in result.files for u in getattr(f, "unresolved", ()))
digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]
print(f"{cpu:.2f} {sum(1 for f in result.files for e in f.edges)} {digest} {len(extractions)}")
if prof:
    s = io.StringIO(); pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(int(sys.argv[3])); print(s.getvalue())
"""


def _extract(tree: str, root: str, suffixes: tuple[str, ...], out: str) -> int:
    code = (
        "import hashlib, os, pickle, sys\n"
        f"sys.path.insert(0, {tree!r})\n"
        "from indexer.languages import extractor_for_path\n"
        "xs = []\n"
        f"for folder, dirs, files in os.walk({root!r}):\n"
        "    dirs[:] = sorted(d for d in dirs if not d.startswith('.'))\n"
        "    for name in sorted(files):\n"
        f"        if not name.endswith({suffixes!r}): continue\n"
        "        full = os.path.join(folder, name); rel = os.path.relpath(full, " + repr(root) + ")\n"
        "        ex = extractor_for_path(rel)\n"
        "        data = open(full, 'rb').read()\n"
        "        if ex is None or len(data) > 1_000_000: continue\n"
        "        xs.append((ex.extract(rel, data), hashlib.sha256(data).hexdigest(), len(data)))\n"
        f"pickle.dump(xs, open({out!r}, 'wb'))\n"
        "print(len(xs))\n")
    return int(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)


def _model_digest(tree: str) -> str:
    """A SHA-256 of ``tree``'s extraction records' modules (``indexer/model*.py``): the extractions pickled
    with another version of them may not load (a record gained a field), so they are extracted again."""
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(tree, "indexer", "model*.py"))):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def main() -> None:
    """Parse arguments, extract once, resolve ``--runs`` times per tree in turn, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path")
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--suffix", action="append", default=None)
    ap.add_argument("--profile", type=int, default=0)
    ap.add_argument("--budget", action="store_true",
                    help="memo_budget = MEMO_BUDGET and no kept link memo, as a one-shot `ripple index` resolves")
    args = ap.parse_args()
    mode = "budget" if args.budget else "unbounded"
    suffixes = tuple(args.suffix or (".cs", ".java"))
    key = hashlib.sha256(f"{os.path.realpath(args.path)} {suffixes} {_model_digest(args.trees[0])}".encode()).hexdigest()[:12]
    cache = os.path.join(tempfile.gettempdir(), f"resolve_cpu_{key}.pickle")
    if not os.path.exists(cache):
        n = _extract(args.trees[0], os.path.realpath(args.path), suffixes, cache)
        print(f"extracted {n} files of {args.path} into {cache}")
    # Not unpickled here: this process may import another tree's records than the one that pickled them.
    print(f"extractions {cache}, suffixes {' '.join(suffixes)}; load {os.getloadavg()}")
    print("mode: " + ("budget (memo_budget = MEMO_BUDGET, no kept link memo, as `ripple index`)" if args.budget
                      else "unbounded memos (no memo budget; a real `ripple index` sets one: --budget)"))
    cpus: dict[str, list[float]] = {t: [] for t in args.trees}
    for run in range(args.runs):
        for tree in args.trees:
            prof = args.profile if run == 0 else 0
            out = subprocess.run([sys.executable, "-c", _CHILD, tree, cache, str(prof), mode], check=True,
                                 capture_output=True, text=True).stdout
            cpu, edges, digest, files = out.split("\n", 1)[0].split()
            cpus[tree].append(float(cpu))
            print(f"run {run + 1} {tree} ({mode}): resolve CPU {cpu} s, {files} files, {edges} edges, digest {digest}", flush=True)
            if prof:
                print(out.split("\n", 1)[1])
    first = statistics.median(cpus[args.trees[0]])
    for tree, values in cpus.items():
        med = statistics.median(values)
        print(f"{tree}: median {med:.2f} s ({', '.join(f'{v:.2f}' for v in values)}), {med / first:.2f}x the first tree")


if __name__ == "__main__":
    main()
