#!/usr/bin/env python3
"""Callers of seeded TypeScript functions through two language servers: ripple's and
typescript-language-server's (tsserver), on a TypeScript monorepo.

The TypeScript counterpart of ``bench/lsp_callers_django.py`` (pyright on Django): both servers
answer ``textDocument/prepareCallHierarchy`` at the function's name, then
``callHierarchy/incomingCalls``; a call site is an incoming call's ``fromRanges`` entry.

What it does
------------
1. Opens a ripplegraph index of the tree (``--db``), lists every ``Method`` / ``Function`` node
   (no generated member, no constructor) in a ``.ts`` / ``.tsx`` file under ``--scope`` (default
   ``packages/``) outside test folders, sorted by id, shuffled with ``random.Random(--seed)``, and
   keeps the first ``--n`` whose short name is written as a call (``name(``) somewhere in scope: a
   text test, the same for both servers.
2. Starts ``ripple serve`` (``RIPPLE_DB`` = ``--db``) and ``typescript-language-server --stdio``
   (``--tsls``; the TypeScript it finds beside itself), each with the tree as its only folder.
3. Per function: the call sites in ``.ts`` / ``.tsx`` files under the scope, keyed ``(file, line)``
   (the call-site level: stricter than the enclosing-scope level of the Django comparison).
4. ``--verdicts FILE`` (JSON ``{"<function id> | <file> | <line>": {"verdict": bool, "why": "..."}}``):
   the reading of the source for each key only one server reported; scored as
   ``lsp_callers_django.py`` does.

Usage::

    ripple index /path/to/trpc --db /tmp/trpc.db --no-embed
    python bench/lsp_callers_ts.py --root /path/to/trpc --db /tmp/trpc.db \\
        --tsls /path/to/node_modules/.bin/typescript-language-server --out /tmp/lsp_ts.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import re
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy_django import Counts  # noqa: E402
from lsp_callers_django import Server  # noqa: E402

SUFFIXES = (".ts", ".tsx")
TEST_PARTS = ("/test/", "/tests/", "/__tests__/", ".test.", ".spec.", "/__fixtures__/")


class TsServer(Server):
    """A :class:`Server` opening documents as TypeScript."""

    def open(self, path: Path) -> None:
        uri = path.as_uri()
        if uri not in self.opened:
            self.opened.add(uri)
            lang = "typescriptreact" if path.suffix == ".tsx" else "typescript"
            self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
                uri=uri, language_id=lang, version=1, text=path.read_text(encoding="utf-8", errors="replace"))))


def in_scope(rel: str, scope: str) -> bool:
    return rel.startswith(scope) and rel.endswith(SUFFIXES) and not rel.endswith(".d.ts") and "/node_modules/" not in rel


def called_names(root: Path, scope: str) -> set[str]:
    """Short names written as a call somewhere in scope (``x.name(`` / ``name(``)."""
    pattern = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\(")
    names: set[str] = set()
    for p in (root / scope).rglob("*"):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and in_scope(rel, scope):
            names.update(pattern.findall(p.read_text(encoding="utf-8", errors="replace")))
    return names


def candidates(graph, repo: str, scope: str) -> list:
    """Function / Method nodes of non-test source files in scope, sorted by id."""
    out = []
    for path in sorted(p for p in graph.file_checksums(repo) if in_scope(p, scope)):
        if any(t in "/" + path for t in TEST_PARTS):
            continue
        for n in graph.nodes_in_file(repo, path):
            if n.label in ("Method", "Function") and not n.props.get("generated") and n.name not in ("default", "constructor"):
                out.append(n)
    out.sort(key=lambda n: n.id)
    return out


def keyed(root: Path, scope: str, sites: list[tuple[str, int, int]]) -> list[dict]:
    out = []
    for uri, line, col in sites:
        try:
            rel = Path(uri.removeprefix("file://")).resolve().relative_to(root).as_posix()
        except ValueError:
            continue
        if in_scope(rel, scope):
            out.append({"file": rel, "line": line, "col": col})
    return out


async def query_all(server: Server, root: Path, scope: str, targets: list[tuple[str, str, int, int]], warm: float) -> dict:
    """``{function id: {sites, seconds, error}}`` from one server; start, warm-up wait and one
    warm-up request untimed."""
    await server.start(root)
    await asyncio.sleep(warm)
    out: dict[str, dict] = {}
    try:
        if targets:
            _, rel, line, col = targets[0]
            await server.incoming(root / rel, line, col)
        for mid, rel, line, col in targets:
            t0 = time.perf_counter()
            try:
                sites, error = await server.incoming(root / rel, line, col), None
            except Exception as exc:  # noqa: BLE001 - a failed request is a row with an error
                sites, error = [], f"{type(exc).__name__}: {exc}"
            out[mid] = {"sites": keyed(root, scope, sites), "seconds": round(time.perf_counter() - t0, 2), "error": error}
            print(f"  {server.name:<6} {len(out[mid]['sites']):>4} sites {out[mid]['seconds']:>6.1f}s  {mid}", file=sys.stderr)
    finally:
        await server.stop()
    return out


def score(rows: dict[str, dict], verdicts: dict) -> dict:
    """Precision / recall of each server against the adjudicated truth (both, plus keys judged true)."""
    totals = {"ripple": Counts(), "tsls": Counts()}
    disagreements, unjudged = [], 0
    for mid, row in rows.items():
        ours = {(s["file"], s["line"]) for s in row["ripple"]["sites"]}
        theirs = {(s["file"], s["line"]) for s in row["tsls"]["sites"]}
        truth = ours & theirs
        judged = set(truth)
        for k in sorted(ours ^ theirs):
            key = f"{mid} | {k[0]} | {k[1]}"
            v = verdicts.get(key)
            if isinstance(v, dict):
                v = v.get("verdict")
            disagreements.append({"key": key, "side": "ripple only" if k in ours else "tsls only", "verdict": v})
            if v is None:
                unjudged += 1
                continue
            judged.add(k)
            if v:
                truth.add(k)
        totals["ripple"].add(ours & judged, truth)
        totals["tsls"].add(theirs & judged, truth)
    return {"totals": {k: c.as_dict() for k, c in totals.items()}, "disagreements": disagreements, "unjudged": unjudged}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--scope", default="packages/")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--tsls", default="typescript-language-server")
    ap.add_argument("--tsserver", help="tsserver.js to use (default: the workspace's typescript)")
    ap.add_argument("--warm", type=float, default=5.0)
    ap.add_argument("--only", choices=("ripple", "tsls"))
    ap.add_argument("--reuse", type=Path, help="an earlier --out whose rows fill the side not queried")
    ap.add_argument("--verdicts", type=Path)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    logging.getLogger("pygls").setLevel(logging.ERROR)

    from stores.factory import open_store

    root = args.root.resolve()
    graph = open_store(args.db)
    repo = graph.repos()[0]
    pool = candidates(graph, repo, args.scope)
    random.Random(args.seed).shuffle(pool)
    called = called_names(root, args.scope)
    sample = [n for n in pool if n.name in called][: args.n]
    targets = [(n.id.split(":", 1)[1], n.file, int(n.props["name_line"]), int(n.props["name_col"])) for n in sample]
    print(f"{len(pool)} candidates, {len(sample)} sampled (seed {args.seed})", file=sys.stderr)

    servers = {
        "ripple": TsServer("ripple", [sys.executable, "-c", "from lsp_server.cli import main; main()", "serve", "--no-embed"],
                           {**os.environ, "RIPPLE_DB": str(args.db)}, {}),
        "tsls": TsServer("tsls", [args.tsls, "--stdio"], dict(os.environ),
                         {"initializationOptions": {"tsserver": {"path": args.tsserver}}} if args.tsserver else {}),
    }
    previous = json.loads(args.reuse.read_text())["rows"] if args.reuse else {}
    results: dict[str, dict] = {}
    for name, server in servers.items():
        if args.only and name != args.only:
            results[name] = {mid: previous[mid][name] for mid, *_ in targets}
            continue
        results[name] = asyncio.run(query_all(server, root, args.scope, targets, args.warm))
    rows = {mid: {"file": rel, "line": line, "ripple": results["ripple"][mid], "tsls": results["tsls"][mid]}
            for mid, rel, line, _ in targets}
    verdicts = json.loads(args.verdicts.read_text()) if args.verdicts else {}
    summary = score(rows, verdicts)
    summary["params"] = {"seed": args.seed, "n": args.n, "db": str(args.db), "scope": args.scope}
    for side, c in summary["totals"].items():
        print(f"{side:>8}: P {c['precision']:.3f}  R {c['recall']:.3f}  (tp {c['tp']}, fp {c['fp']}, fn {c['fn']})")
    print(f"disagreements: {len(summary['disagreements'])}, unjudged: {summary['unjudged']}")
    for d in summary["disagreements"]:
        print(f"  {d['side']:<11} {d['verdict']!s:<5} {d['key']}")
    if args.out:
        args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
