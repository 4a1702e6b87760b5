"""``isinstance`` guards narrow a name (indexer/languages/python/narrowing.py, the union filter in
indexer/resolve/either.py, the join in indexer/languages/python/branches.py): inside ``if
isinstance(x, A):`` and after ``if not isinstance(x, A): return`` a call through ``x`` reaches A's
method (and its subclasses'), even when ``x`` is a union from a branch join; where ``if not
isinstance(x, A): x = f(x)`` ran no suite, ``x`` is an A. Exact callees; negatives: the other
class of the union, a rebinding inside the guard, lines outside the guard (tuples and ``type(x) is A``:
tests/unit/test_python_type_guards.py)."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: app/__init__.py ---
# --- path: app/shapes.py ---
class A:
    def m(self):
        return 1


class A2(A):
    def m(self):
        return 2


class B:
    def m(self):
        return 3

    def to_a(self) -> A:
        return A()


def guarded(flag):
    if flag:
        x = A()
    else:
        x = B()
    if isinstance(x, A):
        x.m()
    x.m()


def early(flag):
    if flag:
        y = A()
    else:
        y = B()
    if not isinstance(y, B):
        return None
    return y.m()


def rebound(flag):
    if flag:
        z = A()
    else:
        z = B()
    if isinstance(z, A):
        z = B()
        z.m()
    if isinstance(z, (A, B)):
        z.m()


def joined(flag):
    if flag:
        w = B()
    else:
        w = A2()
    if not isinstance(w, A):
        w = w.to_a()
    w.m()
'''


def _callees(resolved, caller: str) -> list[tuple[int, str]]:
    return sorted((e.line, e.dst.split(".", 1)[1].split("(")[0]) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.split(".", 1)[1].split("(")[0] == caller
                  and e.dst.split(".", 1)[1].split("(")[0].endswith(".m"))


def test_a_guard_narrows_the_union() -> None:
    resolved = resolve_fixture(SRC)
    assert _callees(resolved, "guarded") == [(25, "A.m"), (26, "A.m"), (26, "B.m")]
    assert _callees(resolved, "early") == [(36, "B.m")]
    # a rebinding inside the guard ends it; after it, z is the B of the suite or the earlier union
    # (two statements in a row: the second joins the first's join); a tuple of classes narrows nothing
    assert _callees(resolved, "rebound") == [(46, "B.m"), (48, "A.m"), (48, "B.m")]
    # where no suite ran, w is an A: A2 (a subclass) stays, B goes; the suite's value is to_a()'s A
    assert _callees(resolved, "joined") == [(58, "A.m"), (58, "A2.m")]


def test_the_narrowed_bindings() -> None:
    src = (b"def f(x, y):\n    if isinstance(x, mod.A) and y:\n        x.m()\n        x.n()\n"
           b"    if not isinstance(y, B):\n        raise TypeError()\n    y.m()\n    return y\n"
           b"    if not isinstance(x, C):\n        pass\n    if type(x) is D:\n        x.m()\n")
    out = extractor_for_path("m.py").extract("m.py", src)
    assert sorted((b.scope, b.name, b.type, b.line, b.end) for b in out.bindings if b.how == "narrowed") == [
        ("f", "x", "D", 12, 12), ("f", "x", "mod.A", 3, 4), ("f", "y", "B", 7, 12)]
