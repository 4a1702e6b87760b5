"""Session 68, brk68c: hostile input against session 68's first round (application ports, Razor ``@page``
templates, .NET test projects, RTK Query, Mongoose, generic repositories, wrapper gates, deferred indexes),
each break with its fix (docs/benchmarks.md, "Session 68, brk68c"). Exact expectations; a bound on time is a
subprocess timeout, never a timed assertion."""

from __future__ import annotations

import json
import subprocess
import sys

_LISTEN = """
import json, sys
from indexer.languages import extractor_for_path
path, n = sys.argv[1], int(sys.argv[2])
if path.endswith(".py"):
    src = "import uvicorn\\nP = 8100\\nQ = 1\\nQ = 2\\n" + "uvicorn.run(app, port=P)\\nuvicorn.run(app, port=Q)\\n" * n
else:
    src = "const P = process.env.PORT || 8100\\nlet Q = 1\\nvar Q = 2\\n" + "app.listen(P)\\napp.listen(Q)\\n" * n
ex = extractor_for_path(path).extract(path, src.encode())
ports = [lp.port.parts[0][1] for lp in ex.listen_ports]
print(json.dumps([len(ports), sorted(set(ports)), ex.listen_ports[-1].line]))
"""


def _listen(path: str, n: int) -> list[object]:
    done = subprocess.run([sys.executable, "-c", _LISTEN, path, str(n)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


class TestListenPortsOfManyServerStarts:
    """The ListenPort detectors (acc68b) looked a port's module-level name up by reading every statement of
    the file, once per server start: quadratic. A 480 KB Python file of 16,000 ``uvicorn.run(app, port=P)``
    took 20 s of CPU to extract, a JavaScript file of 16,000 ``app.listen(PORT)`` 26 s (and twice the calls,
    four times that). The module's names are now read once per file."""

    def test_python(self) -> None:
        # 20,000 starts of each kind: P assigned once gives 8100 each time; Q, assigned twice, gives nothing
        assert _listen("app.py", 20_000) == [20_000, ["8100"], 40_003]

    def test_javascript(self) -> None:
        assert _listen("server.js", 20_000) == [20_000, ["8100"], 40_002]


_PROJECTS = """
import json, sys
from indexer.frameworks.link_options import LinkOptions
from indexer.frameworks.route_tokens import project_of
refs = {f"src/P{i}": frozenset({f"src/App{i}"}) for i in range(5_000)}
refs["src/P7/Nested"] = frozenset()
found = [project_of(refs, f"src/P{i % 5_000}/Controllers/C{i}.cs") for i in range(100_000)]
options = LinkOptions(project_refs=refs)
print(json.dumps([found.count(None), found[12_345], project_of(refs, "src/P7/Nested/T.cs"),
                  project_of(refs, "src/P70/x.cs"), project_of(refs, "src/P7x/y.cs"), project_of(refs, "README.md"),
                  project_of({**refs, "": frozenset()}, "README.md"),
                  [options.tested_application(f"src/P{i}/T.cs") for i in range(3)]]))
"""


def test_innermost_project_of_many_projects() -> None:
    """``project_of`` (acc68c; every ASP.NET route, test file and ``tested_application``) compared a path with
    every project folder: 20,000 routes of 2,000 projects took 3.0 s, 100,000 of 5,000 a minute and more. It now
    asks the path's own folders, innermost first (0.007 s for the 20,000)."""
    done = subprocess.run([sys.executable, "-c", _PROJECTS], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == [0, "src/P2345", "src/P7/Nested", "src/P70", None, None, "",
                                       [None, None, None]]  # no service units named: no application


_SCHEMA_INDEXES = ["chunk_rows_checksum", "chunk_rows_file", "chunk_rows_vectors", "edge_rows_dst", "edge_rows_file", "edge_rows_src",
                   "ids_hash", "node_rows_file", "node_rows_name", "unresolved_rows_caller", "unresolved_rows_file",
                   "unresolved_rows_name"]


def test_indexes_lost_by_an_older_build_come_back(tmp_path) -> None:
    """A store whose deferred indexes (cpu68b) were committed dropped (by hand, or a build that crashed between
    its restore and its commit in another way) kept writing without them forever: a store holding rows defers
    and restores nothing, an empty one restores only what it had. ``node_rows_name`` gone, every name lookup
    scanned the table. A writable open now creates the schema's missing indexes (logged)."""
    import sqlite3

    from click.testing import CliRunner

    from lsp_server.cli import main

    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "m.py").write_text("def a():\n    return b()\n\n\ndef b():\n    return 1\n")
    db = tmp_path / "x.db"
    done = CliRunner().invoke(main, ["index", str(repo), "--db", str(db), "--no-embed"])
    assert done.exit_code == 0, done.output

    def names() -> list[str]:
        with sqlite3.connect(db) as conn:
            return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'"
                                               " AND name NOT LIKE 'sqlite_%' ORDER BY name")]

    assert names() == _SCHEMA_INDEXES
    with sqlite3.connect(db) as conn:
        conn.execute("DROP INDEX node_rows_name")
        conn.execute("DROP INDEX edge_rows_file")
    assert "node_rows_name" not in names()
    (repo / "m.py").write_text("def a():\n    return b()\n\n\ndef b():\n    return 2\n")
    done = CliRunner().invoke(main, ["index", str(repo), "--db", str(db), "--no-embed"])
    assert done.exit_code == 0, done.output
    assert names() == _SCHEMA_INDEXES
    with sqlite3.connect(db) as conn:
        plan = " ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN SELECT nid FROM node_rows WHERE name = 1"))
        assert plan == "SEARCH node_rows USING COVERING INDEX node_rows_name (name=?)"


