"""Repeated definitions of one name (redef37): Python's shadowing rule (an unconditional, undecorated
``def`` / ``class`` in a module or class body replaces the earlier definitions of that qualname), and
the bound on the namesakes a call binds (:data:`indexer.resolve.context.MAX_NAMESAKES`), so that a
file redefining one name thousands of times costs work and edges linear in the copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.languages import extractor_for_path
from indexer.resolve.context import MAX_NAMESAKES
from tests.index_dump import calls
from tests.resolution_harness import edges, resolve_fixture
from tests.unit.test_incremental import Workspace


def _shadowed(path: str, source: str) -> list[tuple[str, int, bool]]:
    ex = extractor_for_path(path).extract(path, source.encode())
    return [(d.qualname, d.start_line, d.shadowed) for d in ex.definitions]


def test_python_extractor_marks_what_a_later_unconditional_definition_replaces() -> None:
    source = (
        "def f():\n    pass\n"            # 1: replaced by line 8
        "if X:\n"
        "    def f():\n        pass\n"    # 4: conditional, replaced all the same by line 8
        "def g():\n    pass\n"            # 6
        "def f():\n    pass\n"            # 8: the last: kept
        "@deco\n"
        "def g():\n    pass\n"            # 10: decorated: g at 6 is kept
        "class C:\n"                      # 13: replaced by line 24, and its members with it
        "    def m(self):\n        pass\n"
        "    @property\n"
        "    def p(self):\n        pass\n"
        "    @p.setter\n"
        "    def p(self, v):\n        pass\n"
        "    def p(self):\n        pass\n"   # 22: replaces the property and its setter
        "class C:\n"                         # 24
        "    def m(self):\n        pass\n"
        "    try:\n"
        "        def m(self):\n            pass\n"   # conditional: the m above is kept
        "    except E:\n        pass\n"
        "def h():\n"
        "    def k():\n        pass\n"
        "    def k():\n        pass\n"       # a function body: outside the rule, both kept
    )
    assert _shadowed("m.py", source) == [
        ("f", 1, True), ("f", 4, True), ("g", 6, False), ("f", 8, False), ("g", 10, False),
        ("C", 13, True), ("C.m", 14, True), ("C.p", 16, True), ("C.p", 19, True), ("C.p", 22, True),
        ("C", 24, False), ("C.m", 25, False), ("C.m", 28, False),
        ("h", 32, False), ("h.k", 33, False), ("h.k", 35, False),
    ]


def test_conditional_classes_keep_their_own_members() -> None:
    # Two classes of one name in the branches of an `if`: neither replaces the other, nor do their
    # members (each unconditional in its own class body) replace each other's.
    source = ("if X:\n    class C:\n        def m(self):\n            pass\n"
              "else:\n    class C:\n        def m(self):\n            pass\n")
    assert _shadowed("m.py", source) == [("C", 2, False), ("C.m", 3, False), ("C", 6, False), ("C.m", 7, False)]


def test_a_method_redefined_unconditionally_binds_only_the_last() -> None:
    result = resolve_fixture(
        """
        # --- path: m.py ---
        class C:
            def get(self):
                return self.get()

            def get(self):
                return self.get()


        def go(c: C):
            c.get()
        """)
    assert edges(result) == ["m.C.get(0) -> m.C.get(0)#2 [exact]",
                             "m.C.get(0)#2 -> m.C.get(0)#2 [exact]",
                             "m.go(1) -> m.C.get(0)#2 [exact]"]
    # the replaced definition keeps its node
    assert sorted(n.id for f in result.files for n in f.nodes if n.label == "Method") == [
        "t:m.C.get(0)", "t:m.C.get(0)#2"]


def test_a_method_defined_conditionally_binds_both() -> None:
    result = resolve_fixture(
        """
        # --- path: m.py ---
        import sys


        class C:
            if sys.platform == "win32":
                def get(self):
                    pass
            else:
                def get(self):
                    pass


        def go(c: C):
            c.get()
        """)
    assert edges(result) == ["m.go(1) -> m.C.get(0) [exact]", "m.go(1) -> m.C.get(0)#2 [exact]"]


def test_property_and_setter_bind_as_before() -> None:
    result = resolve_fixture(
        """
        # --- path: m.py ---
        class C:
            @property
            def value(self):
                return self.load()

            @value.setter
            def value(self, v):
                self.load()

            def load(self):
                pass


        def go(c: C):
            c.value()
            c.value(1)
        """)
    # as on main 5252851: a call with no argument binds the getter, one with an argument the setter
    assert edges(result) == ["m.C.value(0) -> m.C.load(0) [exact]",
                             "m.C.value(1) -> m.C.load(0) [exact]",
                             "m.go(1) -> m.C.value(0) [exact]",
                             "m.go(1) -> m.C.value(1) [exact]"]


def test_overload_stubs_bind_as_before() -> None:
    result = resolve_fixture(
        """
        # --- path: m.py ---
        from typing import overload


        class C:
            @overload
            def get(self, a: int) -> int: ...
            @overload
            def get(self, a: str) -> str: ...
            def get(self, a):
                return a


        def go(c: C):
            c.get(1)
        """)
    assert edges(result) == ["m.go(1) -> m.C.get(1) [exact]"]


def test_redefined_top_level_function_binds_the_last() -> None:
    result = resolve_fixture(
        """
        # --- path: m.py ---
        def f(x):
            return f(x)


        def f(x):
            return f(x)
        # --- path: use.py ---
        from m import f


        def go():
            f(1)
        """)
    assert edges(result) == ["m.f(1) -> m.f(1)#2 [exact]", "m.f(1)#2 -> m.f(1)#2 [exact]",
                             "use.go(0) -> m.f(1)#2 [exact]"]


def _conditional_copies(n: int) -> str:
    body = "".join("    if X:\n        def get(self):\n            pass\n" for _ in range(n))
    return "class C:\n" + body + "\n\ndef go(c: C):\n    c.get()\n"


def test_a_call_binds_at_most_the_last_namesakes() -> None:
    n = MAX_NAMESAKES + 3
    result = resolve_fixture("# --- path: m.py ---\n" + _conditional_copies(n))
    kept = ["m.go(1) -> m.C.get(0)" + (f"#{i}" if i > 1 else "") + " [exact]" for i in range(4, n + 1)]
    assert edges(result) == sorted(kept)
    assert len(kept) == MAX_NAMESAKES


def test_the_bound_holds_in_javascript_classes() -> None:
    n = MAX_NAMESAKES + 2
    methods = "".join("  m() { return 1; }\n" for _ in range(n))
    result = resolve_fixture(
        "// --- path: a.js ---\nclass A {\n" + methods + "}\nfunction go() { new A().m(); }\n")
    # `new A()` binds the class (no constructor), `.m()` the last MAX_NAMESAKES of the n copies
    assert edges(result) == sorted(["a.go(0) -> a.A [exact]"] + [f"a.go(0) -> a.A.m(0)#{i} [exact]" for i in range(3, n + 1)])


def test_property_functions_assigned_many_times_bind_the_last() -> None:
    copies = "".join("api.m = function () { return api.m(); };\n" for _ in range(5))
    result = resolve_fixture("// --- path: a.js ---\nconst api = {};\n" + copies)
    assert edges(result) == []  # `api` is no object of definitions here: nothing binds, as on main


FILES = {
    "p/__init__.py": "",
    "p/m.py": ("class C:\n    if X:\n        def get(self):\n            return 1\n"
               "    def get(self):\n        return 2\n"),
    "p/use.py": "from p.m import C\n\n\ndef go(c: C):\n    c.get()\n",
}


@pytest.fixture
def ws(tmp_path: Path):
    w = Workspace(tmp_path, FILES)
    yield w
    w.close()


def test_moving_the_condition_to_the_other_copy_rebinds_the_callers(ws: Workspace) -> None:
    assert calls(ws.db) == ["p/use.go(1) -> p/m.C.get(0)#2 [exact]"]
    # The same names and signatures in the same order: only which copy is conditional moved.
    ws.edit({"p/m.py": ("class C:\n    def get(self):\n        return 1\n"
                        "    if X:\n        def get(self):\n            return 2\n")})
    assert calls(ws.db) == ["p/use.go(1) -> p/m.C.get(0) [exact]", "p/use.go(1) -> p/m.C.get(0)#2 [exact]"]
    ws.edit({"p/m.py": FILES["p/m.py"]})
    assert calls(ws.db) == ["p/use.go(1) -> p/m.C.get(0)#2 [exact]"]


def _kept(first: int, last: int) -> list[str]:
    return sorted(f"p/{m}.go(1) -> p/m.C.get(0)" + (f"#{i}" if i > 1 else "") + " [exact]"
                  for i in range(first, last + 1) for m in ("m", "use"))


def test_editing_a_file_of_many_copies_equals_a_full_index(ws: Workspace) -> None:
    n = MAX_NAMESAKES + 4
    ws.edit({"p/m.py": _conditional_copies(n)})
    assert calls(ws.db) == _kept(5, n)
    ws.edit({"p/m.py": _conditional_copies(n - 2)})  # two copies fewer: the kept ones are #3 on
    assert calls(ws.db) == _kept(3, n - 2)
    ws.edit({"p/m.py": "class C:\n" + "    def get(self):\n        pass\n" * n + "\n\ndef go(c: C):\n    c.get()\n"})
    assert calls(ws.db) == [f"p/m.go(1) -> p/m.C.get(0)#{n} [exact]", f"p/use.go(1) -> p/m.C.get(0)#{n} [exact]"]
    ws.edit({"p/m.py": _conditional_copies(n)})
    assert calls(ws.db) == _kept(5, n)


def _lexical_by_scan(fc) -> list[str | None]:
    """FileCtx's lexical parents as main computed them: a scan of every definition for each."""
    from indexer.model import CALLABLE_KINDS, TYPE_KINDS
    from indexer.resolve.context import spans
    from indexer.resolve.multimap import entries

    out = []
    for rd in fc.defs:
        d = rd.d
        parents = entries(fc.by_qualname, d.parent or "")
        if parents and any(spans(p.d, d) for p in parents):
            out.append(d.parent)
            continue
        if d.parent is None:
            out.append(None)
            continue
        best = None
        for o in (x.d for x in fc.defs):
            if o is not d and (o.kind in CALLABLE_KINDS or o.kind in TYPE_KINDS) and spans(o, d):
                if best is None or spans(best, o):
                    best = o
        out.append(best.qualname if best else None)
    return out


