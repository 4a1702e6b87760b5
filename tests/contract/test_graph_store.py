"""GraphStore contract: every backend returns exactly these answers for the same writes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from stores.contracts import Edge, FileRecord, IndexedFile, Node, SymbolKey, UnresolvedCall

SHOP = "shop"
BILLING = "billing"

OWNERS = "src/owners.py"
SERVICE = "src/service.py"
WEB = "src/web.py"
SPECIAL = "src/special.py"
PAY = "app/pay.ts"

REPO_CLS = "shop:src/owners.OwnerRepository"
FIND = "shop:src/owners.OwnerRepository.find(1)"
SAVE = "shop:src/owners.OwnerRepository.save(1)"
DELETE = "shop:src/owners.OwnerRepository.delete(1)"
SVC_CLS = "shop:src/service.OwnerService"
LOOKUP = "shop:src/service.OwnerService.lookup(1)"
HANDLER = "shop:src/web.handler(0)"
SPECIAL_SAVE = "shop:src/special.SpecialRepository.save(1)"
PAY_FN = "billing:app/pay.pay(1)"


def node(id: str, label: str, repo: str, file: str, line: int, col: int = 0, **props: Any) -> Node:
    """A node whose name / qualname derive from its id."""
    qual = id.split(":", 1)[1]
    if label == "File":
        name = qualname = file
    else:
        qualname = qual.split("/")[-1].split(".", 1)[1].split("(")[0]
        name = qualname.split(".")[-1]
    return Node(id, label, name, qualname, repo, file, line, col, line + 5, 0, props)


def file_node(repo: str, path: str, language: str) -> Node:
    return node(f"{repo}:{path}", "File", repo, path, 1, language=language)


def owners_v1() -> IndexedFile:
    return IndexedFile(
        FileRecord(SHOP, OWNERS, "python", "a" * 64, 120),
        nodes=[
            file_node(SHOP, OWNERS, "python"),
            node(REPO_CLS, "Class", SHOP, OWNERS, 3),
            node(FIND, "Method", SHOP, OWNERS, 4, 4, arity=1, signature="def find(self, id)"),
            node(SAVE, "Method", SHOP, OWNERS, 8, 4, arity=1),
        ],
        edges=[
            Edge("CONTAINS", f"{SHOP}:{OWNERS}", REPO_CLS, SHOP, OWNERS),
            Edge("CONTAINS", REPO_CLS, FIND, SHOP, OWNERS),
            Edge("CONTAINS", REPO_CLS, SAVE, SHOP, OWNERS),
            Edge("CALLS", SAVE, FIND, SHOP, OWNERS, 9, 8, "exact"),
        ],
    )


def owners_v2() -> IndexedFile:
    """``save`` is gone, ``delete`` is new, ``find`` stays."""
    return IndexedFile(
        FileRecord(SHOP, OWNERS, "python", "b" * 64, 130),
        nodes=[
            file_node(SHOP, OWNERS, "python"),
            node(REPO_CLS, "Class", SHOP, OWNERS, 3),
            node(FIND, "Method", SHOP, OWNERS, 4, 4, arity=1),
            node(DELETE, "Method", SHOP, OWNERS, 8, 4, arity=1),
        ],
        edges=[
            Edge("CONTAINS", f"{SHOP}:{OWNERS}", REPO_CLS, SHOP, OWNERS),
            Edge("CONTAINS", REPO_CLS, FIND, SHOP, OWNERS),
            Edge("CONTAINS", REPO_CLS, DELETE, SHOP, OWNERS),
            Edge("CALLS", DELETE, FIND, SHOP, OWNERS, 9, 8, "exact"),
        ],
    )


def service() -> IndexedFile:
    return IndexedFile(
        FileRecord(SHOP, SERVICE, "python", "c" * 64, 200),
        nodes=[
            file_node(SHOP, SERVICE, "python"),
            node(SVC_CLS, "Class", SHOP, SERVICE, 2),
            node(LOOKUP, "Method", SHOP, SERVICE, 4, 4, arity=1),
        ],
        edges=[
            Edge("CONTAINS", f"{SHOP}:{SERVICE}", SVC_CLS, SHOP, SERVICE),
            Edge("CONTAINS", SVC_CLS, LOOKUP, SHOP, SERVICE),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 9, 15, "inferred"),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 5, 8, "exact"),
            Edge("CALLS", LOOKUP, SAVE, SHOP, SERVICE, 6, 8, "name"),
            Edge("USES_TYPE", LOOKUP, REPO_CLS, SHOP, SERVICE, 4, 20),
        ],
        unresolved=[UnresolvedCall(LOOKUP, "render", 2, "self.view", SHOP, SERVICE, 7, 8)],
    )


def web() -> IndexedFile:
    return IndexedFile(
        FileRecord(SHOP, WEB, "python", "d" * 64, 80),
        nodes=[file_node(SHOP, WEB, "python"), node(HANDLER, "Function", SHOP, WEB, 3)],
        edges=[Edge("CALLS", HANDLER, LOOKUP, SHOP, WEB, 4, 11, "exact")],
        unresolved=[
            UnresolvedCall(HANDLER, "render", 1, None, SHOP, WEB, 5, 4),
            UnresolvedCall(HANDLER, "jsonify", 1, None, SHOP, WEB, 6, 4),
        ],
    )


def special() -> IndexedFile:
    """An edge owned by this file whose *destination* lives in owners.py (``save``), and one owned
    by this file whose *source* is ``save``'s override."""
    return IndexedFile(
        FileRecord(SHOP, SPECIAL, "python", "e" * 64, 60),
        nodes=[file_node(SHOP, SPECIAL, "python"), node(SPECIAL_SAVE, "Method", SHOP, SPECIAL, 3, 4)],
        edges=[Edge("OVERRIDES", SPECIAL_SAVE, SAVE, SHOP, SPECIAL, 3, 8)],
    )


