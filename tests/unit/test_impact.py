"""Blast radius (analysis/impact.py) over an embedded store filled with exact nodes and edges.

Three services: ``owners`` (Java-like: an interface with two implementations and an overload, a
service with a cycle, a controller exposing endpoints, a Kafka listener, a scheduled job), ``web``
(Python: HTTP clients of ``owners``, a view exposing its own endpoint, a ``main``, a test) and
``visits`` (Python: a Kafka producer behind an endpoint). Hops from ``JpaOwnerRepository.findById``::

    0 Jpa.findById(int) [selected], Jpa.findById(long) [overload], OwnerRepository.findById(int)
      [declaration], Cached.findById(int) [implementation]
    1 OwnerService.find(int) (-> OwnerRepository.findById), OwnerService.findLegacy(long)
    2 OwnerController.show (EXPOSES GET /owners/{}), OwnerEventsListener.onVisit (CONSUMES visits),
      OwnerService.refresh (cycle with find)
    3 Jobs.nightly (@Scheduled), OwnersClient.get_owner (CALLS_HTTP GET /owners/{}),
      VisitPublisher.publish (PRODUCES visits); VetsClient.owners_of_vet calls the same path of
      another service (skipped with the service map)
    4 views.owner_page (EXPOSES GET /pages/owner/{}), api.create_visit (EXPOSES POST /visits)
    5 cli.main
    6 test_cli.test_main (beyond the default depth)
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from stores.contracts import Edge, FileRecord, IndexedFile, Node, endpoint_id, topic_id
from stores.embedded import EmbeddedStore
from analysis.impact import (
    BlastRadius,
    CountingGraph,
    NodesQuery,
    PositionQuery,
    SymbolQuery,
    blast_radius,
)
from analysis.navigation import AmbiguousPath
from analysis.targets import file_candidates, target_query
from analysis.impact_report import render_markdown, report_json, summary_text
from analysis.navigation import UnionGraph, lookup

JAVA = "src/main/java/shop"
OWNERS, WEB, VISITS = "owners", "web", "visits"
SERVICES = {"owners-service": OWNERS, "vets-service": "vets"}


def _id(repo: str, path: str, qual: str, sig: str | None) -> str:
    base = f"{repo}:{path.rsplit('.', 1)[0]}.{qual}"
    return base if sig is None else f"{base}({sig})"


class Repo:
    """Collects the nodes and edges of one repository's files."""

    def __init__(self, repo: str, language: str) -> None:
        self.repo, self.language = repo, language
        self.files: dict[str, IndexedFile] = {}

    def file(self, path: str) -> IndexedFile:
        if path not in self.files:
            f = IndexedFile(FileRecord(self.repo, path, self.language, "0" * 64, 100))
            f.nodes.append(Node(f"{self.repo}:{path}", "File", path, path, self.repo, path, 1, 0, 60, 0))
            self.files[path] = f
        return self.files[path]

    def node(self, path: str, qual: str, sig: str | None, line: int, end: int, label: str = "Method",
             **props: Any) -> str:
        node_id = _id(self.repo, path, qual, sig)
        f = self.file(path)
        f.nodes.append(Node(node_id, label, qual.rsplit(".", 1)[-1], qual, self.repo, path, line, 4, end, 5, props))
        parent = _id(self.repo, path, qual.rsplit(".", 1)[0], None) if "." in qual else f"{self.repo}:{path}"
        f.edges.append(Edge("CONTAINS", parent, node_id, self.repo, path))
        return node_id

    def edge(self, kind: str, src: str, dst: str, path: str, line: int = 0, col: int = 0,
             resolution: str | None = None, **props: Any) -> None:
        self.file(path).edges.append(Edge(kind, src, dst, self.repo, path, line, col, resolution, props))

    def shared(self, path: str, node: Node) -> None:
        self.file(path).nodes.append(node)


def endpoint(method: str, path: str) -> Node:
    eid = endpoint_id(method, path)
    name = eid.removeprefix("endpoint:")
    return Node(eid, "Endpoint", name, name, "", "", 0, 0, 0, 0, {"http_method": method, "path": name.split(" ", 1)[1]})


def topic(name: str) -> Node:
    return Node(topic_id(name), "Topic", name, name, "", "", 0, 0, 0, 0)


GET_OWNER = endpoint("GET", "/owners/{ownerId}")
HEALTH = endpoint("GET", "/health")
PAGE = endpoint("GET", "/pages/owner/<int:owner_id>")
POST_VISITS = endpoint("POST", "/visits")
VISITS_TOPIC = topic("visits")

REPO_I, JPA, CACHED = f"{JAVA}/OwnerRepository.java", f"{JAVA}/JpaOwnerRepository.java", f"{JAVA}/CachedOwnerRepository.java"
SERVICE, CONTROLLER = f"{JAVA}/OwnerService.java", f"{JAVA}/OwnerController.java"
LISTENER, JOBS, CONFIG = f"{JAVA}/OwnerEventsListener.java", f"{JAVA}/Jobs.java", f"{JAVA}/Config.java"

