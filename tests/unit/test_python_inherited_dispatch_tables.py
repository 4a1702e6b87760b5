"""A class-attribute dispatch table assigned in a base class of another file and called through
``self`` in a subclass (indexer/languages/python/containers.py ``_exported`` / ``_member_calls``,
``CallBinder._member_table``): the table's values, ``inferred``. Exact callees; negatives: a literal key
(not followed across files), a subclass replacing the attribute with another value, a class outside
the lineage; an edit of the base class's table re-binds the subclass's file (equal to a full index)."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: app/__init__.py ---
# --- path: app/base.py ---
def on_a(x):
    return x


def on_b(x):
    return x


class Base:
    routes = {"a": on_a, "b": on_b}


class Holder:
    def __init__(self):
        self.handlers = {"a": on_a}
# --- path: app/sub.py ---
from app.base import Base, Holder


class Sub(Base):
    def run(self, k):
        return self.routes[k](1)

    def run_get(self, k):
        return self.routes.get(k)(1)

    def literal(self):
        return self.routes["a"](1)


class Deeper(Sub):
    def again(self, k):
        return self.routes[k](2)


class SubHolder(Holder):
    def run(self, k):
        return self.handlers[k](1)


class Replaced(Base):
    routes = None

    def run(self, k):
        return self.routes[k](1)


class Unrelated:
    def run(self, k):
        return self.routes[k](1)
'''


def _calls(resolved) -> list[tuple[str, int, str]]:
    return sorted((e.src.split(".", 1)[1].split("(")[0], e.line, e.dst.split(".", 1)[1].split("(")[0])
                  for f in resolved.files for e in f.edges if e.kind == "CALLS" and ".on_" in e.dst)


def test_a_base_class_table_is_reached_through_self_in_a_subclass_of_another_file() -> None:
    assert _calls(resolve_fixture(SRC)) == sorted([
        ("Sub.run", 6, "on_a"), ("Sub.run", 6, "on_b"),
        ("Sub.run_get", 9, "on_a"), ("Sub.run_get", 9, "on_b"),
        ("Deeper.again", 17, "on_a"), ("Deeper.again", 17, "on_b"),
        ("SubHolder.run", 22, "on_a"),  # `self.handlers = {...}` in the base's __init__
        # nothing for Sub.literal (12), Replaced.run (29: `routes = None` replaces it), Unrelated.run
    ])


def test_editing_the_base_table_rebinds_the_subclass(tmp_path) -> None:
    from tests.index_dump import calls
    from tests.unit.test_incremental import Workspace

    base = "def on_a(x):\n    return x\n\n\ndef on_b(x):\n    return x\n\n\nclass Base:\n    routes = {%s}\n"
    files = {
        "app/__init__.py": "",
        "app/base.py": base % '"a": on_a',
        "app/sub.py": "from app.base import Base\n\n\nclass Sub(Base):\n    def run(self, k):\n        return self.routes[k](1)\n",
    }
    ws = Workspace(tmp_path, files)
    try:
        assert [c for c in calls(ws.db) if ".on_" in c] == ["app/sub.Sub.run(1) -> app/base.on_a(1) [inferred]"]
        ws.edit({"app/base.py": base % '"b": on_b'})
        assert [c for c in calls(ws.db) if ".on_" in c] == ["app/sub.Sub.run(1) -> app/base.on_b(1) [inferred]"]
    finally:
        ws.close()