def pay() -> IndexedFile:
    return IndexedFile(
        FileRecord(BILLING, PAY, "typescript", "f" * 64, 90),
        nodes=[file_node(BILLING, PAY, "typescript"), node(PAY_FN, "Function", BILLING, PAY, 2)],
        edges=[Edge("CALLS", PAY_FN, FIND, BILLING, PAY, 3, 2, "name")],
    )


def load(store) -> None:
    store.replace_files([owners_v1(), service(), web()])
    store.replace_files([special(), pay()])


# --------------------------------------------------------------------------------------- nodes


def test_empty_store(graph_store):
    assert graph_store.repos() == []
    assert graph_store.file_checksums(SHOP) == {}
    assert graph_store.get_nodes([FIND]) == {}
    assert graph_store.incoming([FIND], ["CALLS"]) == {FIND: []}
    stats = graph_store.stats()
    assert (stats["files"], stats["nodes"], stats["edges"], stats["calls_by_resolution"],
            stats["unresolved_calls"]) == ({}, {}, {}, {}, 0)


def test_get_nodes_round_trips_and_omits_missing(graph_store):
    load(graph_store)
    got = graph_store.get_nodes([FIND, "shop:nope.x(0)", PAY_FN])
    assert set(got) == {FIND, PAY_FN}
    assert got[FIND] == Node(FIND, "Method", "find", "OwnerRepository.find", SHOP, OWNERS, 4, 4, 9, 0)
    assert got[FIND].props == {"arity": 1, "signature": "def find(self, id)"}
    assert got[PAY_FN].props == {}
    assert graph_store.get_nodes([]) == {}


def test_nodes_in_file_order(graph_store):
    extra = IndexedFile(
        FileRecord(SHOP, "src/order.py", "python", "0" * 64, 10),
        nodes=[
            node("shop:src/order.b(0)", "Function", SHOP, "src/order.py", 5, 0),
            node("shop:src/order.a(0)", "Function", SHOP, "src/order.py", 5, 0),
            node("shop:src/order.c(0)", "Function", SHOP, "src/order.py", 2, 9),
            node("shop:src/order.d(0)", "Function", SHOP, "src/order.py", 2, 3),
            file_node(SHOP, "src/order.py", "python"),
        ],
    )
    graph_store.replace_files([extra])
    assert [n.id for n in graph_store.nodes_in_file(SHOP, "src/order.py")] == [
        "shop:src/order.py",
        "shop:src/order.d(0)",
        "shop:src/order.c(0)",
        "shop:src/order.a(0)",
        "shop:src/order.b(0)",
    ]
    assert graph_store.nodes_in_file(SHOP, "src/none.py") == []


def test_find_symbols(graph_store):
    load(graph_store)
    got = graph_store.find_symbols(["save", "OwnerRepository", "ownerrepository", "missing"])
    assert {k: [n.id for n in v] for k, v in got.items()} == {
        "save": [SAVE, SPECIAL_SAVE],
        "OwnerRepository": [REPO_CLS],
        "ownerrepository": [],
        "missing": [],
    }
    got = graph_store.find_symbols(["save", "OwnerRepository"], labels=["Class"])
    assert {k: [n.id for n in v] for k, v in got.items()} == {"save": [], "OwnerRepository": [REPO_CLS]}


def _keyed(repo: str, path: str, module: str | None, *quals: tuple[str, str]) -> IndexedFile:
    """One file of ``repo`` whose nodes are ``(label, qualname)``, ``props["module"]`` = ``module``."""
    stem = path.rsplit(".", 1)[0]
    extra = {"module": module} if module else {}
    nodes = [file_node(repo, path, "python")] + [
        node(f"{repo}:{stem}.{qual}" + ("(1)" if label in ("Method", "Function") else ""), label, repo, path, 3 + i, **extra)
        for i, (label, qual) in enumerate(quals)]
    return IndexedFile(FileRecord(repo, path, "python", "9" * 64, 10), nodes=nodes)


