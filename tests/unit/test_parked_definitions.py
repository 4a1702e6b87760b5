"""Definitions parked on disk while the resolver runs: each :class:`~indexer.resolve.values.Def`
holds what lookups and call binding read (names, kind, first line, call shape) and reads the rest
of its :class:`~indexer.model.Definition` back through its file, a few files' lists at a time
(:class:`indexer.parked.UnpackedLists`); the answers are those of definitions held in memory."""

from __future__ import annotations

import sys

import pytest

from indexer.compact import ELIDED_DOCSTRING
from indexer.model import Definition, Param
from indexer.resolve.context import line_column
from indexer.parked import ParkedDataError, ParkedList, UnpackedLists, park_extraction
from indexer.resolve.calls import arity_ok, by_arity
from indexer.resolve.hierarchy import same_arity
from indexer.resolve.reads import is_getter
from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.tables import ModuleTables, decorator_names
from indexer.resolve.values import Def, Shape, shape_of
from indexer.spill import SpillFile
from tests.resolution_harness import extract_fixture

FIXTURE = """
# --- path: shop/__init__.py ---
# --- path: shop/models.py ---
class Base:
    def save(self, force=False):
        return 1


class Order(Base):
    @property
    def total(self):
        return 2

    def save(self, *args, **kwargs):
        return super().save()

    def pay(self, amount, currency):
        return amount
# --- path: shop/views.py ---
from shop.models import Order


def checkout(order: Order):
    order.save()
    order.pay(1, "EUR")
    return order.total
"""


def _definitions(path: str) -> list[Definition]:
    return next(ex for ex, _, _ in extract_fixture(FIXTURE) if ex.path == path).definitions


class TestParkExtraction:
    def test_definitions_are_parked_once_with_their_docstrings_elided(self, monkeypatch):
        spill = SpillFile()
        ex = next(ex for ex, _, _ in extract_fixture(FIXTURE) if ex.path == "shop/models.py")
        ex.definitions[1].docstring = "Save the order."
        want = [(d.kind, d.qualname, d.start_line, d.params) for d in ex.definitions]
        park_extraction(ex, spill)
        assert isinstance(ex.definitions, ParkedList) and len(ex.definitions) == 6
        assert [(d.kind, d.qualname, d.start_line, d.params) for d in ex.definitions] == want
        assert [d.docstring for d in ex.definitions] == [None, ELIDED_DOCSTRING, None, None, None, None]
        size, parked = spill.size, ex.definitions
        reads = []
        monkeypatch.setattr(ParkedList, "unpack", lambda self: reads.append(self) or [])
        park_extraction(ex, spill)  # parked already: neither written again nor read back to compact
        assert spill.size == size and ex.definitions is parked and reads == []

    def test_an_extraction_without_definitions_parks_none(self):
        spill = SpillFile()
        ex = next(ex for ex, _, _ in extract_fixture("# --- path: empty.py ---\nx = 1\n"))
        park_extraction(ex, spill)
        assert ex.definitions == [] and not isinstance(ex.definitions, ParkedList)


