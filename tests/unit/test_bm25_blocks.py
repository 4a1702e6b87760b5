"""Block-max bounds of BM25 (:mod:`stores.bm25_blocks`): their values, that they stay upper bounds as the
index changes (deletes, the mean row length moving either way), the cut skipping blocks with FTS5's own
top k as the answer, the schema 6 -> 8 migration, the rows' encoding."""

from __future__ import annotations

import math
import random
import sqlite3
from pathlib import Path

import numpy as np
import pytest

import stores.embedded_lexical as embedded_lexical
from stores.analyzer import analyze_joined
from stores.bm25_blocks import (BLOCK_SHIFT, CREATE_TABLE, REFERENCE_KEY, TABLE, record_rows, best_blocks, block_bounds, block_maxima,
                                decode_blocks, encode_offsets, row_key, term_key, term_rows,
                                fts_averages, merge, passing_blocks, quantise, read_bounds, row_ratios, scale,
                                sqlite_varints)
from stores.contracts import Chunk, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore
from stores.embedded_lexical import BM25_WEIGHTS
from stores.embedded_schema import SCHEMA_VERSION, chunk_texts
from tests.bm25_spies import plain_bm25
from tests.hostile.test_hostile_stores_cli import read_only
from tests.unit.test_bm25_exact import as_schema_6

# -- the pure parts ------------------------------------------------------------------------------------


def test_row_ratios_are_fts5s_factor_with_weighted_frequency_and_row_length() -> None:
    # name 'foo', fqn 'foo.bar foo bar', text 'x foo y': D = 7 tokens; f(foo) = 3 + 2 + 1 = 6
    # k1 (1 - b + b D / A) at A = 4: 1.2 x (0.25 + 0.75 x 7 / 4) = 1.875
    got = row_ratios(["foo", "foo.bar foo bar", "x foo y"], BM25_WEIGHTS, 4.0)
    assert got == pytest.approx({"foo": 6 / 7.875, "foo.bar": 2 / 3.875, "bar": 2 / 3.875, "x": 1 / 2.875,
                                 "y": 1 / 2.875}, rel=1e-15)
    assert got["foo"] == pytest.approx(16 / 21, rel=1e-15)
    assert row_ratios(["", "", ""], BM25_WEIGHTS, 4.0) == {}


def test_quantise_rounds_up_to_a_byte() -> None:
    assert [quantise(x) for x in (16 / 21, 16 / 31, 8 / 23)] == [195, 132, 89]
    assert quantise(0.0) == 0
    assert quantise(1.0) == 255
    assert quantise(2 / 255) == 3  # exactly on a step: the margin rounds up, never down
    for x in np.linspace(0.001, 0.999, 997):
        assert quantise(float(x)) / 255 >= x


def test_block_maxima_of_a_small_fixture() -> None:
    rows = [(1, ("foo", "foo.bar foo bar", "x foo y")),  # block 0
            (63, ("bar", "", "bar bar")),                # block 0: bar 5 / (5 + 1.2 (0.25 + 0.75 x 3 / 4))
            (64, ("x", "", "")),                         # block 1
            (200, ("", "", "foo"))]                      # block 3
    got = block_maxima(rows, BM25_WEIGHTS, 4.0)
    assert got == {"foo": {0: 195, 3: quantise(1 / (1 + 1.2 * (0.25 + 0.75 / 4)))},
                   "foo.bar": {0: 132}, "bar": {0: quantise(5 / (5 + 1.2 * (0.25 + 0.75 * 3 / 4)))},
                   "x": {0: 89, 1: quantise(3 / (3 + 1.2 * (0.25 + 0.75 / 4)))}, "y": {0: 89}}
    assert got["bar"][0] == 214 and got["foo"][3] == 168 and got["x"][1] == 218


def test_merge_takes_the_union_of_the_blocks_and_the_larger_value() -> None:
    blocks, maxima = merge(None, {5: 10, 2: 200}, 0)
    assert decode_blocks(blocks, 0).tolist() == [2, 5] and list(maxima) == [200, 10]
    blocks, maxima = merge((blocks, maxima), {5: 30, 2: 100, 9: 1}, 0)
    assert decode_blocks(blocks, 0).tolist() == [2, 5, 9] and list(maxima) == [200, 30, 1]
    blocks, maxima = merge(None, {2050: 4, 3000: 6}, 2)  # part 2: offsets 2 and 952
    assert blocks == bytes([2, 0xB6, 0x07]) and decode_blocks(blocks, 2).tolist() == [2050, 3000]


