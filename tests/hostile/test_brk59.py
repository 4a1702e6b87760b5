"""Hostile suite, session 59 (brk59): what the newcomer run on two multi-service repositories found
(ThreeDotsLabs/wild-workouts-go-ddd-example, Go modules per service; sqshq/piggymetrics, Spring Cloud
services configured by a config server), and attacks on session 58's additions. Every input is
generated here (no committed blobs).

- :class:`TestGoDefinedInterfaceTypes`: wild-workouts keeps one ``go.mod`` per service and declares each
  command handler as ``type ScheduleTrainingHandler decorator.CommandHandler[ScheduleTraining]`` (a type
  defined as a generic interface of the ``common`` module). A call ``g.app.Commands.ScheduleTraining.Handle``
  linked nothing (the defined type had no methods) and the handlers of ``internal/trainer`` satisfied no
  interface of ``internal/common`` (implicit implementations were looked for within one ``go.mod``), so
  ``ripple impact`` of a repository method reached no endpoint: now the trainer's gRPC and HTTP endpoints
  and, through the generated gRPC client, the trainings service's callers.
- :class:`TestConfigServerContextPaths`: piggymetrics sets each service's ``server.servlet.context-path``
  (``/accounts``, ``/statistics``, ``/uaa``, ``/notifications``) in the files its Spring Cloud Config Server
  serves (``config/src/main/resources/shared/<application>.yml``, ``native`` profile): ignored, so the
  account and statistics services both served ``GET /current`` and ``GET /{name}``, and the Feign clients'
  ``GET /accounts/{accountName}``, ``PUT /statistics/{accountName}`` and ``POST /uaa/users`` reached no
  handler (``ripple endpoints``: 9 served, 6 called only; now 11 served, each client linked, 1 called only:
  the external rates API).
- :class:`TestRequestPathTargets`: ``ripple callers "GET /api/trainer/calendar"`` (the URL a developer sees)
  said "no symbol matches ...; try a qualified name such as Class.method": the route is ``GET
  /{}/trainer/calendar`` (oapi-codegen's ``options.BaseURL +`` prefix). A request path now names the routes
  serving it (each ``{}`` one segment), and an endpoint target matching none lists the endpoints whose path
  ends like it.
- :class:`TestChangedWhileIndexed`: a file whose extraction came from the extraction cache and whose bytes
  changed between the read and the write (an edit, a ``git checkout`` during a long run; a forked one-shot
  run widens that window to the whole extraction and binding) was left out of the write while the other
  files' edges to its nodes went in: a first run into a new index (warm cache) committed dangling edges
  (``tests.index_dump.problems``: ``dangling edge ('CALLS', 'r:pkg/m30.f30(1)', 'r:pkg/m31.f31(1)')`` on a
  450-file tree, and so for a file turned binary or replaced by a folder). Its rows now go in as bound,
  without text or chunks, and the journal has the next run write it again.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.agent_queries import TargetError, resolve_target
from analysis.navigation import closest_endpoints, routes_serving
from indexer.frameworks.spring_config import is_served_config, load_module_properties
from indexer.incremental import is_config_path
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
import indexer.incremental as incremental
import indexer.whole_tree as whole_tree
from indexer.forked import can_fork
from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from tests.index_dump import dump, problems
from tests.resolution_harness import edges, resolve_fixture, write_tree

HANDLERS = """
// --- path: common/go.mod ---
module example.com/app/common
// --- path: common/decorator/command.go ---
package decorator

import "context"

type CommandHandler[C any] interface {
    Handle(ctx context.Context, cmd C) error
}

type logging[C any] struct{ base CommandHandler[C] }

func (l logging[C]) Handle(ctx context.Context, cmd C) error { return l.base.Handle(ctx, cmd) }
// --- path: trainings/go.mod ---
module example.com/app/trainings

require example.com/app/common v0.0.0
// --- path: trainings/command/cancel.go ---
package command

import "context"

// another service using common: trainer's code never holds it
type cancelHandler struct{}

