"""The request and response bodies of ``ripple api`` (pydantic): what ``/openapi.json`` publishes.

Field names are camelCase on the wire (``searchTimeMs``, ``clearExisting``), as the issue names
them; every model refuses unknown fields in requests (a typo is a 422, never silently ignored).
Lines are 1-based, as in the index and ``ripple`` output.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, WithJsonSchema, field_validator
from pydantic.alias_generators import to_camel

__all__ = [
    "MIN_MAX_TOKENS", "MAX_MAX_TOKENS", "Budgeted", "Answered", "Related", "SimilarResponse", "Totals", "Reference",
    "CallSite", "Callee", "Definition", "CallersResponse",
    "MAX_LIMIT", "MAX_TARGET", "MAX_QUERY", "NAME_PATTERN", "PATTERN_HINTS", "Problem", "Health", "StoreHealth", "RepositoryInfo", "RepositoryList",
    "RepositoryStats", "Deleted", "IngestRequest", "JobProgress", "Job", "SearchRequest", "Ranks",
    "Hit", "SearchResponse", "ModelInfo", "ModelsResponse", "TargetRequest", "CallersRequest", "ReferencesRequest",
    "ImpactRequest", "Step", "SymbolInfo", "ReferencesResponse", "SymbolResponse", "ImpactResponse",
    "UnlinkedCallInfo", "UnlinkedResponse", "ReachedThroughInfo", "Flag", "Count", "json_integer", "query_count",
    "EndpointHandler", "EndpointInfo", "EndpointsResponse",
]

MAX_LIMIT = 100
"""Most hits a search or a similar-code request returns."""
MAX_QUERY = 1_000
"""Longest search query, in characters."""
MIN_MAX_TOKENS = 200
"""Smallest size budget accepted (:data:`analysis.agent_queries.MIN_MAX_TOKENS`)."""
MAX_MAX_TOKENS = 100_000
"""Largest size budget accepted (:data:`analysis.agent_queries.MAX_MAX_TOKENS`)."""
MAX_TARGET = 4_096
"""Longest target (a qualified name, a node id or PATH:LINE), in characters."""
NAME_PATTERN = r"^[^\x00-\x1f/\\]{1,200}$"
"""A repository name: 1 to 200 characters, no control character or slash (it starts node ids)."""
PATTERN_HINTS = {
    "path": "give the absolute path of the folder on the server's machine (starting with /)",
    "name": "a repository name has 1 to 200 characters, no slash, backslash or control character",
}
"""What to tell a person whose value does not match a field's pattern, by field name."""


Flag = Annotated[bool, Strict()]
"""A request's boolean: JSON ``true`` / ``false`` only. Pydantic's default (lax) mode takes ``0``, ``1.0``
or ``"yes"`` for a bool, which the published schema (``type: boolean``) refuses: a client sending them
has a bug it should hear of (a 422), not a guess."""

def json_integer(value: object) -> object:
    """A request body's number as JSON Schema's ``integer`` reads it: a number with no fractional part, so
    ``300.0`` is 300 (the published schema admits it, and schema-driven clients and tests send it); a
    boolean or a string is left for :data:`Count`'s strict check to refuse. The request models run it as a
    field validator (an ``Annotated`` before-validator would publish the fields' bounds as ``ge`` / ``le``
    keys, which OpenAPI does not know)."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


Count = Annotated[int, Strict()]
"""A request body's integer: a JSON number with no fractional part (``5``; ``5.0`` through
:func:`json_integer`) only. The lax mode also takes ``true`` (as 1) and ``"5"``, which the published
schema (``type: integer``) refuses."""

_DECIMAL = re.compile(r"[0-9]{1,18}")


def _decimal(value: object) -> object:
    """A query string's integer as written: decimal digits only (pydantic's lax parse takes ``5.0``,
    `` 5``, ``+5`` and ``1_000`` for 5 and 1000). Raises ``ValueError`` naming the value."""
    if isinstance(value, str) and not _DECIMAL.fullmatch(value):
        raise ValueError(f"expected an integer in decimal digits, not {value[:40]!r}")
    return value


def query_count(ge: int, le: int) -> Any:
    """The type of a query parameter's integer (``?offset=5``) from ``ge`` to ``le``: decimal digits only (see
    :func:`_decimal`), published as ``{"type": "integer", "minimum": ge, "maximum": le}`` (with a before-validator
    pydantic would publish the bounds as ``ge`` / ``le`` keys, which OpenAPI does not know: schema-driven clients
    and tests then send values the route refuses). Use as ``Annotated[query_count(1, 100), Query()]``."""
    return Annotated[int, BeforeValidator(_decimal), Field(ge=ge, le=le),
                     WithJsonSchema({"type": "integer", "minimum": ge, "maximum": le})]


class Wire(BaseModel):
    """camelCase on the wire, snake_case in Python; both accepted in requests."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True)


