"""Hostile checks of BM25's exact max-score cut (:mod:`stores.bm25_cut`) on a store that changes:
after inserts that raise a term's frequency, updates that move a term between chunks, deletes that
make a term rare again, a huge chunk (avgdl drift), unicode terms, one chunk and an empty index, and
a second store instance committing between two queries of the first, ``bm25`` answers exactly as
scoring every match does (same chunks, same scores, same order), with the language filter too."""

from __future__ import annotations

import random

import pytest

import stores.embedded_lexical as embedded_lexical
from stores.contracts import Chunk, FileRecord, IndexedFile, Node, SearchFilters
from stores.embedded import EmbeddedStore
from tests.bm25_spies import plain_bm25, record_cuts

_WORDS = ["zephyr", "quokka", "nimbus", "parser", "socket", "render", "value", "data", "item", "self",
          "größe", "ñandú", "数据", "café"]
_QUERIES = ["zephyr value", "quokka parser data", "nimbus socket render item", "größe data", "ñandú café 数据",
            "zephyr quokka nimbus", "value data item self", "数据 render zephyr", "socket größe quokka self"]
_LIMITS = (1, 2, 3, 5, 10, 40)


def _file(path: str, text: str) -> IndexedFile:
    language = "python" if path.endswith(".py") else "java"
    name = "f_" + path.split(".")[0]
    node = Node(f"r:{path}:{name}()", "Function", name, name, "r", path, 1, 0, 2, 0, {"language": language})
    chunk = Chunk(node.id, "r", "r", path, language, "function", name, node.id, None, 1, 2, text, "0" * 64)
    return IndexedFile(FileRecord("r", path, language, "0" * 64, len(text)), [node], [], [], [chunk])


def _text(rng: random.Random, rare_weight: float) -> str:
    words = [rng.choice(_WORDS[6:10]) for _ in range(rng.randint(2, 10))]
    if rng.random() < rare_weight:
        words += [rng.choice(_WORDS[:3] + _WORDS[10:])] * rng.randint(1, 4)
    words += [rng.choice(_WORDS[3:6]) for _ in range(rng.randint(0, 3))]
    rng.shuffle(words)
    return " ".join(words)


def _assert_same(store: EmbeddedStore, monkeypatch: pytest.MonkeyPatch, step: str) -> int:
    """Every query at every limit, with and without the language filter: cut == plain. Returns how
    many answers were non-empty (so that a test cannot pass on an empty store by accident)."""
    nonempty = 0
    for filters in (None, SearchFilters(language="python")):
        for query in _QUERIES:
            for limit in _LIMITS:
                got = [(h.chunk_id, h.score, h.rank) for h in store.bm25(query, limit, filters)]
                want = [(h.chunk_id, h.score, h.rank) for h in plain_bm25(store, monkeypatch, query, limit, filters)]
                assert got == want, (step, query, limit, filters)
                nonempty += bool(got)
    return nonempty


@pytest.mark.parametrize("budget", [0, 25, 5_000])
def test_the_cut_stays_exact_through_inserts_updates_deletes_and_a_huge_chunk(tmp_path, monkeypatch, budget) -> None:
    monkeypatch.setattr(embedded_lexical, "_PROBE_BUDGET", budget)
    cuts = record_cuts(monkeypatch)
    rng = random.Random(budget + 11)
    store = EmbeddedStore(tmp_path / "index.db")
    try:
        assert _assert_same(store, monkeypatch, "empty") == 0
        store.replace_files([_file("solo.py", "zephyr value data")])
        assert _assert_same(store, monkeypatch, "one chunk") > 0
        paths = [f"m{i:03d}.{'py' if i % 3 else 'java'}" for i in range(300)]
        store.replace_files([_file(p, _text(rng, 0.1)) for p in paths])
        assert _assert_same(store, monkeypatch, "built") > 0
        for step in range(6):
            # an update that makes a rare term very frequent in a few chunks (its max tf rises) ...
            hot = rng.sample(paths, 4)
            store.replace_files([_file(p, " ".join([rng.choice(_WORDS[:3] + _WORDS[10:])] * rng.randint(5, 40))
                                       + " value") for p in hot])
            # ... deletes that make a common term rarer, re-added files with new text ...
            gone = rng.sample([p for p in paths if p not in hot], 25)
            store.delete_files("r", gone)
            if step % 2:
                store.replace_files([_file(p, _text(rng, 0.5)) for p in gone[:10]])
            else:
                paths = [p for p in paths if p not in gone]
            if step == 3:  # one huge chunk drags the average length up
                store.replace_files([_file("huge.py", " ".join(rng.choice(_WORDS) for _ in range(60_000)))])
            if step == 5:
                store.delete_files("r", ["huge.py"])
            assert _assert_same(store, monkeypatch, f"step {step}") > 0
        assert cuts, "no query took the cut: the test would prove nothing"
    finally:
        store.close()


def test_the_cut_is_exact_when_another_instance_commits_between_queries(tmp_path, monkeypatch) -> None:
    """Two instances on one file: B rewrites and deletes chunks between A's queries; A's term counts
    (cached per data_version) must follow B's commits."""
    monkeypatch.setattr(embedded_lexical, "_PROBE_BUDGET", 25)
    cuts = record_cuts(monkeypatch)
    rng = random.Random(5)
    path = tmp_path / "index.db"
    a = EmbeddedStore(path)
    try:
        paths = [f"m{i:03d}.py" for i in range(200)]
        a.replace_files([_file(p, _text(rng, 0.15)) for p in paths])
        assert _assert_same(a, monkeypatch, "before") > 0
        for step in range(4):
            b = EmbeddedStore(path)
            try:
                b.replace_files([_file(p, "zephyr " * rng.randint(3, 30) + "quokka data")
                                 for p in rng.sample(paths, 20)])
                b.delete_files("r", rng.sample(paths, 30))
            finally:
                b.close()
            assert _assert_same(a, monkeypatch, f"after B's commit {step}") > 0
        assert cuts, "no query took the cut: the test would prove nothing"
    finally:
        a.close()
