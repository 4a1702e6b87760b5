"""The exact max-score cut of BM25 (:mod:`stores.bm25_cut`): its bounds and expressions, and the
embedded store's ``bm25`` answering exactly as scoring every match does (same chunks, same scores,
same order, ties at the ``limit`` boundary included) while scoring fewer rows."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

import stores.embedded_lexical as embedded_lexical
from stores.bm25_cut import (by_rarity, candidate_expression, fallback_probes, fts_row_count, kth_best, phrase, probe_expressions,
                             term_bound)
from stores.contracts import Chunk, FileRecord, IndexedFile, Node, SearchFilters
from stores.embedded import EmbeddedStore
from tests.bm25_spies import plain_bm25, record_cuts

# -- the pure parts ------------------------------------------------------------------------------------


def test_term_bound_is_fts5_idf_times_k1_plus_1() -> None:
    assert term_bound(1, 100) == pytest.approx(math.log(99.5 / 1.5) * 2.2, rel=1e-15)
    assert term_bound(0, 10) == pytest.approx(math.log(10.5 / 0.5) * 2.2, rel=1e-15)
    # a term in half the rows or more: FTS5's IDF floor
    assert term_bound(50, 100) == pytest.approx(1e-6 * 2.2)
    assert term_bound(90, 100) == pytest.approx(1e-6 * 2.2)
    assert term_bound(1, 100) > term_bound(2, 100) > term_bound(49, 100) > 0


def test_fts_row_count_reads_the_leading_varint() -> None:
    assert fts_row_count(b"\x00") == 0
    assert fts_row_count(b"\x7f\x05") == 127
    assert fts_row_count(bytes([0x86, 0x8D, 0x20]) + b"\x9e\xd6\x12") == 100_000
    assert fts_row_count(b"\xff" * 8 + b"\x01") == (2**56 - 1) << 8 | 1  # the 9th byte counts 8 bits
    for bad in (b"", b"\x80", b"\xff\xff"):
        with pytest.raises(ValueError):
            fts_row_count(bad)


def test_phrase_quotes_and_by_rarity_orders_by_documents_then_term() -> None:
    assert phrase("a.b") == '"a.b"'
    assert phrase('x"y') == '"x""y"'
    assert by_rarity(["get", "user", "id", "zz"], {"get": 900, "user": 40, "id": 40}) == ["zz", "id", "user", "get"]


def test_kth_best_keeps_each_rows_best_and_counts_distinct_rows() -> None:
    scored = [("a", 3.0), ("b", 5.0), ("a", 4.0), ("c", 4.0), ("d", 1.0)]
    assert kth_best(scored, 1) == 5.0
    assert kth_best(scored, 2) == 4.0  # a's best (4.0) ties c
    assert kth_best(scored, 3) == 4.0
    assert kth_best(scored, 4) == 1.0
    assert kth_best(scored, 5) is None  # four distinct rows only
    assert kth_best([], 1) is None


def test_probe_expressions_or_of_the_rare_head_then_the_longest_ands() -> None:
    docs = {"r1": 3, "r2": 10, "c1": 400, "c2": 900}
    rare = by_rarity(docs, docs)
    assert probe_expressions(rare, docs, 20) == [
        '"r1" OR "r2"', '"r1" AND "r2" AND "c1" AND "c2"', '"r1" AND "r2" AND "c1"']
    assert probe_expressions(rare, docs, 20, ands=1) == ['"r1" OR "r2"', '"r1" AND "r2" AND "c1" AND "c2"']
    # the rarest term alone over budget: ANDs only (down to two terms)
    assert probe_expressions(rare, docs, 2, ands=5) == [
        '"r1" AND "r2" AND "c1" AND "c2"', '"r1" AND "r2" AND "c1"', '"r1" AND "r2"']
    assert probe_expressions(rare, docs, 10_000) == []  # all terms within budget: no probe, the query is as cheap
    assert probe_expressions([], {}, 100) == []


def test_fallback_probes_are_the_ands_without_the_rarest_term() -> None:
    rare = ["get_user_id", "user", "id", "get"]
    assert fallback_probes(rare) == ['"user" AND "id" AND "get"', '"user" AND "id"']
    assert fallback_probes(["a", "b", "c"]) == ['"b" AND "c"']
    assert fallback_probes(["a", "b"]) == []  # one term left: no AND
    assert fallback_probes([]) == []


def test_candidate_expression_names_the_term_sets_that_can_reach_theta() -> None:
    terms, bounds = ["a", "b", "c"], [5.0, 3.0, 2.0]
    # a alone reaches 4; without a, only b and c together (5)
    assert candidate_expression(terms, bounds, 4.0) == '("a") OR ("b" AND ("c"))'
    # 5.5: a needs b or c; b and c together fall short
    assert candidate_expression(terms, bounds, 5.5) == '"a" AND (("b") OR ("c"))'
    assert candidate_expression(terms, bounds, 9.5) == '"a" AND ("b" AND ("c"))'
    # exactly reaching theta keeps the row (a tie may enter the top k)
    assert candidate_expression(terms, bounds, 5.0) == '("a") OR ("b" AND ("c"))'
    # every term alone reaches theta: no cut; nothing can reach it: no cut either (caller scores all)
    assert candidate_expression(terms, bounds, 2.0) is None
    assert candidate_expression(terms, bounds, 10.5) is None


def test_candidate_expression_falls_back_to_the_per_term_cut_when_large() -> None:
    terms = [f"t{i:02d}" for i in range(16)]
    bounds = [1.0] * 16
    # 8 of 16 equal terms: C(16, 8) sets, far over the expression budget; the per-term cut keeps every
    # term whose suffix of bounds still reaches 8 (the first 9), drops the last 7
    assert candidate_expression(terms, bounds, 8.0) == " OR ".join(f'"t{i:02d}"' for i in range(9))


# -- the store: the same answers as scoring every match -----------------------------------------------

_RARE = ["zephyr", "quokka", "nimbus", "fjord", "glyph"]
_MID = ["parser", "socket", "render", "cache", "token", "stream"]
_COMMON = ["value", "data", "item", "self", "return"]


def _doc(i: int, rng: random.Random) -> str:
    words = [rng.choice(_COMMON) for _ in range(rng.randint(3, 12))]
    words += [rng.choice(_MID) for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.08:
        words += [rng.choice(_RARE)] * rng.randint(1, 3)
    rng.shuffle(words)
    return " ".join(words)


def _files(n: int = 400) -> list[IndexedFile]:
    rng = random.Random(7)
    files = []
    for i in range(n):
        path = f"m{i:04d}.{'py' if i % 3 else 'java'}"
        language = "python" if i % 3 else "java"
        # every 25th document repeats the one before (same name, same text): equal scores, ties by id
        repeat = i % 25 == 0 and i > 0
        text = files[-1].chunks[0].text if repeat else _doc(i, rng)
        name = files[-1].chunks[0].name if repeat else f"f{i:04d}"
        node = Node(f"r:{path}:f{i:04d}()", "Function", name, name, "r", path, 1, 0, 2, 0, {"language": language})
        chunk = Chunk(node.id, "r", "r", path, language, "function" if i % 2 else "method", name, node.id, None,
                      1, 2, text, f"{i:064d}")
        files.append(IndexedFile(FileRecord("r", path, language, f"{i:064d}", len(text)), [node], [], [], [chunk]))
    return files


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = EmbeddedStore(tmp_path_factory.mktemp("cut") / "index.db")
    s.replace_files(_files())
    yield s
    s.close()


_QUERIES = [
    "zephyr value", "quokka parser data", "nimbus socket render item self", "fjord glyph cache",
    "zephyr quokka nimbus fjord glyph", "parser socket", "token stream value data item",
    "glyph return self value", "render cache token zephyr", "item data",
]


@pytest.mark.parametrize("budget", [0, 30, 150])
@pytest.mark.parametrize("filters", [None, SearchFilters(language="python"), SearchFilters(kind="method")])
def test_bm25_with_the_cut_answers_exactly_as_scoring_every_match(store: EmbeddedStore, monkeypatch,
                                                                   budget: int, filters) -> None:
    monkeypatch.setattr(embedded_lexical, "_PROBE_BUDGET", budget)
    restricted = record_cuts(monkeypatch)
    for query in _QUERIES:
        for limit in (1, 2, 5, 10, 24, 25, 26, 50, 400):
            got = store.bm25(query, limit, filters)
            want = plain_bm25(store, monkeypatch, query, limit, filters)
            assert [(h.chunk_id, h.score, h.rank) for h in got] == [(h.chunk_id, h.score, h.rank) for h in want], (
                query, limit)
    assert restricted, "no query took the cut: the test would prove nothing"


def test_the_cut_scores_fewer_rows_than_match(store: EmbeddedStore, monkeypatch) -> None:
    """'zephyr socket' at limit 5: the rare term's chunks alone can reach the top 5 ('socket', in 112 of
    the 400 chunks, adds at most its bound), so the rows scored are zephyr's 6, not socket's 112."""
    monkeypatch.setattr(embedded_lexical, "_PROBE_BUDGET", 30)
    seen = record_cuts(monkeypatch)
    top = store.bm25("zephyr socket", 5)
    assert seen == ['"zephyr"']
    assert [h.chunk_id for h in top] == [h.chunk_id for h in plain_bm25(store, monkeypatch, "zephyr socket", 5)]
    db = store._db
    count = lambda expr: db.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (expr,)).fetchone()[0]  # noqa: E731
    assert (count('"zephyr"'), count('"socket"')) == (6, 112)
    seen.clear()
    store.bm25("zephyr socket", 10)  # the 10th best needs socket's chunks: no cut, every match scored
    assert seen == []


def test_ties_at_the_limit_are_broken_by_chunk_id(tmp_path: Path, monkeypatch) -> None:
    """Hand-made: b and c have the same text and tie; at the limit that splits them the cut keeps b
    (the smaller id), in the order scoring every match gives, and it cuts: beta's twelve chunks
    (bound 0.17) cannot reach the top 3 that alpha's give."""
    texts = {"a": "alpha beta beta", "b": "alpha gamma", "c": "alpha gamma", "d": "beta",
             **{f"z{i:02d}": "beta delta" if i < 10 else "delta" for i in range(21)}}
    s = EmbeddedStore(tmp_path / "ties.db")
    monkeypatch.setattr(embedded_lexical, "_PROBE_BUDGET", 3)
    cut = record_cuts(monkeypatch)
    try:
        files = []
        for key, text in texts.items():
            node = Node(f"r:{key}.py:{key}()", "Function", key, key, "r", f"{key}.py", 1, 0, 2, 0, {"language": "python"})
            files.append(IndexedFile(FileRecord("r", f"{key}.py", "python", key * 64, 1), [node], [], [],
                                     [Chunk(node.id, "r", "r", f"{key}.py", "python", "function", "f", "f", None, 1, 2,
                                            text, key * 64)]))
        s.replace_files(files)
        expected = ["r:b.py:b()", "r:c.py:c()", "r:a.py:a()", "r:d.py:d()"]
        full = plain_bm25(s, monkeypatch, "alpha beta", 4)
        assert [h.chunk_id for h in full] == expected
        assert full[0].score == full[1].score > full[2].score > full[3].score
        for limit in (1, 2, 3):
            got = s.bm25("alpha beta", limit)
            assert [(h.chunk_id, h.score) for h in got] == [(h.chunk_id, h.score) for h in full[:limit]]
        assert cut == ['"alpha"'] * 3
        assert [h.chunk_id for h in s.bm25("alpha beta", 4)] == expected
        assert cut == ['"alpha"'] * 3  # the 4th needs beta's chunks: every match scored
    finally:
        s.close()


