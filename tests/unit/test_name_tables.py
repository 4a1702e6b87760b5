"""NameTable: items per (namespace, name) held per namespace and name, one item stored as itself."""

from __future__ import annotations

from indexer.resolve.name_tables import NameTable


def test_one_item_is_stored_as_itself_and_several_as_one_list_in_order():
    t: NameTable[str] = NameTable()
    t.append(("python", "save"), "a.save")
    assert t.get(("python", "save")) == ("a.save",)
    assert t._by_ns == {"python": {"save": "a.save"}}  # no list, no tuple key
    t.append(("python", "save"), "b.save")
    t.append(("python", "save"), "c.save")
    assert t.get(("python", "save")) == ["a.save", "b.save", "c.save"]
    assert t._by_ns == {"python": {"save": ["a.save", "b.save", "c.save"]}}
    # other namespaces and names are apart
    assert t.get(("ecmascript", "save")) == () and t.get(("python", "load")) == ()
    assert t.get(("python", "load"), None) is None
    assert ("python", "save") in t and ("ecmascript", "save") not in t and "save" not in t
    assert len(t) == 1 and list(t) == [("python", "save")]


def test_reading_a_missing_key_does_not_create_it():
    t: NameTable[str] = NameTable()
    assert t[("python", "x")] == [] and t.get(("python", "x")) == ()
    assert len(t) == 0 and t._by_ns == {}


def test_insert_keeps_the_order_and_a_tie_in_insertion_order():
    t: NameTable[tuple[str, int]] = NameTable()
    for item in [("b.py", 1), ("a.py", 2), ("c.py", 3), ("a.py", 4)]:
        t.insert(("python", "K"), item, lambda x: x[0])
    assert t[("python", "K")] == [("a.py", 2), ("a.py", 4), ("b.py", 1), ("c.py", 3)]
    t.sort(("python", "K"), lambda x: -x[1])
    assert t[("python", "K")] == [("a.py", 4), ("c.py", 3), ("a.py", 2), ("b.py", 1)]
    t.sort(("python", "none"), lambda x: x)  # no such key: nothing made
    assert len(t) == 1


def test_discard_keeps_the_rest_goes_back_to_one_item_and_drops_an_emptied_key():
    t: NameTable[str] = NameTable()
    for item in ["x", "y", "z"]:
        t.append(("java", "run"), item)
    t.append(("java", "stop"), "s")
    t.discard(("java", "run"), lambda x: x == "y")
    assert t.get(("java", "run")) == ["x", "z"]
    t.discard(("java", "run"), lambda x: x == "x")
    assert t._by_ns["java"]["run"] == "z" and t.get(("java", "run")) == ("z",)
    t.discard(("java", "run"), lambda x: x == "nothing")
    assert t.get(("java", "run")) == ("z",)
    t.discard(("java", "run"), lambda x: True)
    assert ("java", "run") not in t and t._by_ns == {"java": {"stop": "s"}}
    t.discard(("python", "stop"), lambda x: True)  # another namespace: untouched
    assert t.get(("java", "stop")) == ("s",)
