"""Hostile suite, session 58 (brk58): what the newcomer run on bxcodec/go-clean-arch (an echo service) found,
and attacks on the indexer, the CLI and the stores. Every input is generated here (no committed blobs).

- :class:`TestEchoMethodConstants`: echo's own verb constants (``echo.POST``) in ``http.NewRequest`` and
  ``e.Add`` were read as "any method", and a request with an unknown method was linked as a GET: go-clean-arch's
  ``TestStore`` (``echo.POST``) and ``TestDelete`` (``echo.DELETE``) were clients of ``GET /article``.
- :class:`TestGoPackageClauses`: eddycjy/go-gin-example imports ``routers/api`` and ``routers/api/v1``
  (``package v1``): the path convention bound both to ``api`` (``v1`` read as a major version), so none of
  its 15 gin routes had a handler (``ripple endpoints``: 0; now 14, the 15th an external handler).
- :class:`TestGoPackageTargets`: ``ripple callers models.GetTags`` (a Go package and its function, as Go
  code writes it) matched nothing on go-gin-example: only the file's name qualified (``tag.GetTags``).
- :class:`TestRouteTableOfNames`: Sairyss/domain-driven-hexagon routes its Nest controllers by
  ``routesV1 = { version: v1, user: { root: usersRoot, delete: `/${usersRoot}/:id` } }``: a property whose
  value is only a name was no constant, so its three HTTP endpoints were ``GET /{}/{}``, ``POST /{}/{}`` and
  ``DELETE /{}/users/{}`` (now ``/v1/users``, ``/v1/users``, ``/v1/users/{}``).
- :class:`TestEmptyIndex`: ``kill -9`` of a first ``ripple index`` of mono10 (2,330 files) while it wrote
  (WAL at 20 MB) leaves a consistent index holding nothing (the transaction rolled back); every query
  then answered as if the code had nothing (``no symbol matches``, ``0 endpoints``, ``no results``),
  ``ripple stats`` printed blank cells and ``ripple doctor`` said "all checks passed".
- :class:`TestLongTarget`: ``ripple callers`` of a 100,000-character target echoed it whole in its error.
- :class:`TestDeepToml`: a repository's ``.ripple/config.toml`` of ``x = [[[...]]]`` 600 deep (1.2 KB) made
  every command run inside it (``index``, ``callers``, ``stats``, even ``doctor``) end in a RecursionError
  traceback (tomllib parses arrays and inline tables recursively); the same in a ``--all`` manifest.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer.languages.ecmascript.typescript import EXTRACTOR as TS
from indexer.languages.go.extractor import EXTRACTOR
from indexer.manifest import ManifestError, load_manifest
from lsp_server.cli import main
from stores.config import ConfigError, load_config
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from stores.embedded_schema import SCHEMA_VERSION
from tests.index_dump import problems


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def index(root: Path, db: Path, repo: str = "r") -> Path:
    """Index ``root`` as ``repo`` into a fresh embedded store at ``db``; checked consistent."""
    store = EmbeddedStore(db)
    try:
        index_repository(root, store, store, IndexOptions(repo=repo, jobs=1))
    finally:
        store.close()
    assert problems(db) == []
    return db


def edges(db: Path, kind: str) -> list[tuple[str, str, int]]:
    """``(src, dst, line)`` of the edges of ``kind``, sorted."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return sorted(conn.execute("SELECT src, dst, line FROM edges WHERE kind = ?", (kind,)).fetchall())
    finally:
        conn.close()


# ------------------------------------------------------------------ newcomer: echo's verb constants

ECHO_REST = '''package rest

import (
    "net/http"

    "github.com/labstack/echo/v4"
)

type H struct{}

func (h *H) Patch(c echo.Context) error { return nil }
func (h *H) Put(c echo.Context) error { return nil }

func Register(e *echo.Echo, h *H, verb string) {
    e.Add(echo.PATCH, "/items/:id", h.Patch)
    e.Add(http.MethodPut, "/items", h.Put)
    e.Add(verb, "/dynamic", h.Put)
}
'''

ECHO_TEST = '''package rest

import (
    "context"
    "net/http"
    "testing"

    "github.com/labstack/echo/v4"
    other "example.com/other"
)

func TestStore(t *testing.T) {
    http.NewRequestWithContext(context.TODO(), echo.POST, "/items", nil)
}

func TestDelete(t *testing.T) {
    http.NewRequest(echo.DELETE, "/items/"+id, nil)
}

func TestOther(t *testing.T) {
    http.NewRequest(other.PATCH, "/items/1", nil)
    http.NewRequest(echo.Nope, "/items/2", nil)
}
'''


