"""Navigation over the code graph: find symbols by name, their callers, their references.

Protocol-independent: the CLI and the language server call these and render the plain frozen
dataclasses they return. Every function issues a fixed number of batched store calls, whatever the
number of hits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from analysis.generated import GENERATED_NAMES, GlueFolder
from analysis.testcode import is_test_path
from stores.contracts import (
    Edge,
    GRAPHQL_OPERATIONS,
    GRPC_METHOD,
    GraphStore,
    IndexedFile,
    Node,
    RepositoryRecord,
    UnresolvedCall,
    endpoint_id,
    query_parts,
    symbol_match_rank,
)
from stores.errors import QueryFailed
from stores.gateway import GATEWAY_ROUTES_PROP, routes_from_json
from stores.qualified_symbols import DEFAULT_EXPORT, WRITTEN, written_qualname

_T = TypeVar("_T")

__all__ = [
    "AmbiguousPath", "CALLABLE_LABELS", "TYPE_LABELS", "Reference", "symbol_candidates", "qualified_as", "best_targets", "lookup", "inherited_members", "inherited_note", "find_targets", "callers", "references",
    "dotted_name", "container_name", "symbol_label", "REFERENCE_KINDS", "Site", "CallGroup", "SymbolTree", "Impact", "node_at", "innermost_callable", "symbol_at",
    "incoming_calls", "incoming_calls_each", "outgoing_calls", "document_symbols", "transitive_callers", "impact", "UnionGraph",
    "location_text", "routes_serving", "closest_endpoints", "gateway_endpoints", "gateway_route", "gateway_miss",
    "entries_served",
]

def location_text(repo: str, path: str, line: int, col: int | None = None, several: bool = False) -> str:
    """A place as the ``ripple`` command and every agent answer print it, ``path:line[:col]`` (the
    repository-relative path, 1-based line and column: what an editor or terminal opens), with the
    repository in front (``repo/path:line:col``) only when the answer spans ``several`` repositories."""
    where = f"{repo}/{path}" if several else path
    return f"{where}:{line}" + (f":{col}" if col is not None else "")


CALLABLE_LABELS = ("Method", "Function", "Constructor")
TYPE_LABELS = ("Class", "Interface", "Enum")
_CODE_LABELS = (*TYPE_LABELS, *CALLABLE_LABELS, "Field")
_ENDPOINT_TEXT = re.compile(r"^(\*|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|QUERY|MUTATION|SUBSCRIPTION|FIELD|GRPC)\s+(\S+)$",
                            re.IGNORECASE)
"""An endpoint as a user writes it: ``GET /owners/{ownerId}``, ``post /api/articles/:slug``, ``QUERY
Query.owner``, ``GRPC shop.v1.OrderService/GetOrder``; ``* /files/{}`` a route of any method, as
``ripple endpoints`` prints it (Express ``app.all``, a Next.js handler testing no method)."""


class AmbiguousPath(ValueError):
    """A ``PATH:LINE`` target whose path may be a file of several repositories (or folders): the
    message lists them; more of the path, or a repository, chooses one."""


@dataclass(frozen=True, slots=True)
class Reference:
    """One occurrence pointing at a target: ``kind`` is the edge kind (CALLS, USES_TYPE, …);
    ``source`` the node it occurs in (a File node for module-level code); ``repo`` / ``file`` /
    ``line`` (1-based) / ``col`` (0-based code points) where it occurs; ``resolution`` for CALLS."""

    target: str
    kind: str
    source: Node
    repo: str
    file: str
    line: int
    col: int
    resolution: str | None


def dotted_name(node: Node) -> str:
    """The name a developer would write, the one display name of a node everywhere (CLI, call
    hierarchy, workspace symbols, hover, search hits). Display only: node ids and stored qualnames
    are not this.

    * a language with dotted modules (Python module, Java package, recorded as the node's
      ``module``): the module and the qualname (``django.db.models.base.Model.save``,
      ``org.example.OwnerController.show``);
    * a language whose modules are files (TypeScript, JavaScript: no ``module`` on code nodes): the
      module-relative name, as its own tools show it (``joinValues``, ``ZodType.parse``); the file is
      said apart (:func:`container_name`, :func:`symbol_label`);
    * a File node: its path (``src/app.ts``);
    * a function of a JavaScript / TypeScript module's default-exported object literal (qualname
      ``default.setToken``): by the module's name (``agent.setToken`` of ``src/agent.js``,
      :func:`stores.qualified_symbols.written_qualname`)."""
    if node.label == "File":
        return node.file
    module = node.props.get("module")
    if module:
        return f"{module}.{node.qualname}"
    if node.qualname.startswith(DEFAULT_EXPORT + "."):  # `default.setToken` of src/agent.js: agent.setToken
        return written_qualname(node.qualname, node.file, node.props.get(WRITTEN))
    return node.qualname


def container_name(node: Node) -> str:
    """Where ``node`` lives, for a list that shows its short name beside (workspace symbols): the
    dotted parent for dotted-module languages (``django.db.models.base.Model``); for file-module
    languages the path, then the enclosing definitions (``src/types.ts · ZodType``); a File node's
    folder (``""`` at the root)."""
    if node.label == "File":
        return node.file.rsplit("/", 1)[0] if "/" in node.file else ""
    if node.props.get("module"):
        return dotted_name(node).rsplit(".", 1)[0]
    parent = node.qualname.rsplit(".", 1)[0] if "." in node.qualname else ""
    return f"{node.file} · {parent}" if parent else node.file


def symbol_label(node: Node) -> str:
    """:func:`dotted_name`, with the file in parentheses when the name does not say it (file-module
    languages): ``joinValues (src/v4/core/util.ts)``; for lists of same-named symbols."""
    name = dotted_name(node)
    if node.label == "File" or node.props.get("module") or not node.file:  # an Endpoint, a Topic: in no file
        return name
    return f"{name} ({node.file})"


def _path_module(path: str) -> str:
    slash, dot = path.rfind("/"), path.rfind(".")
    return (path[:dot] if dot > slash + 1 else path).replace("/", ".")


_DOTTED_NAME_PARTS = 3
"""Dotted parts a node's own name may have and still be found by it (``Query.launch``)."""