def test_block_bounds_sum_the_terms_and_skip_below_theta() -> None:
    found = {"a": (np.array([0, 2, 3], np.uint32), np.array([255, 51, 102], np.uint8)),
             "b": (np.array([2, 5], np.uint32), np.array([255, 255], np.uint8))}
    blocks, maxima = block_bounds(found, {"a": 2.0, "b": 1.0}, 1.0)
    assert blocks.tolist() == [0, 2, 3, 5]
    assert maxima == pytest.approx([2.0, 0.4 + 1.0, 0.8, 1.0])
    assert passing_blocks(blocks, maxima, 1.0).tolist() == [0, 2, 5]
    assert passing_blocks(blocks, maxima, 1.5).tolist() == [0]
    assert best_blocks(blocks, maxima, 2).tolist() == [0, 2]
    assert best_blocks(blocks, maxima, 3).tolist() == [0, 2, 5]  # block 5's 1.0 before block 3's 0.8
    # the mean row length grew past the reference (s = 0.5): values double, capped at 1
    blocks, maxima = block_bounds(found, {"a": 2.0, "b": 1.0}, 0.5)
    assert maxima == pytest.approx([2.0, 0.8 + 1.0, 1.6, 1.0])


def test_scale_only_below_one_when_the_mean_grew() -> None:
    assert scale(10.0, 20.0) == 0.5
    assert scale(10.0, 10.0) == 1.0
    assert scale(10.0, 5.0) == 1.0


def test_sqlite_varints_read_one_to_nine_bytes_and_refuse_a_truncated_one() -> None:
    assert sqlite_varints(b"") == []
    assert sqlite_varints(b"\x00\x7f\x81\x00\x86\x8d\x20") == [0, 127, 128, 100_000]
    assert sqlite_varints(b"\xff" * 8 + b"\xff") == [2**64 - 1]  # the ninth byte gives all 8 bits
    with pytest.raises(ValueError, match="truncated"):
        sqlite_varints(b"\x05\x81")


def test_fts_averages_reads_the_row_count_and_the_token_totals() -> None:
    assert fts_averages(bytes([0x86, 0x8D, 0x20]) + b"\x05\x7f\x81\x00") == (100_000, 5 + 127 + 128)
    for bad in (b"", b"\x80"):
        with pytest.raises(ValueError):
            fts_averages(bad)


@pytest.mark.parametrize("factor", [0.5, 0.8, 1.0, 1.25, 2.0, 4.0])
def test_a_stored_value_bounds_the_row_at_any_later_mean_length(factor: float) -> None:
    """Stored at A = 10, used at A' = factor x A: min(1, q / 255 / s) >= the row's factor at A', for
    rows of every length; and for A' > A the unscaled value would not be a bound (a negative case)."""
    reference = 10.0
    later = reference * factor
    s = scale(reference, later)
    beaten = 0
    for length in range(1, 80):
        for f in (1, 2, 3, 5, 8, 13):
            x_ref = f / (f + 1.2 * (0.25 + 0.75 * length / reference))
            x_now = f / (f + 1.2 * (0.25 + 0.75 * length / later))
            q = quantise(x_ref)
            assert min(1.0, q / 255 / s) >= x_now
            beaten += q / 255 < x_now
    assert (beaten > 0) == (factor > 1.0)  # only a grown mean needs the division by s


# -- the store -----------------------------------------------------------------------------------------

_COMMON = ["value", "data", "item", "self", "return", "list"]


def _file(i: int, text: str, name: str | None = None) -> IndexedFile:
    key = name or f"k{i:04d}"
    path = f"{key}.py"
    node = Node(f"r:{path}:{key}()", "Function", key, key, "r", path, 1, 0, 2, 0, {"language": "python"})
    chunk = Chunk(node.id, "r", "r", path, "python", "function", key, node.id, None, 1, 2, text, f"{i:064d}")
    return IndexedFile(FileRecord("r", path, "python", f"{i:064d}", len(text)), [node], [], [], [chunk])