class TestEchoMethodConstants:
    def test_echo_verb_constants_are_the_methods_of_requests_and_routes(self) -> None:
        ex = EXTRACTOR.extract("rest/a.go", ECHO_REST.encode())
        assert [(r.framework, r.methods, r.path.literal(), r.handler_ref) for r in ex.routes] == [
            ("echo", ["PATCH"], "/items/:id", "h.Patch"),
            ("echo", ["PUT"], "/items", "h.Put"),
        ]  # `e.Add(verb, ...)`: a method nobody states is no route
        ex = EXTRACTOR.extract("rest/a_test.go", ECHO_TEST.encode())
        # `other.PATCH` is a package's constant too (a verb name), `echo.Nope` is no verb: any method
        assert [(c.method, c.caller) for c in ex.http_calls] == [
            ("POST", "TestStore"), ("DELETE", "TestDelete"), ("PATCH", "TestOther"), ("*", "TestOther")]

    def test_a_local_value_named_like_a_verb_is_no_method(self) -> None:
        src = ECHO_TEST.replace("echo.POST", "req.POST").replace("func TestStore(t *testing.T) {",
                                                                "func TestStore(t *testing.T) {\n    req := x()")
        ex = EXTRACTOR.extract("rest/a_test.go", src.encode())
        assert [c.method for c in ex.http_calls if c.caller == "TestStore"] == ["*"]

    def test_the_requests_link_to_the_endpoints_of_their_verbs(self, tmp_path: Path) -> None:
        root = write_tree(tmp_path / "svc", {"go.mod": "module example.com/svc\n\ngo 1.21\n",
                                             "rest/a.go": ECHO_REST, "rest/a_test.go": ECHO_TEST})
        db = index(root, tmp_path / "x.db")
        assert edges(db, "EXPOSES") == [
            ("r:rest/a.H.Patch(1)", "endpoint:PATCH /items/{}", 15),
            ("r:rest/a.H.Put(1)", "endpoint:PUT /items", 16),
        ]
        assert edges(db, "CALLS_HTTP") == [
            ("r:rest/a_test.TestDelete(1)", "endpoint:DELETE /items/{}", 17),
            ("r:rest/a_test.TestOther(1)", "endpoint:GET /items/2", 22),  # unknown method: GET, as fetch; no route: as written
            ("r:rest/a_test.TestOther(1)", "endpoint:PATCH /items/{}", 21),
            ("r:rest/a_test.TestStore(1)", "endpoint:POST /items", 13),
        ]


# ------------------------------------------------------------------ a configuration nested too deep

DEEP_ARRAY = "x = " + "[" * 600 + "]" * 600 + "\n"
DEEP_TABLE = "[search]\nx = " + "{a = " * 600 + "1" + "}" * 600 + "\n"
CLEAN_ENV = {"RIPPLE_CONFIG": None, "RIPPLE_DB": None, "RIPPLE_GRAPH_BACKEND": None, "RIPPLE_SEARCH_BACKEND": None,
             "RIPPLE_EMBEDDING_MODEL": None, "RIPPLE_SERVICES": None}


class TestDeepToml:
    @pytest.mark.parametrize("text", [DEEP_ARRAY, DEEP_TABLE], ids=["array", "inline_table"])
    def test_an_untrusted_workspace_file_too_deep_is_ignored_with_a_warning(self, tmp_path, text) -> None:
        ws = write_tree(tmp_path / "ws", {".ripple/config.toml": text})
        home = tmp_path / "home"
        home.mkdir()
        config = load_config(ws, {"HOME": str(home)})
        assert config.warnings == (f"{ws / '.ripple' / 'config.toml'} nests arrays or inline tables too deep to read; "
                                   "fix the file or remove it (the file is ignored)",)
        assert (config.graph.backend, config.search.backend) == ("embedded", "embedded")

    def test_the_user_s_own_file_too_deep_is_an_error(self, tmp_path) -> None:
        home = tmp_path / "home"
        write_tree(home, {".config/ripple/config.toml": DEEP_ARRAY})
        with pytest.raises(ConfigError, match=r"config\.toml nests arrays or inline tables too deep to read; "
                                              r"fix the file or remove it$"):
            load_config(tmp_path, {"HOME": str(home)})

    def test_commands_run_inside_such_a_repository_answer(self, tmp_path, monkeypatch) -> None:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        ws = write_tree(tmp_path / "ws", {".ripple/config.toml": DEEP_ARRAY, "a.py": "def f():\n    return 1\n\n\n"
                                          "def g():\n    return f()\n"})
        monkeypatch.chdir(ws)
        runner = CliRunner()
        index = runner.invoke(main, ["index", str(ws), "--no-embed"], env=CLEAN_ENV, catch_exceptions=False)
        assert index.exit_code == 0, index.output
        callers = runner.invoke(main, ["callers", "f"], env=CLEAN_ENV, catch_exceptions=False)
        assert callers.exit_code == 0
        assert callers.stdout.splitlines() == ["ws:a.f(0)  (function, a.py:1)", "1 call site from 1 caller",
                                               "a.py:6:12  g  [exact]"]
        assert "RecursionError" not in callers.output  # the warning: once per process, on the console's stderr

    def test_a_manifest_too_deep_is_refused_with_a_message(self, tmp_path) -> None:
        path = tmp_path / "manifest.toml"
        path.write_text(DEEP_ARRAY, encoding="utf-8")
        with pytest.raises(ManifestError, match=r"^manifest .*manifest\.toml nests arrays or inline tables too deep "
                                                r"to read$"):
            load_manifest(path)