def test_an_identifier_query_whose_whole_name_is_rare_takes_the_cut_through_the_fallback(tmp_path: Path,
                                                                                        monkeypatch) -> None:
    """``load_user_cache``: its whole-name token is in 2 chunks, so every probe holding it finds fewer
    than 10 rows; the AND of its parts (``user`` AND ``cache``...) finds enough, the cut applies, and the
    answer equals scoring every match. Without the fallback: no cut (every match scored)."""
    rng = random.Random(3)
    files = []
    for i in range(300):
        words = [rng.choice(["load", "user", "cache", "data", "item", "value", "self", "return"]) for _ in range(8)]
        if i in (7, 150):
            words.append("load_user_cache")
        text = " ".join(words)
        key = f"k{i:03d}"
        node = Node(f"r:{key}.py:{key}()", "Function", key, key, "r", f"{key}.py", 1, 0, 2, 0, {"language": "python"})
        files.append(IndexedFile(FileRecord("r", f"{key}.py", "python", f"{i:064d}", 1), [node], [], [],
                                 [Chunk(node.id, "r", "r", f"{key}.py", "python", "function", key, node.id, None, 1, 2,
                                        text, f"{i:064d}")]))
    s = EmbeddedStore(tmp_path / "fallback.db")
    try:
        s.replace_files(files)
        monkeypatch.setattr(embedded_lexical, "_PROBE_BUDGET", 5)
        monkeypatch.setattr(embedded_lexical, "_COMMON_FRACTION", 1.1)  # keep every part: they are in most chunks
        restricted = record_cuts(monkeypatch)
        for limit in (3, 10, 40):
            got = s.bm25("load_user_cache", limit)
            want = plain_bm25(s, monkeypatch, "load_user_cache", limit)
            assert [(h.chunk_id, h.score) for h in got] == [(h.chunk_id, h.score) for h in want]
            assert {h.chunk_id for h in got[:2]} == {"r:k007.py:k007()", "r:k150.py:k150()"}
        assert restricted, "the fallback probes gave no cut"
        restricted.clear()
        monkeypatch.setattr(embedded_lexical, "fallback_probes", lambda rare: [])
        s.bm25("load_user_cache", 10)
        assert restricted == []
    finally:
        s.close()


