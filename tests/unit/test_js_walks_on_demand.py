"""The ECMAScript extractor's walks and look-ups run only where they can change the answer (issue 19
goal 3: the extract phase's CPU, session 54): identifiers spelled a name are found where the file's
bytes spell it (``syntax.spelled``), not by a walk of the tree; ``returns.factories`` asks about the
names returned, no walk collecting every declared function; ``reads.declared_around`` walks no
function whose bytes spell the read name only at the read; ``js_data`` locates the node of no call
whose name no rule reads. What each finds is unchanged (exact facts below, and what must not be
found)."""

from __future__ import annotations

from typing import Any

import pytest

from indexer.languages import base
from indexer.languages.ecmascript import containers, reads, returns
from indexer.languages.ecmascript.frameworks import js_data
from indexer.languages.ecmascript.javascript import EXTRACTOR as JS
from indexer.languages.ecmascript.syntax import spelled
from indexer.model import FileExtraction

IDENTIFIER = frozenset({"identifier"})


def _spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Count the calls of ``owner.name`` (one entry per call) without changing what it returns."""
    calls: list[int] = []
    real = getattr(owner, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return calls


def _extract(code: str, path: str = "m.js") -> FileExtraction:
    return JS.extract(path, code.encode())


# -- syntax.spelled ---------------------------------------------------------------------------------

SPELLED = b'const ab = 1;\nfunction f(ab) { return abc + ab; }\nobj.ab; "ab"; g({ ab });\n'


def test_spelled_finds_exactly_the_nodes_of_the_types_asked_in_source_order() -> None:
    root = base.parser("javascript").parse(SPELLED).root_node
    found = spelled(root, SPELLED, "ab", IDENTIFIER)
    assert found is not None
    assert [(n.start_point[0], n.start_point[1]) for n in found] == [(0, 6), (1, 11), (1, 30)]
    # not `abc` (a longer identifier), not the string's text, not `obj.ab` nor `{ ab }` (other types)
    wider = spelled(root, SPELLED, "ab", frozenset({"identifier", "property_identifier",
                                                    "shorthand_property_identifier"}))
    assert [(n.start_point[0], n.start_point[1], n.type) for n in wider or []] == [
        (0, 6, "identifier"), (1, 11, "identifier"), (1, 30, "identifier"),
        (2, 4, "property_identifier"), (2, 18, "shorthand_property_identifier")]


def test_spelled_gives_up_on_a_leniently_decoded_name() -> None:
    root = base.parser("javascript").parse(SPELLED).root_node
    assert spelled(root, SPELLED, "a\ufffdb", IDENTIFIER) is None  # no byte string to look for: callers walk
    assert spelled(root, SPELLED, "", IDENTIFIER) is None
    assert spelled(root, SPELLED, "zz", IDENTIFIER) == []


# -- containers --------------------------------------------------------------------------------------

CONTAINER = """function bar() { return 1; }
function foo() { return 2; }
function index() { var f = [bar, foo]; o.f = 1; g("f"); f[1](); }
function shadow(f) { f[0](); }
"""


def test_a_containers_uses_are_found_without_a_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_walk(*args: Any) -> Any:
        raise AssertionError("walked")

    monkeypatch.setattr(containers, "_walk_uses", no_walk)
    out = _extract(CONTAINER, "co.js")
    assert [(c.caller, c.name, c.line, c.col, c.via) for c in out.calls] == [
        ("index", "g", 3, 48, None),
        ("index", "foo", 3, 56, "element"),  # f[1]: foo, not bar
        # not: `o.f` / "f" as uses of the container, nothing for `shadow`'s own `f`
    ]


# -- returns.factories ----------------------------------------------------------------------------------

FACTORIES = """function h() {}
function inner() {}
function wrap(fn) { return inner; }
function pass(inner) { return inner; }
function other() { return missing; }
function named() { return function made() {}; }
export const g = wrap(h);
export const k = pass(h);
export const m = other(h);
export const n = named(h);
"""


def test_factories_ask_about_the_returned_names_only(monkeypatch: pytest.MonkeyPatch) -> None:
    walks = _spy(monkeypatch, returns, "_declarations")
    out = _extract(FACTORIES)
    assert [(d.qualname, d.kind, d.name_line) for d in out.definitions] == [
        ("h", "function", 1), ("inner", "function", 2), ("wrap", "function", 3), ("pass", "function", 4),
        ("other", "function", 5), ("named", "function", 6), ("named.made", "function", 6),
        ("k", "function", 8), ("m", "function", 9),
        # not g (wrap returns the declared inner), not n (named returns a named function expression);
        # k (pass returns its parameter) and m (missing is declared nowhere) stay value definitions
    ]
    assert walks == []


def test_a_file_returning_no_bare_name_asks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _spy(monkeypatch, returns, "spelled")
    out = _extract("function f() { return g(1); }\nfunction g(x) { return x + 1; }\nexport const v = f(g);\n")
    assert asked == []  # `return x + 1`, `return g(1)`: no bare name returned
    assert [(d.qualname, d.kind) for d in out.definitions] == [("f", "function"), ("g", "function"), ("v", "function")]


# -- reads.declared_around ------------------------------------------------------------------------------

READS = """function handler() {}
function a() { run(handler); }
function b() { const handler = 1; run(handler); }
function c(handler) { return () => run(handler); }
"""


def test_a_function_spelling_the_name_only_at_the_read_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    walks = _spy(monkeypatch, reads, "_own_names")
    out = _extract(READS)
    assert [(r.owner, r.name, r.receiver, r.line, r.col, r.handed) for r in out.value_reads] == [
        ("a", "handler", None, 2, 19, True),
        # not b's (its own const), not the arrow's in c (c's parameter)
    ]
    assert len(walks) == 2  # b and c; not a, nor the arrow (its bytes spell `handler` only at the read)


# -- js_data ----------------------------------------------------------------------------------------------

KNEX = """const knex = require("knex")(cfg);
function list() { return knex("users").where({ a: 1 }).select("id"); }
function other(x) { x.foo(); x.bar(); log.info("x"); }
"""


def test_only_calls_a_data_rule_reads_are_located(monkeypatch: pytest.MonkeyPatch) -> None:
    located = _spy(monkeypatch, js_data._Detector, "_call_at")
    out = _extract(KNEX)
    assert [(u.framework, u.role, u.owner, u.line, u.col, u.table, u.columns) for u in out.table_uses] == [
        ("knex", "reads", "list", 2, 25, "users", ["a", "id"]),
        # nothing for x.foo(), x.bar(), log.info("x")
    ]
    assert len(located) == 3  # knex(...), .where, .select; not foo, bar, info
