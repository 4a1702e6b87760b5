"""Impact analysis ("blast radius"): what breaks if this changes, across repositories and services.

Protocol-independent: the CLI (``ripple impact``) and the language server (``ripple/blastRadius``,
hover, code lens) call :func:`blast_radius` and render the frozen :class:`BlastRadius` it returns
(:mod:`analysis.impact_report`: :func:`~analysis.impact_report.render_markdown`,
:func:`~analysis.impact_report.report_json`). It uses :class:`~stores.contracts.GraphStore` contract
calls only, so it runs on any backend and on :class:`analysis.navigation.UnionGraph`. The design's five
steps, each a fixed number of batched calls whatever the number of hits:

1. **Targets**: the symbol a name, a node id or a cursor position names (through
   :mod:`analysis.navigation`; a name nothing matches goes to a hybrid search of about ten candidates
   when a :class:`~analysis.retrieval.QueryEngine` is given, filtered to matching names); then its
   overloads (the members of its parent with the same qualified name), the declarations it
   OVERRIDES and, of a bodiless one (interface or abstract method), its other implementations, and a type's
   constructors (four or five calls: parents, members and overrides, overrides of overloads,
   overriders, nodes; :mod:`analysis.impact_targets`).
2. **Direct callers**: one ``outgoing`` (the targets' own EXPOSES / CONSUMES / CALLS_HTTP / PRODUCES
   edges) and ONE ``incoming`` for CALLS into every target (plus the crossings below).
3. **Upward walk**, breadth first, one hop per level up to ``depth`` (default 5): per level one
   ``outgoing`` of the service edges of the level's methods and one ``incoming`` of the CALLS into
   them, of the CALLS_HTTP into the endpoints they EXPOSE or WRAP and of the PRODUCES into the topics
   they CONSUME. Cross-cutting code (a filter, middleware, interceptor, guard, hook, dependency,
   error handler: WRAPS edges) reaches the endpoints it runs for at its own hop, as a handler reaches
   the endpoint it EXPOSES. So a service boundary is crossed like a call: an HTTP client in another repository is
   one hop above the handler of the endpoint it calls, a producer one hop above the consumer of its
   topic. A client whose ``props["service"]`` the service map assigns to another repository than
   the one exposing the endpoint is not followed. A node is reached once, at its nearest hop, from
   the first node (in contract order) that reached it; cycles end there. The walk does not stop at
   an entry point: a handler another handler calls breaks both, so its callers are still followed
   (entry points end the *example paths* only because nothing calls them). Receiver constraints
   (:mod:`analysis.receivers`): climbing from an override through the dispatch on ``this`` in an inherited
   template method, only the callers (and routes) of that method running on an instance of a related class
   are followed; a base declaration that is a target is walked as the selected override's. The last level is asked
   once more for callers only to count what the depth cut off; ``max_nodes`` caps the nodes reached
   (followed further); every direct caller is listed all the same (step 2's answer is complete).
4. **Attach**: one ``get_nodes`` for every node, endpoint and topic reached (preceded, when a
   wrapper was reached, by one ``incoming`` of the EXPOSES of the endpoints it wraps: their handlers);
   endpoints (per exposing repository), topics, wrappers, entry points (EXPOSES, CONSUMES, WRAPS with
   the wrapper's kind, scheduler / listener / task decorators, ``main``, module-level code) and services
   are assembled from the edges collected on the way.
5. **Report**: :class:`BlastRadius`, with each step's time and number of store calls.
"""

from __future__ import annotations

import posixpath
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from stores.contracts import Edge, GraphStore, Node, query_parts, symbol_match_rank, topic_parts
from analysis.entry_kinds import decorator_kinds, exposes_kind
from analysis.counting import CountingGraph
from analysis.services import (SERVICES_ENV, ambiguous_clients, application_of, client_app, named_client_reaches,
                               names_no_service, repository_applications, scoped_out, serving_applications)
from analysis.receivers import Receivers
from analysis.impact_targets import TARGET_ROLES, bodiless, expand_targets
from analysis.testcode import is_test_path
from analysis.generated import GENERATED_NAMES, GlueFolder, rpc_endpoints
from analysis.tables import is_table_target, table_accessors, table_nodes, tables_detail, tables_reached
from analysis.navigation import (
    CALLABLE_LABELS,
    TYPE_LABELS,
    REFERENCE_KINDS,
    best_targets,
    qualified_as,
    symbol_candidates,
)

from analysis.impact_model import (BlastRadius, CallSite, Caller, EndpointHit, EntryPoint, PathStep, Reached,
                                   ServiceHit, StepRun, Target, TopicHit, WrapperHit, WrapperVia)

if TYPE_CHECKING:
    from analysis.retrieval import QueryEngine

__all__ = [
    "DEFAULT_DEPTH", "DEFAULT_MAX_NODES", "SymbolQuery", "PositionQuery", "NodesQuery", "Target", "CallSite",
    "Caller", "PathStep", "EndpointHit", "TopicHit", "EntryPoint", "ServiceHit", "StepRun", "BlastRadius",
    "CountingGraph", "blast_radius", "count_noun", "services_phrase", "WrapperVia", "WrapperHit",
    "TESTS_MODES", "CERTAINTIES", "Reached", "query_nodes", "bodiless",
]

DEFAULT_DEPTH = 5
"""Hops walked upward from the targets (the design's default)."""
DEFAULT_MAX_NODES = 5000
"""Most nodes (callers, clients, producers) one report reaches; the rest is counted as truncated."""
TESTS_MODES = ("apart", "include", "exclude", "only")
"""How a report treats test code (:func:`analysis.testcode.is_test_path`): ``apart`` (default: listed
in its own section, never among callers, endpoints or services), ``include`` (as production code),
``exclude`` (not walked, only counted) or ``only`` (the tests alone)."""
CERTAINTIES = ("exact", "inferred", "name")
"""How sure a path is, surest first: the weakest CALLS binding or queue link (a PRODUCES edge's
``match``) on it (HTTP and Kafka links count as ``exact``). The resolver binds by ``name`` only when exactly one callable has that name and arity, so
``name`` is also the weakest the graph holds (an ambiguous name is not bound at all)."""
_RANK = {c: i for i, c in enumerate(CERTAINTIES)}
SEARCH_CANDIDATES = 10
"""How many hybrid-search hits a name that nothing matches by name is looked for in."""

