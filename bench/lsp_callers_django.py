#!/usr/bin/env python3
"""Callers of seeded Django methods through two language servers: ripple's and pyright's.

Both sides answer the same LSP requests (``textDocument/prepareCallHierarchy`` at the method's
name, then ``callHierarchy/incomingCalls``), so the comparison is editor to editor. pyright is the
mainstream reference here (docs/accuracy.md); jedi's side stays in ``bench/accuracy_django.py``.

What it does
------------
1. Opens a ripplegraph index of a Django tree (``--db``) and lists every ``Method`` / ``Function``
   node under ``django/`` whose name is no dunder, sorted by id, shuffled with
   ``random.Random(--seed)``; keeps, in that order, the first ``--n`` whose short name is written as
   a call (``name(`` after ``.`` or a word boundary, not after ``def``) somewhere in scope: a test
   of the text, the same for both servers, so "methods with callers" favours neither.
2. Starts each server over stdio with the Django root as its only workspace folder: ``ripple
   serve`` (``RIPPLE_DB`` = ``--db``; ``--ripple-python`` runs another checkout's code with
   ``--ripple-path`` on ``PYTHONPATH``) and ``pyright-langserver --stdio`` (``tests/`` added to
   ``python.analysis.extraPaths``, as Django's ``runtests.py`` puts it on ``sys.path``).
3. Per method: the incoming calls' ``fromRanges`` are the call sites; a site counts when it lies in
   a ``.py`` file under ``django/`` or ``tests/``. Each site is keyed ``(file, enclosing scope)``
   with the innermost ``def`` / ``class`` around its line (``<module>`` at top level), the same
   function for both servers (the *symbol* level of ``accuracy_django.py``).
4. ``--verdicts FILE`` (JSON ``{"<method id> | <file> | <scope>": {"verdict": true | false, "why":
   "..."}}``, or a bare boolean): the reading of the source for each key only one server reported. The truth is then what both report plus the
   keys judged ``true``; each server's precision and recall are scored against it. Keys without a
   verdict are listed (``unjudged``) and left out of both sides' scores.

Usage::

    ripple index /path/to/django-5.2.8 --db /tmp/x.db --no-embed
    python bench/lsp_callers_django.py --django-root /path/to/django-5.2.8 --db /tmp/x.db \\
        --out /tmp/lsp.json [--verdicts docs/data/lsp_callers_verdicts.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import re
import shutil
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy_django import Counts, ScopeMap, candidate_symbols, in_scope, name_position  # noqa: E402

REQUEST_SECONDS = 600.0


def called_names(root: Path) -> set[str]:
    """Short names written as a call somewhere in scope (``x.name(`` / ``name(``, not ``def name(``)."""
    pattern = re.compile(r"(?<!def )(?<![\w])(?:\.\s*)?([A-Za-z_]\w*)\s*\(")
    names: set[str] = set()
    for top in ("django", "tests"):
        for p in (root / top).rglob("*.py"):
            names.update(pattern.findall(p.read_text(encoding="utf-8", errors="replace")))
    return names


class Server:
    """One language server over stdio, driven through pygls' client."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str], settings: dict) -> None:
        self.name, self.cmd, self.env, self.settings = name, cmd, env, settings
        self.client = LanguageClient(f"bench-{name}", "1")
        self.opened: set[str] = set()

        @self.client.feature(lsp.WORKSPACE_CONFIGURATION)
        def configuration(params: lsp.ConfigurationParams) -> list:
            out = []
            for item in params.items:
                value: object = self.settings
                for part in (item.section or "").split("."):
                    if part:
                        value = value.get(part, {}) if isinstance(value, dict) else {}
                out.append(value)
            return out

        @self.client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def progress_create(params: lsp.WorkDoneProgressCreateParams) -> None:
            return None

        @self.client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
        def register(params: lsp.RegistrationParams) -> None:
            return None

    async def start(self, root: Path) -> None:
        await self.client.start_io(self.cmd[0], *self.cmd[1:], env=self.env, cwd=str(root))
        uri = root.as_uri()
        await self.client.initialize_async(lsp.InitializeParams(
            process_id=os.getpid(), root_uri=uri,
            workspace_folders=[lsp.WorkspaceFolder(uri=uri, name=root.name)],
            capabilities=lsp.ClientCapabilities(
                workspace=lsp.WorkspaceClientCapabilities(configuration=True, workspace_folders=True),
                text_document=lsp.TextDocumentClientCapabilities(
                    call_hierarchy=lsp.CallHierarchyClientCapabilities(dynamic_registration=False)),
                window=lsp.WindowClientCapabilities(work_done_progress=True)),
            initialization_options=self.settings.get("initializationOptions")))
        self.client.initialized(lsp.InitializedParams())

    def open(self, path: Path) -> None:
        uri = path.as_uri()
        if uri not in self.opened:
            self.opened.add(uri)
            self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=path.read_text(encoding="utf-8", errors="replace"))))

    async def incoming(self, path: Path, line: int, col: int) -> list[tuple[str, int, int]]:
        """``(uri, 1-based line, col)`` of every call site of the callable named at (line, col)."""
        self.open(path)
        pos = lsp.TextDocumentPositionParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(line - 1, col))
        items = await asyncio.wait_for(self.client.text_document_prepare_call_hierarchy_async(
            lsp.CallHierarchyPrepareParams(pos.text_document, pos.position)), REQUEST_SECONDS)
        sites: set[tuple[str, int, int]] = set()
        for item in items or ():
            calls = await asyncio.wait_for(self.client.call_hierarchy_incoming_calls_async(
                lsp.CallHierarchyIncomingCallsParams(item)), REQUEST_SECONDS)
            for call in calls or ():
                for r in call.from_ranges:
                    sites.add((call.from_.uri, r.start.line + 1, r.start.character))
        return sorted(sites)

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 30)
            self.client.exit(None)
        except Exception:  # noqa: BLE001 - a server that died already: nothing to shut down
            pass
        await self.client.stop()


