"""TypeScript / JavaScript call resolution: every hard case of the core issue, one named test each."""

from tests.resolution_harness import check, edges


def test_named_import_with_alias_and_js_extension_specifier():
    check(
        """
        // --- path: src/util.ts ---
        export function helper(x: number) { return x; }
        // --- path: src/main.ts ---
        import { helper as h } from "./util.js";

        export function main() {
          h(1);
        }
        """,
        ["src/main.main(0) -> src/util.helper(1) [exact]"],
    )


def test_reexports_aliases_star_and_index_module():
    check(
        """
        // --- path: lib/core/parse.ts ---
        export function parse(s: string) { return s; }
        function internal() {}
        export { internal as exposed };
        // --- path: lib/core/index.ts ---
        export * from "./parse";
        export { parse as parseAlias } from "./parse";
        // --- path: app.ts ---
        import { parse, parseAlias, exposed } from "./lib/core";
        import * as core from "./lib/core/index";

        function run() {
          parse("a");
          parseAlias("b");
          exposed();
          core.parse("c");
        }
        """,
        [
            "app.run(0) -> lib/core/parse.internal(0) [exact]",
            "app.run(0) -> lib/core/parse.parse(1) [exact]",
        ],
    )


def test_default_exports_and_const_alias():
    check(
        """
        // --- path: a.ts ---
        export default function compute(n: number) { return n; }
        // --- path: b.ts ---
        export default class Engine {
          start() {}
        }
        // --- path: c.ts ---
        function real() {}
        const alias = real;
        export default alias;
        // --- path: main.ts ---
        import compute from "./a";
        import Engine from "./b";
        import thing from "./c";

        function go() {
          compute(1);
          const e = new Engine();
          e.start();
          thing();
        }
        """,
        [
            "main.go(0) -> a.compute(1) [exact]",
            "main.go(0) -> b.Engine [exact]",
            "main.go(0) -> b.Engine.start(0) [inferred]",
            "main.go(0) -> c.real(0) [exact]",
        ],
    )


def test_this_field_from_constructor_parameter_property_and_interface_dispatch():
    check(
        """
        // --- path: repo.ts ---
        export interface Repo {
          find(id: number): string;
        }
        export class SqlRepo implements Repo {
          find(id: number): string { return ""; }
        }
        // --- path: service.ts ---
        import { Repo } from "./repo";

        export class Service {
          constructor(private repo: Repo) {}

          get(id: number) {
            this.validate(id);
            return this.repo.find(id);
          }

          validate(id: number) {}
        }
        """,
        [
            "service.Service.get(1) -> repo.Repo.find(1) [exact]",
            "service.Service.get(1) -> repo.SqlRepo.find(1) [inferred]",
            "service.Service.get(1) -> service.Service.validate(1) [exact]",
        ],
    )


def test_arrow_callbacks_belong_to_enclosing_named_function_and_const_arrow_is_a_function():
    check(
        """
        // --- path: m.ts ---
        function track(x: number) {}

        export const handler = (items: number[]) => {
          items.forEach((i) => track(i));
          setTimeout(function () { track(0); }, 10);
        };
        """,
        ["m.handler(1) -> m.track(1) [exact]"],
    )


def test_inherited_method_through_this_and_super():
    check(
        """
        // --- path: m.ts ---
        class Base {
          constructor(n: number) {}
          log(m: string) {}
        }
        class Child extends Base {
          constructor() { super(1); }
          run() { this.log("x"); super.log("y"); }
        }
        """,
        [
            "m.Child.constructor(0) -> m.Base.constructor(1) [inferred]",
            "m.Child.run(0) -> m.Base.log(1) [inferred]",
        ],
    )


def test_known_type_never_binds_unrelated_class_method():
    result = check(
        """
        // --- path: m.ts ---
        class A { close() {} }
        class B { open() {} }
        function go(b: B) { b.close(); }
        """,
        [],
    )
    assert [u.name for f in result.files for u in f.unresolved] == ["close"]


