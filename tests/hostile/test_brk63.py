"""Session 63, brk63: a newcomer on GoogleCloudPlatform/microservices-demo and
Denrox/nestjs-microservices-example, and session 62's additions attacked. Each class is one defect
found, with exact expectations and what must not be linked or kept. Every input is generated here.

- :class:`TestDotenvWarning`: nestjs-microservices-example's ``.env.example`` has a line python-dotenv
  cannot parse (``MAILER_FROM="Test mail" <someusername@denrox.com>``); every ``ripple index`` printed
  ``WARNING python-dotenv could not parse statement starting at line 21`` naming no file, and a
  newcomer could not tell which of the repository's files it meant.
- :class:`TestGeneratedStubsRankAfterTheImplementation`: microservices-demo keeps ``protoc``'s Go stubs
  in each service (``src/*/genproto/demo_grpc.pb.go``) and Python stubs in two: ``ripple search
  PlaceOrder`` listed 17 generated definitions before ``checkoutService.PlaceOrder``, the one service
  implementing it (#18), and ``server.GetQuote`` was not in the first 12.
- :class:`TestNginxTemplateGrowth`: an nginx template filled from a Dockerfile ``ENV`` is read whole
  after ``envsubst``; the cap on the file's size held before filling only, so 2,000 ``$X`` of a 250 KB
  value (a 12 KB template) made a 500 MB string in the index run.
- :class:`TestNginxStopPrefixes`: each ``location ^~`` was compared with every ordinary prefix of its
  server: one 470 KB file of 10,000 of each took 7.3 s of CPU (500 files are read), and a ``^~``
  prefix that hundreds of longer prefixes start had them all in its pattern, each its own
  alternative even when one starts another.
- :class:`TestFullCacheFolder`: with the user's cache folder full (a 2 MB tmpfs as ``XDG_CACHE_HOME``),
  ``ripple index`` of 699 files (three packages of the generated monorepo) ended with ``Error: disk
  full ... write the index to another disk (--db / RIPPLE_DB)``, the index being on another disk: the
  forked child's spill file (pinned: it may not move) refused a write, and the parent raised the
  child's ``OSError`` instead of binding in process, where a spill file moves to memory. The same run
  printed one ``extraction cache write failed`` warning per file (716). With the cache folder on a
  read-only file system the run is refused (the folder registry lives there), but the message
  (``cannot create ...: [Errno 30] Read-only file system: ...``) said neither what the folder is nor
  how to choose another.
- :class:`TestTopicCallers`: ``ripple impact "topic:nest:user_get_by_id"`` counted 2 direct callers (its
  producers, brk62's rule for endpoint and topic targets) while ``ripple callers`` of the same topic
  said ``0 call sites``: an endpoint's callers were its HTTP clients, a topic's were nothing. And
  ``ripple callers convert`` (microservices-demo's grpc-js handler, 3 gRPC clients) said ``0 call
  sites`` with no word of the endpoint its clients reach it through.
- :class:`TestLocustClients`: microservices-demo's load generator (locust) requests every page of the
  frontend (``l.client.get("/product/" + random.choice(products))``); no locust request was read, so
  ``ripple callers "GET /product/{id}"`` listed nothing.
"""

from __future__ import annotations

import json
import logging
import os

import pytest

import indexer.forked_resolve as forked_resolve
import indexer.spill as spill_module
from analysis import ranking
from indexer.extract_cache import ExtractionCache
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from indexer.spill import PinnedWriteRefused, SpillFile
from analysis.navigation import callers
from stores.errors import StoreUnavailable
from click.testing import CliRunner

from lsp_server.cli import main as cli_main
from tests.index_harness import index_files
from tests.resolution_harness import extract_fixture
from stores.factory import claim_repository, state_dir
from tests.index_dump import dump
from analysis.retrieval import QueryEngine
from indexer.frameworks.clients import gateway_url
from indexer.frameworks.env_config import env_values, load_env_files
from indexer.frameworks.nginx_config import MAX_FILE_BYTES, MAX_LOOKAHEAD, load_nginx_routes
from indexer.frameworks.services import service_map
from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore
from stores.gateway import GatewayRoute
from tests.resolution_harness import write_tree

# -- a .env line python-dotenv cannot parse --------------------------------------------------------------


