"""BM25's cut is exact (:mod:`stores.bm25_cut`, :mod:`stores.bm25_blocks`): ``bm25`` answers with the same
chunks and scores as scoring every matching row (:func:`tests.bm25_spies.plain_bm25`), whatever the
query and whatever writes and deletes made the index: a token longer than FTS5 keeps, hostile query
strings, and a property test over random corpora, write / delete sequences, filters and limits."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stores.bm25_blocks as bm25_blocks
import stores.embedded_lexical as embedded_lexical
from stores.bm25_blocks import FTS5_MAX_TOKEN_BYTES, GUARD_NAME, REFERENCE_KEY, TABLE, read_bounds
from stores.contracts import Chunk, FileRecord, IndexedFile, Node, SearchFilters
from stores.embedded import EmbeddedStore
from tests.bm25_spies import plain_bm25


def _file(i: int, text: str, repo: str = "r", language: str = "python") -> IndexedFile:
    key = f"k{i:04d}"
    path = f"{key}.{'py' if language == 'python' else 'java'}"
    node = Node(f"{repo}:{path}:{key}()", "Function", key, key, repo, path, 1, 0, 2, 0, {"language": language})
    chunk = Chunk(node.id, repo, repo, path, language, "function", key, node.id, None, 1, 2, text, f"{i:064d}")
    return IndexedFile(FileRecord(repo, path, language, f"{i:064d}", len(text)), [node], [], [], [chunk])


def _hits(hits) -> list[tuple[str, float]]:  # type: ignore[no-untyped-def]
    return [(h.chunk_id, h.score) for h in hits]


# -- a token longer than FTS5 keeps ----------------------------------------------------------------------

_LONG_A = "x" * 40_000 + "a"
_LONG_B = "x" * 40_000 + "b"  # the same first 32,768 bytes: one FTS5 term with _LONG_A


def test_fts5_keeps_the_first_32768_bytes_of_a_token() -> None:
    """The fact the guard rests on: FTS5 truncates a token to FTS5_MAX_TOKEN_BYTES (fts5Int.h), in the
    index and in a query, so two tokens sharing those bytes are one term (its vocabulary says so)."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5 (a, content = '')")
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, f, 'row')")
    conn.executemany("INSERT INTO f (rowid, a) VALUES (?, ?)", [(1, _LONG_A), (2, _LONG_B), (3, "x" * 100)])
    assert FTS5_MAX_TOKEN_BYTES == 32_768
    assert [(len(t), d) for t, d in conn.execute("SELECT term, doc FROM v ORDER BY term")] == [(100, 1), (32_768, 2)]
    assert conn.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY rowid", (f'"{_LONG_A}"',)).fetchall() == [(1,), (2,)]
    assert conn.execute("SELECT rowid FROM f WHERE f MATCH ?", ('"' + "x" * 32_767 + '"',)).fetchall() == []


def _long_token_corpus() -> list[IndexedFile]:
    """Rowids 1..199 (blocks of 64: 0 holds 1-63). _LONG_A in the short chunks 1-10 (block 0) and in the
    very long chunks 128-139 (block 2, far below block 0's rows); _LONG_B alone in chunk 70 (block 1),
    the best row for either token, as FTS5 sees one term."""
    files = []
    for i in range(1, 200):
        if i <= 10:
            text = f"{_LONG_A} data"
        elif i == 70:
            text = _LONG_B
        elif 128 <= i < 140:
            text = f"{_LONG_A} " + " ".join(["value"] * 3000)
        else:
            text = "gamma " + " ".join(["value"] * 60)
        files.append(_file(i, text))
    return files


def test_a_token_longer_than_fts5_keeps_takes_no_block_maxima(tmp_path, monkeypatch) -> None:
    """The block maxima are kept per whole analysed token, FTS5 matches the first 32,768 bytes: chunk 70
    (_LONG_B) matches a query for _LONG_A and scores best, but no block maximum of _LONG_A covers block
    1. Skipping blocks by _LONG_A's maxima lost it (the cut answered chunks 1, 2, 3); for such a token
    the cut keeps to the per-term bounds, which hold."""
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 1)
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files(_long_token_corpus())
        want = plain_bm25(store, monkeypatch, _LONG_A, 3)
        assert [h.chunk_id for h in want] == ["r:k0070.py:k0070()", "r:k0001.py:k0001()", "r:k0002.py:k0002()"]
        assert round(want[0].score, 6) == 3.344978 and round(want[1].score, 6) == 3.335585
        assert _hits(store.bm25(_LONG_A, 3)) == _hits(want)
        assert read_bounds(store._db, [_LONG_A]) is None  # the guard: no block maxima for such a term
        assert read_bounds(store._db, ["gamma", "x" * (FTS5_MAX_TOKEN_BYTES - 1)])[1].keys() == {"gamma"}
        for query in (_LONG_B, f"{_LONG_A} data", f"{_LONG_A} gamma", "x" * FTS5_MAX_TOKEN_BYTES):
            for limit in (1, 3, 12, 300):
                assert _hits(store.bm25(query, limit)) == _hits(plain_bm25(store, monkeypatch, query, limit)), (
                    query[-8:], limit)


