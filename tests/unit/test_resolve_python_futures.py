"""Python library futures of a repository class (``promise.Promise[T]``, ``concurrent.futures.Future[T]``,
``asyncio.Task[T]``): their ``get()`` / ``result()`` give an instance of ``T`` (graphene 2 applications
read a DataLoader's promise with ``.get()``: Saleor's ``get_plugin_manager_promise(ctx).get()``);
what must stay unlinked."""

from __future__ import annotations

from indexer.languages.python.modules import map_value
from tests.resolution_harness import resolve_fixture

APP = '''
# --- path: app/__init__.py ---
# --- path: app/manager.py ---
from concurrent.futures import Future
from promise import Promise


class PluginsManager:
    def product_updated(self, product): pass

    def order_created(self, order): pass


def manager_promise(ctx) -> Promise[PluginsManager]:
    return Promise.resolve(PluginsManager())


def manager_future(ctx) -> "Future[PluginsManager]":
    return None


def managers_promise(ctx) -> Promise[list[PluginsManager]]:
    return None
# --- path: app/mutations.py ---
from app.manager import manager_future, manager_promise, managers_promise


def call_event(func_obj, *args):
    return func_obj(*args)


def update(info, product):
    manager = manager_promise(info.context).get()
    manager.order_created(product)
    call_event(manager.product_updated, product)


def create(info, order):
    manager_future(info.context).result().order_created(order)


def unknown(info, order):
    manager_promise(info.context).then(lambda m: m).order_created(order)
    manager_promise(info.context).order_created(order)
    for m in manager_promise(info.context):
        m.order_created(order)
    managers_promise(info.context).get().order_created(order)
'''


def test_a_future_gives_its_value_to_get_and_result() -> None:
    resolved = resolve_fixture(APP)
    calls = sorted((e.line, e.src.rpartition("/")[2], e.dst.removeprefix("t:app/"), e.resolution)
                   for f in resolved.files for e in f.edges if e.kind == "CALLS" and "PluginsManager" in e.dst)
    assert calls == [
        (10, "mutations.update(2)", "manager.PluginsManager.order_created(1)", "inferred"),  # Promise[T].get()
        # the bound method handed on: call_event calls it (the existing `handed` rule, now that the type is known)
        (11, "mutations.call_event(2)", "manager.PluginsManager.product_updated(1)", "inferred"),
        (12, "manager.manager_promise(1)", "manager.PluginsManager", "exact"),
        (15, "mutations.create(2)", "manager.PluginsManager.order_created(1)", "inferred"),  # Future[T].result()
        # a promise iterated holds no known value: the short-name fallback, as before futures were read
        (22, "mutations.unknown(2)", "manager.PluginsManager.order_created(1)", "name"),
        # negative: `then(...)` returns another promise, the promise itself has no such method, and a
        # promise of a list gives a list (lines 20, 21 and 23 stay unlinked)
    ]


def test_map_value_of_futures() -> None:
    assert map_value("Promise[PluginsManager]") == ("PluginsManager", "future")
    assert map_value("promise.Promise[Optional[User]]") == ("User", "future")
    assert map_value("asyncio.Task[User] | None") == ("User", "future")
    assert map_value("Promise[list[User]]") == ("list[User]", "future")
    assert map_value("Promise") is None
    assert map_value("Promised[User]") is None
    assert map_value("Promise[A, B]") is None
