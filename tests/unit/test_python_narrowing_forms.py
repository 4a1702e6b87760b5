"""The narrowing forms py52 left (indexer/languages/python/narrowing.py): ``type(x) in (A, B)``, a negated
test through an ``or`` (``if not isinstance(x, A) or ...: raise``), an ``or`` of tests of one name,
``match`` / ``case`` class patterns (a union, ``as``), user-defined ``TypeGuard`` / ``TypeIs`` functions
(PEP 647 / 742) and ``assert isinstance(...)``. Exact callees per line; negatives: the other branch (an
``else``, ``case _``, the lines before a guard) gets no narrowed type, an unrelated variable is not
narrowed, a negated ``assert`` narrows nothing."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.base import parser
from indexer.languages.python.narrowing import type_guards
from tests.resolution_harness import resolve_fixture
from tests.unit.test_python_type_guards import SHAPES

SRC = SHAPES + '''# --- path: app/use.py ---
from typing import TypeGuard

from typing_extensions import TypeIs

from app import shapes
from app.shapes import A, B, C


def is_a(v: object) -> TypeGuard[A]:
    return True


def is_b(v: object) -> "TypeIs[shapes.B]":
    return True


def type_in(x, y):
    if type(x) in (A, B):
        x.m()
    else:
        x.m()
    y.m()


def type_not_in(x):
    if type(x) not in [C]:
        return
    x.m()


def or_guard(x, y, z):
    if not isinstance(x, A) or not isinstance(y, B) or z:
        raise TypeError(x)
    x.m()
    y.m()
    z.m()


def or_union(x):
    if isinstance(x, B) or isinstance(x, C):
        x.m()


def matched(x, y):
    match x:
        case B() | C():
            x.m()
            y.m()
        case shapes.A(k=1) as found:
            found.m()
        case _:
            x.m()


def guarded(x, y):
    if is_a(x):
        x.m()
    else:
        x.m()
    if not is_b(y):
        return
    y.m()


class Checker:
    def is_c(self, v) -> TypeIs[C]:
        return True

    def run(self, x):
        if self.is_c(x):
            x.m()


def asserted(x, y):
    assert isinstance(x, B), "a B"
    x.m()
    assert not isinstance(y, B)
    y.m()
'''


def _callees(resolved, caller: str) -> list[tuple[int, str]]:
    return sorted((e.line, e.dst.split(".", 1)[1].split("(")[0]) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.split(".", 1)[1].split("(")[0] == caller
                  and e.dst.split(".", 1)[1].split("(")[0].endswith(".m"))


def test_type_in_a_collection_narrows_to_its_classes() -> None:
    resolved = resolve_fixture(SRC)
    # inside `type(x) in (A, B)`: A (and its subclass's override) or B; not C; the `else` (line 21) and
    # the unrelated `y` (line 22): nothing
    assert _callees(resolved, "type_in") == [(19, "A.m"), (19, "A2.m"), (19, "B.m")]
    # `if type(x) not in [C]: return`: C after it
    assert _callees(resolved, "type_not_in") == [(28, "C.m")]


def test_a_negated_test_through_or_narrows_after_the_exit() -> None:
    resolved = resolve_fixture(SRC)
    # each negated operand narrows its own name (x: A, y: B); `z` (a plain operand) is not narrowed
    assert _callees(resolved, "or_guard") == [(34, "A.m"), (34, "A2.m"), (35, "B.m")]
    # an `or` of tests of one name: either class inside, not A
    assert _callees(resolved, "or_union") == [(41, "B.m"), (41, "C.m")]


def test_match_class_patterns_narrow_the_subject_and_the_as_name() -> None:
    resolved = resolve_fixture(SRC)
    # `case B() | C():` B or C for x; `y` (line 48) is not the subject; `case shapes.A(k=1) as found`:
    # `found` is an A; `case _:` (line 52) narrows nothing
    assert _callees(resolved, "matched") == [(47, "B.m"), (47, "C.m"), (50, "A.m"), (50, "A2.m")]


def test_user_defined_type_guards_narrow_their_first_argument() -> None:
    resolved = resolve_fixture(SRC)
    # `if is_a(x)` (TypeGuard[A]): A inside, the `else` (line 59) nothing; `if not is_b(y): return`
    # (a quoted "TypeIs[shapes.B]"): B after it
    assert _callees(resolved, "guarded") == [(57, "A.m"), (57, "A2.m"), (62, "B.m")]
    # a method guard called through self: its first argument after self
    assert _callees(resolved, "Checker.run") == [(71, "C.m")]


def test_assert_isinstance_narrows_after_it_and_a_negated_one_does_not() -> None:
    resolved = resolve_fixture(SRC)
    assert _callees(resolved, "asserted") == [(76, "B.m")]


def _narrowed(src: str) -> list[tuple[str | None, str, str, int, int | None]]:
    ex = extractor_for_path("n.py").extract("n.py", src.encode())
    assert not ex.errors
    return sorted((b.scope, b.name, b.type, b.line, b.end) for b in ex.bindings if b.how == "narrowed")


def test_what_the_new_forms_do_not_write() -> None:
    src = ("def f(x, y, v):\n"
           "    match x, y:\n        case A():\n            x.m()\n"            # two subjects: nothing
           "    match x:\n        case A():\n            x = B()\n"              # rebound inside
           "        case [A()]:\n            x.m()\n"                           # a sequence pattern
           "        case A() | 1:\n            x.m()\n"                         # a union with a literal
           "    if type(v) in (A, 1):\n        v.m()\n"                         # a literal in the tuple
           "    if isinstance(x, A) or y:\n        x.m()\n"                     # an `or` with a plain operand
           "    if isinstance(x, A) or isinstance(y, B):\n        x.m()\n"      # an `or` of two names
           "    assert x or isinstance(y, A)\n    y.m()\n")                       # an `or` in an assert
    assert _narrowed(src) == []


def test_the_bindings_of_the_new_forms() -> None:
    src = ("def f(x, y):\n"
           "    match self.p:\n        case m.A() as q if y:\n            q.m()\n"
           "    if not (isinstance(x, A) or isinstance(x, B)):\n        return\n    x.m()\n"
           "    assert type(y) in {C}\n    y.m()\n")
    assert _narrowed(src) == [("f", "q", "m.A", 4, 4), ("f", "self.p", "m.A", 4, 4),
                              ("f", "x", "A", 7, 9), ("f", "x", "B", 7, 9), ("f", "y", "C", 9, 9)]


def test_type_guards_are_read_from_return_annotations() -> None:
    src = (b"import typing\n"
           b"def a(v) -> typing.TypeGuard[A]: ...\n"
           b"def b(v) -> 'TypeIs[\"m.B\"]': ...\n"
           b"def c(v) -> TypeGuard[list[str]]: ...\n"    # not a class: no guard
           b"def d(v) -> bool: ...\n"
           b"def e(v) -> TypeIs[E]: ...\n"
           b"def e(v) -> TypeIs[F]: ...\n"                # two guards of other classes: left out
           b"class K:\n    def g(self, v) -> TypeIs[G]: ...\n")
    root = parser("python").parse(src).root_node
    assert type_guards(root, lambda n: n.text.decode()) == {
        "a": "A", "b": "m.B", "self.g": "G", "cls.g": "G"}
