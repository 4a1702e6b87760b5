"""The resolver's records are saved as they are read (:func:`indexer.bind_state.save_bind_state`): a
batch of :data:`indexer.bind_state.BATCH` records at a time, never every record at once, and read
back (:func:`indexer.bind_state.load_bind_state`) exactly as they were; a file of another layout,
with a byte changed, cut short or with bytes after its last batch is ignored; a record that cannot
be read back saves nothing and removes what was saved before."""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from indexer.bind_state import BATCH, FORMAT, MAGIC, BindState, load_bind_state, save_bind_state
from indexer.parked import ParkedDataError


class Counted(bytes):
    """A record that counts how many of its kind are alive."""

    alive = 0
    most = 0

    def __new__(cls, data: bytes) -> Counted:
        obj = super().__new__(cls, data)
        Counted.alive += 1
        Counted.most = max(Counted.most, Counted.alive)
        return obj

    def __del__(self) -> None:
        Counted.alive -= 1


class Parked(Mapping[str, bytes]):
    """Records made when asked for, as the resolver reads parked ones back (``fail``: the path
    whose read fails)."""

    def __init__(self, n: int, fail: str | None = None) -> None:
        self.paths = [f"pkg/m{i:05d}.py" for i in range(n)]
        self.fail = fail
        self.reads = 0

    def __getitem__(self, path: str) -> bytes:
        if path == self.fail:
            raise ParkedDataError(f"parked dependency record of {path} unreadable: closed")
        self.reads += 1
        return Counted(f"record of {path}".encode())

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def _state(deps: Mapping[str, bytes], n: int) -> BindState:
    checksums = {f"pkg/m{i:05d}.py": f"{i:064x}" for i in range(n)}
    return BindState("key", checksums, deps, {("file", "pkg/m00001.py", "")}, {"pkg/m00002.py": b"s" * 16},
                     {"README.md": ("c", b"words", False)}, {"pkg/m00003.py": frozenset({("t", "id")})})


def test_records_are_saved_a_batch_at_a_time_and_read_back_as_they_were(tmp_path: Path) -> None:
    n = 2 * BATCH + 500
    deps = Parked(n)
    path = tmp_path / "bind-x.pickle"
    Counted.alive = Counted.most = 0
    assert save_bind_state(path, _state(deps, n))
    assert deps.reads == n  # each record read once
    assert Counted.most == BATCH  # one batch alive at a time, not every record
    assert Counted.alive == 0
    loaded = load_bind_state(path)
    assert loaded is not None
    assert loaded.key == "key"
    assert loaded.deps == {p: f"record of {p}".encode() for p in deps.paths}
    assert list(loaded.deps) == deps.paths  # in the order given
    assert loaded.checksums == _state({}, n).checksums
    assert loaded.link_deps == {("file", "pkg/m00001.py", "")}
    assert loaded.link_shares == {"pkg/m00002.py": b"s" * 16}
    assert loaded.mentions == {"README.md": ("c", b"words", False)}
    assert loaded.link_names == {"pkg/m00003.py": frozenset({("t", "id")})}
    # one string per path, shared by the checksums and the records (as one pickle gave)
    assert all(a is b for a, b in zip(loaded.checksums, loaded.deps))
    raw = path.read_bytes()
    start = len(MAGIC) + 1 + 32
    assert raw[:len(MAGIC)] == MAGIC and raw[len(MAGIC)] == FORMAT
    assert raw[len(MAGIC) + 1:start] == hashlib.sha256(raw[start:]).digest()
    assert not list(tmp_path.glob("*.tmp"))


def test_no_records_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "bind-x.pickle"
    assert save_bind_state(path, BindState("key", {}, {}))
    loaded = load_bind_state(path)
    assert loaded is not None and (loaded.deps, loaded.checksums, loaded.link_shares) == ({}, {}, None)


def test_changed_cut_extended_or_foreign_files_are_ignored(tmp_path: Path) -> None:
    n = BATCH + 3
    path = tmp_path / "bind-x.pickle"
    assert save_bind_state(path, _state(Parked(n), n))
    raw = path.read_bytes()
    start = len(MAGIC) + 1 + 32
    at = raw.index(b"record of pkg/m00007.py") + 12
    flipped = raw[:at] + bytes([raw[at] ^ 1]) + raw[at + 1:]
    for bad in (flipped, raw[:-5], raw[:start - 3], b"", pickle.dumps((6, "0" * 64, b"body")),
                raw[:len(MAGIC)] + bytes([FORMAT - 1]) + raw[len(MAGIC) + 1:]):
        path.write_bytes(bad)
        assert load_bind_state(path) is None
    # bytes after the last batch, the digest made to match: refused all the same
    body = raw[start:] + pickle.dumps({"pkg/extra.py": b"r"})
    path.write_bytes(MAGIC + bytes([FORMAT]) + hashlib.sha256(body).digest() + body)
    assert load_bind_state(path) is None
    # a batch short, the digest made to match: refused (a file would lack its record)
    head = pickle.dumps(("key", {"a.py": "c"}, 1, set(), None, {}, None))
    path.write_bytes(MAGIC + bytes([FORMAT]) + hashlib.sha256(head).digest() + head)
    assert load_bind_state(path) is None
    path.write_bytes(raw)
    assert load_bind_state(path) is not None


def test_a_record_that_cannot_be_read_back_saves_nothing_and_removes_the_old_records(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    n = BATCH + 10
    path = tmp_path / "bind-x.pickle"
    assert save_bind_state(path, _state(Parked(n), n))
    caplog.set_level(logging.WARNING, logger="indexer.bind_state")
    assert not save_bind_state(path, _state(Parked(n, fail="pkg/m01004.py"), n))
    assert "the next run binds every file" in caplog.text
    assert not path.exists()  # the old records no longer describe the index
    assert not list(tmp_path.glob("*.tmp"))
    assert load_bind_state(path) is None