_CODE_LABELS = (*TYPE_LABELS, *CALLABLE_LABELS, "Field")
_SERVICE_KINDS = ("EXPOSES", "WRAPS", "CONSUMES", "CALLS_HTTP", "PRODUCES", "ENTRY")
_UP_KINDS = ("CALLS", "CALLS_HTTP", "PRODUCES")
_ENDPOINT = "endpoint:"
"""The prefix of an Endpoint node's id; a WRAPS edge to anything else goes to the handler of a route
whose path is unknown (:mod:`indexer.frameworks.route_links`): an entry point, no endpoint."""
_ANY_METHOD = "endpoint:* "
_CLIENT_KINDS = ("CALLS_HTTP", "PRODUCES")
_SERVICE_PREFIXES = ("endpoint:", "topic:")
"""A target endpoint's HTTP clients and a target topic's producers are its direct callers."""
_HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_POSITION_KINDS = tuple(k for k in REFERENCE_KINDS if k != "OVERRIDES")


# ------------------------------------------------------------------------------------ queries


@dataclass(frozen=True, slots=True)
class SymbolQuery:
    """A symbol by ``text``: a node id, a qualname (``Class.method``) or a dotted name
    (:func:`analysis.navigation.find_targets`'s forms)."""

    text: str


@dataclass(frozen=True, slots=True)
class PositionQuery:
    """A position in ``repo``/``path``: 1-based ``line``, 0-based code-point ``col`` of the
    identifier ``word`` written there (what :func:`analysis.navigation.symbol_at` takes). Without
    ``col`` the innermost definition whose lines contain ``line`` is meant (``PATH:LINE``)."""

    repo: str
    path: str
    line: int
    col: int | None = None
    word: str = ""


@dataclass(frozen=True, slots=True)
class NodesQuery:
    """Nodes already resolved (a hover's or code lens's symbol): no lookup."""

    nodes: tuple[Node, ...]


Query = SymbolQuery | PositionQuery | NodesQuery


# ------------------------------------------------------------------------------------- report


class _Clock:
    """Times the steps and counts their store calls."""

    def __init__(self, graph: CountingGraph) -> None:
        self.graph = graph
        self.steps: list[StepRun] = []
        self._t = time.perf_counter()
        self._calls = graph.calls

    def lap(self, name: str, detail: str, extra_calls: int = 0) -> None:
        now = time.perf_counter()
        calls = self.graph.calls - self._calls + extra_calls
        self.steps.append(StepRun(name, round((now - self._t) * 1000, 3), calls, detail))
        self._t, self._calls = now, self.graph.calls


# ---------------------------------------------------------------------------- step 1: targets


def _seeds(graph: GraphStore, query: Query, engine: QueryEngine | None, tests: str = "include") -> tuple[list[Node], int]:
    """The nodes ``query`` names (a table's test accessors as ``tests`` says), and how many searches ran."""
    if isinstance(query, NodesQuery) or (isinstance(query, SymbolQuery) and is_table_target(query.text)):
        # tests apart: a table's test accessors are listed under the tests (hop 0), not as targets
        mode = "exclude" if tests == "apart" else tests
        return (list(query.nodes) if isinstance(query, NodesQuery) else table_accessors(graph, query.text, mode)), 0
    if isinstance(query, PositionQuery):
        if query.col is None:
            inside = [n for n in graph.nodes_in_file(query.repo, query.path)
                      if n.label in _CODE_LABELS and n.start_line <= query.line <= n.end_line]
            best = max(inside, key=lambda n: (n.start_line, n.start_col), default=None)
            return ([best] if best else []), 0
        return _at(graph, query.repo, query.path, query.line, query.col, query.word), 0
    found = best_targets(query.text, symbol_candidates(graph, query.text))
    if found or engine is None:
        return found, 0
    text = query.text.strip().split("(", 1)[0].strip().strip(".")
    *heads, short = text.split(".")
    parts = query_parts(short)
    hits = engine.search(query.text, SEARCH_CANDIDATES).hits
    matching = {}
    for h in hits:
        rank = symbol_match_rank(short, parts, h.node.name)
        # the name, up to case and separators, and every qualifier the user wrote, so: `Foo.findOwner`
        # never silently means `OwnerResource.findOwner`, nor `Query.launches` the React `Launches`
        if h.node.label in _CODE_LABELS and rank is not None and rank <= 1 and qualified_as(h.node, heads):
            matching[h.node.id] = h.node
    return sorted(matching.values(), key=lambda n: n.id), 1



def query_nodes(graph: GraphStore, query: PositionQuery | NodesQuery) -> list[Node]:
    """The nodes a position (or a node list) names, as :func:`blast_radius` reads it before widening
    them to overloads and implementations: with a column, what the identifier there names (the callees
    of a call site, a mentioned type, an overriding method itself, else the innermost definition);
    without, the innermost definition whose lines hold ``line``. Empty when nothing is there. Two or
    three store calls."""
    return _seeds(graph, query, None)[0]


def _contains(n: Node, line: int, col: int) -> bool:
    return (n.start_line, n.start_col) <= (line, col) <= (n.end_line, n.end_col)


def _at(graph: GraphStore, repo: str, path: str, line: int, col: int, word: str) -> list[Node]:
    """What the identifier ``word`` at ``line`` / ``col`` names, as
    :func:`analysis.navigation.symbol_at` (the callees of a call site, a mentioned type, else the
    definition of that name around it; an overriding method's name means that method), else, when no
    identifier is there (``word`` empty) or the position is on a definition's first line, the innermost
    definition around it; an identifier bound to nothing elsewhere names nothing (``[]``). Two or
    three store calls."""
    nodes = graph.nodes_in_file(repo, path)
    end = col + max(len(word), 1)
    out = graph.outgoing([n.id for n in nodes], _POSITION_KINDS)
    dst = sorted({e.dst for es in out.values() for e in es if e.line == line and col <= e.col < end})
    if dst:
        found = graph.get_nodes(dst)
        hits = [found[i] for i in dst if i in found and found[i].label in _CODE_LABELS]
        if hits:
            return hits
    code = [n for n in nodes if n.label in _CODE_LABELS and _contains(n, line, col)]
    # an identifier bound to nothing means nothing, but on a definition's first line (its keyword, a modifier)
    named = [n for n in code if n.name == word] or [n for n in code if not word or n.start_line == line]
    inner = max(named, key=lambda n: (n.start_line, n.start_col), default=None)
    return [inner] if inner is not None else []


