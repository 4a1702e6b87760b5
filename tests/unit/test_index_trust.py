"""An index's stored digests are trusted only when this user's runs wrote that very index file
(brk40: a clone shipping ``.ripple/index.db`` whose graph was forged but whose digests match the tree
stayed forged for every later ``ripple index``). The embedded store's ``instance_token`` names the
file (kept by a copy); the state folder records the one its runs last wrote."""

from __future__ import annotations

import shutil
from pathlib import Path

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore


def _run(root: Path, db: Path, state: Path):
    with EmbeddedStore(db) as store:
        return index_repository(root, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(state)))


def test_the_instance_token_is_made_once_and_kept_by_a_copy(tmp_path: Path) -> None:
    with EmbeddedStore(tmp_path / "a.db") as store:
        token = store.instance_token()
        assert token is not None and len(token) == 32 and store.instance_token() == token
    with EmbeddedStore(tmp_path / "a.db") as store:
        assert store.instance_token() == token
    shutil.copy(tmp_path / "a.db", tmp_path / "b.db")
    with EmbeddedStore(tmp_path / "b.db") as store:
        assert store.instance_token() == token
    with EmbeddedStore(tmp_path / "c.db") as store:
        assert store.instance_token() not in (None, token)


def test_an_index_this_user_did_not_write_is_written_whole_once(tmp_path: Path) -> None:
    root = tmp_path / "src"
    root.mkdir()
    (root / "a.py").write_text("def alpha(x):\n    return x\n\n\ndef beta():\n    return alpha(1)\n", encoding="utf-8")
    (root / "b.py").write_text("from a import beta\n\n\ndef gamma():\n    return beta()\n", encoding="utf-8")
    first = _run(root, tmp_path / "i.db", tmp_path / "state-a")
    assert first.files_written == 2
    again = _run(root, tmp_path / "i.db", tmp_path / "state-a")  # the same user: nothing to write
    assert again.files_written == 0
    other = _run(root, tmp_path / "i.db", tmp_path / "state-b")  # another user's state: written whole
    assert other.files_written == 2
    settled = _run(root, tmp_path / "i.db", tmp_path / "state-b")
    assert settled.files_written == 0