class TestDefsOfParkedFiles:
    def _resolver(self) -> RepositoryResolver:
        resolver = RepositoryResolver("t", park=SpillFile())
        resolver.update(extract_fixture(FIXTURE))
        return resolver

    def test_defs_hold_their_names_and_read_the_rest_back(self):
        resolver = self._resolver()
        fc = resolver.files["shop/models.py"]
        original = _definitions("shop/models.py")
        assert isinstance(fc.ex.definitions, ParkedList)
        assert [rd.held for rd in fc.defs] == [None] * 6
        assert [(rd.name, rd.qualname, rd.parent, rd.kind, rd.line, rd.index) for rd in fc.defs] == [
            ("Base", "Base", None, "class", 1, 0),
            ("save", "Base.save", "Base", "method", 2, 1),
            ("Order", "Order", None, "class", 6, 2),
            ("total", "Order.total", "Order", "method", 7, 3),
            ("save", "Order.save", "Order", "method", 11, 4),
            ("pay", "Order.pay", "Order", "method", 14, 5),
        ]
        assert [rd.d for rd in fc.defs] == original  # the whole definition, read back
        assert fc.defs[3].d.decorators == ["property"]
        # names are one object per value across files; a top-level qualname is its name
        assert all(rd.name is sys.intern(rd.name) for rd in fc.defs)
        assert fc.defs[0].qualname is fc.defs[0].name
        assert fc.defs[3].parent is fc.defs[4].parent is fc.defs[5].parent is sys.intern("Order")

    def test_first_lines_are_read_from_the_files_column_not_from_disk(self, monkeypatch):
        resolver = self._resolver()
        fc = resolver.files["shop/models.py"]
        assert list(fc.def_lines) == [1, 2, 6, 7, 11, 14] and fc.def_lines.itemsize == 2  # 16-bit: the file has fewer than 65,536 lines
        reads = []
        monkeypatch.setattr(ParkedList, "unpack", lambda self: reads.append(self) or [])
        monkeypatch.setattr(fc, "unpacked", UnpackedLists())  # nothing unpacked held: a read would unpack
        assert [rd.line for rd in fc.defs] == [1, 2, 6, 7, 11, 14] and reads == []
        assert "line" not in type(fc.defs[0]).__slots__ and "_q" not in type(fc.defs[0]).__slots__
        # a file whose definitions are held has no column: the held definition answers
        live = RepositoryResolver("t")
        live.update(extract_fixture(FIXTURE))
        held = live.files["shop/models.py"]
        assert held.def_lines is None and [rd.line for rd in held.defs] == [1, 2, 6, 7, 11, 14]
        # parked by hand without a column (a Def of a held file): read back through the file
        held.defs[4].park(4)
        assert held.defs[4].line == 11 and held.defs[4].held is None

    def test_a_qualname_not_derived_is_held_in_the_links_slot_and_kept_through_linking(self):
        d = Definition(kind="function", name="handler", qualname="app.handler", parent=None, start_line=3,
                       start_col=0, end_line=4, end_col=0, name_line=3, name_col=4)
        resolver = self._resolver()
        fc = resolver.files["shop/models.py"]
        rd = Def("", d, fc)
        assert rd.qualname == "app.handler" and not rd.derived and rd.links.q == "app.handler"
        assert rd.line == 3 and rd.parent is None
        rd.subclasses = [fc.defs[0]]
        rd.bases_deps = (("name", "x.py", "X"),)
        assert rd.qualname == "app.handler" and rd.subclasses == [fc.defs[0]]
        rd.unlink()
        assert rd.qualname == "app.handler" and rd.bases is None and rd.subclasses == () and rd.bases_deps == ()
        # a derived one shares the one unlinked value, and taking over another's definition takes
        # its qualname too (both ways)
        plain = fc.defs[1]
        assert plain.derived and plain.links.q is None and plain.links is fc.defs[3].links
        plain.take(rd)
        assert plain.qualname == "app.handler" and plain.name == "handler" and plain.line == 3
        rd2 = Def("", _definitions("shop/models.py")[1], fc)
        plain.take(rd2)
        assert plain.qualname == "Base.save" and plain.derived and plain.links is fc.defs[3].links

    def test_reads_of_one_file_share_one_list_until_it_is_dropped(self):
        resolver = self._resolver()
        models, views = resolver.files["shop/models.py"], resolver.files["shop/views.py"]
        assert models.unpacked is views.unpacked is not None
        first = models.defs[1].d
        assert models.defs[1].d is first  # from the resolver's table of lists read last
        models.unpacked = views.unpacked = UnpackedLists(1)
        first = models.defs[1].d
        assert models.defs[1].d is first and models.defs[5].d is models.defs[5].d
        assert views.defs[0].d.qualname == "checkout"  # the other file's list takes the only place
        assert models.defs[1].d is not first and models.defs[1].d == first

    def test_release_forgets_the_lists_read_back(self):
        resolver = self._resolver()
        table = resolver.files["shop/models.py"].unpacked
        paths = sorted(resolver.files)
        resolver.resolve(paths, spill=SpillFile())
        assert table is not None and len(table) == 2  # both files' definitions read back while binding
        resolver.release(paths)
        assert len(table) == 0

    def test_a_lost_spill_file_stops_a_read_with_a_clear_error(self):
        spill = SpillFile()
        resolver = RepositoryResolver("t", park=spill)
        resolver.update(extract_fixture(FIXTURE))
        spill.close()
        fc = resolver.files["shop/models.py"]
        fc.unpacked = UnpackedLists()  # a read the table of lists read last cannot answer
        with pytest.raises(ParkedDataError, match="unreadable"):
            print(fc.defs[1].d)

    def test_resolve_equals_the_resolve_with_definitions_in_memory(self):
        plain = RepositoryResolver("t")
        plain.update(extract_fixture(FIXTURE))
        assert all(rd.held is not None for fc in plain.files.values() for rd in fc.defs)
        parked = self._resolver()
        paths = sorted(plain.files)
        want, got = plain.resolve(paths), parked.resolve(paths, spill=SpillFile())
        assert list(got.files) == want.files and got.call_outcomes == want.call_outcomes
        calls = sorted((e.src.split(":", 1)[1], e.dst.split(":", 1)[1]) for out in want.files for e in out.edges
                       if e.kind == "CALLS")
        assert calls == [("shop/models.Order.save(2)", "shop/models.Base.save(1)"),
                         ("shop/views.checkout(1)", "shop/models.Order.pay(2)"),
                         ("shop/views.checkout(1)", "shop/models.Order.save(2)"),
                         ("shop/views.checkout(1)", "shop/models.Order.total(0)")]  # a property read
        assert got.call_outcomes == {"exact": 2, "inferred": 1, "external": 1}


