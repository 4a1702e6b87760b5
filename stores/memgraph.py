"""The team graph backend: a :class:`~stores.contracts.GraphStore` over Bolt and openCypher.

:class:`MemgraphGraphStore` talks to Memgraph (the design's team store: one instance, or one database,
per product) through the official ``neo4j`` driver. It keeps to the Cypher subset that Memgraph and
ArcadeDB (the Bolt + openCypher server the CI runs the contract suite against) both accept:
``UNWIND`` / ``MERGE`` / ``CREATE`` / ``SET``, ``MATCH`` / ``OPTIONAL MATCH``, ``WITH ... WHERE``,
``collect`` / ``count`` / ``coalesce`` / ``type``, parameters for every value; writes go in ``UNWIND``
batches of at most :data:`BATCH_ROWS` rows (and about :data:`BATCH_BYTES` of parameters).

Graph layout in the server::

    (:Node {id, label, name, qualname, repo, file, fk, start_line, start_col, end_line, end_col,
            props, sym})                       every code node, Endpoint and Topic
    (:Node)-[:CALLS|CONTAINS|... {fk, repo, file, line, col, resolution, props}]->(:Node)
    (:IndexedFile {fk, repo, path, language, checksum, size, text, srcs})
    (:UnresolvedCall {fk, caller, name, arity, receiver, repo, file, line, col})
    (:RippleMeta {key: "schema", version})    (:Repository {key, ...}): stores.bolt_registry

* A node's kind is its ``label`` *property*, not a graph label: a node changes kind (a stub becomes
  a Method, a Class becomes an Interface) with a property update. ArcadeDB implements a label change
  as a new record and refuses it on a record the same transaction already touched (a unique-key
  violation), which a replace transaction always does. Query ``MATCH (n:Node {label: 'Method'})``.
* ``fk`` is the owning file's key, the JSON text of ``[repo, path]``; shared nodes
  (:data:`~stores.contracts.SHARED_LABELS`) have none and ``repo = file = ""`` whatever the record
  says: they are upserted by id and deleted when no edge touches them any more.
* A *stub* is a ``(:Node {id})`` without ``label``: the end of an edge whose node is not written yet
  (the pipeline writes a repository in batches of files, and an edge may point into a later batch).
  Writing the node fills the stub in; readers never see stubs; a stub no edge touches is deleted.
* ``props`` (nodes and edges) is the JSON text of the record's ``props`` (absent when empty), so
  values round-trip exactly. ``sym`` is the bucket :meth:`search_symbols` reads (the first character
  of the name's first lowercased part; absent on File, Repository, Endpoint and Topic nodes, which
  are not code symbols).
* ``srcs`` lists the sources of the file's edges: replacing the file finds its old edges from those
  nodes (an index lookup each) instead of scanning every relationship.

Dialects (the DDL table :data:`DDL`, run once per store in auto-commit: Memgraph refuses index
changes inside explicit transactions): ``"memgraph"`` (``CREATE INDEX ON :L(p)``, ``ASSERT ... IS
UNIQUE``) and ``"neo4j"`` (``CREATE INDEX IF NOT EXISTS FOR (n:L) ON (n.p)``, ``REQUIRE ... IS
UNIQUE``; ArcadeDB and Neo4j). ``dialect="auto"`` reads the server agent of the Bolt handshake:
``memgraph`` in it (Memgraph's default ``Neo4j/v5.11.0 compatible graph database server -
Memgraph``) selects ``"memgraph"``, anything else (ArcadeDB's ``Neo4j/5.26.0 compatible (ArcadeDB
...)``) ``"neo4j"``. A Memgraph started with another ``--bolt-server-name-for-init`` needs
``dialect="memgraph"`` in the configuration. The unique constraint on ``Node.id`` matters: without
it, concurrent ``MERGE`` on ArcadeDB creates duplicate nodes.

Round trips: every contract method is one query per step for all its inputs (lists in, dicts out);
inputs over :data:`BATCH_ROWS` are split into batches that run concurrently. All requests of one store
pass one semaphore of ``max_concurrency`` slots (default 16; the driver's connection pool has the same
size). :attr:`MemgraphGraphStore.round_trips` counts the queries sent. Writes: one explicit transaction
per :meth:`~MemgraphGraphStore.replace_files` / :meth:`~MemgraphGraphStore.delete_files` call, so
a reader never sees half a file (retried whole on transient conflicts and on a unique-key race with
a concurrent writer). ArcadeDB never answers a Bolt message over 16 MiB, so batches are also cut at
:data:`BATCH_BYTES`.

Errors: driver exceptions become :mod:`stores.errors` at the boundary: an unreachable server, refused
credentials or an unknown database raise :class:`~stores.errors.StoreUnavailable` naming the URI and
the fix; a graph written by another schema version :class:`~stores.errors.StoreOutdated`; anything
else :class:`~stores.errors.QueryFailed`.
"""

