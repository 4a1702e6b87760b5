"""End to end: ``ripple watch`` indexes a folder, follows a saved file into the index while another
process reads it, prints one JSON object per update and stops cleanly on Ctrl-C (SIGINT)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from lsp_server.cli import main
from stores.embedded import EmbeddedStore


def test_watch_follows_a_saved_file_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    src = tmp_path / "shop"
    (src / "app").mkdir(parents=True)
    (src / "app" / "__init__.py").write_text("", encoding="utf-8")
    (src / "app" / "repo.py").write_text("def save(x):\n    return x\n", encoding="utf-8")
    db = src / ".ripple" / "index.db"
    proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "watch", str(src), "--no-embed", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
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
