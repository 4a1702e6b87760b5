"""The block maxima as flat arrays (:func:`stores.bm25_blocks.block_values`): the definition's values, one
entry per term and block in (term, block) order; held by :meth:`stores.bm25_pending.PendingMaxima.hold_values`
they fold into the same table rows as the dict form held by :meth:`~stores.bm25_pending.PendingMaxima.hold`;
:func:`stores.chunk_prep.prepare_chunks` with ``as_values`` gives the same analysis and maxima."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stores.bm25_blocks import BlockValues, block_maxima, block_values, quantise
from stores.bm25_pending import PendingMaxima
from stores.chunk_prep import prepare_chunks
from stores.contracts import Chunk
from stores.embedded_lexical import BM25_WEIGHTS
from tests.unit.test_bm25_block_speed import _reference, _rows


def _norm(length: int, avgdl: float) -> float:
    return 1.2 * (0.25 + 0.75 * length / avgdl)


def test_a_small_batch_gives_exact_arrays_in_term_then_block_order() -> None:
    rows = [(64, ("a", "", "a a")), (65, ("", "", "b")), (130, ("", "b", "c")), (3, (" ", "", ""))]
    got = block_values(rows, BM25_WEIGHTS, 2.0)
    assert got is not None
    assert got.terms == ["a", "b", "c"]  # in order of first arrival; the empty row holds none
    assert got.numbers.tolist() == [0, 1, 1, 2]
    assert got.blocks.tolist() == [1, 1, 2, 2]
    assert got.values.dtype == np.uint8
    a = quantise(5 / (5 + _norm(3, 2.0)))  # name 'a' x 3 + text 'a a', 3 tokens
    b1 = quantise(1 / (1 + _norm(1, 2.0)))
    b2 = quantise(2 / (2 + _norm(2, 2.0)))  # 'b' in the fqn: weight 2; row of 2 tokens
    c = quantise(1 / (1 + _norm(2, 2.0)))
    assert got.values.tolist() == [a, b1, b2, c] == [192, 146, 160, 116]  # 1 / 1.75, 2 / 3.2, 1 / 2.2 of 255, up
    assert got.as_dict() == block_maxima(rows, BM25_WEIGHTS, 2.0) == {"a": {1: a}, "b": {1: b1, 2: b2}, "c": {2: c}}


def test_a_terms_largest_value_of_a_block_wins_whatever_the_row_order() -> None:
    rows = [(10, ("", "", "x x x")), (11, ("", "", "x y")), (12, ("x", "", ""))]
    for order in (rows, rows[::-1], [rows[1], rows[2], rows[0]]):
        got = block_values(order, BM25_WEIGHTS, 2.0)
        assert got is not None and len(got) == 2
        assert got.as_dict() == {"x": {0: quantise(3 / (3 + _norm(1, 2.0)))}, "y": {0: quantise(1 / (1 + _norm(2, 2.0)))}}
        assert got.as_dict()["x"][0] != quantise(3 / (3 + _norm(3, 2.0)))  # not the row with the most x's


def test_random_batches_give_the_definitions_values() -> None:
    rng = random.Random(67)
    for case in range(60):
        rows = _rows(rng, rng.randrange(1, 400), rng.randrange(0, 5000), shuffle=case % 3 == 0)
        avgdl = rng.choice([1.0, 7.5, 30.0, 123.25])
        got = block_values(rows, BM25_WEIGHTS, avgdl)
        assert got is not None
        assert got.as_dict() == _reference(rows, BM25_WEIGHTS, avgdl)
        pairs = list(zip(got.numbers.tolist(), got.blocks.tolist()))
        assert pairs == sorted(set(pairs))  # one entry per term and block, in order
        assert sorted(set(got.numbers.tolist())) == list(range(len(got.terms)))  # no term without an entry


def test_no_rows_or_no_tokens_give_empty_arrays_and_fractional_weights_none() -> None:
    for rows in ([], [(1, ("", " ", ""))]):
        got = block_values(rows, BM25_WEIGHTS, 3.0)
        assert got is not None and got.terms == [] and len(got) == 0 and got.as_dict() == {}
    assert block_values([(1, ("a", "", ""))], (2.5, 2.0, 1.0), 3.0) is None
    assert block_values([(1, ("a", "", ""))], (3.0, 2.0, 0.0), 3.0) is None


def _folded(pending: PendingMaxima) -> list[tuple[int, bytes, bytes]]:
    return [r for rows in pending.folds() for r in rows.rows]


def test_held_arrays_fold_into_the_rows_the_dicts_fold_into() -> None:
    rng = random.Random(5)
    by_dict, by_values = PendingMaxima(1 << 30), PendingMaxima(1 << 30)
    start = 0
    for _ in range(6):  # batches in rowid order, sharing terms, some in a later part (65,536 rowids)
        rows = _rows(rng, rng.randrange(50, 300), start, shuffle=False)
        start += len(rows) + rng.choice([0, 0, 70_000])
        assert by_dict.hold(block_maxima(rows, BM25_WEIGHTS, 9.0))
        values = block_values(rows, BM25_WEIGHTS, 9.0)
        assert values is not None and by_values.hold_values(values)
    assert by_values.size == by_dict.size > 0 and by_values.terms == by_dict.terms
    want = _folded(by_dict)
    assert len(want) > len({k >> 22 for k, _, _ in want})  # terms in more than one part
    assert _folded(by_values) == want


def test_a_block_past_the_tables_range_is_not_held() -> None:
    pending = PendingMaxima()
    outside = BlockValues(["a", "b"], np.array([0, 1]), np.array([5, 1 << 32]), np.array([9, 9], dtype=np.uint8))
    assert not pending.hold_values(outside)
    assert pending.size == 0 and pending.terms == 0
    assert pending.hold_values(BlockValues([], np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.uint8)))
    assert pending.size == 0


def _chunk(i: int, text: str) -> Chunk:
    return Chunk(id=f"r:f{i % 3}.py:c{i}", repo="r", product="r", file=f"f{i % 3}.py", language="python",
                 kind="function", name=f"getValue{i % 7}", fqn=f"pkg.mod.getValue{i % 7}", parent=None, start_line=1,
                 end_line=2, text=text, checksum=f"{i:08x}")


def test_prepared_chunks_as_values_hold_the_same_maxima() -> None:
    rng = random.Random(11)
    words = ["self", "return", "get_value", "HTTPServer", "x.y", "a", "z9"]
    chunks = [_chunk(i, " ".join(rng.choices(words, k=rng.randrange(1, 30)))) for i in range(200)]
    plain = prepare_chunks(chunks, 60, None, BM25_WEIGHTS)
    ahead = prepare_chunks(chunks, 60, None, BM25_WEIGHTS, as_values=True)
    assert plain.values is None and ahead.maxima == {} and ahead.values is not None
    assert (ahead.analysed, ahead.reference, ahead.keys) == (plain.analysed, plain.reference, plain.keys)
    assert ahead.values.as_dict() == plain.maxima
    assert {"getvalue3", "pkg.mod.getvalue3", "value3", "httpserver", "server", "x.y"} <= plain.maxima.keys()
    assert set(plain.maxima["getvalue3"]) == {(60 + i) >> 6 for i in range(200) if i % 7 == 3} == {0, 1, 2, 3, 4}
    taken = ahead.take_values()
    assert isinstance(taken, BlockValues) and ahead.values is None and ahead.take_values() == {}
    again = prepare_chunks(chunks, 60, None, BM25_WEIGHTS, as_values=True)
    again.maxima_dict()
    assert again.values is None and again.maxima == plain.maxima
    fractional = prepare_chunks(chunks, 60, None, (2.5, 2.0, 1.0), as_values=True)
    assert fractional.values is None and fractional.maxima == block_maxima(plain.analysed, (2.5, 2.0, 1.0), plain.reference)


def test_added_arrays_give_the_table_added_dicts_give_and_a_far_block_raises_after_a_fold() -> None:
    from tests.unit.test_bm25_pending import BATCHES, _conn, _table

    by_dict, by_values = _conn(), _conn()
    dicts, arrays = PendingMaxima(), PendingMaxima()
    for rows in BATCHES:
        dicts.add(by_dict, block_maxima(rows, BM25_WEIGHTS, 2.0))
        values = block_values(rows, BM25_WEIGHTS, 2.0)
        assert values is not None
        arrays.add_values(by_values, values)
    assert _table(by_values) == [] and arrays.size == dicts.size == 13
    dicts.flush(by_dict)
    arrays.flush(by_values)
    assert _table(by_values) == _table(by_dict) != []
    far = BlockValues(["ok"], np.array([0]), np.array([1 << 32]), np.array([7], dtype=np.uint8))
    arrays.add_values(by_values, BlockValues(["ok"], np.array([0]), np.array([5]), np.array([9], dtype=np.uint8)))
    with pytest.raises(ValueError, match="outside"):
        arrays.add_values(by_values, far)
    assert ("ok", 0, [5], [9]) in _table(by_values)  # what was held is folded first
    assert arrays.size == 0
