"""Store contracts: the records the indexer writes and the two stores every backend implements.

Structure lives in a :class:`GraphStore` (traversed), meaning in a :class:`SearchIndex` (ranked).
Every method takes lists and returns dicts or lists: one call per step, never one per hit. Backends
convert their driver's exceptions into :mod:`stores.errors` at the boundary.

Identifiers: a node's ``id`` is its FQN, unique per repository and stable across runs:
``repo:path/without/suffix.Qual.name(sig)`` for callables (``sig`` is the parameter types in Java,
the arity elsewhere), ``repo:path/without/suffix.Qual.name`` for types and fields, ``repo:path`` for a
File. Lines are 1-based; columns 0-based code points.
"""

from __future__ import annotations

import abc
import contextlib
import copyreg
import operator
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from stores.errors import QueryFailed
from stores.endpoint_ids import (BROKERS, GRAPHQL_OPERATIONS, GRPC_METHOD, declared_route, endpoint_id,  # re-exported
                                 graphql_operation, normalise_graphql_field, normalise_grpc_path, normalise_path,
                                 topic_id, topic_parts, unlinked_id, UNLINKED_PREFIX,
                                 UNLINKED_REASONS)
from stores.symbol_names import (SymbolNameIndex, best_symbol_names, query_parts, symbol_match_rank,  # re-exported
                                 symbol_parts)
from stores.table_ids import DEFAULT_SCHEMAS, column_id, table_id, table_key  # re-exported

__all__ = [
    "CODE_UNIT_KINDS",
    "NODE_LABELS",
    "EDGE_KINDS",
    "RESOLUTIONS",
    "EDGE_THIS",
    "EDGE_RECEIVER",
    "EDGE_APP",
    "RECEIVER_OF_CALLEE",
    "RECEIVER_OF_CALLER",
    "id_owner",
    "receiver_value",
    "edge_receiver",
    "APPLICATIONS_PROP",
    "Node",
    "SymbolRef",
    "SymbolKey",
    "qualname_agrees",
    "Edge",
    "UnresolvedCall",
    "Chunk",
    "FileRecord",
    "IndexedFile",
    "restore_node",
    "restore_edge",
    "restore_unresolved",
    "restore_chunk",
    "new_node",
    "new_edge",
    "new_unresolved",
    "SearchFilters",
    "ScoredChunk",
    "GraphStore",
    "SearchIndex",
    "symbol_parts",
    "query_parts",
    "symbol_match_rank",
    "best_symbol_names",
    "SymbolNameIndex",
    "SHARED_LABELS",
    "normalise_path",
    "GRAPHQL_OPERATIONS",
    "graphql_operation",
    "normalise_graphql_field",
    "GRPC_METHOD",
    "normalise_grpc_path",
    "endpoint_id",
    "declared_route",
    "topic_id",
    "unlinked_id",
    "UNLINKED_PREFIX",
    "UNLINKED_REASONS",
    "topic_parts",
    "BROKERS",
    "DEFAULT_SCHEMAS",
    "table_key",
    "table_id",
    "column_id",
    "RepositoryRecord",
    "REPOSITORY_COUNTS",
]

CODE_UNIT_KINDS = ("method", "class", "function")
"""Chunk kinds embedded first (:meth:`SearchIndex.pending_chunks`)."""