# ------------------------------------------------------------------ Go: package names from package clauses

GO_ROUTER = """package routers

import (
    "github.com/gin-gonic/gin"
    "github.com/labstack/echo/v4"

    "example.com/shop/routers/api"
    "example.com/shop/routers/api/v1"
    "example.com/shop/database"
)

func InitRouter() *gin.Engine {
    r := gin.New()
    r.POST("/auth", api.GetAuth)
    g := r.Group("/api/v1")
    g.GET("/tags", v1.GetTags)
    db.Open()
    database.Open()
    nothere.Open()
    v1_test.Open()
    _ = echo.New()
    return r
}
"""
GO_SHOP = {
    "go.mod": "module example.com/shop\n\ngo 1.21\n",
    "routers/router.go": GO_ROUTER,
    "routers/api/auth.go": "package api\n\nimport \"github.com/gin-gonic/gin\"\n\nfunc GetAuth(c *gin.Context) {}\n",
    "routers/api/v1/tag.go": "package v1\n\nimport \"github.com/gin-gonic/gin\"\n\nfunc GetTags(c *gin.Context) {}\n",
    "routers/api/v1/tag_test.go": "package v1_test\n\nfunc Open() {}\n",
    "database/db.go": "package db\n\nfunc Open() {}\n",
}


class TestGoPackageClauses:
    def test_a_versioned_import_beside_its_parent_is_bound_to_its_last_segment(self) -> None:
        ex = EXTRACTOR.extract("routers/router.go", GO_ROUTER.encode())
        assert [(i.local, i.module) for i in ex.imports] == [
            ("gin", "github.com/gin-gonic/gin"), ("echo", "github.com/labstack/echo/v4"),
            ("api", "example.com/shop/routers/api"), ("v1", "example.com/shop/routers/api/v1"),
            ("database", "example.com/shop/database")]
        alone = GO_ROUTER.replace('    "example.com/shop/routers/api"\n', "")
        assert [i.local for i in EXTRACTOR.extract("routers/router.go", alone.encode()).imports] == [
            "gin", "echo", "api", "database"]  # no other `api`: the convention's name stays

    def test_handlers_and_calls_reach_the_packages_their_clauses_name(self, tmp_path: Path) -> None:
        db = index(write_tree(tmp_path / "shop", GO_SHOP), tmp_path / "x.db")
        assert edges(db, "EXPOSES") == [
            ("r:routers/api/auth.GetAuth(1)", "endpoint:POST /auth", 14),
            ("r:routers/api/v1/tag.GetTags(1)", "endpoint:GET /api/v1/tags", 16),
        ]
        # `db.Open()` (line 17) is `package db` of the folder `database`; `database.Open()` (18) keeps the
        # import's conventional name (Go would refuse it: left as before); `nothere.Open()` reaches nothing,
        # nor does `v1_test.Open()`: a `_test.go` file's package clause names no package
        rows = sorted((s, d, line) for s, d, line in edges(db, "CALLS"))
        assert rows == [("r:routers/router.InitRouter(0)", "r:database/db.Open(0)", 17),
                        ("r:routers/router.InitRouter(0)", "r:database/db.Open(0)", 18)]


# ------------------------------------------------------------------ an index holding nothing

EMPTY_WARNING = ("warning: index {db} holds no repository: nothing was indexed into it, or the `ripple index` that "
                 "made it was stopped before it finished writing; run `ripple index PATH`")