def _corpus(n: int = 640, seed: int = 5) -> list[IndexedFile]:
    """n chunks: common words everywhere; 'parser' in one chunk in five; 'socket' in one in three."""
    rng = random.Random(seed)
    files = []
    for i in range(n):
        words = [rng.choice(_COMMON) for _ in range(rng.randint(3, 30))]
        if i % 5 == 0:
            words += ["parser"] * rng.randint(1, 3)
        if i % 3 == 0:
            words += ["socket"] * rng.randint(1, 2)
        rng.shuffle(words)
        files.append(_file(i, " ".join(words)))
    return files


def _true_ratios(store: EmbeddedStore) -> tuple[dict[int, dict[str, float]], float]:
    """Every row's factor ``x`` per term at the table's mean length now, from the chunk rows (as indexed)."""
    db = store._db
    rows, tokens = fts_averages(db.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()[0])
    avgdl = tokens / rows
    out = {}
    for rowid, name, fqn, text in chunk_texts(db, "1", (), "c.rowid, c.name, coalesce(c.fqn, (SELECT id FROM ids WHERE nid = c.nid))"):
        out[rowid] = row_ratios([analyze_joined(name), analyze_joined(fqn), analyze_joined(text)], BM25_WEIGHTS, avgdl)
    return out, avgdl


def _assert_bounds_hold(store: EmbeddedStore) -> int:
    """Every (row, term) factor now is at most its block's stored value, scaled as the cut scales it;
    returns the (row, term) pairs checked."""
    ratios, avgdl = _true_ratios(store)
    terms = sorted({t for r in ratios.values() for t in r})
    reference, found = read_bounds(store._db, terms)
    s = scale(reference, avgdl)
    checked = 0
    for rowid, per in ratios.items():
        for term, x in per.items():
            blocks, maxima = found[term]
            i = int(np.searchsorted(blocks, rowid >> BLOCK_SHIFT))
            assert blocks[i] == rowid >> BLOCK_SHIFT, (term, rowid)
            assert min(1.0, maxima[i] / 255 / s) >= x * (1 - 1e-12), (term, rowid)
            checked += 1
    return checked


def _record_blocks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None, list[int] | None]]:
    calls: list[tuple[str, str | None, list[int] | None]] = []
    rows = embedded_lexical.EmbeddedLexical._bm25_rows

    def spy(self, db, match, only, where, params, limit, blocks=None):  # type: ignore[no-untyped-def]
        calls.append((match, only, None if blocks is None else list(blocks)))
        return rows(self, db, match, only, where, params, limit, blocks)

    monkeypatch.setattr(EmbeddedStore, "_bm25_rows", spy)
    return calls


def test_the_stored_maxima_are_the_rows_factors_at_the_reference(tmp_path: Path) -> None:
    with EmbeddedStore(tmp_path / "i.db") as store:
        files = _corpus(200)
        store.replace_files(files)
        reference = float(store._db.execute("SELECT value FROM meta WHERE key = ?", (REFERENCE_KEY,)).fetchone()[0])
        columns = [(i + 1, (analyze_joined(f.chunks[0].name), analyze_joined(f.chunks[0].fqn),
                            analyze_joined(f.chunks[0].text))) for i, f in enumerate(files)]
        assert reference == sum(len(v.split()) for _, cols in columns for v in cols) / 200  # the first batch's mean
        want = block_maxima(columns, BM25_WEIGHTS, reference)
        _, found = read_bounds(store._db, ["parser", "socket", "value"])
        for term in ("parser", "socket", "value"):
            blocks, maxima = found[term]
            assert dict(zip(blocks.tolist(), maxima.tolist())) == want[term]
        assert found["parser"][0].tolist() == [0, 1, 2, 3]  # rowids 1..200 -> blocks 0..3
        # parser's bound in block 0: its best row there, by hand from the row's own tokens
        best = max(row_ratios(cols, BM25_WEIGHTS, reference).get("parser", 0) for rowid, cols in columns if rowid < 64)
        assert found["parser"][1][0] == math.ceil(best * 255 * (1 + 1e-9))


