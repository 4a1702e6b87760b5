"""Instances of one of several classes (indexer/languages/python/branches.py, the dict-of-classes
rule of indexer/languages/python/containers.py): a name bound in the branches of an ``if`` / ``try``
holds any branch's value after the statement, and ``m = table[kind]()`` an instance of any class the
table may give; a call through it reaches the method of each (the either-union of
:mod:`indexer.resolve.either`). Exact callees; negatives: straight-line reassignment, a branch that
returns, a call inside one branch, a literal key, a declared type."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: app/__init__.py ---
# --- path: app/kinds.py ---
class AMigrator:
    def migrate(self):
        return 1


class BMigrator:
    def migrate(self):
        return 2


class CMigrator:
    def migrate(self):
        return 3

    def append_one(self, x):
        return x
# --- path: app/run.py ---
from app.kinds import AMigrator, BMigrator, CMigrator


def by_table(kind):
    table = {"a": AMigrator, "b": BMigrator}
    m = table[kind]()
    return m.migrate()


def by_literal_key():
    table = {"a": AMigrator, "b": BMigrator}
    m = table["b"]()
    return m.migrate()


def by_branch(flag):
    if flag:
        x = AMigrator()
        x.migrate()
    elif flag is None:
        x = CMigrator()
    else:
        x = BMigrator()
    return x.migrate()


def by_try():
    try:
        y = AMigrator()
    except ValueError:
        y = BMigrator()
    return y.migrate()


def without_else(flag):
    z = AMigrator()
    if flag:
        z = BMigrator()
    return z.migrate()


def straight():
    s = AMigrator()
    s = BMigrator()
    return s.migrate()


def leaves(flag):
    if flag:
        r = AMigrator()
        return r.migrate()
    else:
        r = BMigrator()
    return r.migrate()


def declared(flag):
    if flag:
        d: CMigrator = CMigrator()
    else:
        d = BMigrator()
    return d.migrate()


def literal_then_join(o):
    try:
        names = o.get_names()
    except ValueError:
        names = []
        names.append_one(0)
    return names
'''


def _migrates(resolved) -> list[tuple[str, int, str]]:
    return sorted((e.src.split(".", 1)[1].split("(")[0], e.line, e.dst.split(".")[1])
                  for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.dst.endswith(".migrate(0)"))


def test_a_name_holding_one_of_several_instances_reaches_each_method() -> None:
    assert _migrates(resolve_fixture(SRC)) == sorted([
        ("by_table", 7, "AMigrator"), ("by_table", 7, "BMigrator"),
        ("by_literal_key", 13, "BMigrator"),  # the literal key: that class only
        ("by_branch", 19, "AMigrator"),  # inside the branch: its own value only
        ("by_branch", 24, "AMigrator"), ("by_branch", 24, "BMigrator"), ("by_branch", 24, "CMigrator"),
        ("by_try", 32, "AMigrator"), ("by_try", 32, "BMigrator"),
        ("without_else", 39, "AMigrator"), ("without_else", 39, "BMigrator"),  # or the value from before
        ("straight", 45, "BMigrator"),  # straight-line reassignment: the last value only
        ("leaves", 51, "AMigrator"),
        ("leaves", 54, "BMigrator"),  # the branch that returns reaches no code after the if
        ("declared", 62, "BMigrator"),  # an annotated binding makes no join: the nearest binding, as before
    ])


def test_a_join_repeating_a_literal_opens_no_name_fallback_before_it() -> None:
    # `names = []` decides at the call; the join after the try restates it and `o.get_names()`
    # (unknown): no value written after the call is new, so nothing binds `append_one` by name
    assert [e for f in resolve_fixture(SRC).files for e in f.edges
            if e.kind == "CALLS" and "append_one" in e.dst] == []


def test_the_join_bindings_are_written_on_the_statements_last_line() -> None:
    src = b"def f(c):\n    if c:\n        x = A()\n    else:\n        x = B()\n        log()\n    x.run()\n"
    out = extractor_for_path("m.py").extract("m.py", src)
    assert sorted((b.name, b.type, b.how, b.line) for b in out.bindings if b.name == "x") == [
        ("x", "A", "constructed", 3), ("x", "A", "constructed", 6),
        ("x", "B", "constructed", 5), ("x", "B", "constructed", 6)]
    assert [b.type for b in out.bindings if b.line == 6] == ["B", "A"]  # the last branch's first


def test_a_rebinding_on_the_use_line_is_no_value_written_before_it() -> None:
    # `geom = G(geom.wkt)` reads the loop's `geom` (unknown); `geom = G(1)` later repeats the text of the
    # binding on the use's own line, which is written after the read: still a value written after
    src = '''
# --- path: m.py ---
class G:
    @property
    def wkt(self):
        return 1


def t(items):
    for geom in items:
        geom = G(geom.wkt)
    geom = G(1)
'''
    assert sorted((e.line, e.dst) for f in resolve_fixture(src).files for e in f.edges if e.kind == "CALLS") == [
        (9, "t:m.G"), (10, "t:m.G")]  # nothing to G.wkt
