"""Freshness (analysis/freshness.py): an index's recorded commit against a real git checkout made here,
and the record the front ends write (lsp_server/freshness_support.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from analysis.freshness import IndexedState, check_freshness, freshness_notes, vcs_head
from lsp_server.freshness_support import record_run, recorded_states
from stores.contracts import FileRecord, IndexedFile
from stores.embedded import EmbeddedStore
from stores.factory import INDEX_STATE, state_dir

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

REPO = "billing"


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=env).stdout


def index_tree(store: EmbeddedStore, root: Path) -> None:
    """What the indexer records of each file: its path and the SHA-256 of its bytes."""
    files = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        files.append(IndexedFile(FileRecord(REPO, rel, "python", hashlib.sha256(path.read_bytes()).hexdigest(), 1)))
    store.delete_files(REPO, list(store.file_checksums(REPO)))
    store.replace_files(files)


@pytest.fixture
def checkout(tmp_path: Path):
    root = tmp_path / "billing"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.py").write_text("def a():\n    return 1\n")
    (root / "README.md").write_text("hello\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "one")
    store = EmbeddedStore(tmp_path / "index.db")
    index_tree(store, root)
    yield root, store
    store.close()


def commit(root: Path, name: str, text: str, message: str) -> None:
    (root / name).write_text(text)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", message)


def test_current_then_behind_by_commits_the_index_has_not_seen(checkout, tmp_path: Path):
    root, store = checkout
    db = tmp_path / "index.db"
    recorded = record_run(db, REPO, root)
    assert recorded.commit == vcs_head(root).commit and recorded.branch == "main" and recorded.root == str(root)
    assert recorded_states(db) == {REPO: recorded}  # read back from the state folder's record
    assert (state_dir(db) / INDEX_STATE).is_file()
    assert check_freshness(store, recorded).as_dict() == {
        "repo": REPO, "state": "current", "behind": 0, "ahead": 0, "changed": 0, "indexed_commit": recorded.commit,
        "head_commit": recorded.commit, "branch": "main", "message": None}
    commit(root, "a.py", "def a():\n    return 2\n", "two")
    commit(root, "b.py", "def b():\n    return 3\n", "three")
    commit(root, "NOTES.md", "not indexed\n", "four")  # a file of a kind the index does not hold: no count
    f = check_freshness(store, recorded)
    assert (f.state, f.behind, f.ahead, f.changed, f.stale) == ("behind", 3, 0, 2, True)
    assert f.message == "index of billing is 3 commits behind HEAD (2 changed files not indexed)"
    assert freshness_notes([f]) == [f.message]


def test_commits_of_files_a_watcher_already_indexed_are_current(checkout, tmp_path: Path):
    root, store = checkout
    recorded = record_run(tmp_path / "index.db", REPO, root)
    (root / "a.py").write_text("def a():\n    return 2\n")
    index_tree(store, root)  # saved and indexed before the commit
    f = check_freshness(store, recorded)
    assert (f.state, f.changed, f.message) == ("current", 0, None)  # the working tree is indexed, HEAD unchanged
    git(root, "commit", "-qam", "two")
    f = check_freshness(store, recorded)
    assert (f.state, f.behind, f.changed, f.stale) == ("current", 1, 0, False)


def test_an_edit_not_indexed_is_a_changed_working_tree(checkout, tmp_path: Path):
    root, store = checkout
    recorded = record_run(tmp_path / "index.db", REPO, root)
    (root / "a.py").write_text("def a():\n    return 5\n")
    (root / "c.py").write_text("def c(): pass\n")  # untracked, of an indexed kind
    f = check_freshness(store, recorded)
    assert (f.state, f.changed) == ("changed", 2)
    assert f.message == "index of billing is behind its working tree (2 changed files not indexed)"


def test_another_line_of_history_is_diverged_and_a_missing_commit_unknown(checkout, tmp_path: Path):
    root, store = checkout
    git(root, "checkout", "-q", "-b", "feature")
    commit(root, "a.py", "def a():\n    return 9\n", "feature work")
    index_tree(store, root)
    recorded = record_run(tmp_path / "index.db", REPO, root)
    assert recorded.branch == "feature"
    git(root, "checkout", "-q", "main")
    commit(root, "b.py", "def b(): pass\n", "main work")
    f = check_freshness(store, recorded)
    assert (f.state, f.behind, f.ahead, f.changed, f.branch) == ("diverged", 1, 1, 2, "main")
    assert f.message.startswith(f"index of billing was made at commit {recorded.commit[:10]}, on another line")
    gone = IndexedState(REPO, str(root), "0" * 40, "main", time.time())
    f = check_freshness(store, gone)
    assert (f.state, f.stale) == ("unknown", False)
    assert f.message == "freshness of billing unknown: its indexed commit 0000000000 is not in this clone (fetch, or index it again)"


def test_without_git_files_newer_than_the_index_count(tmp_path: Path):
    root = tmp_path / "plain"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    store = EmbeddedStore(tmp_path / "index.db")
    try:
        index_tree(store, root)
        recorded = IndexedState(REPO, str(root), None, None, time.time())
        assert check_freshness(store, recorded).state == "current"
        (root / "a.py").write_text("x = 2\n")
        os.utime(root / "a.py", (recorded.indexed_at + 5, recorded.indexed_at + 5))
        f = check_freshness(store, recorded)
        assert (f.state, f.changed) == ("changed", 1)
        assert f.message.startswith("index of billing is behind its folder (1 changed file not indexed; indexed ")
        assert check_freshness(store, IndexedState(REPO, str(root))).state == "unknown"  # no time, no commit
        assert check_freshness(store, IndexedState(REPO, str(tmp_path / "gone"))).message == (
            "freshness of billing unknown: its source is not on this machine")
    finally:
        store.close()


def test_a_damaged_record_reads_as_none(tmp_path: Path):
    db = tmp_path / "index.db"
    folder = state_dir(db)
    folder.mkdir(parents=True)
    (folder / INDEX_STATE).write_text('{"billing": {"commit": 7, "indexed_at": "x"}, "other": []}')
    assert recorded_states(db) == {REPO: IndexedState(REPO)}
    (folder / INDEX_STATE).write_text("not json")
    assert recorded_states(db) == {}


def test_the_registry_entry_stands_in_for_a_missing_record_and_the_later_one_wins(checkout, tmp_path: Path):
    from stores.contracts import RepositoryRecord

    root, store = checkout
    head = vcs_head(root)
    entry = RepositoryRecord(key=REPO, name=REPO, product=REPO, root=str(root), branch="main", commit=head.commit,
                             indexed_at=1000.0)
    store.upsert_repository(entry)
    # no state folder (shared stores): the registry says what was indexed
    nowhere = tmp_path / "no-such-index.db"
    from_registry = IndexedState(REPO, str(root), head.commit, "main", 1000.0)
    assert recorded_states(nowhere, None, store) == {REPO: from_registry}
    assert recorded_states(None, [REPO], store) == {REPO: from_registry}
    assert recorded_states(None, ["other"], store) == {}
    assert recorded_states(None) == {}
    commit(root, "a.py", "def a():\n    return 2\n", "two")
    assert check_freshness(store, from_registry).message == "index of billing is 1 commit behind HEAD (1 changed file not indexed)"
    # a state-folder record written later than the entry wins; an older one loses
    db = tmp_path / "index.db"
    newer = record_run(db, REPO, root, at=2000.0)
    assert recorded_states(db, None, store) == {REPO: newer}
    record_run(db, REPO, root, at=500.0)
    assert recorded_states(db, None, store) == {REPO: from_registry}
