"""Containers made of others (indexer/languages/python/containers.py): a function of the file that
returns a display or a container it holds makes its calls containers (``table()["a"](x)``, ``b =
table(); b["a"](x)``, ``h = direct().get("c"); h(x)``), and a slice with literal bounds holds the
elements at those positions, renumbered (``s = fns[1:3]; s[0](x)``). Exact callees per line;
negatives: a name the returning function binds itself (never the module's namesake), a generator's
``return``, a method's result, a non-literal key reaching every element but nothing else, a slice
called as if it were an element, a dict sliced."""

from __future__ import annotations

from indexer.languages.python import containers
from indexer.languages.python.containers import sliced
from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: app/m.py ---
def on_a(x):
    return x


def on_b(x):
    return x


def on_c(x):
    return x


def on_d(x):
    return x


def table():
    d = {"a": on_a, "b": on_b}
    return d


def direct():
    return {"c": on_c}


def with_local():
    def inner(x):
        return x
    return {"i": inner, "a": on_a}


def gen():
    d = {"d": on_d}
    yield 1
    return d


class Box:
    def table(self):
        return {"d": on_d}


def inner(x):
    return x


def use_table(kind):
    b = table()
    b["a"](1)
    b[kind](2)
    table()["b"](3)
    h = direct().get("c")
    h(4)


def use_local():
    with_local()["i"](5)
    with_local()["a"](6)


def use_gen(box):
    gen()["d"](7)
    box.table()["d"](8)


fns = [on_a, on_b, on_c, on_d]
table_d = {"a": on_a}


def use_slice():
    s = fns[1:3]
    s[0](9)
    s[1](10)
    t = fns[::2]
    t[1](11)
    u = fns[-1:]
    u[0](12)
    fns[1:](13)
    w = table_d[1:]
    w[0](14)
'''


def _calls(resolved) -> list[tuple[str, int, str]]:
    return sorted((e.src.split(".", 1)[1].split("(")[0], e.line, e.dst.split(".", 1)[1].split("(")[0])
                  for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and ("on_" in e.dst or "inner" in e.dst))


def test_calls_through_a_returned_or_sliced_container_reach_exactly_its_elements() -> None:
    assert _calls(resolve_fixture(SRC)) == [
        ("use_local", 58, "on_a"),  # with_local()["a"]: its module-level element only
        ("use_slice", 72, "on_b"),  # fns[1:3][0]
        ("use_slice", 73, "on_c"),  # fns[1:3][1]
        ("use_slice", 75, "on_c"),  # fns[::2][1]
        ("use_slice", 77, "on_d"),  # fns[-1:][0]
        ("use_table", 49, "on_a"),  # b = table(); b["a"]
        ("use_table", 50, "on_a"),  # b[kind]: every element
        ("use_table", 50, "on_b"),
        ("use_table", 51, "on_b"),  # table()["b"]
        ("use_table", 53, "on_c"),  # h = direct().get("c"); h(4)
        # negatives: line 57 (`with_local()["i"]`: `inner` is with_local's own, never the module's
        # `inner`), 62 (a generator's return), 63 (a method's result), 78 (a slice called: a list),
        # 80 (a dict has no slice); nothing else at 49 / 51 / 72 / 73 / 75 / 77
    ]


def test_a_slice_takes_the_positions_python_takes() -> None:
    entries = [("f", 0, "0"), ("g", 0, "1"), ("h", 0, "2"), ("k", 1, "2")]
    assert sliced(entries, "1:3") == [("g", 0, "0"), ("h", 0, "1"), ("k", 1, "1")]
    assert sliced(entries, "::-1") == [("f", 0, "2"), ("g", 0, "1"), ("h", 0, "0"), ("k", 1, "0")]
    assert sliced(entries, "-1:") == [("h", 0, "0"), ("k", 1, "0")]
    assert sliced(entries, "5:") == []
    assert sliced(entries, "::0") == []  # ValueError in Python
    assert sliced(entries, "i:") == [("f", 0, None), ("g", 0, None), ("h", 0, None), ("k", 1, None)]
    appended = [("f", 0, "0"), ("g", 0, "1"), ("x", 0, None)]  # `ls.append(x)`: position not known
    assert sliced(appended, "1:") == [("g", 0, "0"), ("x", 0, None)]
    assert sliced(appended, "-1:") == [("f", 0, None), ("g", 0, None), ("x", 0, None)]
    assert sliced([("f", 0, "'a'")], "1:") == []  # a dict


BOUNDED = '''
# --- path: app/g.py ---
def on_a(x):
    return x


def table():
    d = {"a": on_a, "b": on_a, "c": on_a}
    return d


def u1():
    t = table()
    t["a"](1)


def u2():
    t = table()
    t["a"](2)
'''


def test_the_copies_one_file_makes_are_bounded(monkeypatch) -> None:
    """``return d`` copies 3 entries, ``u1``'s ``t = table()`` 3 more (6); ``u2``'s would make 9."""
    assert _calls(resolve_fixture(BOUNDED)) == [("u1", 12, "on_a"), ("u2", 17, "on_a")]
    monkeypatch.setattr(containers, "MAX_DERIVED_ENTRIES", 6)
    assert _calls(resolve_fixture(BOUNDED)) == [("u1", 12, "on_a")]  # negative: u2's copy is past the bound
