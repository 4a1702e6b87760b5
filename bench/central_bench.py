"""Benchmark: the central indexer over a manifest of many real repositories, then query latency
across them.

Usage::

    python bench/central_bench.py CORPUS_DIR --out /tmp/me/central [--jobs 2] [--memory-budget MIB]
                                  [--no-embed] [--bolt] [--samples 8]

``CORPUS_DIR`` holds one folder per repository (unpacked sdists, ``npm pack`` tarballs, checkouts);
each becomes a ``[[repository]]`` of ``OUT/manifest.toml`` (name: the folder's, product: ``bench``).

1. **Index**: ``ripple index --all OUT/manifest.toml --db OUT/index.db --json`` as a subprocess (the
   command a user runs): wall time, the peak RSS of the largest process of the run (``RUSAGE_CHILDREN``
   of this script: every process the run started was waited for), the store's size on disk (index
   file + WAL), and the per-repository outcomes. With ``--bolt`` the graph goes to an ArcadeDB started
   for the run (``tools/arcadedb_server.py``, the Bolt backend in the ``neo4j`` dialect; search stays
   in the embedded file), configured through ``RIPPLE_GRAPH_BACKEND`` / ``RIPPLE_MEMGRAPH_URI``.
2. **Latency**, over the stores the run wrote, in this process: per repository, ``--samples``
   callables that have at least one caller (the most called first, then every k-th), and for each:
   ``callers`` (:func:`analysis.navigation.callers`), ``impact``
   (:func:`analysis.impact.blast_radius`, depth 5) and ``search`` (:class:`analysis.retrieval.QueryEngine`
   over the callable's name as words, limit 10; BM25 + kNN when embedded). Each timed after one warm-up
   call of the same kind; p50 / p95 / max in milliseconds across every repository.

Prints one JSON document (also written to ``OUT/result.json``) with the machine, the load average
before and after, the command and every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.impact import NodesQuery, blast_radius  # noqa: E402
from analysis.navigation import callers  # noqa: E402
from analysis.retrieval import query_engine  # noqa: E402
from stores.config import load_config  # noqa: E402
from stores.factory import open_stores  # noqa: E402


def write_manifest(corpus: Path, out: Path) -> list[str]:
    names = sorted(p.name for p in corpus.iterdir() if p.is_dir())
    lines = []
    for name in names:
        safe = re.sub(r"[^A-Za-z0-9_.-]", "-", name)
        lines += ["[[repository]]", f"path = {json.dumps(str(corpus / name))}", f'name = "{safe}"',
                  'product = "bench"', ""]
    (out / "manifest.toml").write_text("\n".join(lines), encoding="utf-8")
    return names


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"n": len(values), "p50": round(statistics.median(ordered), 2), "p95": round(p95, 2),
            "max": round(ordered[-1], 2)}


def sample_targets(graph, repo: str, samples: int) -> list:
    """Up to ``samples`` callables of ``repo`` with at least one caller: most called first, then spread."""
    paths = sorted(graph.file_checksums(repo))
    nodes = [n for p in paths for n in graph.nodes_in_file(repo, p) if n.label in ("Method", "Function")]
    if not nodes:
        return []
    incoming = graph.incoming([n.id for n in nodes], ["CALLS"])
    called = sorted((n for n in nodes if incoming.get(n.id)), key=lambda n: (-len(incoming[n.id]), n.id))
    if len(called) <= samples:
        return called
    step = max(1, len(called) // samples)
    return called[:1] + called[step::step][: samples - 1]


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def index_command(manifest: Path, db: Path, jobs: int, memory_budget: int | None, no_embed: bool) -> list[str]:
    """The ``ripple index --all`` command line the benchmarks run (this worktree's ``ripple``)."""
    command = [str(ROOT / ".venv" / "bin" / "ripple"), "index", "--all", str(manifest), "--db", str(db), "--json",
               "-j", str(jobs)]
    if memory_budget:
        command += ["--memory-budget", str(memory_budget)]
    if no_embed:
        command.append("--no-embed")
    return command


def run_index(command: list[str], env: dict[str, str], cwd: Path, sample=None) -> tuple[dict, float, float]:
    """Run ``command`` (an ``index --all ... --json``) to its end: ``(its JSON document, wall seconds,
    peak RSS MiB of its largest process)``. ``sample(pid)``, when given, is called about every 0.5 s
    while it runs (to follow the memory of the whole process tree). Raises ``RuntimeError`` with the
    end of its stderr when it exits with a status other than 0 or 1."""
    t0 = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                          cwd=cwd) as proc:
        if sample is not None:
            def follow() -> None:
                while proc.poll() is None:
                    sample(proc.pid)
                    time.sleep(0.5)

            threading.Thread(target=follow, daemon=True).start()
        stdout, stderr = proc.communicate()
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if proc.returncode not in (0, 1):
        raise RuntimeError(stderr[-4000:])
    return json.loads(stdout), wall, peak


