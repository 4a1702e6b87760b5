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
