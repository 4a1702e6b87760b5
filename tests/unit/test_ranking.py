"""Name-aware ranking and priors (issue 22 items 2 and 3): exact definitions of an identifier first (base
before overrides, public before private, implementation before tests, fan-in), then the priors on the fused
score; through the QueryEngine over the embedded store, and the pure rules of analysis.ranking."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.ranking import (EXACT_SCORE, NO_PRIORS, Candidate, Priors, asks_for_tests, is_identifier, is_private,
                              prior_factor, rerank, visibility)
from analysis.fusion import Fusion
from analysis.name_match import NO_NAME_MATCH
from analysis.retrieval import QueryEngine
from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node, SearchFilters
from stores.embedded import EmbeddedStore

MODELS = "app/models.py"
VIEWS = "app/views.py"
TESTS = "tests/test_models.py"


def _node(path: str, qualname: str, label: str = "Method", arity: int = 1, **props: object) -> Node:
    module = path.rsplit(".", 1)[0]
    sig = f"({arity})" if label in ("Method", "Function", "Constructor") else ""
    return Node(f"r:{module}.{qualname}{sig}", label, qualname.rsplit(".", 1)[-1], qualname, "r", path, 1, 0, 2, 0,
                {"language": "python", **props})


def _chunk(n: Node, text: str) -> Chunk:
    kind = {"Class": "class", "Function": "function"}.get(n.label, "method")
    return Chunk(n.id, "r", "r", n.file, "python", kind, n.name, n.id, None, n.start_line, n.end_line, text, n.id)


BASE_CLS = _node(MODELS, "Base", "Class", documented=True)
BASE_SAVE = _node(MODELS, "Base.save", documented=True)
CHILD_CLS = _node(MODELS, "Child", "Class")
CHILD_SAVE = _node(MODELS, "Child.save")
HELPER_SAVE = _node(MODELS, "_Helper.save")
STORE_CLS = _node(VIEWS, "Store", "Class")
STORE_INIT = _node(VIEWS, "Store.__init__", "Constructor")
OTHER_STORE = _node(MODELS, "Store", "Class")
EXPORT = _node(VIEWS, "export_rows", "Function", documented=True)
FETCH = _node(VIEWS, "_fetch_rows", "Function", documented=True)
UNDOC = _node(VIEWS, "load_rows", "Function")
CALLERS = [_node(VIEWS, f"caller{i}", "Function", 0) for i in range(4)]
TEST_SAVE = _node(TESTS, "save", "Function")
TEST_EXPORT = _node(TESTS, "test_export_rows", "Function", 0)


def _edge(kind: str, src: Node, dst: Node) -> Edge:
    return Edge(kind, src.id, dst.id, "r", src.file, 3, 4, "exact" if kind == "CALLS" else None)


@pytest.fixture
def store(tmp_path: Path):
    s = EmbeddedStore(tmp_path / "index.db")
    files = {MODELS: [(BASE_CLS, "class Base:"), (BASE_SAVE, "def save(self): write the row"),
                      (CHILD_CLS, "class Child(Base):"), (CHILD_SAVE, "def save(self): super().save()"),
                      (HELPER_SAVE, "def save(self): helper"), (OTHER_STORE, "class Store: a store")],
             VIEWS: [(STORE_CLS, "class Store: the store"), (STORE_INIT, "def __init__(self): pass"),
                     (EXPORT, "def export_rows(rows): write csv"),
                     (FETCH, "def _fetch_rows(q): rows rows rows csv"),
                     (UNDOC, "def load_rows(path): read rows from csv csv"),
                     *[(c, f"def caller{i}(): go") for i, c in enumerate(CALLERS)]],
             TESTS: [(TEST_SAVE, "def save(self): save save save"),
                     (TEST_EXPORT, "def test_export_rows(): export_rows rows csv csv csv")]}
    edges = {MODELS: [_edge("OVERRIDES", CHILD_SAVE, BASE_SAVE), _edge("EXTENDS", CHILD_CLS, BASE_CLS),
                      *[_edge("CONTAINS", cls, m) for cls, m in ((BASE_CLS, BASE_SAVE), (CHILD_CLS, CHILD_SAVE))]],
             VIEWS: [_edge("CONTAINS", STORE_CLS, STORE_INIT),*[_edge("CALLS", c, CHILD_SAVE) for c in CALLERS[:3]], _edge("CALLS", CALLERS[3], BASE_SAVE),
                     *[_edge("CALLS", c, STORE_INIT) for c in CALLERS[:2]]],
             TESTS: []}
    out = []
    for path, defs in files.items():
        f = IndexedFile(FileRecord("r", path, "python", "0" * 64, 10))
        f.nodes = [n for n, _ in defs]
        f.chunks = [_chunk(n, text) for n, text in defs]
        f.edges = edges[path]
        out.append(f)
    s.replace_files(out)
    yield s
    s.close()


def _ids(result) -> list[str]:
    return [h.node.id for h in result.hits]


def test_an_identifier_puts_the_base_definition_first_then_overrides_private_and_tests(store: EmbeddedStore) -> None:
    result = QueryEngine(store, store).search("save", limit=5)
    # Child.save has the most callers (3), but it overrides Base.save (1 caller + 1 override = fan-in 2)
    assert _ids(result)[:4] == [BASE_SAVE.id, CHILD_SAVE.id, HELPER_SAVE.id, TEST_SAVE.id]
    assert result.hits[0].ranks["name"] == 1 and result.hits[3].ranks == {"bm25": 1, "name": 4}
    # definition scores: (4 implementation + 2 public + 1 base + fan-in / (fan-in + 1)) / 8
    assert [h.score for h in result.hits[:4]] == pytest.approx([
        EXACT_SCORE + (4 + 2 + 1 + 2 / 3) / 8, EXACT_SCORE + (4 + 2 + 0 + 3 / 4) / 8,
        EXACT_SCORE + (4 + 0 + 1) / 8, EXACT_SCORE + (0 + 2 + 1) / 8])
    assert len(result.hits) == 4 and result.notes == ["0 of 17 chunks embedded: the rest are found by BM25 only"]


def test_with_tests_the_test_definition_comes_first(store: EmbeddedStore) -> None:
    result = QueryEngine(store, store).search("save", limit=4, tests=True)
    assert _ids(result) == [TEST_SAVE.id, BASE_SAVE.id, CHILD_SAVE.id, HELPER_SAVE.id]
    assert result.notes[-1].startswith("tests asked for: test code ranked above implementation")


def test_a_qualified_identifier_names_only_that_class_member(store: EmbeddedStore) -> None:
    result = QueryEngine(store, store).search("Child.save", limit=3)
    assert _ids(result)[0] == CHILD_SAVE.id and [h.ranks.get("name") for h in result.hits] == [1, None, None]
    # a dotted name matches at a dot: "ild.save" names nothing, "models.Child.save" the same method
    assert "name" not in QueryEngine(store, store).search("ild.save").lists
    assert _ids(QueryEngine(store, store).search("models.Child.save", limit=1)) == [CHILD_SAVE.id]


def test_a_class_counts_its_constructor_callers(store: EmbeddedStore) -> None:
    # both classes are public implementations without overrides; views.Store's __init__ has 2 callers
    assert _ids(QueryEngine(store, store).search("Store", limit=2)) == [STORE_CLS.id, OTHER_STORE.id]


def test_the_exact_step_honours_filters_and_can_be_switched_off(store: EmbeddedStore) -> None:
    only_views = SearchFilters(kind="class")
    assert _ids(QueryEngine(store, store).search("save", 3, only_views)) == []
    off = QueryEngine(store, store, exact_first=False, priors=NO_PRIORS).search("save", limit=2)
    # fused alone, the test's "save save save" (BM25 #1) sits between the base definition and the helper
    assert _ids(off) == [CHILD_SAVE.id, BASE_SAVE.id]
    assert [h.node.id for h in QueryEngine(store, store, exact_first=False, priors=NO_PRIORS).search(
        "save", limit=4).hits][2:] == [TEST_SAVE.id, HELPER_SAVE.id]


def test_implementation_ranks_above_tests_unless_tests_are_asked_for(store: EmbeddedStore) -> None:
    plain = QueryEngine(store, store, name_match=NO_NAME_MATCH, priors=NO_PRIORS).search("export rows csv", limit=5)
    assert _ids(plain)[0] == TEST_EXPORT.id  # BM25 alone puts the test first
    tests_only = Priors(tests=0.5, private=1.0, undocumented=1.0)
    ranked = QueryEngine(store, store, name_match=NO_NAME_MATCH, priors=tests_only).search("export rows csv", limit=5)
    assert _ids(ranked).index(EXPORT.id) < _ids(ranked).index(TEST_EXPORT.id)
    for asked in (QueryEngine(store, store, name_match=NO_NAME_MATCH, priors=tests_only).search("export rows csv", limit=5, tests=True),
                  QueryEngine(store, store, name_match=NO_NAME_MATCH, priors=tests_only).search("tests of export rows csv", limit=5)):
        assert _ids(asked)[0] == TEST_EXPORT.id


def test_public_and_documented_rank_above_private_and_undocumented(store: EmbeddedStore) -> None:
    # The priors' arithmetic below is RRF's; the product's text fusion (min-max) is pinned in the next test.
    # These tests pin the priors alone: the query-name agreement (tests/unit/test_name_match.py) is off.
    rrf = {"text": Fusion("rrf", 60), "identifier": Fusion("rrf", 60)}
    plain = QueryEngine(store, store, name_match=NO_NAME_MATCH, fusion=rrf, priors=NO_PRIORS).search("rows csv", limit=4)
    assert _ids(plain) == [TEST_EXPORT.id, UNDOC.id, FETCH.id, EXPORT.id]  # BM25 alone (RRF 1/61 ... 1/64)
    private_only = QueryEngine(store, store, name_match=NO_NAME_MATCH, fusion=rrf, priors=Priors(1.0, 0.8, 1.0)).search("rows csv", limit=4)
    assert _ids(private_only) == [TEST_EXPORT.id, UNDOC.id, EXPORT.id, FETCH.id]  # 1/63 * 0.8 < 1/64
    undoc_only = QueryEngine(store, store, name_match=NO_NAME_MATCH, fusion=rrf, priors=Priors(1.0, 1.0, 0.9)).search("rows csv", limit=4)
    assert _ids(undoc_only) == [FETCH.id, EXPORT.id, TEST_EXPORT.id, UNDOC.id]  # 1/61 * 0.9 < 1/64
    assert [h.metadata["documented"] for h in undoc_only.hits] == [True, True, False, False]


def test_min_max_fusion_gives_a_lists_last_hit_nothing_for_the_priors_to_move(store: EmbeddedStore) -> None:
    # BM25 alone, min-max: the first hit 1.0, the last 0.0. A factor scales the others; the last stays last
    # (a known cost of min-max, measured worth it on the held-out corpora: docs/search-quality.md).
    plain = QueryEngine(store, store, name_match=NO_NAME_MATCH, priors=NO_PRIORS).search("rows csv", limit=4)
    assert _ids(plain) == [TEST_EXPORT.id, UNDOC.id, FETCH.id, EXPORT.id]
    assert [round(h.score, 4) for h in plain.hits] == [1.0, 0.7259, 0.0031, 0.0]
    private_half = QueryEngine(store, store, name_match=NO_NAME_MATCH, priors=Priors(1.0, 0.5, 1.0)).search("rows csv", limit=4)
    assert _ids(private_half) == _ids(plain)
    assert [round(h.score, 4) for h in private_half.hits] == [1.0, 0.7259, 0.0016, 0.0]


def test_rerank_lifts_documented_definitions_and_keeps_the_fused_order_among_equal_scores() -> None:
    section = Chunk("r:app/views.py#L1-9", "r", "r", VIEWS, "python", "file_section", "views.py", "r:app/views.py",
                    None, 1, 9, "x", "s")
    file_node = Node("r:app/views.py", "File", "views.py", VIEWS, "r", VIEWS, 1, 0, 9, 0, {})
    cands = [Candidate(section, file_node, 0.02), Candidate(_chunk(UNDOC, "x"), UNDOC, 0.02),
             Candidate(_chunk(EXPORT, "x"), EXPORT, 0.02)]
    # the documented definition rises; the file section and the undocumented function keep their order
    assert [(r.index, r.score) for r in rerank(cands, {}, Priors(1.0, 1.0, 0.5), False)] == [
        (2, 0.02), (0, 0.01), (1, 0.01)]
    # an index recording no documentation: every chunk takes the same factor, the fused order stands
    blind = [Candidate(section, file_node, 0.03), Candidate(_chunk(UNDOC, "x"), UNDOC, 0.02)]
    assert [r.index for r in rerank(blind, {}, Priors(1.0, 1.0, 0.5), False)] == [0, 1]
    assert prior_factor(section, file_node, Priors(0.5, 0.5, 1.0), False) == 1.0  # no private file section
    assert prior_factor(section, file_node, Priors(0.5, 0.5, 0.5), True) == 0.25  # not test code, not documented
    exact_only = rerank(cands, {EXPORT.id: 0.25}, NO_PRIORS, False)
    assert [(r.index, r.score, r.exact) for r in exact_only] == [(2, EXACT_SCORE + 0.25, True), (0, 0.02, False),
                                                                  (1, 0.02, False)]


def test_rules_identifier_tests_visibility_and_bad_factors() -> None:
    assert is_identifier(" Config.from_envvar ") and is_identifier("$scope")
    assert not is_identifier("save order") and not is_identifier("a.b(") and not is_identifier("")
    assert asks_for_tests("tests for url_for") and asks_for_tests("TestCase") and asks_for_tests("test_client")
    assert not asks_for_tests("latest contest results") and not asks_for_tests("attestation")
    assert visibility(HELPER_SAVE, "python") == "public" and is_private(HELPER_SAVE, "python")  # a private class
    assert is_private(FETCH, "python") and not is_private(_node(MODELS, "Base.__init__"), "python")
    ts = Node("r:a.f", "Function", "f", "f", "r", "a.ts", 1, 0, 2, 0, {})
    assert visibility(ts, "typescript") == "module" and is_private(ts, "typescript")
    assert not is_private(Node("r:a.f", "Function", "f", "f", "r", "a.ts", 1, 0, 2, 0, {"exported": True}),
                          "typescript")
    java = Node("r:A.m", "Method", "m", "A.m", "r", "A.java", 1, 0, 2, 0, {"modifiers": ["private", "static"]})
    assert visibility(java, "java") == "private" and visibility(_node(MODELS, "Base.m"), "java") is None
    for bad in (0.0, -1.0, 1.5):
        with pytest.raises(ValueError, match="prior factor tests must be in"):
            Priors(tests=bad)


def test_the_indexer_marks_documented_definitions(tmp_path: Path) -> None:
    from indexer.pipeline import index_repository
    from indexer.run import IndexOptions

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text('def documented():\n    """Does it."""\n\n\ndef bare():\n    pass\n')
    (tmp_path / "src" / "A.java").write_text("class A {\n  /** Runs. */\n  void run() {}\n  void stop() {}\n}\n")
    (tmp_path / "src" / "f.ts").write_text("/** Loads. */\nexport function load() {}\nexport function keep() {}\n")
    s = EmbeddedStore(tmp_path / "index.db")
    try:
        index_repository(tmp_path / "src", s, s, IndexOptions(repo="r", jobs=1, record=False))
        found = {n.name: n.props.get("documented") for name in ("documented", "bare", "run", "stop", "load", "keep")
                 for n in s.find_symbols([name])[name]}
    finally:
        s.close()
    assert found == {"documented": True, "bare": None, "run": True, "stop": None, "load": True, "keep": None}


def test_past_the_fan_in_cap_definitions_follow_by_test_visibility_and_id(store: EmbeddedStore, monkeypatch) -> None:
    import analysis.ranking as ranking

    monkeypatch.setattr(ranking, "MAX_FAN_IN", 2)
    # by (implementation, public, id) the first two are Base.save and Child.save: ranked by the graph (base
    # first); the private helper and the test follow unranked, scored without base and fan-in
    ranked = ranking.named_definitions(store, store, "save", None)
    assert [(n.id, s) for n, s in ranked] == [(BASE_SAVE.id, (4 + 2 + 1 + 2 / 3) / 8), (CHILD_SAVE.id, (4 + 2 + 3 / 4) / 8),
                                              (HELPER_SAVE.id, 4 / 8), (TEST_SAVE.id, 2 / 8)]