def keyed(root: Path, scopes: ScopeMap, sites: list[tuple[str, int, int]]) -> list[dict]:
    """Call sites in scope, with their file relative to ``root`` and enclosing scope."""
    out = []
    for uri, line, col in sites:
        path = Path(uri.removeprefix("file://"))
        try:
            rel = path.resolve().relative_to(root).as_posix()
        except ValueError:
            continue
        if in_scope(rel):
            out.append({"file": rel, "line": line, "col": col, "scope": scopes.scope_at(rel, line)})
    return out


async def query_all(server: Server, root: Path, targets: list[tuple[str, str, int, int, int, int]], warm: float,
                    at_start: bool = False) -> dict:
    """``{method id: [call sites]}`` from one server, asked at each method's name (``at_start``: at
    the start of its definition instead); its start, a warm-up wait and one warm-up request are
    not timed."""
    scopes = ScopeMap(root)
    await server.start(root)
    await asyncio.sleep(warm)
    out: dict[str, dict] = {}
    try:
        if targets:  # one untimed request first: pyright answers nothing while it still reads the workspace
            _, rel, name_line, name_col, *_ = targets[0]
            await server.incoming(root / rel, name_line, name_col)
        for mid, rel, name_line, name_col, start_line, start_col in targets:
            line, col = (start_line, start_col) if at_start else (name_line, name_col)
            t0 = time.perf_counter()
            try:
                sites = await server.incoming(root / rel, line, col)
                error = None
            except Exception as exc:  # noqa: BLE001 - a failed request is a row with an error, not a crash
                sites, error = [], f"{type(exc).__name__}: {exc}"
            out[mid] = {"sites": keyed(root, scopes, sites), "seconds": round(time.perf_counter() - t0, 2),
                        "error": error}
            print(f"  {server.name:<8} {len(out[mid]['sites']):>4} sites {out[mid]['seconds']:>6.1f}s  {mid}",
                  file=sys.stderr)
    finally:
        await server.stop()
    return out


def verdict_key(mid: str, key: tuple[str, str]) -> str:
    return f"{mid} | {key[0]} | {key[1]}"


