"""The JavaScript extractor on small fixtures: exact records, positions included."""

from __future__ import annotations

from pathlib import Path

from indexer.languages import extractor_for_path
from indexer.languages.ecmascript.javascript import EXTRACTOR
from indexer.model import Binding, CallSite, Definition, Export, FileExtraction, Import, Param

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "javascript"


def extract(source: str, path: str = "src/app.js") -> FileExtraction:
    result = EXTRACTOR.extract(path, source.encode("utf-8"))
    assert result.language == "javascript"
    return result


def store() -> FileExtraction:
    """``fixtures/javascript/store.js``: CommonJS, a class with private members, JSX in a .js file."""
    return EXTRACTOR.extract("src/store.js", (FIXTURES / "store.js").read_bytes())


def test_registry_claims_javascript_suffixes() -> None:
    for path in ("a.js", "b.jsx", "c.mjs", "d.cjs"):
        assert extractor_for_path(path) is EXTRACTOR


def test_store_definitions_exact() -> None:
    r = store()
    assert r.errors == []  # JSX parses in a .js file
    assert r.definitions == [
        Definition(
            kind="class", name="OwnerStore", qualname="OwnerStore", parent=None,
            start_line=8, start_col=0, end_line=20, end_col=1, name_line=8, name_col=6,
            signature="class OwnerStore extends Base", bases=["Base"], docstring="Owner store.",
        ),
        Definition(
            kind="field", name="#count", qualname="OwnerStore.#count", parent="OwnerStore",
            start_line=9, start_col=2, end_line=9, end_col=19, name_line=9, name_col=9,
            signature="static #count", modifiers=["static"],
        ),
        Definition(
            kind="field", name="cache", qualname="OwnerStore.cache", parent="OwnerStore",
            start_line=10, start_col=2, end_line=10, end_col=19, name_line=10, name_col=2,
            signature="cache",
        ),
        Definition(
            kind="method", name="load", qualname="OwnerStore.load", parent="OwnerStore",
            start_line=11, start_col=2, end_line=11, end_col=38, name_line=11, name_col=2,
            signature="load = async (id) =>", params=[Param("id")], modifiers=["async"],
        ),
        Definition(
            kind="constructor", name="constructor", qualname="OwnerStore.constructor",
            parent="OwnerStore", start_line=12, start_col=2, end_line=16, end_col=3, name_line=12,
            name_col=2, signature="constructor(db)", params=[Param("db")],
        ),
        Definition(
            kind="method", name="#fetch", qualname="OwnerStore.#fetch", parent="OwnerStore",
            start_line=17, start_col=2, end_line=19, end_col=3, name_line=17, name_col=8,
            signature="async #fetch(id, opts = {}, ...rest)",
            params=[Param("id"), Param("opts", has_default=True), Param("rest", variadic="*")],
            modifiers=["async"],
        ),
        Definition(
            kind="function", name="makeApp", qualname="makeApp", parent=None,
            start_line=22, start_col=0, end_line=28, end_col=1, name_line=22, name_col=9,
            signature="function makeApp()",
        ),
        # Object-literal methods (routes.list, routes.show) are not definitions.
        Definition(
            kind="function", name="handler", qualname="makeApp.handler", parent="makeApp",
            start_line=24, start_col=2, end_line=24, end_col=62, name_line=24, name_col=8,
            signature="const handler = function (req, res)", params=[Param("req"), Param("res")],
        ),
        # The functions of an object literal bound to a name are its functions (issue 14): `routes.list`.
        Definition(
            kind="function", name="list", qualname="makeApp.routes.list", parent="makeApp.routes",
            start_line=25, start_col=19, end_line=25, end_col=48, name_line=25, name_col=19, signature="list()",
        ),
        Definition(
            kind="function", name="show", qualname="makeApp.routes.show", parent="makeApp.routes",
            start_line=25, start_col=50, end_line=25, end_col=72, name_line=25, name_col=50, signature="show: () =>",
        ),
    ]  # fmt: skip


