"""brk51's quadratic getattr scan (py52): N pattern calls over a class of N methods matched every
method's name against every pattern (1k / 2k / 4k: 7 / 27 / 79 s to index); each class's method names
are now indexed once (indexer/resolve/name_patterns.py) and a pattern reads only the names carrying its
literal prefix or suffix (sizes and times: docs/benchmarks.md, "py52")."""

from __future__ import annotations

import time

from indexer.resolve.name_patterns import pattern_affixes
from tests.resolution_harness import edges, resolve_fixture


def test_affixes_of_patterns() -> None:
    assert pattern_affixes("render_*") == ("render_", "")
    assert pattern_affixes("<get|post>_handler") == ("", "t_handler")  # both end so
    assert pattern_affixes("<get|head>_x") == ("", "_x")
    assert pattern_affixes("add_<get|head>") == ("add_", "")
    assert pattern_affixes("on_*_done") == ("on_", "_done")
    assert pattern_affixes("*") == ("", "")
    assert pattern_affixes("exact") == ("exact", "exact")
    assert pattern_affixes("x<>") == ("", "")  # an empty group: nothing matches, nothing narrows


def test_many_patterns_over_many_methods_bind_in_about_linear_time() -> None:
    """2,000 methods ``visit_i`` and 2,000 calls of non-matching ``'zz{j}_' + k`` (each took every
    name before: about 10 s of matching), plus one prefix, one suffix and one exact-name pattern:
    exactly their methods, the nearest definition of a name first; nothing for the others."""
    n = 2000
    methods = "".join(f"    def visit_{i}(self):\n        return {i}\n\n" for i in range(n))
    calls = "".join(f"    def go{j}(self, k):\n        getattr(self, 'zz{j}_' + k)()\n\n" for j in range(n))
    fixture = ("# --- path: v.py ---\nclass Base:\n    def visit_1(self):\n        return 0\n\n"
               "    def tail_end(self):\n        return 0\n\n"
               f"class V(Base):\n{methods}{calls}"
               "    def pre(self, k):\n        getattr(self, 'visit_19' + k)()\n\n"
               "    def post(self, k):\n        getattr(self, k + '_end')()\n\n"
               "    def same(self, k):\n        getattr(self, 'visit_7' + k + '')()\n")
    t = time.perf_counter()
    every = edges(resolve_fixture(fixture))
    elapsed = time.perf_counter() - t
    found = [e for e in every if "visit_" in e or "_end" in e]
    assert sorted(found) == sorted(
        ["v.V.pre(1) -> v.V.visit_19(0) [inferred]"]
        + [f"v.V.pre(1) -> v.V.visit_19{d}(0) [inferred]" for d in range(10)]
        + [f"v.V.pre(1) -> v.V.visit_19{d}{e}(0) [inferred]" for d in range(10) for e in range(10)][:64 - 11]
        + ["v.V.post(1) -> v.Base.tail_end(0) [inferred]"]
        + ["v.V.same(1) -> v.V.visit_7(0) [inferred]"]
        + [f"v.V.same(1) -> v.V.visit_7{d}(0) [inferred]" for d in range(10)]
        + [f"v.V.same(1) -> v.V.visit_7{d}{e}(0) [inferred]" for d in range(10) for e in range(10)][:64 - 11])
    assert not any(e.startswith("v.V.go") for e in every)
    assert elapsed < 20