DECL = _id(OWNERS, REPO_I, "OwnerRepository.findById", "int")
JPA_FIND = _id(OWNERS, JPA, "JpaOwnerRepository.findById", "int")
JPA_FIND_LONG = _id(OWNERS, JPA, "JpaOwnerRepository.findById", "long")
CACHED_FIND = _id(OWNERS, CACHED, "CachedOwnerRepository.findById", "int")
SVC_CLS = _id(OWNERS, SERVICE, "OwnerService", None)
SVC_CTOR = _id(OWNERS, SERVICE, "OwnerService.OwnerService", "OwnerRepository")
FIND = _id(OWNERS, SERVICE, "OwnerService.find", "int")
FIND_NAME = _id(OWNERS, SERVICE, "OwnerService.find", "String")
LEGACY = _id(OWNERS, SERVICE, "OwnerService.findLegacy", "long")
REFRESH = _id(OWNERS, SERVICE, "OwnerService.refresh", "int")
SHOW = _id(OWNERS, CONTROLLER, "OwnerController.show", "int")
ON_VISIT = _id(OWNERS, LISTENER, "OwnerEventsListener.onVisit", "Visit")
NIGHTLY = _id(OWNERS, JOBS, "Jobs.nightly", "")
CONFIG_BEAN = _id(OWNERS, CONFIG, "Config.ownerService", "")
GET_OWNER_PY = _id(WEB, "app/clients.py", "OwnersClient.get_owner", "1")
VETS_PY = _id(WEB, "app/clients.py", "VetsClient.owners_of_vet", "1")
PAGE_PY = _id(WEB, "app/views.py", "owner_page", "1")
MAIN_PY = _id(WEB, "app/cli.py", "main", "0")
TEST_MAIN = _id(WEB, "tests/test_cli.py", "test_main", "0")
PUBLISH = _id(VISITS, "svc/publisher.py", "VisitPublisher.publish", "1")
CREATE_VISIT = _id(VISITS, "svc/api.py", "create_visit", "1")


def files() -> list[IndexedFile]:
    o = Repo(OWNERS, "java")
    o.node(REPO_I, "OwnerRepository", None, 3, 6, "Interface")
    o.node(REPO_I, "OwnerRepository.findById", "int", 5, 5, modifiers=["abstract"])
    o.node(JPA, "JpaOwnerRepository", None, 3, 20, "Class")
    o.node(JPA, "JpaOwnerRepository.findById", "int", 5, 8)
    o.node(JPA, "JpaOwnerRepository.findById", "long", 10, 13)
    o.edge("OVERRIDES", JPA_FIND, DECL, JPA, 5, 17)
    o.node(CACHED, "CachedOwnerRepository", None, 3, 12, "Class")
    o.node(CACHED, "CachedOwnerRepository.findById", "int", 6, 9)
    o.edge("OVERRIDES", CACHED_FIND, DECL, CACHED, 6, 17)

    o.node(SERVICE, "OwnerService", None, 5, 40, "Class")
    o.node(SERVICE, "OwnerService.OwnerService", "OwnerRepository", 8, 10, "Constructor")
    o.node(SERVICE, "OwnerService.find", "int", 12, 16)
    o.edge("CALLS", FIND, DECL, SERVICE, 13, 25, "exact")
    o.edge("CALLS", FIND, REFRESH, SERVICE, 15, 8, "exact")
    o.node(SERVICE, "OwnerService.find", "String", 18, 20)
    o.node(SERVICE, "OwnerService.findLegacy", "long", 22, 24)
    o.edge("CALLS", LEGACY, JPA_FIND_LONG, SERVICE, 23, 20, "inferred")
    o.node(SERVICE, "OwnerService.refresh", "int", 26, 29)
    o.edge("CALLS", REFRESH, FIND, SERVICE, 27, 8, "exact")

    o.node(CONTROLLER, "OwnerController.show", "int", 14, 17, decorators=['GetMapping("/{id}")'])
    o.edge("CALLS", SHOW, FIND, CONTROLLER, 16, 28, "exact")
    o.edge("EXPOSES", SHOW, GET_OWNER.id, CONTROLLER, 14, 4, framework="spring")
    o.shared(CONTROLLER, GET_OWNER)
    health = o.node(CONTROLLER, "OwnerController.health", "", 19, 21)
    o.edge("EXPOSES", health, HEALTH.id, CONTROLLER, 19, 4, framework="spring")
    o.shared(CONTROLLER, HEALTH)

    o.node(LISTENER, "OwnerEventsListener.onVisit", "Visit", 9, 12, decorators=['KafkaListener(topics = "visits")'])
    o.edge("CALLS", ON_VISIT, FIND, LISTENER, 11, 21, "exact")
    o.edge("CONSUMES", ON_VISIT, VISITS_TOPIC.id, LISTENER, 9, 4, framework="spring-kafka")
    o.shared(LISTENER, VISITS_TOPIC)
    o.node(JOBS, "Jobs.nightly", "", 8, 10, decorators=['Scheduled(cron = "0 0 * * *")'])
    o.edge("CALLS", NIGHTLY, REFRESH, JOBS, 9, 8, "exact")
    o.node(CONFIG, "Config.ownerService", "", 7, 9)
    o.edge("CALLS", CONFIG_BEAN, SVC_CTOR, CONFIG, 8, 15, "exact")

    w = Repo(WEB, "python")
    w.node("app/clients.py", "OwnersClient.get_owner", "1", 10, 12)
    w.edge("CALLS_HTTP", GET_OWNER_PY, GET_OWNER.id, "app/clients.py", 11, 15, framework="requests",
           url="http://owners-service/owners/{owner_id}", service="owners-service")
    w.node("app/clients.py", "VetsClient.owners_of_vet", "1", 20, 22)
    w.edge("CALLS_HTTP", VETS_PY, GET_OWNER.id, "app/clients.py", 21, 15, framework="requests",
           url="http://vets-service/owners/{vet_id}", service="vets-service")
    w.shared("app/clients.py", GET_OWNER)
    w.node("app/views.py", "owner_page", "1", 8, 11, "Function", decorators=['@app.get("/pages/owner/<int:owner_id>")'])
    w.edge("CALLS", PAGE_PY, GET_OWNER_PY, "app/views.py", 10, 11, "exact")
    w.edge("EXPOSES", PAGE_PY, PAGE.id, "app/views.py", 8, 0, framework="flask")
    w.shared("app/views.py", PAGE)
    w.node("app/cli.py", "main", "0", 5, 7, "Function")
    w.edge("CALLS", MAIN_PY, PAGE_PY, "app/cli.py", 6, 4, "exact")
    w.node("tests/test_cli.py", "test_main", "0", 3, 5, "Function")
    w.edge("CALLS", TEST_MAIN, MAIN_PY, "tests/test_cli.py", 4, 4, "exact")

    v = Repo(VISITS, "python")
    v.node("svc/publisher.py", "VisitPublisher.publish", "1", 6, 8)
    v.edge("PRODUCES", PUBLISH, VISITS_TOPIC.id, "svc/publisher.py", 7, 8, framework="kafka-python")
    v.shared("svc/publisher.py", VISITS_TOPIC)
    v.node("svc/api.py", "create_visit", "1", 12, 15, "Function", decorators=['@router.post("/visits")'])
    v.edge("CALLS", CREATE_VISIT, PUBLISH, "svc/api.py", 14, 4, "exact")
    v.edge("EXPOSES", CREATE_VISIT, POST_VISITS.id, "svc/api.py", 12, 0, framework="fastapi")
    v.shared("svc/api.py", POST_VISITS)
    return [f for r in (o, w, v) for f in r.files.values()]


