"""A JavaScript member really named ``return`` is not a factory's returned object (acc63b).

The functions of an object literal a function returns are qualified under the segment ``return``
(``factory.return.start``): a reserved word, so no *variable* can clash with it, and code that shows or
matches those functions treats an inner ``return`` segment as that marker (written ``factory.start``,
as a caller of ``factory().start()`` writes it; a call matched by name alone from a file that does not
import the factory is no candidate). But a *member* may be named ``return``: an iterator's ``return()``
(``{ next() {...}, return() {...} }``), ``class Cursor { return() {} }``. What nested in such a method
was shown and matched as a factory's member: ``Cursor.return.cleanup`` written ``Cursor.cleanup``,
``X.return()``'s returned ``get`` written ``X.get``, and a call of ``cleanup`` matched by name dropped
as a factory member's. A ``return`` segment that is a definition of the file is now kept (the node's
``written`` property, :data:`stores.qualified_symbols.WRITTEN`) and not taken for a factory's object.
"""

from __future__ import annotations

import sqlite3

import pytest

from stores.qualified_symbols import qualified_symbols, written_qualname
from tests.index_harness import index_files
from tests.resolution_harness import edges, extract_fixture, resolve_fixture, split_fixture

FIXTURE = """
// --- path: src/iter.js ---
export class Cursor {
  next() { const step = () => 1; return step() }
  return() { const cleanup = () => close(); cleanup(); return { done: true } }
}
export class Tx {
  return() { return { get() { return 1 } } }
}
function close() {}
export function makeIter() {
  return {
    next() { return { done: true } },
    return() { close(); return { done: true } },
  }
}
export function factory() {
  return { start() { close() } }
}
// --- path: src/use.js ---
import { Cursor, makeIter, factory } from "./iter"
export function run(c) {
  new Cursor().return()
  makeIter().return()
  factory().start()
}
// --- path: src/other.js ---
export function go(o) {
  o.cleanup()
  o.step()
  o.start()
}
"""


def test_qualnames_of_real_members_and_factory_members():
    (iter_js, _, _), *_ = extract_fixture(FIXTURE)
    assert [(d.qualname, d.kind) for d in iter_js.definitions] == [
        ("Cursor", "class"), ("Cursor.next", "method"), ("Cursor.next.step", "function"),
        ("Cursor.return", "method"), ("Cursor.return.cleanup", "function"),
        ("Tx", "class"), ("Tx.return", "method"), ("Tx.return.return.get", "function"),
        ("close", "function"), ("makeIter", "function"), ("makeIter.return.next", "function"),
        ("makeIter.return.return", "function"), ("factory", "function"), ("factory.return.start", "function"),
    ]


def test_a_function_nested_in_a_method_named_return_is_matched_like_any_other():
    calls = edges(resolve_fixture(FIXTURE))
    assert [c for c in calls if c.startswith("src/other.")] == [
        "src/other.go(1) -> src/iter.Cursor.next.step(0) [name]",
        "src/other.go(1) -> src/iter.Cursor.return.cleanup(0) [name]",  # was: dropped as a factory's member
        # not factory.return.start: a factory's member, and src/other.js does not import the factory
    ]
    assert [c for c in calls if c.startswith("src/use.")] == [
        "src/use.run(1) -> src/iter.Cursor [exact]",
        "src/use.run(1) -> src/iter.Cursor.return(0) [exact]",  # the class's own return()
        "src/use.run(1) -> src/iter.factory(0) [exact]",
        "src/use.run(1) -> src/iter.factory.return.start(0) [exact]",
        "src/use.run(1) -> src/iter.makeIter(0) [exact]",
        "src/use.run(1) -> src/iter.makeIter.return.return(0) [exact]",  # the iterator's return()
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("ret")
    s = index_files(root / "r", {"package.json": '{"name": "r"}', **split_fixture(FIXTURE)}, "r")
    yield s
    s.close()


def test_only_nodes_under_a_real_member_named_return_carry_their_written_form(store):
    with sqlite3.connect(store.path) as db:
        rows = db.execute("SELECT qualname, json_extract(props, '$.written') FROM nodes "
                          "WHERE json_extract(props, '$.written') IS NOT NULL ORDER BY qualname").fetchall()
    assert rows == [("Cursor.return.cleanup", "Cursor.return.cleanup"), ("Tx.return.return.get", "Tx.return.get")]
    assert written_qualname("Tx.return.return.get", "src/iter.js", "Tx.return.get") == "Tx.return.get"
    assert written_qualname("factory.return.start", "src/iter.js") == "factory.start"  # the factory's, as before
    assert written_qualname("makeIter.return.return", "src/iter.js") == "makeIter.return"


@pytest.mark.parametrize(("query", "found"), [
    ("Cursor.return.cleanup", ["Cursor.return.cleanup"]),
    ("Cursor.cleanup", []),  # was: Cursor.return.cleanup, as if Cursor were a factory
    ("Tx.return.get", ["Tx.return.return.get"]),
    ("Tx.get", []),
    ("factory.start", ["factory.return.start"]),
    ("makeIter.return", ["makeIter.return.return"]),  # the iterator's own return(), as makeIter().return() writes it
    ("Cursor.return", ["Cursor.return"]),
])
def test_qualified_symbol_queries(store, query, found):
    assert [n.qualname for n in qualified_symbols(store, query, 10)] == found
