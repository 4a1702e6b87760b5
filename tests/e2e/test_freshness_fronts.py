"""Freshness in every front end but the editor (that is tests/lsp/test_neovim.py): a git checkout is
indexed by ``ripple index`` (which records the commit), then a commit the index has not seen; the CLI
warns on stderr for callers / impact / search, and the MCP and REST answers carry ``freshness`` and a
note line in their markdown."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from lsp_server.api.app import ApiSettings, create_app
from lsp_server.mcp_server import Backend
from stores.config import load_config
from tests.lsp.test_neovim import git

WORKSPACE = Path(__file__).parents[1] / "lsp" / "workspace" / "petclinic"
NOTE = "index of petclinic is 1 commit behind HEAD (1 changed file not indexed)"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture(scope="module")
def stale(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fresh")
    ws = tmp / "petclinic"
    shutil.copytree(WORKSPACE, ws)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RIPPLE_")}
    env.update(XDG_CACHE_HOME=str(tmp / "cache"), XDG_CONFIG_HOME=str(tmp / "config"), COLUMNS="300")
    git(ws, "init", "-q", "-b", "main")
    git(ws, "add", ".")
    git(ws, "commit", "-q", "-m", "indexed")
    db = tmp / "index.db"
    run = [sys.executable, "-m", "lsp_server.cli"]
    subprocess.run([*run, "index", str(ws), "--db", str(db), "--no-embed"], env=env, check=True, capture_output=True)
    fresh = subprocess.run([*run, "callers", "OwnerRepository.findById", "--db", str(db)], env=env, capture_output=True,
                           text=True)
    controller = ws / "src/main/java/org/example/OwnerController.java"
    controller.write_text(controller.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    git(ws, "commit", "-qam", "not indexed")
    return ws, db, env, run, fresh


def test_cli_warns_on_stderr_when_behind(stale):
    ws, db, env, run, fresh = stale
    assert fresh.returncode == 0 and "warning" not in fresh.stderr  # current: no warning
    for command in (["callers", "OwnerRepository.findById"], ["impact", "OwnerRepository.findById"],
                    ["search", "find owner"]):
        done = subprocess.run([*run, *command, "--db", str(db)], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert f"warning: {NOTE}; `ripple index` of that folder brings it up to date" in done.stderr.splitlines(), \
            (command, done.stderr)
        assert "behind" not in done.stdout
    done = subprocess.run([*run, "stats", "--db", str(db)], env=env, capture_output=True, text=True)
    assert "behind" not in done.stderr  # only the answers that read code


def test_mcp_and_rest_answers_carry_freshness(stale, monkeypatch):
    ws, db, env, run, _ = stale
    monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])
    monkeypatch.setenv("XDG_CONFIG_HOME", env["XDG_CONFIG_HOME"])
    for key in [k for k in os.environ if k.startswith("RIPPLE_")]:
        monkeypatch.delenv(key)
    head = git(ws, "rev-parse", "HEAD").strip()
    indexed = git(ws, "rev-parse", "HEAD~1").strip()
    expected = {"repo": "petclinic", "state": "behind", "behind": 1, "ahead": 0, "changed": 1,
                "indexed_commit": indexed, "head_commit": head, "branch": "main", "message": NOTE}
    backend = Backend([db])
    try:
        answer = backend.call(lambda q: q.callers("OwnerRepository.findById"))
    finally:
        backend.close()
    assert answer.as_dict()["freshness"] == [expected]
    assert f"**Freshness:** {NOTE}.\n\n## Steps executed" in answer.text
    app = create_app(ApiSettings(load_config(ws), db, roots=[ws]))
    with TestClient(app) as http:
        body = http.post("/v1/callers", json={"target": "OwnerRepository.findById"}).json()
        assert body["freshness"] == [{"repo": "petclinic", "state": "behind", "behind": 1, "ahead": 0, "changed": 1,
                                      "indexedCommit": indexed, "headCommit": head, "branch": "main", "message": NOTE}]
        impact = http.post("/v1/impact", json={"target": "OwnerRepository.findById"}).json()
        assert impact["freshness"][0]["state"] == "behind"
        assert f"**Freshness:** {NOTE}." in impact["markdown"]


def test_doctor_says_behind_and_changed_on_disk(stale, tmp_path):
    ws, db, env, run, _ = stale
    done = subprocess.run([*run, "doctor", str(ws), "--db", str(db)], env=env, capture_output=True, text=True)
    [line] = [line for line in done.stdout.splitlines() if line.startswith(("ok    repo", "warn  repo"))]
    assert line.startswith("warn  repo    petclinic (main, default): indexed ") and line.endswith("; 1 commit behind main")
    assert done.stdout.splitlines()[-1] == "all checks passed (2 warnings)"  # the repository's, and no embeddings

    # A checkout at the indexed commit whose working tree has edits the index lacks.
    other = tmp_path / "petclinic"
    shutil.copytree(WORKSPACE, other)
    git(other, "init", "-q", "-b", "main")
    git(other, "add", ".")
    git(other, "commit", "-q", "-m", "indexed")
    db2 = tmp_path / "index.db"
    subprocess.run([*run, "index", str(other), "--db", str(db2), "--no-embed"], env=env, check=True, capture_output=True)

    def repo_line() -> str:
        done = subprocess.run([*run, "doctor", str(other), "--db", str(db2)], env=env, capture_output=True, text=True)
        return next(line for line in done.stdout.splitlines() if line.startswith(("ok    repo", "warn  repo")))

    assert repo_line().startswith("ok    repo    petclinic (main, default): indexed ")
    assert repo_line().endswith("; up to date with main")
    controller = other / "src/main/java/org/example/OwnerController.java"
    controller.write_text(controller.read_text(encoding="utf-8") + "\n// edited, not committed\n", encoding="utf-8")
    (other / "src/main/java/org/example/NewThing.java").write_text("class NewThing {}\n", encoding="utf-8")
    line = repo_line()
    assert line.startswith("warn  repo    petclinic (main, default): indexed ")
    assert line.endswith("; 2 changed files on disk not indexed")