def _matches(node: Node, text: str) -> bool:
    forms = [dotted_name(node), f"{_path_module(node.file)}.{node.qualname}"]
    written = written_qualname(node.qualname, node.file, node.props.get(WRITTEN))
    if written != node.qualname:  # a factory's member as its call sites write it: `CartGateway.getCart`
        forms += [written, f"{_path_module(node.file)}.{written}"]
    if node.file.endswith(".go"):  # a Go package is its folder: `models.GetTags` of models/tag.go
        folder = node.file.rpartition("/")[0]
        forms.append(f"{folder.replace('/', '.')}.{node.qualname}" if folder else node.qualname)
    return any(full == text or full.endswith("." + text) for full in forms)


def qualified_as(node: Node, heads: list[str]) -> bool:
    """Whether the dotted parts before ``node``'s own name in its module path + qualname end with
    ``heads``, each compared up to case and separators (``["owner_service"]`` qualifies
    ``OwnerService.rename``); no heads: any node. For fuzzy fallbacks that must still honour every
    qualifier the user wrote."""
    if not heads:
        return True
    own = [p for p in re.split(r"[./]", f"{node.file.rsplit('.', 1)[0]}.{node.qualname}") if p]
    own = own[: len(own) - len(node.name.split("."))]
    norm = ["".join(query_parts(p)) for p in own]
    want = ["".join(query_parts(p)) for p in heads]
    return len(norm) >= len(want) and norm[len(norm) - len(want):] == want


def symbol_candidates(graph: GraphStore, symbol: str) -> list[Node]:
    """Every code node ``symbol`` could name (its last dotted part as the short name, then any
    qualname / dotted-name suffix match), sorted by id; ``[]`` when none. ``METHOD /path`` (an HTTP
    method, a GraphQL operation or ``GRPC`` and a path, :data:`_ENDPOINT_TEXT`) names the Endpoint node
    of :func:`stores.contracts.endpoint_id` when the index has it (``GET /owners/{ownerId}`` is
    ``endpoint:GET /owners/{}``), else it is looked up as a name (an Express handler is named ``GET /articles``). A node whose own name is
    dotted (an inline resolver ``Query.launch`` of an Apollo resolver map, a value property
    ``auth.required``) is found by its whole name too: the text's last two or three dotted parts are
    looked up as names as well."""
    symbol = symbol.strip()
    if ":" in symbol:
        exact = graph.get_nodes([symbol])
        if exact:
            return list(exact.values())
    endpoint = _ENDPOINT_TEXT.match(symbol)
    if endpoint:  # the Endpoint node of that method and path, its parameters named or not
        found = graph.get_nodes([endpoint_id(endpoint.group(1), endpoint.group(2))])
        if found:
            return list(found.values())
        serving = routes_serving(graph, endpoint.group(1), endpoint.group(2))
        if serving:
            return serving
        routed = gateway_endpoints(graph, endpoint.group(1), endpoint.group(2))
        if routed is not None:
            return routed
    text = symbol.split("(", 1)[0].strip().strip(".")
    if not text:
        return []
    parts = text.split(".")
    names = [".".join(parts[-k:]) for k in range(1, min(len(parts), _DOTTED_NAME_PARTS) + 1)]
    found = graph.find_symbols(names, _CODE_LABELS)
    out = {n.id: n for name in names for n in found.get(name, []) if _matches(n, text)}
    return sorted(out.values(), key=lambda n: n.id)


_MAX_SERVING = 20
"""Endpoints :func:`routes_serving` returns at most (a request path that every catch-all route serves)."""


def routes_serving(graph: GraphStore, method: str, path: str) -> list[Node]:
    """The HTTP Endpoint nodes whose route template serves the request ``method`` ``path`` as a router
    matches it, when no endpoint has that exact key: each ``{}`` of the template (a path parameter, or
    a prefix the index could not compute: ``GET /{}/trainer/calendar``) matches one non-empty
    segment, or part of one (``/files/{}.json``); the other characters match themselves (case
    kept); the method is the same or the endpoint's ``*`` (any). A path the user wrote with
    parameters (``/owners/{id}``) matches a ``{}`` only there. Fewest ``{}`` first (the most specific
    route), then by id; at most :data:`_MAX_SERVING`. GraphQL and gRPC texts match nothing here. One
    store call (the Endpoint nodes)."""
    method = method.upper()
    if method in GRAPHQL_OPERATIONS or method == GRPC_METHOD:
        return []
    want = endpoint_id(method, path).split(" ", 1)[1]
    want_segments = want.strip("/").split("/")
    out: list[tuple[int, str, Node]] = []
    for n in graph.labelled(["Endpoint"]):
        verb, _, template = n.name.partition(" ")
        if verb not in (method, "*") or "{}" not in template or not template.startswith("/"):
            continue
        segments = template.strip("/").split("/")
        if len(segments) != len(want_segments):
            continue
        if all(_segment_serves(t, w) for t, w in zip(segments, want_segments, strict=True)):
            out.append((template.count("{}"), n.id, n))
    out.sort(key=lambda x: (x[0], x[1]))
    return [n for _, _, n in out[:_MAX_SERVING]]


