"""A file's definitions per qualname held per name (:class:`indexer.resolve.qualnames.QualnameIndex`):
no qualname string per definition where every qualname is its parent's and its name; a file
breaking that rule keeps a dict per qualname and the qualnames it cannot derive."""

from __future__ import annotations

import dataclasses

from indexer.resolve.multimap import entries
from indexer.resolve.qualnames import QualnameIndex
from indexer.resolve.repository import RepositoryResolver
from tests.resolution_harness import extract_fixture

FIXTURE = """
# --- path: pkg/store.py ---
def get(key):
    return key


class Cache:
    def get(self, key):
        return 1

    def put(self, key):
        return 2

    class Entry:
        def get(self):
            return 3


class Disk:
    def get(self, key):
        return 4

    if key:
        def get(self, key):
            return 5
"""


def _fc(fixture: str = FIXTURE, edit=None):  # type: ignore[no-untyped-def]
    out = extract_fixture(fixture)
    if edit is not None:
        ex = out[0][0]
        ex.definitions = [edit(d) for d in ex.definitions]
    r = RepositoryResolver("t")
    r.update(out)
    return r.files["pkg/store.py"]


def _ids(defs: tuple) -> list[str]:  # type: ignore[type-arg]
    return [rd.id.removeprefix("t:pkg/store.") for rd in defs]


def test_index_answers_each_qualname_with_its_own_definitions_only() -> None:
    fc = _fc()
    index = fc.by_qualname
    assert isinstance(index, QualnameIndex)
    assert _ids(entries(index, "get")) == ["get(1)"]  # the function, no method named get
    assert _ids(entries(index, "Cache.get")) == ["Cache.get(1)"]
    assert _ids(entries(index, "Cache.Entry.get")) == ["Cache.Entry.get(0)"]
    assert _ids(entries(index, "Disk.get")) == ["Disk.get(1)", "Disk.get(1)#2"]  # both, in source order
    assert _ids(entries(index, "Cache.Entry")) == ["Cache.Entry"]
    # what must not be found: a name under another parent, a parent's prefix, an unknown parent
    assert entries(index, "Disk.put") == () and entries(index, "Entry.get") == ()
    assert entries(index, "Cache.Entry.put") == () and entries(index, "Nope.get") == ()
    assert entries(index, "Cach") == () and entries(index, "") == () and entries(index, ".get") == ()
    assert "Cache.put" in index and "Disk.put" not in index and 3 not in index
    assert index["Cache"].id == "t:pkg/store.Cache"
    assert len(index) == 8 and len(fc.defs) == 9  # Disk.get twice
    assert set(index) == {"get", "Cache", "Cache.get", "Cache.put", "Cache.Entry", "Cache.Entry.get", "Disk",
                          "Disk.get"}
    assert dict(index.items()).keys() == set(index)


def test_members_and_qualnames_are_derived_not_held() -> None:
    fc = _fc()
    assert all(rd.derived for rd in fc.defs)
    assert [rd.qualname for rd in fc.defs] == ["get", "Cache", "Cache.get", "Cache.put", "Cache.Entry",
                                              "Cache.Entry.get", "Disk", "Disk.get", "Disk.get"]
    (cache,) = entries(fc.top, "Cache")
    assert _ids(cache.member("get")) == ["Cache.get(1)"]
    assert _ids(cache.member("Entry")[0].member("get")) == ["Cache.Entry.get(0)"]
    assert cache.member("put")[0].qualname == "Cache.put"
    assert cache.member("nope") == () and cache.member("Cache.get") == ()
    (disk,) = entries(fc.top, "Disk")
    assert _ids(disk.member("get")) == ["Disk.get(1)", "Disk.get(1)#2"]
    assert disk.member("put") == ()
    assert list(cache.members) == ["get", "put", "Entry"]
    assert fc._members is None


