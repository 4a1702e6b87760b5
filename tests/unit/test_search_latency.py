"""Search latency work that must not change a result: the exact-definitions step reads only the
definitions that can reach the name list (same order as reading them all), the embedded store's
``find_symbol_refs`` / ``incoming_counts`` agree with the contract's defaults, and its caches of
decompressed file texts and term frequencies forget what a write replaced."""

from __future__ import annotations

from pathlib import Path

import pytest

import analysis.ranking as ranking
from stores.contracts import Chunk, Edge, FileRecord, GraphStore, IndexedFile, Node, SearchFilters
from stores.embedded import EmbeddedStore


def _def(path: str, qualname: str, language: str = "python", label: str = "Method", **props: object) -> Node:
    return Node(f"r:{path}:{qualname}()", label, qualname.rsplit(".", 1)[-1], qualname, "r", path, 1, 0, 2, 0,
                {"language": language, **props})


def _chunk(n: Node, language: str) -> Chunk:
    return Chunk(n.id, "r", "r", n.file, language, "method", n.name, n.id, None, 1, 2, f"def {n.name}(): {n.id}", n.id)


def _many_runs() -> tuple[list[IndexedFile], list[Node]]:
    """130 definitions named ``run``: implementation and tests, public and private (Python ``_Cls``,
    Java ``private``), in two languages; callers and overrides give some of them fan-in."""
    files: list[IndexedFile] = []
    runs: list[Node] = []
    callers = [_def("app/callers.py", f"caller{i}", label="Function") for i in range(6)]
    edges: list[Edge] = []
    for i in range(130):
        test = i % 4 == 0
        java = i % 5 == 0
        path = f"{'tests/test_' if test else 'app/'}m{i:03d}.{'java' if java else 'py'}"
        cls = f"{'_' if i % 3 == 0 and not java else ''}C{i:03d}"
        props = {"modifiers": ["private"]} if java and i % 2 else {}
        n = _def(path, f"{cls}.run", "java" if java else "python", **props)
        runs.append(n)
        for c in callers[: i % 7]:
            edges.append(Edge("CALLS", c.id, n.id, "r", "app/callers.py", 3, i, "exact"))
        files.append(IndexedFile(FileRecord("r", path, "java" if java else "python", f"{i:064d}", 10), [n], [], [],
                                 [_chunk(n, "java" if java else "python")]))
    files.append(IndexedFile(FileRecord("r", "app/callers.py", "python", "c" * 64, 10), callers, edges, [],
                             [_chunk(c, "python") for c in callers]))
    return files, runs


class _Counting(EmbeddedStore):
    """An embedded store that counts the nodes ``get_nodes`` returned."""

    read = 0

    def get_nodes(self, ids):  # type: ignore[no-untyped-def]
        found = super().get_nodes(ids)
        self.read += len(found)
        return found


@pytest.fixture
def runs_store(tmp_path: Path):
    files, _ = _many_runs()
    s = _Counting(tmp_path / "index.db")
    s.replace_files(files)
    yield s
    s.close()


@pytest.mark.parametrize("fan_in_cap", [3, 50])
@pytest.mark.parametrize("wants_tests", [False, True])
@pytest.mark.parametrize("filters", [None, SearchFilters(language="java"), SearchFilters(language="python")])
def test_the_capped_name_list_is_the_head_of_the_full_one(runs_store: _Counting, monkeypatch, fan_in_cap: int,
                                                          wants_tests: bool, filters: SearchFilters | None) -> None:
    monkeypatch.setattr(ranking, "MAX_FAN_IN", fan_in_cap)
    full = ranking.named_definitions(runs_store, runs_store, "run", filters, wants_tests)
    assert len(full) == {None: 130, "java": 26, "python": 104}[filters and filters.language]
    for limit in (1, 3, 7, 40, 200):
        need = max(limit, fan_in_cap)
        runs_store.read = 0
        capped = ranking.named_definitions(runs_store, runs_store, "run", filters, wants_tests, limit)
        assert [(n.id, s) for n, s in capped] == [(n.id, s) for n, s in full[:need]], (limit, need)
        if need < 20 and filters is None:
            assert runs_store.read < 60  # not all 130: the parts are read in id order until enough are public