def gateway_route(graph: GraphStore, method: str, path: str) -> tuple[str, str] | None:
    """``(service, path)`` the request ``method`` ``path`` goes to through an API gateway of the index
    (the routes each repository's registry entry records, :data:`stores.gateway.GATEWAY_ROUTES_PROP`):
    the first route whose predicates match it (Spring Cloud Gateway's order), and the path its filters
    make (``GET /api/customer/owners/3`` with ``Path=/api/customer/**`` and ``StripPrefix=2``:
    ``("customers-service", "/owners/3")``). ``None`` when no route takes it or the first one taking it
    names no service (an nginx location serving the path itself), for a GraphQL or gRPC
    text, and in a store without a registry. One store call."""
    method = method.upper()
    if method in GRAPHQL_OPERATIONS or method == GRPC_METHOD:
        return None
    try:
        records = graph.repositories()
    except Exception:  # noqa: BLE001 - a store without a registry: no gateway known
        return None
    want = endpoint_id(method, path).split(" ", 1)[1]
    for record in records:
        for route in routes_from_json(record.props.get(GATEWAY_ROUTES_PROP)):
            forwarded = route.forward(method, want)
            if forwarded is not None:
                return (route.service, forwarded) if route.service else None
    return None


def gateway_endpoints(graph: GraphStore, method: str, path: str) -> list[Node] | None:
    """The HTTP Endpoint nodes a request ``method`` ``path`` reaches through an API gateway
    (:func:`gateway_route`): that of the forwarded path (its exact key, else :func:`routes_serving`),
    kept only when the route's service EXPOSES it (``GET /owners/{}`` of ``customers-service``, not
    another service's same route). ``[]`` when the route's service serves nothing there; ``None`` when
    no route takes the path."""
    routed = gateway_route(graph, method, path)
    if routed is None:
        return None
    service, forwarded = routed
    method = method.upper()
    found = list(graph.get_nodes([endpoint_id(method, forwarded)]).values()) or routes_serving(graph, method, forwarded)
    exposed = graph.incoming([n.id for n in found], ["EXPOSES"]) if found else {}
    return [n for n in found if any((e.props or {}).get("service") == service for e in exposed.get(n.id, []))]


def gateway_miss(graph: GraphStore, text: str) -> str | None:
    """For a target written as an endpoint (``METHOD /path``) that a gateway route takes but whose
    service serves nothing there, what the route did: ``"the gateway sends it to visits-service as GET
    /owners/3, which serves no such endpoint"``; ``None`` otherwise."""
    m = _ENDPOINT_TEXT.match(text.strip())
    routed = gateway_route(graph, m.group(1), m.group(2)) if m else None
    if m is None or routed is None:
        return None
    return f"the gateway sends it to {routed[0]} as {m.group(1).upper()} {routed[1]}, which serves no such endpoint"


def closest_endpoints(graph: GraphStore, text: str, limit: int) -> list[Node] | None:
    """For a target written as an endpoint (``METHOD /path``, :data:`_ENDPOINT_TEXT`) that matched
    nothing, up to ``limit`` Endpoint nodes nearest it: those whose path ends with the text's last
    segments, the most of them first (``GET /trainer/calendar`` finds ``GET /{}/trainer/calendar``
    and ``PUT /{}/trainer/calendar/make-hour-available`` is not), the same method before another,
    then by id. ``None`` when ``text`` is no endpoint (names are looked up instead). One store call."""
    m = _ENDPOINT_TEXT.match(text.strip())
    if not m:
        return None
    method = m.group(1).upper()
    want = endpoint_id(method, m.group(2)).split(" ", 1)[1].strip("/").split("/")
    ranked: list[tuple[int, int, str, Node]] = []
    for n in graph.labelled(["Endpoint"]):
        verb, _, path = n.name.partition(" ")
        have = path.strip("/").split("/")
        common = 0
        while common < min(len(have), len(want)) and _segment_serves(have[-1 - common], want[-1 - common]):
            common += 1
        if common and common >= min(len(want), 2):  # one shared segment means little in a long path
            ranked.append((-common, 0 if verb in (method, "*") else 1, n.id, n))
    ranked.sort(key=lambda r: r[:3])
    return [n for *_, n in ranked[:limit]]


def _segment_serves(template: str, segment: str) -> bool:
    """Whether the route template's segment (each ``{}`` one or more characters) matches the request's
    segment. Each literal piece between two ``{}`` is taken at its leftmost place after at least one
    character (the leftmost leaves the most room to the pieces after it, as a glob matcher does), so
    the time is linear in the pieces and the segment: a regular expression of ``[^/]+`` pieces
    backtracked polynomially (``/{}{}{}{}{}{}{}{}{}{}x`` against 30 characters: one second, two more
    ``{}`` a minute)."""
    if "{}" not in template:
        return template == segment
    if segment == "{}":
        return template == "{}"
    first, *middle, last = template.split("{}")
    if not segment.startswith(first):
        return False
    pos = len(first)
    for piece in middle:
        at = segment.find(piece, pos + 1)
        if at < 0:
            return False
        pos = at + len(piece)
    return len(segment) - len(last) > pos and segment.endswith(last)