NODE_LABELS = (
    "Repository", "File", "Class", "Interface", "Enum", "Method", "Function", "Constructor", "Field",
    "Endpoint", "Topic", "Table", "Column", "Unlinked",
)
EDGE_KINDS = (
    "CONTAINS", "CALLS", "EXTENDS", "IMPLEMENTS", "OVERRIDES", "INJECTS", "USES_TYPE",
    "EXPOSES", "CALLS_HTTP", "PRODUCES", "CONSUMES", "WRAPS", "DECLARES", "ENTRY", "MENTIONS",
    "HAS_COLUMN", "READS", "WRITES", "REFERENCES", "UNLINKED",
)
# REFERENCES: code -> a function or method it names as a value without calling it (handed as an
# argument, assigned, put in a list or dict, returned: ``sorted(xs, key=by_name)``,
# ``view_func=index``), at the name; owned by the file where it is written, no ``resolution`` (it
# is no call: callers and the blast radius read CALLS, ``references`` reads both).
# MENTIONS: a documentation or configuration file -> a symbol or table one of its chunks names in a
# code span (indexer/mentions.py), at the line of the mention.
# DECLARES: a GraphQL schema file's field -> the Endpoint of the operation it declares (kept even
# when no resolver EXPOSES it). ENTRY: a self-edge ``src == dst`` on code that something outside
# the code runs without a decorator on it (a Celery beat schedule, ``scheduler.add_job(f)``,
# ``cron.schedule(..., f)``, argparse ``set_defaults(func=f)``, a console script, a
# ``__main__`` block, a Spring ``CommandLineRunner``), owned by the file that registers it, with
# ``props["kind"]`` (``scheduled`` | ``cli`` | ``main``), ``props["framework"]`` and
# ``props["name"]`` (schedule, command or script name; may be empty).
# Data layer (indexer.frameworks.tables): Table{name, schema} and Column{name, type} nodes, one per
# repository + schema + lowercased name (ids ``table:<repo>:<schema>.<name>``,
# ``column:<repo>:<schema>.<table>.<column>``), shared like Endpoints; DECLARES goes from the
# entity class or the schema file to its Table, HAS_COLUMN from a Table to its Columns, READS /
# WRITES from a function or method to a Table with props ``framework``, ``resolution``
# (``exact`` | ``inferred``) and ``columns`` (when known).
# Nodes no file owns: Endpoint and Topic nodes are shared by every file (of any repository) whose
# edges point to them. They have ``repo == file == ""``; a backend upserts them by id and removes one
# when no edge touches it any more.
# UNLINKED: code -> the shared ``Unlinked`` node of a reason (``unlinked:url``, :func:`unlinked_id`): a
# client call (HTTP request, gRPC stub call, GraphQL operation, queue use) the framework linker could
# not join to any endpoint or topic, at the call, owned by the calling file, with props ``call`` (what
# the call names as far as it is known: ``POST http://{}``, ``GRPC Orders/Get``, ``celery shop.cleanup``),
# ``framework`` and, when the linker had some, ``candidates`` (the nearest endpoints or topics it
# could not choose between or that nearly matched). Read by :mod:`analysis.unlinked`; no walk follows it.
SHARED_LABELS = ("Endpoint", "Topic", "Table", "Column", "Unlinked")
# How a CALLS edge was bound (design: exact = import/type known; inferred = receiver type inferred or
# reached through inheritance; name = short name + arity fallback).
RESOLUTIONS = ("exact", "inferred", "name")


@dataclass(frozen=True, slots=True)
class Node:
    """A graph node. ``label`` is one of :data:`NODE_LABELS`. ``qualname`` is the dotted name inside
    its file (``Outer.Inner.method``; the path for a File). ``props`` holds label-specific
    properties: ``signature``, ``arity``, ``min_arity``, ``max_arity``, ``modifiers``, ``decorators``,
    ``type`` (fields), ``language``, ``checksum`` (files) — JSON-serialisable values only."""

    id: str
    label: str
    name: str
    qualname: str
    repo: str
    file: str
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    props: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


class SymbolRef(NamedTuple):
    """Where a node is, without its properties (:meth:`GraphStore.find_symbol_refs`): its ``id``, ``repo``,
    ``file`` and dotted ``qualname``, enough to order and filter same-name definitions before reading
    the few that are needed with :meth:`GraphStore.get_nodes`."""

    id: str
    repo: str
    file: str
    qualname: str


class SymbolKey(NamedTuple):
    """A node's names without its position or other properties (:meth:`GraphStore.find_symbol_keys`):
    ``id``, ``label``, short ``name``, dotted ``qualname``, ``repo``, ``file``, and ``module`` (its
    ``props["module"]`` as text, ``""`` when it has none), enough to tell which node a qualified name
    written in a document means (``indexer.mentions``)."""

    id: str
    label: str
    name: str
    qualname: str
    repo: str
    file: str
    module: str

    @classmethod
    def of(cls, node: Node) -> SymbolKey:
        """The key of ``node``."""
        module = node.props.get("module")
        return cls(node.id, node.label, node.name, node.qualname, node.repo, node.file, str(module) if module else "")


def qualname_agrees(qualname: str, tail: str) -> bool:
    """Whether a dotted ``qualname`` and a dotted name ``tail`` agree on their common end, whole
    parts only: one is the other or ends with ``"." +`` the other (``Model.save`` agrees with
    ``Model.save``, ``base.Model.save`` and ``save``, not with ``odel.save`` or ``Other.save``);
    ``tail == ""`` agrees with every qualname."""
    return (not tail or qualname == tail or tail.endswith("." + qualname) or qualname.endswith("." + tail))