class TestUnpackedLists:
    def test_keeps_the_lists_read_last(self, monkeypatch):
        spill = SpillFile()
        a, b, c = (ParkedList.park(spill, [n]) for n in "abc")
        reads: list[str] = []
        unpack = ParkedList.unpack
        monkeypatch.setattr(ParkedList, "unpack", lambda self: reads.append(unpack(self)[0]) or unpack(self))
        table = UnpackedLists(2)
        assert table.get(a) == ["a"] and table.get(b) == ["b"] and table.get(a) is table.get(a)
        assert reads == ["a", "b"] and len(table) == 2
        assert table.get(c) == ["c"]  # b was used least recently: it goes
        assert len(table) == 2 and reads == ["a", "b", "c"]
        table.get(a)
        assert reads == ["a", "b", "c"]
        table.get(b)
        assert reads == ["a", "b", "c", "b"]

    def test_the_list_read_last_answers_again_and_stays_the_most_recent(self, monkeypatch):
        spill = SpillFile()
        a, b, c = (ParkedList.park(spill, [n]) for n in "abc")
        reads: list[str] = []
        unpack = ParkedList.unpack
        monkeypatch.setattr(ParkedList, "unpack", lambda self: reads.append(unpack(self)[0]) or unpack(self))
        table = UnpackedLists(2)
        first = table.get(a)
        assert table.get(a) is first and table.get(a) is first and reads == ["a"]
        table.get(b)
        assert table.get(b) is table.get(b) and reads == ["a", "b"]
        table.get(a)  # a again (from the table): b is now the least recently used
        table.get(c)
        assert reads == ["a", "b", "c"] and table.get(a) is first and reads == ["a", "b", "c"]
        assert table.get(b) == ["b"] and reads == ["a", "b", "c", "b"]  # b went, not a

    def test_clear_forgets_every_list_and_the_last(self, monkeypatch):
        spill = SpillFile()
        a, b = (ParkedList.park(spill, [n]) for n in "ab")
        reads: list[str] = []
        unpack = ParkedList.unpack
        monkeypatch.setattr(ParkedList, "unpack", lambda self: reads.append(unpack(self)[0]) or unpack(self))
        table = UnpackedLists(2)
        first = table.get(a)
        table.get(b)
        table.clear()
        assert len(table) == 0 and reads == ["a", "b"]
        again = table.get(a)  # read back anew, not the list held before
        assert again == ["a"] and again is not first and reads == ["a", "b", "a"] and len(table) == 1

    def test_a_table_of_no_lists_keeps_not_even_the_last(self, monkeypatch):
        spill = SpillFile()
        a = ParkedList.park(spill, ["a"])
        reads: list[str] = []
        unpack = ParkedList.unpack
        monkeypatch.setattr(ParkedList, "unpack", lambda self: reads.append(unpack(self)[0]) or unpack(self))
        table = UnpackedLists(0)
        assert table.get(a) == ["a"] and table.get(a) == ["a"] and reads == ["a", "a"] and len(table) == 0