def find_targets(graph: GraphStore, symbol: str) -> list[Node]:
    """The nodes a user's ``symbol`` names, best matches only, sorted by id.

    Accepted forms: a node id (``repo:path/mod.Class.method(1)``); a qualname (``Model.save``,
    ``save``); a module-qualified name (``django.db.models.base.Model.save``, or the path with dots).
    A trailing ``(…)`` is ignored. Among the :func:`symbol_candidates`, those whose qualname equals
    the text win (``make_response`` names the function, not ``Flask.make_response``); otherwise all
    candidates are returned. ``[]`` when nothing matches.
    """
    return best_targets(symbol, symbol_candidates(graph, symbol))


def best_targets(symbol: str, candidates: Sequence[Node]) -> list[Node]:
    """Of ``symbol``'s candidates, those whose qualname, or qualname as written
    (:func:`stores.qualified_symbols.written_qualname`: ``CartGateway.return.getCart`` is written
    ``CartGateway.getCart``), is the text itself, else all of them."""
    text = symbol.strip().split("(", 1)[0].strip().strip(".")
    return [n for n in candidates if text in (n.qualname, written_qualname(n.qualname, n.file, n.props.get(WRITTEN)))] \
        or list(candidates)


def lookup(graph: GraphStore, symbol: str, repo: str | None = None) -> tuple[list[Node], list[Node]]:
    """``(targets, others)`` for ``symbol`` as a user typed it: the nodes it means
    (:func:`best_targets` of :func:`symbol_candidates`) and the other candidates a bare name also
    matched (to list, so the user can qualify the name). ``repo``: only candidates of that
    repository (a name defined in several). A ``Class.member`` no node has, whose class inherits the
    member, means the inherited definition (:func:`inherited_members`; :func:`inherited_note` says
    so). Both empty when nothing matches."""
    candidates = symbol_candidates(graph, symbol)
    if repo is not None:
        candidates = [n for n in candidates if n.repo == repo]
    if not candidates:  # ``Class.member`` the class inherits: the base's definition
        candidates = inherited_members(graph, symbol, repo)
    targets = best_targets(symbol, candidates)
    chosen = {t.id for t in targets}
    return targets, [n for n in candidates if n.id not in chosen]


_MAX_BASE_DEPTH = 40
"""Levels of base classes :func:`inherited_members` climbs (a guard against a corrupt cycle)."""
_PLAIN_NAME = re.compile(r"^[\w$]+(?:\.[\w$]+)+$")


def inherited_members(graph: GraphStore, symbol: str, repo: str | None = None) -> list[Node]:
    """The definitions ``Class.member`` (``symbol``; a trailing ``(…)`` ignored) means when ``Class``
    does not declare ``member`` but inherits it: the classes named ``Class`` (:func:`best_targets` of
    the type nodes among :func:`symbol_candidates`, of ``repo`` when given), then their bases level by
    level along EXTENDS / IMPLEMENTS edges, each level's bases in the order written; the first base
    declaring a member of that name (CONTAINS) wins, its overloads together, sorted by id. That is
    Python's left-to-right lookup for single inheritance and the usual mixin-first bases (not the full
    C3 linearisation, https://www.python.org/download/releases/2.3/mro/), and Java's / TypeScript's
    superclass chain before interfaces (``extends`` is written before ``implements``). ``[]`` when
    the text has no class part, names no class, or no base declares the member. Three store calls
    per level of bases, and a file read per class with several bases."""
    text = symbol.strip().split("(", 1)[0].strip().strip(".")
    if not _PLAIN_NAME.match(text):
        return []
    owner, member = text.rsplit(".", 1)
    classes = [n for n in symbol_candidates(graph, owner)
               if n.label in TYPE_LABELS and (repo is None or n.repo == repo)]
    level = best_targets(owner, classes)
    seen = {c.id for c in level}
    for _ in range(_MAX_BASE_DEPTH):
        if not level:
            break
        ext = graph.outgoing([c.id for c in level], ["EXTENDS", "IMPLEMENTS"])
        found_bases = graph.get_nodes(sorted({e.dst for es in ext.values() for e in es}))
        bases = []
        for src in level:
            mine = [(e.kind != "EXTENDS", found_bases[e.dst]) for e in ext.get(src.id, []) if e.dst in found_bases]
            for _kind, base in _written_order(graph, src, mine):
                if base.id not in seen:
                    seen.add(base.id)
                    bases.append(base.id)
        contains = graph.outgoing(bases, ["CONTAINS"]) if bases else {}
        nodes = graph.get_nodes(sorted({e.dst for b in bases for e in contains.get(b, [])}))
        for b in bases:
            found = [nodes[e.dst] for e in contains.get(b, []) if e.dst in nodes
                     and nodes[e.dst].name == member and nodes[e.dst].label in _CODE_LABELS]
            if found:
                return sorted(found, key=lambda n: n.id)
        level = [found_bases[b] for b in bases]
    return []


def _written_order(graph: GraphStore, cls: Node, bases: list[tuple[bool, Node]]) -> list[tuple[bool, Node]]:
    """``bases`` (``(is an interface, node)``) of ``cls`` in the order its header writes them: extended
    classes before implemented interfaces, then by where each base's name first appears after the
    class's own name in the header's first lines (edges all sit at the class's name; one file read
    when there are several bases)."""
    if len(bases) < 2:
        return bases
    text = graph.file_text(cls.repo, cls.file) or ""
    header = "\n".join(text.split("\n")[cls.start_line - 1:cls.start_line + 4])
    start = max(header.find(cls.name), 0)

    def written_at(base: Node) -> int:
        hit = re.compile(rf"(?<![\w$]){re.escape(base.name)}(?![\w$])").search(header, start + len(cls.name))
        return hit.start() if hit else len(header)
    return sorted(bases, key=lambda b: (b[0], written_at(b[1]), b[1].id))


