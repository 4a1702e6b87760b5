"""Latency of `ripple serve` over stdio on an indexed repository: p50 / p95 per request kind, and the
server's resident memory.

    ripple index /tmp/corpora/django-5.2.8 --db /tmp/lsp_work/django.db --no-embed
    python bench/lsp_latency.py /tmp/corpora/django-5.2.8 --db /tmp/lsp_work/django.db [-n 200]

Targets: 200 methods / functions with callers, sampled with a fixed seed; requests are sent at each
target's name in its definition (prepare + incomingCalls as one measurement, references, hover) and
workspace/symbol for prefixes, camel humps and fuzzy abbreviations of their names (``mkrsp`` for
``make_response``: the first letter, then the next five consonants).

``--baseline SRC`` (a source tree of another version, e.g. ``git archive <rev> | tar -x -C SRC``)
also starts that version's server on the same index and sends every workspace/symbol query to both,
alternating which goes first, so the two are timed side by side under the same load; it prints their
p50 / p95 per query kind and whether every answer was the same.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path

import psutil
from lsprotocol import types
from pygls.lsp.client import LanguageClient


def targets(db: Path, n: int) -> list[tuple[str, int, str]]:
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT DISTINCT n.file, n.start_line, n.name FROM nodes n JOIN edges e ON e.dst = n.id AND e.kind = 'CALLS'"
        " WHERE n.label IN ('Method', 'Function') ORDER BY n.id").fetchall()
    random.Random(7).shuffle(rows)
    return rows[:n]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("root", type=Path)
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--baseline", type=Path, help="source tree of the version to compare workspace/symbol with")
    args = ap.parse_args()
    root = args.root.resolve()
    client = await start(root, args.db, None)
    baseline = await start(root, args.db, args.baseline.resolve()) if args.baseline else None
    times: dict[str, list[float]] = {"prepare+incoming": [], "references": [], "hover": [], "workspace/symbol": [],
                                     "  prefix": [], "  humps": [], "  fuzzy": []}
    base_times: dict[str, list[float]] = {"workspace/symbol": [], "  prefix": [], "  humps": [], "  fuzzy": []}
    differ = 0
    for c in (client, baseline):
        if c is not None:
            await c.workspace_symbol_async(types.WorkspaceSymbolParams(query="warmup"))
    answered = 0
    for path, line, name in targets(args.db, args.n):
        text = (root / path).read_text(encoding="utf-8", errors="replace").splitlines()
        lno = next((i for i in range(line - 1, min(line + 20, len(text))) if f"def {name}" in text[i]), line - 1)
        col = text[lno].find(name)
        doc = types.TextDocumentIdentifier((root / path).as_uri())
        pos = types.Position(lno, col + 1)
        t = time.perf_counter()
        items = await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(doc, pos))
        if items:
            calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(items[0]))
            answered += bool(calls)
        times["prepare+incoming"].append(time.perf_counter() - t)
        t = time.perf_counter()
        await client.text_document_references_async(types.ReferenceParams(
            text_document=doc, position=pos, context=types.ReferenceContext(include_declaration=False)))
        times["references"].append(time.perf_counter() - t)
        t = time.perf_counter()
        await client.text_document_hover_async(types.HoverParams(doc, pos))
        times["hover"].append(time.perf_counter() - t)
        humps = "".join(p[:2].capitalize() for p in name.strip("_").split("_")[:2]) or name
        fuzzy = name.strip("_")[:1] + "".join(c for c in name.strip("_")[1:] if c.lower() not in "aeiou_")[:5]
        for kind, query in (("  prefix", name[:3]), ("  humps", humps), ("  fuzzy", fuzzy)):
            runs = [(client, times), (baseline, base_times)] if baseline is not None else [(client, times)]
            if len(times["hover"]) % 2:  # alternate which server is asked first
                runs.reverse()
            answers = []
            for c, into in runs:
                t = time.perf_counter()
                answers.append(await c.workspace_symbol_async(types.WorkspaceSymbolParams(query=query)))
                into["workspace/symbol"].append(time.perf_counter() - t)
                into[kind].append(into["workspace/symbol"][-1])
            differ += len(answers) == 2 and answers[0] != answers[1]
    rss = psutil.Process(client._server.pid).memory_info().rss / 2**20  # type: ignore[union-attr]
    print(f"{'request':<18} {'n':>5} {'p50 ms':>8} {'p95 ms':>8}")
    for kind, values in times.items():
        ms = [v * 1000 for v in values]
        print(f"{kind:<18} {len(ms):>5} {statistics.median(ms):>8.1f} {pct(ms, 95):>8.1f}")
    print(f"server RSS: {rss:.0f} MiB; incoming calls found for {answered} of {len(times['hover'])} targets")
    if baseline is not None:
        print(f"\nbaseline {args.baseline} on the same queries, interleaved:")
        print(f"{'request':<18} {'n':>5} {'p50 ms':>8} {'p95 ms':>8}")
        for kind, values in base_times.items():
            ms = [v * 1000 for v in values]
            print(f"{kind:<18} {len(ms):>5} {statistics.median(ms):>8.1f} {pct(ms, 95):>8.1f}")
        print(f"answers that differ between the two servers: {differ} of {len(base_times['workspace/symbol'])}")
    for c in (client, baseline):
        if c is not None:
            await c.shutdown_async(None)
            c.exit(None)
            await c.stop()


async def start(root: Path, db: Path, source: Path | None, more: tuple[Path, ...] = ()) -> LanguageClient:
    """A ``ripple serve`` on ``db`` with ``root`` (and ``more``) as its workspace folders, initialized
    and idle; ``source``: run that source tree's server instead of this one's."""
    client = LanguageClient("bench", "1")
    env = {**os.environ, "RIPPLE_DB": str(db)}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    await client.start_io(sys.executable, "-m", "lsp_server.cli", "serve", env=env, cwd=str(source) if source else None)
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(r.as_uri(), r.name) for r in (root, *more)]))
    client.initialized(types.InitializedParams())
    deadline = time.monotonic() + 1800
    while time.monotonic() < deadline:  # measure an idle server: wait until its folder check or indexing ended
        status = await client.protocol.send_request_async("ripple/indexStatus", {})
        if all(f.state != "indexing" for f in status.folders):
            break
        await asyncio.sleep(1)
    return client


if __name__ == "__main__":
    asyncio.run(main())
