"""The block maxima computed the fast way (whole weights: one ``Counter`` per row, one ``q`` per
distinct frequency, one dict per block; :func:`stores.bm25_blocks.merge` joining blobs when the new
blocks come after the old) equal the values of the definition, row by row and block by block."""

from __future__ import annotations

import random

import numpy as np

from stores.bm25_blocks import BLOCK_SHIFT, block_maxima, merge, quantise, row_ratios
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


def _blobs(d: dict[int, int]) -> tuple[bytes, bytes]:
    blocks = sorted(d)
    return np.array(blocks, dtype="<u4").tobytes(), bytes(d[b] for b in blocks)


def test_merge_joins_after_the_old_blocks_and_merges_anywhere_else() -> None:
    rng = random.Random(3)
    for _ in range(300):
        old = {b: rng.randrange(1, 256) for b in rng.sample(range(60), rng.randrange(1, 12))}
        low = rng.choice([0, min(old), max(old), max(old) + 1, max(old) + 9])  # before, inside, boundary, after
        new = {b: rng.randrange(1, 256) for b in rng.sample(range(low, low + 30), rng.randrange(0, 8))}
        want = dict(old)
        for b, q in new.items():
            want[b] = max(want.get(b, 0), q)
        assert merge(_blobs(old), new) == _blobs(want)
        assert merge(None, new) == _blobs(new)
    # the boundary block keeps the larger value, either way
    assert merge(_blobs({1: 9, 4: 200}), {4: 100, 7: 5}) == _blobs({1: 9, 4: 200, 7: 5})
    assert merge(_blobs({1: 9, 4: 100}), {4: 200}) == _blobs({1: 9, 4: 200})
    assert merge(_blobs({1: 9}), {}) == _blobs({1: 9})
