"""The TypeScript extractor on small inline fixtures: exact records, positions included."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.ecmascript.typescript import EXTRACTOR
from indexer.model import (
    Binding,
    CallSite,
    Definition,
    Export,
    FileExtraction,
    Import,
    Injection,
    Param,
    TypeUse,
)


def extract(source: str, path: str = "src/app.ts") -> FileExtraction:
    result = EXTRACTOR.extract(path, source.encode("utf-8"))
    assert result.language == "typescript"
    return result


def summary(result: FileExtraction) -> list[tuple[str, str, str | None]]:
    """``(kind, qualname, parent)`` of every definition, for the tests about which ones exist."""
    return [(d.kind, d.qualname, d.parent) for d in result.definitions]


SERVICE = """\
/** Finds owners. */
@Injectable()
export class OwnerService extends Base<Owner> implements Finder {
  @Input() private repo2: Repo;
  static make = (a: Owner) => build(a);
  constructor(private readonly repo: Repo, name?: string) {
    super(repo);
  }
  async find(id: number, ...rest: any[]): Promise<Owner> {
    return this.repo.find(id);
  }
}
"""


def test_registry_claims_typescript_suffixes() -> None:
    for path in ("a.ts", "b.tsx", "c.mts", "d.cts", "e.d.ts"):
        assert extractor_for_path(path) is EXTRACTOR
    assert EXTRACTOR.grammar_for("b.tsx") == "tsx"
    assert EXTRACTOR.grammar_for("a.ts") == "typescript"


def test_class_members_exact() -> None:
    r = extract(SERVICE)
    assert r.errors == []
    assert r.definitions == [
        Definition(
            kind="class", name="OwnerService", qualname="OwnerService", parent=None,
            start_line=2, start_col=0, end_line=12, end_col=1, name_line=3, name_col=13,
            signature="class OwnerService extends Base<Owner> implements Finder",
            decorators=["Injectable()"], bases=["Base"], implements=["Finder"],
            docstring="Finds owners.", exported=True,
        ),
        Definition(
            kind="field", name="repo2", qualname="OwnerService.repo2", parent="OwnerService",
            start_line=4, start_col=2, end_line=4, end_col=30, name_line=4, name_col=19,
            signature="private repo2: Repo", modifiers=["private"], decorators=["Input()"],
            field_type="Repo",
        ),
        Definition(
            kind="method", name="make", qualname="OwnerService.make", parent="OwnerService",
            start_line=5, start_col=2, end_line=5, end_col=38, name_line=5, name_col=9,
            signature="static make = (a: Owner) =>", params=[Param("a", "Owner")], modifiers=["static"],
        ),
        Definition(
            kind="constructor", name="constructor", qualname="OwnerService.constructor",
            parent="OwnerService", start_line=6, start_col=2, end_line=8, end_col=3, name_line=6,
            name_col=2, signature="constructor(private readonly repo: Repo, name?: string)",
            params=[Param("repo", "Repo"), Param("name", "string", has_default=True)],
        ),
        Definition(
            kind="field", name="repo", qualname="OwnerService.repo", parent="OwnerService",
            start_line=6, start_col=14, end_line=6, end_col=41, name_line=6, name_col=31,
            signature="private readonly repo: Repo", modifiers=["private", "readonly"], field_type="Repo",
        ),
        Definition(
            kind="method", name="find", qualname="OwnerService.find", parent="OwnerService",
            start_line=9, start_col=2, end_line=11, end_col=3, name_line=9, name_col=8,
            signature="async find(id: number, ...rest: any[]): Promise<Owner>",
            params=[Param("id", "number"), Param("rest", "any[]", variadic="*")],
            return_type="Owner", modifiers=["async"],  # Promise<T> read as what awaiting gives
        ),
    ]  # fmt: skip


def test_class_calls_bindings_type_uses_injections() -> None:
    r = extract(SERVICE)
    assert r.calls == [
        CallSite(None, "Injectable", None, 0, 2, 1),  # a class decorator runs at module level
        CallSite("OwnerService", "Input", None, 0, 4, 3),  # a member decorator runs in the class
        CallSite("OwnerService.make", "build", None, 1, 5, 30),
        CallSite("OwnerService.constructor", "super", None, 1, 7, 4),
        CallSite("OwnerService.find", "find", "this.repo", 1, 10, 21),
    ]
    assert r.bindings == [
        Binding("OwnerService", "this.repo2", "Repo", "declared", 4),
        Binding("OwnerService", "repo2", "Repo", "declared", 4),
        Binding("OwnerService.make", "a", "Owner", "declared", 5),
        Binding("OwnerService.constructor", "repo", "Repo", "declared", 6),
        Binding("OwnerService", "this.repo", "Repo", "declared", 6),
        Binding("OwnerService", "repo", "Repo", "declared", 6),
    ]
    assert r.type_uses == [
        TypeUse("OwnerService.repo2", "Repo", 4, 26),
        TypeUse("OwnerService.make", "Owner", 5, 20),
        TypeUse("OwnerService.constructor", "Repo", 6, 37),
        TypeUse("OwnerService.find", "Promise", 9, 42),
        TypeUse("OwnerService.find", "Owner", 9, 50),
    ]
    assert r.injections == [Injection("OwnerService", "Repo", "constructor", 6, 31)]


def test_abstract_class_interface_enum() -> None:
    r = extract(
        "export abstract class Shape<T> extends ns.Base implements A, B<T> {\n"
        "  abstract area(scale: number): number;\n"
        "  protected static get unit(): string { return 'cm'; }\n"
        "}\n"
        "interface Repo extends Reader<Owner>, Writer {\n"
        "  find(id: string): Owner;\n"
        "  readonly size: number;\n"
        "}\n"
        "enum Color { Red, Green }\n"
    )
    assert summary(r) == [
        ("class", "Shape", None),
        ("method", "Shape.area", "Shape"),
        ("method", "Shape.unit", "Shape"),
        ("interface", "Repo", None),
        ("method", "Repo.find", "Repo"),
        ("field", "Repo.size", "Repo"),
        ("enum", "Color", None),
    ]
    shape, area, unit, repo, find, size, color = r.definitions
    assert (shape.modifiers, shape.bases, shape.implements) == (["abstract"], ["ns.Base"], ["A", "B"])
    assert shape.signature == "abstract class Shape<T> extends ns.Base implements A, B<T>"
    assert (area.modifiers, area.signature, area.params, area.return_type) == (
        ["abstract"], "abstract area(scale: number): number", [Param("scale", "number")], "number"
    )  # fmt: skip
    assert unit.modifiers == ["protected", "static", "get"]
    assert (repo.bases, repo.implements) == (["Reader", "Writer"], [])
    assert repo.signature == "interface Repo extends Reader<Owner>, Writer"
    assert (find.modifiers, find.return_type) == (["abstract"], "Owner")
    assert (size.modifiers, size.field_type) == (["readonly"], "number")
    assert (color.signature, color.exported, shape.exported) == ("enum Color", False, True)
    # Interface members are not bound as `this.x`; nothing in extends / implements is a type use.
    assert r.bindings == []
    assert r.type_uses == [TypeUse("Repo.find", "Owner", 6, 20)]


def test_functions_overloads_default_and_nested() -> None:
    r = extract(
        "export function parse(a: string): number;\n"
        "export function parse(a: any): number { return helper(a); }\n"
        "export default function () { run(); }\n"
        "function* ids() {}\n"
        "export const outer = async <T,>(x: T = 1 as T, {a, b}: Opts) => {\n"
        "  const inner = function () { return go(a); };\n"
        "  [1, 2].map((n) => twice(n));\n"
        "};\n"
        "let later = () => 1, other = 2;\n"
    )
    assert summary(r) == [
        ("function", "parse", None),
        ("function", "default", None),
        ("function", "ids", None),
        ("function", "outer", None),
        ("function", "outer.inner", "outer"),
        ("function", "later", None),
    ]
    parse, default, ids, outer, inner, later = r.definitions
    assert (parse.start_line, parse.signature, parse.exported) == (2, "function parse(a: any): number", True)
    assert (default.name, default.exported, default.signature) == ("default", True, "function ()")
    assert (ids.signature, ids.exported) == ("function* ids()", False)
    assert outer.signature == "const outer = async <T,>(x: T = 1 as T, {a, b}: Opts) =>"
    assert outer.params == [Param("x", "T", has_default=True), Param("{a, b}", "Opts", fields=(("a", "a"), ("b", "b")))]
    assert (outer.modifiers, outer.exported, outer.start_line, outer.end_line) == (["async"], True, 5, 8)
    assert (inner.start_line, inner.start_col, inner.exported) == (6, 2, False)
    # A declarator that shares its statement spans itself only.
    assert (later.signature, later.start_col, later.end_col) == ("later = () =>", 4, 19)
    assert r.calls == [
        CallSite("parse", "helper", None, 1, 2, 47),
        CallSite("default", "run", None, 0, 3, 29),
        CallSite("outer.inner", "go", None, 1, 6, 37),
        CallSite("outer", "map", "[1,2]", 1, 7, 9),
        CallSite("outer", "twice", None, 1, 7, 20),  # an arrow callback belongs to its function
    ]
    # `T` is a type parameter: neither a type use nor a binding.
    assert r.type_uses == [TypeUse("outer", "Opts", 5, 55)]
    # `{a, b}: Opts`: each name the pattern binds is that member of Opts (session 67)
    assert r.bindings == [Binding("outer", "a", "Opts.a", "alias", 5), Binding("outer", "b", "Opts.b", "alias", 5)]


def test_call_shapes() -> None:
    r = extract(
        "function f(xs: number[]) {\n"
        "  g(1, 2);\n"
        "  a.b.c(...xs);\n"
        "  a?.b();\n"
        "  a.b().c<T>(x);\n"
        "  h<T>();\n"
        "  new Foo(x);\n"
        "  new ns.Bar<T>();\n"
        "  new Baz;\n"
        "  super.save();\n"
        "  tag`x`;\n"
        "  import('./lazy');\n"
        "  maybe!.call();\n"
        "}\n"
        "run();\n"
    )
    assert r.calls == [
        CallSite("f", "g", None, 2, 2, 2),
        CallSite("f", "c", "a.b", -1, 3, 6),
        CallSite("f", "b", "a", 0, 4, 5),
        CallSite("f", "b", "a", 0, 5, 4),
        CallSite("f", "c", "a.b()", 1, 5, 8),
        CallSite("f", "h", None, 0, 6, 2),
        CallSite("f", "Foo", None, 1, 7, 6, is_new=True),
        CallSite("f", "Bar", "ns", 0, 8, 9, is_new=True),
        CallSite("f", "Baz", None, 0, 9, 6, is_new=True),
        CallSite("f", "save", "super", 0, 10, 8),
        CallSite("f", "call", "maybe", 0, 13, 9),
        CallSite(None, "run", None, 0, 15, 0),
    ]


def test_field_initialisers_belong_to_the_class() -> None:
    r = extract(
        "class Cache {\n"
        "  store = new Map<string, Item>();\n"
        "  ttl: number = compute();\n"
        "  constructor() { this.clock = new Clock(); }\n"
        "}\n"
    )
    assert r.calls == [
        CallSite("Cache", "Map", None, 0, 2, 14, is_new=True),
        CallSite("Cache", "compute", None, 0, 3, 16),
        CallSite("Cache.constructor", "Clock", None, 0, 4, 35, is_new=True),
    ]
    assert r.bindings == [  # a field initialised with `new X()` is bound like a typed field (issue 16)
        Binding("Cache", "this.store", "Map", "constructed", 2),
        Binding("Cache", "store", "Map", "constructed", 2),
        Binding("Cache", "this.clock", "Clock", "constructed", 4),
    ]
    assert r.type_uses == [TypeUse("Cache.store", "Item", 2, 26)]


def test_imports() -> None:
    r = extract(
        'import x from "./m";\n'
        'import {a as b, c} from "./m";\n'
        'import * as ns from "./n";\n'
        'import y, {z} from "./o";\n'
        'import type {T} from "./types";\n'
        'import "./side-effect";\n'
        'import legacy = require("./legacy");\n'
        'const r = require("./r");\n'
        'const {p, q: s} = require("./pq");\n'
    )
    assert r.imports == [
        Import("x", "./m", "default", line=1),
        Import("b", "./m", "a", line=2),
        Import("c", "./m", "c", line=2),
        Import("ns", "./n", None, line=3),
        Import("y", "./o", "default", line=4),
        Import("z", "./o", "z", line=4),
        Import("T", "./types", "T", line=5),
        Import("legacy", "./legacy", None, line=7),
        Import("r", "./r", None, line=8),
        Import("p", "./pq", "p", line=9),
        Import("s", "./pq", "q", line=9),
    ]
    assert r.calls == []  # require() is an import, not a call


def test_exports() -> None:
    r = extract(
        "function f() {}\n"
        "export { f as g, f };\n"
        'export { x as y } from "./m";\n'
        'export * from "./all";\n'
        'export * as ns from "./ns";\n'
        "export const h = f, k = () => 1;\n"
        "export type Alias = string;\n"
        "export default f;\n"
    )
    assert r.exports == [
        Export("g", local="f"),
        Export("f", local="f"),
        Export("y", module="./m", name="x"),
        Export("*", module="./all"),
        Export("ns", module="./ns"),
        Export("h", local="h"),  # k is a function definition with exported=True instead
        Export("default", local="f"),
    ]
    assert [(d.qualname, d.exported) for d in r.definitions] == [("f", False), ("k", True)]
    assert r.bindings == [Binding(None, "h", "f", "alias", 6)]


def test_named_default_declaration_exports_default() -> None:
    r = extract("export default class Foo {}\n")
    assert summary(r) == [("class", "Foo", None)]
    assert r.definitions[0].exported is True
    assert r.exports == [Export("default", local="Foo")]


def test_bindings() -> None:
    r = extract(
        "let repo: Repo | undefined = make();\n"
        "const svc = new Service(repo);\n"
        "const alias = svc.find;\n"
        "const called = svc.find();\n"
        "const n: number = 1;\n"
        "function run(owner: Owner, count: number, cb: (x: Foo) => void) {\n"
        "  const local = new ns.Local();\n"
        "}\n"
    )
    assert r.bindings == [
        Binding("run", "owner", "Owner", "declared", 6),
        Binding(None, "repo", "Repo", "declared", 1),
        Binding(None, "svc", "Service", "constructed", 2),
        Binding(None, "alias", "svc.find", "alias", 3),
        Binding(None, "called", "svc.find", "constructed", 4),  # what the call returns (not `repo`: typed)
        Binding("run", "local", "ns.Local", "constructed", 7),
    ]


def test_tsx_and_decorated_controller() -> None:
    r = extract(
        "@Controller('owners')\n"
        "export class OwnersController {\n"
        "  constructor(@Inject(TOKEN) private readonly svc: OwnerService) {}\n"
        "  @Get(':id') show(@Param('id') id: string) { return <Card owner={this.svc.get(id)} />; }\n"
        "}\n",
        path="src/owners.tsx",
    )
    assert r.errors == []
    assert [(d.qualname, d.decorators) for d in r.definitions] == [
        ("OwnersController", ["Controller('owners')"]),
        ("OwnersController.constructor", []),
        ("OwnersController.svc", []),
        ("OwnersController.show", ["Get(':id')"]),
    ]
    assert r.injections == [Injection("OwnersController", "OwnerService", "constructor", 3, 46)]
    assert r.calls == [
        CallSite(None, "Controller", None, 1, 1, 1),
        CallSite("OwnersController", "Inject", None, 1, 3, 15),  # parameter decorators too
        CallSite("OwnersController", "Get", None, 1, 4, 3),
        CallSite("OwnersController", "Param", None, 1, 4, 20),
        CallSite("OwnersController.show", "get", "this.svc", 1, 4, 75),
    ]


def test_unicode_columns_are_code_points() -> None:
    r = extract('const s = "ü€"; go(s);\n')
    assert r.calls == [CallSite(None, "go", None, 1, 1, 16)]


def test_bad_input_never_raises() -> None:
    broken = extract("class A {\n  m() { f(; }\n}\nfunction ok() { g(); }\n")
    assert broken.errors
    assert ("function", "ok", None) in summary(broken)
    assert CallSite("ok", "g", None, 0, 4, 16) in broken.calls

    latin1 = EXTRACTOR.extract("x.ts", b"const s = '\xe9t\xe9'; f(s);\n")
    assert [c.name for c in latin1.calls] == ["f"]

    empty = extract("")
    assert empty == FileExtraction(path="src/app.ts", language="typescript")
