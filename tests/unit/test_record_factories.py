"""The cheap constructors of the index records (session 67, cpu67b): :func:`stores.contracts.new_node`,
:func:`~stores.contracts.new_edge` and :func:`~stores.contracts.new_unresolved` build the same objects as
``Node(...)`` / ``Edge(...)`` / ``UnresolvedCall(...)`` (type, every field, equality, hash, repr, pickle
bytes, still frozen), each with a ``props`` dict of its own; and the resolver's output is built with them."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError, fields

import pytest

from indexer.resolve.repository import resolve_repository
from indexer.languages import extractor_for_path
from stores.contracts import Edge, Node, UnresolvedCall, new_edge, new_node, new_unresolved

NODE = ("shop:shop/views.Cart.add(2)", "Method", "add", "Cart.add", "shop", "shop/views.py", 5, 4, 9, 20)
EDGE = ("CALLS", "shop:shop/views.Cart.add(2)", "shop:shop/models.Item.save(1)", "shop", "shop/views.py", 7, 8,
        "inferred")
CALL = ("shop:shop/views.Cart.add(2)", "save", 1, "self.item", "shop", "shop/views.py", 7, 8)


def _same(a: object, b: object) -> None:
    assert type(a) is type(b)
    assert [getattr(a, f.name) for f in fields(a)] == [getattr(b, f.name) for f in fields(b)]  # type: ignore[arg-type]
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
    assert pickle.dumps(a, protocol=pickle.HIGHEST_PROTOCOL) == pickle.dumps(b, protocol=pickle.HIGHEST_PROTOCOL)


def test_the_factories_build_the_records_the_constructors_build() -> None:
    _same(new_node(*NODE, {"arity": 2}), Node(*NODE, {"arity": 2}))
    _same(new_edge(*EDGE, {"recv": "^"}), Edge(*EDGE, {"recv": "^"}))
    _same(new_edge(*EDGE[:5], 0, 0, None, {}), Edge(*EDGE[:5]))
    _same(new_unresolved(*CALL), UnresolvedCall(*CALL))
    assert new_edge(*EDGE, {}) != new_edge(*EDGE[:-1], "exact", {})  # a field still tells records apart


@pytest.mark.parametrize("record", [new_node(*NODE, {}), new_edge(*EDGE, {}), new_unresolved(*CALL)])
def test_a_factory_built_record_is_still_frozen(record: object) -> None:
    with pytest.raises(FrozenInstanceError):
        record.repo = "other"  # type: ignore[attr-defined]  # a field every record has


def test_a_factory_needs_every_field() -> None:
    with pytest.raises(TypeError):
        new_edge(*EDGE)  # no props: no default applies
    with pytest.raises(TypeError):
        new_node(*NODE)


def test_the_resolver_output_is_what_the_constructors_would_build() -> None:
    src = (b"class Cart:\n    def add(self, item):\n        self.save(item)\n        missing(item)\n\n"
           b"    def save(self, item):\n        return item\n")
    ex = extractor_for_path("shop/views.py").extract("shop/views.py", src)  # type: ignore[union-attr]
    out = resolve_repository("shop", [(ex, "ab" * 32, len(src))]).files[0]
    assert [(n.label, n.qualname) for n in out.nodes] == [("File", "shop/views.py"), ("Class", "Cart"),
                                                          ("Method", "Cart.add"), ("Method", "Cart.save")]
    calls = [(e.src.rsplit(":", 1)[1], e.dst.rsplit(":", 1)[1], e.line, e.resolution) for e in out.edges
             if e.kind == "CALLS"]
    assert calls == [("shop/views.Cart.add(1)", "shop/views.Cart.save(1)", 3, "exact")]
    assert [(u.name, u.line) for u in out.unresolved] == [("missing", 4)]
    for n in out.nodes:
        _same(n, Node(*(getattr(n, f.name) for f in fields(Node))))
    for e in out.edges:
        _same(e, Edge(*(getattr(e, f.name) for f in fields(Edge))))
        assert all(e.props is not o.props for o in out.edges if o is not e)  # no dict shared between edges
    for u in out.unresolved:
        _same(u, UnresolvedCall(*(getattr(u, f.name) for f in fields(UnresolvedCall))))