def test_store_calls() -> None:
    assert store().calls == [
        CallSite("OwnerStore", "Map", None, 0, 10, 14, is_new=True),
        CallSite("OwnerStore.load", "#fetch", "this", 1, 11, 28),
        CallSite("OwnerStore.constructor", "super", None, 1, 13, 4),
        CallSite("OwnerStore.constructor", "Logger", None, 1, 15, 19, is_new=True),
        CallSite("OwnerStore.#fetch", "query", "this.db", 1, 18, 19),
        CallSite("OwnerStore.#fetch", "then", "this.db.query()", 1, 18, 29),
        CallSite("OwnerStore.#fetch", "map", "rows", 1, 18, 49),
        CallSite("makeApp", "express", None, 0, 23, 14),
        CallSite("makeApp.handler", "send", "res", 1, 24, 44),
        CallSite("makeApp.handler", "render", None, 0, 24, 49),
        CallSite("makeApp.routes.list", "fetchAll", None, 0, 25, 35),  # an object-literal method's own
        CallSite("makeApp.routes.show", "fetchOne", None, 0, 25, 62),
        CallSite("makeApp", "get", "app", 2, 26, 6),
    ]


def test_store_imports_exports_bindings() -> None:
    r = store()
    assert r.imports == [
        Import("express", "express", None, line=1),
        Import("Router", "express", "Router", line=2),
        Import("parseJson", "express", "json", line=2),
        Import("helpers", "./helpers", "default", line=3),
    ]
    assert r.exports == [
        Export("OwnerStore", local="OwnerStore"),
        Export("app", local="makeApp"),
        Export("helpers", local="helpers"),
    ]
    assert r.bindings == [
        Binding("OwnerStore", "this.cache", "Map", "constructed", 10),  # a field `cache = new Map()`
        Binding("OwnerStore", "cache", "Map", "constructed", 10),
        Binding("makeApp", "routes", "routes", "object", 25),  # an object literal of definitions
        Binding("OwnerStore", "this.db", "db", "alias", 14),  # the constructor's parameter kept in a field
        Binding("OwnerStore", "this.log", "Logger", "constructed", 15),
        Binding("makeApp", "app", "express", "constructed", 23),  # `const app = express()`: what it returns
    ]
    assert r.type_uses == [] and r.injections == []


def test_esm_modules() -> None:
    r = extract(
        'import React, { useState as useS } from "react";\n'
        'import * as api from "./api.js";\n'
        'import "./polyfill.js";\n'
        "export function App() { return api.load(useS(0)); }\n"
        "export default class extends React.Component {}\n"
        'export { App as Main };\n'
        'export * from "./more.js";\n'
        "export const client = api.client;\n"
    )
    assert r.imports == [
        Import("React", "react", "default", line=1),
        Import("useS", "react", "useState", line=1),
        Import("api", "./api.js", None, line=2),
    ]
    assert [(d.kind, d.qualname, d.exported, d.bases) for d in r.definitions] == [
        ("function", "App", True, []),
        ("class", "default", True, ["React.Component"]),
    ]
    assert r.exports == [
        Export("Main", local="App"),
        Export("*", module="./more.js"),
        Export("client", local="client"),
    ]
    assert r.bindings == [Binding(None, "client", "api.client", "alias", 8)]
    assert r.calls == [CallSite("App", "load", "api", 1, 4, 35), CallSite("App", "useS", None, 1, 4, 40)]


def test_commonjs_export_forms() -> None:
    r = extract(
        "function f() {}\n"
        "module.exports = f;\n"
        "module.exports.g = f;\n"
        "exports.h = f;\n"
        "exports.value = 42;\n"
    )
    assert r.exports == [
        Export("default", local="f"),
        Export("g", local="f"),
        Export("h", local="f"),
    ]


def test_typescript_compiled_commonjs() -> None:
    r = extract(
        'const core = __importStar(require("../core/index.cjs"));\n'
        '__exportStar(require("./schemas.cjs"), exports);\n'
    )
    assert r.imports == [Import("core", "../core/index.cjs", None, line=1)]
    assert r.exports == [Export("*", module="./schemas.cjs")]


def test_bad_input_never_raises() -> None:
    broken = extract("function a() { g(; }\nclass B { m() { h(); } }\n")
    assert broken.errors
    assert CallSite("B.m", "h", None, 0, 2, 16) in broken.calls

    latin1 = EXTRACTOR.extract("x.js", b"var s = '\xe9t\xe9'; f(s);\n")
    assert [(c.name, c.col) for c in latin1.calls] == [("f", 15)]  # one U+FFFD per invalid byte

    assert extract("") == FileExtraction(path="src/app.js", language="javascript")