def inherited_note(symbol: str, targets: Sequence[Node]) -> str | None:
    """``"Site.get_absolute_url is inherited from NetBoxModel.get_absolute_url"`` when ``targets``
    (what :func:`lookup` found for ``symbol``) are a base class's definition standing for a
    ``Class.member`` the class inherits (:func:`inherited_members`); ``None`` otherwise."""
    text = symbol.strip().split("(", 1)[0].strip().strip(".")
    if not targets or not _PLAIN_NAME.match(text) or any(_matches(t, text) for t in targets):
        return None
    if any(t.name != text.rsplit(".", 1)[1] for t in targets):
        return None
    owners = sorted({t.qualname for t in targets})
    return f"{text} is inherited from {', '.join(owners)}"


def _hits(graph: GraphStore, by_target: dict[str, list[Edge]]) -> list[Reference]:
    """The edges of ``by_target`` as references from their source nodes (an edge whose source is
    missing is dropped): production code first, then test code (:func:`analysis.testcode.is_test_path`:
    hundreds of test call sites must not push a method's few real callers past an answer's budget),
    each by location."""
    sources = graph.get_nodes(sorted({e.src for edges in by_target.values() for e in edges}))
    out = []
    for target, edges in by_target.items():
        for e in edges:
            src = sources.get(e.src)
            if src is not None:
                out.append(Reference(target, e.kind, src, e.repo, e.file, e.line, e.col, e.resolution))
    out.sort(key=lambda r: (is_test_path(r.file), r.repo, r.file, r.line, r.col, r.source.id, r.target))
    return out


def callers(graph: GraphStore, targets: Sequence[Node], resolutions: Sequence[str] | None = None) -> list[Reference]:
    """Direct call sites of ``targets`` (for a class: calls to it and to its constructors; for an
    Endpoint: the ``CALLS_HTTP`` requests of it, for a Topic the ``PRODUCES`` uses of it, whatever
    ``resolutions`` says), those in
    production code first, then those in test code, each sorted by location. ``resolutions`` keeps only CALLS edges bound that way (``exact``, ``inferred``, ``name``).
    A call from generated RPC glue (a file named as ``protoc`` plug-ins name theirs,
    :data:`analysis.generated.GENERATED_NAMES`: one store call more, only when there is one) to a target
    that implements an rpc (``_CheckoutService_PlaceOrder_Handler`` of ``demo_grpc.pb.go`` calling
    ``PlaceOrder``) has that rpc's Endpoint node as its ``source`` (``GRPC oteldemo.CheckoutService/PlaceOrder``),
    at the glue's call site.
    """
    code = [n.id for n in targets if n.label not in ("Endpoint", "Topic")]
    by_target = graph.incoming(code, ["CALLS"], resolutions)
    endpoints = [n.id for n in targets if n.label == "Endpoint"]
    if endpoints:  # an endpoint's callers are the HTTP clients requesting it
        by_target.update(graph.incoming(endpoints, ["CALLS_HTTP"]))
    topics = [n.id for n in targets if n.label == "Topic"]
    if topics:  # a topic's are its producers, as its blast radius counts them (analysis.impact)
        by_target.update(graph.incoming(topics, ["PRODUCES"]))
    for class_id, ctor_ids in _constructors(graph, targets).items():
        calls = graph.incoming(ctor_ids, ["CALLS"], resolutions)
        by_target[class_id] = by_target.get(class_id, []) + [e for c in ctor_ids for e in calls.get(c, [])]
    refs = _hits(graph, by_target)
    glue = [r for r in refs if r.kind == "CALLS" and GENERATED_NAMES.search(r.file)]  # no store call without one
    rpcs = GlueFolder(graph).rpcs_of(r.target for r in glue) if glue else {}
    folded = {id(r): rpcs[r.target][0] for r in glue if rpcs.get(r.target)}
    if not folded:
        return refs
    served = graph.get_nodes(sorted(set(folded.values())))
    return [replace(r, source=served[folded[id(r)]]) if folded.get(id(r)) in served else r for r in refs]


def entries_served(graph: GraphStore, targets: Sequence[Node]) -> list[str]:
    """The Endpoint and Topic ids the code ``targets`` serve (``EXPOSES``) or consume (``CONSUMES``),
    sorted: what other services reach them through, whose callers (HTTP and gRPC clients, producers)
    :func:`callers` lists when asked for the endpoint or topic itself, not for the code (a gRPC
    handler no generated glue calls has no call site: ``callers`` of grpc-js's ``convert`` said 0).
    One store call; none without a code target."""
    code = [t.id for t in targets if t.label not in ("Endpoint", "Topic")]
    if not code:
        return []
    out = graph.outgoing(code, ["EXPOSES", "CONSUMES"])
    return sorted({e.dst for es in out.values() for e in es if e.kind in ("EXPOSES", "CONSUMES")})


def _constructors(graph: GraphStore, targets: Sequence[Node]) -> dict[str, list[str]]:
    """``{class id: [constructor ids]}`` for the type targets that declare constructors (2 calls)."""
    types = [n.id for n in targets if n.label in TYPE_LABELS]
    if not types:
        return {}
    contains = graph.outgoing(types, ["CONTAINS"])
    members = graph.get_nodes([e.dst for t in types for e in contains.get(t, [])])
    out: dict[str, list[str]] = {}
    for t in types:
        ctors = [e.dst for e in contains.get(t, []) if e.dst in members and members[e.dst].label == "Constructor"]
        if ctors:
            out[t] = ctors
    return out