@pytest.fixture
def store(tmp_path: Path):
    s = EmbeddedStore(tmp_path / "index.db")
    s.replace_files(files())
    yield s
    s.close()


def ids(nodes) -> list[str]:
    return [n.id for n in nodes]


def no_times(report: BlastRadius) -> BlastRadius:
    return dataclasses.replace(report, steps=tuple(dataclasses.replace(s, ms=0.0) for s in report.steps))


def at_jpa_find(store) -> BlastRadius:
    # The cursor on the name of JpaOwnerRepository.findById(int) (line 5, "findById" at col 17).
    return blast_radius(store, PositionQuery(OWNERS, JPA, 5, 17, "findById"), services=SERVICES)


def test_targets_overloads_declaration_and_other_implementations(store):
    report = at_jpa_find(store)
    assert [(t.node.id, t.role) for t in report.targets] == [
        (JPA_FIND, "selected"), (JPA_FIND_LONG, "overload"), (DECL, "declaration"), (CACHED_FIND, "implementation")]


def test_direct_callers_with_sites_and_resolution(store):
    report = at_jpa_find(store)
    assert [(c.node.id, [(s.target, s.file, s.line, s.col, s.resolution) for s in c.sites]) for c in report.callers] == [
        (FIND, [(DECL, SERVICE, 13, 25, "exact")]),
        (LEGACY, [(JPA_FIND_LONG, SERVICE, 23, 20, "inferred")]),
    ]
    assert report.call_sites == 2
    assert summary_text(report) == "2 callers · 3 endpoints"


def test_endpoints_across_http_and_kafka_with_hops_and_example_paths(store):
    report = at_jpa_find(store)
    assert [(h.http_method, h.path, h.repo, h.hops, h.handler.id) for h in report.endpoints] == [
        ("GET", "/owners/{}", OWNERS, 2, SHOW),
        ("POST", "/visits", VISITS, 4, CREATE_VISIT),
        ("GET", "/pages/owner/{}", WEB, 4, PAGE_PY),
    ]
    assert [[s.name for s in h.example] for h in report.endpoints] == [
        ["GET /owners/{}", "OwnerController.show", "OwnerService.find", "OwnerRepository.findById"],
        ["POST /visits", "create_visit", "VisitPublisher.publish", "topic:visits", "OwnerEventsListener.onVisit",
         "OwnerService.find", "OwnerRepository.findById"],
        ["GET /pages/owner/{}", "owner_page", "OwnersClient.get_owner", "GET /owners/{}", "OwnerController.show",
         "OwnerService.find", "OwnerRepository.findById"],
    ]
    assert [s.id for s in report.endpoints[0].example] == [GET_OWNER.id, SHOW, FIND, DECL]


def test_topics_entry_points_services_hops_and_truncation(store):
    report = at_jpa_find(store)
    [visits] = report.topics
    assert (visits.name, ids(visits.consumers), ids(visits.producers), visits.hops) == ("visits", [ON_VISIT], [PUBLISH], 2)
    assert [s.name for s in visits.example] == [
        "topic:visits", "OwnerEventsListener.onVisit", "OwnerService.find", "OwnerRepository.findById"]
    assert [(p.node.id, p.kinds, p.hops) for p in report.entry_points] == [
        (SHOW, ("http",), 2), (ON_VISIT, ("kafka", "listener"), 2), (NIGHTLY, ("scheduled",), 3),
        (CREATE_VISIT, ("http",), 4), (PAGE_PY, ("http",), 4), (MAIN_PY, ("main",), 5),
    ]
    assert [(s.repo, s.nodes, s.endpoints, s.hops) for s in report.services] == [
        (OWNERS, 10, 1, 0), (VISITS, 2, 1, 3), (WEB, 3, 1, 3)]
    assert report.callers_by_hop == (2, 3, 3, 2, 1)
    assert report.truncated == (
        "depth 5 reached: 1 caller at hop 6 not followed",
        "1 HTTP client call to another service's endpoint of the same path not followed (service map; host vets-service); if vets-service is served by owners, follow with --service vets-service=owners (or RIPPLE_SERVICES=\"vets-service=owners\")",
    )
    # The HEALTH endpoint of the same controller is not reached; neither is the test above main.
    assert HEALTH.id not in {h.id for h in report.endpoints}


