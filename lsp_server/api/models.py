"""The request and response bodies of ``ripple api`` (pydantic): what ``/openapi.json`` publishes.

Field names are camelCase on the wire (``searchTimeMs``, ``clearExisting``), as the issue names
them; every model refuses unknown fields in requests (a typo is a 422, never silently ignored).
Lines are 1-based, as in the index and ``ripple`` output.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

__all__ = [
    "MAX_LIMIT", "MAX_TARGET", "MAX_QUERY", "NAME_PATTERN", "PATTERN_HINTS", "Problem", "Health", "StoreHealth", "RepositoryInfo", "RepositoryList",
    "RepositoryStats", "Deleted", "IngestRequest", "JobProgress", "Job", "SearchRequest", "Ranks", "GraphContext",
    "Hit", "SearchResponse", "ModelInfo", "ModelsResponse", "TargetRequest", "CallersRequest", "ReferencesRequest",
    "ImpactRequest", "Step", "SymbolInfo", "Location", "ReferencesResponse", "SymbolDetail", "SymbolResponse", "ImpactResponse",
]

MAX_LIMIT = 100
"""Most hits a search or a similar-code request returns."""
MAX_QUERY = 1_000
"""Longest search query, in characters."""
MAX_TARGET = 4_096
"""Longest target (a qualified name, a node id or PATH:LINE), in characters."""
NAME_PATTERN = r"^[^\x00-\x1f/\\]{1,200}$"
"""A repository name: 1 to 200 characters, no control character or slash (it starts node ids)."""
PATTERN_HINTS = {
    "path": "give the absolute path of the folder on the server's machine (starting with /)",
    "name": "a repository name has 1 to 200 characters, no slash, backslash or control character",
}
"""What to tell a person whose value does not match a field's pattern, by field name."""


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


class RepositoryInfo(Wire):
    """An indexed repository: its ``name`` (node ids start with it), the folder it was indexed from
    (``root``, when recorded), its file count by language and whether an ingest job is running on it."""

    name: str
    root: str | None = None
    files: int
    files_by_language: dict[str, int]
    ingesting: bool = False


class RepositoryList(Wire):
    """Every repository of the configured stores, by name."""

    repositories: list[RepositoryInfo]


class RepositoryStats(RepositoryInfo):
    """A repository with its graph's ``nodes`` by label (the index-wide chunk counts are in ``GET /v1/search/models``)."""

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
    clear_existing: bool = False
    skip_embeddings: bool = False


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


class SearchRequest(Request):
    """Hybrid search: ``query`` (words or identifiers) and optional filters; ``limit`` 1 to 100."""

    query: str = Field(min_length=1, max_length=MAX_QUERY)
    repo: str | None = Field(default=None, max_length=200)
    product: str | None = Field(default=None, max_length=200)
    language: str | None = Field(default=None, max_length=40)
    kind: str | None = Field(default=None, max_length=40)
    limit: int = Field(default=10, ge=1, le=MAX_LIMIT)


class Ranks(Wire):
    """The 1-based rank a hit had in each ranked list (``null``: that list did not return it) and in the
    fused list (``rrf``)."""

    bm25: int | None = None
    knn: int | None = None
    name: int | None = None
    rrf: int


class GraphContext(Wire):
    """A hit's place in the graph: its direct callers and callees (counts, and up to ten names each)
    and the endpoints its code exposes."""

    callers: int
    callees: int
    caller_names: list[str] = Field(default_factory=list)
    callee_names: list[str] = Field(default_factory=list)
    endpoints: list[str] = Field(default_factory=list)


class Hit(Wire):
    """A search hit: the chunk (``chunkId``, location, kind, source ``text``), the graph node it stands
    for (``id``, dotted ``name``), the fused ``score``, its ``ranks`` and its graph ``context``."""

    chunk_id: str
    id: str
    name: str
    repo: str
    path: str
    start_line: int
    end_line: int
    kind: str
    language: str
    score: float
    ranks: Ranks
    context: GraphContext
    text: str


class SearchResponse(Wire):
    """Hits best first; ``lists`` names the ranked lists fused; ``notes`` say what the answer rests on
    (chunks not embedded yet); ``searchTimeMs`` the time the search took on the server."""

    query: str
    lists: list[str]
    hits: list[Hit]
    notes: list[str]
    search_time_ms: float


class ModelInfo(Wire):
    """An embedding model: its fastembed ``name``, vector ``dimensions``, whether it ships with ripple
    (``bundled``) and whether this server embeds queries with it (``active``)."""

    name: str
    dimensions: int
    bundled: bool
    active: bool


class ModelsResponse(Wire):
    """The embedding models, and how many of the index's chunks have a vector."""

    models: list[ModelInfo]
    chunks: int
    embedded: int


class TargetRequest(Request):
    """``target``: a qualified name (``Class.method``, ``package.module.function``), a node id, or
    ``PATH:LINE[:COL]`` (1-based); ``repo``: only that repository's definitions of a name."""

    target: str = Field(min_length=1, max_length=MAX_TARGET)
    repo: str | None = Field(default=None, max_length=200)


class CallersRequest(TargetRequest):
    """``resolutions``: keep only calls bound this way (``exact``, ``inferred``, ``name``); all by default."""

    resolutions: list[Literal["exact", "inferred", "name"]] | None = None


class ReferencesRequest(TargetRequest):
    """``includeDeclaration``: list the declarations too."""

    include_declaration: bool = False


class ImpactRequest(TargetRequest):
    """``depth``: hops walked upward (1 to 20); ``tests``: test code ``apart`` (own section),
    ``include``, ``exclude`` or ``only``."""

    depth: int = Field(default=5, ge=1, le=20)
    tests: Literal["apart", "include", "exclude", "only"] = "apart"


class Step(Wire):
    """One step the server executed to answer, and its time in milliseconds."""

    name: str
    ms: float
    detail: str | None = None


class SymbolInfo(Wire):
    """A definition: node ``id``, dotted ``name``, ``label`` (``Method``, ``Class``, ...), location and signature."""

    id: str
    name: str
    label: str
    repo: str
    path: str
    start_line: int
    end_line: int
    signature: str | None = None


class Location(Wire):
    """A reference: where it is (``path``, 1-based ``line`` and ``column``), the definition it
    points to (``target``), what holds it (``from``, a node id, and ``fromName``), the edge ``kind``
    (``CALLS``, ``USES_TYPE``, ...) and, for calls, how it was bound (``resolution``)."""

    target: str
    kind: str
    repo: str
    path: str
    line: int
    column: int
    from_: str = Field(alias="from")
    from_name: str
    resolution: str | None = None


class ReferencesResponse(Wire):
    """The definitions ``target`` named (``targets``), the references to them, and the steps run."""

    targets: list[SymbolInfo]
    references: list[Location]
    truncated: bool = False
    steps: list[Step]


class SymbolDetail(SymbolInfo):
    """A definition with its direct callers and callees (:class:`GraphContext`) and its ``source`` text
    (``null`` when the index holds no chunk of it)."""

    callers: int
    callees: int
    caller_names: list[str]
    callee_names: list[str]
    endpoints: list[str]
    source: str | None = None


class SymbolResponse(Wire):
    """The definitions ``target`` named, each with its ``source``, direct callers and callees."""

    symbols: list[SymbolDetail]
    steps: list[Step]


class ImpactResponse(Wire):
    """The blast radius: ``markdown`` (the report ``ripple impact`` prints) and ``report`` (the same
    as data, as ``ripple impact --json``)."""

    markdown: str
    report: dict[str, Any]
    steps: list[Step]
