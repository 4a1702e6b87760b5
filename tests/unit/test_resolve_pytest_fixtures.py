"""pytest's fixtures (:mod:`indexer.languages.python.pytest_fixtures`): a test's untyped parameter is
what the visible fixture of its name returns or yields: the test class's, the module's, then the
nearest ``conftest.py`` above; what must stay unlinked."""

from __future__ import annotations

from pathlib import Path

from indexer.languages.python.pytest_fixtures import is_test_file
from tests.index_dump import calls
from tests.resolution_harness import resolve_fixture
from tests.unit.test_incremental import Workspace

APP = '''
# --- path: app/__init__.py ---
# --- path: app/clients.py ---
class Client:
    def get(self, url): pass


class ApiClient:
    def get(self, url): pass


class Worker:
    def start(self): pass


class Pool:
    def start(self): pass
# --- path: tests/conftest.py ---
import pytest
from app.clients import Client, Pool


@pytest.fixture
def client():
    c = Client()
    yield c


@pytest.fixture()
def pool():
    return Pool()
# --- path: tests/api/conftest.py ---
from pytest import fixture
from app.clients import ApiClient


@fixture(scope="module")
def client() -> ApiClient:
    return ApiClient()
# --- path: tests/other/conftest.py ---
import pytest
from app.clients import Worker


@pytest.fixture
def worker():
    return Worker()
# --- path: tests/api/test_users.py ---
import pytest
from app.clients import Worker


class TestUsers:
    @pytest.fixture
    def worker(self):
        return Worker()

    def test_list(self, client, worker):
        client.get("/users")
        worker.start()


def test_pool(pool, worker, missing):
    pool.start()
    worker.start()
    missing.start()


def helper(pool):
    pool.start()
# --- path: app/jobs.py ---
def test_like(pool):
    pool.start()
'''


