"""What only the Bolt backend (stores/memgraph.py) promises: URIs, dialects, errors, batches, round
trips, concurrent writers, and the same answers as the embedded store on a realistic write order.

Tests marked ``server`` need ``RIPPLE_TEST_BOLT_URI`` (ArcadeDB; ``.ci/run`` starts one with
``tools/arcadedb_server.py``; ``start`` starts one for the session); the others run anywhere.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from stores.contracts import EDGE_KINDS, Edge, FileRecord, IndexedFile, Node, endpoint_id
from stores.embedded import EmbeddedStore
from stores.errors import QueryFailed, StoreOutdated, StoreUnavailable
from stores.bolt_writes import BoltTx, WritePlan, batches, row_size
from stores.memgraph import (
    BATCH_BYTES,
    BATCH_ROWS,
    DDL,
    MemgraphGraphStore,
    _product_version,
    parse_bolt_uri,
)
from tests.contract import conftest

server = pytest.mark.skipif(not os.environ.get("RIPPLE_TEST_BOLT_URI"),
                            reason="set RIPPLE_TEST_BOLT_URI (a Bolt URI, or 'start') to run the Bolt backend against a server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ----------------------------------------------------------------------------- without a server


def test_parse_bolt_uri():
    assert parse_bolt_uri("bolt://localhost:7687") == ("bolt://localhost:7687", None, None, None)
    assert parse_bolt_uri("bolt://root:p%40ss@127.0.0.1:7688/shop") == ("bolt://127.0.0.1:7688", "root", "p@ss", "shop")
    assert parse_bolt_uri("neo4j+s://u@graph.example.com") == ("neo4j+s://graph.example.com", "u", None, None)
    with pytest.raises(ValueError, match="not a Bolt URI"):
        parse_bolt_uri("http://localhost:7474")
    with pytest.raises(ValueError, match=r"\*\*\*"):  # the password is never echoed
        parse_bolt_uri("https://u:secret@localhost")
    # ... not in a port error (urlsplit quotes the netloc), nor when it holds an unescaped @ or /
    for uri, shown in [("bolt://u:secret@h:99999", "bolt://u:***@h:99999"),
                       ("bolt://u:sec/ret@h:7687", "bolt://u:***@h:7687"),
                       ("http://u:se@cret@h", "http://u:***@h")]:
        with pytest.raises(ValueError) as info:
            parse_bolt_uri(uri)
        assert f"not a Bolt URI: {shown!r}" in str(info.value)
        assert "sec" not in str(info.value) and info.value.__cause__ is None
    with pytest.raises(ValueError, match="not a Bolt URI: None"):
        parse_bolt_uri(None)  # type: ignore[arg-type]


def test_constructor_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown Bolt dialect 'cypher'"):
        MemgraphGraphStore("bolt://localhost:7687", dialect="cypher")
    with pytest.raises(ValueError, match="max_concurrency must be a positive integer"):
        MemgraphGraphStore("bolt://localhost:7687", max_concurrency=0)
    # What the URI says wins over the arguments (shared defaults); the URI shown has no password.
    store = MemgraphGraphStore("bolt://u:pw@localhost:7687/db", password="other", database="x", max_concurrency=3)
    assert (store.uri, store.database, store.max_concurrency) == ("bolt://localhost:7687/db", "db", 3)
    store.close()
    store = MemgraphGraphStore("bolt://localhost:7687", database="x")
    assert (store.uri, store.database) == ("bolt://localhost:7687/x", "x")
    store.close()
    # The routing context of a neo4j:// URI follows the database in the URI shown.
    with MemgraphGraphStore("neo4j://u:pw@localhost:7687/db?region=eu") as store:
        assert (store.uri, store.address) == ("neo4j://localhost:7687/db?region=eu", "neo4j://localhost:7687?region=eu")
    for bad in (0, -1, True, "5"):
        with pytest.raises(ValueError, match="query_timeout must be a positive number of seconds or None"):
            MemgraphGraphStore("bolt://localhost:7687", query_timeout=bad)  # type: ignore[arg-type]
    # Every connection the driver opens gets the read timeout (the driver has none of its own).
    with MemgraphGraphStore("bolt://localhost:7687", query_timeout=7) as store:
        assert store.read_timeout_bound and store.query_timeout == 7
    with MemgraphGraphStore("bolt://localhost:7687", query_timeout=None) as store:
        assert not store.read_timeout_bound


def test_unreachable_server_raises_store_unavailable_naming_the_uri():
    port = free_port()
    store = MemgraphGraphStore(f"bolt://root:secret@127.0.0.1:{port}", retry_time=0)
    try:
        for call in (lambda: store.get_nodes(["x"]), store.ping):
            with pytest.raises(StoreUnavailable) as info:
                call()
            message = str(info.value)
            assert f"graph store bolt://127.0.0.1:{port} is unreachable" in message
            assert "start the server" in message and "secret" not in message
    finally:
        store.close()
    with pytest.raises(StoreUnavailable, match="is closed"):
        store.get_nodes(["x"])


def test_server_agents():
    assert _product_version("Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)") == ("ArcadeDB", "26.10.2")
    assert _product_version("Neo4j/v5.11.0 compatible graph database server - Memgraph") == ("Memgraph", None)
    assert _product_version("Neo4j/5.26.1") == ("Neo4j", "5.26.1")
    assert _product_version("") == (None, None)


def test_ddl_table_per_dialect():
    assert set(DDL) == {"memgraph", "neo4j"}
    assert all(q.startswith(("CREATE INDEX ON :", "CREATE CONSTRAINT ON (")) for q in DDL["memgraph"])
    assert all(" IF NOT EXISTS FOR (" in q for q in DDL["neo4j"])
    for dialect in DDL:
        assert sum("n.id IS UNIQUE" in q for q in DDL[dialect]) == 1


def test_arcadedb_command_line(tmp_path):
    from tools.arcadedb_server import ArcadeDBServer

    server = ArcadeDBServer(tmp_path, database="shop", heap="256m")
    server.bolt_port, server.http_port = 7001, 7002
    cmd = server.command()
    assert cmd[0].endswith("/jre/bin/java") and cmd[-1] == "com.arcadedb.server.ArcadeDBServer"
    assert cmd[1] == "-Xmx256m" and cmd[-2].endswith("/jars/*")
    assert {
        f"-Darcadedb.server.rootPath={tmp_path / 'root'}", "-Darcadedb.server.httpIncomingHost=127.0.0.1",
        "-Darcadedb.server.httpIncomingPort=7002", "-Darcadedb.bolt.host=127.0.0.1", "-Darcadedb.bolt.port=7001",
        "-Darcadedb.server.plugins=Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
        "-Darcadedb.server.defaultDatabases=shop[root]", "-Darcadedb.server.mode=development",
    } <= set(cmd)
    assert server.uri == f"bolt://root:{server.password}@127.0.0.1:7001/shop" and len(server.password) == 24
    # What is started: java @argfile, the options (and the root password) in a file only its owner
    # reads; the process list shows every user every command line.
    launch = server.launch_command()
    argfile = tmp_path / "java.args"
    assert launch == [cmd[0], f"@{argfile}"] and server.password not in " ".join(launch)
    assert argfile.stat().st_mode & 0o777 == 0o600
    assert argfile.read_text().splitlines() == [f'"{a}"' for a in cmd[1:]]
    assert f'"-Darcadedb.server.rootPassword={server.password}"' in argfile.read_text().splitlines()
    odd = ArcadeDBServer(tmp_path / 'a "b" \\c', database="shop")  # quotes and backslashes escaped
    odd.bolt_port, odd.http_port = 7001, 7002
    odd.workdir.mkdir()  # type: ignore[union-attr]
    lines = Path(odd.launch_command()[1][1:]).read_text().splitlines()
    assert f'"-Darcadedb.server.rootPath={tmp_path}/a \\"b\\" \\\\c/root"' in lines


class RecordingTx:
    """Stands in for a transaction: records (query, rows) and answers reads with nothing."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def rows(self, query: str, **params: Any) -> list[list[Any]]:
        sizes = [len(v) for v in params.values() if isinstance(v, list)]
        self.calls.append((query, max(sizes, default=0)))
        return []

    def run_batched(self, query: str, name: str, rows: Any, **params: Any) -> list[list[Any]]:
        return BoltTx.run_batched(self, query, name, rows, **params)  # type: ignore[arg-type]


