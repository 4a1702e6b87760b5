"""Arrow functions and anonymous function expressions as call-hierarchy nodes (issue 14, item 1):
one test per shape, through extraction, resolution and the store as the language server asks
(``symbol_at`` is what prepareCallHierarchy and references start from)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.resolution_harness import edges, resolve_fixture, split_fixture

SHAPES = """
// --- path: src/api.ts ---
import { load } from "./store";
export const api = {
  list: async () => { return load(); },
  get(id: string) { return load(); },
};
export const run = async () => { await api.list(); api.get("x"); };
export class Ctl {
  handle = async (x: string) => { await api.list(); this.help(); };
  help = () => load();
}
export default () => { run(); new Ctl().handle("a"); };
[1, 2].map((x) => load());
// --- path: src/use.ts ---
import { api, run } from "./api";
import main from "./api";
export function go() { api.list(); run(); main(); }
// --- path: src/store.ts ---
export function load() { return 1; }
"""


def test_every_arrow_shape_is_a_callable_owning_its_calls() -> None:
    result = resolve_fixture(SHAPES)
    assert edges(result, "CALLS") == [
        "src/api.Ctl.handle(1) -> src/api.Ctl.help(0) [exact]",  # class field arrow: a method
        "src/api.Ctl.handle(1) -> src/api.api.list(0) [exact]",  # `api` is bound `object`: its properties
        "src/api.Ctl.help(0) -> src/store.load(0) [exact]",
        "src/api.api.get(1) -> src/store.load(0) [exact]",  # object literal shorthand method
        "src/api.api.list(0) -> src/store.load(0) [exact]",  # object literal arrow (before: the file's)
        "src/api.default(0) -> src/api.Ctl [exact]",  # `export default () =>` (before: the file's)
        "src/api.default(0) -> src/api.Ctl.handle(1) [exact]",  # `new Ctl().handle`: exactly Ctl's
        "src/api.default(0) -> src/api.run(0) [exact]",
        "src/api.run(0) -> src/api.api.get(1) [exact]",  # `const f = () =>`
        "src/api.run(0) -> src/api.api.list(0) [exact]",
        "src/api.ts -> src/store.load(0) [exact]",  # a `.map(x => ...)` callback is no node
        "src/use.go(0) -> src/api.api.list(0) [exact]",  # imported `api`: the object too
        "src/use.go(0) -> src/api.default(0) [exact]",
        "src/use.go(0) -> src/api.run(0) [exact]",
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    from tests.index_harness import index_files

    root: Path = tmp_path_factory.mktemp("arrows")
    s = index_files(root, split_fixture(SHAPES), "a", db=root.parent / "arrows.db")
    yield s
    s.close()


@pytest.mark.parametrize(
    ("line", "col", "word", "expected"),
    [
        (2, 13, "api", []),  # the object itself is no callable
        (3, 2, "list", ["a:src/api.api.list(0)"]),
        (3, 8, "async", ["a:src/api.api.list(0)"]),  # the arrow's header
        (4, 2, "get", ["a:src/api.api.get(1)"]),
        (6, 13, "run", ["a:src/api.run(0)"]),
        (6, 19, "async", ["a:src/api.run(0)"]),
        (8, 2, "handle", ["a:src/api.Ctl.handle(1)"]),
        (8, 11, "async", ["a:src/api.Ctl.handle(1)"]),
        (9, 2, "help", ["a:src/api.Ctl.help(0)"]),
        (11, 15, "", ["a:src/api.default(0)"]),  # `export default () =>`: no identifier at all
        (11, 23, "run", ["a:src/api.run(0)"]),  # a call inside names its callee
        (12, 10, "x", []),  # a `.map` callback's header is module-level code
    ],
)
def test_symbol_at_on_arrow_shapes(store, line: int, col: int, word: str, expected: list[str]) -> None:
    from analysis.navigation import symbol_at

    assert [n.id for n in symbol_at(store, "a", "src/api.ts", line, col, word)] == expected


def test_incoming_and_outgoing_calls_of_an_object_literal_arrow(store) -> None:
    from analysis.navigation import incoming_calls, outgoing_calls, symbol_at

    (node,) = symbol_at(store, "a", "src/api.ts", 3, 2, "list")
    assert [(g.node.name, [s.line for s in g.sites]) for g in incoming_calls(store, node)] == [
        ("run", [6]), ("handle", [8]), ("go", [3])
    ]
    assert [(g.node.name, [s.line for s in g.sites]) for g in outgoing_calls(store, node)] == [("load", [3])]