def handed(e: Edge) -> bool:
    """Whether the CALLS edge ``e`` lies outside its caller's file: the resolver's edge from a
    callable to what another file hands it (a decorator's wrapper to the function it decorates, at
    the decoration: ``@background_task def flow()``; a higher-order function to the function an
    argument names, at that call: ``run(job)``). Its caller runs that callee only when called from
    there, so an upward walk reaching the caller through ``e`` follows only its callers at
    ``e``'s (file, line) (one level of call-site context, as k-CFA with k = 1: Shivers, "Control-Flow
    Analysis of Higher-Order Languages", 1991; :meth:`_Walk._handed_callers`). Ids are
    ``repo:path-without-suffix.qualname(sig)``; a caller in the same file as the site is not told
    apart (the walk stays as wide as before)."""
    if e.kind != "CALLS" or not e.file or "(" not in e.src:
        return False
    return not e.src.startswith(f"{e.repo}:{posixpath.splitext(e.file)[0]}.")


# --------------------------------------------------------------------------- steps 2-3: walk


@dataclass
class _Walk:
    """Breadth-first state: ``hop`` and ``parent`` (toward the targets) of every id reached,
    Endpoint and Topic ids included. ``tests`` (:data:`TESTS_MODES`): with ``apart`` and ``only``
    test code (:func:`analysis.testcode.is_test_path` of the caller's file) is walked and marked in
    ``test_ids``, with ``exclude`` not walked (counted in ``excluded_tests``); production code is never
    reached through a test."""

    graph: GraphStore
    services: Mapping[str, str]
    resolutions: Sequence[str] | None
    max_nodes: int
    hop: dict[str, int] = field(default_factory=dict)
    parent: dict[str, str] = field(default_factory=dict)
    service_edges: list[Edge] = field(default_factory=list)
    direct: list[Edge] = field(default_factory=list)
    exposed_by: dict[str, set[str]] = field(default_factory=dict)
    exposed_as: dict[str, set[str]] = field(default_factory=dict)
    repo_names: frozenset[str] | None = None
    beyond_depth: set[str] = field(default_factory=set)
    beyond_cap: set[str] = field(default_factory=set)
    skipped_clients: set[tuple[str, str]] = field(default_factory=set)
    skipped_hosts: dict[str, set[str]] = field(default_factory=dict)
    """Per service (host) of a client not followed, the repositories exposing the endpoints it calls."""
    unnamed_clients: set[tuple[str, str]] = field(default_factory=set)
    other_apps: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    """Per application, its in-process clients not followed: they request its own handler of a route
    another application's handler (the one reached) serves too."""
    served: dict[str, frozenset[str]] = field(default_factory=dict)
    """Per endpoint an in-process client (:func:`analysis.services.client_app`) requests, the applications
    serving it (read once, only for such endpoints)."""
    nodes_reached: int = 0
    tests: str = "apart"
    test_ids: set[str] = field(default_factory=set)
    excluded_tests: set[str] = field(default_factory=set)
    weak: dict[str, int] = field(default_factory=dict)
    """Per id reached: the weakest binding (index in :data:`CERTAINTIES`) on its surest shortest path."""
    order: list[str] = field(default_factory=list)
    """Code nodes reached above the targets, in the order reached."""
    folded: set[str] = field(default_factory=set)
    """Generated RPC glue calling an rpc's implementation, not walked (:mod:`analysis.generated`)."""
    glue: GlueFolder | None = None
    receivers: Receivers | None = None
    """The receiver constraints (:mod:`analysis.receivers`), made with the walk."""
    rewalk: set[str] = field(default_factory=set)
    """Nodes walked before and queued again with a wider receiver constraint: only their callers are read."""
    sites: dict[str, dict[tuple[str, int], bool]] = field(default_factory=dict)
    """Per callable reached only through :func:`handed` edges: the (file, line) of those edges, the
    sites that hand it what it runs, each with whether it is the decoration of the function handed
    (:meth:`_handed_callers`)."""

    def level(self, ids: list[str], hop: int, last: bool) -> list[str]:
        """One hop: the service edges of ``ids`` (reached at ``hop``), then everything one hop above
        them; returns the next level (empty when ``last``: only counted)."""
        receivers = self.receivers = self.receivers or Receivers(self.graph)
        again, self.rewalk = self.rewalk, set()
        fresh = [i for i in ids if i not in again]  # walked before: their service edges are collected
        out = self.graph.outgoing(fresh, _SERVICE_KINDS) if fresh else {}
        receivers.prepare(fresh, out)
        cross: list[str] = []
        grown: set[str] = set()
        # A wrapper's endpoints after every handler's: at the same hop, the handler explains the endpoint.
        # the route of a view class unrelated to the instance the walk climbed on is not served (receivers)
        edges = [(i, e) for i in fresh for e in out.get(i, []) if e.kind != "WRAPS" and receivers.serves(i, e)]
        edges += [(i, e) for i in fresh for e in out.get(i, []) if e.kind == "WRAPS"]
        for i, e in edges:
            self.service_edges.append(e)
            if e.kind in ("EXPOSES", "WRAPS"):  # a wrapper runs in the application exposing the endpoint
                repos = self.exposed_by.setdefault(e.dst, set())
                if isinstance(e.props.get("service"), str):
                    self.exposed_as.setdefault(e.dst, set()).add(e.props["service"])
                if e.repo not in repos:
                    repos.add(e.repo)
                    grown.add(e.dst)
            if e.kind in ("EXPOSES", "WRAPS", "CONSUMES") and e.dst not in self.hop:
                self.hop[e.dst], self.parent[e.dst] = hop, i
                self.weak[e.dst] = max(self.weak.get(i, 0), _link_rank(e))
                cross.append(e.dst)
                # An endpoint accepting any method ("endpoint:* /p": Django views, Spring
                # @RequestMapping without method) is reached by clients of every method.
                if e.kind != "CONSUMES" and e.dst.startswith(_ANY_METHOD):
                    path = e.dst.removeprefix(_ANY_METHOD)
                    for method in _HTTP_METHODS:
                        alias = f"endpoint:{method} {path}"
                        if alias not in self.hop:
                            self.hop[alias], self.parent[alias] = hop, e.dst
                            self.weak[alias] = self.weak[e.dst]
                            self.exposed_by[alias] = self.exposed_by[e.dst]
                            self.exposed_as[alias] = self.exposed_as.setdefault(e.dst, set())
                            cross.append(alias)
        handlers = [d for d in cross if not d.startswith(_SERVICE_PREFIXES)]
        if handlers:  # wrapped handlers of routes of unknown path: their ENTRY edges say what they are
            entries = self.graph.outgoing(handlers, ("ENTRY",))
            self.service_edges.extend(e for d in handlers for e in entries.get(d, []))
        cross += sorted(grown - set(cross))
        ask = ids + cross
        incoming = self.graph.incoming(ask, _UP_KINDS, self.resolutions)
        receivers.prepare(ask, incoming)
        # one call, only when a test's in-process request names another application than the handlers reached
        scoped = [d for d in ask if d not in self.served and any(
            client_app(e) not in (None, *self.exposed_as.get(d, ())) for e in incoming.get(d, ()))]
        self.served.update(serving_applications(self.graph, scoped))
        rpcs = rpc_endpoints(out)  # generated glue calling these is folded into their rpc endpoint
        self.glue = self.glue or GlueFolder(self.graph)
        nxt: list[str] = []
        reached_by: list[tuple[Edge, str]] = []  # handed edges and the callee they lead up from
        for dst in ask:
            calls = incoming.get(dst, [])
            if dst in self.sites:
                calls = self._handed_callers(self.sites[dst], calls)
            for e in calls:
                if not receivers.follows(dst, e):
                    continue  # `new AccountHandler().run()` does not run LogHandler.afterInsert
                if rpcs and self.glue.folded(e, rpcs):
                    self.folded.add(e.src)
                    continue
                test = self.tests != "include" and (e.src in self.test_ids or is_test_path(e.file))
                if test and self.tests == "exclude":
                    self.excluded_tests.add(e.src)
                    continue
                if dst in self.test_ids and not test:
                    continue  # production code reached only through a test is not affected
                if test:
                    self.test_ids.add(e.src)
                if e.kind == "CALLS" and hop == 0:
                    if e.src not in self.hop or self.hop[e.src] != 0:
                        self.direct.append(e)
                if e.kind == "CALLS_HTTP" and not self._follows(e):
                    continue
                if hop == 0 and e.kind in _CLIENT_KINDS and dst in ids and dst.startswith(_SERVICE_PREFIXES):
                    self.direct.append(e)  # an endpoint's (a topic's) target: its clients (producers) call it
                weak = max(_link_rank(e), self.weak.get(dst, 0))
                if e.src in self.hop:
                    if receivers.widen(e.src, receivers.carried(dst, e)) and self.hop[e.src] <= hop and not last \
                            and e.src not in self.rewalk:
                        self.rewalk.add(e.src)  # walked already: its callers again, under the wider constraint
                        nxt.append(e.src)
                    if self.hop[e.src] == hop + 1:
                        if e.src in self.sites:  # not walked yet: each way it was reached counts
                            if handed(e):
                                self.sites[e.src][(e.file, e.line)] = False
                                reached_by.append((e, dst))
                            else:
                                del self.sites[e.src]
                        if weak < self.weak[e.src]:
                            # The surest of the paths of the same length explains the node.
                            self.weak[e.src], self.parent[e.src] = weak, dst
                    continue
                if last:
                    self.beyond_depth.add(e.src)
                elif self.nodes_reached >= self.max_nodes:
                    self.beyond_cap.add(e.src)
                else:
                    self.hop[e.src], self.parent[e.src], self.weak[e.src] = hop + 1, dst, weak
                    receivers.reach(e.src, receivers.carried(dst, e))
                    if handed(e):
                        self.sites[e.src] = {(e.file, e.line): False}
                        reached_by.append((e, dst))
                    self.nodes_reached += 1
                    nxt.append(e.src)
                    self.order.append(e.src)
        if reached_by:  # one store call, only where a handed edge was crossed
            handed_from = self.graph.get_nodes(sorted({d for _, d in reached_by}))
            for e, d in reached_by:
                n = handed_from.get(d)
                if e.src in self.sites and n is not None and n.file == e.file and \
                        n.start_line <= e.line <= int(n.props.get("name_line") or n.start_line):
                    self.sites[e.src][(e.file, e.line)] = True
        return nxt

    @staticmethod
    def _handed_callers(sites: Mapping[tuple[str, int], bool], edges: list[Edge]) -> list[Edge]:
        """The edges into a callable reached only through :func:`handed` edges that the walk follows:
        its calls at one of ``sites`` (``run(job)`` hands ``job`` to ``run`` there); none when every
        site is the decoration of the function handed (``@background_task def flow``: the wrapper's
        callers call ``flow`` directly, they are its callers already); else all (a closure a factory
        returns, ``later = make(job)``, is called by the name it is stored in: not told apart)."""
        at = [e for e in edges if e.kind != "CALLS" or (e.file, e.line) in sites]
        if len(at) < len(edges) and any(e.kind == "CALLS" for e in at):
            return at
        if all(sites.values()):
            return [e for e in edges if e.kind != "CALLS"]
        return edges

    def _repo_names(self) -> frozenset[str]:
        """Names of the indexed repositories (one store call, the first time a client names a
        service)."""
        if self.repo_names is None:
            self.repo_names = frozenset(self.graph.repos())
        return self.repo_names

    def _follows(self, e: Edge) -> bool:
        """Whether an HTTP client is followed (otherwise counted in ``skipped_clients``). A client
        naming no service (or a loopback host: :func:`analysis.services.names_no_service`) is
        followed (kept in ``unnamed_clients``). One whose service the service map assigns to a repository,
        or names an indexed repository (``http://svc-a/...``), is followed when that repository exposes
        the endpoint; another when the exposing applications declare that name (EXPOSES), or declare none
        and it is no public DNS name (:func:`analysis.services.public_host`: an outside API). A test's
        in-process client (:func:`analysis.services.client_app`) of an endpoint its own application serves
        is followed only to that application's handlers (:func:`analysis.services.scoped_out`)."""
        handlers = self.exposed_as.get(e.dst, set())  # applications whose handlers the walk reached: they serve it
        out = scoped_out(client_app(e), handlers, handlers | self.served.get(e.dst, frozenset()))
        if out is not None:  # an in-process test client: its own application's handler only
            if out:
                self.other_apps.setdefault(str(client_app(e)), set()).add((e.src, e.dst))
            return not out
        service = e.props.get("service")
        if names_no_service(service, self.services):
            self.unnamed_clients.add((e.src, e.dst))
            return True
        ok = named_client_reaches(str(service), self.services, self._repo_names, self.exposed_by.get(e.dst, ()),
                                  self.exposed_as.get(e.dst, ()))
        if not ok:
            self.skipped_clients.add((e.src, e.dst))
            # mapping the host to a repository exposing the endpoint follows it, unless the exposing
            # applications name themselves (then the host is another of theirs) or the host is named
            # like an indexed repository (that repository's): then no mapping is suggested
            named = self.exposed_as.get(e.dst) or (service not in self.services and service in self._repo_names())
            self.skipped_hosts.setdefault(service, set()).update(() if named else self.exposed_by.get(e.dst, ()))
        return ok