EDGE_THIS = "this"
"""A CALLS edge's property (``1``): the call is on the caller's own instance (``this.step()``, a bare
``step()`` in Java, ``self.step()``, ``super.step()``), so the callee's ``this`` is the caller's."""
EDGE_RECEIVER = "recv"
"""A CALLS edge's property: the class the receiver is known to be an instance of (or of a subclass of)
when the edge is taken, set only where that is not the callee's own static receiver class: an inherited
method called on a subclass's instance (``new LogHandler().run()`` binding ``Handler.run``), or an
override a call on ``this`` dispatches to (``afterInsert()`` in ``Handler.run`` reaching
``LogHandler.afterInsert``: the override's class); on an EXPOSES edge from an inherited handler, the
view class it serves the route for. Written compactly (:func:`receiver_value`, read back with
:func:`edge_receiver`). The impact walk reads both (:mod:`analysis.receivers`)."""
EDGE_APP = "app"
"""A CALLS_HTTP edge's property: the application (service name, as an EXPOSES edge's ``props["service"]``)
the request goes to because of where the client runs, not of what its URL names: a test's in-process
client (MockMvc, ``TestRestTemplate``, supertest on an app, Flask's ``test_client()``, Starlette's
``TestClient``, Django's test client) requests the application holding the test. Such a client reaches,
of an endpoint several applications serve, only the handlers of that application; of one its application
does not serve (a controller of a library module), every handler, as a client naming no service
(:func:`analysis.services.scoped_out`)."""
RECEIVER_OF_CALLEE = "^"
RECEIVER_OF_CALLER = "<"
"""Compact :data:`EDGE_RECEIVER` values: the class owning the callee (the edge's ``dst``), the class
owning the caller (``src``)."""


def id_owner(node_id: str) -> str:
    """The id of the definition holding the definition ``node_id`` names (``repo:path.Class.run(1)`` ->
    ``repo:path.Class``): its id cut before the signature and the last name (member names hold no dot)."""
    cut = node_id.find("(")
    return (node_id if cut < 0 else node_id[:cut]).rpartition(".")[0]


def receiver_value(recv: str, src: str, dst: str, repo: str) -> str:
    """The :data:`EDGE_RECEIVER` value of class id ``recv`` on an edge ``src -> dst`` of ``repo``:
    :data:`RECEIVER_OF_CALLEE` / :data:`RECEIVER_OF_CALLER` when it is the class owning ``dst`` / ``src``
    (a dispatch's override, an inherited call on ``this``), else the id without ``repo:`` when in ``repo``:
    22,000 of Django's CALLS edges carry one, 80 bytes each written in full."""
    if recv == id_owner(dst):
        return RECEIVER_OF_CALLEE
    if recv == id_owner(src):
        return RECEIVER_OF_CALLER
    prefix = f"{repo}:"
    return recv[len(prefix):] if recv.startswith(prefix) else recv


def edge_receiver(e: Edge) -> str | None:
    """The class id :data:`EDGE_RECEIVER` of edge ``e`` names (:func:`receiver_value` read back), ``None``
    when it records none."""
    v = e.props.get(EDGE_RECEIVER) if e.props else None
    if not v:
        return None
    if v == RECEIVER_OF_CALLEE:
        return id_owner(e.dst)
    if v == RECEIVER_OF_CALLER:
        return id_owner(e.src)
    return v if ":" in v else f"{e.repo}:{v}"


@dataclass(frozen=True, slots=True)
class Edge:
    """A directed edge ``src -> dst`` of ``kind`` (one of :data:`EDGE_KINDS`).

    An edge is *owned* by the file it was found in (``repo`` / ``file``): replacing that file
    replaces its edges, wherever their ends live. ``line`` / ``col`` locate the occurrence (the call
    site for CALLS, the type mention for USES_TYPE) or are 0 when there is none (CONTAINS).
    ``resolution`` is set on CALLS (one of :data:`RESOLUTIONS`), ``None`` otherwise. ``props`` holds
    JSON-serialisable facts of service-boundary edges: ``framework`` on EXPOSES / CALLS_HTTP /
    PRODUCES / CONSUMES; on CALLS :data:`EDGE_THIS` and :data:`EDGE_RECEIVER` (where known); on CALLS_HTTP also ``url`` (the URL template as written) and ``service``
    (the host or service name the URL addresses, ``None`` for a relative URL). Every one of those four
    kinds has the method as ``src`` and the shared Endpoint / Topic node as ``dst``. ``WRAPS`` goes
    from cross-cutting code (a filter, middleware, interceptor, guard, hook, dependency, error handler:
    the function or method that runs) to an Endpoint it runs for, or to the handler of a route whose
    path is unknown values (no Endpoint; the handler is an ``http`` ENTRY node); props ``framework``, ``kind`` (one of
    ``indexer.model.WRAPPER_KINDS``), ``scope`` (``route`` | ``router`` | ``app``), ``path`` (the path
    limit, when any), ``service`` and, when the code cannot tell which of several functions runs (a
    factory returning one of them), ``match: "inferred"``; ``file`` / ``line`` are those of the
    registration.
    """

    kind: str
    src: str
    dst: str
    repo: str
    file: str
    line: int = 0
    col: int = 0
    resolution: str | None = None
    props: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class UnresolvedCall:
    """A call site nothing bound, kept so a later file can bind it: ``caller`` is the calling node's
    id, ``name`` / ``arity`` / ``receiver`` as in :class:`indexer.model.CallSite`."""

    caller: str
    name: str
    arity: int
    receiver: str | None
    repo: str
    file: str
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class Chunk:
    """A search chunk (design: search chunk). ``kind`` is ``method | class | function |
    file_section | config | sql | doc``; ``fqn`` names the graph node the chunk stands for (a File id
    for file sections). ``embedding`` is 384 floats or ``None`` until computed."""

    id: str
    repo: str
    product: str
    file: str
    language: str
    kind: str
    name: str
    fqn: str
    parent: str | None
    start_line: int
    end_line: int
    text: str
    checksum: str
    embedding: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class FileRecord:
    """Per-file bookkeeping: ``checksum`` is the hex SHA-256 of the file's bytes."""

    repo: str
    path: str
    language: str
    checksum: str
    size: int


