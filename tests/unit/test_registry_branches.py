"""The repository registry as the indexer writes it (indexer.registry, indexer.vcs) and per-branch
indexes: keys, the Repository entry after a run, a second branch reusing the extraction cache, and
queries reading one branch (analysis.branches)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from analysis.branches import BranchView, branch_view, visible_keys
from analysis.navigation import callers, lookup
from indexer.pipeline import index_repository
from indexer.registry import branch_identity, record_repository, repository_key
from indexer.run import IndexOptions
from indexer.vcs import VcsState, git_state
from stores.contracts import RepositoryRecord
from stores.embedded import EmbeddedStore
from stores.errors import QueryFailed

FILES = {
    "shop/__init__.py": "",
    "shop/repo.py": "class Repo:\n    def find(self, key):\n        return key\n",
    "shop/service.py": ("from shop.repo import Repo\n\n\ndef lookup(key):\n    return Repo().find(key)\n\n\n"
                        "def other():\n    return lookup(1)\n"),
    "shop/util.py": "def helper():\n    return 1\n",
}


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), "-c", "user.email=t@example.org", "-c", "user.name=t", *args],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "one")
    git(root, "remote", "add", "origin", "https://alice:s3cret@git.example.org/team/shop.git")
    return root


def entry(key: str, name: str, branch: str | None, default: bool) -> RepositoryRecord:
    return RepositoryRecord(key=key, name=name, product=name, root="/x", branch=branch, default=default)


def test_repository_key_rules():
    assert repository_key([], "shop", "main") == ("shop", True)
    entries = [entry("shop", "shop", "main", True), entry("shop@dev", "shop", "dev", False)]
    assert repository_key(entries, "shop", "main") == ("shop", True)
    assert repository_key(entries, "shop", "dev") == ("shop@dev", False)
    assert repository_key(entries, "shop", "feature/x") == ("shop@feature/x", False)
    assert repository_key(entries, "shop", None) == ("shop", True)  # no branch: the default
    assert repository_key(entries, "billing", "dev") == ("billing", True)  # another name: its own default
    assert visible_keys(entries, None) == {"shop"}
    assert visible_keys(entries, "dev") == {"shop@dev"}
    assert visible_keys([*entries, entry("billing", "billing", "main", True)], "dev") == {"shop@dev", "billing"}


def test_git_state_reads_remote_without_credentials_commit_and_branch(checkout, tmp_path):
    state = git_state(checkout)
    assert state.remote == "https://git.example.org/team/shop.git"
    assert state.commit == git(checkout, "rev-parse", "HEAD") and len(state.commit) == 40
    assert state.branch == "main"
    git(checkout, "checkout", "-q", "--detach")
    assert git_state(checkout).branch is None
    plain = tmp_path / "plain"
    plain.mkdir()
    assert git_state(plain) == VcsState(None, None, None)


def test_index_run_records_the_repository_entry(checkout, tmp_path):
    store = EmbeddedStore(tmp_path / "index.db")
    options = IndexOptions(repo="shop", jobs=1, state_dir=str(tmp_path / "state"))
    index_repository(checkout, store, store, options)
    (rec,) = store.repositories()
    assert (rec.key, rec.name, rec.product, rec.root, rec.branch, rec.default) == (
        "shop", "shop", "shop", str(checkout), "main", True)
    assert (rec.remote, rec.commit) == ("https://git.example.org/team/shop.git", git(checkout, "rev-parse", "HEAD"))
    assert rec.counts == {"files": 4, "nodes": 9, "edges": 8, "chunks": 6, "vectors": 0}
    stats = store.stats()  # one repository: its counts are the store's
    assert (sum(stats["nodes"].values()), sum(stats["edges"].values()), store.chunk_count()["chunks"]) == (9, 8, 6)
    assert rec.indexed_at > 0
    # Props written by someone else survive the next run; the time moves on.
    store.upsert_repository(RepositoryRecord(**{**{f: getattr(rec, f) for f in rec.__slots__}, "props": {"x": 1}}))
    index_repository(checkout, store, store, options)
    (again,) = store.repositories()
    assert again.props == {"x": 1} and again.indexed_at >= rec.indexed_at
    store.close()


def test_second_branch_reparses_only_changed_files_and_keeps_default_ids(checkout, tmp_path):
    store = EmbeddedStore(tmp_path / "index.db")
    state = str(tmp_path / "state")

    def run(branch_option: str | None = None):
        key, name, branch = branch_identity(store.repositories(), "shop", branch_option, checkout)
        report = index_repository(checkout, store, store, IndexOptions(repo=key, name=name, branch=branch, jobs=1,
                                                                       state_dir=state))
        return key, report

    key, first = run()
    assert (key, first.files_extracted, first.files_written) == ("shop", 4, 4)
    main_ids = {n.id for p in store.file_checksums("shop") for n in store.nodes_in_file("shop", p)}
    git(checkout, "checkout", "-q", "-b", "dev")
    (checkout / "shop" / "util.py").write_text("def helper():\n    return 2\n\n\ndef extra():\n    return helper()\n",
                                               encoding="utf-8")
    git(checkout, "commit", "-qam", "dev work")
    key, second = run()
    # Only the changed file is parsed again: the three others come from the content-addressed cache.
    assert (key, second.files_extracted, second.files_written) == ("shop@dev", 1, 4)
    assert [(r.key, r.branch, r.default) for r in store.repositories()] == [("shop", "main", True),
                                                                              ("shop@dev", "dev", False)]
    # The default branch's node ids did not move; the branch's ids carry its key.
    assert {n.id for p in store.file_checksums("shop") for n in store.nodes_in_file("shop", p)} == main_ids
    assert "shop@dev:shop/util.extra(0)" in store.get_nodes(["shop@dev:shop/util.extra(0)"])
    # Queries: the default branch unless one is named.
    default = branch_view(store, None)
    assert isinstance(default, BranchView)
    targets, _ = lookup(default, "Repo.find")
    assert [t.id for t in targets] == ["shop:shop/repo.Repo.find(1)"]
    assert [r.source.id for r in callers(default, targets)] == ["shop:shop/service.lookup(1)"]
    dev = branch_view(store, "dev")
    targets, _ = lookup(dev, "Repo.find")
    assert [t.id for t in targets] == ["shop@dev:shop/repo.Repo.find(1)"]
    assert lookup(dev, "extra")[0][0].repo == "shop@dev" and lookup(default, "extra")[0] == []
    assert dev.repos() == ["shop@dev"] and default.repos() == ["shop"]
    assert [n.repo for n in dev.search_symbols("helper", 5)] == ["shop@dev"]
    with pytest.raises(QueryFailed, match=r"no repository is indexed on branch 'nope' \(branches: dev, main\)"):
        branch_view(store, "nope")
    with pytest.raises(QueryFailed, match="read-only"):
        dev.replace_files([])
    # --branch main names the default entry, whatever is checked out: the working tree goes there.
    key, _ = run("main")
    assert key == "shop" and lookup(branch_view(store, None), "extra")[0][0].repo == "shop"
    # One branch per repository: no view at all.
    store.remove_repository("shop@dev")
    assert branch_view(store, None) is store
    store.close()


def test_record_repository_on_a_folder_that_is_not_a_checkout(tmp_path):
    root = tmp_path / "plain"
    (root / "a.py").parent.mkdir(parents=True)
    (root / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    store = EmbeddedStore(tmp_path / "index.db")
    index_repository(root, store, store, IndexOptions(repo="plain", jobs=1, record=False))
    assert store.repositories() == []
    rec = record_repository(store, store, root, IndexOptions(repo="plain", product="p"))
    assert (rec.branch, rec.remote, rec.commit, rec.product, rec.default) == (None, None, None, "p", True)
    assert store.repositories() == [rec]
    store.close()
