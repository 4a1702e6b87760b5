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
