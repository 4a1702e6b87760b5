"""The agent facade (analysis/agent_queries.py) on two repositories indexed into one store: target
resolution, each tool's exact answer, the steps, the size budget and its notes, bad arguments."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import pytest

from analysis.agent_queries import (AgentQueries, IndexSource, TargetError, estimate_tokens,
                                    resolve_target)
from analysis.tokens import count_tokens
from indexer.embedding import embed_pending
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.contracts import GraphStore
from stores.embedded import EmbeddedStore
from stores.embedder import Embedder
from stores.errors import StoreUnavailable

ROOT = Path(__file__).resolve().parents[1]
SHOP = ROOT / "fixtures" / "agent-shop"
PETCLINIC = ROOT / "lsp" / "workspace" / "petclinic"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = EmbeddedStore(tmp_path_factory.mktemp("agent") / "x.db")
    index_repository(SHOP, s, s, IndexOptions(repo="agent-shop", jobs=1))
    index_repository(PETCLINIC, s, s, IndexOptions(repo="petclinic", jobs=1))
    embed_pending(s, Embedder())
    yield s
    s.close()


@pytest.fixture(scope="module")
def q(store):
    return AgentQueries(store, store)


def ids(nodes):
    return [n.id for n in nodes]


# ------------------------------------------------------------------------------ targets

def test_target_by_qualified_name_node_id_and_path_line(store):
    place = "agent-shop:shop/service.OrderService.place(1)"
    assert ids(resolve_target(store, "OrderService.place")[0]) == [place]
    assert ids(resolve_target(store, "shop.service.OrderService.place")[0]) == [place]
    assert ids(resolve_target(store, place)[0]) == [place]
    assert ids(resolve_target(store, "shop/service.py:11")[0]) == [place]
    assert ids(resolve_target(store, "shop/service.py:11:9")[0]) == ["agent-shop:shop/service.validate(1)"]
    assert ids(resolve_target(store, "OwnerController.java:11")[0]) == [
        "petclinic:src/main/java/org/example/OwnerController.OwnerController.show(int)"]


def test_target_not_found_lists_the_closest_names(store):
    with pytest.raises(TargetError) as err:
        resolve_target(store, "OrderServ")
    assert str(err.value).startswith("no symbol matches 'OrderServ'; closest names: shop.service.OrderService")
    assert "Pass one of the candidates' ids" in str(err.value)
    assert [c["id"] for c in err.value.candidates] == ["agent-shop:shop/service.OrderService"]
    with pytest.raises(TargetError) as none:
        resolve_target(store, "zzzqqq")
    # no candidates: the message does not ask for one
    assert str(none.value) == ("no symbol matches 'zzzqqq'. Pass a qualified name (Class.method, "
                               "package.module.function), a node id or PATH:LINE")
    assert none.value.candidates == []


def test_target_naming_several_symbols_is_an_error_with_them(store):
    with pytest.raises(TargetError) as err:
        resolve_target(store, "__init__")
    assert str(err.value) == ("'__init__' names 2 different symbols: agent-shop:shop/repository.OrderRepository.__init__(0), "
                              "agent-shop:shop/service.OrderService.__init__(1). Pass one id, or a qualified name long enough to tell them apart (package.Class.method), as the target")
    assert [c["id"] for c in err.value.candidates] == [
        "agent-shop:shop/repository.OrderRepository.__init__(0)", "agent-shop:shop/service.OrderService.__init__(1)"]
    # As the message says, a longer qualified name tells them apart.
    assert [n.id for n in resolve_target(store, "shop.service.OrderService.__init__")[0]] == [
        "agent-shop:shop/service.OrderService.__init__(1)"]
    # Overloads are one symbol: not ambiguous.
    assert len(resolve_target(store, "OrderService.place")[0]) == 1


def test_bad_targets(store):
    for bad, message in (("", "target is empty"), ("   ", "target is empty"),
                         ("nowhere/file.py:3", "nowhere/file.py is not a file of the index"),
                         ("shop/service.py:1", "nothing is defined at shop/service.py:1 \\(repository agent-shop\\)")):
        with pytest.raises(TargetError, match=message):
            resolve_target(store, bad)


def test_a_position_outside_every_definition_offers_the_nearest(store):
    # The path as written (relative to its repository, not prefixed with it: the store holds two, so the
    # repository is named apart), and the definitions nearest the line to retry with, as candidates too.
    with pytest.raises(TargetError) as err:
        resolve_target(store, "shop/service.py:3")
    assert str(err.value) == ("nothing is defined at shop/service.py:3 (repository agent-shop) (outside every method, "
                              "function and class); nearest: OrderService at shop/service.py:6: give a line inside a "
                              "method, function or class (PATH:LINE), or its name")
    assert [c["id"] for c in err.value.candidates] == ["agent-shop:shop/service.OrderService"]
    assert "agent-shop/shop" not in str(err.value)
    # a line past the end says how long the file is; the last definition is the only one offered
    with pytest.raises(TargetError) as past:
        resolve_target(store, "shop/service.py:999")
    assert "(shop/service.py has " in str(past.value) and "nearest: validate at shop/service.py:" in str(past.value)
    assert [c["id"] for c in past.value.candidates] == ["agent-shop:shop/service.validate(1)"]
    # a word bound to nothing outside every definition: the nearest definitions, not "the definition around it"
    with pytest.raises(TargetError) as word:
        resolve_target(store, "shop/service.py:3:6")
    assert str(word.value).startswith("`shop` at shop/service.py:3:6 (repository agent-shop) is bound to nothing")
    assert "nearest definitions: OrderService at shop/service.py:6, or a qualified name" in str(word.value)
    assert "for the definition around it" not in str(word.value)



def test_position_targets_name_the_identifier_written_there(store):
    # Any column inside a callee's name means that callee (it used to mean the enclosing method unless
    # the column was the name's first character).
    for col in (32, 34, 35):
        assert ids(resolve_target(store, f"shop/service.py:12:{col}")[0]) == [
            "agent-shop:shop/repository.OrderRepository.save(1)"]
    # A definition's first line, keyword included, is that definition.
    for col in (5, 9):
        assert ids(resolve_target(store, f"shop/service.py:10:{col}")[0]) == ["agent-shop:shop/service.OrderService.place(1)"]
    # Blank or punctuation: the innermost definition around the position, as PATH:LINE.
    assert ids(resolve_target(store, "shop/service.py:12:3")[0]) == ["agent-shop:shop/service.OrderService.place(1)"]
    # An identifier bound to nothing (a local name, a call on an untyped receiver) names nothing.
    for target, word, at in (("shop/service.py:16:11", "order", "16:9"), ("shop/service.py:22:19", "get", "22:18")):
        with pytest.raises(TargetError) as err:
            resolve_target(store, target)
        assert str(err.value) == (
            f"`{word}` at shop/service.py:{at} (repository agent-shop) is bound to nothing in the index (a local name, "
            f"a keyword, a library's method, or a call whose receiver's type is not known): give shop/service.py:{at.split(':')[0]} for the "
            "definition around it, or a qualified name")


# -------------------------------------------------------------------------------- tools

def test_callers_exact(q):
    a = q.callers("OrderRepository.save")
    r = a.as_dict()["result"]
    assert r["count"] == 2
    assert [(c["from_name"], c["path"], c["line"], c["col"], c["resolution"]) for c in r["callers"]] == [
        ("shop.service.OrderService.place", "shop/service.py", 12, 32, "exact"),
        ("shop.service.OrderService.cancel", "shop/service.py", 17, 32, "exact")]
    assert a.truncated == []
    assert [(s.name, s.round_trips) for s in a.steps] == [("Resolve target", 1), ("Callers", 2), ("Reached through", 1)]
    assert "| Callers | " + f"{a.steps[1].ms:.1f} ms | 2 | 2 call sites from 2 callers |" in a.text.splitlines()
    assert r["reached_through"] == []  # a repository method serves no endpoint
    assert json.loads(json.dumps(a.as_dict())) == a.as_dict()
    # The text names each site path:line:col as `ripple callers` prints it (one repository: no repo/ in
    # front, which no editor or terminal could open: newcomer finding of round 41).
    assert a.text.splitlines()[:6] == [
        "# Callers (2)", "",
        "Target: `shop.repository.OrderRepository.save` (shop/repository.py:11, id "
        "`agent-shop:shop/repository.OrderRepository.save(1)`)", "",
        "- shop/service.py:12:32 `shop.service.OrderService.place` [exact]",
        "- shop/service.py:17:32 `shop.service.OrderService.cancel` [exact]"]
    assert "agent-shop/shop/" not in a.text


def test_location_text_names_the_repository_only_when_an_answer_spans_several():
    from analysis.navigation import location_text

    assert location_text("hc", "hc/api/models.py", 354, 5) == "hc/api/models.py:354:5"
    assert location_text("hc", "hc/api/models.py", 354) == "hc/api/models.py:354"
    assert location_text("hc", "hc/api/models.py", 354, 5, several=True) == "hc/hc/api/models.py:354:5"


def test_callers_filtered_by_resolution(q):
    r = q.callers("OrderService.place", resolution=["inferred"]).result
    assert [c["from_name"] for c in r["callers"]] == ["shop.api.create_order"]
    with pytest.raises(ValueError, match="resolution must be among"):
        q.callers("OrderService.place", resolution=["guessed"])


def test_callees_exact(q):
    r = q.callees("OrderService.cancel").result
    assert [(c["name"], [s["line"] for s in c["sites"]]) for c in r["callees"]] == [
        ("shop.repository.OrderRepository.find", [15]), ("shop.repository.OrderRepository.save", [17])]
    # places as `ripple callers` prints them: one repository, no repo/ in front (newcomer round 45:
    # symbol, callees and search still wrote agent-shop/shop/..., which no editor opens)
    assert q.callees("OrderService.cancel").text.splitlines()[2:6] == [
        "Target: `shop.service.OrderService.cancel` (shop/service.py:14, id "
        "`agent-shop:shop/service.OrderService.cancel(1)`)", "",
        "- `shop.repository.OrderRepository.find` (shop/repository.py:8), called at line 15",
        "- `shop.repository.OrderRepository.save` (shop/repository.py:11), called at line 17"]


def test_references_of_a_class(q):
    r = q.references("OrderRepository", include_declaration=True).result
    assert [(x["kind"], x["path"], x["line"]) for x in r["references"]] == [
        ("DECLARATION", "shop/repository.py", 4),
        ("CALLS", "shop/api.py", 9),
        ("USES_TYPE", "shop/service.py", 7),
        ("CALLS", "tests/check_service.py", 6)]


def test_symbol_definition_source_callers_callees(q):
    a = q.symbol("shop/api.py:13")
    (d,) = a.result["definitions"]
    assert d["id"] == "agent-shop:shop/api.create_order(1)"
    assert d["signature"] == "def create_order(order: dict)"
    assert d["source"] == '@app.post("/orders")\ndef create_order(order: dict):\n    return service.place(order)'
    assert d["endpoints"] == ["POST /orders"]
    assert d["caller_count"] == 0 and d["callee_count"] == 1
    assert [c["name"] for c in d["callees"]] == ["shop.service.OrderService.place"]
    assert "```python\n@app.post" in a.text
    assert "## `shop.api.create_order` def create_order(order: dict) (function, shop/api.py:12-14)" in a.text
    assert "- `shop.service.OrderService.place` (shop/service.py:10), called at line 14" in a.text
    assert "agent-shop/" not in a.text


def test_impact_markdown_and_report(q):
    a = q.impact("OrderRepository.save")
    report = a.result["report"]
    assert report["summary"]["text"] == "2 callers · 2 endpoints · 1 test"
    assert [(e["http_method"], e["path"]) for e in report["endpoints"]] == [("POST", "/orders"), ("DELETE", "/orders/{}")]
    assert [s.name for s in a.steps] == ["Resolve target", "Targets", "Direct callers", "Upward walk",
                                         "Attach endpoints and topics", "Tables", "Report"]
    assert a.text.startswith("# Blast radius of `OrderRepository.save`")
    assert a.text.count("## Steps executed") == 1 and "| Resolve target |" in a.text
    assert "```mermaid" in a.text and a.truncated == []
    only = q.impact("OrderRepository.save", depth=1, tests="exclude").result["report"]
    assert only["callers_by_hop"] == [2] and only["tests_mode"] == "exclude"


def test_impact_over_budget_drops_the_diagram_first_and_says_so(q):
    full = q.impact("OrderRepository.save")
    budget = count_tokens(full.text) - 10
    small = q.impact("OrderRepository.save", max_tokens=budget)
    assert "```mermaid" not in small.text and small.result["report"]["mermaid"] is None
    assert small.truncated == ["Mermaid diagram left out for the budget"]
    assert count_tokens(small.text) <= budget
    # one Truncated section, saying what the budget cut, never also "nothing" was cut
    section = small.text.split("## Truncated\n\n", 1)[1].split("\n\n", 1)[0]
    assert section == "- Mermaid diagram left out for the budget"
    assert "**Truncated:**" not in small.text and "- nothing:" not in small.text
    assert "- nothing: every caller within 5 hops was followed" in full.text
    tiny = q.impact("OrderRepository.save", max_tokens=200)
    assert tiny.truncated[1].startswith("1 caller named per hop and 1 row per list for the budget")


def test_search_hits_carry_source_and_graph_context(q):
    a = q.search("validate", limit=3)
    top = a.result["hits"][0]
    assert top["id"] == "agent-shop:shop/service.validate(1)"
    assert top["callers"] == {"count": 1, "names": ["shop.service.OrderService.place"]}
    assert top["callees"] == {"count": 0, "names": []}
    assert top["source"].startswith("def validate(order):")
    create = q.search("create_order", kind="function", limit=1).result["hits"][0]
    assert create["endpoints"] == {"count": 1, "names": ["POST /orders"]}
    assert [s.name for s in a.steps][-2:] == ["Hybrid search", "Graph context"]
    again = q.search("validate", limit=3)  # the query model is loaded once
    # chunk count, BM25, kNN, exact names (3: ids and paths of the name, then only the nodes that can rank), chunks,
    # nodes, callers; then callers, callees, names
    assert [(s.name, s.round_trips) for s in again.steps] == [("Hybrid search", 11), ("Graph context", 3)]
    java = q.search("owner", language="java", limit=5).result["hits"]
    assert java and {h["repo"] for h in java} == {"petclinic"}
    # hits of one repository: path:line-end as `ripple search` prints it; of several: repo/ in front
    assert "## 1. `shop.service.validate` (function, shop/service.py:20-23) score" in a.text
    assert "agent-shop/" not in a.text
    both = q.search("owner order", limit=20)
    assert {h["repo"] for h in both.result["hits"]} == {"agent-shop", "petclinic"}
    assert all(line.split(", ", 1)[1].startswith(("agent-shop/", "petclinic/"))
               for line in both.text.splitlines() if line.startswith("## ") and ". `" in line)


def test_search_over_budget_says_what_was_cut(q):
    full = q.search("order", limit=10)
    small = q.search("order", limit=10, max_tokens=400)
    n = len(small.result["hits"])
    assert n < len(full.result["hits"])
    assert f"showing {n} of {len(full.result['hits'])} hits: raise max_tokens or narrow the request for the rest" \
        in small.truncated
    assert count_tokens(small.text) == small.as_dict()["budget"]["tokens"] <= 400
    assert small.as_dict()["budget"]["counted_by"] == "bundled tokenizer (all-MiniLM-L6-v2 WordPiece)"
    assert "**Truncated:**" in small.text and full.truncated == []


def test_similar_by_target_and_by_chunk(q):
    a = q.similar(target="OrderRepository.find", limit=3)
    hits = a.result["hits"]
    assert len(hits) == 3 and "agent-shop:shop/repository.OrderRepository.find(1)" not in [h["id"] for h in hits]
    assert a.result["chunk_id"] == "agent-shop:shop/repository.OrderRepository.find(1)"
    b = q.similar(chunk_id="agent-shop:shop/repository.OrderRepository.find(1)", limit=3)
    assert [h["id"] for h in b.result["hits"]] == [h["id"] for h in hits]
    with pytest.raises(ValueError, match="either target"):
        q.similar()
    with pytest.raises(ValueError, match="no chunk 'nope'"):
        q.similar(chunk_id="nope")


def test_repositories_counts_and_freshness(store):
    fresh = AgentQueries(store, store, sources=[IndexSource("x.db", time.time() + 60, {"agent-shop": str(SHOP)})])
    r = fresh.repositories().result
    assert [(x["name"], x["files"]) for x in r["repositories"]] == [("agent-shop", 5), ("petclinic", 3)]
    # petclinic has no IndexSource: its folder and time come from the store's registry.
    assert r["repositories"][0]["changed_files"] == 0 and r["repositories"][1]["changed_files"] == 0
    pet = r["repositories"][1]
    assert (pet["root"], pet["default"], pet["product"]) == (str(PETCLINIC.resolve()), True, "petclinic")
    assert pet["counts"] == {"files": 3, "nodes": pet["counts"]["nodes"], "edges": pet["counts"]["edges"],
                             "chunks": pet["counts"]["chunks"], "vectors": 0}  # recorded before embedding
    assert pet["counts"]["nodes"] > 3 and pet["indexed_at"].endswith("Z")
    # The registry's time (written by the run) wins over an IndexSource's file time, which moves when
    # the index file is merely opened: an entry recorded at the epoch sees every file changed since.
    stale_source = AgentQueries(store, store, sources=[IndexSource("x.db", 0.0, {"agent-shop": str(SHOP)})])
    assert stale_source.repositories().result["repositories"][1]["changed_files"] == 0
    record = next(x for x in store.repositories() if x.key == "petclinic")
    store.upsert_repository(dataclasses.replace(record, indexed_at=0.0))
    try:
        assert fresh.repositories().result["repositories"][1]["changed_files"] == 3
    finally:
        store.upsert_repository(record)
    assert r["totals"]["chunks"] > 0 and r["totals"]["embedded"] == r["totals"]["chunks"]


def test_bad_arguments(q):
    for call, message in ((lambda: q.search(""), "query is empty"),
                          (lambda: q.search("x", limit=0), "limit must be an integer from 1 to 100"),
                          (lambda: q.search("x", kind="module"), "kind must be one of"),
                          (lambda: q.callers("Owner", max_tokens=10), "max_tokens must be an integer from 200"),
                          (lambda: q.impact("Owner", depth=0), "depth must be an integer from 1 to 20"),
                          (lambda: q.impact("Owner", tests="some"), "tests must be one of")):
        with pytest.raises(ValueError, match=message):
            call()


def test_store_failure_propagates_as_store_error(store):
    class Down(GraphStore):
        def __getattribute__(self, name):
            if name in ("replace_files", "delete_files", "file_text", "file_checksums", "repos", "get_nodes",
                        "find_symbols", "nodes_in_file", "labelled", "incoming", "outgoing", "search_symbols", "unresolved_calls",
                        "stats"):
                def fail(*args, **kwargs):
                    raise StoreUnavailable("graph down")
                return fail
            return object.__getattribute__(self, name)

    Down.__abstractmethods__ = frozenset()
    down = AgentQueries(Down(), store)
    with pytest.raises(StoreUnavailable, match="graph down"):
        down.callers("OrderRepository.save")


def test_estimate_tokens_counts_with_the_bundled_tokenizer():
    # def | make | _ | response | ( | self | ) | :  -- WordPiece, no [CLS] / [SEP]
    assert estimate_tokens("") == 0 and estimate_tokens("def make_response(self):") == 8


def test_factory_freshness_helpers(tmp_path):
    from stores.factory import claim_repository, index_written_at, repository_roots

    db = tmp_path / "i.db"
    assert index_written_at(db) is None
    s = EmbeddedStore(db)
    try:
        index_repository(SHOP, s, s, IndexOptions(repo="agent-shop", jobs=1))
        claim_repository(s, db, "agent-shop", SHOP)
        assert repository_roots(s, db) == {"agent-shop": str(SHOP)}
        written = index_written_at(db)
        assert written is not None and abs(written - time.time()) < 120
    finally:
        s.close()


def test_several_indexes_served_as_one(tmp_path):
    shop, pet = EmbeddedStore(tmp_path / "shop.db"), EmbeddedStore(tmp_path / "pet.db")
    try:
        index_repository(SHOP, shop, shop, IndexOptions(repo="agent-shop", jobs=1))
        index_repository(PETCLINIC, pet, pet, IndexOptions(repo="petclinic", jobs=1))
        q = AgentQueries([shop, pet], [shop, pet])
        assert [r["name"] for r in q.repositories().result["repositories"]] == ["agent-shop", "petclinic"]
        assert [c["from_name"] for c in q.callers("Owner.getId").result["callers"]] == [
            "org.example.OwnerController.showName"]
        assert [c["from_name"] for c in q.callers("OrderRepository.find").result["callers"]] == [
            "shop.service.OrderService.cancel"]
        hits = q.search("findById", limit=3).result["hits"]
        assert hits[0]["id"] == "petclinic:src/main/java/org/example/OwnerRepository.OwnerRepository.findById(int)"
        assert hits[0]["callers"] == {"count": 1, "names": ["org.example.OwnerController.show"]}
        assert {h["repo"] for h in q.search("order", limit=5).result["hits"]} == {"agent-shop"}
    finally:
        shop.close()
        pet.close()


def test_symbol_with_many_callers_cuts_its_lists_and_says_so(tmp_path):
    src = tmp_path / "many"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "__init__.py").write_text("")
    (src / "pkg" / "core.py").write_text("def target(x):\n    return x\n")
    (src / "pkg" / "users.py").write_text("from pkg.core import target\n\n\n" + "".join(
        f"def user_{i:02d}():\n    return target({i})\n\n\n" for i in range(60)))
    s = EmbeddedStore(tmp_path / "many.db")
    try:
        index_repository(src, s, s, IndexOptions(repo="many", jobs=1))
        q = AgentQueries(s, s)
        full = q.symbol("pkg.core.target", max_tokens=100_000)
        assert full.result["definitions"][0]["caller_count"] == 60 and full.truncated == []
        small = q.symbol("pkg.core.target", max_tokens=500)
        (d,) = small.result["definitions"]
        kept = len(d["callers"])
        assert 5 <= kept < 60 and d["caller_count"] == 60
        assert small.truncated == [f"callers cut to {kept} per definition ({60 - kept} left out; the counts stay "
                                   "complete): ask for callers of one target for all of them"]
        assert count_tokens(small.text) <= 500
        assert f"**Callers** (60 call sites), {kept} shown" in small.text
        callers_page = q.callers("pkg.core.target", max_tokens=300)
        n = len(callers_page.result["callers"])
        assert callers_page.result["count"] == 60 and callers_page.truncated == [
            f"showing {n} of 60 call sites: raise max_tokens or narrow the request for the rest"]
        assert count_tokens(callers_page.text) <= 300
    finally:
        s.close()


def test_repo_narrows_targets_defined_in_several_repositories(tmp_path):
    s = EmbeddedStore(tmp_path / "twice.db")
    try:
        for repo in ("shop-a", "shop-b"):
            index_repository(SHOP, s, s, IndexOptions(repo=repo, jobs=1))
        q = AgentQueries(s, s)
        with pytest.raises(TargetError) as err:
            q.callers("OrderRepository.save")
        assert str(err.value) == (
            "'OrderRepository.save' names 2 different symbols: shop-a:shop/repository.OrderRepository.save(1), "
            "shop-b:shop/repository.OrderRepository.save(1). Pass one id, or a qualified name long enough to tell them apart (package.Class.method), as the target; or pass repo (one of "
            "shop-a, shop-b)")
        assert [c["repo"] for c in err.value.candidates] == ["shop-a", "shop-b"]
        b = q.callers("OrderRepository.save", repo="shop-b")
        assert [t["id"] for t in b.result["targets"]] == ["shop-b:shop/repository.OrderRepository.save(1)"]
        assert {c["repo"] for c in b.result["callers"]} == {"shop-b"} and b.result["count"] == 2
        # PATH:LINE names a file of both repositories: repo chooses.
        with pytest.raises(TargetError, match="shop/repository.py may be any of shop-a/shop/repository.py, "
                                              "shop-b/shop/repository.py"):
            q.symbol("shop/repository.py:11")
        at = q.symbol("shop/repository.py:11", repo="shop-a").result["definitions"]
        assert [d["id"] for d in at] == ["shop-a:shop/repository.OrderRepository.save(1)"]
        assert q.impact("OrderRepository.save", repo="shop-a").result["report"]["targets"][0]["id"].startswith("shop-a:")
        with pytest.raises(TargetError, match=r"^no symbol matches 'OrderRepository.save' in repository 'nope' "
                                              r"\(no repository 'nope' is indexed: see repositories\)"):
            q.references("OrderRepository.save", repo="nope")
        repos = q.repositories().result["repositories"]
        chunks = s.chunk_count("shop-a")["chunks"]
        assert chunks > 0 and [(r["name"], r["chunks"], r["embedded"]) for r in repos] == [
            ("shop-a", chunks, 0), ("shop-b", chunks, 0)]
        assert f"| shop-a | 5 | {chunks} (0) |" in q.repositories().text
    finally:
        s.close()


def test_a_path_line_in_two_repositories_is_ambiguous_and_in_none_unknown(tmp_path):
    """An API answers 409 for a path that may be several files (TargetError.ambiguous), 404 for none."""
    from stores.contracts import FileRecord, IndexedFile, Node

    with EmbeddedStore(tmp_path / "two.db") as s:
        s.replace_files([IndexedFile(FileRecord(r, "src/a.py", "python", "a" * 64, 10), nodes=[
            Node(f"{r}:src/a.py", "File", "src/a.py", "src/a.py", r, "src/a.py", 1, 0, 3, 0),
            Node(f"{r}:src/a.f(0)", "Function", "f", "f", r, "src/a.py", 1, 0, 2, 0)]) for r in ("one", "two")])
        with pytest.raises(TargetError) as several:
            resolve_target(s, "a.py:1")
        assert several.value.ambiguous
        assert str(several.value).startswith("a.py may be any of one/src/a.py, two/src/a.py; give more of its path")
        with pytest.raises(TargetError) as none:
            resolve_target(s, "b.py:1")
        assert not none.value.ambiguous
        assert ids(resolve_target(s, "a.py:1", "two")[0]) == ["two:src/a.f(0)"]


def test_impact_names_what_a_bare_name_also_matched(tmp_path):
    # As callers / references (and the CLI's impact) do: the chosen definition, and the others listed.
    src = tmp_path / "app"
    src.mkdir()
    (src / "routes.py").write_text("def follow(name):\n    return name\n", encoding="utf-8")
    (src / "models.py").write_text("class User:\n    def follow(self, other):\n        return other\n", encoding="utf-8")
    with EmbeddedStore(tmp_path / "i.db") as s:
        index_repository(src, s, s, IndexOptions(repo="app", jobs=1))
        a = AgentQueries(s, s).impact("follow")
        assert [t["id"] for t in a.result["report"]["targets"]] == ["app:routes.follow(1)"]
        assert [n["id"] for n in a.result["report"]["also_named"]] == ["app:models.User.follow(1)"]
        assert "Also named so, not included: `app:models.User.follow(1)`" in a.text
        assert AgentQueries(s, s).impact("User.follow").result["report"]["also_named"] == []