def test_find_symbol_keys(graph_store):
    graph_store.replace_files([
        _keyed("a", "src/app/core.py", "app.core", ("Class", "Widget"), ("Method", "Widget.save"), ("Function", "save"),
               ("Method", "MyWidget.save")),
        _keyed("b", "src/app/core.py", None, ("Method", "Widget.save"), ("Field", "Widget.save")),
        _keyed("c", "lib/w.py", "lib.w", ("Method", "outer.Widget.save"), ("Method", "Gadget.save")),
    ])
    A = "a:src/app/core."
    got = graph_store.find_symbol_keys([("save", "Widget.save"), ("save", ""), ("Widget", "app.core.Widget"),
                                        ("save", "app.core.Widget.save"), ("missing", "")], ["Method", "Function", "Class"])
    assert {k: [n.id for n in v] for k, v in got.items()} == {
        # agrees on the common end: Widget.save itself, outer.Widget.save, a top-level save; not MyWidget.save
        ("save", "Widget.save"): [A + "Widget.save(1)", A + "save(1)", "b:src/app/core.Widget.save(1)",
                                  "c:lib/w.outer.Widget.save(1)"],
        ("save", ""): [A + "MyWidget.save(1)", A + "Widget.save(1)", A + "save(1)", "b:src/app/core.Widget.save(1)",
                       "c:lib/w.Gadget.save(1)", "c:lib/w.outer.Widget.save(1)"],  # every Method / Function save
        ("Widget", "app.core.Widget"): [A + "Widget"],
        ("save", "app.core.Widget.save"): [A + "Widget.save(1)", A + "save(1)", "b:src/app/core.Widget.save(1)"],
        ("missing", ""): [],
    }
    assert got[("Widget", "app.core.Widget")][0] == SymbolKey(A + "Widget", "Class", "Widget", "Widget", "a",
                                                              "src/app/core.py", "app.core")
    assert got[("save", "Widget.save")][2].module == ""  # b's nodes have no module
    # labels, a limit per key (first by id), and one repository's files left out before the cut
    field = graph_store.find_symbol_keys([("save", "Widget.save")], ["Field"])
    assert [n.id for n in field[("save", "Widget.save")]] == ["b:src/app/core.Widget.save"]
    cut = graph_store.find_symbol_keys([("save", ""), ("Widget", "")], ["Method", "Function"], limit=2)
    assert {k: [n.id for n in v] for k, v in cut.items()} == {
        ("save", ""): [A + "MyWidget.save(1)", A + "Widget.save(1)"], ("Widget", ""): []}
    skipped = graph_store.find_symbol_keys([("save", "")], ["Method", "Function"], limit=2, skip_repo="a",
                                           skip_files=["src/app/core.py"])
    assert [n.id for n in skipped[("save", "")]] == ["b:src/app/core.Widget.save(1)", "c:lib/w.Gadget.save(1)"]
    same_path = graph_store.find_symbol_keys([("save", "Widget.save")], ["Method"], skip_repo="b",
                                             skip_files=["src/app/core.py"])  # a's file of the same path stays
    assert [n.id for n in same_path[("save", "Widget.save")]] == [A + "Widget.save(1)", "c:lib/w.outer.Widget.save(1)"]
    assert graph_store.find_symbol_keys([("save", "")], []) == {("save", ""): []}
    assert graph_store.find_symbol_keys([], ["Method"]) == {}


def test_file_checksums_and_repos(graph_store):
    load(graph_store)
    assert graph_store.file_checksums(SHOP) == {
        OWNERS: "a" * 64, SERVICE: "c" * 64, WEB: "d" * 64, SPECIAL: "e" * 64,
    }
    assert graph_store.file_checksums(BILLING) == {PAY: "f" * 64}
    assert graph_store.repos() == [BILLING, SHOP]


# --------------------------------------------------------------------------------------- edges


def test_incoming_order_and_resolution_filter(graph_store):
    load(graph_store)
    got = graph_store.incoming([FIND, LOOKUP, "shop:none"], ["CALLS"])
    assert got == {
        FIND: [
            Edge("CALLS", PAY_FN, FIND, BILLING, PAY, 3, 2, "name"),
            Edge("CALLS", SAVE, FIND, SHOP, OWNERS, 9, 8, "exact"),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 5, 8, "exact"),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 9, 15, "inferred"),
        ],
        LOOKUP: [Edge("CALLS", HANDLER, LOOKUP, SHOP, WEB, 4, 11, "exact")],
        "shop:none": [],
    }
    got = graph_store.incoming([FIND], ["CALLS"], resolutions=["exact", "inferred"])
    assert [(e.src, e.line) for e in got[FIND]] == [(SAVE, 9), (LOOKUP, 5), (LOOKUP, 9)]
    got = graph_store.incoming([FIND], ["CALLS"], resolutions=["name"])
    assert [(e.src, e.line) for e in got[FIND]] == [(PAY_FN, 3)]


def test_incoming_kinds(graph_store):
    load(graph_store)
    assert graph_store.incoming([REPO_CLS], ["USES_TYPE"]) == {
        REPO_CLS: [Edge("USES_TYPE", LOOKUP, REPO_CLS, SHOP, SERVICE, 4, 20)]
    }
    got = graph_store.incoming([REPO_CLS, FIND], ["CONTAINS", "USES_TYPE"])
    assert got == {
        REPO_CLS: [
            Edge("CONTAINS", f"{SHOP}:{OWNERS}", REPO_CLS, SHOP, OWNERS),
            Edge("USES_TYPE", LOOKUP, REPO_CLS, SHOP, SERVICE, 4, 20),
        ],
        FIND: [Edge("CONTAINS", REPO_CLS, FIND, SHOP, OWNERS)],
    }
    assert graph_store.incoming([FIND], []) == {FIND: []}


