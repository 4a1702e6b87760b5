"""A JavaScript / TypeScript assignment to a name its function declares binds like the declaration
(:mod:`indexer.languages.ecmascript.assignments`): straight-line reassignment replaces the earlier value,
every branch of a closed ``if`` / ``else`` chain assigning the name forms the union after the chain;
an assignment in another function, ``node = node.next`` and an ``if`` without ``else`` do not."""

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
        (27, "lib.main(3)", "lib.b(0)", "exact"),  # no else: the branch's binding is the last written
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