def references(graph: GraphStore, targets: Sequence[Node], include_declaration: bool = False) -> list[Reference]:
    """Every reference to ``targets``: call sites (a getter's: attribute reads), type uses,
    injections, uses as a value (REFERENCES: a function handed on uncalled), subclasses and
    implementations (EXTENDS / IMPLEMENTS) and overriding methods, production code first, then test
    code, each sorted by location. With
    ``include_declaration`` the targets themselves come first as ``DECLARATION`` references."""
    by_target = graph.incoming([n.id for n in targets], list(REFERENCE_KINDS))
    # Instantiations of a class are calls to its constructors: report them against the class.
    for class_id, ctor_ids in _constructors(graph, targets).items():
        calls = graph.incoming(ctor_ids, ["CALLS"])
        by_target[class_id] = by_target.get(class_id, []) + [e for c in ctor_ids for e in calls.get(c, [])]
    refs = _hits(graph, by_target)
    if include_declaration:
        decl = [Reference(n.id, "DECLARATION", n, n.repo, n.file, n.start_line, n.start_col, None) for n in targets]
        refs = decl + refs
    return refs


# ----------------------------------------------------------------------------- editor navigation
# Used by the language server; positions are 1-based lines and 0-based code-point columns as stored.

REFERENCE_KINDS = ("CALLS", "USES_TYPE", "INJECTS", "REFERENCES", "EXTENDS", "IMPLEMENTS", "OVERRIDES")
_MENTION_KINDS = ("CALLS", "USES_TYPE", "INJECTS", "REFERENCES")
"""Edges whose position is a mention of their target. EXTENDS / IMPLEMENTS / OVERRIDES are located
at their *source's* own name (the declaration), so at a subclass's or an overriding method's name
the symbol is the declaration itself, not its base (the base type as written is a USES_TYPE)."""


@dataclass(frozen=True, slots=True)
class Site:
    """One occurrence: ``repo`` / ``file`` / ``line`` (1-based) / ``col`` (0-based code points)."""

    repo: str
    file: str
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class CallGroup:
    """The calls between ``node`` and the item asked about: for incoming calls ``node`` is a caller
    and ``sites`` its call sites (in the caller's file); for outgoing calls ``node`` is a callee and
    ``sites`` the call sites in the asking node's body. Sites sorted by location."""

    node: Node
    sites: tuple[Site, ...]


@dataclass(frozen=True, slots=True)
class SymbolTree:
    """A document symbol: ``node`` and the definitions nested in it (by qualname), in source order."""

    node: Node
    children: tuple[SymbolTree, ...]


@dataclass(frozen=True, slots=True)
class Impact:
    """The blast radius of changing ``node``: ``call_sites`` and distinct ``direct_callers``, and
    ``callers_by_hop[i]`` the number of callers first reached at hop ``i + 1`` (hop 1 = direct)."""

    node: Node
    call_sites: int
    direct_callers: int
    callers_by_hop: tuple[int, ...]

    @property
    def transitive_callers(self) -> int:
        """Distinct callers within all hops computed."""
        return sum(self.callers_by_hop)


def _code(nodes: Sequence[Node]) -> list[Node]:
    return [n for n in nodes if n.label in _CODE_LABELS]


def _contains(n: Node, line: int, col: int) -> bool:
    return (n.start_line, n.start_col) <= (line, col) <= (n.end_line, n.end_col)


def node_at(graph: GraphStore, repo: str, path: str, line: int, col: int) -> Node | None:
    """The innermost code node (class, method, function, field…) of ``repo``/``path`` whose span
    contains the position, or ``None`` (module-level code, or a file not indexed). One store call."""
    inside = [n for n in _code(graph.nodes_in_file(repo, path)) if _contains(n, line, col)]
    return max(inside, key=lambda n: (n.start_line, n.start_col), default=None)


def innermost_callable(graph: GraphStore, repo: str, path: str, line: int, col: int) -> Node | None:
    """The innermost function, method or constructor of ``repo``/``path`` whose span contains the
    position (``line`` 1-based, ``col`` 0-based code points), or ``None``. One store call."""
    inside = [n for n in graph.nodes_in_file(repo, path) if n.label in CALLABLE_LABELS and _contains(n, line, col)]
    return max(inside, key=lambda n: (n.start_line, n.start_col), default=None)


def symbol_at(graph: GraphStore, repo: str, path: str, line: int, col: int, word: str) -> list[Node]:
    """What the identifier ``word`` starting at ``line`` / ``col`` of ``repo``/``path`` stands for,
    sorted by id: the targets of the references recorded there (a call site: its callees; a type
    mention: the type), else the definition of that name whose span contains it, else the innermost
    function or method whose first line holds the position from its start on (the ``async (req, res)
    =>`` header of an arrow, an inline handler named after its route); ``[]`` when none. Three store calls at most, whatever the file's size."""
    nodes = graph.nodes_in_file(repo, path)
    end = col + max(len(word), 1)
    out = graph.outgoing([n.id for n in nodes], _MENTION_KINDS)
    dst = sorted({e.dst for edges in out.values() for e in edges if e.line == line and col <= e.col < end})
    if dst:
        found = graph.get_nodes(dst)
        return [found[i] for i in dst if i in found]
    defs = [n for n in _code(nodes) if n.name == word and _contains(n, line, col)]
    if not defs:  # a function's header without its name: `async (req, res) =>`, `handle = async () =>`
        defs = [n for n in _code(nodes) if _header(n, line, col)]
    inner = max(defs, key=lambda n: (n.start_line, n.start_col), default=None)
    return [inner] if inner else []


