"""A checkout's own git configuration must not make ripple run a program: `core.fsmonitor` and a
clean filter named by `.gitattributes` (hostile review). Reading freshness and the VCS state of a
dirty working tree runs neither, and the stale warning still counts the changed file."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_fsmonitor_and_clean_filters_of_the_checkout_never_run(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text("def a():\n    b()\n\n\ndef b():\n    pass\n")
    _git(root, "init", "-q")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "0")
    _git(root, "add", ".")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "1")
    db = tmp_path / "x.db"
    ripple = [sys.executable, "-m", "lsp_server.cli"]
    done = subprocess.run([*ripple, "index", str(root), "--db", str(db), "--no-embed"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    pwned, filtered = tmp_path / "PWNED", tmp_path / "PWNED_FILTER"
    _git(root, "config", "core.fsmonitor", f"touch {pwned}; echo")
    _git(root, "config", "filter.x.clean", f"touch {filtered}; cat")
    (root / ".gitattributes").write_text("*.py filter=x\n")
    with (root / "m.py").open("a") as f:
        f.write("\n\ndef c():\n    a()\n")
    for command in (["callers", "b"], ["search", "a"], ["impact", "b"]):
        done = subprocess.run([*ripple, *command, "--db", str(db)], capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "index of repo is behind its working tree (1 changed file not indexed)" in done.stderr, done.stderr
    from indexer.vcs import git_state

    state = git_state(root)
    assert state.commit is not None and len(state.commit) == 40
    assert not pwned.exists() and not filtered.exists()


def test_env_secrets_never_reach_the_index(tmp_path: Path) -> None:
    """`.env` values: only URL bases and paths are read, without credentials or query strings; a link
    named like a doc or an example file to a `.env` is skipped like the `.env` itself."""
    root = tmp_path / "envjs"
    (root / "src").mkdir(parents=True)
    (root / "d").mkdir()
    (root / "package.json").write_text('{"name": "x"}')
    (root / ".env").write_text("REACT_APP_API=https://admin:ENVPASSSECRET@api.example.com/v1?k=ENVQUERYSECRET\n"
                               "REACT_APP_TOKEN=ENVTOKSECRET123\nSECRET_KEY=ENVKEYSECRET456\n")
    (root / ".env.example").symlink_to(".env")
    (root / "d" / "envlink.md").symlink_to("../.env")
    (root / "src" / "a.js").write_text("export function load() {\n"
                                       "  fetch(process.env.REACT_APP_API + '/users?token=' + process.env.REACT_APP_TOKEN);\n"
                                       "  fetch(process.env.SECRET_KEY);\n}\n")
    db = tmp_path / "env.db"
    done = subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(root), "--db", str(db), "--no-embed",
                           "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import json

    report = json.loads(done.stdout)
    assert report["skipped"]["no_extractor"] >= 2  # .env, and both links to it
    blob = b"".join(p.read_bytes() for p in tmp_path.glob("env.db*"))
    for secret in (b"ENVPASSSECRET", b"ENVQUERYSECRET", b"ENVTOKSECRET123", b"ENVKEYSECRET456", b"admin:"):
        assert secret not in blob, secret
    from stores.embedded import EmbeddedStore

    with EmbeddedStore(db) as store:
        urls = sorted(e.props.get("url") for es in store.outgoing(["envjs:src/a.load(0)"], ["CALLS_HTTP"]).values()
                      for e in es)
    assert urls == ["https://api.example.com/v1/users?token={}"]  # the token stays an unknown piece
