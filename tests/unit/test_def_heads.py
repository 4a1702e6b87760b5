"""The written bases, interfaces and decorators of parked definitions (:mod:`indexer.resolve.def_heads`):
held per file in a sparse column when the file's definitions are parked, so that other files'
hierarchy, model and decorator questions read no parked list back; equal to the definitions'
own, and refreshed when a file changes."""

from __future__ import annotations

import sys
from array import array

import pytest

from indexer.model import Definition
from indexer.parked import ParkedList, UnpackedLists
from indexer.resolve import def_heads
from indexer.resolve.def_heads import NO_HEAD_COLUMN, NO_HEADS, HeadColumn, Heads, forget_shared_heads, heads_column
from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.tables import decorator_names
from indexer.spill import SpillFile
from tests.resolution_harness import extract_fixture

FIXTURE = """
# --- path: app/__init__.py ---
# --- path: app/base.py ---
import abc


class Base(abc.ABC):
    def run(self):
        return 1


class Mixin:
    pass
# --- path: app/models.py ---
from app.base import Base, Mixin


class Order(Mixin, Base):
    @staticmethod
    def make():
        return Order()

    @property
    def total(self):
        return 1


class Line(Base):
    pass


def plain():
    return 2
"""

CHANGED = FIXTURE.replace("class Order(Mixin, Base):", "class Order(Base):").replace(
    "    @property\n    def total", "    @classmethod\n    def total")


def _definition(i: int, bases: list[str] | None = None, decorators: list[str] | None = None) -> Definition:
    return Definition(kind="class" if bases else "function", name=f"n{i}", qualname=f"n{i}", parent=None,
                      start_line=i + 1, start_col=0, end_line=i + 1, end_col=0, name_line=i + 1, name_col=0,
                      bases=bases or [], decorators=decorators or [])


def _parked(fixture: str = FIXTURE) -> RepositoryResolver:
    resolver = RepositoryResolver("t", park=SpillFile())
    resolver.update(extract_fixture(fixture))
    return resolver


def _counting(monkeypatch: pytest.MonkeyPatch, resolver: RepositoryResolver) -> list[int]:
    """Every parked list of definitions read back from now on (its length); nothing kept between reads
    (the imports a lookup reads are parked lists too, not counted)."""
    reads: list[int] = []
    unpack = ParkedList.unpack

    def counted(items: ParkedList) -> list:
        out = unpack(items)
        if out and isinstance(out[0], Definition):
            reads.append(len(out))
        return out

    monkeypatch.setattr(ParkedList, "unpack", counted)
    for fc in resolver.files.values():
        fc.unpacked = UnpackedLists(0)
    return reads


class TestColumn:
    def test_only_definitions_writing_some_are_held_by_position(self):
        defs = [_definition(0, bases=["Base", "abc.ABC"]), _definition(1), _definition(2, decorators=["app.route('/x')"]),
                _definition(3), _definition(4, bases=["Base", "abc.ABC"], decorators=["dataclass"])]
        column = heads_column(defs)
        assert list(column.at) == [0, 2, 4] and column.at.typecode == "H" and len(column) == 3
        assert [column.get(i) for i in range(5)] == [
            Heads(("Base", "abc.ABC"), (), ()), NO_HEADS, Heads((), (), ("app.route('/x')",)), NO_HEADS,
            Heads(("Base", "abc.ABC"), (), ("dataclass",))]
        assert column.get(5) is NO_HEADS and column.get(1) is NO_HEADS  # past the end, between
        # equal text tuples of a file are one object, and the texts are interned
        assert column.get(0).bases is column.get(4).bases
        assert column.get(2).decorators[0] is sys.intern("app.route('/x')")

    def test_equal_heads_are_one_object_across_files_until_the_table_is_emptied(self, monkeypatch):
        forget_shared_heads()
        a = heads_column([_definition(0, bases=["models.Model"]), _definition(1, decorators=["property"])])
        b = heads_column([_definition(0, decorators=["property"]), _definition(1, bases=["models.Model"])])
        assert a.get(0) is b.get(1) and a.get(1) is b.get(0)  # one Heads object per value
        assert forget_shared_heads() == 4  # two Heads, two text tuples
        c = heads_column([_definition(0, bases=["models.Model"])])
        assert c.get(0) == a.get(0) and c.get(0) is not a.get(0)  # equal, shared anew
        forget_shared_heads()
        monkeypatch.setattr(def_heads, "SHARED_LIMIT", 3)  # a full table starts over
        heads_column([_definition(0, bases=["A"]), _definition(1, bases=["B"])])
        assert len(def_heads._SHARED) == 1  # noqa: SLF001  (A's tuple and Heads, B's tuple: full, then B's Heads)
        forget_shared_heads()

    def test_a_file_writing_none_shares_the_empty_column(self):
        assert heads_column([_definition(0), _definition(1)]) is NO_HEAD_COLUMN
        assert heads_column([]) is NO_HEAD_COLUMN and NO_HEAD_COLUMN.get(0) is NO_HEADS

    def test_positions_past_65535_take_32_bit_items(self):
        column = HeadColumn(array("I", [3, 70_000]), (Heads(("A",), (), ()), Heads(("B",), (), ())))
        assert column.get(70_000).bases == ("B",) and column.get(69_999) is NO_HEADS
        defs = [_definition(0)] * 70_000 + [_definition(70_000, decorators=["x"])]
        built = heads_column(defs)
        assert built.at.typecode == "I" and list(built.at) == [70_000] and built.get(70_000).decorators == ("x",)