from __future__ import annotations

import functools
import json
import random
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase, NotificationMinimumSeverity
from neo4j import exceptions as neo4j_errors

from stores.bolt_registry import BoltRegistry
from stores.bolt_writes import BATCH_BYTES, BATCH_ROWS, BoltTx, WritePlan, batches, file_key, remove_old  # BATCH_*: re-exported
from stores.bolt_uri import parse_bolt_uri  # re-exported
from stores.contracts import (
    EDGE_KINDS,
    Edge,
    GraphStore,
    IndexedFile,
    Node,
    UnresolvedCall,
    query_parts,
    best_symbol_names,
)
from stores.errors import QueryFailed, StoreError, StoreOutdated, StoreUnavailable
from stores.qualified_symbols import with_qualified

__all__ = ["MemgraphGraphStore", "BATCH_ROWS", "BATCH_BYTES", "DDL", "DIALECTS", "SCHEMA_VERSION", "parse_bolt_uri"]

SCHEMA_VERSION = 1
"""Version of the graph layout above; a graph of another version raises StoreOutdated."""

DIALECTS = ("memgraph", "neo4j")

DDL: dict[str, tuple[str, ...]] = {
    # Memgraph: a unique constraint does not create an index, so both are declared. Re-creating an
    # existing index or constraint is answered with a notification, not an error.
    "memgraph": (
        "CREATE INDEX ON :Node(id)",
        "CREATE CONSTRAINT ON (n:Node) ASSERT n.id IS UNIQUE",
        "CREATE INDEX ON :Node(fk)",
        "CREATE INDEX ON :Node(name)",
        "CREATE INDEX ON :Node(sym)",
        "CREATE INDEX ON :IndexedFile(fk)",
        "CREATE CONSTRAINT ON (f:IndexedFile) ASSERT f.fk IS UNIQUE",
        "CREATE INDEX ON :IndexedFile(repo)",
        "CREATE INDEX ON :UnresolvedCall(fk)",
        "CREATE INDEX ON :UnresolvedCall(name)",
        "CREATE INDEX ON :RippleMeta(key)",
        "CREATE INDEX ON :Repository(key)",
    ),
    # Neo4j 5 syntax, which ArcadeDB accepts; a unique constraint brings its own index.
    "neo4j": (
        "CREATE CONSTRAINT IF NOT EXISTS FOR (n:Node) REQUIRE n.id IS UNIQUE",
        "CREATE INDEX IF NOT EXISTS FOR (n:Node) ON (n.fk)",
        "CREATE INDEX IF NOT EXISTS FOR (n:Node) ON (n.name)",
        "CREATE INDEX IF NOT EXISTS FOR (n:Node) ON (n.sym)",
        "CREATE CONSTRAINT IF NOT EXISTS FOR (f:IndexedFile) REQUIRE f.fk IS UNIQUE",
        "CREATE INDEX IF NOT EXISTS FOR (f:IndexedFile) ON (f.repo)",
        "CREATE INDEX IF NOT EXISTS FOR (u:UnresolvedCall) ON (u.fk)",
        "CREATE INDEX IF NOT EXISTS FOR (u:UnresolvedCall) ON (u.name)",
        "CREATE INDEX IF NOT EXISTS FOR (m:RippleMeta) ON (m.key)",
        "CREATE INDEX IF NOT EXISTS FOR (r:Repository) ON (r.key)",
    ),
}

_UNIQUE_RETRIES = 8  # attempts after a unique-key race before the error goes to the caller


_NODE_RETURN = (
    "n.id, n.label, n.name, n.qualname, n.repo, n.file, n.start_line, n.start_col, n.end_line,"
    " n.end_col, n.props"
)
_EDGE_RETURN = "type(e), s.id, d.id, e.repo, e.file, e.line, e.col, e.resolution, e.props"
_UNRESOLVED_RETURN = "u.caller, u.name, u.arity, u.receiver, u.repo, u.file, u.line, u.col"

_T = TypeVar("_T")


def _node(row: Sequence[Any]) -> Node:
    return Node(*row[:10], props=json.loads(row[10]) if row[10] else {})


def _edge(row: Sequence[Any]) -> Edge:
    return Edge(*row[:8], props=json.loads(row[8]) if row[8] else {})


def _edge_key(e: Edge) -> tuple[Any, ...]:
    return (e.repo, e.file, e.line, e.col, e.src, e.dst, e.kind)


def _boundary(method: Callable[..., _T]) -> Callable[..., _T]:
    """Make sure the schema is in place, then map driver exceptions onto the store error tree
    (:meth:`MemgraphGraphStore._guarded`)."""

    @functools.wraps(method)
    def wrapper(self: MemgraphGraphStore, *args: Any, **kwargs: Any) -> _T:
        return self._guarded(lambda: method(self, *args, **kwargs))

    return wrapper