# ------------------------------------------------------------------------- steps 4-5: report


def skipped_note(count: int, hosts: dict[str, set[str]]) -> str:
    """The truncation note for ``count`` HTTP client calls not followed to an endpoint another
    repository exposes: the hosts they address (``hosts``: host -> repositories exposing the
    endpoints) and the service map entries that would follow them (``--service HOST=REPO``, or
    :data:`~analysis.services.SERVICES_ENV` where there is no command line)."""
    entries = [f"{host}={repo}" for host in sorted(hosts) for repo in sorted(hosts[host])]
    note = (f"{count_noun(count, 'HTTP client call')} to another service's endpoint of the same path not followed "
            f"(service map; {'hosts' if len(hosts) > 1 else 'host'} {', '.join(sorted(hosts))})")
    if len(entries) == 1:
        host, repo = entries[0].split("=", 1)
        note += f"; if {host} is served by {repo}, follow with --service {entries[0]}"
    elif entries:
        note += f"; where each host is served by that repository, follow with --service {' --service '.join(entries)}"
    return note + (f" (or {SERVICES_ENV}=\"{' '.join(entries)}\")" if entries else "")


def _step(node: Node | None, id: str) -> PathStep:
    if node is None:
        name = id.removeprefix("endpoint:") if id.startswith("endpoint:") else id
        return PathStep(id, name, "Endpoint" if id.startswith("endpoint:") else "Topic", "", "", 0)
    if node.label == "Topic":  # its id: topic:<name> (Kafka), topic:<broker>:<name>
        return PathStep(node.id, node.id, node.label, "", "", 0)
    name = node.file if node.label == "File" else node.name if node.label == "Endpoint" else node.qualname
    return PathStep(node.id, name, node.label, node.repo, node.file, node.start_line)


