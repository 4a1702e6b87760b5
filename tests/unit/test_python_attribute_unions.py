"""An instance attribute assigned one of several classes (indexer/languages/python/branches.py joins
``self.x`` in a method's branches; indexer/resolve/either.py takes each method's last binding of it):
``self.x = A()`` in one branch and ``self.x = B()`` in another, or in two methods, makes a later
``self.x.m()`` reach A.m and B.m. Negatives: straight-line reassignment makes no union; a method's
binding before its last is not one of the union's values."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: app/__init__.py ---
# --- path: app/svc.py ---
class A:
    def m(self):
        return 1


class B:
    def m(self):
        return 2


class C:
    def m(self):
        return 3


class Branches:
    def __init__(self, flag):
        if flag:
            self.x = A()
        else:
            self.x = B()

    def run(self):
        return self.x.m()


class Methods:
    def __init__(self):
        self.x = C()
        self.x = A()

    def reset(self):
        self.x = B()

    def run(self):
        return self.x.m()


class Straight:
    def __init__(self):
        self.x = A()
        self.x = B()

    def run(self):
        return self.x.m()
'''


def _callees(resolved, caller: str) -> list[str]:
    return sorted(e.dst.split(".", 1)[1].split("(")[0] for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.split(".", 1)[1].split("(")[0] == caller)


def test_an_attribute_holds_the_values_its_methods_leave() -> None:
    resolved = resolve_fixture(SRC)
    assert _callees(resolved, "Branches.run") == ["A.m", "B.m"]
    assert _callees(resolved, "Methods.run") == ["A.m", "B.m"]  # never C.m: __init__ replaced it
    # straight-line reassignment makes no union (never both): __init__ leaves B (py52: the read of
    # each method's last binding, indexer/resolve/member_flow.py; it had taken the first, A)
    assert _callees(resolved, "Straight.run") == ["B.m"]


DECLARED = '''
# --- path: app/__init__.py ---
# --- path: app/svc.py ---
class A:
    def m(self):
        return 1


class B:
    def m(self):
        return 2


class Declared:
    def __init__(self, flag):
        self.x: A = A()
        self.x = B()

    def run(self):
        return self.x.m()
'''


def test_a_declared_attribute_keeps_its_declaration() -> None:
    assert _callees(resolve_fixture(DECLARED), "Declared.run") == ["A.m"]


UNJOINED = '''
# --- path: app/__init__.py ---
# --- path: app/svc.py ---
class A:
    def m(self):
        return 1


class B:
    def m(self):
        return 2


class Unjoined:
    def set(self, items, flag):
        if flag:
            self.x = A()
        else:
            self.x, self.y = B(), items

    def run(self):
        return self.x.m()
'''


def test_a_method_whose_branches_are_not_joined_keeps_each_binding() -> None:
    # an unpacking is no value a join is written for: the if branch's A is not dropped as if the
    # else branch's line overwrote it (the read takes the first of the method's values, as before)
    assert _callees(resolve_fixture(UNJOINED), "Unjoined.run") == ["A.m"]
