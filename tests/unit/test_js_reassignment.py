"""A JavaScript / TypeScript assignment to a name its function declares binds like the declaration
(:mod:`indexer.languages.ecmascript.assignments`): straight-line reassignment replaces the earlier value,
the values the branches of an ``if`` chain leave form the union after the chain (with the earlier value
when a branch assigns nothing or there is no ``else``; none of a branch that returns); an assignment in
another function and ``node = node.next`` bind nothing."""

from __future__ import annotations

from indexer.languages.ecmascript.javascript import EXTRACTOR
from tests.resolution_harness import resolve_fixture

JS = """
// --- path: lib.js ---
function a() {}
function b() {}
function f() {}
function g() {}
class C { m() {} }
class D { m() {} }
class E { m() {} }
function main(x, c, p) {
  let u = c ? new C() : new E();
  u = new D();
  u.m();
  let h;
  if (x) h = f; else h = g;
  h();
  let k = a;
  if (x) {
    k = b;
  } else if (c) {
    k = f;
    k();
  } else {
    k = g;
  }
  k();
  let j = a;
  if (x) j = b;
  j();
  p = new C();
  p.m();
  let n = new C();
  n = n.next;
  n.m();
}
let outer = new C();
function other() { outer = new D(); }
function user() { outer.m(); }
module.exports = { main, other, user };
"""


def _sites(src: str) -> list[tuple[int, str, str, str]]:
    result = resolve_fixture(src)
    return sorted((e.line, e.src.split(":", 1)[1], e.dst.split(":", 1)[1], e.resolution)
                  for f in result.files for e in f.edges if e.kind == "CALLS")


def test_reassignment_replaces_and_closed_branches_join() -> None:
    assert _sites(JS) == [
        (9, "lib.main(3)", "lib.C", "exact"), (9, "lib.main(3)", "lib.E", "exact"),
        (10, "lib.main(3)", "lib.D", "exact"),
        (11, "lib.main(3)", "lib.D.m(0)", "inferred"),  # u = new D() replaced c ? new C() : new E()
        (14, "lib.main(3)", "lib.f(0)", "inferred"), (14, "lib.main(3)", "lib.g(0)", "inferred"),  # h: f or g
        (20, "lib.main(3)", "lib.f(0)", "exact"),  # inside its branch: that branch's value
        (24, "lib.main(3)", "lib.b(0)", "inferred"), (24, "lib.main(3)", "lib.f(0)", "inferred"),
        (24, "lib.main(3)", "lib.g(0)", "inferred"),  # k after the closed chain: b, f or g; never a
        (27, "lib.main(3)", "lib.a(0)", "inferred"),  # no else: a (written before) or b
        (27, "lib.main(3)", "lib.b(0)", "inferred"),
        (28, "lib.main(3)", "lib.C", "exact"),
        (29, "lib.main(3)", "lib.C.m(0)", "inferred"),  # a parameter reassigned
        (30, "lib.main(3)", "lib.C", "exact"),
        (32, "lib.main(3)", "lib.C.m(0)", "inferred"),  # `n = n.next` says nothing new: n stays a C
        (34, "lib.js", "lib.C", "exact"),
        (35, "lib.other(0)", "lib.D", "exact"),
        (36, "lib.user(0)", "lib.C.m(0)", "inferred"),  # another function's assignment changes nothing here
    ]


def test_only_declared_names_are_bound() -> None:
    src = JS.split("\n", 2)[2].encode()
    out = EXTRACTOR.extract("lib.js", src)
    got = sorted((b.scope or "", b.name, b.type, b.how, b.line) for b in out.bindings
                 if b.name in ("h", "k", "outer", "n", "p"))
    assert got == [
        ("", "outer", "C", "constructed", 34),  # the declaration only: other()'s assignment is not bound
        ("main", "h", "f", "alias", 13), ("main", "h", "g", "alias", 13),  # one line: branch and join alike
        ("main", "k", "a", "alias", 15), ("main", "k", "b", "alias", 17), ("main", "k", "b", "alias", 23),
        ("main", "k", "f", "alias", 19), ("main", "k", "f", "alias", 23),
        ("main", "k", "g", "alias", 22), ("main", "k", "g", "alias", 23),  # each branch again on the `}` line
        ("main", "n", "C", "constructed", 30),  # not `n.next`
        ("main", "p", "C", "constructed", 28),
    ]


TS = """
// --- path: m.ts ---
export class Base { m(): void {} }
export class A extends Base { m(): void {} }
export class B extends Base { m(): void {} }
export function run(flag: boolean, repo: Base) {
  let s: Base = new A();
  s = new B();
  s.m();
  repo.m();
  repo = new A();
  repo.m();
}
"""


