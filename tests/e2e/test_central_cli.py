"""End to end: the central indexer (``ripple index --all``), ``ripple repos list | show | remove`` and
``ripple doctor``'s repository lines, on small repositories written for the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from tests.signals import default_sigint

REPOS = {
    "billing": {"billing/pay.py": "def charge(amount):\n    return amount\n\n\ndef refund(amount):\n    return charge(-amount)\n"},
    "web": {"src/app.ts": "export function render(x: number): number {\n  return helper(x);\n}\n"
                          "function helper(x: number): number {\n  return x;\n}\n"},
    "other-shop": {"shop/x.py": "def f():\n    return 1\n"},
}


def make(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "src" / name
    for rel, text in REPOS[name].items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for var in ("RIPPLE_DB", "RIPPLE_GRAPH_BACKEND", "RIPPLE_SEARCH_BACKEND", "RIPPLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_index_all_one_clash_fails_alone_then_list_show_remove(workspace):
    db = str(workspace / "team.db")
    # A repository named "shop" indexed from one folder first ...
    shop = make(workspace, "billing").parent / "shop"
    (shop / "s.py").parent.mkdir(parents=True)
    (shop / "s.py").write_text("def s():\n    return 2\n", encoding="utf-8")
    code, _ = run("index", str(shop), "--db", db, "--no-embed", "--json")
    assert code == 0
    make(workspace, "web")
    make(workspace, "other-shop")
    manifest = workspace / "repos.toml"
    manifest.write_text('[[repository]]\npath = "src/billing"\nproduct = "money"\n'
                        '[[repository]]\npath = "src/web"\n'
                        '[[repository]]\npath = "src/other-shop"\nname = "shop"\n', encoding="utf-8")
    # ... so the manifest's other folder of that name fails, alone; the others are indexed.
    code, output = run("index", "--all", str(manifest), "--db", db, "--no-embed", "--json", "-j", "2")
    assert code == 1
    report = json.loads(output)
    assert [(r["key"], r["status"]) for r in report["repositories"]] == [
        ("billing", "ok"), ("web", "ok"), ("shop", "failed")]
    clash = report["repositories"][2]["error"]
    assert clash.startswith(f"index {workspace / 'team.db'} already holds repository 'shop', indexed from {shop}: "
                            f"{workspace / 'src' / 'other-shop'} cannot be indexed under the same name")
    assert [(r["files"], r["parsed"], r["written"]) for r in report["repositories"][:2]] == [(1, 1, 1), (1, 1, 1)]
    assert report["embeddings"] == {"skipped": "--no-embed"} and report["jobs"] == 2

    code, output = run("repos", "list", "--db", db, "--json")
    listed = json.loads(output)
    assert code == 0 and listed["unregistered"] == []
    assert [(r["key"], r["product"], r["root"], r["branch"], r["default"], r["counts"]) for r in listed["repositories"]] == [
        ("billing", "money", str(workspace / "src" / "billing"), None, True,
         {"files": 1, "nodes": 3, "edges": 3, "chunks": 2, "vectors": 0}),
        ("shop", "shop", str(shop), None, True, {"files": 1, "nodes": 2, "edges": 1, "chunks": 1, "vectors": 0}),
        ("web", "web", str(workspace / "src" / "web"), None, True,
         {"files": 1, "nodes": 3, "edges": 3, "chunks": 2, "vectors": 0}),
    ]
    code, output = run("repos", "show", "billing", "--db", db, "--json")
    shown = json.loads(output)
    assert (code, shown["key"], shown["other_branches"], shown["commit"], shown["remote"]) == (0, "billing", [], None, None)
    assert shown["indexed_at"].endswith("Z")
    code, output = run("repos", "show", "nope", "--db", db)
    assert code == 1 and "no repository 'nope' in the registry (repositories: billing, shop, web)" in output

    code, output = run("repos", "remove", "billing", "--db", db, "--json")
    removed = json.loads(output)
    assert code == 0
    assert {k: v for k, v in removed.items() if k != "seconds"} == {
        "removed": "billing", "files": 1, "nodes": 3, "edges": 3, "chunks": 2}
    with EmbeddedStore(workspace / "team.db") as store:
        assert store.repos() == ["shop", "web"]
        assert [r.key for r in store.repositories()] == ["shop", "web"]
        assert store.repository_chunk_count("billing") == {"chunks": 0, "embedded": 0}
        assert store.find_symbols(["charge"]) == {"charge": []}
    code, output = run("repos", "remove", "billing", "--db", db)
    assert code == 1 and "no repository 'billing' in the registry" in output

    # doctor: one line per registered repository.
    code, output = run("doctor", "--db", db)
    lines = [line for line in output.splitlines() if line.startswith("ok    repo")]
    assert len(lines) == 2 and lines[0].startswith("ok    repo    shop (no branch, default): indexed ")
    assert "the folder is not on this machine" not in output


def test_index_all_usage_errors(workspace):
    manifest = workspace / "repos.toml"
    manifest.write_text("[[repository]]\npath = 'nowhere'\n", encoding="utf-8")
    code, output = run("index", "--all", str(manifest), "--db", str(workspace / "x.db"))
    assert code == 1 and f"repository #1: path 'nowhere' is not a folder ({workspace / 'nowhere'})" in output
    assert not (workspace / "x.db").exists()
    make(workspace, "web")
    code, output = run("index", str(workspace / "src" / "web"), "--all", str(manifest))
    assert code == 2 and "--all reads PATH, --repo, --product and --branch from the manifest" in output
    code, output = run("index")
    assert code == 2 and "give PATH, or --all MANIFEST" in output
    code, output = run("watch")
    assert code == 2 and "give PATH..., or --all MANIFEST" in output


@pytest.mark.parametrize("budget", [None, "64"])
def test_watch_all_indexes_the_manifest_then_follows_each_repository(tmp_path, budget):
    """``ripple watch --all`` indexes the manifest, then follows each repository. With ``[server]
    memory_budget`` 64 MiB (no process meets it) and ``release_after`` 0, once idle each repository
    gives its resolver state back (one per check, every 5 s): billing's next save rebuilds it first
    (``"restored": true``); without a budget, no update says so."""
    import signal
    import subprocess
    import sys
    import time

    billing, web = make(tmp_path, "billing"), make(tmp_path, "web")
    manifest = tmp_path / "repos.toml"
    manifest.write_text('[[repository]]\npath = "src/billing"\n[[repository]]\npath = "src/web"\n', encoding="utf-8")
    db = tmp_path / "team.db"
    env = {**__import__("os").environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           **({"RIPPLE_SERVER_MEMORY_BUDGET": budget, "RIPPLE_SERVER_RELEASE_AFTER": "0"} if budget else {})}
    proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "watch", "--all", str(manifest), "--db", str(db),
                             "--no-embed", "--json", "-j", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=tmp_path, preexec_fn=default_sigint)
    try:
        deadline = time.monotonic() + 120
        while not db.exists():
            assert time.monotonic() < deadline, "no index written"
            time.sleep(0.1)
        reader = EmbeddedStore(db)
        try:
            while sorted(r.key for r in reader.repositories()) != ["billing", "web"]:
                assert time.monotonic() < deadline, "the manifest was not indexed"
                time.sleep(0.1)
            # the watchers arm after their first sync; with the budget, two checks release both
            time.sleep(16.0 if budget else 2.0)
            (billing / "billing" / "tax.py").write_text("from billing.pay import charge\n\n\ndef tax():\n"
                                                       "    return charge(2)\n", encoding="utf-8")
            while "billing/tax.py" not in reader.file_checksums("billing"):
                assert time.monotonic() < deadline, "the saved file did not reach the index"
                time.sleep(0.1)
            assert reader.file_checksums("web") == {"src/app.ts": reader.file_checksums("web")["src/app.ts"]}
        finally:
            reader.close()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    summary, _, updates = out.partition("\n}\n")
    assert [(r["key"], r["status"]) for r in json.loads(summary + "\n}")["repositories"]] == [
        ("billing", "ok"), ("web", "ok")]
    last = [json.loads(line) for line in updates.splitlines() if '"billing"' in line][-1]
    assert (last["files_changed"], last["files_written"], last.get("restored")) == (1, 1, True if budget else None)
    changed = [json.loads(line)["repo"] for line in updates.splitlines() if json.loads(line)["files_changed"]]
    assert changed == ["billing"]  # negative: web saw no change
    assert web.is_dir()


def test_the_memory_budget_admits_runs_by_their_estimates(tmp_path, monkeypatch):
    from lsp_server.cli_central import RepoJob, run_jobs

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for var in ("RIPPLE_DB", "RIPPLE_GRAPH_BACKEND", "RIPPLE_SEARCH_BACKEND", "RIPPLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    roots = {name: make(tmp_path, name) for name in ("billing", "web")}
    db = str(tmp_path / "team.db")
    EmbeddedStore(db).close()

    def jobs(estimate: int) -> list[RepoJob]:
        return [RepoJob(str(root), name, name, None, name, db, 1 << 20, 1, estimate) for name, root in roots.items()]

    def order(budget: int, estimate: int) -> list[tuple[str, str]]:
        events: list[tuple[str, str]] = []
        outcomes = run_jobs(jobs(estimate), 2, budget, lambda key, what: events.append((key, what)))
        assert [(o.key, o.status) for o in outcomes] == [("billing", "ok"), ("web", "ok")]
        return [e for e in events if e[1] in ("start", "done")]

    # 300 + 300 > 400: the second starts only once the first is done (never two at once) ...
    serial = order(400, 300)
    assert [what for _, what in serial] == ["start", "done", "start", "done"]
    assert serial[0][0] == serial[1][0] and serial[2][0] == serial[3][0]
    # ... 300 + 300 <= 1000: both start before either is done.
    assert [what for _, what in order(1000, 300)][:2] == ["start", "start"]
    # A run over the whole budget still runs, alone.
    assert [what for _, what in order(100, 300)] == ["start", "done", "start", "done"]


def test_a_run_that_dies_costs_its_repository_only(tmp_path, monkeypatch):
    from lsp_server.cli_central import RepoJob, run_jobs

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    good = make(tmp_path, "web")
    db = str(tmp_path / "team.db")
    # An index file that is a folder: that run fails with the store's message; the other succeeds.
    bad_db = tmp_path / "not-a-file.db"
    bad_db.mkdir()
    outcomes = run_jobs([RepoJob(str(good), "web", "web", None, "web", db, 1 << 20, 1, 10),
                         RepoJob(str(good), "web2", "web2", None, "web2", str(bad_db), 1 << 20, 1, 10)], 2, 1000)
    assert [(o.key, o.status) for o in outcomes] == [("web", "ok"), ("web2", "failed")]
    assert outcomes[1].error == f"{bad_db} is a folder, not an index file; pass the index file (such as {bad_db / 'index.db'})"