JS = """
const api = {};
api.m = function () { return api.m(); };
function View(name) { this.name = name; }
View.prototype.render = function () {
  res.send = function () { return 1; };
  function inner() { api.m = function () {}; }
  return inner();
};
class A {
  m() { const o = { f() { return 2; } }; return o; }
  static n() { return A.m; }
}
api.m = function () { return api.m(); };
module.exports = { list() {}, api };
"""


@pytest.mark.parametrize("path, source", [
    ("a.js", JS),
    ("m.py", _conditional_copies(3) + "class D:\n    class E:\n        def f(self):\n            def g():\n                pass\n"),
    ("b.ts", "namespace N { export function f() {} }\nconst o = { a: () => 1 };\no.b = () => 2;\n"),
])
def test_lexical_parents_by_sweep_equal_the_scan(path: str, source: str) -> None:
    from indexer.resolve.repository import RepositoryResolver
    from tests.resolution_harness import extract_fixture

    marker = "//" if path.endswith((".js", ".ts")) else "#"
    resolver = RepositoryResolver("t")
    resolver.update(extract_fixture(f"{marker} --- path: {path} ---\n{source}"))
    fc = resolver.files[path]
    expected: dict[str, str | None] = {}
    for rd, p in zip(fc.defs, _lexical_by_scan(fc)):
        if p != (rd.qualname.rpartition(".")[0] or None):
            expected[rd.qualname] = p
        else:
            expected.pop(rd.qualname, None)
    assert fc.lexical_parent == expected
    if path == "a.js":  # the property functions written at top level see the module, not `api`
        assert expected == {"api.m": None, "View.render": None, "View.render.res.send": "View.render",
                            "View.render.inner.api.m": "View.render.inner", "A.m.o.f": "A.m"}


def test_each_copy_owns_the_calls_in_its_own_body() -> None:
    # More copies than def_at scans: the caller of each call is found by line, and is its own copy.
    n = 12
    copies = "".join(f"def f(x):\n    return g{i}(x)\n\n\n" for i in range(1, n + 1))
    funcs = "".join(f"def g{i}(x):\n    pass\n\n\n" for i in range(1, n + 1))
    result = resolve_fixture("# --- path: m.py ---\n" + funcs + copies)
    assert edges(result) == sorted(f"m.f(1){'#' + str(i) if i > 1 else ''} -> m.g{i}(1) [exact]" for i in range(1, n + 1))