def test_the_capped_name_list_keeps_the_dotted_filter_and_max_named(runs_store: _Counting, monkeypatch) -> None:
    monkeypatch.setattr(ranking, "MAX_FAN_IN", 2)
    full = ranking.named_definitions(runs_store, runs_store, "C007.run", None)
    assert [n.id for n, _ in full] == ["r:app/m007.py:C007.run()"]
    assert ranking.named_definitions(runs_store, runs_store, "C007.run", None, limit=1) == full
    monkeypatch.setattr(ranking, "MAX_NAMED", 10)  # the first 10 by id, whatever the limit
    full = ranking.named_definitions(runs_store, runs_store, "run", None)
    assert len(full) == 10
    assert ranking.named_definitions(runs_store, runs_store, "run", None, limit=4) == full[:4]
    assert ranking.named_definitions(runs_store, runs_store, "not_a_name", None, limit=4) == []


def test_the_fan_in_order_is_unchanged(runs_store: _Counting) -> None:
    # public implementation first, then by fan-in (i % 7 callers), then id: 6 callers at i = 6 (private
    # _C006), 13, 20 (a test), 27 (private), 34, 41, 48 (a test), 55 (private Java), 62
    ranked = ranking.named_definitions(runs_store, runs_store, "run", None, limit=3)
    six = round((4 + 2 + 1 + 6 / 7) / 8, 6)
    assert [(n.id, round(s, 6)) for n, s in ranked[:4]] == [
        ("r:app/m013.py:C013.run()", six), ("r:app/m034.py:C034.run()", six), ("r:app/m041.py:C041.run()", six),
        ("r:app/m062.py:C062.run()", six)]


def test_find_symbol_refs_and_incoming_counts_agree_with_the_contract_defaults(runs_store: _Counting) -> None:
    _, runs = _many_runs()
    refs = runs_store.find_symbol_refs(["run", "caller1", "absent"], ["Method", "Function"])
    assert refs == GraphStore.find_symbol_refs(runs_store, ["run", "caller1", "absent"], ["Method", "Function"])
    assert [r.id for r in refs["run"]] == sorted(n.id for n in runs) and refs["absent"] == []
    assert refs["caller1"] == [("r:app/callers.py:caller1()", "r", "app/callers.py", "caller1")]
    assert runs_store.find_symbol_refs(["run"], ["Class"]) == {"run": []}
    assert runs_store.find_symbol_refs(["run"], []) == {"run": []}
    groups = {runs[6].id: [runs[6].id], "both": [runs[5].id, runs[6].id], "none": [runs[7].id], "gone": ["r:nope"]}
    counts = runs_store.incoming_counts(groups, ["CALLS", "EXTENDS"])
    assert counts == GraphStore.incoming_counts(runs_store, groups, ["CALLS", "EXTENDS"])
    assert counts == {runs[6].id: 6, "both": 6, "none": 0, "gone": 0}  # m005's 5 callers are m006's first 5
    assert runs_store.incoming_counts(groups, ["OVERRIDES"]) == dict.fromkeys(groups, 0)
    assert runs_store.incoming_counts(groups, []) == dict.fromkeys(groups, 0)
    assert runs_store.incoming_counts({}, ["CALLS"]) == {}


# ---------------------------------------------------------------------------------- read caches

def test_stamped_cache_bounds_and_stamps() -> None:
    from stores.read_cache import StampedCache

    cache: StampedCache[bytes] = StampedCache(3, 10)
    cache.view("s1").put("a", b"aaaa", 4)
    cache.put("b", b"bbbb", 4)
    assert cache.get("a") == b"aaaa"  # a is now the most recently used
    cache.put("c", b"cc", 2)
    assert len(cache) == 3
    cache.put("d", b"d", 1)  # 3 items already: b, the least recently used, goes
    assert (cache.get("b"), cache.get("a"), cache.get("c"), cache.get("d")) == (None, b"aaaa", b"cc", b"d")
    cache.put("e", b"e" * 8, 8)  # over the size bound: the oldest go until it fits
    assert (cache.get("a"), cache.get("c"), cache.get("d"), cache.get("e")) == (None, None, b"d", b"e" * 8)
    cache.put("big", b"x" * 11, 11)  # larger than the cache: not kept
    assert cache.get("big") is None and cache.get("e") == b"e" * 8
    assert cache.view("s1").get("e") == b"e" * 8  # same stamp: kept
    assert cache.view("s2").get("e") is None and len(cache) == 0  # another state: emptied
    with pytest.raises(ValueError, match="cache bounds must be at least 1"):
        StampedCache(0, 10)