def _record_probes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Spy on the store's unrestricted scoring queries other than the plain query: the probes, in order."""
    probes: list[str] = []
    rows = EmbeddedStore._bm25_rows

    def spy(self, db, match, only, *rest):  # type: ignore[no-untyped-def]
        if only is None:
            probes.append(match)
        return rows(self, db, match, only, *rest)

    monkeypatch.setattr(EmbeddedStore, "_bm25_rows", spy)
    return probes


def test_the_or_probe_runs_alone_and_the_ands_only_without_it(store: EmbeddedStore, monkeypatch) -> None:
    """'zephyr socket' at limit 5: zephyr's 6 postings fit a budget of 30, so the OR probe is
    ``"zephyr"`` and no AND probe runs (before lat22d, ``"zephyr" AND "socket"`` ran too); with a budget
    of 0 there is no OR probe and the AND of both terms is the probe. Same answer either way."""
    monkeypatch.setattr(embedded_lexical, "_PROBE_BUDGET", 30)
    probes = _record_probes(monkeypatch)
    top = store.bm25("zephyr socket", 5)
    assert probes == ['"zephyr"']
    want = [(h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, "zephyr socket", 5)]
    assert [(h.chunk_id, h.score) for h in top] == want
    probes.clear()
    monkeypatch.setattr(embedded_lexical, "_PROBE_BUDGET", 0)
    top = store.bm25("zephyr socket", 5)
    assert probes[0] == '"zephyr" AND "socket"'
    assert '"zephyr"' not in probes
    assert [(h.chunk_id, h.score) for h in top] == want
