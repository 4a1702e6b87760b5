"""The write's chunk copy folds the BM25 block maxima of the batches the store used (:mod:`indexer.write_prep`,
:mod:`stores.chunk_prep`, :meth:`stores.embedded_tx.EmbeddedTransactions.settle_owed`): the writer computes
none of them when the copy lives to the end, every table is the same as one process writes, and when the
copy is killed before its fold, or half-way, the store computes the batches it owes from its stored rows;
rows about to be deleted in the same transaction are settled first; a fold is written only for batches owed."""

from __future__ import annotations

import logging
import os
import signal
import sqlite3

import pytest

import indexer.write_prep as wp
import stores.embedded_write as ew
from indexer.forked import can_fork
from stores.bm25_blocks import TABLE, block_maxima, first_reference
from stores.bm25_pending import PendingMaxima, write_folded
from stores.chunk_prep import FoldedMaxima, analysed_rows, prepare_chunks
from stores.embedded import EmbeddedStore
from tests.unit.test_write_prep import _chunk, _file, _index, _tables, _tree, forking  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(not can_fork(), reason="no safe fork on this platform")

WEIGHTS = (3.0, 2.0, 1.0)


@pytest.fixture
def used(forking) -> list[int]:  # noqa: F811 (test_write_prep's fixture)
    """The batches each run's copy prepared that the store was offered (``forking``: one file a batch)."""
    return forking


@pytest.fixture
def computed(monkeypatch) -> list[int]:
    """Rows of every batch whose block maxima this process (the writer) computed or took from a frame."""
    seen: list[int] = []
    real = ew.rows_maxima

    def spied(conn, rows, weights, prepared=None, **options):
        seen.append(len(rows))
        return real(conn, rows, weights, prepared, **options)

    monkeypatch.setattr(ew, "rows_maxima", spied)
    return seen


@pytest.fixture
def adopted(monkeypatch) -> list[tuple[FoldedMaxima, bool]]:
    """Every fold slice the writer gave the store, with whether the store wrote it."""
    seen: list[tuple[FoldedMaxima, bool]] = []
    real = EmbeddedStore.adopt_maxima

    def spied(self, fold):
        ok = real(self, fold)
        seen.append((fold, ok))
        return ok

    monkeypatch.setattr(EmbeddedStore, "adopt_maxima", spied)
    return seen


def _chunk_count(db) -> int:
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute("SELECT count(*) FROM chunk_rows").fetchone()[0]
    finally:
        conn.close()


def test_a_cold_write_leaves_every_batchs_block_maxima_to_the_copy(used, computed, adopted, tmp_path, monkeypatch):
    root = tmp_path / "repo"
    _tree(root, 12)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    assert len(computed) == 12 and adopted == []  # one process: it computes all 12 batches' maxima
    computed.clear()
    _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert used == list(range(12)) and computed == []  # the writer computed none
    assert adopted and all(ok for _, ok in adopted)
    folds = [f for f, _ in adopted]
    assert [f.part for f in folds] == list(range(len(folds))) and [f.last for f in folds] == [False] * (len(folds) - 1) + [True]
    covers = folds[-1].covers
    assert len(covers) == 12 and covers[0][0] == 1  # every batch, from the first rowid
    assert [s for s, _ in covers] == [1 + sum(n for _, n in covers[:i]) for i in range(12)]  # back to back
    assert sum(n for _, n in covers) == _chunk_count(tmp_path / "two.db")
    one, two = _tables(tmp_path / "one.db"), _tables(tmp_path / "two.db")
    assert one == two and len(one["bm25_maxima"]) > 0


