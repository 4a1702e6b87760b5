"""TypeScript / JavaScript call patterns of issue 16, item 12 (one named test each, exact edges and
what must not bind): CommonJS ``module.exports = function name()`` and ``module.exports = {...}``
under ``require``, a ``require``d constructor function and its prototype methods, class fields
initialised with ``new X()`` or Angular's ``inject(X)``, and ``this`` inside a plain ``function``
callback (not the class)."""

from tests.resolution_harness import check, edges

COMMONJS = """
// --- path: lib/greet.js ---
module.exports = function greet(name) { return helper(name); };
function helper(n) { return n; }
// --- path: lib/util.js ---
module.exports = {
  slug(s) { return s; },
  trim: function (s) { return s; },
  upper: (s) => s,
};
// --- path: lib/anon.js ---
module.exports = function (a) { return a; };
"""


def test_module_exports_function_and_object_under_require():
    result = check(COMMONJS + """
// --- path: app/main.js ---
const greet = require("../lib/greet");
const util = require("../lib/util");
const { slug } = require("../lib/util");
const anon = require("../lib/anon");
function run() {
  greet("x");
  util.slug("a");
  util.trim("b");
  util.upper("c");
  slug("d");
  util.missing();
  anon(1);
}
""", [
        "lib/greet.greet(1) -> lib/greet.helper(1) [exact]",  # the function owns its body's calls
        "app/main.run(0) -> lib/greet.greet(1) [exact]",
        "app/main.run(0) -> lib/util.slug(1) [exact]",
        "app/main.run(0) -> lib/util.trim(1) [exact]",
        "app/main.run(0) -> lib/util.upper(1) [exact]",
        "app/main.run(0) -> lib/anon.default(1) [exact]",  # an anonymous `module.exports = function`
    ])
    assert sorted(u.name for f in result.files for u in f.unresolved) == ["missing"]  # no such export


def test_required_constructor_function_and_prototype_methods():
    check("""
// --- path: lib/View.js ---
function View(name) { this.name = name; }
View.prototype.render = function () { return this.lookup(); };
View.prototype.lookup = function () { return 1; };
module.exports = View;
// --- path: lib/Other.js ---
function Other() { }
Other.prototype.render = function () { return 2; };
module.exports = Other;
// --- path: app/main.js ---
const View = require("../lib/View");
function show() {
  const v = new View("v");
  v.render();
}
""", [
        "lib/View.View.render(0) -> lib/View.View.lookup(0) [exact]",
        "app/main.show(0) -> lib/View.View(1) [exact]",
        "app/main.show(0) -> lib/View.View.render(0) [inferred]",  # never Other's render
    ])


def test_class_fields_initialised_with_new_and_angular_inject():
    result = check("""
// --- path: src/svc.ts ---
export class Service { load() { return 1; } }
export class Other { load() { return 2; } }
// --- path: src/inject.ts ---
export function inject(x: unknown) { return x; }
// --- path: src/comp.ts ---
import { inject } from "@angular/core";
import { inject as own } from "./inject";
import { Service, Other } from "./svc";
export class Comp {
  private svc = new Service();
  private other = inject(Other);
  private mine = own(Other);
  go() {
    this.svc.load();
    this.other.load();
    this.mine.load();
  }
}
""", [
        "src/comp.Comp -> src/svc.Service [exact]",
        "src/comp.Comp -> src/inject.inject(1) [exact]",
        "src/comp.Comp.go(0) -> src/svc.Service.load(0) [inferred]",
        "src/comp.Comp.go(0) -> src/svc.Other.load(0) [exact]",
    ])
    # `own(Other)` is the repository's own `inject`, not Angular's: its result is unknown
    assert [(u.name, u.receiver) for f in result.files for u in f.unresolved] == [("load", "this.mine")]