class MemgraphGraphStore(BoltRegistry, GraphStore):
    """The graph contract on a Bolt + openCypher server (see the module docstring).

    ``MemgraphGraphStore(uri, user=None, password=None, database=None, dialect="auto",
    max_concurrency=16)``: ``uri`` is ``bolt://host:7687`` (``neo4j://`` and the ``+s`` / ``+ssc``
    TLS schemes work too); credentials and a database may also be written into it
    (``bolt://user:password@host:7687/database``), and then win over the arguments (a product's own
    URI is more specific than shared defaults). One store is one graph:
    configure one URI (or one database) per product. ``database=None`` uses the server's default
    (Memgraph community has only that one). ``dialect`` is ``"memgraph"``, ``"neo4j"`` (ArcadeDB,
    Neo4j) or ``"auto"`` (from the server agent). ``max_concurrency`` bounds the requests in flight
    (and the connection pool). ``connect_timeout`` / ``retry_time`` (seconds) bound a connection
    attempt (the TCP connect; with the Bolt handshake and login, three times that) and the driver's
    retries of a transaction; ``query_timeout`` (seconds, ``None``: no bound)
    is the longest the server may stay silent while answering one message (a frozen server raises
    :class:`~stores.errors.StoreUnavailable` after it instead of keeping the call waiting for ever).

    Nothing is sent until the first call (or :meth:`ping`); the first call creates the indexes and
    constraints of :data:`DDL` and checks :data:`SCHEMA_VERSION`. Raises ``ValueError`` for a bad URI,
    dialect or concurrency; the methods raise :mod:`stores.errors` exceptions.
    """

    def __init__(
        self,
        uri: str,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        dialect: str = "auto",
        max_concurrency: int = 16,
        *,
        connect_timeout: float = 5.0,
        retry_time: float = 5.0,
        query_timeout: float | None = 120.0,
    ) -> None:
        address, uri_user, uri_password, uri_database = parse_bolt_uri(uri)
        if dialect not in (*DIALECTS, "auto"):
            raise ValueError(f"unknown Bolt dialect {dialect!r}; expected one of {', '.join(DIALECTS)} or 'auto'")
        if not isinstance(max_concurrency, int) or max_concurrency < 1:
            raise ValueError(f"max_concurrency must be a positive integer, not {max_concurrency!r}")
        if query_timeout is not None and (
            isinstance(query_timeout, bool) or not isinstance(query_timeout, (int, float)) or not query_timeout > 0
        ):
            raise ValueError(f"query_timeout must be a positive number of seconds or None, not {query_timeout!r}")
        self.address = address
        self.database = uri_database if uri_database is not None else database
        base, query = address.partition("?")[::2]  # the routing context (neo4j://...?k=v) follows the path
        self.uri = (base if self.database is None else f"{base}/{self.database}") + (f"?{query}" if query else "")
        """The store's URI without credentials (used in messages)."""
        self.dialect: str | None = None if dialect == "auto" else dialect
        self.max_concurrency = max_concurrency
        self.round_trips = 0
        """Queries sent to the server so far (DDL and schema checks included)."""
        user = uri_user if uri_user is not None else user
        password = uri_password if uri_password is not None else password
        auth = (user or "", password or "") if (user or password) else None
        try:
            self._driver = GraphDatabase.driver(
                address,
                auth=auth,
                max_connection_pool_size=max_concurrency,
                connection_timeout=connect_timeout,
                # Bounds the handshake and login of a new connection too (connection_timeout covers
                # only the TCP connect): a server that accepts and then stays silent fails in 15 s.
                # Waiting for a pooled connection never happens: the semaphore admits at most
                # max_concurrency requests, the pool's size.
                connection_acquisition_timeout=3 * connect_timeout,
                max_transaction_retry_time=retry_time,
                warn_notification_severity=NotificationMinimumSeverity.OFF,
                user_agent="ripplegraph",
            )
        except neo4j_errors.ConfigurationError as exc:
            raise ValueError(f"cannot use Bolt URI {self.uri}: {exc}") from exc
        self.query_timeout = query_timeout
        self.read_timeout_bound = self._bound_reads(query_timeout)
        """Whether every connection gets ``query_timeout`` as its read timeout (see _bound_reads)."""
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._lock = threading.Lock()
        self._trip_lock = threading.Lock()
        self._ready = False
        self._closed = False
        self._pool: ThreadPoolExecutor | None = None

    # ----------------------------------------------------------------------------------- lifecycle

    def close(self) -> None:
        """Close the driver and the worker threads (idempotent); later calls raise StoreUnavailable.

        Requests already sent finish first (each is bounded by ``query_timeout``): the driver is not
        safe to close under a request in flight (it writes its goodbye into the middle of that
        request's message)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True  # requests not yet holding a slot now fail with "is closed"
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None
            for _ in range(self.max_concurrency):  # wait for every request in flight
                self._slots.acquire()
            try:
                self._driver.close()
            finally:  # a caller waiting for a slot gets one, and "is closed" from _session
                for _ in range(self.max_concurrency):
                    self._slots.release()

    def __enter__(self) -> MemgraphGraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _bound_reads(self, seconds: float | None) -> bool:
        """Give every connection the driver opens a read timeout of ``seconds``; returns whether it did.

        The neo4j driver has no client-side read timeout, only a server hint
        (``connection.recv_timeout_seconds``) that neither ArcadeDB nor Memgraph sends, so a server
        that stops answering (paused, swapping, a network lost without a reset) keeps a call waiting
        for ever, slot and lock held. The hook wraps the pool's connection opener and sets the
        timeout through the driver's own socket method (``set_read_timeout``, which the driver uses
        for that hint); a timed-out read makes the connection defunct, and the driver reports it as
        ServiceUnavailable / SessionExpired."""
        pool = getattr(self._driver, "_pool", None)
        opener = getattr(pool, "opener", None)
        if seconds is None or not callable(opener):
            return False

        def opener_with_read_timeout(*args: Any, **kwargs: Any) -> Any:
            connection = opener(*args, **kwargs)
            set_read_timeout = getattr(getattr(connection, "socket", None), "set_read_timeout", None)
            if set_read_timeout is not None:
                set_read_timeout(seconds)
            return connection

        pool.opener = opener_with_read_timeout
        return True

    def count_trip(self) -> None:
        """Count one round trip to the server (:attr:`round_trips`; :class:`stores.bolt_writes.BoltTx` calls it)."""
        with self._trip_lock:
            self.round_trips += 1

    def _session(self, write: bool) -> Any:
        if self._closed:
            raise StoreUnavailable(f"graph store {self.uri} is closed")
        return self._driver.session(
            database=self.database,
            default_access_mode=neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS,
            fetch_size=-1,  # the whole result in one round trip
        )

    def _guarded(self, work: Callable[[], _T]) -> _T:
        """``work()`` with the store's schema in place and driver exceptions mapped onto the store error
        tree: what every public method of the Bolt store runs in (its registry's too,
        :mod:`stores.bolt_registry`). A driver or socket error becomes the store's mapped
        :class:`~stores.errors.StoreError` (after a :class:`~stores.errors.StoreUnavailable` the next call
        sets the schema up again); a value the driver cannot encode, :class:`~stores.errors.QueryFailed`."""
        try:
            self._ensure_ready()
            return work()
        except StoreError:
            raise
        except (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError) as exc:
            error = self._map_error(exc)
            if isinstance(error, StoreUnavailable):
                # The server may come back empty (a Memgraph without persistence, a new ArcadeDB root):
                # the next call creates the indexes and the unique constraint again (idempotent).
                self._ready = False
            raise error from exc
        except (UnicodeError, OverflowError) as exc:  # the driver could not encode a value
            raise QueryFailed(
                f"graph store {self.uri}: a value cannot be sent over Bolt ({type(exc).__name__}: {exc});"
                " strings must be valid Unicode (no lone surrogates), integers must fit in 64 bits"
            ) from exc

    def _map_error(self, exc: BaseException) -> StoreError:
        """Translate a driver exception into the store error tree, saying how to fix it."""
        where = f"graph store {self.uri}"
        if isinstance(exc, neo4j_errors.AuthError):
            return StoreUnavailable(
                f"{where} refused the credentials ({exc.message}); set the Bolt user and password in the"
                " configuration (or in the URI: bolt://user:password@host:port)"
            )
        if _timed_out(exc):
            limit = "none" if self.query_timeout is None else f"{self.query_timeout:g} s"
            return StoreUnavailable(
                f"{where} stopped answering ({exc}: timed out); the server is overloaded, paused or cut"
                f" off: check it (`ripple doctor`); a slow server needs a longer query timeout (now {limit})"
            )
        if isinstance(exc, (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired, OSError)):
            return StoreUnavailable(
                f"{where} is unreachable ({exc}); start the server (docker/ has a compose file for"
                " Memgraph), or correct the Bolt URI in the configuration; `ripple doctor` checks it"
            )
        if isinstance(exc, neo4j_errors.ConfigurationError):
            return StoreUnavailable(f"{where} cannot be used: {exc}; correct the configuration")
        if isinstance(exc, neo4j_errors.Neo4jError):
            code = exc.code or ""
            if code.endswith("DatabaseNotFound") or "does not exist" in (exc.message or ""):
                return StoreUnavailable(
                    f"{where}: database {self.database!r} does not exist ({exc.message}); create it on"
                    " the server or correct the database name in the configuration"
                )
            if isinstance(exc, neo4j_errors.TransientError):
                return QueryFailed(f"{where} kept refusing a transaction ({code}: {exc.message}); retry later")
            return QueryFailed(f"{where} failed a query ({code}: {exc.message})")
        return QueryFailed(f"{where} failed a query ({type(exc).__name__}: {exc})")

    def _ensure_ready(self) -> None:
        """On first use: pick the dialect, create the indexes and constraints, check the schema
        version."""
        if self._ready:
            return
        with self._lock:
            if self._closed:
                raise StoreUnavailable(f"graph store {self.uri} is closed")
            if self._ready:
                return
            if self.dialect is None:
                self.dialect = self._detect_dialect()
            with self._slots, self._session(write=True) as session:
                for statement in DDL[self.dialect]:
                    self.count_trip()
                    try:
                        session.run(statement).consume()
                    except neo4j_errors.ClientError as exc:
                        if "already exists" in (exc.message or "").lower():
                            continue
                        if isinstance(exc, (neo4j_errors.AuthError, neo4j_errors.Forbidden)) or not (
                            (exc.code or "").endswith("SyntaxError") or "syntax" in (exc.message or "").lower()
                        ):
                            raise
                        other = next(d for d in DIALECTS if d != self.dialect)
                        raise QueryFailed(
                            f"graph store {self.uri} refused the {self.dialect!r} dialect's index statement"
                            f" {statement!r} ({exc.code}: {exc.message}); set the Bolt dialect to {other!r}"
                            " in the configuration if the server is "
                            + ("Neo4j or ArcadeDB" if other == "neo4j" else "Memgraph")
                        ) from exc
                self.count_trip()
                rows = session.run("MATCH (m:RippleMeta {key: 'schema'}) RETURN m.version").values()
                if not rows:
                    self.count_trip()
                    session.run(
                        "CREATE (:RippleMeta {key: 'schema', version: $v})", {"v": SCHEMA_VERSION}
                    ).consume()
                elif rows[0][0] != SCHEMA_VERSION:
                    raise StoreOutdated(
                        f"graph store {self.uri} holds a ripplegraph graph of schema version {rows[0][0]!r},"
                        f" this ripplegraph needs {SCHEMA_VERSION}; clear it (or use another database)"
                        " and run `ripple index` again"
                    )
            self._ready = True

    def _server_info(self) -> Any:
        """The server's ``ServerInfo`` (agent, protocol) from the summary of ``RETURN 1`` (the driver's
        ``get_server_info(database=...)`` is a preview feature that warns)."""
        with self._slots, self._session(write=False) as session:
            self.count_trip()
            result = session.run("RETURN 1 AS one")
            one = result.single()
            summary = result.consume()
        if one is None or one[0] != 1:
            raise StoreUnavailable(f"graph store {self.uri} answered RETURN 1 with {one!r}; is it an openCypher server?")
        return summary.server

    def _detect_dialect(self) -> str:
        info = self._server_info()
        return "memgraph" if "memgraph" in (info.agent or "").lower() else "neo4j"

    def ping(self) -> dict[str, Any]:
        """Check the server for ``ripple doctor``: ``{"uri", "database", "agent", "product",
        "version", "dialect", "protocol", "latency_ms"}`` (``version`` may be ``None`` when the server
        does not say). Raises :class:`~stores.errors.StoreUnavailable` with the reason and the fix when
        the server cannot be reached, refuses the credentials or has no such database; does not
        create the schema."""
        try:
            t0 = time.perf_counter()
            info = self._server_info()
            latency = (time.perf_counter() - t0) * 1000
            agent = info.agent or ""
            dialect = self.dialect or ("memgraph" if "memgraph" in agent.lower() else "neo4j")
            product, version = _product_version(agent)
            if dialect == "memgraph" and version is None:
                version = self._memgraph_version()
        except StoreError:
            raise
        except (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError) as exc:
            raise self._map_error(exc) from exc
        return {
            "uri": self.uri,
            "database": self.database,
            "agent": agent,
            "product": product,
            "version": version,
            "dialect": dialect,
            "protocol": ".".join(str(p) for p in info.protocol_version),
            "latency_ms": round(latency, 1),
        }

    def _memgraph_version(self) -> str | None:
        """Memgraph-only: ``SHOW VERSION`` (its agent string carries no version)."""
        try:
            with self._slots, self._session(write=False) as session:
                self.count_trip()
                rows = session.run("SHOW VERSION").values()
            return str(rows[0][0]) if rows else None
        except neo4j_errors.Neo4jError:
            return None

    @_boundary
    def clear(self) -> None:
        """Delete every ripplegraph node, edge, file record and unresolved call of this graph, in
        batches of :data:`BATCH_ROWS` nodes (the schema stays). For tests and full rebuilds."""
        for label in ("Node", "IndexedFile", "UnresolvedCall", "Repository"):
            while True:
                rows = self._write(
                    lambda tx, label=label: tx.rows(
                        f"MATCH (n:{label}) WITH n LIMIT {BATCH_ROWS} DETACH DELETE n RETURN count(*)"
                    )
                )
                if not rows or not rows[0][0]:
                    break

    # ------------------------------------------------------------------------------ plumbing

    def _read(self, query: str, **params: Any) -> list[list[Any]]:
        """One read query in its own managed transaction (retried by the driver when transient)."""
        with self._slots, self._session(write=False) as session:
            return session.execute_read(lambda tx: BoltTx(self, tx).rows(query, **params))

    def _read_batched(self, query: str, name: str, values: Sequence[Any], **params: Any) -> list[list[Any]]:
        """``query`` over ``values`` bound to ``$name`` in batches of BATCH_ROWS, run concurrently
        (bounded by the semaphore); rows of every batch, in batch order."""
        chunks = batches(list(values))
        if len(chunks) <= 1:
            return self._read(query, **{name: list(values)}, **params) if values else []
        results = self._executor().map(lambda c: self._read(query, **{name: list(c)}, **params), chunks)
        return [row for rows in results for row in rows]

    def _parallel(self, calls: Sequence[Callable[[], _T]]) -> list[_T]:
        return list(self._executor().map(lambda f: f(), calls))

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._closed:
                raise StoreUnavailable(f"graph store {self.uri} is closed")
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.max_concurrency, thread_name_prefix="ripple-bolt")
            return self._pool

    def _write(self, work: Callable[[BoltTx], _T]) -> _T:
        """Run ``work`` in one explicit write transaction, retried as a whole on transient errors (by
        the driver) and on unique-key violations: every key this backend creates is MERGEd, so a
        violation means a concurrent transaction created the same key first (ArcadeDB reports that
        at commit), and the retry finds it."""
        attempt = 0
        while True:
            try:
                with self._slots, self._session(write=True) as session:
                    return session.execute_write(lambda tx: work(BoltTx(self, tx)))
            except neo4j_errors.ClientError as exc:
                if not _unique_violation(exc):
                    raise
                attempt += 1
                if attempt > _UNIQUE_RETRIES:
                    raise
                time.sleep(min(1.0, 0.02 * 2**attempt) * (0.5 + random.random()))

    # ------------------------------------------------------------------------------------- writing

    @_boundary
    def replace_files(self, files: Sequence[IndexedFile]) -> None:
        """Replace, for every file, its file record, nodes, owned edges and unresolved calls, all
        files of the call in one transaction (the embedded backend's semantics).

        Old nodes of a file absent from the new version (and from every other file of the call) are
        deleted with every edge touching them (``DETACH DELETE``). Nodes are upserted by id (the last
        of a duplicated id wins); duplicate edges of one file are stored once; shared nodes
        (Endpoint, Topic) are upserted and deleted once no edge touches them. Edge kinds outside
        :data:`~stores.contracts.EDGE_KINDS` raise :class:`~stores.errors.QueryFailed` (a kind is
        part of the query text)."""
        by_key: dict[tuple[str, str], IndexedFile] = {}
        for f in files:
            by_key[(f.file.repo, f.file.path)] = f
        if not by_key:
            return
        plan = WritePlan(list(by_key.values()))
        self._write(plan.replace)

    @_boundary
    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Remove the files, their nodes (with every edge touching them), their owned edges and
        unresolved calls, in one transaction."""
        keys = [file_key(repo, p) for p in dict.fromkeys(paths)]
        if keys:
            self._write(lambda tx: remove_old(tx, keys, set(), delete_records=True))

    def _remove_file_keys(self, tx: BoltTx, keys: list[str]) -> None:  # delete_files' body, for stores.bolt_registry
        remove_old(tx, keys, set(), delete_records=True)

    # ------------------------------------------------------------------------------------- reading

    @_boundary
    def file_text(self, repo: str, path: str) -> str | None:
        """The file's source as indexed, or ``None``."""
        rows = self._read("MATCH (f:IndexedFile {fk: $k}) RETURN f.text", k=file_key(repo, path))
        return rows[0][0] if rows else None

    @_boundary
    def file_checksums(self, repo: str) -> dict[str, str]:
        """``{path: checksum}`` of every indexed file of ``repo``."""
        return {p: c for p, c in self._read("MATCH (f:IndexedFile {repo: $repo}) RETURN f.path, f.checksum", repo=repo)}

    @_boundary
    def repos(self) -> list[str]:
        """Repositories with an indexed file, sorted."""
        return sorted(r for (r,) in self._read("MATCH (f:IndexedFile) RETURN DISTINCT f.repo") if r is not None)

    @_boundary
    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node]:
        """``{id: Node}`` for the ids that exist (stubs do not); missing ids are absent."""
        rows = self._read_batched(
            f"UNWIND $ids AS i MATCH (n:Node {{id: i}}) WHERE n.label IS NOT NULL RETURN {_NODE_RETURN}",
            "ids", list(dict.fromkeys(ids)),
        )
        return {r[0]: _node(r) for r in rows}

    @_boundary
    def find_symbols(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[Node]]:
        """``{name: [Node]}`` for every requested name (``[]`` when none): nodes whose short name
        equals it (case-sensitive), optionally restricted to ``labels``; each list sorted by id."""
        result: dict[str, list[Node]] = {n: [] for n in names}
        if not result or (labels is not None and not labels):
            return result
        where = "n.label IS NOT NULL" if labels is None else "n.label IN $labels"
        rows = self._read_batched(
            f"UNWIND $names AS nm MATCH (n:Node {{name: nm}}) WHERE {where} RETURN {_NODE_RETURN}",
            "names", list(result), labels=list(labels) if labels is not None else None,
        )
        for row in sorted(rows, key=lambda r: r[0]):
            result[row[2]].append(_node(row))
        return result

    @_boundary
    def nodes_in_file(self, repo: str, path: str) -> list[Node]:
        """Every node of the file: the File node first, then by start line, start col, id."""
        rows = self._read(f"MATCH (n:Node {{fk: $k}}) RETURN {_NODE_RETURN}", k=file_key(repo, path))
        nodes = [_node(r) for r in rows]
        nodes.sort(key=lambda n: (n.label != "File", n.start_line, n.start_col, n.id))
        return nodes

    @_boundary
    def labelled(self, labels: Sequence[str], limit: int | None = None) -> list[Node]:
        """The nodes of ``labels`` sorted by (label, name, id), at most ``limit``: one query; sorted
        and cut here, as servers order strings by their own collation."""
        if not labels or (limit is not None and limit <= 0):
            return []
        rows = self._read(f"MATCH (n:Node) WHERE n.label IN $labels RETURN {_NODE_RETURN}",
                          labels=list(dict.fromkeys(labels)))
        nodes = sorted((_node(r) for r in rows), key=lambda n: (n.label, n.name, n.id))
        return nodes if limit is None else nodes[:limit]

    def _edges(
        self, outgoing: bool, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None
    ) -> dict[str, list[Edge]]:
        result: dict[str, list[Edge]] = {i: [] for i in ids}
        kinds = [k for k in dict.fromkeys(kinds) if k in EDGE_KINDS]
        if not result or not kinds:
            return result
        pattern = "(s:Node {id: i})-[e:%s]->(d:Node)" if outgoing else "(d:Node {id: i})<-[e:%s]-(s:Node)"
        query = f"UNWIND $ids AS i MATCH {pattern % '|'.join(kinds)}"
        if resolutions is not None:
            query += " WHERE type(e) <> 'CALLS' OR e.resolution IN $resolutions"
        rows = self._read_batched(
            f"{query} RETURN {_EDGE_RETURN}", "ids", list(result),
            resolutions=list(resolutions) if resolutions is not None else None,
        )
        key = 1 if outgoing else 2
        for row in rows:
            result[row[key]].append(_edge(row))
        for edges in result.values():
            edges.sort(key=_edge_key)
        return result

    @_boundary
    def incoming(
        self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
    ) -> dict[str, list[Edge]]:
        """``{dst_id: [Edge]}`` for every requested id (``[]`` when none): edges of ``kinds`` ending
        there, sorted by (repo, file, line, col, src, dst, kind). ``resolutions`` restricts CALLS
        edges only; other kinds pass. Empty ``kinds`` selects nothing."""
        return self._edges(False, ids, kinds, resolutions)

    @_boundary
    def outgoing(
        self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
    ) -> dict[str, list[Edge]]:
        """``{src_id: [Edge]}`` for every requested id, as :meth:`incoming` but leaving each id."""
        return self._edges(True, ids, kinds, resolutions)

    @_boundary
    def search_symbols(self, query: str, limit: int) -> list[Node]:
        """Up to ``limit`` code nodes whose name matches ``query`` (the rule of
        :meth:`GraphStore.search_symbols`), best first.

        Two round trips: the distinct names of the query's bucket (``sym``, the first character of
        the first part, an indexed property), ranked here by
        :func:`~stores.contracts.symbol_match_rank`; then the nodes of the best names."""
        parts = query_parts(query)
        if not parts or limit <= 0:
            return []
        return with_qualified(self, query, limit, self._named_symbols(query, parts, limit))

    def _named_symbols(self, query: str, parts: list[str], limit: int) -> list[Node]:
        """:meth:`search_symbols` by the short name only (a dotted query's qualified names aside)."""
        names = self._read("MATCH (n:Node {sym: $c}) RETURN DISTINCT n.name", c=parts[0][0])
        ranked = best_symbol_names(query, parts, ((name, None) for (name,) in names), limit)
        order = {name: (rank, n) for rank, n, name in ranked}
        if not order:
            return []
        rows = self._read_batched(
            f"UNWIND $names AS nm MATCH (n:Node {{name: nm}}) WHERE n.sym IS NOT NULL RETURN {_NODE_RETURN}",
            "names", list(order),
        )
        nodes = [_node(r) for r in rows]
        nodes.sort(key=lambda n: (*order[n.name], n.name, n.id))
        return nodes[:limit]

    @_boundary
    def unresolved_calls(self, names: Sequence[str]) -> dict[str, list[UnresolvedCall]]:
        """``{callee_name: [UnresolvedCall]}`` for every requested name (``[]`` when none), sorted by
        (repo, file, line, col, caller, arity)."""
        result: dict[str, list[UnresolvedCall]] = {n: [] for n in names}
        if not result:
            return result
        rows = self._read_batched(
            f"UNWIND $names AS nm MATCH (u:UnresolvedCall {{name: nm}}) RETURN {_UNRESOLVED_RETURN}",
            "names", list(result),
        )
        calls = sorted((UnresolvedCall(*r) for r in rows), key=lambda u: (u.repo, u.file, u.line, u.col, u.caller, u.arity))
        for call in calls:
            result[call.name].append(call)
        return result

    @_boundary
    def stats(self) -> dict[str, Any]:
        """``{"files": {language: n}, "nodes": {label: n}, "edges": {kind: n},
        "calls_by_resolution": {resolution: n}, "unresolved_calls": n, "repos": n}``; the dicts hold
        only non-zero counts, keys sorted. Six queries, run concurrently."""
        queries = (
            "MATCH (f:IndexedFile) RETURN f.language, count(*)",
            "MATCH (n:Node) WHERE n.label IS NOT NULL RETURN n.label, count(*)",
            "MATCH (:Node)-[e]->(:Node) RETURN type(e), count(*)",
            "MATCH (:Node)-[e:CALLS]->(:Node) RETURN coalesce(e.resolution, 'none'), count(*)",
            "MATCH (u:UnresolvedCall) RETURN count(u)",
            "MATCH (f:IndexedFile) WITH DISTINCT f.repo AS repo RETURN count(repo)",
        )
        files, nodes, edges, calls, unresolved, repos = self._parallel(
            [functools.partial(self._read, q) for q in queries]
        )

        def grouped(rows: list[list[Any]]) -> dict[str, int]:
            return {k: n for k, n in sorted(rows) if n}

        return {
            "files": grouped(files),
            "nodes": grouped(nodes),
            "edges": grouped(edges),
            "calls_by_resolution": grouped(calls),
            "unresolved_calls": unresolved[0][0] if unresolved else 0,
            "repos": repos[0][0] if repos else 0,
        }