def test_commonjs_require_and_module_exports_in_javascript():
    check(
        """
        // --- path: lib/math.js ---
        function add(a, b) { return a + b; }
        function sub(a, b) { return a - b; }
        module.exports = { add, minus: sub };
        // --- path: index.js ---
        const math = require("./lib/math");
        const { minus } = require("./lib/math");

        function calc() {
          math.add(1, 2);
          minus(3, 1);
        }
        """,
        [
            "index.calc(0) -> lib/math.add(2) [exact]",
            "index.calc(0) -> lib/math.sub(2) [exact]",
        ],
    )


def test_typescript_imports_javascript_module():
    check(
        """
        // --- path: legacy.js ---
        export function old() {}
        // --- path: app.ts ---
        import { old } from "./legacy";
        function f() { old(); }
        """,
        ["app.f(0) -> legacy.old(0) [exact]"],
    )


def test_prototype_and_property_assigned_functions_in_javascript():
    # express 5: lib/view.js, lib/application.js, lib/utils.js
    result = check(
        """
        // --- path: lib/view.js ---
        var resolve = require("path").resolve;
        function View(name) { this.name = name; }
        View.prototype.lookup = function lookup(name) { return this.resolve(name, "x"); };
        View.prototype.resolve = function resolve(dir, file) { return tryStat(dir); };
        function tryStat(path) { return path; }
        module.exports = View;
        // --- path: lib/utils.js ---
        exports.compileETag = function (val) { return val; };
        // --- path: lib/application.js ---
        var View = require("./view");
        var utils = require("./utils");
        var app = exports = module.exports = {};
        app.render = function render(name) {
          var view = new View(name);  // `require` of a `module.exports = View` module: its View
          utils.compileETag(name);
          tryRender(view);
        };
        function tryRender(view) { view.render(); }
        """,
        [
            "lib/view.View.lookup(1) -> lib/view.View.resolve(2) [exact]",  # `this` in a prototype method
            "lib/view.View.resolve(2) -> lib/view.tryStat(1) [exact]",
            "lib/application.app.render(1) -> lib/view.View(1) [exact]",
            "lib/application.app.render(1) -> lib/utils.compileETag(1) [exact]",
            "lib/application.app.render(1) -> lib/application.tryRender(1) [exact]",
        ],
    )
    assert edges(result, "CONTAINS") == [
        "lib/application.js -> lib/application.app.render(1)",
        "lib/application.js -> lib/application.tryRender(1)",
        "lib/utils.js -> lib/utils.compileETag(1)",
        "lib/view.View(1) -> lib/view.View.lookup(1)",
        "lib/view.View(1) -> lib/view.View.resolve(2)",
        "lib/view.js -> lib/view.View(1)",
        "lib/view.js -> lib/view.tryStat(1)",
    ]


def test_property_assigned_function_sees_module_scope_not_sibling_properties():
    # express lib/response.js: inside res.sendFile, `send(...)` is the required package, not res.send.
    result = check(
        """
        // --- path: response.js ---
        var send = require("send");
        var res = Object.create(null);

        res.send = function send(body) { return body; };

        res.sendFile = function sendFile(path) {
          var file = send(path);
          this.send(file);
        };
        """,
        # `this` in a function assigned to a property of `res` is `res`: this.send is res.send
        ["response.res.sendFile(1) -> response.res.send(1) [exact]"],
    )
    assert result.call_outcomes == {"external": 1, "exact": 1, "unresolved": 1}  # + Object.create


def test_new_chain_binds_the_constructed_class_among_several_declaring_the_method():
    """Issue 16 item 12: ``new A().m()`` is A's ``m``, never B's (both declare it, so a name match
    could not choose); a function named like the class is no ``new``."""
    result = check(
        """
// --- path: src/shapes.ts ---
export class Circle { area() { return 1; } }
export class Square { area() { return 2; } }
export function newCircle() { return 0; }
// --- path: src/main.ts ---
import { Circle, Square } from "./shapes";
export function total() {
    return new Circle().area() + (new Square()).area();
}
""",
        [
            "src/main.total(0) -> src/shapes.Circle [exact]",
            "src/main.total(0) -> src/shapes.Circle.area(0) [exact]",
            "src/main.total(0) -> src/shapes.Square [exact]",
            "src/main.total(0) -> src/shapes.Square.area(0) [exact]",
        ],
    )
    assert [u.name for f in result.files for u in f.unresolved] == []
