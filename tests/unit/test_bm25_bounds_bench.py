"""bench/bm25_bounds.py: the per-row BM25 contributions it derives are FTS5's, and the rows each bound keeps."""

from __future__ import annotations

import math
import sqlite3

import numpy as np
import pytest

from bench.bm25_bounds import ratio, rows_kept, varints
from stores.bm25_cut import term_bound


def _postings() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    return {"a": (np.array([0, 1, 5]), np.array([0.5, 0.9, 0.2])),
            "b": (np.array([1, 4, 5]), np.array([0.4, 1.0, 0.3]))}


def test_rows_kept_per_bound_exact_counts() -> None:
    # row sums at theta 1.7, idf a = 2, b = 1:
    #   idf:        r0 2.0, r1 3.0, r4 1.0, r5 3.0                    -> 3 rows
    #   maxf/mindl: a 2 x 3/(3 + 1.2 x 0.625) = 1.6, b 1/2.2: r0 1.6 (out), r1 and r5 2.05 -> 2
    #   term-max:   a 1.8, b 1.0: r0 1.8, r1 2.8, r5 2.8              -> 3
    #   row:        r0 1.0, r1 2.2, r4 1.0, r5 0.7                    -> 1
    #   block-2:    block 0 (rows 0-1): a .9, b .4; block 2 (4-5): a .2, b 1.0: r0 1.8, r1 2.2, r5 1.4 -> 2
    #   blocks-of-2: block sums 2.2 and 1.4: rows of block 0 reaching 1.7 by idf -> 2
    kept = rows_kept(_postings(), {"a": 2.0, "b": 1.0}, 1.7, [2], {"a": (3.0, 10.0), "b": (1.0, 20.0)}, 20.0)
    assert kept == {"idf": 3, "maxf/mindl": 2, "term-max": 3, "row": 1, "block-2": 2, "blocks-of-2": 2}


def test_rows_kept_without_lengths_and_above_every_sum() -> None:
    kept = rows_kept(_postings(), {"a": 2.0, "b": 1.0}, 3.01, [1, 4])
    assert "maxf/mindl" not in kept
    assert set(kept.values()) == {0}  # no row's bound reaches 3.01 (the best, today's, is 3.0)
    # block size 1 is the row itself
    at_one = rows_kept(_postings(), {"a": 2.0, "b": 1.0}, 0.95, [1])
    assert at_one["block-1"] == at_one["row"] == 3  # r0 1.0, r1 2.2, r4 1.0; not r5 (0.7)


def test_ratio_and_docsize_give_fts5s_own_bm25() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(name, fqn, text, content='')")
    rows = [("get", "a.get", "get the value get"), ("put", "a.put", "put it then get it back"),
            ("other", "b.other", "nothing here"), ("get_all", "b.get_all", "get")]
    rows += [(f"x{i}", f"c.x{i}", "filler " * i) for i in range(6)]  # N = 10, n = 3: a positive IDF
    conn.executemany("INSERT INTO t (rowid, name, fqn, text) VALUES (?, ?, ?, ?)",
                     [(i + 1, *r) for i, r in enumerate(rows)])
    conn.execute("CREATE VIRTUAL TABLE temp.inst USING fts5vocab(main, t, 'instance')")
    sizes = {rowid: sum(varints(sz)) for rowid, sz in conn.execute("SELECT id, sz FROM t_docsize")}
    averages = varints(conn.execute("SELECT block FROM t_data WHERE id = 1").fetchone()[0])
    avgdl = sum(averages[1:]) / averages[0]
    weight = {"name": 3.0, "fqn": 2.0, "text": 1.0}
    f: dict[int, float] = {}
    for doc, col in conn.execute("SELECT doc, col FROM temp.inst WHERE term = 'get'"):
        f[doc] = f.get(doc, 0.0) + weight[col]
    # default unicode61: "get_all" and "b.get_all" split, so row 4 holds "get" in all three columns
    assert f == {1: 3.0 + 2.0 + 2.0, 2: 1.0, 4: 3.0 + 2.0 + 1.0}
    got = dict(conn.execute("SELECT rowid, -bm25(t, 3.0, 2.0, 1.0) FROM t WHERE t MATCH 'get'").fetchall())
    ids = sorted(f)
    mine = term_bound(len(f), averages[0]) * ratio(np.array([f[i] for i in ids]),
                                                   np.array([sizes[i] for i in ids], dtype=float), avgdl)
    assert sorted(got) == ids
    for i, value in zip(ids, mine.tolist()):
        assert math.isclose(got[i], value, rel_tol=1e-12)
    assert got[1] > got[2]  # and a ratio that ignored the name and fqn weights would not order them so
    with pytest.raises(AssertionError):
        assert math.isclose(got[1], term_bound(3, 10) * ratio(np.array([2.0]), np.array([sizes[1]], dtype=float),
                                                              avgdl)[0], rel_tol=1e-12)