@dataclass(slots=True)
class IndexedFile:
    """Everything the index holds for one file, written (and replaced) as one unit."""

    file: FileRecord
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    unresolved: list[UnresolvedCall] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    text: str | None = None
    """The file's source as indexed (decoded), kept so editors can open files of repositories that
    are not on their disk (``ripple:`` URIs); ``None`` keeps no text."""


REPOSITORY_COUNTS = ("files", "nodes", "edges", "chunks", "vectors")
"""The counts a :class:`RepositoryRecord` carries, in display order."""


@dataclass(frozen=True, slots=True)
class RepositoryRecord:
    """The registry entry of one indexed repository (design: the ``Repository`` node).

    ``key`` is the value every node, edge, file record and chunk of the repository carries in its
    ``repo`` field (and the prefix of its node ids): ``name`` for the repository's default branch,
    ``name@branch`` for another branch indexed beside it (ARCHITECTURE.md, "Repository registry").
    ``branch`` is the branch this entry stands for (``None``: not a git checkout, or a detached
    HEAD); ``default`` whether queries that name no branch read it. ``root`` is the absolute folder
    it was indexed from; ``remote`` / ``commit`` what git said at the last run (``None`` when not a
    git checkout). ``indexed_at`` is seconds since the epoch (UTC). ``counts`` maps each of
    :data:`REPOSITORY_COUNTS` to a number (missing ones count 0). ``props`` holds anything else
    (JSON values), such as the freshness data another front end records."""

    key: str
    name: str
    product: str
    root: str
    branch: str | None = None
    default: bool = True
    remote: str | None = None
    commit: str | None = None
    indexed_at: float = 0.0
    counts: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    props: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