func (h cancelHandler) Handle(ctx context.Context, cmd string) error { return nil }
// --- path: trainer/go.mod ---
module example.com/app/trainer

require (
    example.com/app/common v0.0.0
    github.com/sirupsen/logrus v1.5.0
)
// --- path: trainer/command/schedule.go ---
package command

import (
    "context"

    "example.com/app/common/decorator"
)

type Schedule struct{}

type ScheduleHandler decorator.CommandHandler[Schedule]

type scheduleHandler struct{}

func (h scheduleHandler) Handle(ctx context.Context, cmd Schedule) error { return nil }

// Plain is a struct type; Renamed is defined as it: it has no method of Plain's own.
type Plain struct{}

func (p Plain) Handle(ctx context.Context, cmd Schedule) error { return nil }

type Renamed Plain
// --- path: trainer/ports/grpc.go ---
package ports

import (
    "context"

    "example.com/app/trainer/command"
)

type Server struct{ h command.ScheduleHandler }

func (s Server) Schedule(ctx context.Context) error {
    return s.h.Handle(ctx, command.Schedule{})
}
// --- path: billing/go.mod ---
module example.com/app/billing
// --- path: billing/pay.go ---
package billing

import "context"

// billing requires nothing of common: its Handle satisfies none of common's interfaces.
type payHandler struct{}

func (p payHandler) Handle(ctx context.Context, cmd int) error { return nil }
"""


class TestGoDefinedInterfaceTypes:
    def test_a_call_on_a_type_defined_as_an_interface_reaches_the_implementations(self):
        result = resolve_fixture(HANDLERS)
        calls = [e for e in edges(result) if e.startswith("trainer/ports/grpc.Server.Schedule")]
        assert calls == [
            "trainer/ports/grpc.Server.Schedule(1) -> common/decorator/command.CommandHandler.Handle(2) [inferred]",
            # not common's generic logging[C].Handle(ctx, cmd C): ScheduleHandler binds C to Schedule, and
            # the implementations taking Schedule are the targets (acc60: types compared)
            "trainer/ports/grpc.Server.Schedule(1) -> trainer/command/schedule.Plain.Handle(2) [inferred]",
            "trainer/ports/grpc.Server.Schedule(1) -> trainer/command/schedule.scheduleHandler.Handle(2) [inferred]",
        ]
        # billing's payHandler is of a module that does not require common, trainings' cancelHandler of a
        # module trainer does not require: never reached from trainer
        assert not any("billing" in e or "trainings" in e for e in calls)
        # common's own code reaches the implementations of every module requiring it (not billing's)
        assert [e for e in edges(result) if e.startswith("common/decorator/command.logging.Handle")] == [
            "common/decorator/command.logging.Handle(2) -> common/decorator/command.CommandHandler.Handle(2) [exact]",
            "common/decorator/command.logging.Handle(2) -> common/decorator/command.logging.Handle(2) [inferred]",
            "common/decorator/command.logging.Handle(2) -> trainer/command/schedule.Plain.Handle(2) [inferred]",
            "common/decorator/command.logging.Handle(2) -> trainer/command/schedule.scheduleHandler.Handle(2) [inferred]",
            "common/decorator/command.logging.Handle(2) -> trainings/command/cancel.cancelHandler.Handle(2) [inferred]",
        ]

    def test_implementations_across_required_modules_only(self):
        result = resolve_fixture(HANDLERS)
        implements = edges(result, "IMPLEMENTS")
        assert implements == [
            # common's generic decorator satisfies the generic CommandHandler only, not trainer's
            # ScheduleHandler (CommandHandler[Schedule]): its Handle takes its own type parameter (acc60)
            "common/decorator/command.logging -> common/decorator/command.CommandHandler",
            "trainer/command/schedule.Plain -> common/decorator/command.CommandHandler",
            "trainer/command/schedule.Plain -> trainer/command/schedule.ScheduleHandler",
            "trainer/command/schedule.scheduleHandler -> common/decorator/command.CommandHandler",
            "trainer/command/schedule.scheduleHandler -> trainer/command/schedule.ScheduleHandler",
            "trainings/command/cancel.cancelHandler -> common/decorator/command.CommandHandler",
        ]
        # Renamed (type Renamed Plain) has none of Plain's own methods; ScheduleHandler is an interface,
        # no concrete type; billing requires nothing of common
        assert not any(e.startswith(("trainer/command/schedule.Renamed", "trainer/command/schedule.ScheduleHandler",
                                     "billing/")) for e in implements)
        # trainings requires nothing of trainer: its handler satisfies none of trainer's interfaces
        assert "trainings/command/cancel.cancelHandler -> trainer/command/schedule.ScheduleHandler" not in implements
        assert edges(result, "EXTENDS") == [
            "trainer/command/schedule.Renamed -> trainer/command/schedule.Plain",
            "trainer/command/schedule.ScheduleHandler -> common/decorator/command.CommandHandler",
        ]


FEIGN = """package shop.notify;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.*;