class Request(Wire):
    """A request body: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class Problem(Wire):
    """An error (RFC 9457 ``application/problem+json``): ``type`` a URI naming the kind of problem,
    ``title`` its short summary, ``status`` the HTTP status, ``detail`` what happened to this request
    and what to do about it."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    candidates: list[dict[str, Any]] | None = None
    """For a target that names nothing or several symbols: what it may have meant (pass one's ``id``)."""


class StoreHealth(Wire):
    """One configured store: its backend (``embedded``, ``memgraph``, ``elasticsearch``) and whether it answered."""

    role: Literal["graph", "search"]
    backend: str
    ok: bool
    detail: str | None = None


class Health(Wire):
    """``status`` is ``ok`` when every store answered; ``degraded`` when one did not (then the status code is 503)."""

    status: Literal["ok", "degraded"]
    version: str
    stores: list[StoreHealth]


class Step(Wire):
    """One step the server executed to answer: its time in milliseconds, the store calls it made
    (``roundTrips``) and what it found."""

    name: str
    ms: float
    round_trips: int
    detail: str | None = None


class FreshnessInfo(Wire):
    """A repository whose index is behind its source (:class:`analysis.freshness.Freshness`): ``state``
    (``behind`` / ``diverged`` / ``changed``), commits ``behind`` / ``ahead`` of ``HEAD``, ``changed``
    files not indexed, the commits compared, the branch and a one-line ``message``."""

    repo: str
    state: str
    behind: int | None = None
    ahead: int | None = None
    changed: int | None = None
    indexed_commit: str | None = None
    head_commit: str | None = None
    branch: str | None = None
    message: str | None = None


class Answered(Wire):
    """What every analysis answer ends with: what the size budget cut (``truncated``, one sentence
    each; empty when nothing was), the steps executed, and the repositories whose index is behind
    their source (``freshness``; empty when every checked index is current)."""

    truncated: list[str]
    steps: list[Step]
    freshness: list[FreshnessInfo] = []


class RepositoryInfo(Wire):
    """An indexed repository: its ``name`` (node ids start with it), its file count, the folder it was
    indexed from (``root``, when recorded), when the index was written (``indexedAt``, ISO 8601 UTC),
    how many indexed files changed on disk since (``changedFiles``; ``null`` when that cannot be told),
    its search ``chunks`` and how many of them are ``embedded``, and whether an ingest job is queued or
    running on it; from the repository registry (``null`` for a repository indexed before it):
    ``branch``, ``default`` (queries naming no branch read it), ``product``, git ``remote`` and
    ``commit``, and ``counts`` (files, nodes, edges, chunks, vectors)."""

    name: str
    files: int
    chunks: int
    embedded: int
    root: str | None = None
    indexed_at: str | None = None
    changed_files: int | None = None
    ingesting: bool = False
    branch: str | None = None
    default: bool | None = None
    product: str | None = None
    remote: str | None = None
    commit: str | None = None
    counts: dict[str, int] | None = None


class Totals(Wire):
    """Index-wide counts: repositories, nodes by label, edges by kind, calls by resolution, files by
    language, chunks and embedded chunks."""

    repositories: int
    nodes: dict[str, int]
    edges: dict[str, int]
    calls_by_resolution: dict[str, int]
    files: dict[str, int]
    chunks: int
    embedded: int


class RepositoryList(Answered):
    """Every repository of the configured stores, by name, and the index-wide totals."""

    totals: Totals
    repositories: list[RepositoryInfo]


class RepositoryStats(RepositoryInfo):
    """A repository with its files by language and its graph's ``nodes`` by label."""

    files_by_language: dict[str, int]
    nodes: dict[str, int]