def _cafe(text: str) -> IndexedFile:
    node = Node("r:cafe.brew()", "Function", "brew", "brew", "r", "cafe.py", 1, 0, 2, 0, {"language": "python"})
    chunk = Chunk(node.id, "r", "r", "cafe.py", "python", "function", "brew", node.id, None, 1, 2, text, text)
    return IndexedFile(FileRecord("r", "cafe.py", "python", str(len(text)).zfill(64), len(text)), [node], [], [],
                       [chunk], text)


def test_a_write_empties_the_file_text_cache(tmp_path: Path) -> None:
    old, new = "def brew():\n    return 'espresso' * 20\n", "def brew():\n    return 'ristretto' * 30\n"
    writer = EmbeddedStore(tmp_path / "index.db")
    reader = EmbeddedStore(tmp_path / "index.db")
    try:
        writer.replace_files([_cafe(old)])
        assert writer._db.execute("SELECT boff FROM chunk_rows").fetchone()[0] == 0  # a range of the file text
        assert writer.get_chunks(["r:cafe.brew()"])["r:cafe.brew()"].text == old
        assert reader.get_chunks(["r:cafe.brew()"])["r:cafe.brew()"].text == old
        assert len(writer._file_texts) == 1 and len(reader._file_texts) == 1  # both cached it
        writer.replace_files([_cafe(new)])  # this instance's write, and another connection's commit
        assert writer.get_chunks(["r:cafe.brew()"])["r:cafe.brew()"].text == new
        assert reader.get_chunks(["r:cafe.brew()"])["r:cafe.brew()"].text == new
        with writer.transaction():  # inside a transaction nothing is cached: its writes move no stamp
            writer.replace_files([_cafe(old)])
            assert writer.get_chunks(["r:cafe.brew()"])["r:cafe.brew()"].text == old
        assert writer.get_chunks(["r:cafe.brew()"])["r:cafe.brew()"].text == old
    finally:
        writer.close()
        reader.close()


def test_a_write_empties_the_term_frequency_cache(tmp_path: Path) -> None:
    # "espresso" in 1 of 4 chunks, then in 3 of 4: at half of the chunks or more, BM25 drops it while a
    # rarer token remains, so "espresso ristretto" then finds the ristretto chunk only
    def files(espresso: int) -> list[IndexedFile]:
        out = []
        for i in range(4):
            text = f"def f{i}():\n    return {'espresso' if i < espresso else 'water'} {'ristretto' if i == 3 else ''}\n"
            node = Node(f"r:m{i}.f{i}()", "Function", f"f{i}", f"f{i}", "r", f"m{i}.py", 1, 0, 2, 0, {})
            chunk = Chunk(node.id, "r", "r", f"m{i}.py", "python", "function", f"f{i}", node.id, None, 1, 2, text, text)
            out.append(IndexedFile(FileRecord("r", f"m{i}.py", "python", str(espresso) * 64, len(text)), [node], [], [],
                                   [chunk], text))
        return out

    writer = EmbeddedStore(tmp_path / "index.db")
    reader = EmbeddedStore(tmp_path / "index.db")
    try:
        writer.replace_files(files(1))
        assert sorted(h.chunk_id for h in reader.bm25("espresso ristretto", 10)) == ["r:m0.f0()", "r:m3.f3()"]
        assert reader._lexical is not None and reader._lexical.terms.get("espresso") == 1
        writer.replace_files(files(3))
        assert [h.chunk_id for h in reader.bm25("espresso ristretto", 10)] == ["r:m3.f3()"]
        assert reader._lexical.terms.get("espresso") == 3
        # a word no chunk holds is no rarer token: "espresso" stays and is found (it used to be dropped
        # in favour of "cappuccino", and the query found nothing)
        assert sorted(h.chunk_id for h in reader.bm25("espresso cappuccino", 10)) == ["r:m0.f0()", "r:m1.f1()", "r:m2.f2()"]
    finally:
        writer.close()
        reader.close()
