"""What an impact analysis answers (:func:`analysis.impact.blast_radius`): the frozen report
:class:`BlastRadius` and the records it is made of (targets, callers, nodes reached by hop, endpoints,
topics, wrappers, entry points, services, the steps' timings). Data only: the walk that fills them
is :mod:`analysis.impact`, their rendering :mod:`analysis.impact_report`."""

from __future__ import annotations

from dataclasses import dataclass, field

from analysis.tables import TableHit
from stores.contracts import Node

__all__ = ["Target", "Reached", "CallSite", "Caller", "PathStep", "WrapperVia", "EndpointHit", "WrapperHit", "TopicHit", "EntryPoint", "ServiceHit", "StepRun", "BlastRadius"]


@dataclass(frozen=True, slots=True)
class Target:
    """A node the change is about; ``role`` is ``selected`` (what was asked for), ``overload``,
    ``declaration`` (an interface / abstract method a selected one overrides), ``implementation``
    (another override of such a declaration), ``constructor`` (of a selected type), ``member``
    (a method of a selected interface) or ``handler`` (a method exposing a selected Endpoint)."""

    node: Node
    role: str


@dataclass(frozen=True, slots=True)
class Reached:
    """A code node reached above the targets: ``hops`` from the nearest target, ``parent`` the id of
    the node one hop below on the path that explains it (a target, a caller, an endpoint or topic
    crossed), and ``certainty`` of that path (:data:`CERTAINTIES`)."""

    node: Node
    hops: int
    parent: str
    certainty: str
    ambiguous: tuple[str, ...] = ()  # a client whose URL names no service: the services exposing ``parent``


@dataclass(frozen=True, slots=True)
class CallSite:
    """A call of ``target`` (node id) at ``repo``/``file``, 1-based ``line``, 0-based ``col``,
    bound as ``resolution`` (``exact`` / ``inferred`` / ``name``)."""

    target: str
    repo: str
    file: str
    line: int
    col: int
    resolution: str | None


@dataclass(frozen=True, slots=True)
class Caller:
    """A direct caller (a File node for module-level code) and its call sites, sorted by location."""

    node: Node
    sites: tuple[CallSite, ...]

    @property
    def locations(self) -> int:
        """Distinct call sites: a call bound to an interface method and to its implementations is
        one place in the code, counted once."""
        return len({(s.repo, s.file, s.line, s.col) for s in self.sites})


@dataclass(frozen=True, slots=True)
class PathStep:
    """One node of an example path: ``name`` is the qualname of a code node, the path of a File, the
    name of an endpoint (``GET /owners/{}``, or as its route declares it: ``GET /owners/{ownerId}``) or ``topic:<name>``; ``line`` is 0 for shared nodes."""

    id: str
    name: str
    label: str
    repo: str
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class WrapperVia:
    """How an endpoint is reached through cross-cutting code: ``node`` (the function or method that
    runs: ``JwtFilter.doFilterInternal``), ``kind`` (``filter``, ``middleware``, ``interceptor``,
    ``guard``, ``pipe``, ``hook``, ``dependency``, ``error_handler``, ``decorator``) and ``scope`` of
    the registration (``route``, ``router`` or ``app``)."""

    node: Node
    kind: str
    scope: str


@dataclass(frozen=True, slots=True)
class EndpointHit:
    """An HTTP endpoint whose handler the change reaches: ``http_method`` and normalised ``path``,
    the ``repo`` exposing it (one hit per exposing repository), its ``handler``, ``hops`` from the
    nearest target to the handler, one shortest ``example`` path in call order, from the endpoint
    down to a target, and the ``operation_id`` an OpenAPI spec gives it (the EXPOSES edge's, else the node's)."""

    id: str
    http_method: str
    path: str
    repo: str
    handler: Node
    hops: int
    example: tuple[PathStep, ...]
    service: str | None = None
    """The application exposing it when its configuration names one (``spring.application.name``):
    several services can live in one repository."""
    certainty: str = "exact"
    """How sure the example path is (:data:`CERTAINTIES`): the weakest binding on it."""
    through: WrapperVia | None = None
    """Set when the endpoint is reached through cross-cutting code that runs for it (a WRAPS edge)
    rather than through its handler: ``handler`` is then the endpoint's handler (not reached; the
    wrapper when the index names none), and the example path runs endpoint -> wrapper -> ... -> target.
    At the same hop, a handler reached wins over a wrapper."""
    operation_id: str | None = None
    route: str | None = None
    """The path as the handler's application declares it when it names its parameters
    (``/items/{item_id}``, the EXPOSES edge's ``route``; ``path`` is ``/items/{}``); ``None``
    otherwise, and for an endpoint reached through a wrapper."""

    @property
    def shown_path(self) -> str:
        """What answers show as the endpoint's path: :attr:`route` when known, else :attr:`path`."""
        return self.route or self.path