class TestParkedDefs:
    def test_heads_equal_the_definitions_and_read_nothing_back(self, monkeypatch):
        plain = RepositoryResolver("t")
        plain.update(extract_fixture(FIXTURE))
        resolver = _parked()
        reads = _counting(monkeypatch, resolver)
        for path in ("app/base.py", "app/models.py"):
            got = [tuple(map(tuple, rd.heads)) for rd in resolver.files[path].defs]
            want = [(tuple(rd.d.bases), tuple(rd.d.implements), tuple(rd.d.decorators)) for rd in plain.files[path].defs]
            assert got == want
        assert reads == []
        models = resolver.files["app/models.py"]
        assert [(rd.qualname, rd.heads) for rd in models.defs if rd.heads is not NO_HEADS] == [
            ("Order", Heads(("Mixin", "Base"), (), ())), ("Order.make", Heads((), (), ("staticmethod",))),
            ("Order.total", Heads((), (), ("property",))), ("Line", Heads(("Base",), (), ()))]
        assert [decorator_names(rd) for rd in models.defs] == [set(), {"staticmethod"}, {"property"}, set(), set()]
        assert reads == []
        # a file whose definitions are held answers with the held definition itself
        held = plain.files["app/models.py"]
        assert held.def_heads is None and held.defs[0].heads is held.defs[0].d

    def test_the_hierarchy_reads_no_other_files_definitions(self, monkeypatch):
        resolver = _parked()
        reads = _counting(monkeypatch, resolver)
        classes = resolver._current().classes  # noqa: SLF001
        order, line = (next(rd for rd in resolver.files["app/models.py"].defs if rd.name == n) for n in ("Order", "Line"))
        assert [c.qualname for c in classes.bases(order)] == ["Mixin", "Base"]
        assert [c.qualname for c in classes.mro(line)] == ["Line", "Base"]
        base = next(rd for rd in resolver.files["app/base.py"].defs if rd.name == "Base")
        assert base.external_base and not order.external_base  # abc.ABC is no repository class
        assert classes.bases(base) == ()
        assert reads == []  # neither file's definitions unpickled for it

    def test_a_changed_file_brings_its_new_heads(self, monkeypatch):
        resolver = _parked()
        models = resolver.files["app/models.py"]
        assert models.defs[0].heads.bases == ("Mixin", "Base")
        resolver.update([x for x in extract_fixture(CHANGED) if x[0].path == "app/models.py"])
        fc = resolver.files["app/models.py"]
        reads = _counting(monkeypatch, resolver)
        assert [(rd.qualname, rd.heads) for rd in fc.defs if rd.heads is not NO_HEADS] == [
            ("Order", Heads(("Base",), (), ())), ("Order.make", Heads((), (), ("staticmethod",))),
            ("Order.total", Heads((), (), ("classmethod",))), ("Line", Heads(("Base",), (), ()))]
        assert [c.qualname for c in resolver._current().classes.bases(fc.defs[0])] == ["Base"]  # noqa: SLF001
        assert reads == []
        assert decorator_names(fc.defs[2]) == {"classmethod"}  # not the old file's property


PARAMS = """
# --- path: app/__init__.py ---
# --- path: app/jobs.py ---
def run(task, *rest, retries=3):
    return task


class Worker:
    def handle(self, job):
        return job
"""


class TestParameterNames:
    def test_a_name_no_parameter_of_the_file_bears_reads_nothing_back(self, monkeypatch):
        resolver = _parked(PARAMS)
        fc = resolver.files["app/jobs.py"]
        assert fc.def_heads is not None and fc.def_heads.param_names == ("job", "rest", "retries", "task")
        assert len(fc.def_heads) == 0 and fc.def_heads.has_parameter("job") and not fc.def_heads.has_parameter("jobs")
        reads = _counting(monkeypatch, resolver)
        assert fc.parameter("run", "missing") is None and fc.parameter("Worker.handle", "self") is None
        assert reads == []  # answered by the file's parameter names
        assert fc.parameter("Worker.handle", "task") is None  # a parameter of run, not of handle: read back
        assert reads == [3]
        found = fc.parameter("run", "retries")
        assert found is not None and found.has_default and found.variadic is None
        rest = fc.parameter("run", "rest")
        assert rest is not None and rest.variadic == "*"
        held = RepositoryResolver("t")
        held.update(extract_fixture(PARAMS))
        hf = held.files["app/jobs.py"]
        assert hf.def_heads is None  # held definitions: no column, the scan answers
        for scope, name in (("run", "missing"), ("run", "retries"), ("run", "rest"), ("Worker.handle", "job"),
                            ("Worker.handle", "task")):
            assert hf.parameter(scope, name) == fc.parameter(scope, name)