def store_bytes(db: Path) -> int:
    """The embedded index file's size on disk with its WAL, bytes."""
    return sum(Path(f"{db}{s}").stat().st_size for s in ("", "-wal") if Path(f"{db}{s}").exists())


def name_words(name: str) -> str:
    """A callable's name as the words a user would search for (``make_response`` -> ``make response``)."""
    return " ".join(p for p in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if p) or name


def query_latency(graph, engine, run: dict, samples: int, extra=()) -> tuple[dict[str, list[float]], int]:
    """Per repository of ``run`` indexed ok, ``samples`` targets (:func:`sample_targets`), each asked
    ``callers``, ``impact`` (depth 5) and ``search`` (its name as words, limit 10), plus every
    ``(kind, fn(node))`` of ``extra``; each kind warmed once per repository. Returns the milliseconds
    per kind and the number of targets."""
    lat: dict[str, list[float]] = {"callers": [], "impact": [], "search": [], **{k: [] for k, _ in extra}}
    targets = 0
    for o in run["repositories"]:
        if o["status"] != "ok":
            continue
        picked = sample_targets(graph, o["key"], samples)
        targets += len(picked)
        for i, node in enumerate(picked):
            words = name_words(node.name)
            calls = [("callers", lambda n=node: callers(graph, [n])),
                     ("impact", lambda n=node: blast_radius(graph, NodesQuery((n,)), engine=engine)),
                     ("search", lambda w=words: engine.search(w, 10))]
            calls += [(kind, lambda n=node, f=fn: f(n)) for kind, fn in extra]
            for kind, fn in calls:
                if i == 0:
                    fn()  # warm-up of this kind in this repository
                lat[kind].append(timed(fn))
    return lat, targets


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--memory-budget", type=int, default=None)
    ap.add_argument("--no-embed", action="store_true")
    ap.add_argument("--bolt", action="store_true", help="graph in an ArcadeDB started for the run")
    ap.add_argument("--samples", type=int, default=8)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    db = args.out / "index.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    names = write_manifest(args.corpus.resolve(), args.out)
    env = {**os.environ, "XDG_CACHE_HOME": str(args.out / "cache")}
    server = None
    if args.bolt:
        from tools.arcadedb_server import ArcadeDBServer

        server = ArcadeDBServer().start()
        env.update(RIPPLE_GRAPH_BACKEND="memgraph", RIPPLE_MEMGRAPH_URI=server.uri, RIPPLE_MEMGRAPH_DIALECT="neo4j")
    command = index_command(args.out / "manifest.toml", db, args.jobs, args.memory_budget, args.no_embed)
    load_before = os.getloadavg()
    try:
        try:
            run, wall, peak = run_index(command, env, args.out)
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 2
        size = store_bytes(db)
        os.environ.update({k: v for k, v in env.items() if k.startswith("RIPPLE_") or k == "XDG_CACHE_HOME"})
        stores = open_stores(load_config(args.out), db)
        graph, search = stores.graph, stores.search
        engine = query_engine(graph, None, search)
        lat, targets = query_latency(graph, engine, run, args.samples)
        stores.close()
    finally:
        if server is not None:
            server.stop()
    ok = [o for o in run["repositories"] if o["status"] == "ok"]
    result = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
        "command": " ".join(command), "graph": "arcadedb (bolt)" if args.bolt else "embedded",
        "repositories": len(names), "indexed": len(ok),
        "failed": {o["key"]: o["error"] for o in run["repositories"] if o["status"] != "ok"},
        "files": sum(o["files"] for o in ok), "nodes_written": sum(o["nodes"] for o in ok),
        "edges_written": sum(o["edges"] for o in ok), "chunks": sum(o["chunks"] for o in ok),
        "wall_s": round(wall, 1), "run_s": run["seconds"], "embeddings": run["embeddings"],
        "store_bytes": size, "store_mib": round(size / (1 << 20), 1), "peak_rss_mib": round(peak, 1),
        "per_repo_peak_mib_max": max((o["peak_mib"] for o in ok), default=0),
        "latency_targets": targets, "latency_ms": {k: percentiles(v) for k, v in lat.items()},
        "slowest_repos": sorted(((o["key"], o["seconds"]) for o in ok), key=lambda x: -x[1])[:5],
    }
    (args.out / "result.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0 if len(ok) == len(names) else 1


if __name__ == "__main__":
    sys.exit(main())