def test_bounds_stay_valid_after_a_delete_and_as_the_mean_length_moves_both_ways(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 2)
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files(_corpus(640))
        reference = float(store._db.execute("SELECT value FROM meta WHERE key = ?", (REFERENCE_KEY,)).fetchone()[0])
        assert _assert_bounds_hold(store) > 0
        before = store._db.execute(f"SELECT key, blocks, maxima FROM {TABLE} ORDER BY key").fetchall()
        # delete a third of the chunks: the table keeps its values (still bounds)
        store.delete_files("r", [f"k{i:04d}.py" for i in range(0, 640, 3)])
        assert store._db.execute(f"SELECT key, blocks, maxima FROM {TABLE} ORDER BY key").fetchall() == before
        _assert_bounds_hold(store)
        # long chunks: the mean grows past the reference (the cut divides by s)
        store.replace_files([_file(1000 + i, " ".join(["value", "data"] * 200 + ["parser"])) for i in range(100)])
        _, avgdl = _true_ratios(store)
        assert avgdl > 2 * reference
        assert _assert_bounds_hold(store) > 0
        for query in ("parser socket", "parser value data", "socket list"):
            for limit in (5, 20):
                got = store.bm25(query, limit)
                assert [(h.chunk_id, h.score) for h in got] == [
                    (h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, query, limit)]
    with EmbeddedStore(tmp_path / "j.db") as store:
        store.replace_files(_corpus(640))
        reference = float(store._db.execute("SELECT value FROM meta WHERE key = ?", (REFERENCE_KEY,)).fetchone()[0])
        # many one-word chunks: the mean falls below the reference (the stored values bound as they are)
        store.replace_files([_file(2000 + i, "socket") for i in range(2000)])
        _, avgdl = _true_ratios(store)
        assert avgdl < reference / 2
        assert _assert_bounds_hold(store) > 0
        for query in ("parser socket", "parser value data"):
            got = store.bm25(query, 10)
            assert [(h.chunk_id, h.score) for h in got] == [
                (h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, query, 10)]


def _skip_fixture() -> list[IndexedFile]:
    """Rowids 1..320 (blocks 0..5 of 64 rowids; block 0 holds 1-63): 'alpha' twice in each of the
    short chunks 1-8 (block 0) and once in every 4th long chunk of blocks 1, 3, 4, 5; 'beta' in chunks
    1-8 and in every long chunk of block 2 (rowids 128-191). Both terms in under half the chunks (none
    pruned); beta (72 chunks) weighs a little less than alpha (64)."""
    files = []
    for i in range(1, 321):
        filler = " ".join(["value"] * 40)
        if i <= 8:
            text = "alpha alpha beta"
        elif 128 <= i < 192:
            text = f"beta {filler}"
        elif i % 4 == 0 and i >= 64:
            text = f"alpha {filler}"
        else:
            text = f"gamma {filler}"
        files.append(_file(i, text))
    return files


def test_the_cut_skips_blocks_below_theta_and_answers_as_fts5(tmp_path: Path, monkeypatch) -> None:
    """'alpha beta' at limit 8: the 8 short chunks of block 0 score highest (4.54 each; any long chunk
    at most 1.51); probing block 0 (the best) finds them, and the final query scores block 0 alone: its
    answer is FTS5's own bm25 top 8 (scoring every match)."""
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 1)
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files(_skip_fixture())
        _, found = read_bounds(store._db, ["alpha", "beta"])
        assert {t: (b.tolist(), m.tolist()) for t, (b, m) in found.items()} == {
            "alpha": ([0, 1, 3, 4, 5], [206, 115, 115, 115, 115]), "beta": ([0, 2], [173, 115])}
        want = plain_bm25(store, monkeypatch, "alpha beta", 8)
        calls = _record_blocks(monkeypatch)
        got = store.bm25("alpha beta", 8)
        assert [(h.chunk_id, h.score) for h in got] == [(h.chunk_id, h.score) for h in want]
        assert [h.chunk_id for h in got] == [f"r:k{i:04d}.py:k{i:04d}()" for i in range(1, 9)]
        assert calls[0] == ('"alpha" OR "beta"', None, [0])  # the probe: the best block
        assert len(calls) == 2 and calls[1][2] == [0]  # the final query: block 0 alone, blocks 1-5 skipped
        plain = store._db.execute("SELECT rowid, bm25(chunks_fts, 3.0, 2.0, 1.0) FROM chunks_fts WHERE chunks_fts"
                                  " MATCH '\"alpha\" OR \"beta\"' ORDER BY 2, rowid").fetchall()
        assert [r for r, _ in plain[:8]] == list(range(1, 9))
        assert round(-plain[0][1], 6) == 4.541506 and round(-plain[8][1], 6) == 1.509529 and plain[8][0] == 64


