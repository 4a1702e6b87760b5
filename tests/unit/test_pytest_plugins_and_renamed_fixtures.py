"""pytest fixtures renamed by ``@pytest.fixture(name="x")``, fixtures of the modules a ``pytest_plugins``
list loads, fixtures a ``conftest.py`` imports (``from tests.fixtures import *``, mealie's
``tests/conftest.py``), and a fixture yielding a constructed object (``yield User()``)
(:mod:`indexer.languages.python.pytest_fixtures`, :mod:`indexer.languages.python.frameworks.pytest_plugins`).

The shapes of FastAPI's full-stack template (``@pytest.fixture(name="client") def client_fixture()``)
and of projects splitting fixtures into ``tests/fixtures/*.py`` modules that the root ``conftest.py``
lists in ``pytest_plugins``. Exact callees; negatives: a renamed fixture's function name requests
nothing, a folder no ``pytest_plugins`` lies above sees no plugin fixture, a plugin module's
non-fixture function is no fixture."""

from __future__ import annotations

from indexer.languages.python.extractor import EXTRACTOR
from indexer.languages.python.pytest_fixtures import fixture_name
from tests.resolution_harness import resolve_fixture

APP = '''
# --- path: app/__init__.py ---
# --- path: app/models.py ---
class Client:
    def get(self, url): pass


class Db:
    def query(self, q): pass


class User:
    def login(self): pass


class Admin:
    def login(self): pass


class Cache:
    def clear(self): pass


class Store:
    def clear(self): pass
# --- path: tests/__init__.py ---
# --- path: tests/conftest.py ---
import pytest

from app.models import Client

from tests.fixtures import *  # noqa: F403

pytest_plugins = ["tests.fixtures.db", "tests.fixtures.users"]


@pytest.fixture(name="client")
def client_fixture():
    return Client()
# --- path: tests/fixtures/__init__.py ---
from .more import *  # noqa: F403
# --- path: tests/fixtures/more.py ---
import pytest

from app.models import Store


@pytest.fixture
def store():
    return Store()
# --- path: tests/helpers.py ---
import pytest

from app.models import Store


@pytest.fixture
def stash():
    return Store()
# --- path: tests/fixtures/db.py ---
import pytest

from app.models import Cache, Db


@pytest.fixture
def db():
    return Db()


def cache():
    return Cache()
# --- path: tests/fixtures/users.py ---
import pytest

from app.models import User


@pytest.fixture()
def user():
    yield User()
# --- path: tests/unit/test_things.py ---
def test_client(client):
    client.get("/x")


def test_db(db):
    db.query("q")


def test_user(user):
    user.login()


def test_old_name(client_fixture):
    client_fixture.get("/y")


def test_cache(cache):
    cache.clear()


def test_store(store, stash):
    store.clear()
    stash.clear()
# --- path: other/test_other.py ---
def test_user_elsewhere(user):
    user.login()
'''


def _calls(resolved) -> list[tuple[str, int, str, str]]:
    return sorted((e.src.split(":", 1)[1], e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files
                  for e in f.edges if e.kind == "CALLS" and "/test_" in e.src)


def test_renamed_fixtures_plugin_fixtures_and_yielded_objects() -> None:
    assert _calls(resolve_fixture(APP)) == [
        ("tests/unit/test_things.test_client(1)", 2, "app/models.Client.get(1)", "inferred"),  # name="client"
        ("tests/unit/test_things.test_db(1)", 6, "app/models.Db.query(1)", "inferred"),  # a plugin module's
        ("tests/unit/test_things.test_old_name(1)", 14, "app/models.Client.get(1)", "name"),
        ("tests/unit/test_things.test_store(2)", 22, "app/models.Store.clear(0)", "inferred"),  # conftest's import *
        ("tests/unit/test_things.test_user(1)", 10, "app/models.User.login(0)", "exact"),  # `yield User()`
        # negatives: `client_fixture` (14) is no fixture name: only the unique-name fallback binds it;
        # `cache` (18) is a plain function of a plugin module, and two `clear`s: nothing; other/ has no
        # pytest_plugins above it: its `user` is nothing, and two `login`s; `stash` (23) is a fixture of a
        # module no conftest imports nor pytest_plugins lists
    ]


def test_fixture_name_and_the_plugins_constant() -> None:
    ex = EXTRACTOR.extract("tests/conftest.py", b'pytest_plugins = ("a.b", "c")\nother = ["x"]\n')
    assert [(c.qualname, c.value.parts) for c in ex.constants] == [("pytest_plugins", (("lit", "a.b,c"),))]
    assert EXTRACTOR.extract("t.py", b"pytest_plugins = [name]\n").constants == []  # not literals: not read
    code = b'import pytest\n@pytest.fixture(scope="module", name="x")\ndef f(): pass\n@pytest.fixture\ndef g(): pass\n'
    assert [fixture_name(d) for d in EXTRACTOR.extract("conftest.py", code).definitions] == ["x", "g"]


def test_a_pytest_plugins_list_and_a_conftest_import_edited_rebind_the_tests(tmp_path) -> None:
    from tests.index_dump import calls
    from tests.unit.test_incremental import Workspace

    files = {
        "app/__init__.py": "",
        "app/models.py": "class Db:\n    def query(self, q): pass\n\n\nclass Other:\n    def query(self, q): pass\n",
        "tests/__init__.py": "",
        "tests/fixtures/__init__.py": "",
        "tests/fixtures/db.py": "import pytest\nfrom app.models import Db\n\n\n@pytest.fixture\ndef db():\n    return Db()\n",
        "tests/conftest.py": "pytest_plugins = []\n",
        "tests/test_a.py": "def test_db(db):\n    db.query('q')\n",
    }
    ws = Workspace(tmp_path, files)
    edge = "tests/test_a.test_db(1) -> app/models.Db.query(1) [inferred]"
    try:
        assert [c for c in calls(ws.db) if "query" in c] == []
        ws.edit({"tests/conftest.py": 'pytest_plugins = ["tests.fixtures.db"]\n'})
        assert [c for c in calls(ws.db) if "query" in c] == [edge]
        ws.edit({"tests/conftest.py": "from tests.fixtures.db import db  # noqa: F401\n"})
        assert [c for c in calls(ws.db) if "query" in c] == [edge]
        ws.edit({"tests/conftest.py": "pytest_plugins = ()\n"})
        assert [c for c in calls(ws.db) if "query" in c] == []
    finally:
        ws.close()