class Deleted(Wire):
    """What ``DELETE /v1/repositories/{name}`` removed."""

    name: str
    files_deleted: int


class IngestRequest(Request):
    """``path``: an existing directory on the server's machine to index as this repository;
    ``clearExisting``: drop the repository's current files first (a full rebuild) instead of the
    incremental update; ``skipEmbeddings``: index the graph and BM25 only (semantic search waits
    for a later ingest or ``ripple embed``)."""

    path: str = Field(min_length=1, max_length=4096, pattern=r"^/[^\x00]*$")
    clear_existing: Flag = False
    skip_embeddings: Flag = False


class JobProgress(Wire):
    """The phase under way (``discover``, ``read``, ``extract``, ``resolve``, ``write``, ``embed``) and
    how far it got (``total`` is ``null`` when unknown)."""

    phase: str | None = None
    done: int = 0
    total: int | None = None


class Job(Wire):
    """An ingest job. ``state``: ``queued`` (waiting for the index's writer: one writer per index),
    ``running``, ``succeeded`` or ``failed`` (``error`` says why); ``report`` is the index run's
    summary (as ``ripple index --json``) once it succeeded; times are UNIX seconds."""

    id: str
    repo: str
    path: str
    state: Literal["queued", "running", "succeeded", "failed"]
    progress: JobProgress
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    error: str | None = None
    report: dict[str, Any] | None = None


class Budgeted(Request):
    """``maxTokens``: the answer's size budget in tokens of the bundled model's tokenizer (about 2.5
    characters a token; default 4,000). What the
    budget cuts (sources shortened, items left out) is listed in the answer's ``truncated``."""

    max_tokens: Count | None = Field(default=None, ge=MIN_MAX_TOKENS, le=MAX_MAX_TOKENS)
    _whole_max_tokens = field_validator("max_tokens", mode="before")(json_integer)


class SearchRequest(Budgeted):
    """Hybrid search: ``query`` (words or identifiers) and optional filters; ``limit`` 1 to 100; ``tests``
    ranks test code first."""

    query: str = Field(min_length=1, max_length=MAX_QUERY, pattern=r"\S")
    repo: str | None = Field(default=None, max_length=200)
    product: str | None = Field(default=None, max_length=200)
    language: str | None = Field(default=None, max_length=40)
    kind: Literal["method", "function", "class", "file_section", "sql", "config", "doc"] | None = None
    limit: Count = Field(default=10, ge=1, le=MAX_LIMIT)
    _whole_limit = field_validator("limit", mode="before")(json_integer)
    tests: Flag = Field(default=False, description="Look for test code: rank it above the implementation (it "
                                                   "ranks below otherwise, unless the query asks for tests).")


class Ranks(Wire):
    """The 1-based rank a hit had in each ranked list (``null``: that list did not return it) and in the
    fused list (``rrf``); an ensemble search (``[search] models``) has one kNN list per model instead
    of ``knn``: ``models`` holds those ranks by model name (``{"minilm": 1, "mpnet": 3}``)."""

    bm25: int | None = None
    knn: int | None = None
    name: int | None = None
    models: dict[str, int] = Field(default_factory=dict, description="Rank in each model's kNN list of an "
                                   "ensemble search, by model name (empty for a one-model search).")
    rrf: int


class Related(Wire):
    """How many distinct nodes a hit relates to this way, and the first names."""

    count: int
    names: list[str]


class SymbolInfo(Wire):
    """A definition: node ``id``, dotted ``name``, ``label`` (``Method``, ``Class``, ...) and where it
    is (``line`` to ``endLine``)."""

    id: str
    name: str
    label: str
    repo: str
    path: str
    line: int
    end_line: int


class Hit(Wire):
    """A search hit: the graph node (``id``, dotted ``name``, ``label``) and its chunk (``chunkId``,
    location, ``kind``, ``source`` text), its ``score`` (the fused score times the ranking priors; 10 plus a
    definition score below 1 for an identifier query's exact definitions) and ``ranks``, and its graph context
    (direct ``callers``, ``callees``, ``endpoints`` it serves); a ``doc`` or ``config`` hit lists the
    symbols and tables it ``mentions``."""

    id: str
    chunk_id: str
    name: str
    label: str
    kind: str
    language: str
    repo: str
    path: str
    line: int
    end_line: int
    score: float
    ranks: Ranks
    source: str
    source_truncated: bool = False
    callers: Related
    callees: Related
    endpoints: Related
    mentions: list[SymbolInfo] = Field(default_factory=list)