def big_files(n: int, per_file: int = 200, repo: str = "r") -> list[IndexedFile]:
    """``n`` functions in files of ``per_file``; each function calls the next one (across files)."""
    files = []
    for start in range(0, n, per_file):
        path = f"m{start // per_file}.py"
        fid = f"{repo}:{path}"
        count = min(per_file, n - start)
        f = IndexedFile(FileRecord(repo, path, "python", "a" * 64, count),
                        nodes=[Node(fid, "File", path, path, repo, path, 1, 0, count + 1, 0, {"language": "python"})])
        for i in range(start, start + count):
            nid, nxt = fn_id(repo, i, per_file), fn_id(repo, (i + 1) % n, per_file)
            f.nodes.append(Node(nid, "Function", f"f{i}", f"f{i}", repo, path, i - start + 1, 0, i - start + 1, 9))
            f.edges.append(Edge("CONTAINS", fid, nid, repo, path))
            f.edges.append(Edge("CALLS", nid, nxt, repo, path, i - start + 1, 4, "exact"))
        files.append(f)
    return files


def fn_id(repo: str, i: int, per_file: int) -> str:
    return f"{repo}:m{i // per_file}.f{i}(0)"


def test_writes_go_in_unwind_batches_of_at_most_5000_rows():
    tx = RecordingTx()
    WritePlan(big_files(12_001)).replace(tx)  # type: ignore[arg-type]
    assert BATCH_ROWS == 5_000
    assert max(size for _, size in tx.calls) == 5_000
    writes = [(q.split(" MERGE ")[1].split(" ")[0] if " MERGE " in q else q[:30], size) for q, size in tx.calls
              if q.startswith("UNWIND $rows AS r MERGE")]
    # 12,062 nodes (61 files), then 12,001 CONTAINS and 12,001 CALLS edges, each in three statements
    assert [size for q, size in writes if q == "(n:Node"] == [5_000, 5_000, 2_062]
    assert [size for q, size in writes if q == "(s:Node"] == [5_000, 5_000, 2_001] * 2