_TWO_APIS = """
// --- path: server/routes.js ---
import express from 'express';
const app = express();
app.get('/api/v1/users', (req, res) => res.json([]));
app.get('/auth/users', (req, res) => res.json([]));
app.get('/auth/me', (req, res) => res.json({}));
app.get('/users', (req, res) => res.json([]));
// --- path: web/src/services/api.js ---
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
export const mainApi = createApi({ reducerPath: 'main', baseQuery: fetchBaseQuery({ baseUrl: '/api/v1' }),
  endpoints: (b) => ({ users: b.query({ query: () => '/users' }) }) });
export const authApi = createApi({ reducerPath: 'auth', baseQuery: fetchBaseQuery({ baseUrl: '/auth' }),
  endpoints: (b) => ({ users: b.query({ query: () => 'users' }), me: b.query({ query: () => '/me' }) }) });
// --- path: web/src/services/shared.js ---
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
const baseQuery = fetchBaseQuery({ baseUrl: '/auth' });
export const sharedApi = createApi({ baseQuery, endpoints: (b) => ({ me: b.query({ query: () => '/me' }) }) });
export const plainApi = createApi({ baseQuery: fetchBaseQuery({ baseUrl: '/api/v1' }),
  endpoints: (b) => ({ users: b.query({ query: () => '/users' }) }) });
// --- path: web/src/services/custom.js ---
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
const one = fetchBaseQuery({ baseUrl: '/auth' });
const two = fetchBaseQuery({ baseUrl: '/api/v1' });
export const customApi = createApi({ baseQuery: pick(one, two), endpoints: (b) => ({ me: b.query({ query: () => '/me' }) }) });
"""


def test_rtk_query_apis_of_one_file_keep_their_own_base() -> None:
    """RTK Query (brk68a) took a file's base URL only when the file held one ``fetchBaseQuery``: two apis in one file
    (``mainApi`` on ``/api/v1``, ``authApi`` on ``/auth``) both lost theirs, and ``mainApi.users`` and
    ``authApi.users`` both reached the server's ``/users`` (so did ``plainApi.users``, beside a module-level
    ``baseQuery``), not ``/api/v1/users`` / ``/auth/users``. Each
    ``createApi`` now takes the ``fetchBaseQuery`` in its own arguments, else the file's one outside every api; two
    outside (``custom.js``) stay unknown, as before."""
    from tests.resolution_harness import edges, resolve_fixture

    got = [e for e in edges(resolve_fixture(_TWO_APIS), "CALLS_HTTP") if "services" in e]
    assert got == [
        "web/src/services/api.authApi(0) -> endpoint:GET /auth/me",
        "web/src/services/api.authApi(0) -> endpoint:GET /auth/users",
        "web/src/services/api.mainApi(0) -> endpoint:GET /api/v1/users",
        "web/src/services/custom.customApi(0) -> endpoint:GET /auth/me",
        "web/src/services/shared.plainApi(0) -> endpoint:GET /api/v1/users",
        "web/src/services/shared.sharedApi(0) -> endpoint:GET /auth/me",
    ]