@FeignClient(name = "account-service")
public interface AccountClient {
    @RequestMapping(method = RequestMethod.GET, value = "/accounts/{accountName}")
    String getAccount(@PathVariable("accountName") String accountName);
}
"""
CONTROLLER = """package shop.{pkg};

import org.springframework.web.bind.annotation.*;

@RestController
public class {cls} {
    @RequestMapping(path = "/{name}", method = RequestMethod.GET)
    public String byName(@PathVariable String name) { return name; }
}
"""
CLIENT_BOOTSTRAP = "spring:\n  application:\n    name: {name}\n  cloud:\n    config:\n      uri: http://config:8888\n"


def config_server_repo(root: Path, search: str = "classpath:/shared") -> Path:
    """Three services and a config server serving their context paths (piggymetrics' layout)."""
    return write_tree(root, {
        "config/src/main/resources/application.yml": (
            f"spring:\n  cloud:\n    config:\n      server:\n        native:\n          search-locations: {search}\n"
            "  profiles:\n    active: native\nserver:\n  port: 8888\n"),
        "config/src/main/resources/shared/application.yml": "logging:\n  level:\n    root: INFO\n",
        "config/src/main/resources/shared/account-service.yml": "server:\n  servlet:\n    context-path: /accounts\n",
        "config/src/main/resources/shared/account-service-docker.yml": (
            "server:\n  servlet:\n    context-path: /docker\n  port: 6000\n"),
        "config/src/main/resources/shared/statistics-service.yml": "server:\n  servlet:\n    context-path: /statistics\n",
        "account-service/src/main/resources/bootstrap.yml": CLIENT_BOOTSTRAP.format(name="account-service"),
        "account-service/src/main/java/shop/account/AccountController.java":
            CONTROLLER.replace("{pkg}", "account").replace("{cls}", "AccountController"),
        "statistics-service/src/main/resources/bootstrap.yml": CLIENT_BOOTSTRAP.format(name="statistics-service"),
        "statistics-service/src/main/java/shop/stats/StatsController.java":
            CONTROLLER.replace("{pkg}", "stats").replace("{cls}", "StatsController"),
        # not a config client: the shared files never reach it
        "local-service/src/main/resources/application.yml": "spring:\n  application:\n    name: statistics-service\n",
        "notification-service/src/main/resources/bootstrap.yml": CLIENT_BOOTSTRAP.format(name="notification-service"),
        "notification-service/src/main/java/shop/notify/AccountClient.java": FEIGN,
    })


class TestConfigServerContextPaths:
    def test_a_client_module_gets_what_the_server_serves_it(self, tmp_path: Path):
        modules = load_module_properties(config_server_repo(tmp_path))
        account = modules["account-service"]
        # its own file over the shared application.yml; the docker profile's file only fills keys
        assert account["server.servlet.context-path"] == "/accounts"
        assert account["server.port"] == "6000"
        assert account["logging.level.root"] == "INFO"
        assert modules["statistics-service"]["server.servlet.context-path"] == "/statistics"
        assert modules["notification-service"]["logging.level.root"] == "INFO"
        assert "server.servlet.context-path" not in modules["notification-service"]
        # not a config client, and the server itself: nothing served
        assert "server.servlet.context-path" not in modules["local-service"]
        assert "server.servlet.context-path" not in modules["config"]

    def test_locations_outside_the_repository_or_of_a_profile_serve_nothing(self, tmp_path: Path):
        (tmp_path / "outside").mkdir()
        write_tree(tmp_path / "outside", {"account-service.yml": "server:\n  servlet:\n    context-path: /out\n"})
        repo = tmp_path / "repo"
        for search in ("file:../../outside", "file:/etc", "classpath:/{profile}", "classpath:/../../../../outside"):
            modules = load_module_properties(config_server_repo(repo, search))
            assert "server.servlet.context-path" not in modules["account-service"], search

    def test_an_application_placeholder_location(self, tmp_path: Path):
        root = config_server_repo(tmp_path, "classpath:/per-app/{application}")
        write_tree(root, {"config/src/main/resources/per-app/account-service/account-service.properties":
                          "server.servlet.context-path=/acc\n"})
        modules = load_module_properties(root)
        assert modules["account-service"]["server.servlet.context-path"] == "/acc"
        assert "server.servlet.context-path" not in modules["statistics-service"]

    def test_the_feign_client_reaches_the_handler_under_the_served_context_path(self, tmp_path: Path):
        root = config_server_repo(tmp_path / "repo")
        db = tmp_path / "x.db"
        store = EmbeddedStore(db)
        try:
            index_repository(root, store, store, IndexOptions(repo="pm", jobs=1))
        finally:
            store.close()
        assert problems(db) == []
        with sqlite3.connect(db) as conn:
            exposed = sorted(conn.execute("SELECT src, dst FROM edges WHERE kind = 'EXPOSES'"))
            called = sorted(conn.execute("SELECT src, dst FROM edges WHERE kind = 'CALLS_HTTP'"))
        assert exposed == [
            ("pm:account-service/src/main/java/shop/account/AccountController.AccountController.byName(String)",
             "endpoint:GET /accounts/{}"),
            ("pm:statistics-service/src/main/java/shop/stats/StatsController.StatsController.byName(String)",
             "endpoint:GET /statistics/{}"),
        ]
        # the Feign client of the notification service reaches the account service's handler only
        assert called == [("pm:notification-service/src/main/java/shop/notify/AccountClient.AccountClient.getAccount(String)",
                           "endpoint:GET /accounts/{}")]

    def test_a_served_file_is_configuration_for_a_watcher(self):
        assert is_served_config("config/src/main/resources/shared/account-service.yml")
        assert is_config_path("config/src/main/resources/shared/account-service.yml")
        assert is_config_path("src/main/resources/shared/x.properties")
        assert not is_config_path("config/src/main/java/shared/account-service.yml")
        assert not is_config_path("docs/account-service.yml")
        assert not is_served_config("config/src/main/resources/shared/logo.png")


FLASK_ROUTES = """from flask import Flask

app = Flask(__name__)
BASE = load_base()


@app.route(BASE + "/trainer/calendar")
def calendar():
    return "c"


@app.route("/users/<int:uid>/posts", methods=["GET", "POST"])
def posts(uid):
    return "p"


@app.route("/files/<name>.json")
def file_json(name):
    return name


@app.route("/users/me/posts")
def my_posts():
    return "m"
"""
CLEAN_ENV = {"RIPPLE_CONFIG": None, "RIPPLE_DB": None, "RIPPLE_GRAPH_BACKEND": None, "RIPPLE_SEARCH_BACKEND": None}


@pytest.fixture(scope="module")
def routes_db(tmp_path_factory) -> Path:
    """An index of :data:`FLASK_ROUTES` (repository ``app``)."""
    tmp = tmp_path_factory.mktemp("routes")
    root = write_tree(tmp / "app", {"app.py": FLASK_ROUTES})
    db = tmp / "x.db"
    store = EmbeddedStore(db)
    try:
        index_repository(root, store, store, IndexOptions(repo="app", jobs=1))
    finally:
        store.close()
    return db


class TestRequestPathTargets:

    def serving(self, db: Path, method: str, path: str) -> list[str]:
        store = EmbeddedStore(db)
        try:
            return [n.id for n in routes_serving(store, method, path)]
        finally:
            store.close()

    def test_the_endpoints_indexed(self, routes_db):
        store = EmbeddedStore(routes_db)
        try:
            names = sorted(n.name for n in store.labelled(["Endpoint"]))
        finally:
            store.close()
        assert names == ["GET /files/{}.json", "GET /users/me/posts", "GET /users/{}/posts", "GET /{}/trainer/calendar",
                         "POST /users/{}/posts"]

    def test_a_request_path_names_the_routes_serving_it(self, routes_db):
        assert self.serving(routes_db, "GET", "/api/trainer/calendar") == ["endpoint:GET /{}/trainer/calendar"]
        assert self.serving(routes_db, "get", "/users/7/posts") == ["endpoint:GET /users/{}/posts"]
        assert self.serving(routes_db, "POST", "/users/7/posts") == ["endpoint:POST /users/{}/posts"]
        assert self.serving(routes_db, "GET", "/files/report.json") == ["endpoint:GET /files/{}.json"]

    def test_what_serves_no_request(self, routes_db):
        # another method, another segment count, another literal, an empty segment, a parameter where the route has text
        assert self.serving(routes_db, "DELETE", "/users/7/posts") == []
        assert self.serving(routes_db, "GET", "/users/7/posts/9") == []
        assert self.serving(routes_db, "GET", "/api/v2/trainer/calendar") == []
        assert self.serving(routes_db, "GET", "/files/report.txt") == []
        assert self.serving(routes_db, "GET", "/files/.json") == []
        assert self.serving(routes_db, "GET", "/{x}/trainer/calendar") == ["endpoint:GET /{}/trainer/calendar"]
        assert self.serving(routes_db, "GET", "/users/{id}/posts/{}") == []
        assert self.serving(routes_db, "GRPC", "a.B/C") == []

    def test_an_exact_route_wins_over_a_template(self, routes_db):
        result = CliRunner().invoke(main, ["callers", "GET /users/me/posts", "--db", str(routes_db)], env=CLEAN_ENV,
                                    catch_exceptions=False)
        assert result.exit_code == 0
        assert result.stdout.splitlines()[0] == "GET /users/me/posts  (endpoint endpoint:GET /users/me/posts)"

    def test_the_cli_answers_a_request_path(self, routes_db):
        result = CliRunner().invoke(main, ["callers", "GET /api/trainer/calendar", "--db", str(routes_db)], env=CLEAN_ENV,
                                    catch_exceptions=False)
        assert result.exit_code == 0
        assert result.stdout.splitlines()[0] == "GET /{}/trainer/calendar  (endpoint endpoint:GET /{}/trainer/calendar)"

    def test_a_miss_lists_the_endpoints_ending_like_it(self, routes_db):
        result = CliRunner().invoke(main, ["callers", "GET /trainer/calendar", "--db", str(routes_db)], env=CLEAN_ENV)
        assert result.exit_code == 1
        assert result.stderr.strip() == ("Error: no endpoint matches 'GET /trainer/calendar'; closest: GET /{}/trainer/calendar; "
                                         "`ripple endpoints --unserved` lists them all")
        # {} of /users/{}/posts serves "nothing": both methods listed (neither is PUT), by id
        result = CliRunner().invoke(main, ["callers", "PUT /nothing/posts", "--db", str(routes_db)], env=CLEAN_ENV)
        assert result.stderr.strip() == ("Error: no endpoint matches 'PUT /nothing/posts'; closest: GET /users/{}/posts, "
                                         "POST /users/{}/posts; `ripple endpoints --unserved` lists them all")
        result = CliRunner().invoke(main, ["impact", "PUT /nothing/here", "--db", str(routes_db)], env=CLEAN_ENV)
        assert result.stderr.strip() == ("Error: no endpoint matches 'PUT /nothing/here'; "
                                         "`ripple endpoints --unserved` lists them all")
        store = EmbeddedStore(routes_db)
        try:
            near = [n.name for n in closest_endpoints(store, "POST /v2/users/9/posts", 5)]
            assert closest_endpoints(store, "Flask.route", 5) is None  # no endpoint text: names are looked up
        finally:
            store.close()
        # three segments in common, the same method first; /users/me/posts shares one ("me" is not 9): left out
        assert near == ["POST /users/{}/posts", "GET /users/{}/posts"]

    def test_the_agent_tools_list_the_closest_endpoints_by_name(self, routes_db):
        store = EmbeddedStore(routes_db)
        try:
            with pytest.raises(TargetError) as caught:
                resolve_target(store, "GET /trainer/calendar")
            # named without an empty "()" for the file an endpoint has not
            assert "closest names: GET /{}/trainer/calendar. Pass one" in str(caught.value)
            targets, _ = resolve_target(store, "GET /api/trainer/calendar")
            assert [t.id for t in targets] == ["endpoint:GET /{}/trainer/calendar"]
        finally:
            store.close()


CHANGED_TREE = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def helper():\n    return 1\n",
    "pkg/b.py": "from pkg.a import helper\n\n\ndef use():\n    return helper()\n",
}