class TestDotenvWarning:
    TEXT = 'API=http://api.local\nMAILER_FROM="Test mail" <someone@example.com>\nBASE=/v1\nGONE=/x\nGONE\n'

    def test_the_other_values_stay_and_the_line_is_named_with_its_file_at_info(
            self, caplog: pytest.LogCaptureFixture) -> None:
        caplog.set_level(logging.DEBUG)
        assert env_values(self.TEXT, "web/.env.example") == {"API": "http://api.local", "BASE": "/v1"}
        records = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
        assert records == [("indexer.frameworks.env_config", "INFO",
                            "web/.env.example line 2 ignored: python-dotenv cannot parse it")]

    def test_a_repository_index_logs_no_warning_for_it(self, tmp_path, caplog: pytest.LogCaptureFixture) -> None:
        (tmp_path / ".env.example").write_text(self.TEXT)
        caplog.set_level(logging.WARNING)
        assert load_env_files(tmp_path) == {"": {"API": "http://api.local", "BASE": "/v1"}}
        assert caplog.records == []


# -- protoc's stubs ranked before the implementation ---------------------------------------------------


def _def(path: str, qualname: str, language: str, arity: int = 2, **props: object) -> Node:
    module = path.rsplit(".", 1)[0]
    return Node(f"r:{module}.{qualname}({arity})", "Method", qualname.rsplit(".", 1)[-1], qualname, "r", path, 1, 0, 2,
                0, {"language": language, **props})


GEN_SERVER = _def("src/checkout/genproto/demo_grpc.pb.go", "CheckoutServiceServer.PlaceOrder", "go", exported=True)
GEN_CLIENT = _def("src/frontend/genproto/demo_grpc.pb.go", "CheckoutServiceClient.PlaceOrder", "go", exported=True)
GEN_PY = _def("src/email/demo_pb2_grpc.py", "CheckoutServiceServicer.PlaceOrder", "python", 3)
IMPL = _def("src/checkout/main.go", "checkoutService.PlaceOrder", "go", exported=True)
PROTO = _def("protos/demo.proto", "CheckoutService.PlaceOrder", "proto", 1)
MOCK = _def("src/checkout/main_test.go", "mockCheckout.PlaceOrder", "go", exported=True)
HANDLER = _def("src/frontend/handlers.go", "frontendServer.placeOrderHandler", "go", 2)
BASE_RUN = _def("src/lib/runner.go", "Runner.Run", "go", 0, exported=True)
IMPL_RUN = _def("src/lib/fast.go", "fastRunner.Run", "go", 0, exported=True)


@pytest.fixture
def stub_store(tmp_path):
    s = EmbeddedStore(tmp_path / "index.db")
    edges = {IMPL.file: [Edge("OVERRIDES", IMPL.id, GEN_SERVER.id, "r", IMPL.file, 3, 1, None)],
             HANDLER.file: [Edge("CALLS", HANDLER.id, GEN_CLIENT.id, "r", HANDLER.file, 5, 1, "exact"),
                            Edge("CALLS", HANDLER.id, IMPL.id, "r", HANDLER.file, 6, 1, "inferred")],
             IMPL_RUN.file: [Edge("OVERRIDES", IMPL_RUN.id, BASE_RUN.id, "r", IMPL_RUN.file, 3, 1, None),
                             Edge("CALLS", IMPL_RUN.id, IMPL_RUN.id, "r", IMPL_RUN.file, 4, 1, "exact")]}
    files = []
    for n in (GEN_SERVER, GEN_CLIENT, GEN_PY, IMPL, PROTO, MOCK, HANDLER, BASE_RUN, IMPL_RUN):
        language = str(n.props["language"])
        f = IndexedFile(FileRecord("r", n.file, language, "0" * 64, 10))
        f.nodes = [n]
        kind = "method"
        f.chunks = [Chunk(n.id, "r", "r", n.file, language, kind, n.name, n.id, None, 1, 2, f"func {n.name}()", n.id)]
        f.edges = edges.get(n.file, [])
        files.append(f)
    s.replace_files(files)
    yield s
    s.close()