def test_spring_port_placeholders_nested() -> None:
    """``server.port: ${SERVER_PORT:${PORT:8081}}`` (Spring resolves a default's own placeholder: 8081 when neither
    is set) declared no port (acc68b read one level only), and ``${B:1`` (unclosed) gave port 1, its ``${B`` taken
    for a host. Nested defaults are now peeled, at most 8 deep; a host holds no ``{``, ``}`` or ``$``."""
    from indexer.frameworks.app_ports import port_of, spring_ports

    values = ["${A:${B:1}}", "${SERVER_PORT:${PORT:8081}}", "${PORT:8081}", "${A:${B}}", "${A:}", "${A:${B:99999}}",
              "${A:${B:0}}", "${A:0.0.0.0:9000}", "${A:" * 8 + "7" + "}" * 8, "${A:" * 9 + "7" + "}" * 9, "${A:${B:1}",
              "${B:1", "${A:x}", "${A:${B:1}}}", "${A:" * 50_000 + "1" + "}" * 50_000, "http://*:5000", "[::]:8080"]
    assert [port_of(v) for v in values] == [1, 8081, 8081, None, None, None, None, 9000, 7, None, None, None, None,
                                            None, None, 5000, 8080]
    assert spring_ports({"svc": {"server.port": "${SERVER_PORT:${PORT:8081}}"}, "b": {"server.port": "${P:${Q}}"}}) \
        == {"svc": [8081]}


_CSHARP = """
import json, sys
from indexer.languages import extractor_for_path
n = int(sys.argv[1])
head = '''using FastEndpoints;
namespace Api;
public class Svc { public Svc(IRepo repo) { } }
public class Two { public Two(IA a) { } public Two(IB b) { } }
public partial class Part { public Part(IP p) { } }
public partial class Part { }
'''
src = head + "".join(
    f"public class E{i} : Endpoint<Req, Res>\\n{{\\n    public E{i}(IDep{i % 3} d) {{ }}\\n"
    f"    public override void Configure() {{ Get(\\"/e{i}/{{id}}\\"); }}\\n"
    f"    public override async Task HandleAsync(Req r, CancellationToken c) {{ }}\\n}}\\n" for i in range(n))
ex = extractor_for_path("E.cs").extract("E.cs", src.encode())
routes = [(r.methods, r.path.literal() if hasattr(r.path, "literal") else str(r.path), r.handler) for r in ex.routes]
inj = [(i.owner, i.type) for i in ex.injections]
print(json.dumps([len(routes), list(routes[-1]), inj[:4], len(inj), inj[-1]]))
"""


def test_csharp_files_of_many_classes() -> None:
    """Two scans of every definition per class made a C# file's extraction quadratic in its classes (generated DTO
    and endpoint files hold thousands): the extractor's constructor injections looked for the class's
    constructors among all definitions so far (8,000 classes: 12.6 s of 21), and FastEndpoints (acc68c) for its
    methods among all the file's. 8,000 endpoint classes took 10.0 s to extract, now 2.5 s; 20,000 run inside the
    90 s bound with the same facts: one route and one constructor injection per class; a class of two
    constructors injects nothing; a partial class's constructor is seen by both its parts, as before."""
    done = subprocess.run([sys.executable, "-c", _CSHARP, "20000"], capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == [
        20_000, [["GET"], "/e19999/{id}", "E19999.HandleAsync"],
        [["Svc", "IRepo"], ["Part", "IP"], ["Part", "IP"], ["E0", "IDep0"]], 20_003, ["E19999", "IDep1"]]


_KOTLIN = """
import json, sys
from indexer.languages import extractor_for_path
n = int(sys.argv[1])
src = "package a\\n" + "".join(f"data class D{i}(val a: Int, b: String)\\n" for i in range(n))
ex = extractor_for_path("D.kt").extract("D.kt", src.encode())
last = sorted((b.scope, b.name, b.type, b.how) for b in ex.bindings if b.scope == f"D{n - 1}")
print(json.dumps([len(ex.definitions), len(ex.bindings), last]))
"""


def test_kotlin_files_of_many_classes() -> None:
    """The same scan in the Kotlin extractor: a primary constructor looked for its class's properties among all
    definitions so far, to bind only its plain parameters. 16,000 ``data class D(val a: Int, b: String)`` took
    15.2 s to extract, now 2.5 s; 30,000 inside the 30 s bound, with the same facts as before (``a`` and ``this.a``
    from the property, ``b`` as a plain parameter, not ``this.b``)."""
    done = subprocess.run([sys.executable, "-c", _KOTLIN, "30000"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == [120_000, 90_000, [["D29999", "a", "Int", "declared"],  # the property's
                                                         ["D29999", "b", "String", "declared"],  # the plain parameter
                                                         ["D29999", "this.a", "Int", "declared"]]]
