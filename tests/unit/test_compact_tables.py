"""The resolver's per-file lookup tables (:mod:`indexer.resolve.multimap`): one item stored as
itself, several as a tuple in source order; lexical parents only where they differ from the
qualname's; one shared empty member table; node ids built when read from an interned tail."""

from __future__ import annotations


import sys
from types import MappingProxyType

import pytest

from indexer.languages import extractor_for_path
from indexer.resolve.multimap import EMPTY_TABLE, entries, every, freeze, group
from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.values import Def
from indexer.symbols import definition_ids, definition_tails, id_prefix
from tests.resolution_harness import extract_fixture

FIXTURE = """
# --- path: pkg/shapes.py ---
import os
import os.path as os
from typing import *

class Shape:
    def area(self):
        return 0

    if os.name:
        def area(self):
            return 1

    def size(self):
        return 2


if os.sep:
    def pick():
        return 1
else:
    def pick():
        return 2
# --- path: web/view.js ---
function View(name) { this.name = name; }
View.prototype.render = function () { return helper(); };
function outer() {
  const api = { list() { return 1; } };
  return api;
}
"""


def _files() -> dict:
    out = extract_fixture(FIXTURE)
    r = RepositoryResolver("t")
    r.update(out)
    return r.files


def _ids(v: object) -> object:
    return tuple(rd.id for rd in v) if type(v) is tuple else v.id  # type: ignore[attr-defined]


def test_multimap_one_item_as_itself_several_as_tuple_in_order() -> None:
    table = freeze(group([("a", 1), ("b", 2), ("a", 3), ("c", 4), ("a", 5)]))
    assert table == {"a": (1, 3, 5), "b": 2, "c": 4}
    assert list(table) == ["a", "b", "c"]
    assert entries(table, "a") == (1, 3, 5)
    assert entries(table, "b") == (2,)
    assert entries(table, "zz") == ()
    assert list(every(table)) == [1, 3, 5, 2, 4]
    assert freeze({}) == {} and list(every({})) == []


def test_empty_table_is_shared_and_read_only() -> None:
    assert entries(EMPTY_TABLE, "x") == () and list(EMPTY_TABLE) == []
    with pytest.raises(TypeError):
        EMPTY_TABLE["x"] = 1  # type: ignore[index]


def test_definition_tables_store_one_definition_as_itself() -> None:
    fc = _files()["pkg/shapes.py"]
    assert {q: _ids(v) for q, v in fc.by_qualname.items()} == {
        "Shape": "t:pkg/shapes.Shape",
        "Shape.area": ("t:pkg/shapes.Shape.area(0)", "t:pkg/shapes.Shape.area(0)#2"),
        "Shape.size": "t:pkg/shapes.Shape.size(0)",
        "pick": ("t:pkg/shapes.pick(0)", "t:pkg/shapes.pick(0)#2"),
    }
    assert {n: _ids(v) for n, v in fc.top.items()} == {
        "Shape": "t:pkg/shapes.Shape", "pick": ("t:pkg/shapes.pick(0)", "t:pkg/shapes.pick(0)#2")}
    assert [rd.id for rd in entries(fc.top, "pick")] == ["t:pkg/shapes.pick(0)", "t:pkg/shapes.pick(0)#2"]
    assert entries(fc.top, "Shape.area") == ()  # a member is no top-level name
    assert fc.def_at("pick", 21).id == "t:pkg/shapes.pick(0)#2"
    assert fc.def_at("pick", 1).id == "t:pkg/shapes.pick(0)"
    assert fc.def_at("nope", 1) is None
    assert fc.is_class_scope("Shape") and not fc.is_class_scope("pick") and not fc.is_class_scope("nope")


def test_imports_table_keeps_every_import_in_order_and_star_imports_apart() -> None:
    fc = _files()["pkg/shapes.py"]
    assert list(fc.imports) == ["os"]
    assert [(i.module, i.line) for i in entries(fc.imports, "os")] == [("os", 1), ("os.path", 2)]
    assert [(i.local, i.module) for i in fc.star_imports] == [("*", "typing")]
    assert [i.module for i in every(fc.imports)] == ["os", "os.path"]
    assert entries(fc.imports, "typing") == ()