def test_steps_and_round_trips(store):
    report = at_jpa_find(store)
    assert [(s.name, s.round_trips, s.detail) for s in report.steps] == [
        ("Targets", 7, "1 selected, 1 overload, 1 declaration, 1 implementation"),
        ("Direct callers", 2, "2 callers, 2 call sites"),
        ("Upward walk", 10, "11 nodes reached in 5 hops"),
        ("Attach endpoints and topics", 2, "3 endpoints, 1 topic, 3 services"),  # get_nodes and the registry (applications)
        ("Tables", 1, "0 tables (0 written)"),  # one outgoing: the targets call nothing
        ("Report", 1, "2 truncation notes"),  # the unbound calls of its name: one store call
    ]
    assert report.round_trips == 23
    assert all(s.ms >= 0 for s in report.steps)


def test_without_a_service_map_every_client_of_the_path_is_followed(store):
    report = blast_radius(store, PositionQuery(OWNERS, JPA, 5, 17, "findById"))
    assert report.callers_by_hop == (2, 3, 4, 2, 1)
    assert report.truncated == ("depth 5 reached: 1 caller at hop 6 not followed",)
    assert [(s.repo, s.nodes) for s in report.services] == [(OWNERS, 10), (VISITS, 2), (WEB, 4)]


def test_depth_truncation(store):
    report = blast_radius(store, SymbolQuery(JPA_FIND), depth=2, services=SERVICES)
    assert [(h.path, h.hops) for h in report.endpoints] == [("/owners/{}", 2)]
    assert report.callers_by_hop == (2, 3)
    assert report.truncated == (  # Jobs.nightly, OwnersClient.get_owner, VisitPublisher.publish
        "depth 2 reached: 3 callers at hop 3 not followed",
        "1 HTTP client call to another service's endpoint of the same path not followed (service map; host vets-service); if vets-service is served by owners, follow with --service vets-service=owners (or RIPPLE_SERVICES=\"vets-service=owners\")",
    )
    [visits] = report.topics
    assert (ids(visits.consumers), ids(visits.producers)) == ([ON_VISIT], [])
    assert [s.repo for s in report.services] == [OWNERS]


def test_cycle_is_walked_once(store):
    report = blast_radius(store, SymbolQuery("OwnerService.refresh"), services=SERVICES)
    assert [(t.node.id, t.role) for t in report.targets] == [(REFRESH, "selected")]
    # find calls refresh and refresh calls find: find is a caller at hop 1, refresh is not its own caller.
    assert [c.node.id for c in report.callers] == [NIGHTLY, FIND]
    assert report.callers_by_hop == (2, 2, 2, 2, 1)
    assert [(h.path, h.hops) for h in report.endpoints] == [("/owners/{}", 2), ("/visits", 4), ("/pages/owner/{}", 4)]


def test_node_cap(store):
    report = blast_radius(store, SymbolQuery(JPA_FIND), max_nodes=3)
    assert report.callers_by_hop == (2, 1)  # find, findLegacy; then show (first in contract order)
    # onVisit and refresh (callers of find), then both HTTP clients of show's endpoint
    assert report.truncated == ("node cap 3 reached: 4 callers not followed",)
    assert [h.path for h in report.endpoints] == ["/owners/{}"]


def test_name_with_overloads_a_call_site_and_a_line(store):
    by_name = blast_radius(store, SymbolQuery("OwnerService.find"))
    assert [(t.node.id, t.role) for t in by_name.targets] == [(FIND_NAME, "selected"), (FIND, "selected")]
    # The cursor on a call site (`ownerService.find(id)` in OwnerController.show): the callee and its overload.
    at_call = blast_radius(store, PositionQuery(OWNERS, CONTROLLER, 16, 28, "find"))
    assert [(t.node.id, t.role) for t in at_call.targets] == [(FIND, "selected"), (FIND_NAME, "overload")]
    # PATH:LINE: the innermost definition around the line.
    at_line = blast_radius(store, PositionQuery(OWNERS, SERVICE, 23))
    assert [t.node.id for t in at_line.targets] == [LEGACY]
    assert [c.node.id for c in blast_radius(store, PositionQuery(OWNERS, SERVICE, 6)).targets] == [SVC_CLS, SVC_CTOR]


def test_class_targets_its_constructors(store):
    [cls] = store.get_nodes([SVC_CLS]).values()
    report = blast_radius(store, NodesQuery((cls,)))
    assert [(t.node.id, t.role) for t in report.targets] == [(SVC_CLS, "selected"), (SVC_CTOR, "constructor")]
    assert [(c.node.id, [s.target for s in c.sites]) for c in report.callers] == [(CONFIG_BEAN, [SVC_CTOR])]


def test_nothing_found_and_bad_depth(store):
    report = blast_radius(store, SymbolQuery("NoSuchThing.nowhere"))
    assert (report.targets, report.callers, report.endpoints) == ((), (), ())
    assert [(s.name, s.detail) for s in report.steps] == [("Targets", "nothing found")]
    assert "No symbol matches `NoSuchThing.nowhere`." in render_markdown(report)
    with pytest.raises(ValueError, match="depth must be at least 1"):
        blast_radius(store, SymbolQuery(FIND), depth=0)


