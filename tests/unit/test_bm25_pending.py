"""BM25 block maxima held back in a write transaction (:class:`stores.bm25_pending.PendingMaxima`): the
table they fold into is the one folding each batch at once gives, nothing is in it before the fold,
a full one folds early, terms of one hash stay apart, terms of one table key share their rows, rows go
in in key order, a search inside the transaction folds first, a rollback leaves none."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from stores import bm25_blocks, bm25_pending
from stores.bm25_blocks import (CREATE_TABLE, TABLE, block_maxima, fold_maxima, record_rows, row_key, rows_maxima,
                                term_key, term_rows)
from stores.bm25_pending import PendingMaxima
from stores.embedded import EmbeddedStore
from stores.embedded_lexical import BM25_WEIGHTS
from tests.unit.test_bm25_blocks import _corpus

# Three batches: 'foo' in each (its row appended to, and block 1093 raised by a later batch: the
# boundary), 'bar' in two parts (rowid 70,000 is block 1093 of part 1), 'baz' in the second only.
BATCHES = [
    [(1, ("foo", "", "")), (63, ("", "", "bar foo foo")), (70_000, ("", "", "foo bar"))],
    [(70_001, ("foo", "", "")), (70_100, ("baz", "", "bar"))],
    [(70_200, ("", "", "foo x y z w")), (200_000, ("", "", "foo"))],
]


def _conn() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
    conn.execute(CREATE_TABLE)
    return conn


_VOCABULARY = ("bar", "baz", "foo", "w", "x", "y", "z", "ok", "alpha", "beta", "gamma", "delta")


def _table(conn: sqlite3.Connection) -> list[tuple[str, int, list[int], list[int]]]:
    """The table as ``(term, part, blocks, maxima)`` rows of the tests' terms; no row is of another."""
    rows = term_rows(conn, _VOCABULARY)
    assert conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0] == len({(term_key(t), p) for t, p, _, _ in rows})
    return rows


def _record(conn: sqlite3.Connection, pending: PendingMaxima, rows) -> None:
    maxima = rows_maxima(conn, rows, BM25_WEIGHTS)
    assert maxima is not None
    pending.add(conn, maxima)


def test_held_maxima_fold_into_the_table_each_batch_at_once_gives() -> None:
    now, later = _conn(), _conn()
    pending = PendingMaxima()
    for rows in BATCHES:
        record_rows(now, rows, BM25_WEIGHTS)
        _record(later, pending, rows)
    assert _table(later) == []  # nothing folded yet
    assert pending.terms == 7 and sorted(pending.term(n) for n in range(7)) == ["bar", "baz", "foo", "w", "x", "y", "z"]
    assert pending.size == 13  # block values added: 'foo' 2 + 1 + 2, 'bar' 2 + 1, 'baz' 1, x y z w 1 each
    assert pending.held_bytes() == 9 * 13 + 20 * 7 + len("foobarbazxyzw")
    pending.flush(later)
    assert pending.terms == 0 and pending.size == 0 and not pending
    want = _table(now)
    assert _table(later) == want
    foo = {(t, p): (b, m) for t, p, b, m in want}[("foo", 1)]
    assert foo[0] == [1093, 1096]  # 70,000 and 70,001 share block 1093; 70,200 is 1096 (200,000: 3,125, part 3)
    avgdl = 6 / 3  # the first batch's mean row length: 1 + 3 + 2 tokens
    assert foo[1][0] == max(block_maxima([r], BM25_WEIGHTS, avgdl)["foo"][1093] for r in (BATCHES[0][2], BATCHES[1][0]))
    assert [(t, p) for t, p, _, _ in want] == [("bar", 0), ("bar", 1), ("baz", 1), ("foo", 0), ("foo", 1),
                                               ("foo", 3), ("w", 1), ("x", 1), ("y", 1), ("z", 1)]


def test_a_fold_merges_with_the_rows_stored_before() -> None:
    now, later = _conn(), _conn()
    for conn in (now, later):
        record_rows(conn, BATCHES[0], BM25_WEIGHTS)  # stored before the transaction's batches
    pending = PendingMaxima()
    for rows in BATCHES[1:]:
        record_rows(now, rows, BM25_WEIGHTS)
        _record(later, pending, rows)
    pending.flush(later)
    assert _table(later) == _table(now)
    assert [b for t, p, b, _ in _table(later) if (t, p) == ("foo", 1)] == [[1093, 1096]]


