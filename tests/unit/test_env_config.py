"""``.env`` files per package folder (indexer/frameworks/env_config.py)."""

from __future__ import annotations

import os

from indexer.frameworks.env_config import env_for, load_env_files


def test_precedence_packages_and_shadowing(tmp_path) -> None:
    (tmp_path / ".env").write_text("API=http://root\nONLY_ROOT=1\n")
    web = tmp_path / "apps" / "web"
    web.mkdir(parents=True)
    (web / "package.json").write_text("{}")
    (web / ".env").write_text("API=http://env\nB=/b\n")
    (web / ".env.development").write_text("API=http://dev\nEMPTY=\n")
    (web / ".env.example").write_text("B=/example\nC='/quoted value'\nTOKEN=sk-not-a-url\n")
    bare = tmp_path / "apps" / "bare"
    bare.mkdir()
    (bare / "package.json").write_text("{}")
    nm = web / "node_modules" / "dep"
    nm.mkdir(parents=True)
    (nm / "package.json").write_text("{}")
    (nm / ".env").write_text("API=http://dependency\n")
    envs = load_env_files(tmp_path)
    assert envs == {
        "": {"API": "http://root"},  # ONLY_ROOT=1 and TOKEN are no URL: never read into the index
        "apps/bare": {},
        "apps/web": {"API": "http://dev", "B": "/b", "C": "/quoted value"},
    }
    assert env_for(envs, "apps/web/src/api.ts") == {"API": "http://dev", "B": "/b", "C": "/quoted value"}
    assert env_for(envs, "apps/bare/src/x.js") == {}  # a package without .env never reads the root's
    assert env_for(envs, "scripts/x.js") == {"API": "http://root"}
    assert env_for({}, "a.js") == {}


def test_an_env_file_linked_from_outside_the_repository_is_not_read(tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / ".env").write_text("API=http://secret\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "package.json").write_text("{}")
    os.symlink(outside / ".env", repo / ".env")
    os.mkfifo(repo / ".env.local")  # never opened in a way that blocks
    assert load_env_files(repo) == {}


def test_a_malformed_env_file_costs_only_its_bad_lines(tmp_path) -> None:
    (tmp_path / ".env").write_bytes(b"\xff\xfe=garbage\nnot a line\nAPI=http://ok\n")
    assert load_env_files(tmp_path) == {"": {"API": "http://ok"}}


def test_an_edited_env_file_relinks_the_repository() -> None:
    from indexer.incremental import is_config_path

    assert is_config_path("web/.env.development")
    assert is_config_path(".env")
    assert not is_config_path("web/.envrc")
    assert not is_config_path("web/src/env.ts")