def _timed_out(exc: BaseException) -> bool:
    """Whether ``exc`` was caused by a socket read or write on an open connection that timed out
    (see _bound_reads); not by a connection attempt past ``connect_timeout`` (the driver raises those
    without the cause, or through its SocketDeadlineExceededError)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if type(current).__name__ == "SocketDeadlineExceededError":  # private to the driver
            return False
        if isinstance(current, TimeoutError):
            return True
        seen.add(id(current))
        current = current.__cause__ if current.__suppress_context__ else current.__context__
    return False


def _unique_violation(exc: neo4j_errors.ClientError) -> bool:
    """Whether ``exc`` reports a unique-key violation: ArcadeDB's ConstraintValidationFailed
    ("Duplicated key"), Memgraph's "unique constraint violation" at commit."""
    if isinstance(exc, neo4j_errors.ConstraintError):
        return True
    message = (exc.message or "").lower()
    return "unique constraint violation" in message or "duplicated key" in message


def _product_version(agent: str) -> tuple[str | None, str | None]:
    """``("ArcadeDB", "26.10.2")`` from ``Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)``; Memgraph's
    agent names the product without a version; a plain ``Neo4j/5.26.0`` gives ``("Neo4j", "5.26.0")``."""
    for product in ("ArcadeDB", "Memgraph"):
        m = re.search(product + r"[ /v]*([0-9][0-9A-Za-z.+-]*)?", agent, re.IGNORECASE)
        if m:
            return product, m.group(1)
    m = re.match(r"([A-Za-z][A-Za-z0-9]*)/v?([0-9][0-9A-Za-z.+-]*)", agent)
    if m:
        return m.group(1), m.group(2)
    return None, None