def ripple(*args: str, **env: str):
    """``ripple ARGS`` in process (click's runner) with a clean environment plus ``env``."""
    return CliRunner().invoke(main, list(args), env={**CLEAN_ENV, **env}, catch_exceptions=False)


class TestEmptyIndex:
    """The state a ``ripple index`` killed before its commit leaves: the schema, no row."""

    @pytest.fixture
    def empty(self, tmp_path, monkeypatch) -> Path:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        db = tmp_path / "killed.db"
        EmbeddedStore(db).close()
        return db

    @pytest.mark.parametrize(("args", "code", "stdout"), [
        (["callers", "f"], 1, ""), (["references", "f"], 1, ""), (["impact", "f"], 1, ""),
        (["endpoints"], 0, "0 endpoints\n"), (["search", "f"], 0, "no results\n"),
    ])
    def test_queries_say_the_index_holds_nothing(self, empty, args, code, stdout) -> None:
        result = ripple(*args, "--db", str(empty))
        assert (result.exit_code, result.stdout) == (code, stdout)
        lines = [" ".join(x.split()) for x in result.stderr.split("\nError")]
        assert lines[0].strip() == EMPTY_WARNING.format(db=empty)

    def test_stats_prints_zeros_and_doctor_warns(self, empty) -> None:
        rows = [[c.strip() for c in line.strip("│").split("│")] for line in ripple("stats", "--db", str(empty)).stdout
                .splitlines() if line.startswith("│")]
        assert rows == [["files", "0"], ["nodes", "0"], ["edges", "0"], ["CALLS edges by resolution", "0"],
                        ["call sites unresolved", "0"], ["repos", "none"], ["chunks", "0"], ["embedded", "0"]]
        doctor = ripple("doctor", "--db", str(empty))
        assert doctor.exit_code == 0
        assert doctor.stdout.splitlines()[1:3] == [
            f"warn  graph   embedded {empty}: schema {SCHEMA_VERSION}, 0 files, 0 nodes, 0 edges: the index holds no file (nothing "
            "was indexed into it, or the `ripple index` that made it was stopped before it finished writing)",
            "              fix: run `ripple index PATH`"]

    def test_the_agent_tools_say_so_too(self, empty) -> None:
        from mcp.server.mcpserver.exceptions import ToolError

        from lsp_server.mcp_server import Backend

        with pytest.raises(ToolError) as caught:
            Backend([empty]).call(lambda q: q.callers("f", None, None, None))
        assert "no symbol matches 'f': the index holds no repository (nothing was indexed into it, or the `ripple " \
               "index` that made it was stopped before it finished writing); run `ripple index PATH`" in str(caught.value)

    def test_an_index_holding_a_repository_gives_no_warning(self, empty, tmp_path) -> None:
        src = write_tree(tmp_path / "src", {"a.py": "def f():\n    pass\n\n\ndef g():\n    f()\n"})
        assert ripple("index", str(src), "--db", str(empty), "--no-embed").exit_code == 0
        result = ripple("callers", "f", "--db", str(empty))
        assert (result.exit_code, result.stderr) == (0, "")
        assert result.stdout.splitlines()[-1] == "a.py:6:5  g  [exact]"
        assert ripple("doctor", "--db", str(empty)).stdout.splitlines()[1].startswith(
            f"ok    graph   embedded {empty}: schema {SCHEMA_VERSION}, 1 file, ")


# ------------------------------------------------------------------ TypeScript: route tables of names

ROUTES_TS = """import { BASE } from './base';

const usersRoot = 'users';
const v1 = 'v1';
let mutable = 'x';
const count = 5;

export const routesV1 = {
  version: v1,
  base: BASE,
  later: mutable,
  n: count,
  unknown: nowhere,
  user: { root: usersRoot, delete: `/${usersRoot}/:id`, usersRoot },
};
export const API = BASE;
"""

CONTROLLER_TS = """import { Controller, Get, Delete, Post } from '@nestjs/common';
import { routesV1 } from './app.routes';

@Controller(routesV1.version)
export class UsersController {
  @Get(routesV1.user.root)
  find() {}

  @Delete(routesV1.user.delete)
  remove() {}

  @Post(routesV1.n)
  count() {}

  @Post(routesV1.later)
  later() {}

  @Get(`${routesV1.user.usersRoot}/all`)
  all() {}
}
"""


