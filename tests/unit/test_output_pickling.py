"""How the index records of :mod:`stores.contracts` pickle (session 66, r66c): through
:data:`copyreg.dispatch_table` to the same bytes as through their ``__reduce__``."""

from __future__ import annotations

import copyreg
import io
import pickle

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