def _calls(resolved, needle: str) -> list[tuple[str, int, str, str]]:
    return sorted((e.src.split(":", 1)[1], e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files
                  for e in f.edges if e.kind == "CALLS" and needle in e.dst)


def test_fixtures_visible_from_a_test_give_its_parameters_their_values() -> None:
    resolved = resolve_fixture(APP)
    assert _calls(resolved, ".get(1)") == [
        # the nearest conftest's `client` (tests/api/), not tests/conftest.py's generator fixture
        ("tests/api/test_users.TestUsers.test_list(2)", 11, "app/clients.ApiClient.get(1)", "inferred"),
    ]
    assert _calls(resolved, ".start(0)") == [
        ("tests/api/test_users.TestUsers.test_list(2)", 12, "app/clients.Worker.start(0)", "inferred"),  # the class's
        ("tests/api/test_users.test_pool(3)", 16, "app/clients.Pool.start(0)", "inferred"),  # tests/conftest.py's
        # negative: `worker` (17) of a module function: the class's fixture is not the module's, and
        # tests/other/conftest.py is no folder above; `missing` (18); `helper` (22) is no test or
        # fixture; app/jobs.py (25) is no file pytest reads. Two `start` methods: no name match either
    ]


def test_a_generator_fixture_gives_what_it_yields() -> None:
    resolved = resolve_fixture(APP.replace("from app.clients import ApiClient", "from app.clients import Client")
                               .replace("def client() -> ApiClient:\n    return ApiClient()", "def client():\n    yield 1")
                               .replace("tests/api/conftest.py", "tests/api/helpers.py"))
    # tests/api/helpers.py is no conftest: the generator in tests/conftest.py is what `client` is
    assert _calls(resolved, ".get(1)") == [
        ("tests/api/test_users.TestUsers.test_list(2)", 11, "app/clients.Client.get(1)", "inferred"),
    ]


def test_the_files_pytest_reads() -> None:
    assert [p for p in ("tests/test_a.py", "a_test.py", "pkg/conftest.py", "testing.py", "tests/helpers.py",
                        "test_a.pyc") if is_test_file(p)] == ["tests/test_a.py", "a_test.py", "pkg/conftest.py"]


CONFTEST = "import pytest\nfrom app.clients import Pool\n\n\n@pytest.fixture\ndef pool():\n    return Pool()\n"
CLIENTS = "class Pool:\n    def start(self): pass\n\n\nclass Other:\n    def start(self): pass\n"
TEST = "def test_pool(pool):\n    pool.start()\n"


def test_a_conftest_coming_and_going_rebinds_the_tests(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/clients.py": CLIENTS, "tests/test_pool.py": TEST})
    edge = "tests/test_pool.test_pool(1) -> app/clients.Pool.start(0) [inferred]"
    try:
        assert [c for c in calls(ws.db) if "start" in c] == []
        ws.edit({"tests/conftest.py": CONFTEST})
        assert [c for c in calls(ws.db) if "start" in c] == [edge]
        ws.edit({"tests/conftest.py": CONFTEST.replace("return Pool()", "return 1")})
        assert [c for c in calls(ws.db) if "start" in c] == []
        ws.edit({"tests/conftest.py": CONFTEST})
        ws.edit({"tests/conftest.py": None})
        assert [c for c in calls(ws.db) if "start" in c] == []
    finally:
        ws.close()


NOT_FIXTURES = '''
# --- path: app/__init__.py ---
# --- path: app/core.py ---
class Client:
    def get(self, url): pass


class Other:
    def get(self, url): pass
# --- path: tests/conftest.py ---
import pytest
from app.core import Client


@pytest.fixture
def client():
    return Client()


@pytest.fixture
def method():
    return Client()
# --- path: tests/test_a.py ---
import pytest
from unittest import mock


@pytest.mark.parametrize("method,n", [("a", 1)])
def test_param(method, n, client):
    method.get("/")
    client.get("/")


@pytest.mark.parametrize(("client",), [(1,)])
def test_tuple(client):
    client.get("/")


@pytest.mark.parametrize(argnames=["client"], argvalues=[1])
def test_list(client):
    client.get("/")


@pytest.mark.parametrize("client", [1], indirect=True)
def test_indirect(client):
    client.get("/")


@pytest.mark.parametrize("client, method", [(1, 2)], indirect=["method"])
def test_some_indirect(client, method):
    client.get("/")
    method.get("/")


def test_default(client=None):
    client.get("/")


@mock.patch("app.core.Other")
@mock.patch.object(Other, "get", new=None)
def test_patched(client, method):
    client.get("/")
    method.get("/")


@pytest.mark.parametrize("client", [1])
class TestK:
    def test_m(self, client, method):
        client.get("/")
        method.get("/")


@mock.patch("app.core.Other")
class TestPatched:
    def test_m(self, other, client):
        other.get("/")
        client.get("/")
'''


def test_parametrized_defaulted_and_patched_parameters_are_no_fixtures() -> None:
    """pytest hands a parameter the fixture of its name only when no direct ``parametrize`` mark of the
    test or its class names it, it has no default, and no ``mock.patch`` decorator fills it: the
    fixture's class was linked to all of them (brk48)."""
    assert _calls(resolve_fixture(NOT_FIXTURES), ".get(1)") == [
        ("tests/test_a.TestK.test_m(2)", 47, "app/core.Client.get(1)", "inferred"),  # method: a fixture
        ("tests/test_a.TestPatched.test_m(2)", 54, "app/core.Client.get(1)", "inferred"),  # client, after the mock
        ("tests/test_a.test_indirect(1)", 23, "app/core.Client.get(1)", "inferred"),  # indirect: the fixture's
        ("tests/test_a.test_param(3)", 8, "app/core.Client.get(1)", "inferred"),  # client is not parametrized
        ("tests/test_a.test_patched(2)", 40, "app/core.Client.get(1)", "inferred"),  # method, after one mock
        ("tests/test_a.test_some_indirect(2)", 29, "app/core.Client.get(1)", "inferred"),  # method indirect
        # negative: method (7), client (13, 18) parametrized directly; client (28) not in indirect=[...];
        # client=None (33); client filled by the one mock (39; patch.object with new= fills none); the
        # class's parametrize (46); other, the class's mock (53)
    ]


def test_which_parameters_pytest_requests() -> None:
    from indexer.model import Definition, Param
    from indexer.languages.python.pytest_fixtures import requested

    def d(params, decorators=(), name="test_x"):
        return Definition(kind="function", name=name, qualname=name, parent=None, name_line=1, name_col=4, start_line=1, start_col=0, end_line=2,
                          end_col=0, params=[Param(p.strip("="), has_default=p.endswith("=")) for p in params],
                          decorators=list(decorators))
    assert [requested(d(["a", "b="]), n) for n in ("a", "b", "c")] == [True, False, True]
    assert [requested(d(["a", "b"], ["patch('x.y')"]), n) for n in "ab"] == [False, True]
    assert [requested(d(["a", "b"], ["mock.patch('x.y', 1)", "patch.object(A, 'b')"]), n) for n in "ab"] == [False, True]
    assert [requested(d(["a", "b"], ["patch.dict('os.environ', {})"]), n) for n in "ab"] == [True, True]
    assert [requested(d(["a", "b"], ['pytest.mark.parametrize("a, b", [(1, 2)], indirect=ids)']), n) for n in "ab"] == [True, True]
    assert [requested(d(["a", "b"], ['mark.parametrize("b", [1], indirect=False)']), n) for n in "ab"] == [True, False]
    # a class's marks: parametrize of any enclosing class, mock.patch of a test method's own class
    assert [requested(d(["a", "b"]), n, (("patch('x')",), ('parametrize("b", [1])',))) for n in "ab"] == [False, False]
    assert requested(d(["a"], name="helper"), "a", (("patch('x')",),)) is True
    # a decorator text that does not parse: a patch still fills one, a parametrize names nothing
    assert [requested(d(["a", "b"], ["patch('x'", 'parametrize("b", [1']), n) for n in "ab"] == [False, True]