def test_outgoing_order_and_filters(graph_store):
    load(graph_store)
    got = graph_store.outgoing([LOOKUP], ["CALLS"])
    assert got == {
        LOOKUP: [
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 5, 8, "exact"),
            Edge("CALLS", LOOKUP, SAVE, SHOP, SERVICE, 6, 8, "name"),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 9, 15, "inferred"),
        ]
    }
    # The resolution filter restricts CALLS edges only; other kinds pass.
    got = graph_store.outgoing([LOOKUP, REPO_CLS], ["CALLS", "USES_TYPE"], resolutions=["exact"])
    assert got == {
        LOOKUP: [
            Edge("USES_TYPE", LOOKUP, REPO_CLS, SHOP, SERVICE, 4, 20),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 5, 8, "exact"),
        ],
        REPO_CLS: [],
    }
    assert graph_store.outgoing([REPO_CLS], ["CONTAINS"]) == {
        REPO_CLS: [
            Edge("CONTAINS", REPO_CLS, FIND, SHOP, OWNERS),
            Edge("CONTAINS", REPO_CLS, SAVE, SHOP, OWNERS),
        ]
    }


def test_duplicate_edges_in_one_file_are_stored_once(graph_store):
    f = web()
    f.edges.append(Edge("CALLS", HANDLER, LOOKUP, SHOP, WEB, 4, 11, "exact"))
    graph_store.replace_files([f])
    assert graph_store.outgoing([HANDLER], ["CALLS"]) == {
        HANDLER: [Edge("CALLS", HANDLER, LOOKUP, SHOP, WEB, 4, 11, "exact")]
    }


def test_unresolved_calls(graph_store):
    load(graph_store)
    assert graph_store.unresolved_calls(["render", "jsonify", "nothing"]) == {
        "render": [
            UnresolvedCall(LOOKUP, "render", 2, "self.view", SHOP, SERVICE, 7, 8),
            UnresolvedCall(HANDLER, "render", 1, None, SHOP, WEB, 5, 4),
        ],
        "jsonify": [UnresolvedCall(HANDLER, "jsonify", 1, None, SHOP, WEB, 6, 4)],
        "nothing": [],
    }


# ------------------------------------------------------------------------------- replace / delete


def test_replace_file_again(graph_store):
    load(graph_store)
    graph_store.replace_files([owners_v2()])

    # Old nodes absent from the new version are gone, new ones are there, kept ones stay.
    assert set(graph_store.get_nodes([FIND, SAVE, DELETE])) == {FIND, DELETE}
    assert [n.id for n in graph_store.nodes_in_file(SHOP, OWNERS)] == [
        f"{SHOP}:{OWNERS}", REPO_CLS, FIND, DELETE,
    ]
    assert graph_store.get_nodes([FIND])[FIND].props == {"arity": 1}
    assert graph_store.file_checksums(SHOP)[OWNERS] == "b" * 64

    # Edges into the removed node are gone from every file (service.py's call, special.py's
    # override); edges into kept nodes, owned by other files, are kept.
    assert graph_store.incoming([SAVE], ["CALLS", "OVERRIDES", "CONTAINS"]) == {SAVE: []}
    assert graph_store.outgoing([LOOKUP], ["CALLS"]) == {
        LOOKUP: [
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 5, 8, "exact"),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 9, 15, "inferred"),
        ]
    }
    assert graph_store.incoming([FIND], ["CALLS"]) == {
        FIND: [
            Edge("CALLS", PAY_FN, FIND, BILLING, PAY, 3, 2, "name"),
            Edge("CALLS", DELETE, FIND, SHOP, OWNERS, 9, 8, "exact"),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 5, 8, "exact"),
            Edge("CALLS", LOOKUP, FIND, SHOP, SERVICE, 9, 15, "inferred"),
        ]
    }
    assert graph_store.outgoing([SPECIAL_SAVE], ["OVERRIDES"]) == {SPECIAL_SAVE: []}
    assert graph_store.incoming([REPO_CLS], ["USES_TYPE"])[REPO_CLS] == [
        Edge("USES_TYPE", LOOKUP, REPO_CLS, SHOP, SERVICE, 4, 20)
    ]
    # The file's own old edges were replaced.
    assert graph_store.outgoing([REPO_CLS], ["CONTAINS"]) == {
        REPO_CLS: [
            # Ties on (repo, file, line, col, src) break on dst, then kind.
            Edge("CONTAINS", REPO_CLS, DELETE, SHOP, OWNERS),
            Edge("CONTAINS", REPO_CLS, FIND, SHOP, OWNERS),
        ]
    }
    assert graph_store.stats()["edges"] == {"CALLS": 5, "CONTAINS": 5, "USES_TYPE": 1}