def test_a_full_pending_folds_at_once() -> None:
    conn = _conn()
    pending = PendingMaxima(limit=60)
    _record(conn, pending, BATCHES[0])  # 'foo' 2 blocks, 'bar' 2: 4 values, 2 terms: 36 + 46 bytes > 60
    assert pending.size == 0 and pending.terms == 0 and pending.held_bytes() == 0  # folded
    assert [(t, p, b) for t, p, b, _ in _table(conn)] == [("bar", 0, [0]), ("bar", 1, [1093]), ("foo", 0, [0]),
                                                          ("foo", 1, [1093])]
    big = PendingMaxima(limit=1000)
    _record(conn, big, BATCHES[1])
    assert big.size == 3 and [(t, p, b) for t, p, b, _ in _table(conn) if t == "baz"] == []  # held, not folded


class _SameHash(str):
    """A term whose hash is every other such term's: the numbering cannot go by hash alone."""

    def __hash__(self) -> int:
        return 7


def test_terms_of_one_hash_are_numbered_apart() -> None:
    now, later = _conn(), _conn()
    pending = PendingMaxima()
    batches = [{_SameHash("alpha"): {0: 10, 1: 20}, _SameHash("beta"): {0: 30}, "gamma": {1: 5}},
               {_SameHash("beta"): {1: 40, 0: 25}, _SameHash("delta"): {2: 50}, _SameHash("alpha"): {1: 15, 3: 1}}]
    for maxima in batches:
        fold_maxima(now, {str(t): dict(per) for t, per in maxima.items()}, 0)
        pending.add(later, maxima)
    assert pending.terms == 4 and sorted(pending.term(n) for n in range(4)) == ["alpha", "beta", "delta", "gamma"]
    pending.flush(later)
    assert _table(later) == _table(now) == [("alpha", 0, [0, 1, 3], [10, 20, 1]), ("beta", 0, [0, 1], [30, 40]),
                                            ("delta", 0, [2], [50]), ("gamma", 0, [1], [5])]


def test_a_block_past_the_tables_range_raises_as_a_fold_does() -> None:
    conn = _conn()
    pending = PendingMaxima()
    pending.add(conn, {"ok": {5: 9}})
    with pytest.raises(ValueError, match="outside"):
        pending.add(conn, {"far": {1 << 32: 3}})
    assert _table(conn) == [("ok", 0, [5], [9])]  # what was held is folded first
    with pytest.raises(ValueError, match="outside"):
        fold_maxima(conn, {"far": {1 << 32: 3}})
    with pytest.raises(ValueError, match="outside"):
        fold_maxima(conn, {"far": {3: 3}}, 1 << 22)
    with pytest.raises(IndexError):
        pending.term(0)


def _bm25_table(store: EmbeddedStore) -> list[tuple]:
    return store._db.execute(f"SELECT key, blocks, maxima FROM {TABLE} ORDER BY key").fetchall()


@pytest.fixture
def files():
    return _corpus(640)


def test_a_transactions_batches_give_the_table_separate_writes_give(tmp_path: Path, files) -> None:
    with EmbeddedStore(tmp_path / "a.db") as each, EmbeddedStore(tmp_path / "b.db") as one:
        for k in range(0, 640, 100):
            each.replace_files(files[k:k + 100])  # a transaction per call: folded at once
        with one.transaction():
            for k in range(0, 640, 100):
                one.replace_files(files[k:k + 100])
            assert one._pending_maxima is not None and one._pending_maxima.terms > 10  # held back
            assert _bm25_table(one) == []
        assert one._pending_maxima is None
        assert len(_bm25_table(each)) > 10
        assert _bm25_table(one) == _bm25_table(each)
        assert [c.chunk_id for c in one.bm25("parser", 5)] == [c.chunk_id for c in each.bm25("parser", 5)]


def test_a_search_inside_the_transaction_folds_first_and_a_rollback_keeps_none(tmp_path: Path, files) -> None:
    with EmbeddedStore(tmp_path / "a.db") as ref, EmbeddedStore(tmp_path / "b.db") as store:
        ref.replace_files(files[:300])
        with store.transaction():
            store.replace_files(files[:300])
            got = store.bm25("socket parser", 10)
            assert store._pending_maxima is not None and store._pending_maxima.terms == 0  # folded by the search
            assert _bm25_table(store) == _bm25_table(ref)
        assert [c.chunk_id for c in got] == [c.chunk_id for c in ref.bm25("socket parser", 10)]
        with pytest.raises(RuntimeError), store.transaction():
            store.replace_files(files[300:])
            raise RuntimeError("stop")
        assert store._pending_maxima is None
        assert _bm25_table(store) == _bm25_table(ref)  # the rolled-back batch's maxima are nowhere


def _held(terms: list[str]) -> PendingMaxima:
    pending = PendingMaxima()
    pending.add(_conn(), {t: {n: 1} for n, t in enumerate(terms)})
    return pending


