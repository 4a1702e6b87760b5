"""Hostile suite, session 57 (brk57): what the newcomer run on microblog found, and attacks on session 56's
changes. Every input is generated here (no committed blobs).

- :class:`TestEmptyFileIsNoIndex`: ``--db`` naming an existing 0-byte file someone else made: every
  read command (CLI, MCP, REST) refuses it and leaves it 0 bytes; ``ripple index`` makes an index there.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from lsp_server.cli import main
from stores.errors import NotAnIndex

CLEAN_ENV = {"RIPPLE_CONFIG": None, "RIPPLE_DB": None, "RIPPLE_GRAPH_BACKEND": None, "RIPPLE_SEARCH_BACKEND": None,
             "RIPPLE_EMBEDDING_MODEL": None, "RIPPLE_SERVICES": None}


def ripple(*args: str, cwd: Path | None = None, **env: str | None):
    """``ripple ARGS`` in process (click's runner), from ``cwd``, with a clean environment."""
    with contextlib.chdir(cwd or Path.cwd()):
        return CliRunner().invoke(main, list(args), env={**CLEAN_ENV, **env}, catch_exceptions=False)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


# ------------------------------------------------------------------------ an empty file as --db

EMPTY_REASON = "is not a ripple index (an empty file of 0 bytes; `ripple index PATH --db FILE` makes an index there)"


class TestEmptyFileIsNoIndex:
    """brk56 found that ``ripple mcp --db F`` on an existing 0-byte file wrote an index schema into it
    (a text file was already refused)."""

    @pytest.mark.parametrize("args", [["stats"], ["callers", "f"], ["references", "f"], ["impact", "f"],
                                      ["endpoints"], ["search", "f"], ["embed"], ["repos", "list"]])
    def test_read_commands_refuse_it_and_leave_it_empty(self, tmp_path, monkeypatch, args):
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        db = tmp_path / "someone.db"
        db.write_bytes(b"")
        result = ripple(*args, "--db", str(db), cwd=tmp_path)
        assert result.exit_code == 1, result.output
        message = " ".join(result.stderr.split())
        assert message == (f"Error: {db} {EMPTY_REASON}; ripple did not create it and leaves it alone: pass another "
                           "--db (or RIPPLE_DB)")
        assert db.stat().st_size == 0
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("someone")) == ["someone.db"]

    def test_mcp_and_rest_refuse_it_too(self, tmp_path, monkeypatch):

        from mcp.server.mcpserver.exceptions import ToolError

        from lsp_server.api.app import ApiSettings, create_app
        from lsp_server.mcp_server import Backend
        from stores.config import load_config

        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        db = tmp_path / "someone.db"
        db.write_bytes(b"")
        with pytest.raises(ToolError, match=f"the index cannot answer: {db} is not a ripple index \\(an empty file"):
            Backend([db]).call(lambda q: q.repositories())
        with pytest.raises(NotAnIndex, match="an empty file of 0 bytes"):  # as a text file: refused at start
            create_app(ApiSettings(load_config(tmp_path), db, roots=[tmp_path]))
        result = ripple("api", "--db", str(db), "--port", "0", cwd=tmp_path)
        assert result.exit_code == 1 and EMPTY_REASON in " ".join(result.stderr.split())
        assert db.stat().st_size == 0

    def test_index_makes_an_index_there(self, tmp_path, monkeypatch):
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        src = write_tree(tmp_path / "src", {"a.py": "def f():\n    pass\n\n\ndef g():\n    f()\n"})
        db = tmp_path / "new.db"
        db.write_bytes(b"")
        assert ripple("index", str(src), "--db", str(db), "--no-embed").exit_code == 0
        assert db.stat().st_size > 0
        result = ripple("callers", "f", "--db", str(db))
        assert result.exit_code == 0 and "a.py:6:5  g  [exact]" in result.stdout, result.output