def run_index(root: Path, db: Path, state: Path) -> None:
    store = EmbeddedStore(db)
    try:
        index_repository(root, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(state)))
    finally:
        store.close()


class TestChangedWhileIndexed:
    @pytest.fixture(params=["forked", "in_process"])
    def mutating(self, request, monkeypatch, tmp_path):
        """Index runs whose extraction and binding are followed (in the forked child, or in process) by
        an edit of ``pkg/a.py`` (``helper`` renamed), before the write."""
        target = tmp_path / "second" / "pkg" / "a.py"

        def edit() -> None:
            if target.exists():
                target.write_text("def renamed():\n    return 2\n")

        if request.param == "forked":
            if not can_fork():
                pytest.skip("no fork here")
            real = whole_tree.bind_in_child
            monkeypatch.setattr(incremental, "forks", lambda n: True)
            monkeypatch.setattr(whole_tree, "bind_in_child",
                                lambda work, pinned: real(lambda: (edit(), work())[1], pinned))
        else:
            monkeypatch.setattr(incremental, "forks", lambda n: False)
            real_bind = incremental.RepositoryIndex._extract_bind

            def bind_then_edit(self, *args, **kwargs):
                got = real_bind(self, *args, **kwargs)
                edit()
                return got

            monkeypatch.setattr(incremental.RepositoryIndex, "_extract_bind", bind_then_edit)
        return target

    def test_the_index_stays_whole_and_the_next_run_takes_the_edit(self, tmp_path, mutating):
        state = tmp_path / "state"  # one extraction cache: the second tree's files are cache hits
        write_tree(tmp_path / "first", CHANGED_TREE)
        run_index(tmp_path / "first", tmp_path / "first.db", state)
        second = write_tree(tmp_path / "second", CHANGED_TREE)
        db = tmp_path / "second.db"
        run_index(second, db, state)
        assert problems(db) == []
        rows = dump(db)
        assert ("CALLS", "r:pkg/b.use(0)", "r:pkg/a.helper(0)", "r", "pkg/b.py", 5, 11, "exact") in rows["edges"]
        assert "r:pkg/a.helper(0)" in {n[0] for n in rows["nodes"]}
        assert not any(c[2] == "pkg/a.py" for c in rows["chunks"])  # no text read: no chunk until the next run
        assert "pkg/a.py" in {f[1] for f in rows["files"]}
        # the next run writes the edited file (the journal), and the index is then that of a clean run
        run_index(second, db, state)
        clean = tmp_path / "clean.db"
        run_index(second, clean, tmp_path / "clean-state")
        assert problems(db) == []
        assert dump(db) == dump(clean)
        assert "r:pkg/a.renamed(0)" in {n[0] for n in dump(db)["nodes"]}
        assert any(c[2] == "pkg/a.py" for c in dump(db)["chunks"])