def _header(n: Node, line: int, col: int) -> bool:
    """Whether ``line`` / ``col`` is on the first line of the callable ``n``, from its start on: the
    header of an arrow or function expression (``async (req, res) =>``, ``export default () =>``,
    an inline handler named after its route), where no identifier names it."""
    return n.label in CALLABLE_LABELS and n.start_line == line and _contains(n, line, col)


def _group(nodes: dict[str, Node], pairs: list[tuple[str, Site]]) -> list[CallGroup]:
    groups: dict[str, list[Site]] = {}
    for key, site in pairs:
        if key in nodes:
            groups.setdefault(key, []).append(site)
    out = [CallGroup(nodes[k], tuple(sorted(set(s), key=lambda x: (x.repo, x.file, x.line, x.col))))
           for k, s in groups.items()]
    out.sort(key=lambda g: (g.sites[0].repo, g.sites[0].file, g.sites[0].line, g.sites[0].col, g.node.id))
    return out


def incoming_calls(graph: GraphStore, node: Node) -> list[CallGroup]:
    """Callers of ``node`` (for a class: of its constructors too), one group per caller with its
    call sites, sorted by first call site. Module-level callers are File nodes."""
    return incoming_calls_each(graph, [node])[node.id]


def incoming_calls_each(graph: GraphStore, nodes: Sequence[Node]) -> dict[str, list[CallGroup]]:
    """:func:`incoming_calls` of each of ``nodes`` by node id (an empty list for one without callers),
    from one :func:`callers` pass over them all, not one per node."""
    by_target: dict[str, list[Reference]] = {n.id: [] for n in nodes}
    for r in callers(graph, nodes) if nodes else []:
        by_target.setdefault(r.target, []).append(r)
    return {i: _group({r.source.id: r.source for r in refs}, [(r.source.id, Site(r.repo, r.file, r.line, r.col)) for r in refs])
            for i, refs in by_target.items()}


def outgoing_calls(graph: GraphStore, node: Node) -> list[CallGroup]:
    """Callees of ``node``, one group per callee with the call sites in ``node``'s body, sorted by
    first call site. Two store calls."""
    edges = graph.outgoing([node.id], ["CALLS"]).get(node.id, [])
    callees = graph.get_nodes(sorted({e.dst for e in edges}))
    return _group(callees, [(e.dst, Site(e.repo, e.file, e.line, e.col)) for e in edges])


def document_symbols(graph: GraphStore, repo: str, path: str, max_depth: int | None = None,
                     limit: int | None = None) -> list[SymbolTree]:
    """The definitions of ``repo``/``path`` as a tree (nesting by qualname: a node's parent is the
    node whose qualname is its own minus the last part), in source order. Built without recursion,
    so any nesting works; with ``max_depth`` a node deeper than that many levels is placed under its
    ancestor at level ``max_depth`` (children keep source order); with ``limit`` only the file's
    first ``limit`` definitions are listed."""
    nodes = _code(graph.nodes_in_file(repo, path))
    if limit is not None:
        nodes = nodes[:limit]
    by_qual: dict[str, Node] = {}
    for n in nodes:
        by_qual.setdefault(n.qualname, n)  # children join the first node of their parent's qualname
    placed: dict[str, tuple[str | None, int]] = {}  # node id -> (qualname it is listed under, its level)
    joins: dict[str, tuple[str | None, int]] = {}  # qualname -> (where its children go, their level - 1)
    for n in sorted(nodes, key=lambda n: len(n.qualname)):  # a parent's qualname is a strict prefix
        parent = n.qualname.rsplit(".", 1)[0] if "." in n.qualname else None
        at, level = joins[parent] if parent is not None and parent in joins else (None, 0)
        placed[n.id] = (at, level + 1)
        if n.qualname not in joins:
            deeper = max_depth is None or level + 1 < max_depth
            joins[n.qualname] = (n.qualname, level + 1) if deeper else (at, level)
    children: dict[str | None, list[Node]] = {}
    for n in nodes:
        children.setdefault(placed[n.id][0], []).append(n)
    trees: dict[str, SymbolTree] = {}
    for n in sorted(nodes, key=lambda n: -placed[n.id][1]):  # the deepest first: children exist before parents
        kids = children.get(n.qualname, ()) if by_qual[n.qualname] is n else ()
        trees[n.id] = SymbolTree(n, tuple(trees[c.id] for c in kids))
    return [trees[n.id] for n in children.get(None, [])]


def transitive_callers(graph: GraphStore, ids: Sequence[str], hops: int) -> list[set[str]]:
    """Callers of ``ids`` level by level: element ``i`` holds the node ids first reached at hop
    ``i + 1`` (a node is counted at its nearest hop; ``ids`` themselves are never counted). One
    batched ``incoming`` call per hop; stops early when a level is empty."""
    seen = set(ids)
    frontier = list(dict.fromkeys(ids))
    levels: list[set[str]] = []
    for _ in range(hops):
        if not frontier:
            break
        edges = graph.incoming(frontier, ["CALLS"])
        level = {e.src for es in edges.values() for e in es} - seen
        if not level:
            break
        levels.append(level)
        seen |= level
        frontier = sorted(level)
    return levels


def impact(graph: GraphStore, node: Node, hops: int = 3) -> Impact:
    """Direct call sites and callers of ``node`` (a class counts calls to its constructors) and the
    callers reached within ``hops`` hops. About ``hops + 3`` store calls."""
    direct = callers(graph, [node])
    first = {r.source.id for r in direct}
    levels = [first] if first else []
    if first and hops > 1:
        ctors = [c for cs in _constructors(graph, [node]).values() for c in cs]
        seen = {node.id, *ctors}
        levels += transitive_callers(graph, sorted(first | seen), hops - 1)
        levels = [levels[0]] + [lvl - first - seen for lvl in levels[1:]]
        levels = [lvl for lvl in levels if lvl]
    return Impact(node, len(direct), len(first), tuple(len(lvl) for lvl in levels))