def test_replace_same_file_twice_is_idempotent(graph_store):
    load(graph_store)
    before = graph_store.stats()
    graph_store.replace_files([service()])
    graph_store.replace_files([service()])
    assert graph_store.stats() == before
    # Edges other files own into the file's kept nodes survive a re-replace.
    assert graph_store.incoming([LOOKUP], ["CALLS"])[LOOKUP] == [
        Edge("CALLS", HANDLER, LOOKUP, SHOP, WEB, 4, 11, "exact")
    ]


def test_removed_node_takes_outgoing_edges_owned_elsewhere(graph_store):
    """Like a graph database's DETACH DELETE: a node that goes takes every edge touching it."""
    load(graph_store)
    graph_store.replace_files([IndexedFile(FileRecord(SHOP, SPECIAL, "python", "9" * 64, 1),
                                           nodes=[file_node(SHOP, SPECIAL, "python")])])
    elsewhere = IndexedFile(
        FileRecord(SHOP, "src/other.py", "python", "8" * 64, 1),
        nodes=[file_node(SHOP, "src/other.py", "python")],
        edges=[Edge("CALLS", SAVE, LOOKUP, SHOP, "src/other.py", 1, 0, "name")],
    )
    graph_store.replace_files([elsewhere])
    assert graph_store.incoming([LOOKUP], ["CALLS"])[LOOKUP][0].src == SAVE
    graph_store.replace_files([owners_v2()])
    assert graph_store.incoming([LOOKUP], ["CALLS"])[LOOKUP] == [
        Edge("CALLS", HANDLER, LOOKUP, SHOP, WEB, 4, 11, "exact")
    ]


def test_delete_files(graph_store):
    load(graph_store)
    graph_store.delete_files(SHOP, [SERVICE, "src/never-indexed.py"])
    assert graph_store.file_checksums(SHOP) == {OWNERS: "a" * 64, WEB: "d" * 64, SPECIAL: "e" * 64}
    assert graph_store.get_nodes([SVC_CLS, LOOKUP, FIND]).keys() == {FIND}
    assert graph_store.nodes_in_file(SHOP, SERVICE) == []
    # Owned edges gone (service -> find), edges into its nodes gone (web -> lookup).
    assert graph_store.incoming([FIND], ["CALLS"])[FIND] == [
        Edge("CALLS", PAY_FN, FIND, BILLING, PAY, 3, 2, "name"),
        Edge("CALLS", SAVE, FIND, SHOP, OWNERS, 9, 8, "exact"),
    ]
    assert graph_store.outgoing([HANDLER], ["CALLS"]) == {HANDLER: []}
    assert graph_store.incoming([REPO_CLS], ["USES_TYPE"]) == {REPO_CLS: []}
    assert graph_store.unresolved_calls(["render"])["render"] == [
        UnresolvedCall(HANDLER, "render", 1, None, SHOP, WEB, 5, 4)
    ]
    # Same path in another repo is untouched; deleting nothing is fine.
    graph_store.delete_files(BILLING, [])
    graph_store.delete_files(BILLING, [SERVICE])
    assert graph_store.file_checksums(BILLING) == {PAY: "f" * 64}
    graph_store.delete_files(BILLING, [PAY])
    assert graph_store.repos() == [SHOP]


def test_stats_exact(graph_store):
    load(graph_store)
    stats = graph_store.stats()
    assert stats["files"] == {"python": 4, "typescript": 1}
    assert stats["nodes"] == {"Class": 2, "File": 5, "Function": 2, "Method": 4}
    assert stats["edges"] == {"CALLS": 6, "CONTAINS": 5, "OVERRIDES": 1, "USES_TYPE": 1}
    assert stats["calls_by_resolution"] == {"exact": 3, "inferred": 1, "name": 2}
    assert stats["unresolved_calls"] == 3


def symbols_file() -> IndexedFile:
    path = "src/ctrl.py"
    ids = [
        ("shop:src/ctrl.OwnerController", "Class"),
        ("shop:src/ctrl.OwnerController.show(1)", "Method"),
        ("shop:src/ctrl.OwnerRepository", "Class"),
        ("shop:src/ctrl.owner_controller_factory(0)", "Function"),
        ("shop:src/ctrl._owner_cache", "Field"),
        ("shop:src/ctrl.HTTPServer", "Class"),
        ("shop:src/ctrl.Controller", "Class"),
    ]
    nodes = [file_node(SHOP, path, "python")]
    nodes += [node(i, label, SHOP, path, n * 10) for n, (i, label) in enumerate(ids, 1)]
    return IndexedFile(FileRecord(SHOP, path, "python", "c" * 64, 10), nodes=nodes)


def _names(nodes: list[Node]) -> list[str]:
    return [n.id.split(":", 1)[1] for n in nodes]