def test_a_union_of_stores_gives_the_same_report(tmp_path: Path):
    everything = files()
    first, second = EmbeddedStore(tmp_path / "a.db"), EmbeddedStore(tmp_path / "b.db")
    try:
        first.replace_files([f for f in everything if f.file.repo == OWNERS])
        second.replace_files([f for f in everything if f.file.repo != OWNERS])
        union = blast_radius(UnionGraph([first, second]), PositionQuery(OWNERS, JPA, 5, 17, "findById"),
                             services=SERVICES)
        single = EmbeddedStore(tmp_path / "c.db")
        single.replace_files(everything)
        alone = blast_radius(single, PositionQuery(OWNERS, JPA, 5, 17, "findById"), services=SERVICES)
        single.close()
        assert report_json(no_times(union)) | {"ms": 0} == report_json(no_times(alone)) | {"ms": 0}
    finally:
        first.close()
        second.close()


def test_counting_graph_counts_contract_calls(store):
    counted = CountingGraph(store)
    blast_radius(counted, SymbolQuery(JPA_FIND), services=SERVICES)
    assert counted.calls == 22  # a node id is looked up with one get_nodes; one registry read (applications); one outgoing for the Tables; one for unbound calls


def test_file_candidates(store):
    assert file_candidates(store, f"/home/me/code/owners/{SERVICE}") == [(OWNERS, SERVICE)]
    assert file_candidates(store, "app/cli.py") == [(WEB, "app/cli.py")]
    assert file_candidates(store, "api.py") == [(VISITS, "svc/api.py")]
    assert file_candidates(store, "nope.py") == []


def test_target_query_symbol_path_line_and_column(store):
    assert target_query(store, "OwnerService.refresh") == SymbolQuery("OwnerService.refresh")
    assert target_query(store, f"{JPA}:5") == PositionQuery(OWNERS, JPA, 5, None)
    assert target_query(store, " JpaOwnerRepository.java:5:18 ") == PositionQuery(OWNERS, JPA, 5, 17)
    assert target_query(store, "app/cli.py:3:0") == PositionQuery(WEB, "app/cli.py", 3, None)
    # a node id holds parentheses: never a PATH:LINE
    assert target_query(store, f"{JPA_FIND}") == SymbolQuery(JPA_FIND)


def test_lookup_targets_and_nothing(store):
    assert lookup(store, "OwnerService.find") == (ids_nodes(store, [FIND_NAME, FIND]), [])
    assert lookup(store, "JpaOwnerRepository.findById") == (ids_nodes(store, [JPA_FIND, JPA_FIND_LONG]), [])
    assert lookup(store, "nothing.here") == ([], [])


def ids_nodes(store, node_ids: list[str]) -> list:
    found = store.get_nodes(node_ids)
    return [found[i] for i in node_ids]


def test_target_query_unknown_or_ambiguous_path(tmp_path: Path):
    r = Repo("r", "python")
    r.file("x/util.py")
    r.file("y/util.py")
    s = EmbeddedStore(tmp_path / "two.db")
    try:
        s.replace_files(list(r.files.values()))
        with pytest.raises(ValueError, match=r"^nope\.py is not a file of the index$"):
            target_query(s, "nope.py:3")
        with pytest.raises(ValueError) as exc:
            target_query(s, "util.py:1")
        assert str(exc.value) == ("util.py may be any of r/x/util.py, r/y/util.py; give more of its path "
                                  "(or the repository: repo/path, --repo)")
        assert target_query(s, "y/util.py:1") == PositionQuery("r", "y/util.py", 1, None)
    finally:
        s.close()


def test_a_path_in_two_repositories_is_chosen_by_repo_prefix_root_or_repo(tmp_path: Path):
    from indexer.pipeline import index_repository
    from indexer.run import IndexOptions

    s = EmbeddedStore(tmp_path / "two.db")
    try:
        for name in ("one", "two"):
            (tmp_path / name / "app").mkdir(parents=True)
            (tmp_path / name / "app" / "models.py").write_text("def f():\n    pass\n")
            index_repository(tmp_path / name, s, s, IndexOptions(repo=name, jobs=1))
        with pytest.raises(AmbiguousPath):
            target_query(s, "app/models.py:1")
        two = PositionQuery("two", "app/models.py", 1, None)
        assert target_query(s, "two/app/models.py:1") == two
        assert target_query(s, f"{tmp_path}/two/app/models.py:1") == two
        assert target_query(s, "app/models.py:1", "two") == two
        with pytest.raises(ValueError, match="^app/models.py is not a file of repository 'three' of the index$"):
            target_query(s, "app/models.py:1", "three")
    finally:
        s.close()