def test_a_block_holding_a_top_row_is_never_skipped(tmp_path: Path, monkeypatch) -> None:
    """Negative case: at limit 12 the 9th-12th best rows are block 1's (alpha in long chunks 64-76; the
    same score in blocks 3-5, ties by chunk id). Probing blocks 0 and 1 gives theta = that score; block
    2 (beta's long chunks, below theta) is skipped, blocks 1, 3, 4, 5 are not (their maxima reach
    theta). Dropping block 1 from the passing blocks changes the answer: the comparison catches it."""
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 2)
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files(_skip_fixture())
        want = plain_bm25(store, monkeypatch, "alpha beta", 12)
        assert [h.chunk_id for h in want[8:]] == [f"r:k{i:04d}.py:k{i:04d}()" for i in (64, 68, 72, 76)]
        calls = _record_blocks(monkeypatch)
        got = store.bm25("alpha beta", 12)
        assert [(h.chunk_id, h.score) for h in got] == [(h.chunk_id, h.score) for h in want]
        assert calls[0][2] == [0, 1]
        assert calls[-1][2] == [0, 1, 3, 4, 5]
        real = embedded_lexical.passing_blocks
        monkeypatch.setattr(embedded_lexical, "passing_blocks", lambda b, m, t: real(b, m, t)[real(b, m, t) != 1])
        wrong = store.bm25("alpha beta", 12)
        assert [h.chunk_id for h in wrong] != [h.chunk_id for h in want]


def test_a_one_term_query_takes_the_cut_through_the_blocks(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 1)
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files(_skip_fixture())
        want = plain_bm25(store, monkeypatch, "alpha", 8)
        calls = _record_blocks(monkeypatch)
        got = store.bm25("alpha", 8)
        assert [(h.chunk_id, h.score) for h in got] == [(h.chunk_id, h.score) for h in want]
        assert calls == [('"alpha"', None, [0]), ('"alpha"', None, [0])]
        calls.clear()
        store.bm25("alpha", 9)  # the 9th needs the long chunks: the probe of block 0 finds 8, no cut
        assert calls == [('"alpha"', None, [0]), ('"alpha"', None, None)]


def test_a_schema_6_index_is_migrated_at_a_writable_open_and_read_as_is_read_only(tmp_path: Path,
                                                                                monkeypatch) -> None:
    db = tmp_path / "i.db"
    with EmbeddedStore(db) as store:
        store.replace_files(_corpus(300))
        store.delete_files("r", ["k0007.py"])
        answers = {q: [(h.chunk_id, h.score) for h in store.bm25(q, 10)] for q in ("parser socket", "socket value")}
    as_schema_6(db)
    with read_only(db), EmbeddedStore(db) as store:
        assert store.read_only
        assert read_bounds(store._db, ["parser"]) is None  # not migrated: no block maxima
        for q, want in answers.items():
            assert [(h.chunk_id, h.score) for h in store.bm25(q, 10)] == want
    with EmbeddedStore(db) as store:
        conn = store._db
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
        rows, tokens = fts_averages(conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()[0])
        reference = float(conn.execute("SELECT value FROM meta WHERE key = ?", (REFERENCE_KEY,)).fetchone()[0])
        assert (rows, reference) == (299, tokens / rows)  # the migration's reference: the mean at that time
        assert _assert_bounds_hold(store) > 0
        # the migrated table is what the write path computes from the same rows at that reference
        columns = [(rowid, (analyze_joined(name), analyze_joined(fqn), analyze_joined(text))) for rowid, name, fqn, text
                   in chunk_texts(conn, "1", (), "c.rowid, c.name, coalesce(c.fqn, (SELECT id FROM ids WHERE nid = c.nid))")]
        want = block_maxima(columns, BM25_WEIGHTS, reference)
        _, found = read_bounds(conn, ["parser", "socket"])
        for term in ("parser", "socket"):
            assert dict(zip(found[term][0].tolist(), found[term][1].tolist())) == want[term]
        for q, want_hits in answers.items():
            assert [(h.chunk_id, h.score) for h in store.bm25(q, 10)] == want_hits