# -- hostile query strings -------------------------------------------------------------------------------

_WORDS = ["near", "and", "or", "not", "parser", "socket", "value", "data", "item", "std::vector", "a.b",
          "$scope", "get_user", "parseURL", "owner-service", "NEAR", "AND", "the", "zephyr"]


def _hostile_corpus() -> list[IndexedFile]:
    import random
    rng = random.Random(22)
    files = []
    for i in range(1, 400):
        words = [rng.choice(_WORDS[4:9]) for _ in range(rng.randint(2, 40))]
        words += [rng.choice(_WORDS) for _ in range(rng.randint(0, 4))]
        files.append(_file(i, " ".join(words), repo="r" if i % 3 else "q", language="python" if i % 2 else "java"))
    return files


_HOSTILE = ['"', '""', '"parser', 'parser"', 'pars*', '*', '^parser', 'parser^2', 'NEAR(parser socket)',
            'near(parser, socket, 2)', 'parser AND socket', 'parser OR NOT socket', 'NOT', 'AND OR NOT',
            'and or not near', 'name:parser', 'text : socket', 'fqn:get_user col:', ':', 'std::vector',
            'a.b', '$scope', '-parser', 'parser - socket', '(parser', 'parser)', '{name fqn}: socket',
            'größe 数据 café', '🦀 parser 🐍', '🦀', '', ' ', '\t\n ', 'the', 'the and of',
            'getUser parseURL owner-service', "x" * 10_000, " ".join(_WORDS * 600)[:10_000],
            ("parser socket " * 700)[:10_000], "zephyr " + "q" * 9_990]


@pytest.mark.parametrize("query", _HOSTILE, ids=[f"q{i}" for i in range(len(_HOSTILE))])
def test_hostile_queries_answer_as_scoring_every_match(tmp_path, monkeypatch, query: str) -> None:
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 2)
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files(_hostile_corpus())
        store.delete_files("r", [f"k{i:04d}.py" for i in range(1, 400, 7)])
        for filters in (None, SearchFilters(repo="q"), SearchFilters(language="java")):
            for limit in (1, 5, 50, 1_000):
                got = _hits(store.bm25(query, limit, filters))
                assert got == _hits(plain_bm25(store, monkeypatch, query, limit, filters)), (limit, filters)


# -- the property: random corpora, writes, deletes, migrations, queries ----------------------------------

_VOCAB = ["alpha", "beta", "gamma", "delta", "value", "data", "item", "self", "getUser", "parse_url",
          "std::vector", "a.b", "the", "of"]
_QUERY_WORDS = _VOCAB + ["absent", "get", "url", "vector", "user", "parse"]
_PATHS = 24  # files k0000..k0023 in two repositories and two languages, chunks 1-3 each
_LIMITS = (1, 2, 3, 5, 10, 100)
_FILTERS = (None, SearchFilters(repo="q"), SearchFilters(language="java"), SearchFilters(repo="r", language="python"))
EXAMPLES = 40
"""Hypothesis examples of the property test in the suite (a few seconds); /tmp runs used thousands."""


def chunked_file(i: int, texts: list[str]) -> IndexedFile:
    repo, language = ("r" if i % 3 else "q"), ("python" if i % 2 else "java")
    key = f"k{i:04d}"
    path = f"{key}.{'py' if language == 'python' else 'java'}"
    nodes, chunks = [], []
    for j, text in enumerate(texts):
        node = Node(f"{repo}:{path}:{key}_{j}()", "Function", f"{key}_{j}", f"{key}_{j}", repo, path, j + 1, 0, j + 2,
                    0, {"language": language})
        nodes.append(node)
        chunks.append(Chunk(node.id, repo, repo, path, language, "function", node.name, node.id, None, j + 1, j + 2,
                            text, f"{i:032d}{j:032d}"))
    return IndexedFile(FileRecord(repo, path, language, f"{i:064d}", sum(map(len, texts))), nodes, [], [], chunks)