def test_members_are_a_multimap_and_memberless_definitions_share_the_empty_table() -> None:
    fc = _files()["pkg/shapes.py"]
    shape, *rest = fc.defs
    assert {n: tuple(rd.id for rd in entries(shape.members, n)) for n in shape.members} == {
        "area": ("t:pkg/shapes.Shape.area(0)", "t:pkg/shapes.Shape.area(0)#2"),
        "size": ("t:pkg/shapes.Shape.size(0)",)}
    assert type(shape.members) is dict
    # one member is held as itself, several as a tuple: no tuple per name
    assert type(shape.members["size"]) is Def and type(shape.members["area"]) is tuple
    assert all(rd.members is EMPTY_TABLE for rd in rest)


def test_lexical_parent_holds_only_the_parents_that_differ_from_the_qualname() -> None:
    files = _files()
    py, js = files["pkg/shapes.py"], files["web/view.js"]
    assert py.lexical_parent == {}
    assert [py.parent_scope(q) for q in ("Shape", "Shape.area", "Shape.size", "pick", None)] == [
        None, "Shape", "Shape", None, None]
    # a prototype method's body sees the module's names, not the constructor's; an object's
    # property function is written inside ``outer``
    assert js.lexical_parent == {"View.render": None, "outer.api.list": "outer"}
    assert [js.parent_scope(q) for q in ("View", "View.render", "outer", "outer.api.list", "outer.api")] == [
        None, None, None, "outer", "outer"]
    assert js.owners == {"outer.api"} and py.owners == frozenset()
    assert py.owners is _files()["pkg/shapes.py"].owners  # one shared empty set
    assert [rd.id for rd in py.types] == ["t:pkg/shapes.Shape"] and js.types == ()
    # a file without a differing parent holds one shared read-only empty mapping, not a dict of its own
    assert py.lexical_parent is _files()["pkg/shapes.py"].lexical_parent and type(py.lexical_parent) is MappingProxyType
    assert type(js.lexical_parent) is dict
    with pytest.raises(TypeError):
        py.lexical_parent["Shape"] = None  # type: ignore[index]


def test_a_file_calling_no_parameter_shares_one_empty_mapping_and_the_definitions_list_is_exact() -> None:
    files = _files()
    py = files["pkg/shapes.py"]
    assert py.param_calls == {} and py.param_calls is _files()["pkg/shapes.py"].param_calls
    with pytest.raises(TypeError):
        py.param_calls["pick"] = {}  # type: ignore[index]
    # no slot past the definitions (a comprehension's list grows by an eighth while filled)
    assert sys.getsizeof(py.defs) == sys.getsizeof([None] * len(py.defs)) and len(py.defs) == 6


def test_ids_are_built_from_the_file_prefix_qualname_and_an_interned_tail() -> None:
    files = _files()
    py = files["pkg/shapes.py"]
    assert py.id_prefix == "t:pkg/shapes."
    assert [rd.tail for rd in py.defs] == ["", "(0)", "(0)#2", "(0)", "(0)", "(0)#2"]
    assert [rd.id for rd in py.defs] == definition_ids("t", py.ex) == [
        "t:pkg/shapes.Shape", "t:pkg/shapes.Shape.area(0)", "t:pkg/shapes.Shape.area(0)#2",
        "t:pkg/shapes.Shape.size(0)", "t:pkg/shapes.pick(0)", "t:pkg/shapes.pick(0)#2"]
    assert py.defs[1].tail is py.defs[3].tail  # one string for every "(0)"
    js = files["web/view.js"]
    assert [rd.tail for rd in js.defs] == ["(1)", "(0)", "(0)", "(0)"]
    assert js.defs[0].id == "t:web/view.View(1)" and js.defs[0].id is not js.defs[0].id  # built when read


def test_definition_tails_number_overloads_by_their_erased_signature() -> None:
    src = b"""package p;
class A {
  void f(java.util.List<String> a) {}
  void f(java.util.List<Integer> a) {}
  void f(int a) {}
  int x;
}
"""
    ex = extractor_for_path("src/p/A.java").extract("src/p/A.java", src)
    assert definition_tails(ex) == ["", "(List)", "(List)#2", "(int)", ""]
    assert id_prefix("r", ex) == "r:src/p/A."
    ex.id_path = "src/p/A.java"
    assert definition_ids("r", ex) == ["r:src/p/A.java.A", "r:src/p/A.java.A.f(List)", "r:src/p/A.java.A.f(List)#2",
                                       "r:src/p/A.java.A.f(int)", "r:src/p/A.java.A.x"]