def test_search_symbols_camel_humps(graph_store):
    graph_store.replace_files([symbols_file()])
    both = ["src/ctrl.OwnerController", "src/ctrl.owner_controller_factory(0)"]
    assert _names(graph_store.search_symbols("OwnCon", 10)) == both
    assert _names(graph_store.search_symbols("owner con", 10)) == both
    assert _names(graph_store.search_symbols("OC", 10)) == ["src/ctrl._owner_cache", *both]  # owner, cache
    assert _names(graph_store.search_symbols("ownercon", 10)) == both
    # exact name first, then prefix (shorter name first), then part matches
    assert _names(graph_store.search_symbols("Controller", 10)) == ["src/ctrl.Controller"]
    assert _names(graph_store.search_symbols("owner", 10)) == [
        "src/ctrl._owner_cache", "src/ctrl.OwnerController", "src/ctrl.OwnerRepository",
        "src/ctrl.owner_controller_factory(0)",
    ]
    assert _names(graph_store.search_symbols("owner", 2)) == ["src/ctrl._owner_cache", "src/ctrl.OwnerController"]
    assert _names(graph_store.search_symbols("HTTPServer", 10)) == ["src/ctrl.HTTPServer"]
    assert _names(graph_store.search_symbols("HS", 10)) == ["src/ctrl.HTTPServer"]
    assert _names(graph_store.search_symbols("Con", 10)) == ["src/ctrl.Controller"]  # first part must match
    assert graph_store.search_symbols("  _. ", 10) == []
    assert graph_store.search_symbols("owner", 0) == []
    # fuzzy, as editors match: abbreviations, then scattered letters; the first letter starts the name
    assert _names(graph_store.search_symbols("ownrep", 10)) == ["src/ctrl.OwnerRepository"]
    assert _names(graph_store.search_symbols("ocf", 10)) == ["src/ctrl.owner_controller_factory(0)"]
    assert _names(graph_store.search_symbols("ctrl", 10)) == ["src/ctrl.Controller"]  # not OwnerController
    assert _names(graph_store.search_symbols("orr", 10)) == [  # own-r-r: OwnerRepository's parts; then scattered
        "src/ctrl.OwnerRepository", "src/ctrl.OwnerController", "src/ctrl.owner_controller_factory(0)"]
    assert graph_store.search_symbols("ownz", 10) == []


def test_search_symbols_qualified_by_the_written_name(graph_store):
    # a factory's member `CartGateway.return.getCart` is written `CartGateway.getCart` at its call sites
    path = "src/cart.ts"
    ids = [("web:src/cart.CartGateway.return.getCart(1)", "Function"), ("web:src/cart.ShopGateway.return.getCart(1)", "Function"),
           ("web:src/cart.getCart(1)", "Function"), ("web:src/cart.CartGateway(0)", "Function")]
    nodes = [file_node("web", path, "typescript")] + [node(i, label, "web", path, n * 10) for n, (i, label) in enumerate(ids, 1)]
    graph_store.replace_files([IndexedFile(FileRecord("web", path, "typescript", "d" * 64, 10), nodes=nodes)])
    assert _names(graph_store.search_symbols("CartGateway.getCart", 10)) == ["src/cart.CartGateway.return.getCart(1)"]
    assert _names(graph_store.search_symbols("cart_gateway.getCart", 1)) == ["src/cart.CartGateway.return.getCart(1)"]
    assert _names(graph_store.search_symbols("getCart", 10)) == [  # one name: by id
        "src/cart.CartGateway.return.getCart(1)", "src/cart.ShopGateway.return.getCart(1)", "src/cart.getCart(1)"]
    # not: a qualifier that is no whole part (Gateway), a stored segment the call site does not write (return)
    assert graph_store.search_symbols("Gateway.getCart", 10) == []
    assert "src/cart.CartGateway.return.getCart(1)" not in _names(graph_store.search_symbols("return.getCart", 10))


def test_file_text_is_kept_for_files_not_on_disk(graph_store):
    with_text = owners_v1()
    with_text.text = "class Owner:\n    pass\n"
    graph_store.replace_files([with_text, service()])
    assert graph_store.file_text(with_text.file.repo, with_text.file.path) == "class Owner:\n    pass\n"
    assert graph_store.file_text(service().file.repo, service().file.path) is None  # indexed without text
    assert graph_store.file_text("shop", "no/such/file.py") is None
    graph_store.delete_files(with_text.file.repo, [with_text.file.path])
    assert graph_store.file_text(with_text.file.repo, with_text.file.path) is None


# ------------------------------------------------------------------------- shared nodes and props

API = "src/api.py"
URLS = "src/urls.py"
CLIENT = "app/client.ts"
SHOW = "shop:src/api.show(1)"
LIST = "shop:src/api.list_owners(0)"
FETCH = "billing:app/client.fetchOwner(1)"
EP = "endpoint:GET /owners/{}"
EP_LIST = "endpoint:GET /owners"
TOPIC = "topic:owners"


def endpoint(id: str) -> Node:
    name = id.removeprefix("endpoint:")
    method, path = name.split(" ", 1)
    return Node(id, "Endpoint", name, name, "", "", 0, 0, 0, 0, {"http_method": method, "path": path})


def topic(name: str) -> Node:
    return Node(f"topic:{name}", "Topic", name, name, "", "", 0, 0, 0, 0)