def _path(i: int) -> tuple[str, str]:
    return ("r" if i % 3 else "q"), f"k{i:04d}.{'java' if i % 2 == 0 else 'py'}"


_text = st.lists(st.sampled_from(_VOCAB), min_size=0, max_size=12).map(" ".join) | st.builds(
    lambda w, n, rest: " ".join([w] * n + rest), st.sampled_from(_VOCAB[:4]), st.integers(1, 30),
    st.lists(st.sampled_from(_VOCAB), max_size=60))
_write = st.tuples(st.just("write"), st.lists(st.tuples(st.integers(0, _PATHS - 1), st.lists(_text, min_size=0, max_size=3)),
                                              min_size=1, max_size=_PATHS))
_delete = st.tuples(st.just("delete"), st.lists(st.integers(0, _PATHS - 1), min_size=1, max_size=_PATHS))
_op = _write | _delete | st.tuples(st.just("migrate"), st.just(None))
KNOBS = st.tuples(st.sampled_from([1, 2, 64]), st.sampled_from([0, 3, 5_000]), st.sampled_from([1, 2, 6]),
                  st.sampled_from([1, 10]))
_query = st.tuples(st.lists(st.sampled_from(_QUERY_WORDS), min_size=1, max_size=5).map(" ".join),
                   st.sampled_from(_LIMITS), st.sampled_from(_FILTERS))


def as_schema_6(db: Path) -> None:
    """Turn a schema-8 index into the schema-6 index it would have been (no block maxima)."""
    conn = sqlite3.connect(db)
    conn.execute(f"DROP TABLE {TABLE}")
    conn.execute(f"DROP TRIGGER IF EXISTS {GUARD_NAME}")
    conn.execute("DELETE FROM meta WHERE key = ?", (REFERENCE_KEY,))
    conn.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def check_sequence(db: Path, knobs: tuple[int, int, int, int], ops: list, queries: list) -> int:
    """Run ``ops`` on a new index at ``db`` with the cut's knobs set (``knobs``: blocks probed first,
    postings of the OR probe, rowids of a block and blocks of a table row, as shifts), comparing
    ``bm25`` with scoring every match for ``queries`` (each ``(query, limit, filters)``) after every
    step; returns how many answers were not empty. Blocks of 2-4 rowids let a small corpus spread over
    many blocks, parts of 2 blocks make a term's row come in many parts."""
    nonempty = 0
    probe_blocks, budget, block_shift, part_shift = knobs
    with pytest.MonkeyPatch.context() as m:
        m.setattr(embedded_lexical, "_PROBE_BLOCKS", probe_blocks)
        m.setattr(embedded_lexical, "_PROBE_BUDGET", budget)
        m.setattr(embedded_lexical, "BLOCK_SHIFT", block_shift)  # the cut's SQL
        m.setattr(bm25_blocks, "BLOCK_SHIFT", block_shift)  # the writes' and the migration's blocks
        m.setattr(bm25_blocks, "PART_SHIFT", part_shift)
        store = EmbeddedStore(db)
        try:
            for step, (kind, arg) in enumerate(ops):
                if kind == "write":
                    store.replace_files([chunked_file(i, texts) for i, texts in arg])
                elif kind == "delete":
                    for repo in ("r", "q"):
                        store.delete_files(repo, [p for r, p in map(_path, arg) if r == repo])
                else:  # back to schema 6, migrated at the writable open
                    store.close()
                    as_schema_6(db)
                    store = EmbeddedStore(db)
                for query, limit, filters in queries:
                    got = [(h.chunk_id, h.score, h.rank) for h in store.bm25(query, limit, filters)]
                    want = [(h.chunk_id, h.score, h.rank) for h in plain_bm25(store, m, query, limit, filters)]
                    assert got == want, (step, query, limit, filters)
                    nonempty += bool(got)
        finally:
            store.close()
    return nonempty


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(knobs=KNOBS, ops=st.lists(_op, min_size=1, max_size=8), queries=st.lists(_query, min_size=1, max_size=4))
def test_bm25_answers_as_scoring_every_match_after_any_writes(tmp_path, knobs, ops, queries) -> None:
    with tempfile.TemporaryDirectory(dir=tmp_path) as d:
        check_sequence(Path(d) / "i.db", knobs, ops, queries)


# -- one snapshot per query on the main connection too ---------------------------------------------------


