"""brk52's hostile inputs against session 51's work (getattr values stated by ``if`` tests and ``strings``
bindings, ``isinstance`` narrowing): what broke is tested here with exact values and what must not be
linked (inputs, sizes and times: docs/benchmarks.md, "brk52")."""

from __future__ import annotations

import time

from indexer.languages import extractor_for_path
from indexer.model import NARROWED
from indexer.resolve.name_patterns import pattern_matcher, pattern_regex
from tests.resolution_harness import edges, resolve_fixture

_JUNK = "# \x00 \ufffd \u202e a NUL and odd code points in a comment\n"
_NOT_UTF8 = "# \udcff\udcfe not UTF-8 in a comment (written back by surrogateescape)\n"


def _methods(*names: str) -> str:
    return "".join(f"    def {n}(self):\n        return 1\n\n" for n in names)


def test_an_or_chain_of_2000_equalities_states_the_getattr_values() -> None:
    """``if k == "m0" or k == "m1" or ... :`` 2,000 operands (three values repeated) nests 2,000 deep on the
    left: the recursive reading overflowed and the whole file was lost (no definition, no call). Read
    with a stack: the three stated methods, never ``on_x``."""
    conds = " or ".join(f'k == "m{i % 3}"' for i in range(2000))
    fixture = ("# --- path: orc.py ---\nclass R:\n" + _methods("on_m0", "on_m1", "on_m2", "on_x")
               + f"    def go(self, k):\n        if {conds}:\n            getattr(self, 'on_' + k)()\n")
    assert edges(resolve_fixture(fixture)) == [
        "orc.R.go(1) -> orc.R.on_m0(0) [inferred]",
        "orc.R.go(1) -> orc.R.on_m1(0) [inferred]",
        "orc.R.go(1) -> orc.R.on_m2(0) [inferred]",
    ]


def test_a_nested_and_or_guard_keeps_its_reading() -> None:
    """The stack reads the same tree as the recursion did: ``and`` keeps its first operand that says
    something, ``or`` joins two lists, anything else in an ``or`` says nothing."""
    fixture = ("# --- path: g.py ---\nclass R:\n" + _methods("on_a", "on_b", "on_c", "on_d")
               + "    def go(self, k, z):\n"
               "        if z and (k == 'a' or (k == 'b')) and k == 'c':\n            getattr(self, 'on_' + k)()\n"
               "        if k == 'd' or z:\n            getattr(self, 'on_' + k)()\n")
    assert edges(resolve_fixture(fixture)) == [  # first: a, b (the first operand that says); second: every on_
        "g.R.go(2) -> g.R.on_a(0) [inferred]",
        "g.R.go(2) -> g.R.on_b(0) [inferred]",
        "g.R.go(2) -> g.R.on_c(0) [inferred]",
        "g.R.go(2) -> g.R.on_d(0) [inferred]",
    ]
    only_first = fixture.replace("        if k == 'd' or z:\n            getattr(self, 'on_' + k)()\n", "")
    assert edges(resolve_fixture(only_first)) == [  # negative: not on_c (the later `and` operand), not on_d
        "g.R.go(2) -> g.R.on_a(0) [inferred]",
        "g.R.go(2) -> g.R.on_b(0) [inferred]",
    ]


def test_an_and_chain_of_2000_operands_after_isinstance_narrows() -> None:
    """``if isinstance(x, A) and y0 and ... and y1999: x.run()``: the recursive test overflowed and lost
    the file; read in a loop, ``x`` is an ``A`` there (``B.run`` is not linked)."""
    conds = " and ".join(["isinstance(x, A)"] + [f"y{i}" for i in range(2000)])
    fixture = ("# --- path: andc.py ---\n" + _JUNK + "class A:\n" + _methods("run") + "class B:\n" + _methods("run")
               + f"def go(x):\n    if {conds}:\n        x.run()\n")
    assert edges(resolve_fixture(fixture)) == ["andc.go(1) -> andc.A.run(0) [inferred]"]


def _narrowed(source: str) -> list[tuple[str | None, str, str, int, int | None]]:
    ex = extractor_for_path("n.py").extract("n.py", source.encode("utf-8", "surrogateescape"))
    assert not ex.errors
    return sorted((b.scope, b.name, b.type, b.line, b.end) for b in ex.bindings if b.how == NARROWED)


def test_negations_keep_their_reading() -> None:
    """``not (isinstance and y)`` narrows after the exit; ``(not isinstance) and y``, ``not not``: nothing."""
    src = ("def f(x, y, z):\n    if not (isinstance(x, A) and y):\n        return\n    x.run()\n"
           "    if (not isinstance(y, B)) and x:\n        return\n    y.run()\n"
           "    if not not isinstance(z, C):\n        return\n    z.run()\n")
    assert _narrowed(src) == [("f", "x", "A", 4, 10)]