def _moved(d):  # type: ignore[no-untyped-def]
    """``Cache.put`` given the qualname ``Cache.store``: a qualname that is not parent.name."""
    return dataclasses.replace(d, qualname="Cache.store") if d.qualname == "Cache.put" else d


def test_a_file_breaking_the_rule_keeps_a_dict_per_qualname() -> None:
    fc = _fc(edit=_moved)
    assert not isinstance(fc.by_qualname, QualnameIndex)
    odd = [rd for rd in fc.defs if not rd.derived]
    assert [(rd.name, rd.parent, rd.qualname) for rd in odd] == [("put", "Cache", "Cache.store")]
    assert _ids(entries(fc.by_qualname, "Cache.store")) == ["Cache.store(1)"]
    assert entries(fc.by_qualname, "Cache.put") == ()
    assert _ids(entries(fc.by_qualname, "Disk.get")) == ["Disk.get(1)", "Disk.get(1)#2"]
    (cache,) = entries(fc.top, "Cache")
    assert _ids(cache.member("put")) == ["Cache.store(1)"]  # the members table, by parent and name
    assert cache.member("store") == ()


def test_def_holds_kind_and_id_tail_in_its_shape_eight_slots() -> None:
    fc = _fc()
    assert [(rd.kind, rd.tail) for rd in fc.defs] == [
        ("function", "(1)"), ("class", ""), ("method", "(1)"), ("method", "(1)"), ("class", ""), ("method", "(0)"),
        ("class", ""), ("method", "(1)"), ("method", "(1)#2")]
    assert all(rd.kind is rd.shape.kind and rd.tail is rd.shape.tail for rd in fc.defs)
    first, second = entries(fc.by_qualname, "Disk.get")
    assert first.shape is not second.shape and first.id != second.id  # the tails differ, so do the ids
    assert [rd.is_type for rd in fc.defs] == [False, True, False, False, True, False, True, False, False]
    assert [rd.is_callable for rd in fc.defs] == [True, False, True, True, False, True, False, True, True]
    assert len(type(fc.defs[0]).__slots__) == 6


ADJACENT = """
# --- path: pkg/store.py ---
def ge():
    return 0


def get_all():
    return 1


class A:
    def get(self):
        return 2


class B:
    def get(self):
        return 3

    def gets(self):
        return 4


def get():
    return 5
"""


def test_sorted_index_bisects_to_the_name_and_its_parent_only() -> None:
    """The definitions are held sorted by name and bisected: names sorting next to each other
    (``ge``, ``get``, ``get_all``, ``gets``) never answer for one another, and of one name's
    definitions only those of the asked parent answer."""
    fc = _fc(ADJACENT)
    index = fc.by_qualname
    assert isinstance(index, QualnameIndex)
    assert _ids(entries(index, "get")) == ["get(0)"]  # the function, not A's or B's method
    assert _ids(entries(index, "A.get")) == ["A.get(0)"] and _ids(entries(index, "B.get")) == ["B.get(0)"]
    assert _ids(entries(index, "B.gets")) == ["B.gets(0)"] and _ids(entries(index, "ge")) == ["ge(0)"]
    assert _ids(entries(index, "get_all")) == ["get_all(0)"]
    assert _ids(index.members("A", "get")) == ["A.get(0)"] and index.members(None, "gets") == ()
    # what must not be found: a neighbour's name, a parent without that member, names past both ends
    assert entries(index, "A.gets") == () and entries(index, "gets") == () and entries(index, "B.ge") == ()
    assert entries(index, "get_") == () and entries(index, "AAA") == () and entries(index, "zzz") == ()
    assert entries(index, "C.get") == () and index.get("A.get_all", "none") == "none"
    assert index.members(None, 7) == ()  # type: ignore[arg-type]
    # iterated by name in sorted order, one name's qualnames in source order
    assert list(index) == ["A", "B", "ge", "A.get", "B.get", "get", "get_all", "B.gets"]
    assert len(index) == 8 and len(fc.defs) == 8
