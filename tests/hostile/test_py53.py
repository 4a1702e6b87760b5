"""py53's cost fixes, on hostile sizes with exact answers: a class of N methods each assigning and
reading ``self.x`` (:func:`indexer.resolve.member_flow.in_method_before` sorted the class's method
starts and scanned the attribute's bindings on every read: quadratic), and a pattern call expanding its
glob alternatives once (:mod:`indexer.resolve.name_patterns`). Sizes and times: docs/benchmarks.md,
"py53"."""

from __future__ import annotations

import time

import pytest

from indexer.languages import extractor_for_path
from indexer.model import NARROWED
from indexer.resolve import name_patterns
from tests.resolution_harness import edges, resolve_fixture


def _class_of(n: int, readers: int = 0) -> str:
    body = "".join(f"    def m{i}(self):\n        self.x = B()\n        self.x = A()\n        self.x.run()\n\n"
                   for i in range(n))
    body += "".join(f"    def r{i}(self):\n        self.x.run()\n\n" for i in range(readers))
    return ("# --- path: many.py ---\nclass A:\n    def run(self):\n        return 1\n\n"
            "class B:\n    def run(self):\n        return 2\n\nclass K:\n" + body)


def _runs(fixture: str) -> list[str]:
    """The edges to a ``run`` method (the constructor calls' edges to the classes left out)."""
    return [e for e in edges(resolve_fixture(fixture)) if ".run(0)" in e]


def test_1000_methods_assigning_and_reading_self_x_resolve_in_linear_time() -> None:
    """1,000 methods ``self.x = B(); self.x = A(); self.x.run()``: each read takes its own method's last
    assignment (``A.run``, never ``B.run``); the method starts are sorted once per class (was 7.2 s on the base,
    9.2 of 10 s under cProfile in ``in_method_before``; about 1.5 s now, most of it extraction)."""
    _runs(_class_of(2))  # the resolver's modules imported before the clock starts
    started = time.perf_counter()
    found = _runs(_class_of(1000))
    took = time.perf_counter() - started
    assert len(found) == 1000
    assert found[:2] == ["many.K.m0(0) -> many.A.run(0) [inferred]", "many.K.m1(0) -> many.A.run(0) [inferred]"]
    assert all(e.endswith("-> many.A.run(0) [inferred]") for e in found)
    assert not any("B.run" in e for e in found)  # negative: no other class's method
    assert took < 6.0, took


def test_readers_in_other_methods_take_each_methods_last_once() -> None:
    """300 assigning methods and 300 reading in other methods: every read is ``A.run`` (the union of
    each method's last binding, all ``A``; no ``B``); the union is built once per attribute, not per read."""
    found = _runs(_class_of(300, readers=300))
    assert len(found) == 600
    assert "many.K.r299(0) -> many.A.run(0) [inferred]" in found
    assert all(e.endswith("-> many.A.run(0) [inferred]") for e in found)


def test_a_pattern_call_expands_its_alternatives_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``getattr(self, "on_" + k)()`` with ``k`` unknown (``on_*``, the regular-expression path): the
    binder expands the pattern once (it expanded it for the matcher and again for the affixes), and
    binds exactly the ``on_`` methods, not ``off_a`` nor ``go``."""
    calls: list[str] = []
    real = name_patterns.pattern_globs

    def counting(pattern: str) -> list[str]:
        calls.append(pattern)
        return real(pattern)
    monkeypatch.setattr(name_patterns, "pattern_globs", counting)
    fixture = ("# --- path: p.py ---\nclass R:\n"
               + "".join(f"    def {n}(self):\n        return 1\n\n" for n in ("on_a", "on_b", "off_a"))
               + "    def go(self, k):\n        getattr(self, 'on_' + k)()\n")
    assert edges(resolve_fixture(fixture)) == [
        "p.R.go(1) -> p.R.on_a(0) [inferred]",
        "p.R.go(1) -> p.R.on_b(0) [inferred]",
    ]
    assert calls == ["on_*"], calls


def test_alternating_and_or_600_deep_reads_to_the_depth_cap() -> None:
    """``isinstance(x, A) and (y0 or (y1 and (y2 or ...)))`` 600 alternations: reading each ``or`` inside
    an ``and`` is a recursion, bounded (:data:`~indexer.languages.python.narrowing.MAX_TEST_DEPTH`): the
    file is kept and the first operand still narrows ``x`` to ``A`` (``B.run`` not linked)."""
    cond = "y600"
    for i in range(599, -1, -1):
        cond = f"(y{i} {'or' if i % 2 else 'and'} {cond})"
    fixture = ("# --- path: deep.py ---\nclass A:\n    def run(self):\n        return 1\n\n"
               "class B:\n    def run(self):\n        return 2\n\n"
               f"def go(x):\n    if isinstance(x, A) and {cond}:\n        x.run()\n")
    assert edges(resolve_fixture(fixture)) == ["deep.go(1) -> deep.A.run(0) [inferred]"]


def test_a_match_of_3000_class_cases_writes_one_binding_each_in_linear_time() -> None:
    """3,000 ``case Ci():`` clauses: one narrowed binding each, the subject read once per clause."""
    cases = "".join(f"        case C{i}():\n            x.m()\n" for i in range(3000))
    src = "def f(x):\n    match x:\n" + cases
    started = time.perf_counter()
    ex = extractor_for_path("m.py").extract("m.py", src.encode())
    took = time.perf_counter() - started
    narrowed = [(b.type, b.line) for b in ex.bindings if b.how == NARROWED]
    assert len(narrowed) == 3000 and narrowed[0] == ("C0", 4) and narrowed[-1] == ("C2999", 6002)
    assert took < 10.0, took