_MATCH_ORDER = ("exact", "inferred", "name")


def _link_rank(e: Edge) -> int:
    """How sure one upward step is (index in :data:`CERTAINTIES`): a CALLS edge's ``resolution``, a
    queue PRODUCES edge's ``match`` (RabbitMQ exchange + key through a pattern: ``inferred``; by name:
    ``name``), a WRAPS edge's ``match`` (a factory returning one of several functions: ``inferred``),
    a gRPC EXPOSES / CALLS_HTTP edge's ``match`` (a server or stub matched to its ``.proto`` by service
    name only: ``name``); HTTP and Kafka links count as ``exact``."""
    if e.kind == "CALLS":
        return _RANK.get(e.resolution or "", 0)
    m = e.props.get("match") if e.kind in ("PRODUCES", "WRAPS", "EXPOSES", "CALLS_HTTP") else None
    return _RANK.get(m, 0) if isinstance(m, str) else 0


def _note_match(matches: dict[str, str], e: Edge) -> None:
    """Keep, per topic, the weakest ``match`` of its PRODUCES / CONSUMES edges seen (Kafka's carry none)."""
    m = e.props.get("match")
    if isinstance(m, str) and m in _MATCH_ORDER:
        old = matches.get(e.dst)
        if old is None or _MATCH_ORDER.index(m) > _MATCH_ORDER.index(old):
            matches[e.dst] = m


def _topic_name(node: Node | None, tid: str) -> tuple[str, str]:
    """``(broker, name)`` of a Topic node (from its id when the node is not in the index)."""
    if node is not None:
        return str(node.props.get("broker") or "kafka"), node.name
    return topic_parts(tid)


def _reached_lists(walk: _Walk, nodes: dict[str, Node], ambiguous: Mapping[str, tuple[str, ...]]) -> tuple[Any, Any]:
    """The nodes reached, per hop (those the report shows: test code with ``tests="only"``, the rest
    otherwise), and the test code reached, nearest first (``ambiguous``: ``Reached.ambiguous`` by id)."""
    only = walk.tests == "only"
    by_hop: list[list[Reached]] = []
    tests: list[Reached] = []
    for i in walk.order:
        n = nodes.get(i)
        if n is None:
            continue
        r = Reached(n, walk.hop[i], walk.parent[i], CERTAINTIES[walk.weak.get(i, 0)], ambiguous.get(i, ()))
        test = i in walk.test_ids
        if test:
            tests.append(r)
        if test == only:
            while len(by_hop) < r.hops:
                by_hop.append([])
            by_hop[r.hops - 1].append(r)

    def key(r: Reached) -> tuple[Any, ...]:
        return (r.hops, r.node.repo, r.node.file, r.node.start_line, r.node.start_col, r.node.id)

    return tuple(tuple(sorted(h, key=key)) for h in by_hop), tuple(sorted(tests, key=key))


def _one_per_route(hits: Iterable[EndpointHit]) -> list[EndpointHit]:
    """Per (endpoint, repository), the nearest hit (a handler before a wrapper at the same hop), and
    beside it every other declared route's nearest handler: routes that normalise to one endpoint
    (``/checks/<uuid:code>`` and ``/checks/<sha1:unique_key>``, both ``/checks/{}``) are distinct
    URLs served by distinct handlers. A hit without a route (through a wrapper, or a handler that
    declares none) stands for the endpoint as a whole and is kept only when it is the nearest."""
    groups: dict[tuple[str, str], list[EndpointHit]] = {}
    for h in hits:
        groups.setdefault((h.id, h.repo), []).append(h)
    out: list[EndpointHit] = []
    for group in groups.values():
        group.sort(key=lambda h: (h.hops, h.through is not None, h.route or ""))
        best = group[0]
        out.append(best)
        if best.route is not None:  # a wrapper's hit shows its handler's route but is no route of its own
            routes = {best.route}
            for h in group[1:]:
                if h.route is not None and h.through is None and h.route not in routes:
                    routes.add(h.route)
                    out.append(h)
    return out