APPLICATIONS_PROP = "applications"
"""Key of a registry entry's ``props`` holding the folders that name the repository's applications,
``{folder: name}`` (``""``: the root; written by the indexer from its service units and Spring modules,
:meth:`indexer.frameworks.link_options.LinkOptions.applications`; read by impact analysis,
:func:`analysis.services.application_of`)."""


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Restrict a search; ``None`` means no restriction on that field."""

    product: str | None = None
    repo: str | None = None
    language: str | None = None
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class ScoredChunk:
    """One ranked hit of one list (BM25 or kNN): ``rank`` is 1-based; ``score`` is the list's own
    score (higher is better; BM25 scores are positive)."""

    chunk_id: str
    score: float
    rank: int


class GraphStore(abc.ABC):
    """The code graph. Implementations must be safe to call from one thread at a time."""

    @abc.abstractmethod
    def replace_files(self, files: Sequence[IndexedFile]) -> None:
        """Replace, for each file, its File record, nodes, owned edges and unresolved calls.

        A file's old nodes that are absent from the new version go, with every edge that pointed to
        them from anywhere. Nodes of :data:`SHARED_LABELS` are upserted by id, belong to no file
        (``repo == file == ""``) and go when, after the call, no edge touches them. ``Edge.props``
        is stored and returned by :meth:`incoming` / :meth:`outgoing`. Each file is replaced atomically (a reader never sees half a file).
        Raises :class:`stores.errors.StoreUnavailable` when the backend cannot be reached.
        """

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """A ``with`` block whose writes (:meth:`replace_files`, :meth:`delete_files`, and the
        search index's when it is this object) commit together where the backend can (the embedded
        store: one transaction; readers see all of them or none). Default: nothing joins them, each
        call is its own transaction. The indexer writes a run in bounded batches inside one."""
        return contextlib.nullcontext()

    @abc.abstractmethod
    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Remove the files, their nodes, their owned edges and every edge into their nodes; shared
        nodes no edge touches any more go too."""

    @abc.abstractmethod
    def file_text(self, repo: str, path: str) -> str | None:
        """The source of an indexed file as it was indexed, or ``None`` (unknown file, or indexed
        without text)."""

    @abc.abstractmethod
    def file_checksums(self, repo: str) -> dict[str, str]:
        """``{path: checksum}`` of every indexed file of ``repo``."""

    @abc.abstractmethod
    def repos(self) -> list[str]:
        """Names of the repositories present in the store, sorted."""

    @abc.abstractmethod
    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node]:
        """``{id: Node}`` for the ids that exist; missing ids are absent from the dict."""

    @abc.abstractmethod
    def find_symbols(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[Node]]:
        """``{name: [Node]}`` for nodes whose short ``name`` equals one of ``names`` (case-sensitive),
        optionally restricted to ``labels``; each list sorted by id."""

    def find_symbol_refs(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[SymbolRef]]:
        """:meth:`find_symbols`' selection as :class:`SymbolRef` (same keys, same order by id), for a
        caller that reads only some of the nodes. The default projects :meth:`find_symbols`; a backend
        overrides it when it can skip reading the nodes' properties (the embedded store does)."""
        return {name: [SymbolRef(n.id, n.repo, n.file, n.qualname) for n in nodes]
                for name, nodes in self.find_symbols(names, labels).items()}

    def find_symbol_keys(
        self, keys: Sequence[tuple[str, str]], labels: Sequence[str] | None = None, *, limit: int | None = None,
        skip_repo: str = "", skip_files: Iterable[str] = (),
    ) -> dict[tuple[str, str], list[SymbolKey]]:
        """``{(name, tail): [SymbolKey]}`` for each key of ``keys``: the nodes whose short ``name``
        equals ``name`` (case-sensitive) and whose qualname agrees with the dotted ``tail`` on their
        common end (:func:`qualname_agrees`; ``tail == ""``: any), optionally restricted to
        ``labels``, leaving out the nodes of repository ``skip_repo`` (when not empty) whose file is
        one of ``skip_files``; each list sorted by id and cut to its first ``limit`` nodes (``None``:
        all). For a caller that needs only a node's names, and for a common name only whether it has
        more than ``limit - 1`` nodes: what it reads is bounded by ``limit`` and by the tails, not by
        the store. The default filters :meth:`find_symbols`; a backend overrides it when it can
        select, cut and skip the nodes' properties in the query (the embedded store does)."""
        skip = set(skip_files) if skip_repo else set()
        found = self.find_symbols(sorted({name for name, _ in keys}), labels)
        out: dict[tuple[str, str], list[SymbolKey]] = {}
        for name, tail in keys:
            hits = [SymbolKey.of(n) for n in found.get(name, ())
                    if qualname_agrees(n.qualname, tail) and not (n.repo == skip_repo and n.file in skip)]
            out[(name, tail)] = hits[:limit] if limit is not None else hits
        return out

    @abc.abstractmethod
    def nodes_in_file(self, repo: str, path: str) -> list[Node]:
        """Every node of the file (File node first, then by start line, start col, id)."""

    @abc.abstractmethod
    def labelled(self, labels: Sequence[str], limit: int | None = None) -> list[Node]:
        """The nodes of the given labels (``["Endpoint"]``: every route of the index), sorted by
        (label, name, id), at most ``limit`` of them (``None``: all; no labels or ``limit <= 0``: ``[]``)."""

    @abc.abstractmethod
    def incoming(
        self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
    ) -> dict[str, list[Edge]]:
        """``{dst_id: [Edge]}``: edges of the given kinds ending at each id, sorted by
        (repo, file, line, col, src). ``resolutions`` restricts CALLS edges by how they were bound."""

    @abc.abstractmethod
    def outgoing(
        self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
    ) -> dict[str, list[Edge]]:
        """``{src_id: [Edge]}``: edges of the given kinds leaving each id, same order as incoming."""

    def incoming_counts(self, groups: Mapping[str, Sequence[str]], kinds: Sequence[str]) -> dict[str, int]:
        """``{key: n}`` for every key of ``groups`` (``{key: [node id]}``): how many distinct
        ``(kind, src)`` pairs the edges of ``kinds`` ending at any id of the key's group have (a
        definition's callers, subclasses, overrides; a class's with its constructors'). The default
        counts :meth:`incoming`'s edges; a backend overrides it when it can count without reading them
        (the embedded store does: a popular name's definitions have thousands of callers)."""
        found = self.incoming(sorted({i for ids in groups.values() for i in ids}), kinds)
        return {key: len({(e.kind, e.src) for i in ids for e in found.get(i, [])}) for key, ids in groups.items()}

    def incoming_window(self, ids: Sequence[str], kinds: Sequence[str], limit: int,
                        repos: Collection[str] | None = None) -> dict[str, tuple[int, list[Edge]]]:
        """``{dst_id: (n, edges)}`` for every id: how many edges of ``kinds`` end there (owned by one of
        ``repos`` when given) and the first ``limit`` of them in :meth:`incoming`'s order: a page of a
        shared node's edges (a reason of 100,000 unlinked calls) without reading the rest. The default
        reduces :meth:`incoming`; a backend overrides it when it can count and cut in the query (the
        embedded store does). Raises ``ValueError`` for a ``limit`` below 0."""
        if limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit!r}")
        found = self.incoming(ids, kinds)
        out: dict[str, tuple[int, list[Edge]]] = {}
        for i in ids:
            es = [e for e in found.get(i, ()) if repos is None or e.repo in repos]
            out[i] = (len(es), es[:limit])
        return out

    def incoming_summary(self, ids: Sequence[str], kinds: Sequence[str], prop: str | None = None
                         ) -> dict[str, set[tuple[str, str, str]]]:
        """``{dst_id: {(kind, repo, value)}}`` for every id (an empty set when none): the distinct
        (kind, owning repository, ``str`` of the edge's ``prop`` property, ``""`` when absent or
        ``prop`` is ``None``) of the edges of ``kinds`` ending there: what :meth:`incoming` says about
        who touches each id, without its edges (an endpoint list filters 100,000 endpoints this way
        and reads the edges of the ones it shows). The default reduces :meth:`incoming`; a backend
        overrides it when it can select the distinct triples in the query (the embedded store does)."""
        found = self.incoming(ids, kinds)
        return {i: {(e.kind, e.repo, "" if prop is None or e.props.get(prop) is None else str(e.props[prop]))
                    for e in found.get(i, ())} for i in ids}

    @abc.abstractmethod
    def search_symbols(self, query: str, limit: int) -> list[Node]:
        """Up to ``limit`` code nodes (every label but File, Repository and :data:`SHARED_LABELS`) whose short ``name``
        matches ``query``, best first (workspace symbol search).

        Matching rule (:func:`symbol_match_rank`): the query and each name are cut into lowercased
        *parts* at non-alphanumeric characters (spaces, ``_``, ``.``) and camel humps
        (``OwnerController`` -> ``owner``, ``controller``; ``HTTPServer`` -> ``http``, ``server``;
        leading underscores ignored; in the query every capital starts a part: ``OC`` -> ``o``,
        ``c``). A name matches when either the query's alphanumeric text,
        lowercased, is a prefix of the name's alphanumeric text lowercased (``ownercon``), or the
        query's parts are case-insensitive prefixes of the name's parts *in order*, the first query
        part matching the name's first part and later ones any later part (``OwnCon``,
        ``owner con`` and ``OC`` find ``OwnerController``; ``Con`` and ``ctrl`` do not). Fuzzy, as
        editors match: a name also matches when the query's letters, lowercased, appear in it in
        order and the first is the name's first letter (``mkresp`` finds ``make_response``, not
        ``remake_spouse``); an *abbreviation* (each run of letters starting a part: ``mk`` +
        ``resp``) ranks above a scattered *subsequence* (``mkresp`` in
        ``mark_expected_failures_and_skips``).

        Order: exact name (case-sensitive), then exact ignoring case, then prefix, then part match,
        then abbreviation, then subsequence; ties by name length, name, id. An empty or all-punctuation query, or ``limit <= 0``,
        returns ``[]``. A dotted query (``CartGateway.getCart``) first lists the nodes of that exact last
        name qualified as written (a factory's ``return`` segment unwritten): :mod:`stores.qualified_symbols`."""

    @abc.abstractmethod
    def unresolved_calls(self, names: Sequence[str]) -> dict[str, list[UnresolvedCall]]:
        """``{callee_name: [UnresolvedCall]}`` kept for the given short names."""

    @abc.abstractmethod
    def stats(self) -> dict[str, Any]:
        """Counts: ``{"files": {language: n}, "nodes": {label: n}, "edges": {kind: n},
        "calls_by_resolution": {resolution: n}, "unresolved_calls": n}``."""

    # ---------------------------------------------------------------- repository registry
    # Concrete defaults so that read-only views (a union of indexes, a counting wrapper, test
    # doubles) need not implement them; every backend does (tests/contract/test_registry.py).

    def upsert_repository(self, record: RepositoryRecord) -> None:
        """Create or replace the registry entry ``record.key`` (the ``Repository`` node). Raises
        :class:`stores.errors.QueryFailed` on a store that keeps no registry."""
        raise _no_registry(self)

    def repositories(self) -> list[RepositoryRecord]:
        """Every registry entry, sorted by (name, not default, branch, key). A store that keeps no
        registry raises :class:`stores.errors.QueryFailed`."""
        raise _no_registry(self)

    def remove_repository(self, key: str) -> bool:
        """Remove repository ``key`` whole, in one unit of work: its registry entry, file records,
        nodes (with every edge touching them, from any repository), owned edges and unresolved
        calls, and, in a store that is also the :class:`SearchIndex`, its chunks and their vectors;
        shared nodes no edge touches any more go too. Other repositories keep everything of theirs.
        Returns whether anything of ``key`` was there."""
        raise _no_registry(self)

    def repository_counts(self, key: str) -> dict[str, int]:
        """``{"files": n, "nodes": n, "edges": n}`` of repository ``key`` now (edges: those its
        files own)."""
        raise _no_registry(self)

    def version_token(self) -> str | None:
        """A value that changes whenever the store's content may have changed since the last call:
        a write by this instance, or a commit by another connection or process; reads never change
        it. Cheap enough to poll (the language server does, about twice a second, to refresh code
        lenses after another process re-indexed). ``None``, the default, when the backend cannot
        tell: then it is ``None`` always."""
        return None

    def close(self) -> None:
        """Release connections; the default does nothing."""


