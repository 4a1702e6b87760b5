"""Blast-radius benchmark: latency p50 / p95, store round trips per report and RSS, on a synthetic graph
of about 1M edges, on the small fixture of tests/unit/test_impact.py, and optionally on real indexes.

Usage::

    python bench/impact_bench.py [--db /tmp/impact_bench/synthetic.db] [--targets 200] [--index DB ...]

(a) Synthetic graph (generated once into ``--db`` by a child process, through the embedded store's
    contract, ``replace_files`` in batches of 250 files): ``--services`` repositories ``svc0`` ..
    layered as tiers; each holds ``--files`` files of one class with ``--methods`` methods, the files
    split into five layers. A method of layer k > 0 CALLS ``--calls`` methods of layer k - 1 of its
    service, chosen with a skew (index ``n * r**2``, r uniform: a few methods are called from many
    places, most from few). Layer 4 methods EXPOSE an endpoint each (one in ten CONSUMES one of the
    service's ten topics instead); one layer-0 method in five is an HTTP client that CALLS_HTTP an
    endpoint of a lower tier (``svc{j}``, j < i, with ``props.service`` naming it); one layer-1 method
    in twenty PRODUCES a topic of a lower tier. So a change low in one service reaches its
    controllers, crosses into the clients of higher tiers and climbs there. Defaults: 20 x 500 x 20
    = 200k methods, 800k CALLS + 210k CONTAINS + ~46k service edges, about 1.06M edges.
(b) Reports: ``--targets`` methods sampled uniformly (seed 0), each asked by node id
    (:class:`analysis.impact.SymbolQuery`) with the default depth 5, node cap 5,000 and a service map
    naming every ``svc{j}``; one warm-up pass over ten other methods first. Wall time of
    :func:`analysis.impact.blast_radius` per report (p50 / p95 / max) and store calls per report, counted
    by :class:`analysis.impact.CountingGraph` wrapped around the store.
(c) RSS of this process (which only opens the index and runs reports, like a language server):
    current and peak (``ru_maxrss``) after the reports.
(d) The same figures on the fixture of tests/unit/test_impact.py (every callable as a target) and on
    each ``--index`` (real indexes, e.g. ``ripple index /tmp/corpora/django-5.2.8 --db X --no-embed``;
    targets sampled among callables that have callers).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from stores.contracts import Edge, FileRecord, IndexedFile, Node, endpoint_id, topic_id  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from analysis.impact import CountingGraph, SymbolQuery, blast_radius  # noqa: E402

LAYERS = 5
BATCH = 250


def _method_id(svc: int, layer: int, f: int, k: int) -> str:
    return f"svc{svc}:src/l{layer}/m{f}.C{f}.op{k}(1)"


def generate(db: Path, services: int, files: int, methods: int, calls: int, seed: int = 0) -> dict[str, Any]:
    """Write the synthetic graph into a fresh store at ``db``; returns its stats."""
    rng = random.Random(seed)
    per_layer = files // LAYERS
    store = EmbeddedStore(db)
    t0 = time.perf_counter()

    def endpoint(svc: int, f: int, k: int) -> tuple[str, Node]:
        eid = endpoint_id("GET" if k % 2 == 0 else "POST", f"/svc{svc}/res{f}/op{k}/{{id}}")
        name = eid.removeprefix("endpoint:")
        return eid, Node(eid, "Endpoint", name, name, "", "", 0, 0, 0, 0,
                         {"http_method": name.split(" ")[0], "path": name.split(" ", 1)[1]})

    def topic(svc: int, k: int) -> tuple[str, Node]:
        tid = topic_id(f"svc{svc}.events{k}")
        return tid, Node(tid, "Topic", tid[6:], tid[6:], "", "", 0, 0, 0, 0)

    batch: list[IndexedFile] = []
    for svc in range(services):
        repo = f"svc{svc}"
        for layer in range(LAYERS):
            for fi in range(per_layer):
                f = layer * per_layer + fi
                path = f"src/l{layer}/m{f}.py"
                cls = f"{repo}:src/l{layer}/m{f}.C{f}"
                item = IndexedFile(FileRecord(repo, path, "python", f"{f:064x}", 1000))
                item.nodes.append(Node(f"{repo}:{path}", "File", path, path, repo, path, 1, 0, 10 * methods + 5, 0))
                item.nodes.append(Node(cls, "Class", f"C{f}", f"C{f}", repo, path, 2, 0, 10 * methods + 5, 0))
                item.edges.append(Edge("CONTAINS", f"{repo}:{path}", cls, repo, path))
                for k in range(methods):
                    mid = _method_id(svc, layer, f, k)
                    line = 3 + 10 * k
                    item.nodes.append(Node(mid, "Method", f"op{k}", f"C{f}.op{k}", repo, path, line, 4, line + 8, 0,
                                           {"arity": 1}))
                    item.edges.append(Edge("CONTAINS", cls, mid, repo, path))
                    if layer > 0:
                        for c in range(calls):
                            g = (layer - 1) * per_layer + int(per_layer * rng.random() ** 2)
                            callee = _method_id(svc, layer - 1, g, rng.randrange(methods))
                            item.edges.append(Edge("CALLS", mid, callee, repo, path, line + 1 + c, 8, "exact"))
                    if layer == LAYERS - 1:
                        if rng.random() < 0.1:
                            tid, tnode = topic(svc, rng.randrange(10))
                            item.edges.append(Edge("CONSUMES", mid, tid, repo, path, line, 4, props={"framework": "kafka"}))
                            item.nodes.append(tnode)
                        else:
                            eid, enode = endpoint(svc, f, k)
                            item.edges.append(Edge("EXPOSES", mid, eid, repo, path, line, 4, props={"framework": "flask"}))
                            item.nodes.append(enode)
                    elif layer == 0 and svc > 0 and rng.random() < 0.2:
                        j = rng.randrange(svc)
                        g = (LAYERS - 1) * per_layer + int(per_layer * rng.random() ** 2)
                        eid, enode = endpoint(j, g, rng.randrange(methods))
                        item.edges.append(Edge("CALLS_HTTP", mid, eid, repo, path, line + 1, 8, props={
                            "framework": "requests", "url": f"http://svc{j}{enode.props['path']}", "service": f"svc{j}"}))
                        item.nodes.append(enode)
                    elif layer == 1 and svc > 0 and rng.random() < 0.05:
                        tid, tnode = topic(rng.randrange(svc), rng.randrange(10))
                        item.edges.append(Edge("PRODUCES", mid, tid, repo, path, line + 2, 8, props={"framework": "kafka"}))
                        item.nodes.append(tnode)
                batch.append(item)
                if len(batch) == BATCH:
                    store.replace_files(batch)
                    batch = []
    if batch:
        store.replace_files(batch)
    stats = store.stats()
    store.close()
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    return stats


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def measure(store: Any, targets: list[str], services: dict[str, str], warmup: list[str]) -> dict[str, Any]:
    counted = CountingGraph(store)
    for t in warmup:
        blast_radius(counted, SymbolQuery(t), services=services)
    times, trips, reached, endpoints, repos, truncated = [], [], [], [], [], 0
    for t in targets:
        before = counted.calls
        start = time.perf_counter()
        report = blast_radius(counted, SymbolQuery(t), services=services)
        times.append((time.perf_counter() - start) * 1000)
        trips.append(counted.calls - before)
        reached.append(report.reached)
        endpoints.append(len(report.endpoints))
        repos.append(len(report.services))
        truncated += bool(report.truncated)
    return {
        "n": len(targets),
        "p50_ms": round(statistics.median(times), 1), "p95_ms": round(pct(times, 0.95), 1),
        "max_ms": round(max(times), 1),
        "round_trips_median": statistics.median(trips), "round_trips_max": max(trips),
        "reached_median": statistics.median(reached), "reached_max": max(reached),
        "endpoints_median": statistics.median(endpoints), "endpoints_max": max(endpoints),
        "cross_service_reports": sum(1 for r in repos if r > 1), "services_max": max(repos),
        "truncated_reports": truncated,
    }


def rss() -> dict[str, float]:
    return {"rss_mb": round(psutil.Process().memory_info().rss / 2**20, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def sample_callables(store: EmbeddedStore, n: int, seed: int, with_callers: bool) -> list[str]:
    """``n`` callables (seeded), among those with an incoming CALLS edge when ``with_callers``."""
    db = store._db  # bench only: a sample needs one scan the contract does not offer
    sql = "SELECT id FROM nodes WHERE label IN ('Method', 'Function', 'Constructor')"
    if with_callers:
        sql += " AND id IN (SELECT dst FROM edges WHERE kind = 'CALLS')"
    ids = sorted(r[0] for r in db.execute(sql))
    return random.Random(seed).sample(ids, min(n, len(ids)))


def fixture_figures() -> dict[str, Any]:
    from tests.unit.test_impact import SERVICES, files

    with tempfile.TemporaryDirectory() as tmp:
        store = EmbeddedStore(Path(tmp) / "fixture.db")
        store.replace_files(files())
        ids = [n.id for f in files() for n in f.nodes if n.label in ("Method", "Function", "Constructor")]
        figures = measure(store, ids * 5, SERVICES, ids)  # each target five times: enough samples
        store.close()
    return {**figures, "targets": len(ids)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, default=Path("/tmp/impact_bench/synthetic.db"))
    ap.add_argument("--services", type=int, default=20)
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--methods", type=int, default=20)
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--targets", type=int, default=200)
    ap.add_argument("--index", type=Path, action="append", default=[], help="A real index to measure too.")
    ap.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.generate_only:
        print(json.dumps(generate(args.db, args.services, args.files, args.methods, args.calls)))
        return
    out: dict[str, Any] = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                           "load_before": os.getloadavg()[0]}
    if not args.db.exists():
        args.db.parent.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([sys.executable, __file__, "--generate-only", "--db", str(args.db),
                               "--services", str(args.services), "--files", str(args.files),
                               "--methods", str(args.methods), "--calls", str(args.calls)],
                              check=True, capture_output=True, text=True)
        out["generated"] = json.loads(done.stdout)
    store = EmbeddedStore(args.db)
    stats = store.stats()
    out["graph"] = {"nodes": sum(stats["nodes"].values()), "edges": sum(stats["edges"].values()),
                    "edges_by_kind": stats["edges"]}
    targets = sample_callables(store, args.targets + 10, 0, with_callers=False)
    services = {f"svc{i}": f"svc{i}" for i in range(args.services)}
    out["synthetic"] = measure(store, targets[10:], services, targets[:10])
    out["synthetic_rss"] = rss()
    store.close()
    for index in args.index:
        real = EmbeddedStore(index)
        picked = sample_callables(real, args.targets + 10, 0, with_callers=True)
        out[f"index:{index.name}"] = {**measure(real, picked[10:], {}, picked[:10]),
                                      "edges": sum(real.stats()["edges"].values())}
        real.close()
    out["fixture"] = fixture_figures()
    out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
