"""A real editor as client: headless Neovim's built-in LSP client asks ``ripple serve`` for the call
hierarchy (prepare + incomingCalls) and references on the fixture workspace (tests/lsp/nvim_client.lua)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lsp.test_server import WORKSPACE

NVIM = shutil.which("nvim")


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed (Debian: apt-get install -y neovim)")
def test_neovim_call_hierarchy_and_references(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACE, ws)
    out = tmp_path / "answers.json"
    env = {**os.environ, "RIPPLE_PY": sys.executable, "RIPPLE_WS": str(ws), "RIPPLE_OUT": str(out),
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