class UnionGraph(GraphStore):
    """A read-only view of several graph stores as one (the language server's workspace folders,
    each with its own index): every read asks each store once and merges the answers in the
    contract's order. Writes raise :class:`stores.errors.QueryFailed`."""

    def __init__(self, stores: Sequence[GraphStore]) -> None:
        self.stores = list(stores)

    def replace_files(self, files: Sequence[IndexedFile]) -> None:
        """Not supported: write through one store. Always raises :class:`~stores.errors.QueryFailed`."""
        raise QueryFailed("a union of indexes is read-only")

    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Not supported: write through one store. Always raises :class:`~stores.errors.QueryFailed`."""
        raise QueryFailed("a union of indexes is read-only")

    def file_text(self, repo: str, path: str) -> str | None:
        """The first store holding the file answers."""
        for s in self.stores:
            text = s.file_text(repo, path)
            if text is not None:
                return text
        return None

    def file_checksums(self, repo: str) -> dict[str, str]:
        """Merged ``{path: checksum}``."""
        return {k: v for s in self.stores for k, v in s.file_checksums(repo).items()}

    def repos(self) -> list[str]:
        """Every store's repositories, sorted."""
        return sorted({r for s in self.stores for r in s.repos()})

    def repositories(self) -> list[RepositoryRecord]:
        """Every store's registry entries (the first store holding a key wins), in the contract's order."""
        out: dict[str, RepositoryRecord] = {}
        for s in self.stores:
            for r in s.repositories():
                out.setdefault(r.key, r)
        return sorted(out.values(), key=lambda r: (r.name, not r.default, r.branch or "", r.key))

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node]:
        """Merged; the first store holding an id wins."""
        out: dict[str, Node] = {}
        for s in self.stores:
            for k, v in s.get_nodes(ids).items():
                out.setdefault(k, v)
        return out

    def find_symbols(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[Node]]:
        """Merged lists, sorted by id."""
        return self._merge([s.find_symbols(names, labels) for s in self.stores], lambda n: n.id)

    def nodes_in_file(self, repo: str, path: str) -> list[Node]:
        """The first store that holds the file answers."""
        for s in self.stores:
            nodes = s.nodes_in_file(repo, path)
            if nodes:
                return nodes
        return []

    def incoming(self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
                 ) -> dict[str, list[Edge]]:
        """Merged, in the contract's edge order."""
        return self._merge([s.incoming(ids, kinds, resolutions) for s in self.stores], _edge_key)

    def outgoing(self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
                 ) -> dict[str, list[Edge]]:
        """Merged, in the contract's edge order."""
        return self._merge([s.outgoing(ids, kinds, resolutions) for s in self.stores], _edge_key)

    def incoming_summary(self, ids: Sequence[str], kinds: Sequence[str], prop: str | None = None
                         ) -> dict[str, set[tuple[str, str, str]]]:
        """Every store's triples, united."""
        out: dict[str, set[tuple[str, str, str]]] = {i: set() for i in ids}
        for s in self.stores:
            for k, v in s.incoming_summary(ids, kinds, prop).items():
                out.setdefault(k, set()).update(v)
        return out

    def unresolved_calls(self, names: Sequence[str]) -> dict[str, list[UnresolvedCall]]:
        """Merged."""
        return self._merge([s.unresolved_calls(names) for s in self.stores],
                           lambda u: (u.repo, u.file, u.line, u.col, u.caller, u.arity))

    def labelled(self, labels: Sequence[str], limit: int | None = None) -> list[Node]:
        """Every store's nodes of ``labels`` (the first store holding an id wins), in the contract's order."""
        out: dict[str, Node] = {}
        for s in self.stores:
            for n in s.labelled(labels, limit):
                out.setdefault(n.id, n)
        nodes = sorted(out.values(), key=lambda n: (n.label, n.name, n.id))
        return nodes if limit is None else nodes[:max(limit, 0)]

    def search_symbols(self, query: str, limit: int) -> list[Node]:
        """Every store's best ``limit``, re-ranked together by the shared rule."""
        parts = query_parts(query)
        hits = [n for s in self.stores for n in s.search_symbols(query, limit)]

        def key(n: Node) -> tuple[Any, ...]:
            rank = symbol_match_rank(query, parts, n.name)
            return (3 if rank is None else rank, len(n.name), n.name, n.id)

        return sorted(hits, key=key)[:limit]

    def stats(self) -> dict[str, Any]:
        """Counts summed over the stores."""
        total: dict[str, Any] = {}
        for s in self.stores:
            for k, v in s.stats().items():
                if isinstance(v, dict):
                    slot = total.setdefault(k, {})
                    for kk, vv in v.items():
                        slot[kk] = slot.get(kk, 0) + vv
                else:
                    total[k] = total.get(k, 0) + v
        return total

    @staticmethod
    def _merge(parts: list[dict[str, list[_T]]], key: Callable[[_T], Any]) -> dict[str, list[_T]]:
        if len(parts) == 1:
            return parts[0]
        out: dict[str, list[_T]] = {}
        for p in parts:
            for k, v in p.items():
                out.setdefault(k, []).extend(v)
        return {k: sorted(v, key=key) for k, v in out.items()}


def _edge_key(e: Edge) -> tuple[Any, ...]:
    return (e.repo, e.file, e.line, e.col, e.src, e.dst, e.kind)
