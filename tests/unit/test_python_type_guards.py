"""Straight-line reassignment of ``self.x`` and the type tests py51 left (indexer/resolve/member_flow.py,
indexer/languages/python/narrowing.py, indexer/resolve/either.py): within a method, the assignment of
``self.x`` written last before a call decides it (another method reads each method's last); ``type(x)
is A`` / ``== A`` / ``is not A``, ``isinstance(x, (A, B))`` (a union), a guard's class imported, an
``and`` whose later operand tests, and ``isinstance(self.x, A)`` narrow like ``isinstance(x, A)``. Exact
callees; negatives: the class assigned first, the classes a guard excludes, a branch join's union kept."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import resolve_fixture

SHAPES = '''
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


class C:
    def m(self):
        return 4
'''
"""Four classes with one method ``m`` each (``A2`` a subclass of ``A``), shared by the narrowing tests."""

SRC = SHAPES + '''# --- path: app/use.py ---
from app import shapes
from app.shapes import A, B, C


class Holder:
    def __init__(self):
        self.x = A()
        self.x.m()
        self.x = B()
        self.x.m()

    def later(self):
        self.x.m()


class Joined:
    def __init__(self, flag):
        self.v = A()
        if flag:
            self.v = B()
        self.v.m()

    def run(self):
        if isinstance(self.v, A):
            self.v.m()
        self.v.m()


class Either:
    def __init__(self, flag):
        self.h = A() if flag else B()

    def go(self):
        if not isinstance(self.h, B):
            return
        self.h.m()

    def swap(self):
        self.h.m()
        self.h = C()
        self.h.m()


def guards(x, y, z):
    if type(x) is C:
        x.m()
    if type(y) == B:
        y.m()
    if isinstance(z, (A, B)):
        z.m()


def imported(x, y):
    if isinstance(x, shapes.B):
        x.m()
    if x is not None and isinstance(y, C):
        y.m()


def negated_tuple(flag):
    if flag:
        v = A()
    elif flag is None:
        v = B()
    else:
        v = C()
    if not isinstance(v, (A, B)):
        return None
    return v.m()


def type_not(u):
    if type(u) is not C:
        raise TypeError(u)
    u.m()
'''


def _callees(resolved, caller: str) -> list[tuple[int, str]]:
    return sorted((e.line, e.dst.split(".", 1)[1].split("(")[0]) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.split(".", 1)[1].split("(")[0] == caller
                  and e.dst.split(".", 1)[1].split("(")[0].endswith(".m"))


def test_self_attribute_reassignment_follows_statement_order() -> None:
    resolved = resolve_fixture(SRC)
    # the first call reads A, the second B (not A); another method reads the method's last: B only
    assert _callees(resolved, "Holder.__init__") == [(8, "A.m"), (10, "B.m")]
    assert _callees(resolved, "Holder.later") == [(13, "B.m")]
    # an `if` without `else` joins: A or B after it, in the method and elsewhere
    assert _callees(resolved, "Joined.__init__") == [(21, "A.m"), (21, "B.m")]
    # a guard on self.v narrows the join to A (B gone); after the `if` the union is back
    assert _callees(resolved, "Joined.run") == [(25, "A.m"), (26, "A.m"), (26, "B.m")]
    # before this method's own assignment the other methods' values hold; after it, C alone
    assert _callees(resolved, "Either.swap") == [(39, "A.m"), (39, "B.m"), (39, "C.m"), (41, "C.m")]


def test_type_tests_tuples_and_imported_classes_narrow() -> None:
    resolved = resolve_fixture(SRC)
    # `if not isinstance(self.h, B): return`: B only (A of the other operand gone)
    assert _callees(resolved, "Either.go") == [(36, "B.m")]
    # type(x) is C / == B: that class; a tuple: each of its classes (C not)
    assert _callees(resolved, "guards") == [(46, "C.m"), (48, "B.m"), (50, "A.m"), (50, "A2.m"), (50, "B.m")]
    # a dotted class of an imported module; a test as the later operand of `and`
    assert _callees(resolved, "imported") == [(55, "B.m"), (57, "C.m")]
    # the union A | B | C after `if not isinstance(v, (A, B)): return`: A and B, not C
    assert _callees(resolved, "negated_tuple") == [(69, "A.m"), (69, "B.m")]
    assert _callees(resolved, "type_not") == [(75, "C.m")]


def test_the_bindings_a_tuple_and_a_type_test_write() -> None:
    src = (b"class K:\n    def f(self, x, y):\n        if isinstance(x, (A, m.B)):\n            x.m()\n"
           b"        if type(y) != C:\n            return\n        y.m()\n"
           b"        if isinstance(self.p, D):\n            self.p.m()\n"
           b"        if isinstance(self.q, E):\n            self.q = F()\n"
           b"        if isinstance(x.y, G) or isinstance(x, (H, 1)):\n            x.m()\n")
    out = extractor_for_path("m.py").extract("m.py", src)
    # not written: `self.q` rebound inside, an attribute of another object, an `or`, a tuple holding a literal
    assert sorted((b.scope, b.name, b.type, b.line, b.end) for b in out.bindings if b.how == "narrowed") == [
        ("K.f", "self.p", "D", 9, 9), ("K.f", "x", "A", 4, 4), ("K.f", "x", "m.B", 4, 4), ("K.f", "y", "C", 7, 13)]
