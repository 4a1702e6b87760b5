"""One file's local scopes (:mod:`indexer.languages.ecmascript.local_scopes`): the tables both the
detectors' local values and the object-property shadowing read, and the names a ``catch`` clause or a
``for`` head declares, which hide the module's or an import's function of that name in their body."""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, parser
from indexer.languages.ecmascript.local_scopes import ScopeTables, bound_words
from tests.resolution_harness import check
from tests.unit.test_js_scope_tables import nodes_of_type

_CODE = b"""\
import { go, run, keep } from "./api";
function f(a: Keep = keep, { b }, ...rest) {
  const go = 1;
  let c = 2, run = () => 3;
  try { use(go, run) } catch (err) { use(err, keep) }
  for (const [k, v] of pairs) { use(k, v, keep) }
  for (let i = 0, j = keep; i < 2; i++) { use(i) }
  for (x of xs) { use(x) }
  function keep() {}
  const { stop, d: e } = other();
  use(go, stop, e, keep);
}
use(go);
"""


def _tables() -> tuple[Node, ScopeTables]:
    src = SourceText(_CODE)
    root = parser("typescript").parse(_CODE).root_node
    return root, ScopeTables(src.text, defines=lambda node: node.type == "arrow_function")


def _uses(root: Node) -> list[Node]:
    """The identifiers of the ``use(...)`` calls, in source order."""
    calls = [c for c in nodes_of_type(root, "call_expression") if c.text.startswith(b"use(")]
    calls.sort(key=lambda c: c.start_byte)
    return [a for c in calls for a in c.child_by_field_name("arguments").named_children]


def test_bound_words_of_functions_catch_clauses_and_for_heads() -> None:
    root, tables = _tables()
    src = SourceText(_CODE)
    fn = nodes_of_type(root, "function_declaration")[0]
    catch = nodes_of_type(root, "catch_clause")[0]
    for_of, for_in_assigning = nodes_of_type(root, "for_in_statement")
    for_loop = nodes_of_type(root, "for_statement")[0]
    assert bound_words(src.text, fn) == {"a", "Keep", "keep", "b", "rest"}  # a type or default counts
    assert bound_words(src.text, catch) == {"err"}
    assert bound_words(src.text, for_of) == {"k", "v"}
    assert bound_words(src.text, for_in_assigning) == frozenset()  # `for (x of xs)` declares nothing
    assert bound_words(src.text, for_loop) == {"let", "i", "0", "j", "keep"}
    assert bound_words(src.text, root) == frozenset()
    assert tables.bound_words(catch) is tables.bound_words(catch)  # computed once


def test_shadowed_and_declarator_before_read_one_block_table() -> None:
    root, tables = _tables()
    uses = _uses(root)
    names = [u.text.decode() for u in uses]
    assert names == ["go", "run", "err", "keep", "k", "v", "keep", "i", "x", "go", "stop", "e", "keep", "go"]
    got = [tables.shadowed(u, n) for u, n in zip(uses, names)]
    assert got == [
        True,  # go: `const go = 1` of the function's block
        False,  # run: `run = () => 3`, a function the extractor defines
        True,  # err: the catch clause's parameter
        False,  # keep: the block's `function keep() {}` comes before the parameter list's default
        True, True,  # k, v: `for (const [k, v] of ...)`
        False,  # keep again
        True,  # i: `for (let i = 0, ...)`
        False,  # x: `for (x of xs)` assigns, declares nothing
        True, True, True,  # go; stop and e: destructured
        False,  # keep
        False,  # module level: never a local
    ]
    body = nodes_of_type(root, "statement_block")[0]
    end = uses[-2].start_byte
    assert tables.declarator_before(body, "go", end).text == b"go = 1"
    assert tables.declarator_before(body, "run", end).text == b"run = () => 3"
    assert tables.declarator_before(body, "stop", end) is None  # a pattern's name: no declarator of it
    assert tables.declarator_before(body, "go", uses[0].start_byte) is not None
    assert tables.declarator_before(body, "keep", end) is None  # a function declaration


HEADS = """
// --- path: src/api.ts ---
export function go() { return 1 }
export function run() { return 2 }
// --- path: src/page.ts ---
import { go, run } from "./api"
export function caught() {
  try { return null } catch (go) { return { go } }
}
export function caughtOther() {
  try { return null } catch (e) { register(go) }
}
export function looped(xs: number[]) {
  for (const run of xs) { register(run) }
  return null
}
export function loopedOther(xs: number[]) {
  for (const x of xs) { register(run) }
}
export function counted() {
  for (let go = 0; go < 2; go++) { register(go) }
}
try { start() } catch (run) { register(run) }
try { start() } catch { register(go) }
"""


def test_a_catch_parameter_or_for_variable_hides_the_import_in_its_body() -> None:
    """``{ go }`` / ``register(run)`` inside ``catch (go)`` / ``for (const run of xs)`` / ``for (let go
    ...)`` hand on the local, not ``./api``'s function: no REFERENCES edge, at module level too. The
    same names inside a catch or loop declaring something else are the imports."""
    check(HEADS, [
        "src/page.caughtOther(0) -> src/api.go(0)",
        "src/page.loopedOther(1) -> src/api.run(0)",
        "src/page.ts -> src/api.go(0)",  # the catch without a parameter
    ], kind="REFERENCES")