def test_batches_are_cut_by_rows_and_by_bytes():
    assert [len(b) for b in batches(list(range(12)), size=5)] == [5, 5, 2]
    assert [len(b) for b in batches(["a" * 1000] * 5, max_bytes=2500)] == [2, 2, 1]
    assert [len(b) for b in batches(["a" * 5000, "b"], max_bytes=2500)] == [1, 1]  # a big row goes alone
    assert row_size("é" * 300) == 600 and row_size({"a": "xy", "b": 1, "c": ["p", "q"]}) == 2 + 9 + 18 + (10 + 10 + 9)
    tx = RecordingTx()
    texts = [IndexedFile(FileRecord("r", f"f{i}.py", "python", "a" * 64, 3 << 20), text="x" * (3 << 20)) for i in range(4)]
    WritePlan(texts).replace(tx)  # type: ignore[arg-type]
    assert [size for q, size in tx.calls if "MERGE (f:IndexedFile" in q] == [1, 1, 1, 1]  # 3 MiB each, 4 MiB budget
    assert BATCH_BYTES == 4 << 20


def test_unknown_edge_kind_and_unserialisable_props_are_refused_before_writing():
    [f] = big_files(1)
    f.edges.append(Edge("CALLS; MATCH (n) DETACH DELETE n", "a", "b", "r", "m0.py"))
    with pytest.raises(QueryFailed, match="is not one of"):
        WritePlan([f])
    [g] = big_files(1)
    g.edges.append(Edge("EXPOSES", "a", "b", "r", "m0.py", props={"framework": object()}))
    with pytest.raises(QueryFailed, match="JSON-serialisable"):
        WritePlan([g])
    assert "CALLS" in EDGE_KINDS


# -------------------------------------------------------------------------------- with a server


@pytest.fixture
def bolt_uri() -> str:
    return conftest.bolt_uri("RIPPLE_TEST_BOLT_URI") or ""


@pytest.fixture
def bolt(bolt_uri: str) -> Any:
    store = MemgraphGraphStore(bolt_uri, dialect="auto")
    store.clear()
    yield store
    store.close()