def test_report_json(store):
    data = report_json(at_jpa_find(store))
    assert data["summary"] == {"callers": 2, "call_sites": 2, "endpoints": 3, "topics": 1, "services": 3,
                               "reached": 11, "tests": 0, "excluded_tests": 0, "tables": 0,
                               "text": "2 callers · 3 endpoints"}
    assert data["endpoints"][0] | {"handler": None, "example": None} == {
        "id": "endpoint:GET /owners/{}", "http_method": "GET", "path": "/owners/{}", "route": None, "repo": OWNERS, "service": None, "operation_id": None, "hops": 2,
        "certainty": "exact", "handler": None, "example": None, "through": None}
    # Positions are 1-based in JSON, columns included (the store keeps 0-based columns: 25 and 4).
    assert data["callers"][0]["sites"] == [
        {"target": DECL, "targets": [DECL], "repo": OWNERS, "path": SERVICE, "line": 13, "col": 26, "resolution": "exact"}]
    assert data["endpoints"][0]["handler"] | {"id": None} == {
        "id": None, "name": "show", "qualname": "OwnerController.show", "label": "Method", "repo": OWNERS,
        "path": CONTROLLER, "line": 14, "col": 5}
    assert [s["line"] for s in data["endpoints"][0]["example"]] == [None, 14, 12, 5]
    assert [(h["hop"], h["count"], [c["qualname"] for c in h["callers"]], h["more"]) for h in data["hops"]] == [
        (1, 2, ["OwnerService.find", "OwnerService.findLegacy"], 0),
        (2, 3, ["OwnerController.show", "OwnerEventsListener.onVisit", "OwnerService.refresh"], 0),
        (3, 3, ["Jobs.nightly", "VisitPublisher.publish", "OwnersClient.get_owner"], 0),
        (4, 2, ["create_visit", "owner_page"], 0),
        (5, 1, ["main"], 0),
    ]
    assert data["hops"][0]["callers"][1] | {"id": None} == {
        "id": None, "name": "findLegacy", "qualname": "OwnerService.findLegacy", "label": "Method", "repo": OWNERS,
        "path": SERVICE, "line": 22, "col": 5, "hops": 1, "parent": JPA_FIND_LONG, "certainty": "inferred",
        "ambiguous": []}
    cut = report_json(at_jpa_find(store), per_hop=2)["hops"]
    assert [(h["count"], len(h["callers"]), h["more"]) for h in cut] == [(2, 2, 0), (3, 2, 1), (3, 2, 1), (2, 2, 0), (1, 1, 0)]
    assert data["tests"] == [] and data["tests_mode"] == "apart"
    assert data["mermaid"].startswith("flowchart LR\n")
    assert data["round_trips"] == 23


MARKDOWN = """\
# Blast radius of `JpaOwnerRepository.findById`

**2 direct callers · 3 endpoints · 1 topic** · 3 services · 11 nodes reached within 5 hops

## Targets

- `JpaOwnerRepository.findById(int)` (method, selected) · owners · `src/main/java/shop/JpaOwnerRepository.java:5`
- `JpaOwnerRepository.findById(long)` (method, overload) · owners · `src/main/java/shop/JpaOwnerRepository.java:10`
- `OwnerRepository.findById` (method, declaration) · owners · `src/main/java/shop/OwnerRepository.java:5`
- `CachedOwnerRepository.findById` (method, implementation) · owners · `src/main/java/shop/CachedOwnerRepository.java:6`

## Direct callers

- `OwnerService.find` · owners · `src/main/java/shop/OwnerService.java:13` (exact) → `OwnerRepository.findById(int)`
- `OwnerService.findLegacy` · owners · `src/main/java/shop/OwnerService.java:23` (inferred) → `JpaOwnerRepository.findById(long)`

## Callers by hop

### Hop 1 · 2 callers

- `OwnerService.find` · owners · `src/main/java/shop/OwnerService.java:12`
- `OwnerService.findLegacy` · owners · `src/main/java/shop/OwnerService.java:22` · inferred binding on the path

### Hop 2 · 3 callers

- `OwnerController.show` · owners · `src/main/java/shop/OwnerController.java:14`
- `OwnerEventsListener.onVisit` · owners · `src/main/java/shop/OwnerEventsListener.java:9`
- `OwnerService.refresh` · owners · `src/main/java/shop/OwnerService.java:26`

### Hop 3 · 3 callers

- `Jobs.nightly` · owners · `src/main/java/shop/Jobs.java:8`
- `VisitPublisher.publish` · visits · `svc/publisher.py:6`
- `OwnersClient.get_owner` · web · `app/clients.py:10`

### Hop 4 · 2 callers

- `create_visit` · visits · `svc/api.py:12`
- `owner_page` · web · `app/views.py:8`

### Hop 5 · 1 caller

- `main` · web · `app/cli.py:5`

## Reachable endpoints

| Method | Path | Repository | Hops | Certainty | Example path |
|---|---|---|---|---|---|
| GET | `/owners/{}` | owners | 2 | exact | `GET /owners/{}` → `OwnerController.show` → `OwnerService.find` → `OwnerRepository.findById` |
| POST | `/visits` | visits | 4 | exact | `POST /visits` → `create_visit` → `VisitPublisher.publish` → `topic:visits` → `OwnerEventsListener.onVisit` → `OwnerService.find` → `OwnerRepository.findById` |
| GET | `/pages/owner/{}` | web | 4 | exact | `GET /pages/owner/{}` → `owner_page` → `OwnersClient.get_owner` → `GET /owners/{}` → `OwnerController.show` → `OwnerService.find` → `OwnerRepository.findById` |

## Topics

- `visits`: consumed by `OwnerEventsListener.onVisit` (owners); produced by `VisitPublisher.publish` (visits) · 2 hops · `topic:visits` → `OwnerEventsListener.onVisit` → `OwnerService.find` → `OwnerRepository.findById`

## Tables

- none

## Other entry points

- `Jobs.nightly` (scheduled) · owners · 3 hops · `src/main/java/shop/Jobs.java:8`
- `main` (main) · web · 5 hops · `app/cli.py:5`

## Tests affected · 0

- none

## Services affected

| Repository | Nodes | Endpoints | Nearest hop |
|---|---|---|---|
| owners | 10 | 1 | 0 |
| visits | 2 | 1 | 3 |
| web | 3 | 1 | 3 |

## Diagram

```mermaid
flowchart LR
  subgraph s0["owners"]
    t0(["JpaOwnerRepository.findById"])
    t1(["JpaOwnerRepository.findById"])
    t2(["OwnerRepository.findById"])
    t3(["CachedOwnerRepository.findById"])
    c0["OwnerService.find"]
    c1["OwnerService.findLegacy"]
    c2["OwnerController.show"]
    c3["OwnerEventsListener.onVisit"]
    c4["OwnerService.refresh"]
    c5["Jobs.nightly"]
  end
  subgraph s1["visits"]
    c6["VisitPublisher.publish"]
    c8["create_visit"]
  end
  subgraph s2["web"]
    c7["OwnersClient.get_owner"]
    c9["owner_page"]
    c10["main"]
  end
  e0{{"GET /owners/{}"}}
  e1{{"POST /visits"}}
  e2{{"GET /pages/owner/{}"}}
  k0[("topic visits")]
  t2 --> c0
  t1 --> c1
  c0 --> c2
  c0 --> c3
  c0 --> c4
  c4 --> c5
  k0 --> c6
  e0 --> c7
  c6 --> c8
  c7 --> c9
  c9 --> c10
  c2 --> e0
  c8 --> e1
  c9 --> e2
  c3 --> k0
```

## Truncated

- depth 5 reached: 1 caller at hop 6 not followed
- 1 HTTP client call to another service's endpoint of the same path not followed (service map; host vets-service); if vets-service is served by owners, follow with --service vets-service=owners (or RIPPLE_SERVICES="vets-service=owners")

## Steps executed

| # | Step | Time | Store calls | Result |
|---|---|---|---|---|
| 1 | Targets | 0.0 ms | 7 | 1 selected, 1 overload, 1 declaration, 1 implementation |
| 2 | Direct callers | 0.0 ms | 2 | 2 callers, 2 call sites |
| 3 | Upward walk | 0.0 ms | 10 | 11 nodes reached in 5 hops |
| 4 | Attach endpoints and topics | 0.0 ms | 2 | 3 endpoints, 1 topic, 3 services |
| 5 | Tables | 0.0 ms | 1 | 0 tables (0 written) |
| 6 | Report | 0.0 ms | 1 | 2 truncation notes |
| | Total | 0.0 ms | 23 | |
"""