def test_a_call_on_angular_inject_is_a_call_on_the_injected_class():
    result = check("""
// --- path: src/svc.ts ---
export class TagsService { getAll() { return 1; } }
export class Other { getAll() { return 2; } }
// --- path: src/inject.ts ---
export function inject(x: unknown) { return x; }
// --- path: src/home.ts ---
import { inject } from "@angular/core";
import { TagsService } from "./svc";
export class Home {
  tags$ = inject(TagsService).getAll();
  load() { return inject(TagsService).getAll(); }
}
// --- path: src/mine.ts ---
import { inject } from "./inject";
import { Other } from "./svc";
export const x = inject(Other).getAll();
""", [
        "src/home.Home -> src/svc.TagsService.getAll(0) [exact]",  # a field's initialiser
        "src/home.Home.load(0) -> src/svc.TagsService.getAll(0) [exact]",
        "src/mine.ts -> src/inject.inject(1) [exact]",
    ])
    # the repository's own `inject` is not Angular's: what it returns is unknown, Other.getAll is not called
    assert [(u.name, u.receiver) for f in result.files for u in f.unresolved] == [("getAll", "inject()")]


def test_this_in_a_plain_function_callback_is_not_the_class():
    result = check("""
// --- path: src/comp.ts ---
export class Comp {
  go(items: number[]) {
    items.forEach(function () { this.load(); });
    items.forEach(() => { this.load(); });
    const f = function named() { return 1; };
  }
  load() { return 3; }
}
// --- path: src/other.ts ---
export class Other { load() { return 4; } }
""", [
        "src/comp.Comp.go(1) -> src/comp.Comp.load(0) [exact]",  # the arrow's `this` only
    ])
    assert [(u.name, u.receiver, u.line) for f in result.files for u in f.unresolved if u.name == "load"] == [
        ("load", "function.this", 3)]


def test_typescript_namespaces_keep_their_name_nested_and_merged():
    result = check("""
// --- path: src/ns.ts ---
export namespace A {
  export function f() {}
  export namespace B {
    export function g() {}
  }
}
export namespace A {
  export function h() {}
}
namespace Local {
  export function f() {}
  export function inner() { f(); }
}
export function f() {}
export function run() {
  A.f();
  A.B.g();
  A.h();
  Local.f();
  f();
}
// --- path: src/use.ts ---
import { A } from "./ns";
export function go() {
  A.f();
  A.B.g();
  A.h();
  A.g();
}
""", [
        # inside a namespace, its own `f` shadows the module's; outside, `f()` is the module's
        "src/ns.Local.inner(0) -> src/ns.Local.f(0) [exact]",
        "src/ns.run(0) -> src/ns.A.f(0) [exact]",
        "src/ns.run(0) -> src/ns.A.B.g(0) [exact]",
        "src/ns.run(0) -> src/ns.A.h(0) [exact]",    # declared in the second block of the merged A
        "src/ns.run(0) -> src/ns.Local.f(0) [exact]",
        "src/ns.run(0) -> src/ns.f(0) [exact]",
        "src/use.go(0) -> src/ns.A.f(0) [exact]",
        "src/use.go(0) -> src/ns.A.B.g(0) [exact]",
        "src/use.go(0) -> src/ns.A.h(0) [exact]",
    ])
    # `A.g()`: g is B's, not A's: nothing binds
    assert [(u.name, u.receiver) for f in result.files for u in f.unresolved] == [("g", "A")]
    ns = next(f for f in result.files if f.file.path == "src/ns.ts")
    assert sorted((n.id.removeprefix("t:"), n.label) for n in ns.nodes if "namespace" in n.props.get("modifiers", ())) == [
        ("src/ns.A", "Class"), ("src/ns.A#2", "Class"), ("src/ns.A.B", "Class"), ("src/ns.Local", "Class")]


def test_a_type_position_means_the_interface_when_a_const_shares_its_name():
    # zod: `export interface ZodType {...}` and `export const ZodType = core.$constructor("ZodType",
    # (inst, def) => {...})`; `interface ZodString extends _ZodString<...>` reached the const.
    result = check("""
// --- path: src/core.ts ---
export interface Ctor<T> { new (def: unknown): T; }
export function make(name: string, init: (inst: unknown) => void): any { return null; }
// --- path: src/schemas.ts ---
import { make, Ctor } from "./core";
export interface ZodType {
  parse(data: unknown): unknown;
}
export const ZodType: Ctor<ZodType> = make("ZodType", (inst) => {});
export interface ZodString extends ZodType {
  email(): ZodString;
}
export function string(): ZodString { return null as any; }
// --- path: src/use.ts ---
import * as z from "./schemas";
export function go() {
  z.string().email().parse(1);
  z.string().missing();
}
""", [
        "src/schemas.ts -> src/core.make(2) [exact]",  # the const is no definition: the interface is
        "src/use.go(0) -> src/schemas.string(0) [exact]",
        "src/use.go(0) -> src/schemas.ZodString.email(0) [inferred]",
        "src/use.go(0) -> src/schemas.ZodType.parse(1) [inferred]",
    ])
    assert edges(result, "EXTENDS") == ["src/schemas.ZodString -> src/schemas.ZodType"]
    # a known type lacking the member: unresolved, never matched by name
    assert [(u.name, u.receiver) for f in result.files for u in f.unresolved] == [("missing", "z.string()")]


