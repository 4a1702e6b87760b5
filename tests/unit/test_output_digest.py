"""``output_digest`` (indexer.writer): what "this file's output differs from the index's" means: the
same nodes, edges and unresolved calls in any order give the same digest; any field changed, an item
added, or an item moved to another part gives another; the File node's bookkeeping props do not count."""

from __future__ import annotations

import dataclasses

from indexer.writer import output_digest
from stores.contracts import Edge, FileRecord, IndexedFile, Node, UnresolvedCall


def _out(nodes=None, edges=None, unresolved=None) -> IndexedFile:
    file_node = Node("r:a.py", "File", "a.py", "a.py", "r", "a.py", 1, 0, 1, 0, {"language": "python"})
    m = Node("r:a.py.f(0)", "Function", "f", "f", "r", "a.py", 2, 0, 3, 0, {"arity": 0})
    g = Node("r:a.py.g(0)", "Function", "g", "g", "r", "a.py", 4, 0, 5, 0, {"arity": 0})
    calls = [Edge("CALLS", "r:a.py.f(0)", "r:a.py.g(0)", "r", "a.py", 3, 4, "exact"),
             Edge("CONTAINS", "r:a.py", "r:a.py.f(0)", "r", "a.py", 0, 0, None)]
    left = [UnresolvedCall("r:a.py.g(0)", "h", 0, None, "r", "a.py", 5, 4)]
    return IndexedFile(FileRecord("r", "a.py", "python", "c0", 10), nodes if nodes is not None else [file_node, m, g],
                       edges if edges is not None else calls, unresolved if unresolved is not None else left)


def test_output_digest_ignores_order_and_bookkeeping_and_sees_every_change():
    base = _out()
    digest = output_digest(base, "p")
    assert len(digest) == 64 and int(digest, 16) >= 0
    shuffled = _out([base.nodes[0], base.nodes[2], base.nodes[1]], base.edges[::-1], base.unresolved)
    assert output_digest(shuffled, "p") == digest
    stamped = dataclasses.replace(base.nodes[0], props={**base.nodes[0].props, "digest": "x", "indexer": "y",
                                                        "parse_errors": 2})
    assert output_digest(_out([stamped, *base.nodes[1:]]), "p") == digest
    assert output_digest(base, "q") != digest  # another product
    moved = dataclasses.replace(base.edges[0], col=5)
    assert output_digest(_out(edges=[moved, base.edges[1]]), "p") != digest
    assert output_digest(_out(edges=base.edges[:1]), "p") != digest
    relabelled = dataclasses.replace(base.nodes[1], props={"arity": 1})
    assert output_digest(_out([base.nodes[0], relabelled, base.nodes[2]]), "p") != digest
    assert output_digest(_out(unresolved=[]), "p") != digest
    # the same call site kept unresolved instead of bound is another output
    assert output_digest(_out(edges=base.edges[1:]), "p") != output_digest(_out(edges=base.edges[1:], unresolved=[]), "p")
