"""pytest's fixture overriding ignores ``scope=``: a same-name fixture of the test module hides the
conftest's even when the conftest's is ``scope="session"`` (pytest's "Override a fixture on a test
module level": the nearest definition wins; a fixture's scope only says how long its value lives).
Exact callees of each test; negatives: the overridden conftest fixture's class from the overriding
module, the module's fixture from another module."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: app/__init__.py ---
# --- path: app/clients.py ---
class SessionClient:
    def get(self):
        return 1


class LocalClient:
    def get(self):
        return 2
# --- path: tests/conftest.py ---
import pytest
from app.clients import SessionClient


@pytest.fixture(scope="session")
def client():
    return SessionClient()
# --- path: tests/test_local.py ---
import pytest
from app.clients import LocalClient


@pytest.fixture(scope="function")
def client():
    return LocalClient()


def test_local(client):
    client.get()


class TestInClass:
    def test_method(self, client):
        client.get()
# --- path: tests/test_shared.py ---
def test_shared(client):
    client.get()
'''


def _callees(resolved, caller: str) -> list[str]:
    return sorted(e.dst.split(".", 1)[1].split("(")[0] for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.split(".", 1)[1].split("(")[0] == caller
                  and e.dst.endswith(".get(0)"))


def test_the_nearest_fixture_wins_whatever_its_scope() -> None:
    resolved = resolve_fixture(SRC)
    assert _callees(resolved, "test_local") == ["LocalClient.get"]
    assert _callees(resolved, "TestInClass.test_method") == ["LocalClient.get"]
    assert _callees(resolved, "test_shared") == ["SessionClient.get"]
