"""bench/jcg_links.py: ripple's nodes and edges renamed into JCG's naming, and the scoring, exactly."""

from __future__ import annotations

from bench.jcg_cases import JcgCase
from bench.jcg_links import (
    RippleNode,
    default_name,
    denotes,
    direct_call,
    fold_anonymous,
    rename_edges,
    run_case,
)

# A main file `Main.js` (lines 1-based) and a module `Lib.js`:
#   Main.js: module-level code; function outer (2-9) with nested inner (3-5); class Box with two
#   methods named `get` (11-13 and 20-22: one in a second class Crate), a constructor (14).
#   Lib.js: module-level code; function helper (1-3).
NODES = [
    RippleNode("Main", None, 1, 30, "File", main=True),       # 0
    RippleNode("Main", "outer", 2, 9, "Function"),            # 1
    RippleNode("Main", "outer.inner", 3, 5, "Function"),      # 2
    RippleNode("Main", "Box", 10, 16, "Class"),               # 3
    RippleNode("Main", "Box.get", 11, 13, "Method"),          # 4
    RippleNode("Main", "Box.constructor", 14, 15, "Constructor"),  # 5
    RippleNode("Main", "Crate.get", 20, 22, "Method"),        # 6
    RippleNode("Lib", None, 1, 3, "File"),                    # 7
    RippleNode("Lib", "helper", 1, 3, "Function"),            # 8
]


def test_default_names() -> None:
    assert default_name(NODES[0], 0) == "<global>"
    assert default_name(NODES[7], 0) == "Lib.<global>"
    assert default_name(NODES[2], 1) == "Main.inner"  # the enclosing function is not part of it
    assert default_name(NODES[4], 2) == "Main.get:10"  # two callables `get`: 0-based line added


def test_denotes_names_lines_and_files() -> None:
    assert denotes("<global>", NODES[0])
    assert not denotes("<global>", NODES[7])  # another file's module-level code
    assert denotes("Main.inner", NODES[2])
    assert denotes("Main.outer.inner", NODES[2])  # a trailing part of the qualname
    assert not denotes("Main.outer", NODES[2])
    assert denotes("Main.get:10", NODES[4]) and denotes("Main.get:11", NODES[4])  # 0- or 1-based
    assert not denotes("Main.get:12", NODES[4])
    assert not denotes("Main.get:10", NODES[6])
    assert denotes("Main.get", NODES[6])  # no line: any `get`
    assert not denotes("Lib.inner", NODES[2])  # another file's stem
    assert not denotes("Main.<anonymous:3>", NODES[2])


def test_fold_anonymous() -> None:
    assert fold_anonymous("Main.<anonymous:3>", NODES) == "2"  # line 4 (1-based): inside inner
    assert fold_anonymous("Main.<anonymous:6>", NODES) == "1"  # line 7: outer only
    assert fold_anonymous("Main.<anonymous:25>", NODES) == "0"  # line 26: module level (class skipped)
    assert fold_anonymous("Main.inner", NODES) is None


def test_rename_edges_prefers_expected_names_and_splits_unlisted() -> None:
    expected = {("<global>", "Main.inner"), ("Main.inner", "Lib.helper"), ("Main.<anonymous:3>", "Main.get:10"),
                ("<global>", "Main.get:19")}
    edges = [
        (0, 2, False),  # <global> -> inner through a value: expected
        (2, 8, True),   # inner -> helper: expected
        (2, 4, False),  # code of an anonymous function in inner -> Box.get: expected (folded caller)
        (0, 1, True),   # <global> -> outer(...) written by name, no link of <global> calls `outer`: unlisted
        (0, 4, True),   # <global> -> Box.get by name, but <global>'s links call a `get`: a wrong guess
        (1, 8, False),  # outer -> helper through a value: an error
        (0, 3, True),   # to a Class node: dropped
    ]
    found, unlisted = rename_edges(edges, NODES, expected)
    assert found == {("<global>", "Main.inner"), ("Main.inner", "Lib.helper"), ("Main.<anonymous:3>", "Main.get:10"),
                     ("<global>", "Main.outer"), ("<global>", "Main.get:10"), ("Main.outer", "Lib.helper")}
    assert unlisted == {("<global>", "Main.outer")}
    assert ("<global>", "Main.get:19") not in found


def test_direct_call() -> None:
    text = "x = foo(1)\nrun(foo)\nconst b = new Box(2)\n@dec\nsuper (3)\n"
    foo = RippleNode("Main", "foo", 9, 9, "Function")
    ctor = RippleNode("Main", "Box.constructor", 14, 15, "Constructor")
    dec = RippleNode("Main", "dec", 9, 9, "Function")
    assert direct_call(text, 1, 4, foo)
    assert not direct_call(text, 2, 4, foo)  # handed as an argument, not called there
    assert direct_call(text, 3, 14, ctor)
    assert direct_call(text, 4, 1, dec)
    assert direct_call(text, 5, 0, ctor)
    assert not direct_call(text, 1, 4, dec)  # another name
    assert not direct_call(text, 9, 0, foo)  # no such line


def test_run_case_indexes_and_scores_a_written_case() -> None:
    case = JcgCase("HX1", "HigherOrder", "global", expected={
        "directLinks": [["HX1.apply", "HX1.twice"], ["<global>", "Native.console_log"]],
        "indirectLinks": ["HX1.never"]})
    case.files["hx/HX1.js"] = (
        "// hx/HX1.js\n"
        "function apply(fn) {\n"
        "    return fn(2);\n"
        "}\n"
        "function twice(x) {\n"
        "    return 2 * x;\n"
        "}\n"
        "function never() {}\n"
        "console.log(apply(twice));\n"
    )
    r = run_case(case)
    assert r.error is None
    assert r.expected == {("HX1.apply", "HX1.twice")}
    assert r.hits == {("HX1.apply", "HX1.twice")}
    assert r.unlisted == {("<global>", "HX1.apply")}
    assert r.extra == set() and r.exact
    assert r.builtin == {("<global>", "Native.console_log")}
    assert r.builtin_seen == {("<global>", "Native.console_log")}  # `log` is an unresolved site of <global>
    assert r.indirect == {"HX1.never"} and r.indirect_reached == set()


def test_a_caller_edge_to_a_function_a_builtin_calls_back_is_that_builtin_link() -> None:
    # Python `map(foo, arr)`: ripple's CALLS <global> -> foo is JCG's (Native.map, foo), unscored;
    # `bar`, reached through a value and listed nowhere, stays an error
    case = JcgCase("BX1", "Builtins", "global", expected={
        "directLinks": [["<global>", "Native.map"], ["Native.map", "BX1.foo"]]})
    case.files["bx/BX1.py"] = (
        "# bx/BX1.py\n"
        "def foo(x):\n"
        "    return x\n"
        "def bar():\n"
        "    pass\n"
        "arr2 = list(map(foo, [1, 2]))\n"
        "h = bar\n"
        "h()\n"
    )
    r = run_case(case)
    assert r.error is None
    assert r.found == {("<global>", "BX1.bar")}
    assert r.extra == {("<global>", "BX1.bar")} and not r.exact
    assert ("Native.map", "BX1.foo") in r.builtin_seen