def _assemble(walk: _Walk, nodes: dict[str, Node], targets: list[Target], handlers: Mapping[str, list[Edge]],
              apps: Mapping[str, Mapping[str, str]]) -> tuple[
        tuple[Caller, ...], tuple[EndpointHit, ...], tuple[TopicHit, ...], tuple[EntryPoint, ...], tuple[ServiceHit, ...],
        tuple[WrapperHit, ...]]:
    """Callers, endpoints, topics, entry points, services and wrappers from what the walk collected;
    ``handlers``: the EXPOSES edges into the endpoints wrappers reach (their handlers, for the report);
    ``apps``: per repository, the folders naming its applications
    (:func:`analysis.services.repository_applications`): a service's applications are those of the
    endpoints hit and of every code node reached in it."""
    hop, parent = walk.hop, walk.parent
    target_ids = {t.node.id for t in targets}
    only = walk.tests == "only"

    def shown(i: str) -> bool:
        return (i in walk.test_ids) == only

    memo: dict[str, tuple[PathStep, ...]] = {}

    def chain(start: str) -> tuple[PathStep, ...]:
        """``start`` and its parents down to a target (memoised: paths share their tails)."""
        path: list[str] = []
        tail: tuple[PathStep, ...] = ()
        cur = start
        while True:
            if cur in memo:
                tail = memo[cur]
                break
            path.append(cur)
            if cur in target_ids or cur not in parent:
                break
            cur = parent[cur]
        for i in reversed(path):
            tail = (_step(nodes.get(i), i), *tail)
            memo[i] = tail
        return tail

    # Direct callers, one entry per caller with its sites.
    sites: dict[str, list[CallSite]] = {}
    for e in walk.direct:
        if e.src in nodes and shown(e.src):
            sites.setdefault(e.src, []).append(CallSite(e.dst, e.repo, e.file, e.line, e.col, e.resolution))
    callers = [Caller(nodes[k], tuple(sorted(set(v), key=lambda s: (s.repo, s.file, s.line, s.col, s.target))))
               for k, v in sites.items()]
    callers.sort(key=lambda c: (c.sites[0].repo, c.sites[0].file, c.sites[0].line, c.sites[0].col, c.node.id))

    # Endpoints, one per (endpoint, exposing repository, declared route), from the nearest handler:
    # two routes normalising to one endpoint (Django's checks/<uuid:code> and checks/<sha1:key>)
    # are two URLs, each with its own handler (_one_per_route keeps both).
    hits: dict[tuple[str, str, str | None], EndpointHit] = {}
    consumers: dict[str, list[str]] = {}
    matches: dict[str, str] = {}  # topic -> the weakest match of its links
    producers: dict[str, list[str]] = {}
    kinds: dict[str, list[str]] = {}
    wrapped: dict[str, list[Edge]] = {}

    def hit(e: Edge, repo: str, handler: Node, through: WrapperVia | None, exposes: Edge | None = None) -> None:
        """The endpoint ``e`` reaches, unless a nearer one (or a handler at the same hop) of the same
        declared route explains it; ``exposes``: the handler's EXPOSES edge when ``e`` is a wrapper's
        (the route the row shows; a wrapper's hit still stands for the whole endpoint)."""
        own = e.props.get("route") if e.kind == "EXPOSES" and isinstance(e.props.get("route"), str) else None
        key = (e.dst, repo, own)
        old = hits.get(key)
        if old is not None and (old.hops, old.through is not None) <= (hop[e.src], through is not None):
            return
        ep = nodes.get(e.dst)
        name = ep.name if ep is not None else e.dst.removeprefix("endpoint:")
        method, _, path = name.partition(" ")
        if ep is not None:
            method = str(ep.props.get("http_method") or method)
            path = str(ep.props.get("path") or path)
        service = e.props.get("service") if isinstance(e.props.get("service"), str) else None
        op = e.props.get("operation_id") or (ep.props.get("operation_id") if ep is not None else None) or None
        declared = e if e.kind == "EXPOSES" else exposes
        route = declared.props.get("route") if declared is not None else None
        route = route if isinstance(route, str) else None
        step = _step(ep, e.dst)
        if route is not None:  # the example path names the parameters too
            step = replace(step, name=f"{method} {route}")
        hits[key] = EndpointHit(e.dst, method, path, repo, handler, hop[e.src], (step, *chain(e.src)),
                                service, CERTAINTIES[max(walk.weak.get(e.src, 0), _link_rank(e))], through, op, route)

    for e in walk.service_edges:
        src = nodes.get(e.src)
        if src is None or not shown(e.src) or (only and e.src in target_ids):
            continue
        if e.kind == "ENTRY":
            kinds.setdefault(e.src, []).append(str(e.props.get("kind") or "entry"))
            continue
        if e.kind == "EXPOSES":
            kinds.setdefault(e.src, []).append("grpc" if e.props.get("kind") == "grpc" else exposes_kind(e.dst))
            hit(e, src.repo or e.repo, src, None)
        elif e.kind == "WRAPS":
            kind = str(e.props.get("kind") or "wrapper")
            kinds.setdefault(e.src, []).append(kind)
            wrapped.setdefault(e.src, []).append(e)
            if not e.dst.startswith(_ENDPOINT):
                continue  # the handler of a route whose path is unknown: an entry point reached, no endpoint
            repo = src.repo or e.repo
            exposing = sorted((x.src, x.line, x.col) for x in handlers.get(e.dst, ()) if x.repo == repo and x.src in nodes)
            exposes = next((x for x in handlers.get(e.dst, ()) if exposing and (x.src, x.line, x.col) == exposing[0]), None)
            hit(e, repo, nodes[exposing[0][0]] if exposing else src,
                WrapperVia(src, kind, str(e.props.get("scope") or "")), exposes)
        elif e.kind == "CONSUMES":
            kinds.setdefault(e.src, []).append(str(e.props.get("broker") or "kafka"))
            consumers.setdefault(e.dst, []).append(e.src)
            _note_match(matches, e)
        elif e.kind == "PRODUCES":
            producers.setdefault(e.dst, []).append(e.src)
            _note_match(matches, e)
    endpoints = sorted(_one_per_route(hits.values()), key=lambda h: (h.hops, h.repo, h.path, h.http_method, h.id, h.route or ""))

    topics = []
    for tid in sorted(set(consumers) | set(producers)):
        cons = sorted(dict.fromkeys(consumers.get(tid, [])), key=lambda i: (hop[i], i))
        prods = sorted(dict.fromkeys(producers.get(tid, [])), key=lambda i: (hop[i], i))
        node = nodes.get(tid)
        broker, name = _topic_name(node, tid)
        near = min(hop[i] for i in cons + prods)
        example = (_step(node, tid), *chain(cons[0])) if cons else chain(prods[0])
        topics.append(TopicHit(tid, name, tuple(nodes[i] for i in cons), tuple(nodes[i] for i in prods), near, example,
                               broker, matches.get(tid)))
    topics.sort(key=lambda t: (t.hops, t.name))

    # Entry points and services over every code node reached (targets included).
    reached = [nodes[i] for i in hop if i in nodes and nodes[i].label not in ("Endpoint", "Topic") and shown(i)
               and not (only and i in target_ids)]
    entries = []
    for n in reached:
        k = list(dict.fromkeys(kinds.get(n.id, [])))
        k += [d for d in decorator_kinds(n) if d not in k]
        if n.name == "main" and n.label in CALLABLE_LABELS and "main" not in k:
            k.append("main")
        if n.label == "File":
            k.append("module")
        if k:
            entries.append(EntryPoint(n, tuple(k), hop[n.id]))
    entries.sort(key=lambda p: (p.hops, p.node.repo, p.node.file, p.node.start_line, p.node.id))
    by_repo: dict[str, list[int]] = {}
    named: dict[str, set[str]] = {}
    for n in reached:
        by_repo.setdefault(n.repo, []).append(hop[n.id])
        # generated code (protoc's stubs under a `genproto` module) names no application of its own
        app = application_of(apps[n.repo], n.file) if n.repo in apps and not GENERATED_NAMES.search(n.file) else None
        if app:
            named.setdefault(n.repo, set()).add(app)
    services = [ServiceHit(repo, len(hops), sum(1 for h in endpoints if h.repo == repo), min(hops),
                           tuple(sorted(named.get(repo, set()) | {h.service for h in endpoints if h.repo == repo and h.service})))
                for repo, hops in by_repo.items()]
    services.sort(key=lambda s: (s.hops, s.repo))
    wrappers = []
    for i, es in wrapped.items():
        n = nodes[i]
        service = next((str(e.props["service"]) for e in es if isinstance(e.props.get("service"), str)), None)
        wrappers.append(WrapperHit(
            n, str(es[0].props.get("kind") or "wrapper"), str(es[0].props.get("framework") or ""),
            tuple(sorted({str(e.props.get("scope") or "") for e in es})),
            tuple(sorted({str(e.props["path"]) for e in es if e.props.get("path")})),
            hop[i], tuple(sorted({e.dst for e in es if e.dst.startswith(_ENDPOINT)})), service or n.repo,
            CERTAINTIES[walk.weak.get(i, 0)], chain(i)))
    wrappers.sort(key=lambda w: (w.hops, w.node.repo, w.node.file, w.node.start_line, w.node.id))
    return tuple(callers), tuple(endpoints), tuple(topics), tuple(entries), tuple(services), tuple(wrappers)