def test_2000_negated_guards_in_one_function_read_their_block_once() -> None:
    """2,000 ``if not isinstance(x_i, A): return`` in one function: each guard walked every statement after
    it (51 s at 2,000, over 120 s at 4,000); the block is read once. Exact bindings, and a name bound
    again later (``x1 = ...``, a ``for x2 in``) is not narrowed."""
    n = 2000
    body = "".join(f"    if not isinstance(x{i}, A):\n        return\n" for i in range(n))
    src = (_NOT_UTF8 + f"def go({', '.join(f'x{i}' for i in range(n))}):\n" + body
           + "    x0.run()\n    x1 = make()\n    for x2 in x0:\n        pass\n")
    t = time.perf_counter()
    found = _narrowed(src)
    assert time.perf_counter() - t < 20
    last = 2 + 2 * n + 4  # the junk comment, the def, two lines per guard, the four lines after
    assert len(found) == n - 2
    assert found[:2] == [("go", "x0", "A", 5, last), ("go", "x10", "A", 25, last)]  # from the next line on
    assert {name for _, name, *_ in found} == {f"x{i}" for i in range(n)} - {"x1", "x2"}  # negatives: x1, x2


def test_a_for_over_100000_strings_binds_only_the_stated_methods() -> None:
    """``for k in KINDS: getattr(self, "on_" + k)()`` with ``KINDS`` a tuple of 100,000 strings: the values were
    made unique by a list scan (quadratic: 35 s at 40,000) and, past :data:`MAX_EXPANDED` alternatives, read
    as ``on_*`` (``on_zz`` bound). A set: linear, and exactly ``on_v0`` .. ``on_v2``."""
    vals = ", ".join(f'"v{i}"' for i in range(100_000))
    fixture = ("# --- path: bigs.py ---\n" + _JUNK + f"KINDS = ({vals})\nclass R:\n" + _methods("on_v0", "on_v1", "on_v2", "on_zz")
               + "    def go(self):\n        for k in KINDS:\n            getattr(self, 'on_' + k)()\n")
    t = time.perf_counter()
    found = edges(resolve_fixture(fixture))
    assert time.perf_counter() - t < 60
    assert found == [f"bigs.R.go(0) -> bigs.R.on_v{i}(0) [inferred]" for i in range(3)]  # negative: on_zz


def test_the_matcher_of_one_group_answers_as_the_regex() -> None:
    """:func:`pattern_matcher` answers as :func:`pattern_regex` on the shapes both read, and keeps the regex
    for the others (a wildcard, a reference, two groups)."""
    names = ("add_get", "add_post", "add_", "add_getx", "xadd_get", "add_route", "get", "add_get_post")
    for p in ("add_<get|post>", "add_<get|post>_post", "<get|post>", "add_<>", "add_*", "add_<=m.X>", "<add|x>_<get|y>"):
        assert [pattern_matcher(p)(n) for n in names] == [pattern_regex(p).fullmatch(n) is not None for n in names], p
    many = pattern_matcher("on_<" + "|".join(f"v{i}" for i in range(100_000)) + ">")
    assert [many(n) for n in ("on_v0", "on_v99999", "on_v100000", "on_zz", "on_", "xon_v1")] == \
        [True, True, False, False, False, False]


def test_a_file_of_3000_sequelize_models_reads_each_class_s_fields_once() -> None:
    """3,000 ``@Table`` classes of two ``@Column`` fields in one file (and a base class of columns, a class
    of an undecorated field): every class scanned every definition of the file (quadratic). Exact tables
    and columns; the undecorated field is no column, the class without ``@Table`` is abstract."""
    n = 3000
    models = "".join(f'@Table({{ tableName: "t{i}" }})\nexport class M{i} extends Model {{\n  @Column\n  a{i}: string;\n'
                     f'  @Column(DataType.UUID)\n  b{i}: string;\n}}\n' for i in range(n))
    src = ('import { Table, Column, Model, DataType } from "sequelize-typescript";\n' + models
           + "export class Base extends Model {\n  @Column\n  id: number;\n  plain: string;\n}\n"
           + '@Table\nexport class Star extends Base {\n  note: string;\n}\n'
           + "export async function go() {\n  return M0.findAll({ where: { a0: 1 }, include: [{ model: M1, include: [M2] }] });\n}\n")
    t = time.perf_counter()
    ex = extractor_for_path("models.ts").extract("models.ts", b"// \xff\xfe\xc3\x28\n" + src.encode())
    assert time.perf_counter() - t < 90
    tables = [(d.name, d.columns, d.entity, d.kind) for d in ex.tables]
    assert len(tables) == n + 2
    assert tables[0] == ("t0", [("a0", "string"), ("b0", "UUID")], "M0", "table")
    assert tables[n - 1] == (f"t{n - 1}", [(f"a{n - 1}", "string"), (f"b{n - 1}", "UUID")], f"M{n - 1}", "table")
    assert tables[n:] == [("", [("id", "number")], "Base", "abstract"),  # negative: `plain` is no column
                          ("Stars", [], "Star", "table")]  # negative: `note` is no column
    assert sorted((u.role, u.entity, tuple(u.columns)) for u in ex.table_uses) == [
        ("reads", "M0", ("a0",)), ("reads", "M1", ()), ("reads", "M2", ())]
