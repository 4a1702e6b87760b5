"""js51: calls of calls (``f()()...()``) thousands deep. The calls within the receiver bound
(:data:`indexer.model.MAX_RECEIVER_LINKS` links) keep their edges; the outer ones, whose callee has no
name the resolver can follow, are not kept and the file says why (``partial``: ``long_chain``); a
chain past the extraction depth is cut by the budget (``too_deep``) with no crash and no nameless
call site. Times: docs/accuracy.md, "js51"."""

from __future__ import annotations

from indexer.languages.base import extraction_budget
from indexer.languages.ecmascript.javascript import EXTRACTOR as JS
from indexer.model import LONG_CHAIN, LONG_RECEIVER, MAX_RECEIVER_LINKS
from tests.resolution_harness import resolve_fixture


def _chain(n: int) -> str:
    return "function f() { return f; }\nfunction main() { f" + "()" * n + "; }\nmodule.exports = { main };\n"


def test_a_long_chain_keeps_the_calls_within_the_bound() -> None:
    result = resolve_fixture("// --- path: a.js ---\n" + _chain(40))
    got = sorted((e.line, e.col, e.src.split(":", 1)[1], e.dst.split(":", 1)[1], e.resolution)
                 for f in result.files for e in f.edges if e.kind == "CALLS")
    # `f()` (col 18) exact; each of the next 16 calls, `f()()` ... (cols 23, 25, ..., 53), calls what f returns: f
    assert got == [(2, 18, "a.main(0)", "a.f(0)", "exact")] + \
        [(2, 23 + 2 * i, "a.main(0)", "a.f(0)", "inferred") for i in range(MAX_RECEIVER_LINKS)]
    out = JS.extract("a.js", _chain(40).encode())
    assert out.partial == LONG_CHAIN
    assert len(out.calls) == MAX_RECEIVER_LINKS + 2  # `f` and the 17 calls of calls; never a nameless one
    assert all(c.name != LONG_RECEIVER for c in out.calls)


def test_a_short_chain_is_whole() -> None:
    out = JS.extract("a.js", _chain(5).encode())
    assert out.partial is None
    assert len(out.calls) == 5  # `f()` and the four calls of what the one before returns


def test_a_chain_past_the_depth_budget_is_cut_without_nameless_calls() -> None:
    with extraction_budget(60.0) as budget:
        out = JS.extract("a.js", _chain(2000).encode())
    assert budget.partial == "too_deep"
    assert out.calls == []  # its calls within the depth kept are all past the receiver bound
    assert out.partial == LONG_CHAIN