def _block_corpus() -> list[IndexedFile]:
    """Rowids 1..320 (blocks of 64): 'alpha alpha beta' in the short chunks 1-8 (block 0, the best
    rows by far); 'alpha' in every 4th long chunk of blocks 1, 3, 4, 5; 'beta' in the long chunks of
    block 2; 'gamma' and filler elsewhere."""
    filler = " ".join(["value"] * 40)
    texts = []
    for i in range(1, 321):
        if i <= 8:
            texts.append("alpha alpha beta")
        elif 128 <= i < 192:
            texts.append(f"beta {filler}")
        elif i % 4 == 0 and i >= 64:
            texts.append(f"alpha {filler}")
        else:
            texts.append(f"gamma {filler}")
    return [_file(i, t) for i, t in enumerate(texts, 1)]


def test_bm25_on_the_main_connection_reads_one_snapshot(tmp_path, monkeypatch) -> None:
    """When BM25's own connection cannot be opened, BM25 runs on the main one: there too the probes
    and the final query must read one state. Another process deletes the 8 best chunks between the
    probe (theta from them: block 0 alone passes) and the final query: the cut answered [] (block 0
    of the new state holds no match), which no state of the index gives; read in one snapshot, the
    answer is the state's before the delete."""
    path = tmp_path / "i.db"
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 1)
    monkeypatch.setattr(EmbeddedStore, "_read_target", lambda self: "file:/nonexistent/dir/i.db?mode=ro")
    with EmbeddedStore(path) as store, EmbeddedStore(path) as other:
        store.replace_files(_block_corpus())
        before = _hits(plain_bm25(store, monkeypatch, "alpha beta", 8))
        assert [c for c, _ in before] == [f"r:k{i:04d}.py:k{i:04d}()" for i in range(1, 9)]
        rows = EmbeddedStore._bm25_rows
        calls: list[list[int] | None] = []

        def delete_after_the_probe(self, db, match, only, where, params, limit, blocks=None):  # type: ignore[no-untyped-def]
            got = rows(self, db, match, only, where, params, limit, blocks)
            calls.append(None if blocks is None else list(blocks))
            if len(calls) == 1:
                other.delete_files("r", [f"k{i:04d}.py" for i in range(1, 9)])
            return got

        monkeypatch.setattr(EmbeddedStore, "_bm25_rows", delete_after_the_probe)
        got = _hits(store.bm25("alpha beta", 8))
        assert store._lexical is None and store._lexical_failed  # the main connection answered
        assert calls == [[0], [0]]  # the probe in block 0, the final query in block 0
        assert got == before
        monkeypatch.setattr(EmbeddedStore, "_bm25_rows", rows)
        after = _hits(store.bm25("alpha beta", 8))  # the next query sees the delete
        assert after == _hits(plain_bm25(store, monkeypatch, "alpha beta", 8))
        assert [c for c, _ in after][:4] == [f"r:k{i:04d}.py:k{i:04d}()" for i in (64, 68, 72, 76)]


def test_a_one_term_query_of_a_term_in_every_chunk(tmp_path, monkeypatch) -> None:
    """'value' is in every chunk (FTS5's IDF is then 1e-6: scores of about 1e-6, told apart by the
    chunks' frequencies and lengths; rowids 1-63, block 0, hold 1-3 of them, the rest 30-79): at small
    limits block 0 is skipped, and the answer is scoring every match's, after deletes too, at every limit."""
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 1)
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files([_file(i, " ".join(["value"] * (1 + i % 3 if i < 64 else 30 + (i * 37) % 50)
                                               + ["data"] * (i % 7))) for i in range(1, 400)])
        rows = EmbeddedStore._bm25_rows
        blocks: list[list[int] | None] = []

        def spy(self, db, match, only, where, params, limit, restrict=None):  # type: ignore[no-untyped-def]
            blocks.append(None if restrict is None else list(restrict))
            return rows(self, db, match, only, where, params, limit, restrict)

        for step in range(2):
            for limit in (1, 5, 64, 399, 1_000):
                want = _hits(plain_bm25(store, monkeypatch, "value", limit))
                with monkeypatch.context() as m:
                    m.setattr(EmbeddedStore, "_bm25_rows", spy)
                    got = _hits(store.bm25("value", limit))
                assert got == want, (step, limit)
                assert len(got) == min(limit, 399 - 57 * step) and 0 < got[0][1] < 1e-5
            store.delete_files("r", [f"k{i:04d}.py" for i in range(1, 400, 7)])
        # the probe in block 1 (the highest maxima), then the final query without block 0, whose short
        # chunks (1-3 'value's) score below the long ones, until a limit needs every block
        cut = [1, 2, 3, 4, 5, 6]
        assert blocks == [[1], cut, [1], cut, [1], cut, [1], None, [1], None] + [[1], cut, [1], cut, [1], None, [1], None,
                                                                                 [1], None]
