"""How the index records of :mod:`stores.contracts` pickle (session 66, r66c): through
:data:`copyreg.dispatch_table` to the same bytes as through their ``__reduce__``, and Node, Edge,
UnresolvedCall and Chunk load through a restorer that skips the frozen ``__init__`` and gives the same
objects (type, fields, equality, hash, repr, still frozen); pickles naming the class still load."""

from __future__ import annotations

import copyreg
import io
import pickle
from dataclasses import FrozenInstanceError, fields

import pytest

from stores import contracts
from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node, UnresolvedCall

RECORDS = (Node, Edge, UnresolvedCall, Chunk, FileRecord, IndexedFile)


def _output() -> IndexedFile:
    """One file's output with every record kind, shared strings and ``props`` dicts."""
    file = FileRecord("shop", "shop/views.py", "python", "ab" * 32, 1234)
    nodes = [Node("shop:shop/views.py", "File", "views.py", "shop/views.py", "shop", "shop/views.py", 1, 0, 40, 0,
                  {"language": "python"}),
             Node("shop:shop/views.Cart.add(2)", "Method", "add", "Cart.add", "shop", "shop/views.py", 5, 4, 9, 20,
                  {"arity": 2, "decorators": ["cached"]})]
    edges = [Edge("CONTAINS", nodes[0].id, nodes[1].id, "shop", "shop/views.py"),
             Edge("CALLS", nodes[1].id, "shop:shop/models.Item.save(1)", "shop", "shop/views.py", 7, 8, "inferred",
                  {"recv": "^"})]
    unresolved = [UnresolvedCall(nodes[1].id, "flush", 0, "self.cache", "shop", "shop/views.py", 8, 12)]
    chunks = [Chunk("c1", "shop", "shop", "shop/views.py", "python", "method", "add", nodes[1].id, "shop:shop/views.Cart",
                    5, 9, "def add(self, item):\n    ...", "cd" * 32),
              Chunk("c2", "shop", "shop", "shop/views.py", "python", "method", "add", nodes[1].id, None, 5, 9, "x",
                    "ef" * 32, (0.25, -1.0))]
    return IndexedFile(file, nodes, edges, unresolved, chunks, "text")


def _dumps_without_dispatch(obj: object) -> bytes:
    """``obj`` pickled with an empty private dispatch table: each record through ``__reduce_ex__``."""
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {}
    pickler.dump(obj)
    return buf.getvalue()


def test_every_index_record_is_registered_with_its_own_reducer() -> None:
    for cls in RECORDS:
        assert copyreg.dispatch_table[cls] is vars(cls)["__reduce__"]


def test_the_dispatch_table_gives_the_bytes_of_reduce_ex() -> None:
    out = _output()
    for protocol in (2, 4, pickle.HIGHEST_PROTOCOL):
        via_table = pickle.dumps(out, protocol=protocol)
        buf = io.BytesIO()
        pickler = pickle.Pickler(buf, protocol=protocol)
        pickler.dispatch_table = {}
        pickler.dump(out)
        assert via_table == buf.getvalue()
    assert pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL) == _dumps_without_dispatch(out)
    assert pickle.dumps([out, out.nodes], protocol=pickle.HIGHEST_PROTOCOL) == _dumps_without_dispatch([out, out.nodes])


def _items(out: IndexedFile) -> list[object]:
    return [out.file, *out.nodes, *out.edges, *out.unresolved, *out.chunks]


def test_the_restored_records_are_the_same_objects() -> None:
    out = _output()
    back = pickle.loads(pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is IndexedFile and back.text == "text"
    for a, b in zip(_items(out), _items(back), strict=True):
        assert type(b) is type(a)
        assert [getattr(b, f.name) for f in fields(a)] == [getattr(a, f.name) for f in fields(a)]  # props too
        assert b == a and hash(b) == hash(a) and repr(b) == repr(a)
    assert back.nodes[1].props == {"arity": 2, "decorators": ["cached"]} and back.chunks[1].embedding == (0.25, -1.0)
    assert back.edges[0].props == {} and back.edges[0].props is not back.nodes[0].props
    with pytest.raises(FrozenInstanceError):
        back.nodes[1].name = "remove"  # type: ignore[misc]
    for made in (out.edges[1], back.edges[1]):  # no new attribute either (CPython 3.11 says so with a TypeError)
        with pytest.raises((AttributeError, TypeError)):
            made.extra = 1  # type: ignore[attr-defined]


def test_only_the_four_bulk_records_pickle_through_a_restorer() -> None:
    out = _output()
    restorers = {Node: contracts.restore_node, Edge: contracts.restore_edge,
                 UnresolvedCall: contracts.restore_unresolved, Chunk: contracts.restore_chunk}
    for item in _items(out):
        build, args = item.__reduce__()  # type: ignore[misc]
        assert build is restorers.get(type(item), type(item))
        assert args == tuple(getattr(item, f.name) for f in fields(item))  # type: ignore[arg-type]
    data = pickle.dumps(out.nodes[1], protocol=pickle.HIGHEST_PROTOCOL)
    assert b"restore_node" in data and b"Node" not in data


def _by_class(cls: type) -> object:
    """The reducer of a record before r66c: the class and the field values."""
    return lambda o: (cls, tuple(getattr(o, f.name) for f in fields(o)))


def test_pickles_naming_the_class_still_load() -> None:
    """What earlier versions wrote (``(Node, fields)``): a bind state or spill left by them."""
    out = _output()
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {cls: _by_class(cls) for cls in RECORDS}
    pickler.dump(out)
    assert b"restore_" not in buf.getvalue()
    back = pickle.loads(buf.getvalue())
    assert [repr(x) for x in _items(back)] == [repr(x) for x in _items(out)]


def test_a_restorer_builds_the_record_with_every_field_given() -> None:
    node = contracts.restore_node("r:a.f(0)", "Function", "f", "f", "r", "a.py", 1, 0, 2, 4, {})
    assert node == Node("r:a.f(0)", "Function", "f", "f", "r", "a.py", 1, 0, 2, 4) and type(node) is Node
    with pytest.raises(TypeError):
        contracts.restore_edge("CALLS", "a", "b")  # a pickle holds every field; no default applies