def test_an_interface_member_is_no_name_match_target_but_still_makes_a_name_ambiguous():
    result = check("""
// --- path: src/next.ts ---
export interface NextBase {
  useUtils(): unknown;
  concat(x: unknown): unknown;
}
// --- path: src/builder.ts ---
export const builder = {
  concat(x: unknown) { return x; },
};
export class Impl {
  refresh() {}
}
// --- path: src/use.ts ---
export function go(trpc: any, list: any, view: any) {
  trpc.useUtils();      // only an interface declares it: no code to run there
  list.concat([1]);     // an interface member and the builder's: ambiguous, as before
  view.refresh();       // a unique method with a body: matched by name
}
""", [
        "src/use.go(3) -> src/builder.Impl.refresh(0) [name]",
    ])
    assert sorted(u.name for f in result.files for u in f.unresolved) == ["concat", "useUtils"]


def test_this_in_a_function_assigned_to_an_object_property_is_that_object():
    # express lib/application.js: `app.enabled = function (setting) { return Boolean(this.set(setting)) }`
    # reads a setting through `app.set(setting, val)` with one argument (JavaScript takes any count).
    check("""
// --- path: lib/app.js ---
var app = exports = module.exports = {};
app.set = function set(setting, val) { return val; };
app.enabled = function enabled(setting) { return Boolean(this.set(setting)); };
app.init = function init() { this.defaultConfiguration(); };
function helper() { return this.set(1); }
function View(name) { this.name = name; }
View.prototype.lookup = function lookup(name) { return this.set(name); };
""", [
        "lib/app.app.enabled(1) -> lib/app.app.set(2) [exact]",
    ])


def test_chained_property_assignments_define_every_name():
    # express lib/response.js: `res.set = res.header = function header(field, val) {}` on an object made
    # by `Object.create(...)`: both names are definitions; `this.set(...)` in another res method binds
    # exactly; calling res.set runs res.header's body (an edge res.set -> res.header); a name match no
    # longer sends res.set's calls to the only `set` it knew (app.set), nor app code's to res's
    check("""
// --- path: lib/response.js ---
var res = Object.create(null);
res.set = res.header = function header(field, val) { return this.setHeader(field, val); };
res.setHeader = function setHeader(f, v) { return v; };
res.json = function json(obj) { this.set('Content-Type', 'json'); return this.header('X', obj); };
module.exports = res;
// --- path: lib/application.js ---
var app = exports = module.exports = {};
app.set = function set(setting, val) { return val; };
function unknown(x) { return x.set('a', 1); }
""", [
        "lib/response.res.header(2) -> lib/response.res.setHeader(2) [exact]",
        "lib/response.res.json(1) -> lib/response.res.header(2) [exact]",
        "lib/response.res.json(1) -> lib/response.res.set(2) [exact]",
        "lib/response.res.set(2) -> lib/response.res.header(2) [exact]",
    ])


def test_a_static_and_a_prototype_member_assigned_one_function_are_no_scope_of_each_other():
    # bluebird's context.js: `Promise._peekContext = Promise.prototype._peekContext = function() {}`
    # in `module.exports = function (Promise) {...}` makes a function and a method of one qualname and
    # one span; taking one as the other's lexical scope looped every name lookup in it (main hung).
    result = check("""
// --- path: src/ctx.js ---
function helper() { return 1; }
module.exports = function (Promise) {
  Promise._peek = Promise.prototype._peek = function () { return helper(); };
};
""", [
        # the anonymous `module.exports = function` is the module's function `default` (js45)
        "src/ctx.default.Promise._peek(0) -> src/ctx.helper(0) [exact]",
    ])
    assert [n.qualname for n in result.files[0].nodes if n.qualname and "_peek" in n.qualname] == [
        "default.Promise._peek", "default.Promise._peek"]
