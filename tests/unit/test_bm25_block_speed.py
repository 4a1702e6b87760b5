"""The block maxima computed the fast way (whole weights: one ``Counter`` per row, one ``q`` per
distinct frequency, one dict per block) equal the values of the definition, row by row and block by
block; :func:`stores.bm25_blocks.merge` gives the union of any two rows' blocks, a fold of held maxima
(:mod:`stores.bm25_pending`, all rows' varints at once) the same rows as folding them one by one."""

from __future__ import annotations

import random

import numpy as np

from stores.bm25_blocks import BLOCK_SHIFT, CREATE_TABLE, TABLE, block_maxima, encode_offsets, fold_maxima, merge, quantise, row_ratios
from stores.bm25_pending import PendingMaxima
from stores.embedded_lexical import BM25_WEIGHTS

_WORDS = ["a", "b", "c", "d", "self", "x.y", "x", "y", "get_value", "get", "value", "0", "z9"]


def _reference(rows, weights, avgdl) -> dict[str, dict[int, int]]:
    """The definition: per row :func:`row_ratios`, :func:`quantise`, the largest per term and block."""
    out: dict[str, dict[int, int]] = {}
    for rowid, columns in rows:
        for term, x in row_ratios(columns, weights, avgdl).items():
            per = out.setdefault(term, {})
            per[rowid >> BLOCK_SHIFT] = max(per.get(rowid >> BLOCK_SHIFT, 0), quantise(x))
    return out


def _rows(rng: random.Random, count: int, start: int, shuffle: bool) -> list[tuple[int, tuple[str, str, str]]]:
    rows = []
    for rowid in range(start, start + count):
        cols = tuple(" ".join(rng.choices(_WORDS, k=rng.choice([0, 0, 1, 3, 8, 40]))) for _ in range(3))
        if rng.random() < 0.05:
            cols = (" ", "", "  ")  # values with no token: the row holds no term
        rows.append((rowid, cols))
    if shuffle:
        rng.shuffle(rows)  # rows of one block apart: their maxima still meet
    return rows


def test_whole_weights_give_the_definitions_values() -> None:
    rng = random.Random(34)
    for case in range(60):
        rows = _rows(rng, rng.randrange(1, 400), rng.randrange(0, 5000), shuffle=case % 3 == 0)
        avgdl = rng.choice([1.0, 7.5, 30.0, 123.25])
        got = block_maxima(rows, BM25_WEIGHTS, avgdl)
        assert got == _reference(rows, BM25_WEIGHTS, avgdl)
        for per in got.values():  # blocks in ascending order when the rows are
            assert case % 3 == 0 or list(per) == sorted(per)


def test_fractional_weights_take_the_row_by_row_path_with_the_same_values() -> None:
    rng = random.Random(7)
    rows = _rows(rng, 300, 10, shuffle=False)
    for weights in [(2.5, 2.0, 1.0), (3.0, 0.5, 1.0), (3.0, 2.0, 1.0)]:
        assert block_maxima(rows, weights, 12.0) == _reference(rows, weights, 12.0)
    # one small fixture worked out by hand, whole weights: name 'a' x 3 + text 'a a' = 5, D = 3
    q = quantise(5 / (5 + 1.2 * (0.25 + 0.75 * 3 / 2.0)))
    assert block_maxima([(64, ("a", "", "a a")), (65, ("", "", "b"))], BM25_WEIGHTS, 2.0) == {
        "a": {1: q}, "b": {1: quantise(1 / (1 + 1.2 * (0.25 + 0.75 / 2.0)))}}
    assert q == 192  # 5 / 6.65 = 0.7519 x 255 = 191.7, rounded up


def _blobs(d: dict[int, int], part: int = 0) -> tuple[bytes, bytes]:
    blocks = sorted(d)
    return encode_offsets(np.array(blocks, dtype=np.int64) - (part << 10)), bytes(d[b] for b in blocks)


def test_merge_gives_the_union_before_inside_and_after_the_old_blocks() -> None:
    rng = random.Random(3)
    for _ in range(300):
        part = rng.choice([0, 1, 5])
        base = part << 10
        old = {base + b: rng.randrange(1, 256) for b in rng.sample(range(1000), rng.randrange(1, 12))}
        low = rng.choice([base, min(old), max(old), min(max(old) + 1, base + 990)])  # before, inside, boundary, after
        new = {b: rng.randrange(1, 256) for b in rng.sample(range(low, min(low + 30, base + 1024)), rng.randrange(0, 8))}
        want = dict(old)
        for b, q in new.items():
            want[b] = max(want.get(b, 0), q)
        assert merge(_blobs(old, part), new, part) == _blobs(want, part)
        assert merge(None, new, part) == _blobs(new, part)
    # the shared block keeps the larger value, either way
    assert merge(_blobs({1: 9, 4: 200}), {4: 100, 7: 5}, 0) == _blobs({1: 9, 4: 200, 7: 5})
    assert merge(_blobs({1: 9, 4: 100}), {4: 200}, 0) == _blobs({1: 9, 4: 200})
    assert merge(_blobs({1: 9}), {}, 0) == _blobs({1: 9})


def test_a_held_fold_writes_the_rows_folding_one_by_one_writes() -> None:
    """Random maxima over many terms, parts and block gaps (1- and 2-byte varints) held and folded at once
    (the fold's vectorised encoding) give the same table bytes as :func:`fold_maxima` term by term."""
    import sqlite3
    rng = random.Random(11)
    for _ in range(20):
        conns = [sqlite3.connect(":memory:") for _ in range(2)]
        for conn in conns:
            conn.execute(CREATE_TABLE)
        pending = PendingMaxima()
        for _batch in range(rng.randrange(1, 4)):
            maxima = {f"t{rng.randrange(60)}": {rng.choice([rng.randrange(3000), rng.randrange(1 << 20)]): rng.randrange(1, 256)
                                                for _ in range(rng.randrange(1, 30))} for _ in range(rng.randrange(1, 40))}
            for term, per in maxima.items():
                fold_maxima(conns[0], {term: per})
            pending.add(conns[1], maxima)
        pending.flush(conns[1])
        rows = [c.execute(f"SELECT key, blocks, maxima FROM {TABLE} ORDER BY key").fetchall() for c in conns]
        assert rows[0] == rows[1] and rows[0]