class TestRouteTableOfNames:
    def test_a_property_naming_a_constant_or_an_import_is_that_name(self) -> None:
        ex = TS.extract("src/app.routes.ts", ROUTES_TS.encode())
        assert [(c.qualname, c.value.parts) for c in ex.constants] == [
            ("usersRoot", (("lit", "users"),)),
            ("v1", (("lit", "v1"),)),
            ("routesV1.version", (("ref", "v1"),)),
            ("routesV1.base", (("ref", "BASE"),)),
            ("routesV1.n", (("ref", "count"),)),  # a constant of this file, read as one: no string, no path
            ("routesV1.user.root", (("ref", "usersRoot"),)),
            ("routesV1.user.delete", (("lit", "/"), ("ref", "usersRoot"), ("lit", "/:id"))),
            ("routesV1.user.usersRoot", (("ref", "usersRoot"),)),
            ("API", (("ref", "BASE"),)),
        ]  # `later: mutable` (a `let`) and `unknown: nowhere` (bound nowhere) are no constants

    def test_the_controller_s_routes_read_through_the_table(self, tmp_path: Path) -> None:
        root = write_tree(tmp_path / "app", {"src/app.routes.ts": ROUTES_TS, "src/base.ts": "export const BASE = '/api';\n",
                                            "src/users.controller.ts": CONTROLLER_TS})
        db = index(root, tmp_path / "x.db")
        # `{ usersRoot }` is `usersRoot: usersRoot`: the value is the module's constant, not the property itself
        assert edges(db, "EXPOSES") == [
            ("r:src/users.controller.UsersController.all(0)", "endpoint:GET /v1/users/all", 18),
            ("r:src/users.controller.UsersController.count(0)", "endpoint:POST /v1/{}", 12),
            ("r:src/users.controller.UsersController.find(0)", "endpoint:GET /v1/users", 6),
            ("r:src/users.controller.UsersController.later(0)", "endpoint:POST /v1/{}", 15),
            ("r:src/users.controller.UsersController.remove(0)", "endpoint:DELETE /v1/users/{}", 9),
        ]


# ------------------------------------------------------------------ a target of 100,000 characters

class TestLongTarget:
    def test_the_error_quotes_the_first_200_characters_and_counts_the_rest(self, tmp_path, monkeypatch) -> None:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        src = write_tree(tmp_path / "src", {"a.py": "def f():\n    pass\n"})
        db = tmp_path / "x.db"
        assert ripple("index", str(src), "--db", str(db), "--no-embed").exit_code == 0
        for command in ("callers", "references", "impact"):
            result = ripple(command, "q" * 100_000, "--db", str(db))
            assert result.exit_code == 1
            assert " ".join(result.stderr.split()) == (
                f"Error: no symbol matches '{'q' * 200}'… (100,000 characters); try a qualified name such as "
                "Class.method or package.module.function, a node id or PATH:LINE"), command
        short = ripple("callers", "qq", "--db", str(db))
        assert " ".join(short.stderr.split()).startswith("Error: no symbol matches 'qq'; ")

    def test_the_agent_tools_quote_it_so_too(self, tmp_path, monkeypatch) -> None:
        from mcp.server.mcpserver.exceptions import ToolError

        from lsp_server.mcp_server import Backend

        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        db = index(write_tree(tmp_path / "src", {"a.py": "def f():\n    pass\n"}), tmp_path / "x.db")
        with pytest.raises(ToolError) as caught:
            Backend([db]).call(lambda q: q.callers("q" * 100_000, None, None, None))
        assert f"no symbol matches '{'q' * 200}'… (100,000 characters)" in str(caught.value)
        assert "q" * 201 not in str(caught.value)


# ------------------------------------------------------------------ Go: package-qualified targets

class TestGoPackageTargets:
    def test_a_go_function_is_named_by_its_folder(self, tmp_path, monkeypatch) -> None:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        db = index(write_tree(tmp_path / "shop", GO_SHOP), tmp_path / "x.db")
        result = ripple("callers", "database.Open", "--db", str(db))
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines() == ["r:database/db.Open(0)  (function, database/db.go:3)",
                                              "2 call sites from 1 caller",
                                              "routers/router.go:17:8  InitRouter  [exact]",
                                              "routers/router.go:18:14  InitRouter  [exact]"]
        nested = ripple("callers", "api.v1.GetTags", "--db", str(db))
        assert nested.stdout.splitlines()[0] == "r:routers/api/v1/tag.GetTags(1)  (function, routers/api/v1/tag.go:5)"
        for wrong in ("routers.Open", "api.GetTags", "shop.Open"):  # not the folder of any definition of it
            miss = ripple("callers", wrong, "--db", str(db))
            assert miss.exit_code == 1 and "no symbol matches" in miss.stderr, wrong