def score(rows: dict[str, dict], verdicts: dict[str, bool]) -> dict:
    """Precision / recall of each server against the adjudicated truth (see the module docstring)."""
    totals = {"ripple": Counts(), "pyright": Counts()}
    disagreements, unjudged = [], []
    for mid, row in rows.items():
        ours = {(s["file"], s["scope"]) for s in row["ripple"]["sites"]}
        theirs = {(s["file"], s["scope"]) for s in row["pyright"]["sites"]}
        truth = ours & theirs
        judged = set(truth)
        for k in sorted(ours ^ theirs):
            v = verdicts.get(verdict_key(mid, k))
            if isinstance(v, dict):
                v = v.get("verdict")
            side = "ripple only" if k in ours else "pyright only"
            disagreements.append({"key": verdict_key(mid, k), "side": side, "verdict": v})
            if v is None:
                unjudged.append(verdict_key(mid, k))
                continue
            judged.add(k)
            if v:
                truth.add(k)
        totals["ripple"].add(ours & judged, truth)
        totals["pyright"].add(theirs & judged, truth)
    return {"totals": {k: c.as_dict() for k, c in totals.items()}, "disagreements": disagreements,
            "unjudged": len(unjudged)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--django-root", type=Path, required=True)
    ap.add_argument("--db", type=Path, required=True, help="ripplegraph index of the tree (served by ripple serve)")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--ripple-python", default=sys.executable, help="the Python that runs `ripple serve`")
    ap.add_argument("--ripple-path", help="PYTHONPATH for that Python (another checkout's code)")
    ap.add_argument("--pyright", default=shutil.which("pyright-langserver", path=str(Path(sys.executable).parent))
                    or shutil.which("pyright-langserver") or "pyright-langserver")
    ap.add_argument("--warm", type=float, default=5.0, help="seconds to wait after initialize")
    ap.add_argument("--ripple-at", choices=("name", "start"), default="name",
                    help="where ripple's prepareCallHierarchy is asked: the method's name (as an editor does), or "
                         "the start of its definition (`def` / its first decorator): at the name an overriding "
                         "method is taken for the method it overrides until issue 16 item 13 is fixed")
    ap.add_argument("--only", choices=("ripple", "pyright"), help="query one server (re-using --reuse for the other)")
    ap.add_argument("--reuse", type=Path, help="an earlier --out whose rows fill the side not queried")
    ap.add_argument("--verdicts", type=Path, help="adjudications of the disagreements (JSON)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    logging.getLogger("pygls").setLevel(logging.ERROR)  # servers' log notifications this client ignores

    from stores.factory import open_store

    root = args.django_root.resolve()
    graph = open_store(args.db)
    repo = graph.repos()[0]
    pool = candidate_symbols(graph, repo)
    random.Random(args.seed).shuffle(pool)
    called = called_names(root)
    sample = [n for n in pool if n.name in called][: args.n]
    targets = []
    for n in sample:
        line, col = name_position(root, n)
        targets.append((n.id.split(":", 1)[1], n.file, line, col, n.start_line, n.start_col))
    print(f"{len(pool)} candidates, {len(sample)} sampled (seed {args.seed})", file=sys.stderr)

    env = {**os.environ, "RIPPLE_DB": str(args.db)}
    if args.ripple_path:
        env["PYTHONPATH"] = args.ripple_path
    servers = {
        "ripple": Server("ripple", [args.ripple_python, "-c", "from lsp_server.cli import main; main()", "serve",
                                    "--no-embed"], env, {}),
        "pyright": Server("pyright", [args.pyright, "--stdio"], dict(os.environ), {
            "python": {"analysis": {"extraPaths": ["tests"], "diagnosticMode": "openFilesOnly",
                                    "autoSearchPaths": True}}}),
    }
    previous = json.loads(args.reuse.read_text())["rows"] if args.reuse else {}
    results: dict[str, dict] = {}
    for name, server in servers.items():
        if args.only and name != args.only:
            results[name] = {mid: previous[mid][name] for mid, *_ in targets}
            continue
        results[name] = asyncio.run(query_all(server, root, targets, args.warm,
                                              at_start=name == "ripple" and args.ripple_at == "start"))
    rows = {mid: {"file": rel, "line": line, "ripple": results["ripple"][mid], "pyright": results["pyright"][mid]}
            for mid, rel, line, *_ in targets}
    verdicts = json.loads(args.verdicts.read_text()) if args.verdicts else {}
    summary = score(rows, verdicts)
    summary["params"] = {"seed": args.seed, "n": args.n, "db": str(args.db), "ripple_at": args.ripple_at}
    for side, c in summary["totals"].items():
        print(f"{side:>8}: P {c['precision']:.3f}  R {c['recall']:.3f}  (tp {c['tp']}, fp {c['fp']}, fn {c['fn']})")
    print(f"disagreements: {len(summary['disagreements'])}, unjudged: {summary['unjudged']}")
    for d in summary["disagreements"]:
        print(f"  {d['side']:<13} {d['verdict']!s:<5} {d['key']}")
    if args.out:
        args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