@dataclass(frozen=True, slots=True)
class WrapperHit:
    """Cross-cutting code reached: ``node`` (what runs), its ``kind`` and ``framework``, the ``scopes``
    of its registrations (``route`` / ``router`` / ``app``), their path limits (``paths``; empty:
    none), its ``hops`` and ``endpoints``, the ids of every endpoint it wraps (reached at that hop,
    even those the report lists through a nearer handler). ``application`` is the service the
    endpoints belong to when named (``spring.application.name``), else the wrapper's repository.
    ``app_wide``: registered for the whole application without a path limit (the report says "all N
    endpoints of <application>")."""

    node: Node
    kind: str
    framework: str
    scopes: tuple[str, ...]
    paths: tuple[str, ...]
    hops: int
    endpoints: tuple[str, ...]
    application: str
    certainty: str = "exact"
    """How sure the path from the wrapper down to a target is (:data:`CERTAINTIES`)."""
    example: tuple[PathStep, ...] = ()
    """One shortest path in call order, from the wrapper down to a target."""

    @property
    def app_wide(self) -> bool:
        """Registered for the whole application (scope ``app`` only), without a path limit."""
        return self.scopes == ("app",) and not self.paths


@dataclass(frozen=True, slots=True)
class TopicHit:
    """A topic, queue or task a reached method consumes or produces: ``consumers`` / ``producers``
    among the reached methods, ``hops`` of the nearest of them, and an ``example`` path in call order
    (from the topic when a consumer is reached, else from the nearest producer). ``broker``: the
    node's broker (``kafka``, ``rabbitmq``, ``jms``, ``celery``, ...); ``match``: how sure the
    weakest of its reached PRODUCES / CONSUMES links is (``exact`` / ``inferred`` / ``name``; ``None``
    for Kafka, whose links are by topic name as written)."""

    id: str
    name: str
    consumers: tuple[Node, ...]
    producers: tuple[Node, ...]
    hops: int
    example: tuple[PathStep, ...]
    broker: str = "kafka"
    match: str | None = None


@dataclass(frozen=True, slots=True)
class EntryPoint:
    """A reached node that something outside the code calls: ``kinds`` among ``http`` (EXPOSES;
    ``grpc`` for a gRPC server method, EXPOSES of kind ``grpc``),
    ``graphql query`` / ``graphql mutation`` / ``graphql subscription`` / ``graphql field`` (EXPOSES
    of a GraphQL operation, :func:`analysis.entry_kinds.exposes_kind`), a broker (CONSUMES: ``kafka``, ``rabbitmq``,
    ``jms``, ``celery``, ...), a wrapper's kind (WRAPS: ``filter``, ``middleware``, ``interceptor``,
    ``guard``, ``pipe``, ``hook``, ``dependency``, ``error_handler``, ``decorator``), ``scheduled`` /
    ``cli`` / ``main`` (ENTRY edges: registrations by a call or configuration,
    :class:`indexer.model.EntryRegistration`), ``scheduled`` / ``listener`` / ``task`` / ``cli``
    (decorators, annotations), ``main`` (a callable named ``main``) and ``module`` (module-level
    code)."""

    node: Node
    kinds: tuple[str, ...]
    hops: int


@dataclass(frozen=True, slots=True)
class ServiceHit:
    """A repository the change reaches: how many of its code nodes (targets included), how many
    endpoints it exposes among the hits, and the nearest hop."""

    repo: str
    nodes: int
    endpoints: int
    hops: int
    applications: tuple[str, ...] = ()
    """Names of the applications of this repository the change reaches (sorted): those exposing the
    endpoints hit and those holding any code node reached, targets included (the folder a file lies
    in names its application: service units and Spring modules, recorded at index time); empty when
    nothing names them."""


@dataclass(frozen=True, slots=True)
class StepRun:
    """One step as executed: wall time in milliseconds, store contract calls, a one-line result."""

    name: str
    ms: float
    round_trips: int
    detail: str


@dataclass(frozen=True, slots=True)
class BlastRadius:
    """The report. ``callers_by_hop[i]`` counts the nodes first reached at hop ``i + 1`` (direct
    callers, HTTP clients and producers alike); ``truncated`` says what was not followed."""

    query: str
    depth: int
    targets: tuple[Target, ...]
    callers: tuple[Caller, ...]
    endpoints: tuple[EndpointHit, ...]
    topics: tuple[TopicHit, ...]
    entry_points: tuple[EntryPoint, ...]
    services: tuple[ServiceHit, ...]
    callers_by_hop: tuple[int, ...]
    truncated: tuple[str, ...]
    steps: tuple[StepRun, ...] = field(default=())
    hops: tuple[tuple[Reached, ...], ...] = ()
    """``hops[i]``: the nodes first reached at hop ``i + 1`` (what ``callers_by_hop[i]`` counts),
    sorted by location."""
    tests: tuple[Reached, ...] = ()
    """Test code reached (``tests`` mode ``apart`` or ``only``), nearest first."""
    tests_mode: str = "apart"
    excluded_tests: int = 0
    """Test callers not walked (``tests`` mode ``exclude``)."""
    wrappers: tuple[WrapperHit, ...] = ()
    """Cross-cutting code reached (WRAPS edges), nearest first."""
    tables: tuple[TableHit, ...] = ()  # tables the targets and their callees read / write (analysis.tables)
    unbound: int = 0
    """Call sites the index kept unbound under a selected callable's name: they may call it too
    (the note in ``truncated`` names a few)."""

    @property
    def reached(self) -> int:
        """Nodes reached above the targets, all hops."""
        return sum(self.callers_by_hop)

    @property
    def call_sites(self) -> int:
        """Direct call sites of the targets, each place in the code once (:attr:`Caller.locations`)."""
        return sum(c.locations for c in self.callers)

    @property
    def ms(self) -> float:
        """Total time of the steps."""
        return sum(s.ms for s in self.steps)

    @property
    def round_trips(self) -> int:
        """Total store contract calls of the steps."""
        return sum(s.round_trips for s in self.steps)
