"""JavaScript / TypeScript higher-order flows, exact edges and what must not bind: a function returned
uncalled and then called (``pick()(x)``, ``const h = pick(); h(x)``), across files too; what is no
returned function (a parameter, a call, a local value, an anonymous callback's own ``return``)."""

from indexer.languages import extractor_for_path
from tests.resolution_harness import check


def _defs(path: str, source: str) -> dict[str, tuple[list[str], bool]]:
    out = extractor_for_path(path).extract(path, source.encode())
    return {d.qualname: (d.returned_refs, d.returns_other) for d in out.definitions if d.kind != "class"}


def test_returned_refs_are_names_of_functions_and_imports_only():
    defs = _defs("a.js", """
import { ext } from "./ext";
function target() {}
function plain() { return target; }
function either(c) { return c ? target : ext; }
function orDefault(h) { return h || target; }
const arrow = () => target;
function param(cb) { return cb; }
function called() { return target(); }
function local() { const v = 1; return v; }
function mixed(c) { if (c) return target; return 2; }
function callback(xs) { xs.map(function (x) { return target; }); }
function* gen() { return target; }
class K { m() { return this.n; } n() {} }
""")
    assert defs["plain"] == (["target"], False)
    assert defs["either"] == (["target", "ext"], False)
    assert defs["orDefault"] == (["target"], True)  # `h` is a parameter: something else may come back
    assert defs["arrow"] == (["target"], False)
    assert defs["K.m"] == (["this.n"], False)  # a bound method handed back
    assert defs["mixed"] == (["target"], True)
    for name in ("param", "called", "local", "callback", "gen", "target"):
        assert defs[name] == ([], False), name  # nothing returned uncalled (or only a callback's own return)


RETURNED = """
// --- path: lib/pick.js ---
export function bar(x) { return x; }
export function baz(x) { return x; }
export function pick() { return bar; }
export function pickEither(c) { return c ? bar : baz; }
export function value() { return 1; }
// --- path: app/main.js ---
import { pick, pickEither, value } from "../lib/pick";
function run() {
  pick()(1);
  const h = pick();
  h(2);
  pickEither(true)(3);
  value()(4);
  const v = value();
  v(5);
}
"""


def test_a_returned_function_called_through_the_call_or_a_variable():
    check(RETURNED, [
        "app/main.run(0) -> lib/pick.pick(0) [exact]",
        "app/main.run(0) -> lib/pick.bar(1) [exact]",  # pick()(1): the one function pick returns
        "app/main.run(0) -> lib/pick.bar(1) [inferred]",  # h(2) (through a variable), and pickEither's
        "app/main.run(0) -> lib/pick.pickEither(1) [exact]",
        "app/main.run(0) -> lib/pick.baz(1) [inferred]",  # either of two: inferred
        "app/main.run(0) -> lib/pick.value(0) [exact]",
        # value() returns no function: value()(4) and v(5) bind nothing
    ])


def test_a_call_handing_a_function_stays_the_value_definition_it_makes():
    # `const mapped = wrap(fn)` of a callee the file cannot read (imported) is a callable definition
    # of its own (values.scm): calling `mapped` runs it, not what `wrap` returns.
    check("""
// --- path: lib/w.ts ---
export function other(x: number) { return x; }
export function wrap(f: (x: number) => number) { return other; }
// --- path: lib/m.ts ---
import { wrap } from "./w";
function fn(x: number) { return x; }
export const mapped = wrap(fn);
export function use() { return mapped(1); }
""", [
        "lib/m.mapped(0) -> lib/m.fn(1) [exact]",
        "lib/m.mapped(0) -> lib/w.wrap(1) [exact]",
        "lib/m.use(0) -> lib/m.mapped(0) [exact]",  # not lib/w.other(1), what wrap returns
    ])


def test_a_call_of_a_local_factory_is_what_the_factory_returns():
    # `wrap` is a function of the file that returns a function uncalled (returns.factories): `mapped`
    # is no value definition, calling it runs what `wrap` returns, and `wrap`'s closure calls the
    # function handed to it (callbacks.py); the file's own code calls `wrap`.
    check("""
// --- path: lib/m.js ---
function fn(x) { return x; }
function wrap(f) { return function wrapped(x) { return f(x); }; }
export const mapped = wrap(fn);
export function use() { return mapped(1); }
""", [
        "lib/m.js -> lib/m.wrap(1) [exact]",
        "lib/m.use(0) -> lib/m.wrap.wrapped(1) [inferred]",
        "lib/m.wrap.wrapped(1) -> lib/m.fn(1) [inferred]",
        # not: a node `mapped`, `wrap -> fn` (the closure calls it)
    ])


def test_named_function_expressions_returned_and_called_through_result_chains():
    # JCG's Closures CL2: `sum(1)(2)(3)` calls sum, then what it returns (sum2), then what sum2
    # returns (sum3); the closure calls the function nested in `sum`.
    check("""
// --- path: cl.js ---
function sum(a) {
  function outside() { return 10; }
  return function sum2(b) {
    return function sum3(c) { return a + b + c + outside(); };
  };
}
function main() { sum(1)(2)(3); }
function other() { return function inner() {}; }
function direct() { inner(); }
""", [
        "cl.main(0) -> cl.sum(1) [exact]",
        "cl.main(0) -> cl.sum.sum2(1) [exact]",
        "cl.main(0) -> cl.sum.sum2.sum3(1) [inferred]",
        "cl.sum.sum2.sum3(1) -> cl.sum.outside(0) [exact]",
        # not: direct -> other.inner (a function expression's name is no name outside it)
    ])


VALUES = """
// --- path: lib/h.js ---
export function onStart() {}
export function onStop() {}
// --- path: app/main.js ---
import { onStart, onStop } from "../lib/h";
import * as bus from "./bus";
function local() {}
class Panel {
  error(e) {}
  bind(emitter) {
    emitter.on("close", this.error);
  }
  close() {
    try { run(); } catch (error) { report(error); }
  }
}
function wire(emitter, cb) {
  emitter.on("start", onStart);
  const handlers = [onStop, local];
  const table = { stop: onStop };
  const again = cb;
  register(again);
  return local;
}
"""


def test_functions_handed_on_as_values_are_references():
    check(VALUES, [
        "app/main.Panel.bind(1) -> app/main.Panel.error(1)",  # this.error handed to on()
        "app/main.wire(2) -> lib/h.onStart(0)",  # an argument
        "app/main.wire(2) -> lib/h.onStop(0)",  # an array element, a property's value
        "app/main.wire(2) -> app/main.local(0)",  # an array element, a returned value
        # not: Panel.close -> Panel.error for the catch parameter `error` (no bare name reaches a
        # method), the parameter `cb`
        # handed on, `again` (a local), `report` / `register` / `run` (globals)
    ], kind="REFERENCES")
