"""End to end: the central indexer's worker pool (``lsp_server.central_pool``): repositories run in
reused worker processes, a worker that dies costs its repository only, workers are replaced past the
recycle threshold, each repository's peak memory is its own, and ``ripple index --all`` opens the
stores once per product while planning."""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from lsp_server.central_pool import RepoJob, peak_rss_mib, reset_peak_rss, run_jobs
from lsp_server.cli import main
from stores.embedded import EmbeddedStore

FILES = {
    "billing": {"billing/pay.py": "def charge(amount):\n    return amount\n\n\ndef refund(amount):\n    return charge(-amount)\n"},
    "web": {"src/app.ts": "export function render(x: number): number {\n  return helper(x);\n}\n"
                          "function helper(x: number): number {\n  return x;\n}\n"},
    "ledger": {"ledger/book.py": "class Book:\n    def post(self, x):\n        return self.total(x)\n\n"
                                 "    def total(self, x):\n        return x\n"},
}


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for var in ("RIPPLE_DB", "RIPPLE_GRAPH_BACKEND", "RIPPLE_SEARCH_BACKEND", "RIPPLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def make(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "src" / name
    for rel, text in FILES[name].items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def jobs(tmp_path: Path, db: str) -> list[RepoJob]:
    return [RepoJob(str(make(tmp_path, name)), name, name, None, "shop", db, 1 << 20, 1, 10) for name in FILES]


def edges(db: str) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return sorted(conn.execute("SELECT kind, src, dst, repo, file, line FROM edges").fetchall())
    finally:
        conn.close()


def test_one_worker_runs_every_repository_in_turn(env):
    db = str(env / "team.db")
    EmbeddedStore(db).close()
    events: list[tuple[str, str]] = []
    outcomes = run_jobs(jobs(env, db), 1, 10_000, lambda key, what: events.append((key, what)))
    assert [(o.key, o.status, o.files) for o in outcomes] == [("billing", "ok", 1), ("web", "ok", 1), ("ledger", "ok", 1)]
    workers = {o.worker for o in outcomes}
    assert len(workers) == 1 and os.getpid() not in workers and 0 not in workers
    assert [e for e in events if e[1] in ("start", "done")] == [
        ("billing", "start"), ("billing", "done"), ("web", "start"), ("web", "done"), ("ledger", "start"), ("ledger", "done")]
    assert multiprocessing.active_children() == []  # the worker was stopped at the end
    assert ("CALLS", "billing:billing/pay.refund(1)", "billing:billing/pay.charge(1)", "billing", "billing/pay.py", 6) in edges(db)
    assert ("CALLS", "ledger:ledger/book.Book.post(1)", "ledger:ledger/book.Book.total(1)", "ledger", "ledger/book.py", 3) in edges(db)


def test_the_reused_worker_writes_what_one_process_per_repository_writes(env):
    first, second = str(env / "reused.db"), str(env / "fresh.db")
    for db in (first, second):
        EmbeddedStore(db).close()
    reused = run_jobs(jobs(env, first), 1, 10_000)
    fresh = run_jobs(jobs(env, second), 1, 10_000, recycle_mib=0)  # a new worker for every repository
    assert len({o.worker for o in reused}) == 1 and len({o.worker for o in fresh}) == 3
    assert [(o.key, o.nodes, o.edges, o.chunks) for o in reused] == [(o.key, o.nodes, o.edges, o.chunks) for o in fresh]
    assert edges(first) == edges(second) and len(edges(first)) >= 6


def test_a_worker_killed_mid_run_costs_that_repository_and_the_next_gets_a_new_worker(env):
    db = str(env / "team.db")
    EmbeddedStore(db).close()

    def on_event(key: str, what: str) -> None:
        if (key, what) == ("web", "start"):  # the worker has just been sent "web": kill it as the OOM killer would
            for child in multiprocessing.active_children():
                if child.name.startswith("ripple-index-worker"):
                    child.kill()

    outcomes = run_jobs(jobs(env, db), 1, 10_000, on_event)
    assert [(o.key, o.status) for o in outcomes] == [("billing", "ok"), ("web", "failed"), ("ledger", "ok")]
    assert outcomes[1].error == "its process ended with code -9 (killed: out of memory?) before reporting"
    assert outcomes[0].worker != outcomes[2].worker and 0 not in (outcomes[0].worker, outcomes[2].worker)
    assert {row[3] for row in edges(db)} == {"billing", "ledger"}
    assert multiprocessing.active_children() == []


def test_a_failing_repository_leaves_its_worker_to_the_next(env):
    db = str(env / "team.db")
    EmbeddedStore(db).close()
    bad_db = env / "not-a-file.db"
    bad_db.mkdir()
    run = jobs(env, db)
    run.insert(1, RepoJob(run[0].root, "billing2", "billing2", None, "shop", str(bad_db), 1 << 20, 1, 10))
    outcomes = run_jobs(run, 1, 10_000)
    assert [(o.key, o.status) for o in outcomes] == [("billing", "ok"), ("billing2", "failed"), ("web", "ok"),
                                                     ("ledger", "ok")]
    assert outcomes[1].error.startswith(f"{bad_db} is a folder, not an index file")
    assert len({o.worker for o in outcomes}) == 1  # a store error is an outcome, not a dead process


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="Linux /proc only")
def test_the_peak_resident_set_resets_between_repositories():
    assert reset_peak_rss() is True
    before = peak_rss_mib()
    block = bytearray(200 << 20)
    block[:: 4096] = b"x" * len(block[:: 4096])  # touch every page
    high = peak_rss_mib()
    del block
    assert high >= before + 190
    assert reset_peak_rss() is True
    assert peak_rss_mib() < high - 150


def test_planning_opens_the_stores_once_per_product(env, monkeypatch):
    import lsp_server.cli_central as central

    opened: list[str | None] = []
    real = central.open_stores

    def counting(config, db=None, product=None, **kwargs):
        opened.append(product)
        return real(config, db, product=product, **kwargs)

    monkeypatch.setattr(central, "open_stores", counting)
    lines = []
    for name, product in (("billing", "shop"), ("web", "shop"), ("ledger", "books")):
        lines += ["[[repository]]", f'path = "{make(env, name)}"', f'product = "{product}"', ""]
    (env / "manifest.toml").write_text("\n".join(lines), encoding="utf-8")
    result = CliRunner().invoke(main, ["index", "--all", "manifest.toml", "--db", "team.db", "--json", "--no-embed", "-j", "2"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert [(r["key"], r["status"]) for r in doc["repositories"]] == [("billing", "ok"), ("web", "ok"), ("ledger", "ok")]
    assert sorted(opened) == ["books", "shop"]
