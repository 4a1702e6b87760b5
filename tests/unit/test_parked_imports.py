"""A file's imports read back from the park when looked up (indexer.resolve.parked_imports), and its
top-level definitions read out of its qualname index (indexer.resolve.context.TopLevel): the same
answers as the tables held before, what is read from disk and when, and the same index."""

from __future__ import annotations


import indexer.resolve.parked_imports as parked_imports
from indexer.model import Import
from indexer.parked import ParkedList, park_extraction
from indexer.resolve.context import MAX_NAMESAKES, TopLevel
from indexer.resolve.import_table import EMPTY_IMPORTS, ImportList, ImportTable
from indexer.resolve.multimap import entries, every
from indexer.resolve.parked_imports import ParkedImports, open_import_tables, park_imports
from indexer.resolve.repository import RepositoryResolver
from tests.index_dump import calls
from tests.parked_harness import CountingSpill, holds, index_and_dump
from tests.resolution_harness import extract_fixture, write_tree

IMPORTS = [
    Import("os", "os", None, 0, 1),
    Import("Cache", "app.cache", "Cache", 0, 2),
    Import("*", "app.helpers", None, 0, 3),
    Import("Repo", "app.models", "Repo", 0, 4),
    Import("Cache", "app.fallback", "Cache", 0, 5),  # re-bound: both kept, in source order
    Import("*", "app.more", None, 1, 6),
]


def _held(pi: ParkedImports) -> bool:
    return holds(open_import_tables(), pi)


def test_parked_imports_answer_as_the_packed_table_and_read_the_spill_once_while_held() -> None:
    spill = CountingSpill()
    table, field = park_imports(IMPORTS, spill)
    assert isinstance(table, ParkedImports) and isinstance(field, ParkedList)
    assert spill.reads == 0 and not _held(table)
    # the star imports are held: reading them reads nothing
    assert [(i.module, i.level) for i in table.stars] == [("app.helpers", 0), ("app.more", 1)]
    assert spill.reads == 0
    packed = ImportTable(IMPORTS)
    assert entries(table, "os") == (Import("os", "os", None, 0, 1),)
    assert [i.module for i in entries(table, "Cache")] == ["app.cache", "app.fallback"]
    assert entries(table, "Repo") == (Import("Repo", "app.models", "Repo", 0, 4),)
    assert spill.reads == 1 and _held(table)  # built once, then answered from memory
    # what must not be found: an unknown name, the star's "*", a module's name, a non-string
    assert entries(table, "nope") == () and entries(table, "*") == () and entries(table, "app") == ()
    assert "Cache" in table and "*" not in table and 3 not in table
    assert list(table) == list(packed) == ["Cache", "Repo", "os"]
    assert len(table) == 3 and table.count() == 6
    assert list(every(table)) == list(every(packed))
    assert spill.reads == 1
    # the extraction's field: the imports in ImportList's order (stars first, then by local name)
    assert list(field) == list(ImportList(packed))
    assert [i.line for i in field] == [3, 6, 2, 5, 4, 1]
    reads = spill.reads  # the field read it back itself (twice)
    table.release()
    assert not _held(table)
    assert entries(table, "Repo")[0].module == "app.models" and spill.reads == reads + 1  # built again


def test_at_most_open_imports_tables_are_held_and_a_parked_field_is_not_parked_again(monkeypatch) -> None:
    monkeypatch.setattr(parked_imports, "OPEN_IMPORTS", 2)
    spill = CountingSpill()
    a, fa = park_imports(IMPORTS, spill)
    b, _ = park_imports(IMPORTS[:2], spill)
    c, _ = park_imports(IMPORTS[3:4], spill)
    for t in (a, b, c):
        assert entries(t, "Cache") or entries(t, "Repo")
    assert spill.reads == 3
    assert not _held(a) and _held(b) and _held(c)  # the least recently used went first
    assert entries(a, "os")[0].module == "os" and spill.reads == 4
    assert _held(a) and not _held(b)
    # a field parked before is taken as it is: nothing written, its stars read back from it
    size = spill.size
    again, field = park_imports(fa, spill)
    assert field is fa and spill.size == size
    assert isinstance(again, ParkedImports) and [i.line for i in again.stars] == [3, 6]
    assert [i.module for i in entries(again, "Cache")] == ["app.cache", "app.fallback"]
    # no imports: the shared empty table, the field untouched, nothing written
    empty, field = park_imports([], spill)
    assert empty is EMPTY_IMPORTS and field == [] and spill.size == size


FIXTURE = """
# --- path: pkg/shapes.py ---
def area(s):
    return 1


class Shape:
    def area(self):
        return 2


def pick(x):
    return 3


if True:
    def pick(x, y=None):
        return 4


def solo():
    return 5
"""


def _fc(fixture: str = FIXTURE):  # type: ignore[no-untyped-def]
    r = RepositoryResolver("t")
    r.update(extract_fixture(fixture))
    return r.files["pkg/shapes.py"]