class TestGeneratedStubsRankAfterTheImplementation:
    def test_the_implementation_then_the_proto_then_tests_and_stubs(self, stub_store: EmbeddedStore) -> None:
        ranked = ranking.named_definitions(stub_store, stub_store, "PlaceOrder", None)
        assert [(n.id, s) for n, s in ranked] == [
            (IMPL.id, (4 + 2 + 1 + 1 / 2) / 8),  # overrides only a generated interface: a base of its own
            (PROTO.id, (4 + 2 + 1) / 8),
            (GEN_SERVER.id, (2 + 1 + 1 / 2) / 8),  # generated: ranked as test code is (fan-in: IMPL overrides it)
            (GEN_CLIENT.id, (2 + 1 + 1 / 2) / 8),  # (fan-in: the handler calls it)
            (MOCK.id, (2 + 1) / 8),
            (GEN_PY.id, (2 + 1) / 8),
        ]

    def test_tests_wanted_put_the_test_first_and_the_stubs_with_the_implementation_after_it(
            self, stub_store: EmbeddedStore) -> None:
        ranked = ranking.named_definitions(stub_store, stub_store, "PlaceOrder", None, wants_tests=True)
        # the test first; the rest by public, base, fan-in, then id (IMPL, GEN_SERVER and GEN_CLIENT tie)
        assert [n.id for n, _ in ranked] == [MOCK.id, GEN_SERVER.id, IMPL.id, GEN_CLIENT.id, PROTO.id, GEN_PY.id]

    def test_an_override_of_hand_written_code_still_follows_its_base(self, stub_store: EmbeddedStore) -> None:
        ranked = ranking.named_definitions(stub_store, stub_store, "Run", None)
        assert [(n.id, s) for n, s in ranked] == [(BASE_RUN.id, (4 + 2 + 1 + 1 / 2) / 8),
                                                  (IMPL_RUN.id, (4 + 2 + 0 + 1 / 2) / 8)]

    def test_the_search_answers_the_implementation_first_and_a_stub_takes_the_test_prior(
            self, stub_store: EmbeddedStore) -> None:
        result = QueryEngine(stub_store, stub_store).search("PlaceOrder", limit=3)
        assert [h.node.id for h in result.hits] == [IMPL.id, PROTO.id, GEN_SERVER.id]
        chunk = stub_store.get_chunks([GEN_PY.id])[GEN_PY.id]
        assert ranking.prior_factor(chunk, GEN_PY, ranking.DEFAULT_PRIORS, False) == pytest.approx(0.5 * 0.8)
        assert ranking.prior_factor(chunk, GEN_PY, ranking.DEFAULT_PRIORS, True) == pytest.approx(0.5 * 0.8)
        impl = stub_store.get_chunks([IMPL.id])[IMPL.id]
        assert ranking.prior_factor(impl, IMPL, ranking.DEFAULT_PRIORS, False) == pytest.approx(0.8)


# -- nginx: a template that grows past the cap when filled --------------------------------------------


