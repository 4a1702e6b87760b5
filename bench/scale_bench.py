"""Scale benchmark (issue 19 goal 7): hundreds of repositories, real and generated, indexed into one
embedded store through ``ripple index --all MANIFEST``, then queried in process and through a running
``ripple serve``.

    python bench/scale_bench.py --out /tmp/me/scale --real /tmp/me/corpus/src --generated 465 --files 210

The full size of the issue (500 repositories, >= 100,000 files, >= 10 million edges) is the default
with 35 real packages in ``--real``: 465 generated repositories of 210 modules each (97,650 files,
about 100 edges each) plus the real ones.

1. **Corpus**: every folder of each ``--real DIR`` (unpacked sdists, ``npm pack`` tarballs, checkouts)
   is a repository; ``--generated N`` more are written by ``bench/gen_repos.py`` into ``OUT/gen`` (kept
   when already there with the same ``--files`` and ``--seed``: generating is deterministic). One
   ``[[repository]]`` each in ``OUT/manifest.toml``, product ``scale``.
2. **Index**: ``ripple index --all OUT/manifest.toml --db OUT/index.db --json -j JOBS --no-embed``
   (``--embed`` to embed too: at several hundred thousand chunks this is hours on a small machine), as
   a subprocess, as ``bench/central_bench.py`` runs it: wall time, the peak RSS of the largest process
   and the peak *sum* over the whole process tree (sampled every 0.5 s with psutil), the store's size on
   disk, and the store's own counts (files, nodes, edges by kind). ``--skip-index`` reuses the store of
   an earlier run (queries only).
3. **Queries in process** over the store (:func:`central_bench.query_latency`): per repository
   ``--samples`` callables with callers, each asked ``callers``, ``impact`` (depth 5), ``search`` (BM25,
   plus kNN when embedded) and ``workspace-symbol`` (:meth:`search_symbols`, limit 100, as the
   server's workspace/symbol: the name's first three letters, then a fuzzy abbreviation): p50 / p95 / max.
4. **Through ``ripple serve``** (stdio, :func:`lsp_latency.start`) with ``--lsp-folders`` of the
   repositories as workspace folders (the server serves the whole store): for up to ``--lsp-targets``
   of the same targets, ``prepare + incomingCalls`` (targets in those folders), ``ripple/blastRadius``,
   ``ripple/search`` and ``workspace/symbol`` (every target), each timed as the client sees it; the
   server's RSS after them. ``--serve-read-only``: the server only reads the index (``[server]
   index_workspace = false``, as in front of a central index) instead of syncing and watching each folder.

Prints one JSON document (also ``OUT/result.json``): machine, load before / after, commands, every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from central_bench import (index_command, name_words, percentiles, query_latency, run_index,  # noqa: E402
                           sample_targets, store_bytes)
from gen_repos import generate  # noqa: E402
from lsp_latency import start  # noqa: E402

from analysis.retrieval import query_engine  # noqa: E402
from stores.config import load_config  # noqa: E402
from stores.factory import open_stores  # noqa: E402


def fuzzy(name: str) -> str:
    """The abbreviation a user types for ``name``: its first letter and the next five consonants
    (``mkrsp`` for ``make_response``), as ``bench/lsp_latency.py`` asks."""
    core = name.strip("_")
    return core[:1] + "".join(c for c in core[1:] if c.lower() not in "aeiou_")[:5]


def corpus(args: argparse.Namespace) -> list[Path]:
    """The repositories' folders: every folder of each ``--real`` directory, then the generated ones
    (written when missing)."""
    folders = [p for d in args.real for p in sorted(d.resolve().iterdir()) if p.is_dir()]
    if args.generated:
        gen = (args.out / "gen").resolve()
        stamp = gen / f".files{args.files}-seed{args.seed}"
        have = sorted(p for p in gen.glob("gen*") if p.is_dir()) if stamp.exists() else []
        if len(have) < args.generated:
            t = time.perf_counter()
            gen.mkdir(parents=True, exist_ok=True)
            written = generate(gen, args.generated - len(have), args.files, args.seed, start=len(have))
            stamp.touch()
            print(f"generated {args.generated - len(have)} repositories ({written / 2**20:.0f} MiB) in "
                  f"{time.perf_counter() - t:.0f} s", file=sys.stderr)
        folders += sorted(p for p in gen.glob("gen*") if p.is_dir())[: args.generated]
    return folders


def write_manifest(folders: list[Path], out: Path) -> Path:
    """``out/manifest.toml``: one ``[[repository]]`` per folder (its name made safe), product ``scale``."""
    lines = []
    for folder in folders:
        safe = re.sub(r"[^A-Za-z0-9_.-]", "-", folder.name)
        lines += ["[[repository]]", f"path = {json.dumps(str(folder))}", f'name = "{safe}"', 'product = "scale"', ""]
    manifest = out / "manifest.toml"
    manifest.write_text("\n".join(lines), encoding="utf-8")
    return manifest


class TreePeak:
    """The peak of the summed RSS of a process and its descendants, sampled by :meth:`__call__`."""

    def __init__(self) -> None:
        self.peak_mib = 0.0

    def __call__(self, pid: int) -> None:
        try:
            root = psutil.Process(pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.Error:
            return
        total = 0
        for p in procs:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        self.peak_mib = max(self.peak_mib, total / 2**20)


def position(root: Path, path: str, line: int, name: str) -> tuple[int, int] | None:
    """0-based (line, column) of ``name`` at or just after 1-based ``line`` of ``root/path``."""
    try:
        text = (root / path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for i in range(max(0, line - 1), min(line + 20, len(text))):
        col = text[i].find(name)
        if col >= 0:
            return i, col + 1
    return None


async def through_server(db: Path, folders: list[Path], keys: dict[str, Path], targets: list, limit: int) -> dict:
    """Time the queries of ``targets`` (nodes) through a ``ripple serve`` on ``db`` with ``folders``
    open; ``keys`` maps repository keys to their folders."""
    from lsprotocol import types

    t = time.perf_counter()
    client = await start(folders[0], db, None, tuple(folders[1:]))
    ready = time.perf_counter() - t
    lat: dict[str, list[float]] = {"prepare+incoming": [], "blastRadius": [], "search": [], "workspace/symbol": []}
    await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="warmup"))
    served = {f.resolve() for f in folders}
    answered = 0
    for node in targets[:limit]:
        root = keys.get(node.repo)
        if root is not None and root.resolve() in served:
            pos = position(root, node.file, node.start_line, node.name)
            if pos is not None:
                doc = types.TextDocumentIdentifier((root / node.file).as_uri())
                t = time.perf_counter()
                items = await client.text_document_prepare_call_hierarchy_async(
                    types.CallHierarchyPrepareParams(doc, types.Position(*pos)))
                if items:
                    calls = await client.call_hierarchy_incoming_calls_async(
                        types.CallHierarchyIncomingCallsParams(items[0]))
                    answered += bool(calls)
                lat["prepare+incoming"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        await client.protocol.send_request_async("ripple/blastRadius", {"symbol": node.id, "depth": 5})
        lat["blastRadius"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        await client.protocol.send_request_async("ripple/search", {"query": name_words(node.name), "limit": 10})
        lat["search"].append((time.perf_counter() - t) * 1000)
        for query in (node.name[:3], fuzzy(node.name)):
            t = time.perf_counter()
            await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
            lat["workspace/symbol"].append((time.perf_counter() - t) * 1000)
    proc = psutil.Process(client._server.pid)  # type: ignore[union-attr]  # noqa: SLF001 - the server's process
    rss = sum(p.memory_info().rss for p in (proc, *proc.children(recursive=True))) / 2**20
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"folders": [f.name for f in folders], "ready_s": round(ready, 1), "server_rss_mib": round(rss, 1),
            "incoming_calls_found": answered, "latency_ms": {k: percentiles(v) for k, v in lat.items()}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--real", type=Path, action="append", default=[], help="a folder of real repositories (repeatable)")
    ap.add_argument("--generated", type=int, default=465, help="generated repositories (bench/gen_repos.py)")
    ap.add_argument("--files", type=int, default=210, help="modules per generated repository")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--memory-budget", type=int, default=None)
    ap.add_argument("--embed", action="store_true", help="embed the chunks too (slow at this size)")
    ap.add_argument("--samples", type=int, default=4, help="query targets per repository")
    ap.add_argument("--lsp-folders", type=int, default=4, help="repositories opened as workspace folders (0: no server)")
    ap.add_argument("--lsp-targets", type=int, default=200)
    ap.add_argument("--serve-only", action="store_true", help="with --skip-index: no queries in process")
    ap.add_argument("--serve-read-only", action="store_true",
                    help="the server only reads the central index ([server] index_workspace = false): no "
                         "first sync and no watcher per folder")
    ap.add_argument("--skip-index", action="store_true", help="reuse OUT/index.db of an earlier run")
    ap.add_argument("--index-only", action="store_true", help="stop after indexing (OUT/run.json); query later "
                    "with --skip-index")
    args = ap.parse_args()
    if args.generated < 0 or args.files < 1 or args.samples < 1:
        ap.error("--generated must be >= 0, --files and --samples >= 1")
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    folders = corpus(args)
    if not folders:
        ap.error("no repositories: pass --real DIR and/or --generated N")
    manifest = write_manifest(folders, args.out)
    db = args.out / "index.db"
    env = {**os.environ, "XDG_CACHE_HOME": str(args.out / "cache")}
    command = index_command(manifest, db, args.jobs, args.memory_budget, not args.embed)
    load_before = os.getloadavg()
    run_file = args.out / "run.json"
    tree = TreePeak()
    if args.skip_index:
        saved = json.loads(run_file.read_text(encoding="utf-8"))
        run, wall, peak, tree.peak_mib = saved["run"], saved["wall_s"], saved["peak_rss_mib"], saved["tree_peak_mib"]
    else:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        try:
            run, wall, peak = run_index(command, env, args.out, sample=tree)
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 2
        run_file.write_text(json.dumps({"run": run, "wall_s": wall, "peak_rss_mib": peak,
                                        "tree_peak_mib": tree.peak_mib}), encoding="utf-8")
        if args.index_only:
            print(json.dumps({"wall_s": round(wall, 1), "peak_rss_mib": round(peak, 1),
                              "tree_peak_mib": round(tree.peak_mib, 1), "store_mib": round(store_bytes(db) / 2**20, 1),
                              "indexed": sum(o["status"] == "ok" for o in run["repositories"]),
                              "repositories": len(folders)}))
            return 0
    load_after_index = os.getloadavg()
    size = store_bytes(db)
    os.environ.update({k: v for k, v in env.items() if k == "XDG_CACHE_HOME"})
    os.environ["RIPPLE_DB"] = str(db)
    stores = open_stores(load_config(args.out), db)
    graph, search = stores.graph, stores.search
    stats = graph.stats()
    engine = query_engine(graph, None, search)
    extra = (("workspace-symbol", lambda n: (graph.search_symbols(n.name[:3], 100),
                                             graph.search_symbols(fuzzy(n.name), 100))),)
    t = time.perf_counter()
    lat, targets = query_latency(graph, engine, run, args.samples, extra) if not args.serve_only else ({}, 0)
    query_s = time.perf_counter() - t
    ok = [o for o in run["repositories"] if o["status"] == "ok"]
    keys = {o["key"]: Path(o["root"]) for o in ok}
    lsp = None
    if args.lsp_folders:
        real = [f for f in folders if not f.name.startswith("gen")]
        gen = [f for f in folders if f.name.startswith("gen")]
        half = args.lsp_folders // 2
        served = (real[:half] + gen[: args.lsp_folders - half]) if real and gen else folders[: args.lsp_folders]
        picked = []
        for f in served:  # targets in the served folders first (they get prepare+incoming), then every repository
            key = re.sub(r"[^A-Za-z0-9_.-]", "-", f.name)
            picked += sample_targets(graph, key, max(1, args.lsp_targets // (2 * len(served))))
        rest = [n for o in ok for n in sample_targets(graph, o["key"], 1)]
        picked += rest[:: max(1, len(rest) // max(1, args.lsp_targets - len(picked)))]
        if args.serve_read_only:
            os.environ["RIPPLE_SERVER_INDEX_WORKSPACE"] = "false"
        lsp = asyncio.run(through_server(db, served, keys, picked, args.lsp_targets))
        lsp["read_only"] = args.serve_read_only
    stores.close()
    result = {
        "machine": {"cpus": os.cpu_count(), "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
                    "python": platform.python_version(), "platform": platform.platform()},
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "load_before": [round(x, 2) for x in load_before], "load_after_index": [round(x, 2) for x in load_after_index],
        "load_after": [round(x, 2) for x in os.getloadavg()], "command": " ".join(command),
        "repositories": len(folders), "real": sum(not f.name.startswith("gen") for f in folders),
        "generated": sum(f.name.startswith("gen") for f in folders), "indexed": len(ok),
        "failed": {o["key"]: o.get("error") for o in run["repositories"] if o["status"] != "ok"},
        "files": sum(stats["files"].values()), "nodes": sum(stats["nodes"].values()),
        "edges": sum(stats["edges"].values()), "edges_by_kind": stats["edges"], "chunks": stats.get("chunks"),
        "wall_s": round(wall, 1), "run_s": run["seconds"], "embeddings": run.get("embeddings"),
        "store_bytes": size, "store_mib": round(size / 2**20, 1), "peak_rss_mib_largest_process": round(peak, 1),
        "peak_rss_mib_process_tree": round(tree.peak_mib, 1),
        "latency_targets": targets, "query_s": round(query_s, 1),
        "latency_ms": {k: percentiles(v) for k, v in lat.items()}, "serve": lsp,
        "slowest_repos": sorted(((o["key"], o["seconds"]) for o in ok), key=lambda x: -x[1])[:5],
    }
    (args.out / "result.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0 if len(ok) == len(folders) else 1


if __name__ == "__main__":
    sys.exit(main())