def api(exposes: bool = True) -> IndexedFile:
    edges = [Edge("PRODUCES", SHOW, TOPIC, SHOP, API, 6, 8, props={"framework": "kafka-python"})]
    if exposes:
        edges.append(Edge("EXPOSES", SHOW, EP, SHOP, API, 3, 0, props={"framework": "flask"}))
    return IndexedFile(
        FileRecord(SHOP, API, "python", "1" * 64, 50),
        # The shared nodes travel with the file whose edges point to them (repo/file as sent are ignored).
        nodes=[file_node(SHOP, API, "python"), node(SHOW, "Function", SHOP, API, 4), endpoint(EP),
               replace(topic("owners"), repo=SHOP, file=API)],
        edges=edges,
    )


def urls() -> IndexedFile:
    """A Django-style urls.py: owns the EXPOSES edge of a view that lives in api.py."""
    return IndexedFile(
        FileRecord(SHOP, URLS, "python", "2" * 64, 20),
        nodes=[file_node(SHOP, URLS, "python"), endpoint(EP_LIST)],
        edges=[Edge("EXPOSES", LIST, EP_LIST, SHOP, URLS, 3, 4, props={"framework": "django"})],
    )


def client() -> IndexedFile:
    return IndexedFile(
        FileRecord(BILLING, CLIENT, "typescript", "3" * 64, 70),
        nodes=[file_node(BILLING, CLIENT, "typescript"), node(FETCH, "Function", BILLING, CLIENT, 2), endpoint(EP)],
        edges=[Edge("CALLS_HTTP", FETCH, EP, BILLING, CLIENT, 3, 9,
                    props={"framework": "axios", "url": "http://owners/owners/${id}", "service": "owners"})],
    )


def test_shared_node_is_one_node_for_two_repositories(graph_store):
    graph_store.replace_files([api()])
    graph_store.replace_files([client()])
    assert graph_store.get_nodes([EP]) == {EP: Node(EP, "Endpoint", "GET /owners/{}", "GET /owners/{}", "", "", 0, 0, 0, 0)}
    assert graph_store.get_nodes([EP])[EP].props == {"http_method": "GET", "path": "/owners/{}"}
    assert graph_store.get_nodes([TOPIC])[TOPIC].repo == ""
    assert graph_store.incoming([EP], ["EXPOSES", "CALLS_HTTP"]) == {EP: [
        Edge("CALLS_HTTP", FETCH, EP, BILLING, CLIENT, 3, 9),
        Edge("EXPOSES", SHOW, EP, SHOP, API, 3, 0),
    ]}
    assert [n.id for n in graph_store.nodes_in_file(SHOP, API)] == [f"{SHOP}:{API}", SHOW]
    assert graph_store.repos() == [BILLING, SHOP]
    assert graph_store.find_symbols(["GET /owners/{}"]) == {"GET /owners/{}": [graph_store.get_nodes([EP])[EP]]}
    assert graph_store.search_symbols("owners", 10) == []  # shared nodes are not code symbols
    stats = graph_store.stats()
    assert stats["nodes"] == {"Endpoint": 1, "File": 2, "Function": 2, "Topic": 1}
    assert stats["edges"] == {"CALLS_HTTP": 1, "EXPOSES": 1, "PRODUCES": 1}


def test_labelled_nodes_exact_order_and_limit(graph_store):
    assert graph_store.labelled(["Endpoint"]) == []  # an empty store
    graph_store.replace_files([api(), client(), urls(), service()])
    ep, ep_list, tp = (graph_store.get_nodes([i])[i] for i in (EP, EP_LIST, TOPIC))
    # (label, name, id): "GET /owners" < "GET /owners/{}"; Endpoint < Topic; a label twice counts once
    assert graph_store.labelled(["Topic", "Endpoint", "Topic"]) == [ep_list, ep, tp]
    assert graph_store.labelled(["Endpoint"]) == [ep_list, ep]
    assert graph_store.labelled(["Endpoint"])[1].props == {"http_method": "GET", "path": "/owners/{}"}
    assert graph_store.labelled(["Endpoint", "Topic"], 2) == [ep_list, ep]
    assert graph_store.labelled(["Endpoint"], 1) == [ep_list]
    assert [n.id for n in graph_store.labelled(["Class", "Function"])] == [SVC_CLS, FETCH, SHOW]
    assert graph_store.labelled(["Endpoint"], 0) == []
    assert graph_store.labelled([]) == []
    assert graph_store.labelled(["Nope"]) == []


def test_edge_props_round_trip(graph_store):
    graph_store.replace_files([api(), client()])
    [http] = graph_store.outgoing([FETCH], ["CALLS_HTTP"])[FETCH]
    assert http.props == {"framework": "axios", "url": "http://owners/owners/${id}", "service": "owners"}
    got = graph_store.outgoing([SHOW], ["EXPOSES", "PRODUCES"])[SHOW]
    assert [(e.kind, e.props) for e in got] == [
        ("EXPOSES", {"framework": "flask"}), ("PRODUCES", {"framework": "kafka-python"})]
    graph_store.replace_files([service()])
    assert [e.props for e in graph_store.outgoing([LOOKUP], ["CALLS"])[LOOKUP]] == [{}, {}, {}]


