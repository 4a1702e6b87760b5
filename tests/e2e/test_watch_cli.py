"""End to end: ``ripple watch`` indexes a folder, follows a saved file into the index while another
process reads it, prints one JSON object per update and stops cleanly on Ctrl-C (SIGINT) or SIGTERM."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from tests.signals import default_sigint


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["ctrl_c", "sigterm"])
def test_watch_follows_a_saved_file_and_stops_on_ctrl_c(tmp_path: Path, stop_signal: signal.Signals) -> None:
    src = tmp_path / "shop"
    (src / "app").mkdir(parents=True)
    (src / "app" / "__init__.py").write_text("", encoding="utf-8")
    (src / "app" / "repo.py").write_text("def save(x):\n    return x\n", encoding="utf-8")
    db = src / ".ripple" / "index.db"
    proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "watch", str(src), "--no-embed", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    try:
        deadline = time.monotonic() + 30
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        reader = EmbeddedStore(db)
        try:
            while reader.file_checksums("shop").keys() != {"app/__init__.py", "app/repo.py"}:
                assert time.monotonic() < deadline, "first index not written"
                time.sleep(0.05)
            time.sleep(0.5)  # the watch arms after the first sync
            (src / "app" / "service.py").write_text("from app.repo import save\n\n\ndef run():\n    save(1)\n",
                                                    encoding="utf-8")
            while "app/service.py" not in reader.file_checksums("shop"):
                assert time.monotonic() < deadline, "the saved file did not reach the index"
                time.sleep(0.05)
        finally:
            reader.close()
    finally:
        proc.send_signal(stop_signal)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 2, (out, err)  # the first sync's, then the update's (printed before the exit)
    assert lines[0] == {"repo": "shop", "files_changed": 2, "files_resolved": 2, "files_written": 2,
                        "files_deleted": 0, "embedded": 0, "ms": lines[0]["ms"]}
    assert {k: lines[-1][k] for k in ("files_changed", "files_written", "files_deleted")} == {
        "files_changed": 1, "files_written": 1, "files_deleted": 0}
    found = CliRunner().invoke(main, ["callers", "app.repo.save", "--db", str(db), "--json"])
    assert [(c["path"], c["line"], c["from"]) for c in json.loads(found.stdout)["callers"]] == [
        ("app/service.py", 5, "shop:app/service.run(0)")]


def test_watch_rejects_repo_with_several_paths(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    result = CliRunner().invoke(main, ["watch", str(tmp_path / "a"), str(tmp_path / "b"), "--repo", "x"])
    assert result.exit_code == 2
    assert "names one repository: give one PATH" in result.output


def test_watch_of_two_repositories_gives_idle_state_back_under_the_budget(tmp_path: Path) -> None:
    """``ripple watch A B`` under a budget no process meets (64 MiB) with ``release_after`` 8 s: both
    repositories give their resolver state back once idle for 8 s (one per check, every 5 s: both
    within 8 + 5 + 5 s of their first syncs); the next save rebuilds it first (``"restored": true``)
    and gives the same callers; a save 1 s after that finds the state held (no ``restored``), since the
    repository changed less than 8 s before. (With ``release_after`` 0 the check after the rebuild may
    release it again before the second save is seen: the test failed so at load 30.)"""
    import os
    import queue
    import threading

    for name in ("shop", "bill"):
        (tmp_path / name / "app").mkdir(parents=True)
        (tmp_path / name / "app" / "__init__.py").write_text("", encoding="utf-8")
        (tmp_path / name / "app" / "repo.py").write_text("def save(x):\n    return x\n", encoding="utf-8")
    env = {**os.environ, "RIPPLE_SERVER_MEMORY_BUDGET": "64", "RIPPLE_SERVER_RELEASE_AFTER": "8"}
    proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "watch", str(tmp_path / "shop"),
                             str(tmp_path / "bill"), "--no-embed", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue[dict] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(json.loads(x)) for x in proc.stdout], daemon=True).start()
    try:
        first = sorted(lines.get(timeout=60)["repo"] for _ in range(2))
        assert first == ["bill", "shop"]
        time.sleep(21)  # 8 s idle, then two budget checks (5 s apart): each repository released
        (tmp_path / "shop" / "app" / "service.py").write_text(
            "from app.repo import save\n\n\ndef run():\n    save(1)\n", encoding="utf-8")
        rebuilt = lines.get(timeout=60)
        time.sleep(1)
        (tmp_path / "shop" / "app" / "other.py").write_text(
            "from app.repo import save\n\n\ndef go():\n    save(2)\n", encoding="utf-8")
        held = lines.get(timeout=60)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert {k: rebuilt.get(k) for k in ("repo", "files_changed", "files_written", "restored")} == {
        "repo": "shop", "files_changed": 1, "files_written": 1, "restored": True}
    assert {k: held.get(k) for k in ("repo", "files_changed", "restored")} == {
        "repo": "shop", "files_changed": 1, "restored": None}  # negative: the state was held this time
    found = CliRunner().invoke(main, ["callers", "app.repo.save", "--db", str(tmp_path / "shop" / ".ripple" / "index.db"),
                                      "--json"])
    assert [(c["path"], c["line"], c["from"]) for c in json.loads(found.stdout)["callers"]] == [
        ("app/other.py", 5, "shop:app/other.go(0)"), ("app/service.py", 5, "shop:app/service.run(0)")]