def test_a_terms_blocks_are_kept_in_parts_of_1024_blocks_and_read_back_whole() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
    conn.execute(CREATE_TABLE)
    record_rows(conn, [(1, ("foo", "", "")), (70_000, ("", "", "foo bar"))], BM25_WEIGHTS)
    assert conn.execute(f"SELECT key, length(blocks), length(maxima) FROM {TABLE} ORDER BY key").fetchall() == sorted(
        [(row_key("bar", 1), 1, 1), (row_key("foo", 0), 1, 1), (row_key("foo", 1), 1, 1)])  # 1093 - 1024 = 69: 1 byte
    record_rows(conn, [(70_001, ("foo", "", ""))], BM25_WEIGHTS)  # raises block 1093 of part 1 only
    reference, found = read_bounds(conn, ["foo", "bar", "none"])
    assert reference == 1.5  # the first write's mean row length: (1 + 2) / 2
    x = row_ratios(["foo", "", ""], BM25_WEIGHTS, 1.5)["foo"]
    assert found["foo"][0].tolist() == [0, 70_000 >> BLOCK_SHIFT]
    assert found["foo"][1].tolist() == [quantise(x), quantise(x)]
    assert sorted(found) == ["bar", "foo"]
    assert term_rows(conn, ["foo", "bar", "none"]) == [("bar", 1, [1093], [found["bar"][1][0]]),
                                                       ("foo", 0, [0], [quantise(x)]), ("foo", 1, [1093], [quantise(x)])]


def test_block_offsets_are_varint_differences_and_a_damaged_list_raises() -> None:
    blob = encode_offsets(np.array([0, 5, 127, 255, 1023]))
    assert blob == bytes([0, 5, 122, 0x80, 1, 0x80, 6])  # 0, +5, +122, +128 (2 bytes), +768 (2 bytes)
    assert decode_blocks(blob, 0).tolist() == [0, 5, 127, 255, 1023]
    assert decode_blocks(blob, 3).tolist() == [3072, 3077, 3199, 3327, 4095]  # part 3's blocks
    assert encode_offsets(np.array([], dtype=np.int64)) == b"" and decode_blocks(b"", 2).tolist() == []
    for bad in (b"\x80", b"\x05\x81", b"\x81\x81\x01"):  # truncated; three bytes
        with pytest.raises(ValueError, match="damaged"):
            decode_blocks(bad, 0)
    assert term_key("foo") == term_key("foo") != term_key("fop") and 0 <= term_key("\ud800x") < 1 << 41
    assert row_key("foo", 0) >> 22 == term_key("foo") and row_key("foo", 7) == row_key("foo", 0) | 7


@pytest.mark.parametrize("damage", ["truncated", "fewer maxima"])
def test_a_damaged_row_is_not_used_and_the_answer_stays_exact(tmp_path: Path, monkeypatch, caplog, damage) -> None:
    """A row whose varints are cut short, or whose maxima are fewer than its blocks, raises in
    ``read_bounds``; a search then ranks without block maxima (logged), with the same answer."""
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files(_corpus(300))
        want = [(h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, "parser socket", 10)]
        key = row_key("parser", 0)
        blocks, maxima = store._db.execute(f"SELECT blocks, maxima FROM {TABLE} WHERE key = ?", (key,)).fetchone()
        bad = (blocks + b"\x80", maxima) if damage == "truncated" else (blocks, maxima[:-1])
        store._db.execute(f"UPDATE {TABLE} SET blocks = ?, maxima = ? WHERE key = ?", (*bad, key))
        store._db.commit()
        with pytest.raises(ValueError, match="damaged"):
            read_bounds(store._db, ["parser"])
        with caplog.at_level("WARNING", logger="stores.embedded_lexical"):
            assert [(h.chunk_id, h.score) for h in store.bm25("parser socket", 10)] == want
        assert "BM25 block maxima not used" in caplog.text
