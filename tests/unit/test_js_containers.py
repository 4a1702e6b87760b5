"""JavaScript / TypeScript functions held in arrays, Maps and Sets and called out of them
(``languages/ecmascript/containers.py``): exact edges (``via="element"``, at most ``inferred``), the
element chosen when straight-line code says which, every element otherwise, and what must not bind."""

from tests.resolution_harness import check

HEAD = """
// --- path: co.js ---
function bar() { return 1; }
function foo() { return 2; }
function baz() { return 3; }
"""


def test_straight_line_code_says_which_element_a_call_takes():
    # JCG Containers CO1, CO2, CO4, CO5 in one function each
    check(HEAD + """
function index() { var f = [bar, foo]; f[1](); }
function map() { var m = new Map(); m.set("a", bar); m.set("b", foo); m.get("b")(); }
function shift() { var f = []; f.push(foo); f.push(bar); f.shift()(); }
function pop() { var f = []; f.push(foo); f.push(bar); f.pop()(); f.pop()(); }
function unshift() { const f = [bar]; f.unshift(baz); f[0](); }
function assigned() { const f = []; f[2] = baz; f[2](); f[0](); }
function init() { const m = new Map([["x", baz], ["y", foo]]); m.get("x")(); }
""", [
        "co.index(0) -> co.foo(0) [inferred]",  # not bar
        "co.map(0) -> co.foo(0) [inferred]",  # not bar
        "co.shift(0) -> co.foo(0) [inferred]",  # the first pushed
        "co.pop(0) -> co.bar(0) [inferred]",  # the last pushed, then the one before it
        "co.pop(0) -> co.foo(0) [inferred]",
        "co.unshift(0) -> co.baz(0) [inferred]",  # not bar
        "co.assigned(0) -> co.baz(0) [inferred]",  # f[0] is a hole: nothing
        "co.init(0) -> co.baz(0) [inferred]",  # not foo
    ])


def test_without_a_known_order_a_call_may_take_any_element():
    check(HEAD + """
function computed(i) { const f = [bar, foo]; f[i](); }
function branched(c) { const f = [bar]; if (c) { f.push(foo); } f[0](); }
function escaped(g) { const f = [bar, foo]; g(f); f[0](); }
function looped() { const hooks = [foo, baz]; for (const h of hooks) { h(); } }
function each() { const hooks = new Set([bar]); hooks.add(baz); hooks.forEach((h) => h(1)); }
function keys() { const hooks = [foo]; for (const k in hooks) { k(); } }
""", [
        "co.computed(1) -> co.bar(0) [inferred]",  # an index no literal: either
        "co.computed(1) -> co.foo(0) [inferred]",
        "co.branched(1) -> co.bar(0) [inferred]",  # pushed in a branch: either
        "co.branched(1) -> co.foo(0) [inferred]",
        "co.escaped(1) -> co.bar(0) [inferred]",  # handed to g, which may reorder it
        "co.escaped(1) -> co.foo(0) [inferred]",
        "co.looped(0) -> co.baz(0) [inferred]",  # every element runs
        "co.looped(0) -> co.foo(0) [inferred]",
        "co.each(0) -> co.bar(0) [inferred]",
        "co.each(0) -> co.baz(0) [inferred]",
        # not: keys -> foo (`for ... in` gives keys), no edge for a container never called through
    ])


def test_data_containers_and_unknown_elements_bind_nothing():
    check(HEAD + """
function data() { const xs = [1, 2]; xs[0](); xs.pop()(); }
function other() { const m = new WeakMap(); m.get(foo)(); }
function scoped() { const f = [bar]; function inner() { const f = [foo]; } f[0](); }
""", [
        "co.scoped(0) -> co.bar(0) [inferred]",  # not foo: the nested `f` is another variable
    ])