def test_a_copy_that_folds_whenever_it_holds_any_gives_the_store_each_fold_as_it_comes(
        used, computed, adopted, tmp_path, monkeypatch):
    """Held past its limit (here: any block value), the copy folds the batches judged so far and sends them
    mid-write; the store merges each later fold with the rows written before: the same table."""
    root = tmp_path / "repo"
    _tree(root, 12)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    computed.clear()
    monkeypatch.setattr(wp, "PendingMaxima", lambda limit: PendingMaxima(1))
    _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert used == list(range(12)) and computed == []
    lasts = [f for f, ok in adopted if ok and f.last]
    assert all(ok for _, ok in adopted) and len(lasts) > 1  # several folds
    covered = [c for f in lasts for c in f.covers]
    assert len(covered) == len(set(covered)) == 12  # each batch in one fold
    assert _tables(tmp_path / "one.db") == _tables(tmp_path / "two.db")


def _kill_self(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_copy_killed_before_its_fold_leaves_the_store_to_compute_what_it_owes(
        used, computed, adopted, tmp_path, monkeypatch, caplog):
    root = tmp_path / "repo"
    _tree(root, 12)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    computed.clear()
    monkeypatch.setattr(wp._HeldMaxima, "fold", _kill_self)  # in the copy, once every verdict came
    with caplog.at_level(logging.DEBUG, logger="stores.embedded_tx"):
        _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert used == list(range(12)) and computed == [] and adopted == []
    messages = [r.getMessage() for r in caplog.records]
    assert "block maxima of 12 chunk writes computed from the stored rows" in messages
    assert any(m.startswith("the write's second process stopped (") for m in messages)
    assert _tables(tmp_path / "one.db") == _tables(tmp_path / "two.db")


def test_a_copy_killed_half_way_leaves_the_batches_it_sent_owed_and_the_rest_to_the_writer(
        used, computed, adopted, tmp_path, monkeypatch, caplog):
    root = tmp_path / "repo"
    _tree(root, 12)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    computed.clear()
    send = wp._send

    def dies_at_batch_4(out, frame):
        if frame[0] == 4:
            _kill_self()
        send(out, frame)

    monkeypatch.setattr(wp, "_send", dies_at_batch_4)
    with caplog.at_level(logging.DEBUG, logger="stores.embedded_tx"):
        _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert used == [0, 1, 2, 3] and len(computed) == 8 and adopted == []
    assert "block maxima of 4 chunk writes computed from the stored rows" in [r.getMessage() for r in caplog.records]
    assert _tables(tmp_path / "one.db") == _tables(tmp_path / "two.db")


def _held(chunks, start: int, verdicts: list[bool]):
    """A preparation of ``chunks`` from rowid ``start`` whose block maxima the preparer keeps; its
    verdicts go to ``verdicts``; returns it and the maxima it kept."""
    prep = prepare_chunks(chunks, start, None, WEIGHTS)
    kept = prep.maxima
    prep.maxima, prep.held, prep.hook = {}, True, verdicts.append
    return prep, kept


def _maxima_table(db) -> list[tuple]:
    return _tables(db)[TABLE]


def test_owed_rows_deleted_in_the_same_transaction_are_settled_from_the_stored_rows_first(tmp_path):
    first = [_chunk(0, "def parseURL0(): pass"), _chunk(1, "def parseURL1(x): return x")]
    second = [_chunk(2, "def other(): return 2")]  # a.py again: its first chunks' rows are deleted
    plain = tmp_path / "plain.db"
    with EmbeddedStore(str(plain)) as store, store.transaction():
        store.replace_files([_file("a.py", first)])
        store.replace_files([_file("a.py", second)])
    owing = tmp_path / "owing.db"
    verdicts: list[bool] = []
    with EmbeddedStore(str(owing)) as store, store.transaction():
        prep, _ = _held(first, 1, verdicts)
        store.offer_prepared(lambda: prep)
        store.replace_files([_file("a.py", first)])
        assert verdicts == [True] and store._owed_maxima == {1: 2}
        store.replace_files([_file("a.py", second)])
        assert store._owed_maxima == {}  # computed before its rows went
    assert _maxima_table(owing) == _maxima_table(plain)
    assert _tables(owing) == _tables(plain)


def test_a_fold_is_written_only_for_the_batches_the_store_owes(tmp_path):
    chunks = [_chunk(0, "def parseURL0(): pass"), _chunk(1, "def parseURL1(x): return x")]
    plain = tmp_path / "plain.db"
    with EmbeddedStore(str(plain)) as store:
        store.replace_files([_file("a.py", chunks)])
    owing = tmp_path / "owing.db"
    verdicts: list[bool] = []
    with EmbeddedStore(str(owing)) as store:
        assert store.adopt_maxima(FoldedMaxima(((1, 2),), 0, True, _rows({"x": {0: 1}}))) is False  # no transaction
        with store.transaction():
            prep, kept = _held(chunks, 1, verdicts)
            store.offer_prepared(lambda: prep)
            store.replace_files([_file("a.py", chunks)])
            assert verdicts == [True] and store._owed_maxima == {1: 2}
            wrong = FoldedMaxima(((1, 3),), 0, True, _rows({"marker": {0: 9}}))  # not the rows owed
            assert store.adopt_maxima(wrong) is False
            assert store.adopt_maxima(FoldedMaxima(((1, 2),), 0, True, _rows(kept))) is True
            assert store._owed_maxima == {}
            assert store.adopt_maxima(FoldedMaxima(((1, 2),), 0, True, _rows(kept))) is False  # owed no more
    assert _tables(owing) == _tables(plain)


def test_a_preparation_used_at_another_reference_is_not_owed(tmp_path):
    chunks = [_chunk(0, "def parseURL0(): pass"), _chunk(1, "def parseURL1(x): return x")]
    plain = tmp_path / "plain.db"
    with EmbeddedStore(str(plain)) as store:
        store.replace_files([_file("a.py", chunks)])
    other = tmp_path / "other.db"
    verdicts: list[bool] = []
    with EmbeddedStore(str(other)) as store, store.transaction():
        prep, _ = _held(chunks, 1, verdicts)
        prep.reference += 1.0  # not the reference the index sets: the store computes the maxima itself
        store.offer_prepared(lambda: prep)
        store.replace_files([_file("a.py", chunks)])
        assert verdicts == [False] and store._owed_maxima == {}
    assert _tables(other) == _tables(plain)


def _rows(maxima):
    pending = PendingMaxima()
    assert pending.hold(maxima)
    out = list(pending.folds())
    assert len(out) == 1
    return out[0]


def test_held_maxima_folded_without_a_connection_write_the_table_a_flush_writes():
    batches = [analysed_rows([_chunk(i, f"def parseURL{i}(x): return x + {i}") for i in range(n, n + 40)], 1 + n)
               for n in (0, 40, 80)]
    reference = first_reference(batches[0])
    flushed, folded = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    for conn in (flushed, folded):
        conn.execute(f"CREATE TABLE {TABLE} (key INTEGER PRIMARY KEY, blocks BLOB NOT NULL, maxima BLOB NOT NULL)")
    pending, held = PendingMaxima(), PendingMaxima()
    for rows in batches:
        pending.add(flushed, block_maxima(rows, WEIGHTS, reference))
        assert held.hold(block_maxima(rows, WEIGHTS, reference))
    pending.flush(flushed)
    assert held.size > 0 and not held.full()
    slices = list(held.folds())
    assert held.size == 0 and held.terms == 0  # forgotten once folded
    for rows in slices:
        write_folded(folded, rows)
    table = f"SELECT key, blocks, maxima FROM {TABLE} ORDER BY key"
    assert folded.execute(table).fetchall() == flushed.execute(table).fetchall()
    assert sum(map(len, slices)) == len(flushed.execute(table).fetchall()) > 0


def test_a_block_outside_the_tables_range_is_not_held():
    held = PendingMaxima()
    assert held.hold({"a": {1 << 32: 3}}) is False and held.size == 0
    assert held.hold({"a": {-1: 3}}) is False and held.size == 0
    assert held.hold({}) is True and held.size == 0
    assert held.hold({"a": {(1 << 32) - 1: 3}}) is True and held.size == 1