class SearchResponse(Answered):
    """Hits best first; ``lists`` names the ranked lists fused; ``dropped`` counts hits whose graph
    node is missing; ``notes`` say what the answer rests on (chunks not embedded yet); ``searchTimeMs``
    the time the answer took on the server."""

    query: str
    lists: list[str]
    dropped: int
    notes: list[str]
    hits: list[Hit]
    search_time_ms: float


class SimilarResponse(Answered):
    """Chunks nearest to ``chunkId`` by embedding, best first (empty, with a note, when it has no
    embedding yet), and ``searchTimeMs``."""

    chunk_id: str
    dropped: int
    notes: list[str]
    hits: list[Hit]
    search_time_ms: float


class ModelInfo(Wire):
    """An embedding model: its ``name`` (fastembed's), ``searchName`` (what a search's ``models``
    takes, ``minilm`` / ``mpnet``; null for a fastembed model), vector ``dimensions``, whether it
    ships with ripple (``bundled``), whether this server embeds queries with it by default
    (``active``: the index's own model), whether it is ``built`` here (``ripple models build``),
    ``configured`` (in ``[search] models``) and how many chunks have a vector of it (``vectors``)."""

    name: str
    search_name: str | None = None
    dimensions: int
    bundled: bool
    active: bool
    built: bool = True
    configured: bool = False
    vectors: int = 0


class ModelsResponse(Wire):
    """The embedding models the index can answer with (a model can when it is built and ``vectors`` >
    0), the ``[search] models`` names (``configured``; empty: one model), and how many of the index's
    chunks have a vector of its own model (``embedded``)."""

    models: list[ModelInfo]
    configured: list[str] = []
    chunks: int
    embedded: int


class TargetRequest(Budgeted):
    """``target``: a qualified name (``Class.method``, ``package.module.function``), a node id, or
    ``PATH:LINE[:COL]`` (1-based); ``repo``: only symbols of that repository (a name defined in several)."""

    target: str = Field(min_length=1, max_length=MAX_TARGET, pattern=r"\S")
    repo: str | None = Field(default=None, max_length=200)


class CallersRequest(TargetRequest):
    """``resolutions``: keep only calls bound this way (``exact``, ``inferred``, ``name``); all by default."""

    resolutions: list[Literal["exact", "inferred", "name"]] | None = None


class ReferencesRequest(TargetRequest):
    """``includeDeclaration``: list the declarations too."""

    include_declaration: Flag = False


class ImpactRequest(TargetRequest):
    """``depth``: hops walked upward (1 to 20); ``tests``: test code ``apart`` (own section),
    ``include``, ``exclude`` or ``only``."""

    depth: Count = Field(default=5, ge=1, le=20)
    _whole_depth = field_validator("depth", mode="before")(json_integer)
    tests: Literal["apart", "include", "exclude", "only"] = "apart"


class Reference(Wire):
    """A reference: where it is (``path``, 1-based ``line`` and ``col``), the definition it points to
    (``target``), what holds it (``from``, a node id, and ``fromName``), the edge ``kind`` (``CALLS``,
    ``USES_TYPE``, ...) and, for calls, how it was bound (``resolution``)."""

    target: str
    kind: str
    from_: str = Field(alias="from")
    from_name: str
    repo: str
    path: str
    line: int
    col: int
    resolution: str | None = None


class CallSite(Wire):
    """Where a callee is called from, in the caller's body (1-based)."""

    path: str
    line: int
    col: int


class Callee(SymbolInfo):
    """A callee with its call sites."""

    sites: list[CallSite]


class Definition(SymbolInfo):
    """A definition with its ``signature``, ``decorators``, ``source``, direct ``callers`` (call sites)
    and ``callees`` (with their call sites) and the ``endpoints`` it serves; the counts are complete
    even when the budget shortens the lists."""

    signature: str | None = None
    decorators: list[str] = Field(default_factory=list)
    source: str
    source_truncated: bool = False
    language: str
    callers: list[Reference]
    callees: list[Callee]
    endpoints: list[str]
    caller_count: int
    callee_count: int