def test_shared_node_outlives_one_file_and_goes_with_the_last_edge(graph_store):
    graph_store.replace_files([api(), client()])
    graph_store.delete_files(BILLING, [CLIENT])
    assert graph_store.incoming([EP], ["EXPOSES", "CALLS_HTTP"])[EP] == [Edge("EXPOSES", SHOW, EP, SHOP, API, 3, 0)]
    assert set(graph_store.get_nodes([EP, TOPIC])) == {EP, TOPIC}
    graph_store.delete_files(SHOP, [API])
    assert graph_store.get_nodes([EP, TOPIC]) == {}
    assert graph_store.stats()["nodes"] == {}
    assert graph_store.repos() == []


def test_shared_node_goes_when_replaced_files_drop_their_edges(graph_store):
    graph_store.replace_files([api(), client()])
    graph_store.replace_files([api(exposes=False)])  # the endpoint is still called from billing
    assert set(graph_store.get_nodes([EP, TOPIC])) == {EP, TOPIC}
    graph_store.delete_files(BILLING, [CLIENT])
    assert set(graph_store.get_nodes([EP, TOPIC])) == {TOPIC}
    graph_store.replace_files([IndexedFile(FileRecord(SHOP, API, "python", "4" * 64, 10),
                                           nodes=[file_node(SHOP, API, "python"), topic("owners")])])
    assert graph_store.get_nodes([EP, TOPIC]) == {}  # listed by the file, but no edge touches it
    assert graph_store.stats()["nodes"] == {"File": 1}


def test_shared_node_goes_when_its_only_edge_is_detached_elsewhere(graph_store):
    """urls.py owns the EXPOSES edge of a view in api.py: the view's removal detaches it."""
    graph_store.replace_files([api(), urls()])
    graph_store.replace_files([IndexedFile(FileRecord(SHOP, API, "python", "1" * 64, 50),
                                           nodes=[file_node(SHOP, API, "python"), node(LIST, "Function", SHOP, API, 9)])])
    assert graph_store.incoming([EP_LIST], ["EXPOSES"])[EP_LIST] == [Edge("EXPOSES", LIST, EP_LIST, SHOP, URLS, 3, 4)]
    assert set(graph_store.get_nodes([EP, EP_LIST, TOPIC])) == {EP_LIST}
    graph_store.replace_files([IndexedFile(FileRecord(SHOP, API, "python", "5" * 64, 5),
                                           nodes=[file_node(SHOP, API, "python")])])
    assert graph_store.incoming([EP_LIST], ["EXPOSES"])[EP_LIST] == []
    assert graph_store.get_nodes([EP_LIST]) == {}


# ------------------------------------------------------------------------------ change polling


def test_version_token_moves_with_every_write_and_only_then(graph_store):
    first = graph_store.version_token()
    if first is None:  # a backend that cannot tell says so, always
        load(graph_store)
        assert graph_store.version_token() is None
        return
    assert graph_store.version_token() == first
    graph_store.replace_files([owners_v1()])
    after_replace = graph_store.version_token()
    assert after_replace != first
    graph_store.get_nodes([FIND])
    graph_store.incoming([FIND], ["CALLS"])
    graph_store.stats()
    assert graph_store.version_token() == after_replace  # reads leave it alone
    graph_store.delete_files(SHOP, [OWNERS])
    assert graph_store.version_token() not in (first, after_replace)


def test_wraps_edges_of_a_filter_file_round_trip_and_keep_the_endpoint(graph_store):
    """A filter's file owns WRAPS edges into an endpoint another file exposes: they round-trip with
    their props, and the endpoint stays while either file's edge does."""
    guard = f"{SHOP}:auth.guard(1)"
    auth = IndexedFile(
        FileRecord(SHOP, "auth.py", "python", "4" * 64, 30),
        nodes=[file_node(SHOP, "auth.py", "python"), node(guard, "Function", SHOP, "auth.py", 2), endpoint(EP)],
        edges=[Edge("WRAPS", guard, EP, SHOP, "auth.py", 9, 0,
                    props={"framework": "flask", "kind": "hook", "scope": "app", "path": "/owners"})],
    )
    graph_store.replace_files([api(), auth])
    assert [(e.kind, e.src, e.props) for e in graph_store.outgoing([guard], ["WRAPS"])[guard]] == [
        ("WRAPS", guard, {"framework": "flask", "kind": "hook", "scope": "app", "path": "/owners"})]
    assert sorted(e.kind for e in graph_store.incoming([EP], ["EXPOSES", "WRAPS"])[EP]) == ["EXPOSES", "WRAPS"]
    assert graph_store.stats()["edges"] == {"EXPOSES": 1, "PRODUCES": 1, "WRAPS": 1}
    graph_store.delete_files(SHOP, [API])
    assert set(graph_store.get_nodes([EP])) == {EP}  # still wrapped
    graph_store.delete_files(SHOP, ["auth.py"])
    assert graph_store.get_nodes([EP]) == {}