UNBOUND_EXAMPLES = 3
"""Call sites an unbound-calls note of a report names (the rest are counted)."""


def _unbound_note(graph: GraphStore, targets: Sequence[Target], tests: str) -> tuple[int, str | None]:
    """What the index kept unbound under the name of a selected function or method (a call whose
    receiver's type the resolver could not tell): such a call may reach it, so a report must not
    read as complete without saying so. ``(count, "N call sites named `x` left unbound ... e.g.
    path:line, ...")`` (test code left out with ``tests="exclude"``, only test code with
    ``"only"``), or ``(0, None)``. One store call."""
    names = sorted({t.node.name for t in targets if t.role == "selected" and t.node.label in CALLABLE_LABELS})
    if not names:
        return 0, None
    found = graph.unresolved_calls(names)
    sites = sorted((u for n in names for u in found.get(n, ())
                    if tests in ("apart", "include") or is_test_path(u.file) == (tests == "only")),
                   key=lambda u: (is_test_path(u.file), u.repo, u.file, u.line, u.col))
    if not sites:
        return 0, None
    named = " / ".join(f"`{n}`" for n in names)
    examples = ", ".join(f"{u.file}:{u.line}" for u in sites[:UNBOUND_EXAMPLES])
    return len(sites), (f"{count_noun(len(sites), 'call site')} named {named} left unbound (the receiver's type "
                        f"is unknown): they may call it too, e.g. {examples}")


def _query_text(query: Query) -> str:
    if isinstance(query, SymbolQuery):
        return query.text
    if isinstance(query, PositionQuery):
        return f"{query.repo}/{query.path}:{query.line}" + (f":{query.col + 1}" if query.col is not None else "")
    return ", ".join(n.id for n in query.nodes)