PROTOTYPE_SRC = """\
var resolve = require("path").resolve;

function View(name) {
  this.root = name;
}

/** Look the view up. */
View.prototype.lookup = function lookup(name) {
  return this.resolve(name);
};
View.prototype.resolve = async (dir) => tryStat(resolve(dir));
app.render = function render(name, cb) {
  tryRender(name, cb);
};
exports.compile = function (val) { return build(val); };
module.exports.send = function* send() {};
if (legacy) {
  exports.compile = function (val) {};
}
function setup() {
  Widget.prototype.draw = function () { paint(); };
}
module.exports = function () {};
"""


def test_prototype_and_property_assigned_functions() -> None:
    r = extract(PROTOTYPE_SRC)
    assert r.errors == []
    assert r.definitions == [
        Definition(
            kind="function", name="View", qualname="View", parent=None,
            start_line=3, start_col=0, end_line=5, end_col=1, name_line=3, name_col=9,
            signature="function View(name)", params=[Param("name")],
        ),
        Definition(
            kind="method", name="lookup", qualname="View.lookup", parent="View",
            start_line=8, start_col=0, end_line=10, end_col=2, name_line=8, name_col=15,
            signature="View.prototype.lookup = function lookup(name)", params=[Param("name")],
            docstring="Look the view up.",
        ),
        Definition(
            kind="method", name="resolve", qualname="View.resolve", parent="View",
            start_line=11, start_col=0, end_line=11, end_col=62, name_line=11, name_col=15,
            signature="View.prototype.resolve = async (dir) =>", params=[Param("dir")],
            modifiers=["async"],
        ),
        # The owner need not be a definition of the file: `app` is the parent all the same.
        Definition(
            kind="function", name="render", qualname="app.render", parent="app",
            start_line=12, start_col=0, end_line=14, end_col=2, name_line=12, name_col=4,
            signature="app.render = function render(name, cb)", params=[Param("name"), Param("cb")],
        ),
        Definition(
            kind="function", name="compile", qualname="compile", parent=None,
            start_line=15, start_col=0, end_line=15, end_col=56, name_line=15, name_col=8,
            signature="exports.compile = function (val)", params=[Param("val")], exported=True,
        ),
        Definition(
            kind="function", name="send", qualname="send", parent=None,
            start_line=16, start_col=0, end_line=16, end_col=42, name_line=16, name_col=15,
            signature="module.exports.send = function* send()", exported=True,
        ),
        Definition(
            kind="function", name="compile", qualname="compile", parent=None,
            start_line=18, start_col=2, end_line=18, end_col=38, name_line=18, name_col=10,
            signature="exports.compile = function (val)", params=[Param("val")], exported=True,
        ),
        Definition(
            kind="function", name="setup", qualname="setup", parent=None,
            start_line=20, start_col=0, end_line=22, end_col=1, name_line=20, name_col=9,
            signature="function setup()",
        ),
        # An owner not defined in the file, assigned inside a function: under that function.
        Definition(
            kind="method", name="draw", qualname="setup.Widget.draw", parent="setup.Widget",
            start_line=21, start_col=2, end_line=21, end_col=51, name_line=21, name_col=19,
            signature="Widget.prototype.draw = function ()",
        ),
        # `module.exports = function () {}`: the module's function, "default" (as `export default () => {}`)
        Definition(
            kind="function", name="default", qualname="default", parent=None,
            start_line=23, start_col=0, end_line=23, end_col=32, name_line=23, name_col=17,
            signature="function ()", exported=True,
        ),
    ]
    assert r.calls == [
        CallSite("View.lookup", "resolve", "this", 1, 9, 14),
        CallSite("View.resolve", "tryStat", None, 1, 11, 40),
        CallSite("View.resolve", "resolve", None, 1, 11, 48),
        CallSite("app.render", "tryRender", None, 2, 13, 2),
        CallSite("compile", "build", None, 1, 15, 42),
        CallSite("setup.Widget.draw", "paint", None, 0, 21, 40),
    ]
    assert r.exports == [Export("compile", local="compile"), Export("send", local="send")]
    assert r.imports == [Import("resolve", "path", "resolve", line=1)]