@server
def test_ping_and_auto_dialect(bolt):
    info = bolt.ping()
    assert (info["product"], info["version"], info["dialect"]) == ("ArcadeDB", "26.10.2", "neo4j")
    assert info["agent"] == "Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)"
    assert info["uri"] == bolt.uri and "@" not in info["uri"]
    bolt.stats()
    assert bolt.dialect == "neo4j"


@server
def test_unknown_database_and_wrong_password(bolt_uri):
    address, user, password, _ = parse_bolt_uri(bolt_uri)
    with MemgraphGraphStore(address, user, password, database="nosuchdb", retry_time=0) as store:
        with pytest.raises(StoreUnavailable, match="database 'nosuchdb' does not exist"):
            store.repos()
    with MemgraphGraphStore(address, user, "wrong-password", database="ripple", retry_time=0) as store:
        with pytest.raises(StoreUnavailable, match="refused the credentials"):
            store.ping()


@server
def test_many_rows_round_trips(bolt):
    files = big_files(12_001)  # 61 files: 12,062 nodes, 24,002 edges in one call
    bolt.replace_files(files)
    ids = [n.id for f in files for n in f.nodes]
    before = bolt.round_trips
    got = bolt.get_nodes(ids)
    assert bolt.round_trips - before == 3  # 12,062 ids: three batches, never one query per id
    assert got == {n.id: n for f in files for n in f.nodes}
    before = bolt.round_trips
    calls = bolt.incoming(ids, ["CALLS"])
    assert bolt.round_trips - before == 3
    assert calls[fn_id("r", 0, 200)] == [Edge("CALLS", fn_id("r", 12_000, 200), fn_id("r", 0, 200), "r", "m60.py", 1, 4, "exact")]
    assert bolt.stats()["edges"] == {"CALLS": 12_001, "CONTAINS": 12_001}
    bolt.replace_files([big_files(10)[0]])  # m0.py shrinks: 190 nodes go with their edges
    stats = bolt.stats()
    assert stats["nodes"] == {"File": 61, "Function": 11_811}
    assert stats["edges"] == {"CALLS": 11_811, "CONTAINS": 11_811}  # f12000 -> f0 stays


@server
def test_a_call_over_16_mib_of_text_is_written(bolt):
    """ArcadeDB refuses a Bolt message over 16 MiB and never answers: the batches stay under it."""
    files = [IndexedFile(FileRecord("r", f"f{i}.py", "python", "a" * 64, 6 << 20), text=chr(97 + i) * (6 << 20))
             for i in range(3)]
    bolt.replace_files(files)
    assert [len(bolt.file_text("r", f"f{i}.py") or "") for i in range(3)] == [6 << 20] * 3
    assert bolt.file_text("r", "f2.py") == "c" * (6 << 20)


@server
def test_schema_version_mismatch_is_outdated(bolt, bolt_uri):
    bolt._write(lambda tx: tx.rows("MATCH (m:RippleMeta {key: 'schema'}) SET m.version = 0"))
    try:
        with MemgraphGraphStore(bolt_uri) as other, pytest.raises(StoreOutdated, match="schema version 0"):
            other.repos()
    finally:
        bolt._write(lambda tx: tx.rows("MATCH (m:RippleMeta {key: 'schema'}) SET m.version = 1"))


def caller_file(repo: str, i: int) -> IndexedFile:
    path = f"c{i}.py"
    method = f"{repo}:c{i}.call(0)"
    ep = endpoint_id("GET", "/owners/{id}")
    return IndexedFile(
        FileRecord(repo, path, "python", "b" * 64, 10),
        nodes=[Node(f"{repo}:{path}", "File", path, path, repo, path, 1, 0, 3, 0),
               Node(method, "Function", "call", "call", repo, path, 1, 0, 2, 0),
               Node(ep, "Endpoint", ep[9:], ep[9:], "", "", 0, 0, 0, 0, {"http_method": "GET", "path": "/owners/{}"})],
        edges=[Edge("CALLS_HTTP", method, ep, repo, path, 2, 4, props={"framework": "requests", "url": "/owners/1", "service": None}),
               Edge("CALLS", method, f"{repo}:later.target(0)", repo, path, 2, 8, "name")],
    )


