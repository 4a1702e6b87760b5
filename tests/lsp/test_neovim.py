"""A real editor as client: headless Neovim's built-in LSP client asks ``ripple serve`` for the call
hierarchy (prepare + incomingCalls) and references on the fixture workspace (tests/lsp/nvim_client.lua),
then runs the ``:RippleSearch`` / ``:RippleBlastRadius`` snippet of docs/editors.md as written there."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lsp.test_server import WORKSPACE

NVIM = shutil.which("nvim")
EDITORS_MD = Path(__file__).parents[2] / "docs" / "editors.md"


def documented_commands() -> str:
    """The Lua block of docs/editors.md that defines the :RippleSearch command."""
    [block] = [b for b in re.findall(r"```lua\n(.*?)```", EDITORS_MD.read_text(encoding="utf-8"), re.S)
               if "RippleSearch" in b]
    return block


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed (Debian: apt-get install -y neovim)")
def test_neovim_call_hierarchy_and_references(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACE, ws)
    out = tmp_path / "answers.json"
    commands = tmp_path / "ripple_commands.lua"
    commands.write_text(documented_commands(), encoding="utf-8")
    env = {**os.environ, "RIPPLE_PY": sys.executable, "RIPPLE_WS": str(ws), "RIPPLE_OUT": str(out), "RIPPLE_COMMANDS": str(commands),
           "XDG_STATE_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    script = Path(__file__).with_name("nvim_client.lua")
    proc = subprocess.run([NVIM, "--headless", "--clean", "-c", f"luafile {script}"], env=env,
                          cwd=Path(__file__).parents[2], capture_output=True, text=True, timeout=60)
    assert out.exists(), proc.stdout + proc.stderr
    answers = json.loads(out.read_text())
    java = (ws / "petclinic/src/main/java/org/example").as_uri()
    [item] = answers["prepare"]
    assert (item["name"], item["uri"], item["selectionRange"]) == (
        "findById", f"{java}/OwnerRepository.java",
        {"start": {"line": 3, "character": 17}, "end": {"line": 3, "character": 25}})
    assert [(c["from"]["name"], c["fromRanges"]) for c in answers["incoming"]] == [
        ("show", [{"start": {"line": 10, "character": 33}, "end": {"line": 10, "character": 41}}])]
    assert [(r["uri"].rsplit("/", 1)[-1], r["range"]["start"]["line"], r["range"]["start"]["character"])
            for r in answers["references"]] == [("OwnerController.java", 9, 17), ("OwnerController.java", 15, 26)]
    assert answers["search"][0] == {"file": str(ws / "client/client/api.py"), "lnum": 8,
                                    "text": "method client.api.OwnerClient.fetch_owner"}
    caller = f"[src/main/java/org/example/OwnerController.java:11](<{java}/OwnerController.java#L11>)"
    assert answers["blast"][:3] == ["# Blast radius of `OwnerRepository.findById`", "",
                                    "**1 direct caller · 0 endpoints** · 1 service · 2 nodes reached within 3 hops"]
    assert f"- `OwnerController.show` · petclinic · {caller} (exact)" in answers["blast"]


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=env).stdout


@pytest.mark.skipif(NVIM is None or shutil.which("git") is None, reason="nvim and git are needed")
def test_neovim_shows_the_stale_index_notice(tmp_path: Path) -> None:
    """A read-only server (``[server] index_workspace = false``: a central indexer owns the index) on a
    checkout with a commit its index has not seen: the editor is told, once, how far behind it is."""
    ws = tmp_path / "petclinic"
    shutil.copytree(WORKSPACE / "petclinic", ws)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path),
           "XDG_STATE_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    env.pop("RIPPLE_DB", None)
    git(ws, "init", "-q", "-b", "main")
    git(ws, "add", ".")
    git(ws, "commit", "-q", "-m", "indexed")
    indexed = git(ws, "rev-parse", "HEAD").strip()
    subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(ws), "--no-embed"], env=env, check=True,
                   capture_output=True, timeout=120)
    controller = ws / "src/main/java/org/example/OwnerController.java"
    controller.write_text(controller.read_text(encoding="utf-8").replace("showName", "displayName"), encoding="utf-8")
    git(ws, "commit", "-qam", "rename, not indexed")
    head = git(ws, "rev-parse", "HEAD").strip()
    db = ws / ".ripple" / "index.db"
    written = (db.stat().st_mtime_ns, db.stat().st_size)
    out = tmp_path / "shown.json"
    script = Path(__file__).with_name("nvim_stale.lua")
    proc = subprocess.run([NVIM, "--headless", "--clean", "-c", f"luafile {script}"],
                          env={**env, "RIPPLE_PY": sys.executable, "RIPPLE_WS": str(ws), "RIPPLE_OUT": str(out),
                               "RIPPLE_SERVER_INDEX_WORKSPACE": "false"},
                          cwd=Path(__file__).parents[2], capture_output=True, text=True, timeout=60)
    assert out.exists(), proc.stdout + proc.stderr
    answers = json.loads(out.read_text())
    notice = "ripple: index of petclinic is 1 commit behind HEAD (1 changed file not indexed)"
    assert [m for m in answers["shown"] if "behind" in m["message"]] == [{"type": 2, "message": notice}]  # Warning
    assert answers["statuses"][-1] == {"folders": [{
        "uri": ws.as_uri(), "repo": "petclinic", "state": "behind", "behind": 1, "ahead": 0, "changed": 1,
        "indexed_commit": indexed, "head_commit": head, "branch": "main",
        "message": "index of petclinic is 1 commit behind HEAD (1 changed file not indexed)"}]}
    assert (db.stat().st_mtime_ns, db.stat().st_size) == written  # read-only: the index is not brought up to date