class TestShapes:
    def _def(self, *params: Param, generated: str | None = None, receiver: str | None = None) -> Definition:
        return Definition("method", "f", "A.f", "A", 1, 0, 2, 0, 1, 4, params=list(params), generated=generated,
                          receiver_type=receiver)

    def test_values_and_one_object_per_value(self):
        plain = shape_of(self._def(Param("self"), Param("x"), Param("y", has_default=True)))
        assert plain == Shape(3, 2, 3, False, False, kind="method")
        assert shape_of(self._def(Param("self"), Param("x"), Param("y", has_default=True))) is plain
        assert shape_of(self._def(Param("args", variadic="*"))) == Shape(1, 0, None, False, False, kind="method")
        assert shape_of(self._def(generated="lombok", receiver="User")) == Shape(0, 0, 0, True, True, kind="method")

    def test_kind_and_id_tail_are_part_of_the_shared_shape(self):
        a = shape_of(self._def(Param("self")), None, "(1)")
        assert (a.kind, a.tail) == ("method", "(1)")
        assert shape_of(self._def(Param("self")), None, "(1)") is a
        second = shape_of(self._def(Param("self")), None, "(1)#2")
        assert second is not a and second.tail == "(1)#2" and second[:9] == a[:9]
        fn = self._def(Param("self"))
        fn.kind = "function"
        assert shape_of(fn, None, "(1)") != a and shape_of(fn, None, "(1)").kind == "function"

    def test_a_getter_is_a_method_carrying_a_getter_modifier_of_its_language(self):
        prop = self._def()
        prop.modifiers = ["property"]
        assert shape_of(prop, frozenset({"property"})) == Shape(0, 0, 0, False, False, getter=True, kind="method")
        assert shape_of(prop, frozenset({"get"})).getter is False  # another language's modifier
        assert shape_of(prop, None).getter is False  # a language without getters
        prop.kind = "function"
        assert shape_of(prop, frozenset({"property"})).getter is False  # a function is no getter

    def test_the_module_tables_and_getter_checks_read_no_parked_definition_of_their_own(self):
        resolver = self._resolver_with(UnpackedLists(0))  # keeps nothing: every read unpickles
        reads: list[int] = []
        unpack = ParkedList.unpack
        ParkedList.unpack = lambda items: reads.append(len(items)) or unpack(items)  # type: ignore[method-assign]
        try:
            fc = resolver.files["shop/models.py"]
            assert [is_getter(rd) for rd in fc.defs] == [False, False, False, True, False, False]
            assert [decorator_names(rd) for rd in fc.defs if not rd.shape.decorated] == [set()] * 5
            assert reads == []  # from the Defs' shapes alone
            assert decorator_names(fc.defs[3]) == {"property"} and reads == []  # from the file's column of heads
            tables = ModuleTables({})
            tables.add(fc)
            assert reads == []  # nothing read back for the decorated one either
        finally:
            ParkedList.unpack = unpack  # type: ignore[method-assign]
        ns = fc.rules.namespace
        assert dict(tables.getters) == {(ns, "total"): 1}
        assert tables.decorated[(ns, "property")] == [fc.defs[3]] and len(tables.decorated) == 1
        with pytest.raises(RuntimeError):  # the files under each package not counted
            tables.remove(fc)
        tables.count_packages([fc])
        tables.remove(fc)
        assert not +tables.getters and tables.decorated[(ns, "property")] == []

    def _resolver_with(self, unpacked: UnpackedLists) -> RepositoryResolver:
        resolver = TestDefsOfParkedFiles()._resolver()
        for fc in resolver.files.values():
            fc.unpacked = unpacked
        return resolver

    def test_arity_checks_read_the_shape(self):
        resolver = TestDefsOfParkedFiles()._resolver()
        base_save, _, total, order_save, pay = resolver.files["shop/models.py"].defs[1:]
        assert [arity_ok(pay, n) for n in (-1, 1, 2, 3, 4)] == [True, False, True, False, False]
        assert arity_ok(order_save, 40) and not arity_ok(total, 2)
        assert by_arity([total, pay], 2) == [pay] and by_arity([total, pay], 0) == [total]
        assert by_arity([total, pay], 9) == [total, pay]  # none fits: every overload
        assert same_arity(base_save, order_save) and same_arity(base_save, pay) is False
        assert same_arity(total, base_save) is False and same_arity(pay, pay)


def test_line_column_is_16_bit_below_65536_and_32_bit_from_there() -> None:
    """A file's column of first lines: 2 bytes an item while every line fits, exact values kept;
    a line of 65,536 or more (a generated file) makes it 4 bytes an item, never a wrapped value."""
    small = line_column([1, 300, 65535])
    assert small.typecode == "H" and small.itemsize == 2 and list(small) == [1, 300, 65535]
    big = line_column([1, 65536, 70000])
    assert big.typecode == "i" and big.itemsize == 4 and list(big) == [1, 65536, 70000]
    assert line_column([]).typecode == "H" and list(line_column([])) == []