class TestNginxTemplateGrowth:
    def _tree(self, tmp_path, value: str, uses: int):
        return write_tree(tmp_path / "r", {
            "compose.yaml": "services:\n  proxy:\n    build: proxy\n  api:\n    build: api\n",
            "api/Dockerfile": "FROM python:3.12\n",
            "proxy/Dockerfile": f"FROM nginx\nENV API_HOST=api\nENV PAD={value}\n",
            "proxy/default.conf.template": (
                "server { location /api/ { proxy_pass http://${API_HOST}:8080/; } }\n" + "# $PAD\n" * uses),
        })

    def test_a_template_that_would_pass_the_cap_once_filled_is_skipped_as_too_large(self, tmp_path) -> None:
        root = self._tree(tmp_path, "x" * (MAX_FILE_BYTES // 20), 21)  # 21 x 25 KB: past 500 KB once filled
        loaded = load_nginx_routes(str(root), service_map(root), {})
        assert loaded.routes == ()
        assert loaded.skipped == (("proxy/default.conf.template", "too_large"),)

    def test_one_that_stays_under_it_is_filled_and_read(self, tmp_path) -> None:
        root = self._tree(tmp_path, "x" * (MAX_FILE_BYTES // 20), 19)
        loaded = load_nginx_routes(str(root), service_map(root), {})
        assert loaded.skipped == ()
        assert loaded.routes == (GatewayRoute("api", ("~(?:^/api/)",), (), (("ReplacePrefix", "/api/", "/"),)),)


# -- nginx: ^~ prefixes against the longer ordinary ones ----------------------------------------------


class TestNginxStopPrefixes:
    def test_only_the_shortest_longer_prefixes_are_left_out_of_the_pattern(self, tmp_path) -> None:
        root = write_tree(tmp_path / "r", {"nginx.conf": (
            "server {\n location ^~ /s/ { proxy_pass http://svc/; }\n"
            " location /s/a/ { proxy_pass http://a/; }\n location /s/a/b/ { proxy_pass http://b/; }\n"
            " location /s/c { proxy_pass http://c/; }\n location /t/ { proxy_pass http://t/; }\n}\n")})
        routes = load_nginx_routes(str(root), service_map(root), {h: h for h in ("svc", "a", "b", "c", "t")}).routes
        assert [(r.service, r.paths) for r in routes] == [
            ("svc", ("~(?:^/s/(?!a/|c))",)),  # not /s/a/b/: /s/a/ excludes it
            ("b", ("~(?:^/s/a/b/)",)), ("a", ("~(?:^/s/a/)",)), ("c", ("~(?:^/s/c)",)), ("t", ("~(?:^/t/)",))]
        assert gateway_url(routes, "GET", "/s/x") == ("svc", "/x")
        assert gateway_url(routes, "GET", "/s/a/b/x") == ("b", "/x")
        assert gateway_url(routes, "GET", "/s/cart") == ("c", "/art")  # nginx's prefix match is textual

    def test_a_stop_prefix_that_too_many_longer_prefixes_start_forwards_nothing(self, tmp_path) -> None:
        n = MAX_LOOKAHEAD + 1
        locations = "".join(f" location /s/p{i:04d}/ {{ proxy_pass http://a/; }}\n" for i in range(n))
        root = write_tree(tmp_path / "r", {"nginx.conf": (
            "server {\n location ^~ /s/ { proxy_pass http://svc/; }\n" + locations +
            " location ^~ /u/ { proxy_pass http://svc/; }\n location /u/p0/ { proxy_pass http://a/; }\n}\n")})
        routes = load_nginx_routes(str(root), service_map(root), {"svc": "svc", "a": "a"}).routes
        assert len(routes) == n + 3
        assert (routes[0].service, routes[0].paths, routes[0].filters) == ("", ("~(?:^/s/)",), ())
        assert (routes[1].service, routes[1].paths) == ("svc", ("~(?:^/u/(?!p0/))",))  # the other ^~ kept
        assert gateway_url(routes, "GET", "/s/x") is None  # no service rather than a wrong one
        assert gateway_url(routes, "GET", "/s/p0007/x") is None
        assert gateway_url(routes, "GET", "/u/x") == ("svc", "/x")
        assert gateway_url(routes, "GET", "/u/p0/x") == ("a", "/x")


# -- a full cache folder: the forked child's pinned spill refused a write ------------------------------

SOURCES = {
    "app/repo.py": "class Repo:\n    def save(self, x):\n        return x\n",
    "app/service.py": "from app.repo import Repo\n\n\ndef process(x):\n    return Repo().save(x)\n",
    "app/main.py": "from app.service import process\n\n\ndef main():\n    return process(1)\n",
}


def _index_tree(src, db, state) -> None:
    store = EmbeddedStore(db)
    try:
        index_repository(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(state)))
    finally:
        store.close()


class TestFullCacheFolder:
    def test_a_pinned_spill_file_refuses_with_its_own_error(self, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
        spill = SpillFile(str(tmp_path))
        spill.pinned = True

        def full(fh, data):  # type: ignore[no-untyped-def]
            raise OSError(28, "No space left on device")

        monkeypatch.setattr("indexer.spill._write_all", full)
        with pytest.raises(PinnedWriteRefused) as refused:
            spill.put(b"x")
        assert (refused.value.errno, refused.value.strerror) == (28, "No space left on device")
        assert spill.size == 0 and not spill.moved

    def test_the_parent_binds_in_process_when_the_childs_spill_write_is_refused(
            self, tmp_path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
        src = write_tree(tmp_path / "src", SOURCES)
        _index_tree(src, tmp_path / "here.db", tmp_path / "here-state")  # no fork: 3 files
        expected = dump(tmp_path / "here.db")
        monkeypatch.setattr(forked_resolve, "FORK_MIN_FILES", 0)
        parent = os.getpid()
        real = spill_module._write_all

        def full_in_child(fh, data):  # type: ignore[no-untyped-def]
            if os.getpid() != parent:
                raise OSError(28, "No space left on device")
            real(fh, data)

        monkeypatch.setattr("indexer.spill._write_all", full_in_child)
        with caplog.at_level(logging.WARNING, logger="indexer.forked_resolve"):
            _index_tree(src, tmp_path / "x.db", tmp_path / "state")
        assert [r.getMessage() for r in caplog.records if r.name == "indexer.forked_resolve"] == [
            "the forked child could not write its spill files ([Errno 28] No space left on device): "
            "binding in this process"]
        assert dump(tmp_path / "x.db") == expected

    def test_another_error_of_the_child_is_still_raised_as_itself(self, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
        src = write_tree(tmp_path / "src", SOURCES)
        monkeypatch.setattr(forked_resolve, "FORK_MIN_FILES", 0)
        parent = os.getpid()
        from indexer.resolve.repository import RepositoryResolver

        def fails(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise OSError(5, f"I/O error in {'the parent' if os.getpid() == parent else 'a child'}")

        monkeypatch.setattr(RepositoryResolver, "resolve", fails)
        with pytest.raises(OSError, match="I/O error in a child") as raised:
            _index_tree(src, tmp_path / "x.db", tmp_path / "state")
        assert type(raised.value) is OSError

    def test_the_extraction_cache_warns_once_then_logs_at_info(self, tmp_path, monkeypatch: pytest.MonkeyPatch,
                                                               caplog: pytest.LogCaptureFixture) -> None:
        cache = ExtractionCache(tmp_path / "cache")

        def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(cache._cache, "set", refuse)
        caplog.set_level(logging.INFO, logger="indexer.extract_cache")
        for i in range(3):
            cache.put_blob(f"f{i}.py", "0" * 64, b"blob")
        assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
            ("WARNING", "extraction cache write failed for f0.py: [Errno 28] No space left on device (files it "
                        "cannot keep are parsed again by the next run; further failures are logged with -v)"),
            ("INFO", "extraction cache write failed for f1.py: [Errno 28] No space left on device"),
            ("INFO", "extraction cache write failed for f2.py: [Errno 28] No space left on device")]
        cache.close()


class TestUnwritableCacheFolder:
    def test_the_message_names_the_folder_and_how_to_choose_another(self, tmp_path, monkeypatch) -> None:
        blocked = tmp_path / "cache-is-a-file"
        blocked.write_text("")
        monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
        db = tmp_path / "x.db"
        store = EmbeddedStore(db)
        try:
            with pytest.raises(StoreUnavailable) as refused:
                claim_repository(store, db, "r", tmp_path)
        finally:
            store.close()
        state = state_dir(db)
        assert str(refused.value) == (
            f"cannot create {state}: Not a directory: {state}; the state folder of an index (its folder "
            "registry, journal and caches) is under $XDG_CACHE_HOME/ripple/state, else ~/.cache/ripple/state: set "
            "XDG_CACHE_HOME to a folder you can write")


# -- a topic's callers are its producers ---------------------------------------------------------------


class TestTopicCallers:
    FILES = {
        "gw/users.controller.ts": (
            "import { Controller, Get, Inject } from '@nestjs/common';\n"
            "import { ClientProxy } from '@nestjs/microservices';\n\n"
            "@Controller('users')\nexport class UsersController {\n"
            "  constructor(@Inject('USER') private readonly users: ClientProxy) {}\n\n"
            "  @Get()\n  list() {\n    return this.users.send('user_list', {});\n  }\n\n"
            "  count() {\n    return this.users.send('user_count', {});\n  }\n}\n"),
        "user/user.controller.ts": (
            "import { Controller } from '@nestjs/common';\n"
            "import { MessagePattern } from '@nestjs/microservices';\n\n"
            "@Controller()\nexport class UserController {\n"
            "  @MessagePattern('user_list')\n  list() {\n    return [];\n  }\n}\n"),
    }

    def test_callers_of_a_topic_are_its_producers_and_of_its_consumer_the_code_calling_it(self, tmp_path) -> None:
        store = index_files(tmp_path / "r", self.FILES, "r")
        try:
            topics = store.get_nodes(["topic:nest:user_list", "topic:nest:user_count"])
            refs = callers(store, [topics["topic:nest:user_list"]])
            assert [(r.kind, r.source.id, r.file, r.line, r.col) for r in refs] == [
                ("PRODUCES", "r:gw/users.controller.UsersController.list(0)", "gw/users.controller.ts", 10, 11)]
            refs = callers(store, [topics["topic:nest:user_count"]])
            assert [r.source.id for r in refs] == ["r:gw/users.controller.UsersController.count(0)"]
            consumer = store.get_nodes(["r:user/user.controller.UserController.list(0)"])
            assert callers(store, list(consumer.values())) == []  # consuming is no call of the handler
        finally:
            store.close()

    def test_callers_of_a_handler_name_the_endpoint_or_topic_others_reach_it_through(self, tmp_path) -> None:
        index_files(tmp_path / "r", self.FILES, "r").close()
        db = str(tmp_path / "i.db")
        run = CliRunner().invoke(cli_main, ["callers", "UserController.list", "--db", db], catch_exceptions=False)
        assert run.exit_code == 0
        assert run.output.splitlines() == [
            "r:user/user.controller.UserController.list(0)  (method, user/user.controller.ts:6)", "0 call sites",
            "also reached through topic:nest:user_list (1 producer): ripple callers 'topic:nest:user_list' lists it"]
        run = CliRunner().invoke(cli_main, ["callers", "UsersController.list", "--db", db], catch_exceptions=False)
        assert run.output.splitlines()[-1] == (
            "also reached through GET /users (no client indexed)")
        run = CliRunner().invoke(cli_main, ["callers", "UsersController.count", "--db", db], catch_exceptions=False)
        assert "also reached" not in run.output  # it serves nothing: a producer only
        run = CliRunner().invoke(cli_main, ["callers", "UserController.list", "--db", db, "--json"],
                                 catch_exceptions=False)
        assert "also reached" not in run.output  # the JSON document has it as data (front64)
        assert json.loads(run.output)["reached_through"] == [{
            "id": "topic:nest:user_list", "name": "topic:nest:user_list", "kind": "topic", "whose": "producers",
            "callers": 1}]


# -- locust load tests request the host under load ----------------------------------------------------

LOCUST = """
# --- path: loadgen/locustfile.py ---
import random
from locust import FastHttpUser, TaskSet, between, task

products = ['0PUK6V6EV0', '1YMWWN1N4O']

def index(l):
    l.client.get("/")

def browse(l):
    l.client.get("/product/" + random.choice(products))

def checkout(l):
    l.client.post("/cart/checkout", {"email": "a@b.c"})
    l.client.request("DELETE", "/cart")
    l.client.cookies.get("session")

class UserBehavior(TaskSet):
    tasks = {index: 1, browse: 10, checkout: 1}

class WebsiteUser(FastHttpUser):
    wait_time = between(1, 10)

    @task
    def logout(self):
        self.client.get('/logout', name="logout")
        self.environment.client.get("/not-a-user-client")
# --- path: other/jobs.py ---
class Jobs:
    def run(self, l):
        self.client.get("/cart")
        l.client.get("/cart")
"""


class TestLocustClients:
    def test_user_and_task_function_requests_are_http_calls(self) -> None:
        found = sorted((ex.path, c.framework, c.method, c.url.parts, c.caller, c.line)
                       for ex, _, _ in extract_fixture(LOCUST) for c in ex.http_calls)
        lf = "loadgen/locustfile.py"
        assert found == [
            (lf, "locust", "DELETE", (("lit", "/cart"),), "checkout", 14),
            (lf, "locust", "GET", (("lit", "/"),), "index", 7),
            (lf, "locust", "GET", (("lit", "/logout"),), "WebsiteUser.logout", 25),
            # a call with a name argument is a call: ref (acc65b), rendered unknown: random.choice is no URL builder
            (lf, "locust", "GET", (("lit", "/product/"), ("ref", 'call:random.choice[[["ref","products"]]]')), "browse", 10),
            (lf, "locust", "POST", (("lit", "/cart/checkout"),), "checkout", 13),
        ]  # not: cookies.get (no client), self.environment.client (no user's client), other/ (no locust import)

    def test_they_link_to_the_endpoints_of_the_host_under_load(self, tmp_path) -> None:
        files = {"loadgen/locustfile.py": LOCUST.split("# --- path: loadgen/locustfile.py ---\n")[1].split("# ---")[0],
                 "web/app.py": ("from flask import Flask\napp = Flask(__name__)\n\n@app.get('/product/<pid>')\n"
                                "def product(pid):\n    return pid\n\n@app.post('/cart')\ndef add():\n    return ''\n")}
        store = index_files(tmp_path / "r", files, "r")
        try:
            endpoints = store.get_nodes(["endpoint:GET /product/{}", "endpoint:POST /cart", "endpoint:DELETE /cart"])
            assert [r.source.id for r in callers(store, [endpoints["endpoint:GET /product/{}"]])] == [
                "r:loadgen/locustfile.browse(1)"]
            assert callers(store, [endpoints["endpoint:POST /cart"]]) == []  # the load test deletes it, not posts
        finally:
            store.close()