def test_top_level_names_are_read_out_of_the_qualname_index() -> None:
    fc = _fc()
    assert isinstance(fc.top, TopLevel)
    ids = lambda defs: [rd.id.removeprefix("t:pkg/shapes.") for rd in defs]  # noqa: E731
    assert ids(entries(fc.top, "area")) == ["area(1)"]  # the function, not the method Shape.area
    assert ids(entries(fc.top, "pick")) == ["pick(1)", "pick(2)"]  # both, in source order
    assert ids(entries(fc.top, "Shape")) == ["Shape"]
    # what must not be found: a member, a qualname, an unknown name, a non-string
    assert entries(fc.top, "Shape.area") == () and entries(fc.top, "nope") == ()
    assert fc.top.get(3) is None and "Shape.area" not in fc.top and "solo" in fc.top
    assert list(fc.top) == ["area", "Shape", "pick", "solo"] and len(fc.top) == 4
    with __import__("pytest").raises(KeyError):
        fc.top["nope"]


def test_top_level_names_hold_the_last_namesakes_only() -> None:
    copies = "".join(f"if flag:\n    def dup(x):\n        return {i}\n\n\n" for i in range(MAX_NAMESAKES + 6))
    fc = _fc("# --- path: pkg/shapes.py ---\nflag = 1\n" + copies + "class Dup:\n    def dup(self):\n        return 0\n")
    every_dup = [rd for rd in fc.defs if rd.name == "dup" and rd.parent is None]
    assert len(every_dup) == MAX_NAMESAKES + 6
    held = entries(fc.top, "dup")
    assert list(held) == every_dup[6:]  # the last 64, in source order; the method is none of them
    assert [rd.line for rd in held] == [3 + 5 * i for i in range(6, MAX_NAMESAKES + 6)]


APP = {
    "app/__init__.py": "",
    "app/impl.py": "def helper():\n    return 1\n\n\ndef other():\n    return 2\n",
    "app/api.py": "from app.impl import helper\nfrom app.impl import *\n\n\ndef local():\n    return 3\n",
    "app/use.py": (
        "from app.api import helper, local, other, missing\n\n\n"
        "def go():\n    helper()\n    local()\n    other()\n    missing()\n"),
}


def test_the_index_is_the_same_with_imports_held_or_read_back_for_every_lookup(tmp_path, monkeypatch) -> None:
    """Re-exports through another file's imports (a named one and a star) bind as before whether the
    tables stay built or are read back from the park for every lookup; a name no file defines or
    re-exports binds to nothing."""
    root = tmp_path / "src"
    write_tree(root, APP)
    before = {id(t) for t in open_import_tables()}
    held = index_and_dump(root, tmp_path / "held.db")
    assert [t for t in open_import_tables() if id(t) not in before] == []  # released with the run
    monkeypatch.setattr(parked_imports, "OPEN_IMPORTS", 0)
    every_read = index_and_dump(root, tmp_path / "every.db")
    assert held == every_read
    assert calls(tmp_path / "held.db") == [
        "app/use.go(0) -> app/api.local(0) [exact]",
        "app/use.go(0) -> app/impl.helper(0) [exact]",
        "app/use.go(0) -> app/impl.other(0) [exact]",
    ]



IMPORTING = """
# --- path: pkg/use.py ---
import os
from app.cache import Cache
from app.helpers import *
from app.models import Repo
from app.fallback import Cache
from .more import *


def go():
    return Cache
# --- path: pkg/plain.py ---
def alone():
    return 1
"""


def test_park_extraction_parks_the_imports_in_the_tables_order_and_the_context_takes_them_as_they_are() -> None:
    """The extract phase parks a file's imports as it parks its call sites (indexer.parked.park_extraction),
    in ImportList's order (stars first in source order, then by local name, one name's in source order):
    the resolver's context takes that list without writing it again and answers as the table of the
    imports held in memory (a resolver without a park); a file without imports writes nothing."""
    held = RepositoryResolver("t")
    held.update(extract_fixture(IMPORTING))
    spill = CountingSpill()
    given = extract_fixture(IMPORTING)
    plain = next(ex for ex, _, _ in given if ex.path == "pkg/plain.py")
    use = next(ex for ex, _, _ in given if ex.path == "pkg/use.py")
    for ex, _, _ in given:
        park_extraction(ex, spill)
    assert isinstance(use.imports, ParkedList) and not isinstance(plain.imports, ParkedList) and plain.imports == []
    assert [(i.local, i.module, i.level, i.line) for i in use.imports] == [
        ("*", "app.helpers", 0, 3), ("*", "more", 1, 6), ("Cache", "app.cache", 0, 2), ("Cache", "app.fallback", 0, 5),
        ("Repo", "app.models", 0, 4), ("os", "os", 0, 1)]
    field, size = use.imports, spill.size
    parked = RepositoryResolver("t", park=spill)
    parked.update(given)
    fc, ref = parked.files["pkg/use.py"], held.files["pkg/use.py"]
    assert fc.ex.imports is field and spill.size == size  # taken as it is: nothing written again
    assert isinstance(fc.imports, ParkedImports) and fc.imports.source is field
    assert [(i.module, i.level) for i in fc.star_imports] == [(i.module, i.level) for i in ref.star_imports]
    assert [i.module for i in entries(fc.imports, "Cache")] == ["app.cache", "app.fallback"]
    for name in ("os", "Cache", "Repo", "nope", "*"):
        assert entries(fc.imports, name) == entries(ref.imports, name)
    assert list(every(fc.imports)) == list(every(ref.imports))
    assert list(fc.ex.imports) == list(ref.ex.imports)
    assert parked.files["pkg/plain.py"].imports is EMPTY_IMPORTS