@server
def test_concurrent_writers_share_one_endpoint_node(bolt, bolt_uri):
    errors: list[BaseException] = []

    def write(repo: str) -> None:
        with MemgraphGraphStore(bolt_uri) as store:
            try:
                for i in range(8):
                    store.replace_files([caller_file(repo, i)])
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

    threads = [threading.Thread(target=write, args=(f"r{k}",)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    ep = endpoint_id("GET", "/owners/{id}")
    assert bolt._read("MATCH (n:Node {id: $id}) RETURN count(n)", id=ep) == [[1]]
    assert len(bolt.incoming([ep], ["CALLS_HTTP"])[ep]) == 32
    assert bolt.stats()["nodes"] == {"Endpoint": 1, "File": 32, "Function": 32}


@server
def test_same_answers_as_embedded_when_edges_point_into_later_batches(bolt, tmp_path):
    """The pipeline writes a repository in batches of files: an edge may point to a node written by
    a later call (the Bolt store keeps a hidden stub for it) or never written at all."""
    target = IndexedFile(
        FileRecord("r0", "later.py", "python", "c" * 64, 10),
        nodes=[Node("r0:later.py", "File", "later.py", "later.py", "r0", "later.py", 1, 0, 5, 0),
               Node("r0:later.target(0)", "Function", "target", "target", "r0", "later.py", 2, 0, 4, 0)],
    )
    embedded = EmbeddedStore(tmp_path / "index.db")
    writes: list[Any] = [
        ("replace", [caller_file("r0", 0), caller_file("r0", 1)]),
        ("check", None),
        ("replace", [target]),
        ("check", None),
        ("replace", [caller_file("r0", 1)]),
        ("delete", ["later.py"]),
        ("check", None),
        ("delete", ["c0.py", "c1.py"]),
        ("check", None),
    ]
    ids = ["r0:later.target(0)", "r0:c0.call(0)", "r0:c1.call(0)", endpoint_id("GET", "/owners/{}")]
    kinds = list(EDGE_KINDS)
    try:
        for op, arg in writes:
            for store in (embedded, bolt):
                if op == "replace":
                    store.replace_files(arg)
                elif op == "delete":
                    store.delete_files("r0", arg)
            if op == "check":
                assert bolt.get_nodes(ids) == embedded.get_nodes(ids)
                assert bolt.incoming(ids, kinds) == embedded.incoming(ids, kinds)
                assert bolt.outgoing(ids, kinds) == embedded.outgoing(ids, kinds)
                assert [[e.props for e in v] for v in bolt.outgoing(ids, kinds).values()] == [
                    [e.props for e in v] for v in embedded.outgoing(ids, kinds).values()]
                mine, theirs = bolt.stats(), embedded.stats()
                assert {k: mine[k] for k in ("files", "nodes", "edges", "calls_by_resolution", "repos")} == {
                    k: theirs[k] for k in ("files", "nodes", "edges", "calls_by_resolution", "repos")}
                assert bolt.nodes_in_file("r0", "later.py") == embedded.nodes_in_file("r0", "later.py")
        # Nothing is left behind: no stub, no shared node without an edge.
        assert bolt._read("MATCH (n:Node) RETURN count(n)") == [[0]]
    finally:
        embedded.close()


# ------------------------------------------------------------------- a hostile server and network


class BoltProxy:
    """A TCP proxy in front of the Bolt server. ``frozen`` set: the server's answers are held back
    (a server that stops answering: paused, swapping, a network lost without a reset).
    ``cut_after``: once the clients have sent that many bytes in all, every connection is reset
    (the server killed in the middle of a request). ``sent`` counts the clients' bytes."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.frozen = threading.Event()
        self.cut_after: int | None = None
        self.sent = 0
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
                upstream = socket.create_connection(self.upstream, timeout=5)
                upstream.settimeout(None)
            except OSError:
                return
            with self._lock:
                self._sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, from_client: bool) -> None:
        try:
            while data := src.recv(65536):
                while not from_client and self.frozen.is_set():
                    time.sleep(0.02)
                dst.sendall(data)
                if from_client:
                    with self._lock:
                        self.sent += len(data)
                        cut = self.cut_after is not None and self.sent >= self.cut_after
                    if cut:
                        self.reset()
                        return
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def reset(self) -> None:
        """Reset every open connection (RST), as a killed server does."""
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for s in sockets:
            try:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                s.close()
            except OSError:
                pass

    def close(self) -> None:
        self.frozen.clear()
        self._listener.close()
        self.reset()


@pytest.fixture
def proxy(bolt_uri: str) -> Any:
    address, _, _, _ = parse_bolt_uri(bolt_uri)
    host, port = address.split("//")[1].rsplit(":", 1)
    p = BoltProxy(host, int(port))
    yield p
    p.close()


def through(proxy: BoltProxy, bolt_uri: str) -> str:
    """``bolt_uri`` with the proxy's port."""
    _, user, password, database = parse_bolt_uri(bolt_uri)
    return f"bolt://{user}:{password}@127.0.0.1:{proxy.port}/{database or ''}"


@server
def test_a_server_that_stops_answering_raises_store_unavailable_then_the_store_reconnects(bolt, bolt_uri, proxy):
    """The neo4j driver has no read timeout of its own: without the store's, this call waited for ever."""
    [f] = big_files(3)
    with MemgraphGraphStore(through(proxy, bolt_uri), connect_timeout=1, retry_time=0, query_timeout=1) as store:
        store.replace_files([f])
        proxy.frozen.set()
        t0 = time.monotonic()
        with pytest.raises(StoreUnavailable, match=r"stopped answering .* query timeout \(now 1 s\)"):
            store.get_nodes([f.nodes[1].id])
        assert time.monotonic() - t0 < 10
        with pytest.raises(StoreUnavailable):  # a new connection: its handshake is bounded too
            store.stats()
        assert time.monotonic() - t0 < 20
        proxy.frozen.clear()
        before = store.round_trips
        assert store.get_nodes([f.nodes[1].id]) == {f.nodes[1].id: f.nodes[1]}
        # After an outage the schema is checked again (the server may have come back empty).
        assert store.round_trips - before == len(DDL["neo4j"]) + 2


@server
def test_a_connection_lost_in_the_middle_of_a_write_leaves_nothing_of_it(bolt, bolt_uri, proxy):
    """The server killed mid-transaction: the caller gets StoreUnavailable (no hang), the server
    rolls the transaction back, and the store object works again once the server is back."""
    with MemgraphGraphStore(through(proxy, bolt_uri), retry_time=0) as store:
        store.replace_files(big_files(2000, repo="a"))
        before_stats, start = bolt.stats(), proxy.sent
        store.replace_files(big_files(2000, repo="b"))  # measures the bytes of such a write
        size = proxy.sent - start
        store.delete_files("b", [f"m{i}.py" for i in range(10)])
        assert bolt.stats() == before_stats
        proxy.cut_after = proxy.sent + int(size * 0.7)  # after the nodes, among the edges
        t0 = time.monotonic()
        with pytest.raises(StoreUnavailable, match="is unreachable"):
            store.replace_files(big_files(2000, repo="b"))
        assert time.monotonic() - t0 < 30
        proxy.cut_after = None
        assert bolt.stats() == before_stats
        assert bolt.file_checksums("b") == {}
        assert bolt._read("MATCH (n:Node) WHERE n.repo = 'b' OR n.label IS NULL RETURN count(n)") == [[0]]
        assert store.file_checksums("a") == {f"m{i}.py": "a" * 64 for i in range(10)}  # reconnected


@server
def test_values_the_driver_cannot_send_are_refused_clearly(bolt):
    bad_text = IndexedFile(FileRecord("r", "x.py", "python", "c" * 64, 1), text="\ud800")  # lone surrogate
    with pytest.raises(QueryFailed, match="strings must be valid Unicode"):
        bolt.replace_files([bad_text])
    huge = IndexedFile(FileRecord("r", "y.py", "python", "c" * 64, 1),
                       nodes=[Node("r:y.f", "Function", "f", "f", "r", "y.py", 2**64, 0, 1, 0)])
    with pytest.raises(QueryFailed, match="integers must fit in 64 bits"):
        bolt.replace_files([huge])
    with pytest.raises(QueryFailed, match="valid Unicode"):
        bolt.get_nodes(["\udfff"])
    assert bolt.stats()["files"] == {} and bolt.repos() == []  # nothing written, the store still works


@server
def test_close_waits_for_a_write_in_flight(bolt_uri, bolt):
    """Closing the driver under a request in flight wrote its goodbye into the request (the server
    failed it: "PackStream map key must be a string") and close() raised AssertionError."""
    store = MemgraphGraphStore(bolt_uri)
    store.repos()
    outcome: list[Any] = []

    def write() -> None:
        try:
            store.replace_files(big_files(3000))
            outcome.append(None)
        except Exception as exc:  # noqa: BLE001
            outcome.append(exc)

    thread = threading.Thread(target=write)
    start = store.round_trips
    thread.start()
    deadline = time.monotonic() + 60
    while store.round_trips < start + 4 and time.monotonic() < deadline:  # the transaction has begun
        time.sleep(0.005)
    store.close()
    assert bolt.stats()["files"] == {"python": 15}  # committed before close() returned
    thread.join(60)
    assert outcome == [None]
    with pytest.raises(StoreUnavailable, match="is closed"):
        store.repos()


@server
def test_the_wrong_dialect_says_which_to_set(bolt_uri):
    with MemgraphGraphStore(bolt_uri, dialect="memgraph") as store:
        with pytest.raises(QueryFailed, match=r"refused the 'memgraph' dialect's index statement 'CREATE INDEX ON "
                                              r":Node\(id\)' .*set the Bolt dialect to 'neo4j'"):
            store.repos()


@server
def test_the_session_server_keeps_its_password_off_the_process_list():
    server_ = conftest._SERVERS.get("RIPPLE_TEST_BOLT_URI")
    if server_ is None or not Path("/proc").is_dir():
        pytest.skip("needs RIPPLE_TEST_BOLT_URI=start on Linux")
    cmdline = Path(f"/proc/{server_._proc.pid}/cmdline").read_bytes().decode()
    assert server_.password not in cmdline and "java.args" in cmdline


@server
def test_hostile_names_round_trip_and_are_never_query_text(bolt):
    """Quotes, backslashes, backticks, braces, $, NUL, emoji and 100,000-character names are values
    (parameters), and Cypher-looking or regex text in a search matches nothing."""
    weird = "q' \" \\ ` } { $x é 😀 \x00 \n) DETACH DELETE n //"
    path = f"dir/{weird}.py"
    fn = Node(f"r:{weird}", "Function", "weird" + weird, weird, "r", path, 1, 0, 2, 0,
              {"nested": {"a": [1, None, {"b": "x\\y"}]}, "none": None, "long": "z" * 100_000})
    f = IndexedFile(FileRecord("r", path, "python", "c" * 64, 10),
                    nodes=[Node(f"r:{path}", "File", path, path, "r", path, 1, 0, 3, 0), fn],
                    edges=[Edge("CONTAINS", f"r:{path}", fn.id, "r", path),
                           Edge("CALLS", fn.id, fn.id, "r", path, 1, 2, "exact", props={"k": weird})],
                    text=weird * 3)
    bolt.replace_files([f])
    assert bolt.get_nodes([fn.id]) == {fn.id: fn} and bolt.get_nodes([fn.id])[fn.id].props == fn.props
    assert bolt.file_text("r", path) == weird * 3
    assert bolt.outgoing([fn.id], ["CALLS"])[fn.id][0].props == {"k": weird}
    assert [n.id for n in bolt.search_symbols("weird", 5)] == [fn.id]
    for query in (".*", "(", "[a-", "') RETURN 1 //", "' OR 1=1", "MATCH (n) DETACH DELETE n", "\\"):
        assert bolt.search_symbols(query, 5) == []
    assert bolt.find_symbols(["' OR 1=1", fn.name]) == {"' OR 1=1": [], fn.name: [fn]}
    ids = [fn.id] + [f"missing-{i}" for i in range(49_999)]
    before = bolt.round_trips
    got = bolt.incoming(ids, ["CALLS"])
    assert bolt.round_trips - before == 10 and len(got) == 50_000 and len(got[fn.id]) == 1
    bolt.replace_files([])
    bolt.delete_files("r", ["no/such.py", "../../etc/passwd"])
    assert bolt.stats()["nodes"] == {"File": 1, "Function": 1}