def count_noun(n: int, noun: str, plural: str | None = None) -> str:
    """``1 caller``, ``2,000 callers``: ``n`` with thousands separators and ``noun`` or its
    ``plural`` (default: ``noun`` + ``s``)."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {plural or noun + 's'}"


def services_phrase(services: Sequence[ServiceHit]) -> str:
    """``N services`` the report reaches: each repository counts once, or once per application it
    names (a repository holding several services); ``N services in R repositories`` when the two
    differ."""
    repos = len(services)
    apps = sum(max(1, len(s.applications)) for s in services)
    if apps == repos:
        return count_noun(apps, "service")
    return f"{count_noun(apps, 'service')} in {count_noun(repos, 'repository', 'repositories')}"


def blast_radius(
    graph: GraphStore, query: Query, *,
    depth: int = DEFAULT_DEPTH,
    services: Mapping[str, str] | None = None,
    resolutions: Sequence[str] | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    engine: QueryEngine | None = None,
    tests: str = "apart",
) -> BlastRadius:
    """The blast radius of what ``query`` names (see the module docstring for the steps).

    ``depth``: hops walked upward (>= 1); ``services``: service name (an HTTP client edge's
    ``props["service"]``) -> repository, so that a client addressing another service than the one
    exposing a same-path endpoint is not followed; ``resolutions``: follow only CALLS edges bound
    that way; ``max_nodes``: most nodes reached and followed (every direct caller is listed all
    the same); ``engine``: widens a name nothing matches to a
    hybrid search; ``tests``: how test code is treated (:data:`TESTS_MODES`). A query that names
    nothing gives a report without targets. Store failures raise
    :class:`stores.errors.StoreError`; a ``depth`` below 1 or an unknown ``tests`` mode raises
    :class:`ValueError`.
    """
    if depth < 1:
        raise ValueError(f"depth must be at least 1, not {depth}")
    if tests not in TESTS_MODES:
        raise ValueError(f"tests must be one of {', '.join(TESTS_MODES)}, not {tests!r}")
    counted = CountingGraph(graph)
    clock = _Clock(counted)
    seeds, searches = _seeds(counted, query, engine, tests)
    owners: dict[str, set[str]] = {}
    targets = expand_targets(counted, seeds, siblings=not (isinstance(query, SymbolQuery) and is_table_target(query.text)),
                      owners=owners)
    roles = [r for r in TARGET_ROLES if any(t.role == r for t in targets)]
    clock.lap("Targets", ", ".join(count_noun(sum(1 for t in targets if t.role == r), r, "selected" if r == "selected" else None) for r in roles) or "nothing found",
              searches)
    if not targets:
        return BlastRadius(_query_text(query), depth, (), (), (), (), (), (), (), (), tuple(clock.steps), tests_mode=tests)

    receivers = Receivers(counted)
    walk = _Walk(counted, services or {}, resolutions, max_nodes, tests=tests, receivers=receivers)
    for t in targets:  # a base method is a target for the callers that may dispatch to the selected override
        if t.role == "declaration" and t.node.id in owners:
            receivers.constrain(t.node.id, owners[t.node.id])
    level = [t.node.id for t in targets]
    for i in level:
        walk.hop[i] = 0
    if tests == "apart" and isinstance(query, SymbolQuery) and is_table_target(query.text):
        table = table_nodes(counted, query.text)[0][0].id  # what explains them
        for n in table_accessors(counted, query.text, "only"):  # test code reading or writing it: hop 0, apart
            walk.hop[n.id], walk.parent[n.id] = 0, table
            walk.test_ids.add(n.id)
            walk.order.append(n.id)
    level = walk.level(level, 0, last=False)
    # The details count what the report shows: tests apart (or alone), each call site once.
    only = tests == "only"
    shown = [e for e in walk.direct if (e.src in walk.test_ids) == only]
    places = {(e.repo, e.file, e.line, e.col) for e in shown}
    clock.lap("Direct callers", f"{count_noun(len({e.src for e in shown}), 'caller')}, {count_noun(len(places), 'call site')}")

    hop = 1
    while level:
        level = walk.level(sorted(level), hop, last=hop >= depth)
        hop += 1
    kept = [i for i in walk.order if (i in walk.test_ids) == only]
    apart = f" ({count_noun(len(walk.order) - len(kept), 'test node')} apart)" if tests == "apart" and len(kept) < len(walk.order) else ""
    clock.lap("Upward walk", f"{count_noun(len(kept), 'node')} reached in "
              f"{count_noun(max((walk.hop[i] for i in kept), default=0), 'hop')}{apart}")

    target_ids = {t.node.id for t in targets}
    # Direct callers beyond the node cap are not followed, but they are listed.
    wanted = list(dict.fromkeys([*(i for i in walk.hop if i not in target_ids),
                                 *(e.src for e in walk.direct if e.src not in walk.hop)]))
    # The handlers of the endpoints wrappers reach (one more call, only when a wrapper was reached).
    wrapped = sorted({e.dst for e in walk.service_edges if e.kind == "WRAPS"})
    handlers = counted.incoming(wrapped, ["EXPOSES"]) if wrapped else {}
    wanted += list(dict.fromkeys(e.src for es in handlers.values() for e in es if e.src not in walk.hop))
    nodes = {t.node.id: t.node for t in targets}
    nodes.update(counted.get_nodes(wanted) if wanted else {})
    apps = repository_applications(counted)  # which application each node reached belongs to
    callers, endpoints, topics, entries, service_hits, wrapper_hits = _assemble(walk, nodes, targets, handlers, apps)
    hop_lists, test_hits = _reached_lists(walk, nodes, ambiguous_clients(counted, walk.unnamed_clients, walk.parent))
    through = f", {count_noun(len(wrapper_hits), 'wrapper')}" if wrapper_hits else ""
    clock.lap("Attach endpoints and topics",
              f"{count_noun(len(endpoints), 'endpoint')}{through}, {count_noun(len(topics), 'topic')}, "
              f"{services_phrase(service_hits)}")

    truncated = []
    if walk.beyond_depth:
        truncated.append(f"depth {depth} reached: {count_noun(len(walk.beyond_depth), 'caller')} at hop {depth + 1} not followed")
    if walk.beyond_cap:
        truncated.append(f"node cap {max_nodes:,} reached: {count_noun(len(walk.beyond_cap), 'caller')} not followed")
    if walk.skipped_clients:
        truncated.append(skipped_note(len(walk.skipped_clients), walk.skipped_hosts))
    if walk.other_apps:
        count = sum(len(v) for v in walk.other_apps.values())
        truncated.append(f"{count_noun(count, 'in-process test request')} of the same route not followed: "
                         f"{'each reaches its' if count > 1 else 'it reaches its'} own application's handler "
                         f"({', '.join(sorted(walk.other_apps))})")
    cut = receivers.cut - set(walk.hop)
    if cut:
        truncated.append(f"{count_noun(len(cut), 'caller')} not followed: the inherited method is called there on "
                         "an instance of an unrelated class")
    unserved = receivers.unserved - set(walk.hop)
    if unserved:
        truncated.append(f"{count_noun(len(unserved), 'endpoint')} not reached: served by an inherited handler for an "
                         "unrelated view class")
    if walk.excluded_tests:
        truncated.append(f"{count_noun(len(walk.excluded_tests), 'test caller')} not followed (tests excluded)")
    tables = tables_reached(counted, sorted(target_ids), depth, max_nodes)
    clock.lap("Tables", tables_detail(tables))
    unbound, note = _unbound_note(counted, targets, tests)
    if note:
        truncated.append(note)
    clock.lap("Report", count_noun(len(truncated), "truncation note") if truncated else "complete")
    return BlastRadius(_query_text(query), depth, tuple(targets), callers, endpoints, topics, entries, service_hits,
                       tuple(len(h) for h in hop_lists), tuple(truncated), tuple(clock.steps), hop_lists, test_hits,
                       tests, len(walk.excluded_tests), wrapper_hits, tables, unbound)
