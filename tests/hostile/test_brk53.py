"""brk53's hostile inputs against session 52's work (definitions per qualname held per name, ``self.x``
flow order, ``isinstance`` tuples): what broke is tested here with exact values and what must not be
linked (inputs, sizes and times: docs/benchmarks.md, "brk53")."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.resolve.multimap import entries
from indexer.resolve import structural
from indexer.resolve.qualnames import FANOUT, QualnameIndex
from indexer.resolve.repository import RepositoryResolver
from tests.resolution_harness import edges, extract_fixture, resolve_fixture


def _classes(n: int, body: str = "    def run(self):\n        return 1\n") -> str:
    return "".join(f"class C{i}:\n{body}" for i in range(n))


def test_a_name_of_many_definitions_is_held_per_parent() -> None:
    """``run`` of 3 * FANOUT classes (and a nested class's) is held per parent: each qualname answers
    its own definitions, an unknown parent or a prefix nothing; the iteration goes by name in sorted order."""
    n = 3 * FANOUT
    fixture = ("# --- path: m.py ---\n" + _classes(n) + "class Outer:\n    class C1:\n        def run(self):\n"
               "            return 2\n    def run(self):\n        return 3\n    def run(self):\n        return 4\n")
    r = RepositoryResolver("t")
    r.update(extract_fixture(fixture))
    index = r.files["m.py"].by_qualname
    assert isinstance(index, QualnameIndex)
    ids = lambda q: [rd.id.removeprefix("t:m.") for rd in entries(index, q)]  # noqa: E731
    assert ids("C7.run") == ["C7.run(0)"]
    assert ids("Outer.C1.run") == ["Outer.C1.run(0)"]
    assert ids("Outer.run") == ["Outer.run(0)", "Outer.run(0)#2"]  # both, in source order
    assert entries(index, "C999.run") == () and entries(index, "run") == () and entries(index, "C7.ru") == ()
    assert "C0.run" in index and "Outer.C2.run" not in index
    assert len(index) == 2 * n + 4  # C_i, C_i.run, Outer, Outer.C1, Outer.C1.run, Outer.run
    # by name in sorted order, a name's qualnames in the order of their first definitions
    assert list(index)[:4] == ["C0", "C1", "Outer.C1", "C10"]
    assert list(index)[-4:] == [f"C{n - 2}.run", f"C{n - 1}.run", "Outer.C1.run", "Outer.run"]
    (outer,) = entries(r.files["m.py"].top, "Outer")
    assert [rd.id.removeprefix("t:m.") for rd in outer.member("run")] == ["Outer.run(0)#2"]  # the later replaces


def test_each_of_many_classes_calls_its_own_methods() -> None:
    """300 classes with ``__init__`` and ``run`` in one file (every lookup of ``C_i.run`` scanned all
    300 ``run`` definitions): each ``C_i().run()`` is ``C_i.run``, never another class's."""
    n = 300
    fixture = ("# --- path: g.py ---\n" + _classes(n, "    def __init__(self):\n        self.v = 1\n"
                                                    "    def run(self):\n        return self.v\n")
               + "def go():\n" + "".join(f"    C{i}().run()\n" for i in range(0, n, 100)))
    assert edges(resolve_fixture(fixture)) == [
        "g.go(0) -> g.C0.__init__(0) [exact]", "g.go(0) -> g.C0.run(0) [exact]",
        "g.go(0) -> g.C100.__init__(0) [exact]", "g.go(0) -> g.C100.run(0) [exact]",
        "g.go(0) -> g.C200.__init__(0) [exact]", "g.go(0) -> g.C200.run(0) [exact]",
    ]


def test_an_isinstance_tuple_of_300_classes_reaches_each_once() -> None:
    """``isinstance(x, (T0, ..., T299))``: ``x.run()`` is each ``T_i.run`` (2,000 classes took 133 s
    reading every value against every test); ``B.run``, not in the tuple, is not linked."""
    n = 300
    fixture = ("# --- path: t.py ---\nclass B:\n    def run(self):\n        return 0\n"
               + "".join(f"class T{i}:\n    def run(self):\n        return {i}\n" for i in range(n))
               + "def go(x):\n    if isinstance(x, (" + ", ".join(f"T{i}" for i in range(n)) + ")):\n        x.run()\n")
    got = edges(resolve_fixture(fixture))
    assert got == sorted(f"t.go(1) -> t.T{i}.run(0) [inferred]" for i in range(n))
    assert "t.go(1) -> t.B.run(0) [inferred]" not in got


def test_a_tuple_narrows_a_union_below_and_above() -> None:
    """A union ``Base() | Other()`` tested against ``(Sub, Base)``: the ``Base`` value is a ``Sub`` (a
    class tested below it) and stays a ``Base`` (tested itself); ``Other`` goes."""
    fixture = ("# --- path: u.py ---\nclass Base:\n    def m(self):\n        return 0\n"
               "class Sub(Base):\n    def m(self):\n        return 1\n"
               "class Other:\n    def m(self):\n        return 2\n"
               "def go(c):\n    x = Base() if c else Other()\n    if isinstance(x, (Sub, Base)):\n        x.m()\n")
    got = [e for e in edges(resolve_fixture(fixture)) if ".m(" in e]
    assert got == ["u.go(1) -> u.Base.m(0) [inferred]", "u.go(1) -> u.Sub.m(0) [inferred]"]


def test_self_x_assigned_many_times_follows_statement_order() -> None:
    """``self.x`` assigned 300 times in ``__init__`` (``A`` then ``B`` alternately), a call through it
    after each: ``A.m`` and ``B.m``; a last ``self.x = C()`` after every call reaches no call."""
    body = "".join(f"        self.x = {'A' if i % 2 else 'B'}()\n        self.x.m()\n" for i in range(300))
    fixture = ("# --- path: s.py ---\n" + "".join(f"class {k}:\n    def m(self):\n        return 1\n" for k in "ABC")
               + "class S:\n    def __init__(self):\n" + body + "        self.x = C()\n")
    got = [e for e in edges(resolve_fixture(fixture)) if ".m(" in e]
    assert got == ["s.S.__init__(0) -> s.A.m(0) [inferred]", "s.S.__init__(0) -> s.B.m(0) [inferred]"]


def test_a_branch_join_written_after_later_lines_still_decides() -> None:
    """The join of an ``if``'s branches is written on its last line after the bindings below it (not in
    line order): the call after the ``if`` is ``B`` or ``C``, not ``A`` (replaced) nor ``D`` (after)."""
    fixture = ("# --- path: j.py ---\n" + "".join(f"class {k}:\n    def m(self):\n        return 1\n" for k in "ABCD")
               + "class S:\n    def __init__(self, c):\n        self.x = A()\n        if c:\n            self.x = B()\n"
               "        else:\n            self.x = C()\n        self.x.m()\n        self.x = D()\n")
    got = [e for e in edges(resolve_fixture(fixture)) if ".m(" in e]
    assert got == ["j.S.__init__(1) -> j.B.m(0) [inferred]", "j.S.__init__(1) -> j.C.m(0) [inferred]"]


def _urls(source: str) -> dict[str | None, list[str]]:
    ex = extractor_for_path("a.js").extract("a.js", source.encode())
    out: dict[str | None, list[str]] = {}
    for c in ex.http_calls:
        out.setdefault(c.caller, []).append("".join(f"{{{t}}}" if k != "lit" else t for k, t in c.url.parts))
    return out


def test_an_or_chain_of_10000_urls_keeps_its_first_alternatives() -> None:
    """``fetch(o.u0 || ... || o.u9999)`` nests 10,000 deep on the left: read as one choice of its operands
    in order, the first ones are kept (at most MAX_ALTERNATIVES), never the last three before the first."""
    n = 10_000
    src = ("export function go(o) {\n  const url = " + " || ".join(f"o.u{i}" for i in range(n)) + ";\n  return fetch(url);\n}\n")
    assert _urls(src) == {"go": ["{o.u1}", "{o.u2}", "{o.u3}", "{o.u4}"]}  # o.u0 || o.u1: an option and its default


def test_an_always_taken_operand_ends_the_chain() -> None:
    """``a || "/api/x" || "/api/y"``: a non-empty string is truthy, ``/api/y`` is never sent; ``??`` stops
    at any literal (even ``""``); ``""`` does not stop ``||``. An option's literal default (``o.u ?? "/x"``,
    ``o`` a parameter) stays the default alone, as before."""
    src = ("export function a() { return fetch(cfg.u || '/api/x' || '/api/y'); }\n"
           "export function b() { return fetch(cfg.u ?? '' ?? '/api/never'); }\n"
           "export function c() { return fetch(cfg.u || '' || '/api/z'); }\n"
           "export function d(o) { return fetch(o.base ?? '/api/d' ?? '/api/never'); }\n")
    assert _urls(src) == {"a": ["{cfg.u}", "/api/x"], "b": ["{cfg.u}", ""], "c": ["{cfg.u}", "", "/api/z"],
                          "d": ["/api/d"]}


def test_a_cycle_of_bases_gives_no_method_overriding_itself() -> None:
    """``class Query(Mid)`` / ``class Mid(Query)`` (Python refuses it at run time): the lookup of a
    method in a base walks the cycle back to the method itself, which overrides nothing; a real override
    below a base (``Sub.m`` of ``Base.m``) stays."""
    fixture = ("# --- path: c.py ---\nclass Query(Mid):\n    def a(self):\n        return 1\n"
               "class Mid(Query):\n    def b(self):\n        return 2\n"
               "class Base:\n    def m(self):\n        return 3\nclass Sub(Base):\n    def m(self):\n        return 4\n")
    assert edges(resolve_fixture(fixture), "OVERRIDES") == ["c.Sub.m(0) -> c.Base.m(0)"]
    assert sorted(edges(resolve_fixture(fixture), "EXTENDS")) == ["c.Mid -> c.Query", "c.Query -> c.Mid", "c.Sub -> c.Base"]


def test_implicit_interfaces_are_linked_past_the_watch_lists_bound(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    """30 enum types with ``String()`` and 3 interfaces holding ``String()``: 90 (type, interface) pairs to
    watch, past a bound of 50. The watch list took the checks' bound and returned before any check, so
    ``Impl`` implemented nothing and ``a.X0()`` / ``c.Close()`` reached no implementation; now the links
    stay and the cut is logged. The enums implement nothing (no ``X_i``)."""
    monkeypatch.setattr(structural, "MAX_INTERFACE_TYPES", 50)
    fixture = ("// --- path: go.mod ---\nmodule example.com/x\n// --- path: ifaces.go ---\npackage x\n\n"
               + "".join(f"type I{i} interface {{\n\tString() string\n\tX{i}() int\n}}\n\n" for i in range(3))
               + "type Closer interface {\n\tClose() error\n}\n\nfunc Use(a I0, c Closer) {\n\ta.X0()\n\tc.Close()\n}\n"
               "// --- path: enums.go ---\npackage x\n\n"
               + "".join(f"type E{i} int32\n\nfunc (E{i}) String() string {{ return \"e\" }}\n\n" for i in range(30))
               + "type Impl struct{}\n\nfunc (Impl) String() string { return \"\" }\nfunc (Impl) X0() int { return 0 }\n\n"
               "type F struct{}\n\nfunc (F) Close() error { return nil }\n")
    with caplog.at_level("WARNING", logger="indexer.resolve.structural"):
        result = resolve_fixture(fixture)
    assert sorted(edges(result, "IMPLEMENTS")) == ["enums.F -> ifaces.Closer", "enums.Impl -> ifaces.I0"]
    assert edges(result) == [
        "ifaces.Use(2) -> enums.F.Close(0) [inferred]", "ifaces.Use(2) -> enums.Impl.X0(0) [inferred]",
        "ifaces.Use(2) -> ifaces.Closer.Close(0) [exact]", "ifaces.Use(2) -> ifaces.I0.X0(0) [exact]",
    ]
    assert any("implicit interfaces" in r.getMessage() for r in caplog.records)


def test_grouped_service_descs_are_two_services() -> None:
    """``var ( A_ServiceDesc = grpc.ServiceDesc{...}; B_ServiceDesc = grpc.ServiceDesc{...} )``: two
    services, each with its own rpcs (the group was read as one: ``A`` with ``GetA`` and ``WatchB``, ``B``
    lost); a service without a package keeps ``""``, a repeated rpc once."""
    src = (b'package pb\n\nimport "google.golang.org/grpc"\n\nvar (\n\tA_ServiceDesc = grpc.ServiceDesc{\n'
           b'\t\tServiceName: "shop.A",\n\t\tMethods: []grpc.MethodDesc{{MethodName: "GetA"}},\n\t}\n'
           b'\tB_ServiceDesc = grpc.ServiceDesc{\n\t\tServiceName: "shop.B",\n'
           b'\t\tStreams: []grpc.StreamDesc{{StreamName: "WatchB"}},\n\t}\n)\n\n'
           b'var C_ServiceDesc = grpc.ServiceDesc{\n\tServiceName: "C",\n'
           b'\tMethods: []grpc.MethodDesc{{MethodName: "GetC"}, {MethodName: "GetC"}},\n}\n')
    ex = extractor_for_path("x_grpc.pb.go").extract("pb/x_grpc.pb.go", src)
    assert [(s.package, s.name, s.rpcs, s.line) for s in ex.rpc_services] == [
        ("shop", "A", ["GetA"], 7), ("shop", "B", ["WatchB"], 11), ("", "C", ["GetC"], 17)]