def test_markdown_snapshot(store):
    assert render_markdown(no_times(at_jpa_find(store))) == MARKDOWN


def test_markdown_links_go_through_the_link_callable(store):
    text = render_markdown(at_jpa_find(store), link=lambda repo, path, line: f"[{path}:{line}](file:///{repo}/{path}#L{line})")
    assert "· owners · [src/main/java/shop/OwnerService.java:13](file:///owners/src/main/java/shop/OwnerService.java#L13) (exact)" in text


def test_any_method_endpoint_and_application_names_without_a_service_map(tmp_path: Path):
    """A Django-style view accepting any method is reached by a GET client; a client naming a service
    is matched to the application name the exposing module declares (EXPOSES props["service"]), and
    one naming another application is not followed."""
    shop, front = Repo("shop", "python"), Repo("front", "typescript")
    view = shop.node("shop/views.py", "detail", "1", 3, 5, label="Function")
    any_detail = endpoint("*", "/items/<int:pk>")
    shop.shared("shop/urls.py", any_detail)
    shop.edge("EXPOSES", view, any_detail.id, "shop/urls.py", 4, 4, framework="django", service="shop-app")
    get_detail = endpoint("GET", "/items/{pk}")
    ok = front.node("src/api.ts", "loadItem", "1", 2, 4, label="Function")
    other = front.node("src/api.ts", "loadCatalogItem", "1", 6, 8, label="Function")
    front.shared("src/api.ts", get_detail)
    front.edge("CALLS_HTTP", ok, get_detail.id, "src/api.ts", 3, 8, framework="fetch",
               url="http://shop-app/items/{}", service="shop-app")
    front.edge("CALLS_HTTP", other, get_detail.id, "src/api.ts", 7, 8, framework="fetch",
               url="http://catalog/items/{}", service="catalog")
    s = EmbeddedStore(tmp_path / "i.db")
    s.replace_files([*shop.files.values(), *front.files.values()])
    report = blast_radius(s, SymbolQuery(view))
    assert [(h.http_method, h.path, h.repo, h.hops) for h in report.endpoints] == [("*", "/items/{}", "shop", 0)]
    assert [(n.id, hop) for hop, n in sorted((s.hops, s.node) for s in report.entry_points)] == [(view, 0)]
    assert [(sv.repo, sv.nodes) for sv in report.services] == [("shop", 1), ("front", 1)]
    assert report.truncated == (
        "1 HTTP client call to another service's endpoint of the same path not followed (service map; host catalog)",)  # shop names itself shop-app: no mapping suggested
    s.close()


def test_direct_callers_beyond_the_node_cap_are_listed_not_followed(store):
    """The cap bounds the walk, not step 2's answer: both direct callers are listed (and counted by
    the summary) although only findLegacy (first in contract order: it calls the overload) is
    followed; find, which leads to the endpoints, is not."""
    report = blast_radius(store, SymbolQuery(JPA_FIND), max_nodes=1)
    assert [c.node.id for c in report.callers] == [FIND, LEGACY]
    assert summary_text(report) == "2 callers · 0 endpoints"
    assert report.callers_by_hop == (1,)
    assert report.truncated == ("node cap 1 reached: 1 caller not followed",)
    assert [s.repo for s in report.services] == [OWNERS]