def test_typescript_reassignment_of_a_declared_local_and_parameter() -> None:
    assert _sites(TS) == [
        (5, "m.run(2)", "m.A", "exact"), (6, "m.run(2)", "m.B", "exact"),
        (7, "m.run(2)", "m.B.m(0)", "inferred"),  # s holds the B assigned last, not A's m nor every override
        (8, "m.run(2)", "m.A.m(0)", "inferred"), (8, "m.run(2)", "m.B.m(0)", "inferred"),  # before: the declared
        (8, "m.run(2)", "m.Base.m(0)", "exact"),  # parameter type, dispatched as before
        (9, "m.run(2)", "m.A", "exact"),
        (10, "m.run(2)", "m.A.m(0)", "inferred"),  # after `repo = new A()`
    ]


NESTED = """
// --- path: n.js ---
function viaList() {}
function viaCache() {}
class Runnable { clearTimeout() {} }
class Fallback { clearTimeout() {} }
function difference(values, large, cache) {
  let indexOf = viaList;
  if (large) {
    if (cache) {
      indexOf = viaCache;
    } else {
      large = false;
    }
  }
  indexOf(values);
}
function uncaught(current) {
  let runnable = current || new Fallback();
  if (!current) {
    runnable = new Runnable();
    return;
  }
  runnable.clearTimeout();
}
module.exports = { difference, uncaught };
"""


def test_nested_branches_keep_the_earlier_value_and_a_returning_branch_leaves_none() -> None:
    assert _sites(NESTED) == [
        (14, "n.difference(3)", "n.viaCache(0)", "inferred"),  # set in a nested branch
        (14, "n.difference(3)", "n.viaList(0)", "inferred"),  # kept by the else and by the outer if's absence
        (17, "n.uncaught(1)", "n.Fallback", "exact"),
        (19, "n.uncaught(1)", "n.Runnable", "exact"),
        (22, "n.uncaught(1)", "n.Fallback.clearTimeout(0)", "inferred"),  # the branch returned: not Runnable's
    ]


LOOPS = """
// --- path: l.js ---
function a() {}
function f() {}
function g() {}
function r() {}
function main(k, c, xs) {
  let h;
  switch (k) {
    case "a": h = f; break;
    case "b": h = g; break;
  }
  h();
  let s = a;
  switch (k) {
    case "x":
    case "y":
      s = f;
      break;
    case "z":
      s = r;
      return;
    default:
      s = g;
  }
  s();
  let l = a;
  for (const x of xs) {
    if (c) l = f;
    l();
  }
  l();
  let b = a;
  for (const x of xs) {
    if (x) { b = f; break; }
    b = g;
  }
  b();
  let d = a;
  do { d = f; } while (c);
  d();
  let z = a;
  z = f;
  z = g;
  z();
  let t = a;
  for (const x of xs) {
    t();
    t = g;
  }
  let w = a;
  while (c) {
    w();
  }
}
module.exports = { main };
"""


def test_switch_and_loops_join_and_straight_line_still_replaces() -> None:
    assert _sites(LOOPS) == [
        (11, "l.main(3)", "l.f(0)", "inferred"),  # no default: f or g (`let h;` held nothing)
        (11, "l.main(3)", "l.g(0)", "inferred"),
        (24, "l.main(3)", "l.f(0)", "inferred"),  # "x" falls through to "y": f; default: g
        (24, "l.main(3)", "l.g(0)", "inferred"),  # never r (that case returns), never a (a default)
        (28, "l.main(3)", "l.a(0)", "inferred"),  # inside the loop: its `if`'s join
        (28, "l.main(3)", "l.f(0)", "inferred"),
        (30, "l.main(3)", "l.a(0)", "inferred"),  # after it: no iteration (a) or one that set f
        (30, "l.main(3)", "l.f(0)", "inferred"),
        (36, "l.main(3)", "l.a(0)", "inferred"),  # no iteration, the body's end (g), the `break` (f)
        (36, "l.main(3)", "l.f(0)", "inferred"),
        (36, "l.main(3)", "l.g(0)", "inferred"),
        (39, "l.main(3)", "l.f(0)", "exact"),  # a `do` body runs once: never a
        (43, "l.main(3)", "l.g(0)", "exact"),  # straight-line reassignment replaces: never a nor f
        (46, "l.main(3)", "l.a(0)", "inferred"),  # the top of a loop body: the first iteration (a) and
        (46, "l.main(3)", "l.g(0)", "inferred"),  # a later one, after the body set g
        (51, "l.main(3)", "l.a(0)", "exact"),  # a body assigning nothing: only the value before
    ]
