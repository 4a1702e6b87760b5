"""Dispatch tables held as class attributes (indexer/languages/python/containers.py): a dict display
assigned in a class body is also what ``self.<name>`` / ``cls.<name>`` holds in the class's methods,
as Python looks an attribute up in the class when the instance has none (Django's
``ModelAdmin.formfield_overrides``-style tables, ``handlers = {"a": on_a}`` registries read as
``self.handlers[kind](x)``). Exact callees; negatives: a class without the attribute, a method's
local table of the same name, another class's table."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: app/m.py ---
def on_a(x):
    return x


def on_b(x):
    return x


def on_c(x):
    return x


class Dispatcher:
    routes = {"a": on_a, "c": on_c}

    def run(self, kind, x):
        return self.routes[kind](x)

    def run_get(self, kind, x):
        return self.routes.get(kind)(x)

    def run_literal(self, x):
        return self.routes["c"](x)

    def fetched(self, kind):
        fn = self.routes.get(kind)
        return fn(1)

    @classmethod
    def dispatch(cls, kind, x):
        return cls.routes[kind](x)

    def local(self, kind):
        routes = {"b": on_b}
        return routes[kind](1)


class Unrelated:
    def run(self, kind):
        return self.routes[kind](1)
'''


def _calls(resolved) -> list[tuple[str, int, str]]:
    return sorted((e.src.split(".", 1)[1].split("(")[0], e.line, e.dst.split(".", 1)[1].split("(")[0])
                  for f in resolved.files for e in f.edges if e.kind == "CALLS" and "on_" in e.dst)


def test_a_class_attribute_table_is_seen_through_self_and_cls() -> None:
    assert _calls(resolve_fixture(SRC)) == sorted([
        ("Dispatcher.run", 17, "on_a"), ("Dispatcher.run", 17, "on_c"),
        ("Dispatcher.run_get", 20, "on_a"), ("Dispatcher.run_get", 20, "on_c"),
        ("Dispatcher.run_literal", 23, "on_c"),  # a literal key: that value only
        ("Dispatcher.fetched", 27, "on_a"), ("Dispatcher.fetched", 27, "on_c"),
        ("Dispatcher.dispatch", 31, "on_a"), ("Dispatcher.dispatch", 31, "on_c"),
        ("Dispatcher.local", 35, "on_b"),  # the local table, not the class attribute
        # nothing from Unrelated.run: another class's attribute is not its own
    ])
