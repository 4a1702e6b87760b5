"""A Python name assigned ``a if c else b`` or ``a or b`` holds either operand
(:mod:`indexer.languages.python.operands`): a binding per operand naming a value, and a call through the
name reaches every operand's targets (:mod:`indexer.resolve.either`, the mechanism JavaScript's ``?:`` /
``||`` / ``??`` use); ``and``, literals, ``None`` and a name that is its own operand bind nothing more."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import edges, resolve_fixture

PY = """
# --- path: m.py ---
def a(): pass
def b(): pass
class Default:
    def run(self): pass
class Pager:
    def show(self): pass
class Other:
    def show(self): pass
class Ctx:
    def __init__(self, flag):
        self.pager = Pager() if flag else Other()
    def go(self):
        self.pager.show()
def f(c, d, handler=None):
    x = a if c else b
    x()
    y = d.get(1) or Default
    y().run()
    w = c and a
    w()
    handler = handler or b
    handler()
"""


def test_each_operand_is_a_binding() -> None:
    src = b"def f(c, d, h):\n    x = a if c else b\n    y = d.get(1) or Foo\n    z = Foo() if c else None\n    w = c and a\n    h = h or b\n"
    ex = extractor_for_path("m.py").extract("m.py", src)
    assert [(b.name, b.type, b.how) for b in ex.bindings] == [
        ("x", "a", "alias"), ("x", "b", "alias"),
        ("y", "d.get", "constructed"), ("y", "Foo", "alias"),  # the call operand first, as before
        ("z", "Foo", "constructed"),  # None binds nothing
    ]  # not: `c and a`; `h = h or b` (h keeps its caller's argument as likely as b: nothing more)


def test_a_call_through_either_operand_reaches_each() -> None:
    assert edges(resolve_fixture(PY)) == [
        "m.Ctx.__init__(1) -> m.Other [exact]",
        "m.Ctx.__init__(1) -> m.Pager [exact]",
        "m.Ctx.go(0) -> m.Other.show(0) [inferred]",  # self.pager: Pager() or Other(), assigned once
        "m.Ctx.go(0) -> m.Pager.show(0) [inferred]",
        "m.f(3) -> m.Default [exact]",  # y(): d.get(1) unknown, Default the one known operand
        "m.f(3) -> m.Default.run(0) [exact]",
        "m.f(3) -> m.a(0) [inferred]",  # x(): a or b
        "m.f(3) -> m.b(0) [inferred]",
    ]  # not: w() (`and`), handler() (a parameter that may hold the caller's function)