class SymbolResponse(Answered):
    """The definitions ``target`` named (each overload) and other symbols a bare name also matched."""

    target: str
    also_named: list[SymbolInfo]
    definitions: list[Definition]


class ReachedThroughInfo(Wire):
    """An endpoint or topic the target serves or consumes (:class:`analysis.reached_through.ReachedThrough`):
    its ``id``, the ``name`` a callers request takes for it, ``kind`` (``endpoint`` | ``topic``), ``whose``
    callers reach the target through it (``clients`` | ``producers``) and how many (``callers``)."""

    id: str
    name: str
    kind: str
    whose: str
    callers: int


class CallersResponse(Answered):
    """The definitions ``target`` named (``targets``), other symbols of that name, the call sites, and
    the endpoints and topics other services reach the target through (``reachedThrough``: ask for
    their callers to see those clients and producers)."""

    targets: list[SymbolInfo]
    also_named: list[SymbolInfo]
    count: int
    callers: list[Reference]
    reached_through: list[ReachedThroughInfo] = []


class ReferencesResponse(Answered):
    """The definitions ``target`` named (``targets``), other symbols of that name, and every reference."""

    targets: list[SymbolInfo]
    also_named: list[SymbolInfo]
    count: int
    references: list[Reference]


class ImpactResponse(Answered):
    """The blast radius: ``markdown`` (the report ``ripple impact`` prints, its steps table the
    answer's) and ``report`` (the same as data, as ``ripple impact --json``)."""

    markdown: str
    report: dict[str, Any]


class EndpointHandler(Wire):
    """A method serving an endpoint: its node ``id``, display ``name``, where it is (``repo``, ``path``,
    1-based ``line``), the ``route`` as the code declares it and the ``framework`` that linked it."""

    id: str
    name: str
    repo: str
    path: str
    line: int
    route: str
    framework: str


class EndpointInfo(Wire):
    """An endpoint (:class:`analysis.endpoints.EndpointEntry`): ``kind`` (``http``, ``graphql``,
    ``grpc``), ``method``, normalised ``path``, its ``handlers``, ``clients`` (distinct calling methods)
    and ``clientCalls`` (call sites), the ``wrappers`` (filters, middleware, guards) every request runs
    through, and the error handlers that run only when it fails (``onError``)."""

    id: str
    kind: str
    method: str
    path: str
    handlers: list[EndpointHandler]
    clients: int
    client_calls: int
    wrappers: list[str]
    on_error: list[str] = []


class EndpointsResponse(Answered):
    """The endpoint list: ``total`` matching the filters, ``leftOut`` of them beyond the limit,
    ``unserved`` endpoints only called (listed when ``unservedListed``), the ``endpoints`` by path."""

    total: int
    left_out: int
    unserved: int
    unserved_listed: bool
    repo: str | None = None
    endpoints: list[EndpointInfo]


class UnlinkedCallInfo(Wire):
    """A client call not linked to an endpoint or topic (:class:`analysis.unlinked.UnlinkedCall`): where
    (``repo``, ``path``, 1-based ``line`` / ``col``), the calling node (``caller`` id, display ``name``),
    the ``call`` as far as it is known (``POST http://{}``), the ``reason`` (``url``, ``grpc_ambiguous``,
    ``topic``, ...), its ``kind`` (``http``, ``grpc``, ``graphql``, ``queue``), the ``framework`` and the
    nearest ``candidates`` the linker had."""

    repo: str
    path: str
    line: int
    col: int
    caller: str
    name: str
    call: str
    reason: str
    kind: str
    framework: str
    candidates: list[str] = []


class UnlinkedResponse(Answered):
    """The unlinked client calls: ``total`` matching the filters, ``leftOut`` beyond the page (after
    ``offset``, the calls skipped, and the calls shown), ``byReason`` (``{reason: n}`` over all that match), the
    filters, and the ``calls`` by place."""

    total: int
    left_out: int
    by_reason: dict[str, int]
    repo: str | None = None
    product: str | None = None
    reason: str | None = None
    offset: int = 0
    calls: list[UnlinkedCallInfo]