def test_markdown_code_spans_hold_backticks_pipes_and_line_breaks(tmp_path: Path):
    """Names and paths come from the indexed code: a backtick, a pipe or a line break in them must
    neither end a code span nor break a list item or a table row."""
    r = Repo("odd", "javascript")
    path = "src/we`ird|dir/a.js"
    fn = r.node(path, "größe", "0", 1, 2, label="Function")
    handler = r.node(path, "h", "2", 4, 6, label="Function")
    r.edge("CALLS", handler, fn, path, 5, 4, "exact")
    ep = endpoint("GET", "/a|b/`x`/\n| injected |")
    r.shared(path, ep)
    r.edge("EXPOSES", handler, ep.id, path, 4, 0, framework="express")
    tp = topic("``orders``")
    r.shared(path, tp)
    r.edge("PRODUCES", handler, tp.id, path, 5, 8, framework="kafkajs")
    s = EmbeddedStore(tmp_path / "odd.db")
    s.replace_files(list(r.files.values()))
    text = render_markdown(blast_radius(s, SymbolQuery(fn)))
    s.close()
    lines = text.splitlines()
    assert lines[0] == "# Blast radius of `größe`"
    assert "- `größe` (function, selected) · odd · ``src/we`ird|dir/a.js:1``" in lines
    assert "- `größe` · odd · ``src/we`ird|dir/a.js:1``" not in lines
    assert "- `h` · odd · ``src/we`ird|dir/a.js:5`` (exact)" in lines
    assert ("| GET | ``/a\\|b/`x`/ \\| injected \\|`` | odd | 1 | exact | ``GET /a\\|b/`x`/ \\| injected \\|`` → `h` → `größe` |"
            in lines)
    # The diagram's labels hold no backtick, quote or line break: the fence and the strings stay closed.
    diagram = text[text.index("```mermaid\n"):]
    diagram = diagram[:diagram.index("\n```\n") + 5]
    assert diagram.count("`") == 6
    assert '  e0{{"GET /a|b/#96;x#96;/ | injected |"}}' in diagram
    assert '  k0[("topic #96;#96;orders#96;#96;")]' in diagram
    assert "- ``` ``orders`` ```: produced by `h` (odd) · 1 hop · `h` → `größe`" in lines


def test_a_host_named_like_a_repository_reaches_only_that_repository(tmp_path: Path):
    """svc-a and svc-b both expose GET /items/{id}; a client of http://svc-a/items/{} breaks with
    svc-a's handler, not with svc-b's (no service map needed: the host names an indexed repository)."""
    a, b, c = Repo("svc-a", "python"), Repo("svc-b", "python"), Repo("client", "python")
    items = endpoint("GET", "/items/{item_id}")
    get_a = a.node("a/app.py", "get_item", "1", 3, 4, label="Function")
    get_b = b.node("b/app.py", "get_item_b", "1", 3, 4, label="Function")
    for repo, handler, path in ((a, get_a, "a/app.py"), (b, get_b, "b/app.py")):
        repo.shared(path, items)
        repo.edge("EXPOSES", handler, items.id, path, 3, 0, framework="fastapi")
    fetch = c.node("c/client.py", "fetch", "1", 5, 6, label="Function")
    c.shared("c/client.py", items)
    c.edge("CALLS_HTTP", fetch, items.id, "c/client.py", 6, 11, framework="httpx",
           url="http://svc-a/items/{}", service="svc-a")
    s = EmbeddedStore(tmp_path / "i.db")
    s.replace_files([*a.files.values(), *b.files.values(), *c.files.values()])
    assert [sv.repo for sv in blast_radius(s, SymbolQuery(get_a)).services] == ["svc-a", "client"]
    report_b = blast_radius(s, SymbolQuery(get_b))
    assert [sv.repo for sv in report_b.services] == ["svc-b"]
    assert report_b.truncated == (
        "1 HTTP client call to another service's endpoint of the same path not followed (service map; host svc-a)",)
    s.close()


def test_services_are_counted_per_application_and_repositories_said_when_they_differ() -> None:
    # Newcomer review: "1 service" above a table naming (api-gateway, customers-service).
    from types import SimpleNamespace

    from analysis.impact_report import services_text

    def report(*apps: tuple[str, ...]) -> SimpleNamespace:
        return SimpleNamespace(services=[SimpleNamespace(applications=a) for a in apps])

    assert services_text(report(("api-gateway", "customers-service"))) == "2 services in 1 repository"
    assert services_text(report((), ("billing",))) == "2 services"
    assert services_text(report(("a", "b"), ("c",))) == "3 services in 2 repositories"
    assert services_text(report()) == "0 services"


def test_skipped_note_names_the_hosts_and_the_mapping_that_follows_them():
    from analysis.impact import skipped_note
    head = "HTTP client call{} to another service's endpoint of the same path not followed"
    assert skipped_note(1, {"api.realworld.show": {"node-rw"}}) == (
        f"1 {head.format('')} (service map; host api.realworld.show); if api.realworld.show is served by node-rw, "
        'follow with --service api.realworld.show=node-rw (or RIPPLE_SERVICES="api.realworld.show=node-rw")')
    assert skipped_note(3, {"b": {"r2", "r1"}, "a": set()}) == (
        f"3 {head.format('s')} (service map; hosts a, b); where each host is served by that repository, follow with "
        '--service b=r1 --service b=r2 (or RIPPLE_SERVICES="b=r1 b=r2")')
    # no repository to suggest (the exposing applications name themselves): the hosts only
    assert skipped_note(2, {"billing-api": set()}) == f"2 {head.format('s')} (service map; host billing-api)"