class SearchIndex(abc.ABC):
    """The chunk index: BM25 over an analysed ``name`` (x3), ``fqn`` (x2) and ``text`` (x1), and dense
    kNN over normalised 384-d embeddings. Fusion (RRF) happens above the backends."""

    @abc.abstractmethod
    def replace_chunks(self, files: Sequence[IndexedFile]) -> None:
        """Replace every chunk of each file with ``IndexedFile.chunks`` (atomically per file)."""

    def chunk_basis(self) -> Any:
        """The :class:`stores.chunk_prep.ChunkBasis` a chunk write computed ahead needs (next rowid,
        reference length, weights), or ``None`` (the default): this backend takes nothing ahead."""
        return None

    def offer_prepared(self, take: Any) -> None:
        """Offer the next chunk write ``take()``, a :class:`stores.chunk_prep.PreparedChunks` or ``None``,
        called when it is needed; used only if exactly what that write computes. Default: ignored."""

    def adopt_maxima(self, fold: Any) -> bool:
        """Write a :class:`stores.chunk_prep.FoldedMaxima`, block maxima of chunk writes of the open
        transaction that a preparer held (:attr:`stores.chunk_prep.PreparedChunks.held`) and folded;
        ``True`` when written. Default: ``False`` (this backend owes none: it takes nothing ahead)."""
        return False

    @abc.abstractmethod
    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Remove every chunk of the files (files deleted from the repository). A backend that is also
        the :class:`GraphStore` removes their graph in the same call (the embedded store does)."""

    @abc.abstractmethod
    def bm25(self, query: str, limit: int, filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Best ``limit`` chunks by BM25 for the terms :func:`stores.analyzer.query_terms` finds in
        ``query`` (its analysed tokens less its stop words), best first. An empty or all-punctuation query
        returns ``[]``."""

    @abc.abstractmethod
    def knn(self, vector: Sequence[float], limit: int, filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Nearest ``limit`` embedded chunks by cosine similarity, best first (``[]`` if none)."""

    @abc.abstractmethod
    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """``{id: Chunk}`` for the ids that exist."""

    @abc.abstractmethod
    def set_embeddings(self, vectors: dict[str, Sequence[float]]) -> None:
        """Store embeddings by chunk id; unknown ids are ignored."""

    @abc.abstractmethod
    def pending_chunks(self, limit: int) -> list[Chunk]:
        """Up to ``limit`` chunks that have no embedding yet, one per distinct text (``checksum``):
        chunks of :data:`CODE_UNIT_KINDS` first (what code search asks for most: the model's time goes
        to them before file sections, configuration and documents), shortest text first within each
        group (so embedding batches hold texts of similar length)."""

    @abc.abstractmethod
    def set_embedding_model(self, model: str) -> bool:
        """Record which model the embeddings come from. When another model was recorded, every
        embedding (and any cache of them) is dropped and ``True`` returned: vectors of two models
        cannot be compared."""

    @abc.abstractmethod
    def chunk_count(self, repo: str | None = None) -> dict[str, int]:
        """``{"chunks": n, "embedded": m}``: of the whole index, or of repository ``repo`` only."""

    def delete_repository(self, repo: str) -> int:
        """Remove every chunk (and its vector) of repository ``repo`` (exactly that ``repo`` value,
        no prefix or pattern); returns how many went. Raises :class:`stores.errors.QueryFailed` on an
        index that cannot."""
        raise _no_registry(self)

    def repository_chunk_count(self, repo: str) -> dict[str, int]:
        """``{"chunks": n, "embedded": m}`` of repository ``repo``."""
        raise _no_registry(self)

    # Vectors of additional models (an ensemble search): optional; a backend that keeps only its own
    # model's vectors raises QueryFailed from each (stores.model_vectors documents the embedded one).

    def set_model_embeddings(self, model: str, vectors: dict[str, Sequence[float]]) -> None:
        """Store vectors of the additional model ``model`` (its id) by chunk id; unknown ids are ignored."""
        raise _no_models(self)

    def pending_model_chunks(self, model: str, limit: int) -> list[Chunk]:
        """Up to ``limit`` chunks without a vector of ``model``, one per distinct text, code units first."""
        raise _no_models(self)

    def model_chunk_count(self, model: str) -> int:
        """How many chunks have a vector of ``model``."""
        raise _no_models(self)

    def prune_model_vectors(self, model: str, keep_prefix: str | None = None) -> int:
        """Drop ``model``'s vectors of texts no chunk holds (and other ids starting with ``keep_prefix``)."""
        raise _no_models(self)

    def model_knn(self, model: str, vector: Sequence[float], limit: int,
                  filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Nearest ``limit`` chunks by ``model``'s vectors, best first (``[]`` if none)."""
        raise _no_models(self)

    def close(self) -> None:
        """Release connections; the default does nothing."""


def _no_models(store: object) -> Exception:
    """The error of a search index that keeps one model's vectors only."""
    return QueryFailed(f"{type(store).__name__} keeps the vectors of one embedding model only: an ensemble search "
                       "(--models, [search] models) needs the embedded search index")


def _no_registry(store: object) -> Exception:
    """The error of a store that keeps no repository registry."""
    return QueryFailed(f"{type(store).__name__} keeps no repository registry")


def _restorer(cls: type, name: str) -> Callable[..., Any]:
    """A module-level function ``name`` of this module that builds a ``cls`` (a slotted dataclass) from
    its field values in order, as :meth:`pickle.Unpickler.load` calls it for a record pickled by
    :func:`_pickle_by_fields`: the same object as ``cls(*values)`` (equal, same hash, same repr), without
    a frozen ``__init__``'s ``object.__setattr__`` call per field.

    It fills a mutable twin of ``cls`` (the same slots in the same order, so the same layout) with the
    twin's plain ``__init__`` and then makes the object a ``cls`` by assigning ``__class__``, which Python
    allows between heap types of the same layout (checked here once: ``TypeError`` at import otherwise).
    No field default applies: a pickle holds every field. 3.5x faster than ``Node(*values)`` per object;
    the writer loads every file's resolved output (Django: 71,397 nodes, 253,138 edges, 50,820 chunks;
    docs/benchmarks.md, session 66, r66c)."""
    names = [f.name for f in fields(cls)]
    twin = dataclass(slots=True, repr=False, eq=False)(
        type(cls.__name__, (), {"__annotations__": dict.fromkeys(names, "object"), "__module__": __name__}))
    probe = twin(*names)
    probe.__class__ = cls  # the layouts agree, or TypeError now
    if tuple(getattr(probe, n) for n in names) != tuple(names):
        raise TypeError(f"{cls.__name__}: its twin does not keep its fields")

    def restore(*values: object) -> object:
        obj = twin(*values)
        obj.__class__ = cls
        return obj

    restore.__name__ = restore.__qualname__ = name
    restore.__module__ = __name__
    restore.__doc__ = f"A {cls.__name__} from its field values in order, as unpickling builds one (:func:`_restorer`)."
    return restore


def _pickle_by_fields(cls: type, restore: Callable[..., Any] | None = None) -> None:
    """Pickle ``cls`` as a call of ``restore`` (``cls`` itself by default) on its field values in order: a
    slotted dataclass otherwise pickles through Python ``__getstate__`` / ``__setstate__`` functions per
    object. An index run pickles every file's output at least three times (spilled when made, read back
    to compare and to write: :mod:`indexer.spill`), and the workers' chunks once: about 1.5x faster both
    ways.

    The reducer is both ``cls.__reduce__`` (what :mod:`copy` finds) and registered in
    :data:`copyreg.dispatch_table`, which the C pickler looks up by type before ``__reduce_ex__``: the
    same tuple, so the same bytes, without ``object.__reduce_ex__`` finding and binding ``__reduce__``
    per object (as :func:`indexer.model_pickling.pickle_by_fields` does for the extraction records)."""
    get = operator.attrgetter(*(f.name for f in fields(cls)))
    build = cls if restore is None else restore

    def __reduce__(self: object) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return (build, get(self))

    cls.__reduce__ = __reduce__  # type: ignore[method-assign,assignment]
    copyreg.pickle(cls, __reduce__)


restore_node = _restorer(Node, "restore_node")
restore_edge = _restorer(Edge, "restore_edge")
restore_unresolved = _restorer(UnresolvedCall, "restore_unresolved")
restore_chunk = _restorer(Chunk, "restore_chunk")
# The cheap constructors of the records a run builds by the hundred thousand (the resolver's output and
# its unbound call sites, the linkers' nodes and edges, the doc mentions): every field given in order,
# ``props`` included (a dict of the record's own, as the default factory would give), no default
# applied. The same objects as ``Node(...)`` / ``Edge(...)`` / ``UnresolvedCall(...)`` (equal, same
# hash, repr and pickle bytes, still frozen) without the frozen ``__init__``'s ``object.__setattr__`` per
# field (docs/benchmarks.md, session 67, cpu67b).
new_node = restore_node
new_edge = restore_edge
new_unresolved = restore_unresolved
_pickle_by_fields(Node, restore_node)
_pickle_by_fields(Edge, restore_edge)
_pickle_by_fields(UnresolvedCall, restore_unresolved)
_pickle_by_fields(Chunk, restore_chunk)
for _cls in (FileRecord, IndexedFile):
    _pickle_by_fields(_cls)
del _cls