def test_the_held_terms_sort_in_the_tables_key_order() -> None:
    terms = ["parser_b", "parser_a", "parser", "", "\0", "zé", "😀", "\uffff", "a" * 40, "\ud800"]  # a lone surrogate too
    pending = _held(terms)
    order, keys = pending.key_order()
    got = [pending.term(n) for n in order.tolist()]
    assert got == sorted(terms, key=term_key)
    assert keys.tolist() == sorted(map(term_key, terms)) and len(set(keys.tolist())) == len(terms)
    assert all(0 <= k < 1 << 41 for k in keys.tolist())
    assert [pending.term(n) for n in range(len(terms))] != got  # numbered in another order


def test_terms_of_one_table_key_share_their_rows_and_still_bound_each(monkeypatch) -> None:
    """Two terms whose keys are equal (forced here; 2**41 keys) fold into one row per part: the union of
    their blocks, the larger value where both have one, which bounds each term's; held in one slice of the
    fold even where slices of one term each would cut between them."""
    same = {"alpha": 5, "beta": 5}
    real = bm25_blocks.term_key
    for module in (bm25_blocks, bm25_pending):
        monkeypatch.setattr(module, "term_key", lambda t: same.get(t) or real(t))
    monkeypatch.setattr(bm25_pending, "_FOLD_TERMS", 1)
    now, later = _conn(), _conn()
    pending = PendingMaxima()
    batches = [{"alpha": {0: 10, 1: 20, 1025: 7}, "beta": {1: 30, 2: 40}, "gamma": {1: 5}},
               {"beta": {0: 3, 1025: 9}, "alpha": {3: 1}}]
    for maxima in batches:
        fold_maxima(now, maxima)
        pending.add(later, maxima)
    pending.flush(later)
    want = [(5 << 22, [0, 1, 2, 3], [10, 30, 40, 1]), ((5 << 22) | 1, [1025], [9])]
    for conn in (now, later):
        rows = conn.execute(f"SELECT key, blocks, maxima FROM {TABLE} WHERE key >> 22 = 5 ORDER BY key").fetchall()
        assert [(k, bm25_blocks.decode_blocks(b, k & 1023).tolist(), list(m)) for k, b, m in rows] == want
        assert conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0] == 3  # and gamma's one row
    assert row_key("alpha", 1) == (5 << 22) | 1
    _, found = bm25_blocks.read_bounds(_with_reference(later), ["alpha", "beta"])
    assert found["alpha"][0].tolist() == found["beta"][0].tolist() == [0, 1, 2, 3, 1025]
    one = _conn()  # a batch of one part, the part given: the same merging
    fold_maxima(one, {"alpha": {0: 10, 2: 1}, "beta": {0: 20, 1: 5}, "gamma": {1: 5}}, 0)
    blocks, maxima = one.execute(f"SELECT blocks, maxima FROM {TABLE} WHERE key = ?", (5 << 22,)).fetchone()
    assert (bm25_blocks.decode_blocks(blocks, 0).tolist(), list(maxima)) == ([0, 1, 2], [20, 5, 1])


def _with_reference(conn: sqlite3.Connection) -> sqlite3.Connection:
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1.0')", (bm25_blocks.REFERENCE_KEY,))
    return conn


def test_a_fold_reads_stored_rows_back_only_when_the_table_holds_any() -> None:
    conn = _conn()
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    pending = PendingMaxima()
    _record(conn, pending, BATCHES[0])
    pending.flush(conn)
    assert not any("json_each" in s for s in seen)  # an empty table: nothing to merge with
    inserted = [int(s.split("VALUES (")[1].split(", x'")[0]) for s in seen if s.startswith(f"INSERT OR REPLACE INTO {TABLE}")]
    assert inserted == sorted(row_key(t, p) for t, p in [("bar", 0), ("bar", 1), ("foo", 0), ("foo", 1)])  # key order
    assert [(t, p) for t, p, _, _ in _table(conn)] == [("bar", 0), ("bar", 1), ("foo", 0), ("foo", 1)]
    seen.clear()
    _record(conn, pending, BATCHES[1])
    pending.flush(conn)
    assert sum("json_each" in s for s in seen) == 1  # rows stored: read back once for this slice of terms
    inserted = [int(s.split("VALUES (")[1].split(", x'")[0]) for s in seen if s.startswith(f"INSERT OR REPLACE INTO {TABLE}")]
    assert inserted == sorted(row_key(t, 1) for t in ("bar", "baz", "foo"))
    now = _conn()
    for rows in BATCHES[:2]:
        record_rows(now, rows, BM25_WEIGHTS)
    assert _table(conn) == _table(now)
