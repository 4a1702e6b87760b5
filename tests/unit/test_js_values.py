"""Module-level JavaScript / TypeScript values made by a call that is handed functions
(``const auth = { required: jwt({ getToken }) }``): each is a callable definition of its own with a
call site to every handed function (extractor.py, "values"), and a plain object whose properties
are definitions resolves through its properties (:class:`indexer.resolve.values.ObjV`).

Every shape and every negative is asserted exactly: which definitions appear, with which parent,
span and export flag, which call sites they own, and which values define nothing."""

from __future__ import annotations

from indexer.languages.ecmascript.javascript import EXTRACTOR as JS
from indexer.languages.ecmascript.typescript import EXTRACTOR as TS
from tests.resolution_harness import check

SHAPES = """\
import { expressjwt as jwt } from "express-jwt";
import { helper } from "./util";
import * as utils from "./util";

const getToken = (req) => req.headers.authorization;
function check(x) { return x; }

const auth = {
  required: jwt({ secret: "s", getToken: getToken }),
  optional: jwt({ credentialsRequired: false, getToken }),
  plain: jwt({ secret: "s" }),
};
export const mw = compose(check, helper, utils.verify, wrap(check), (req) => log(req));
const shallow = compose(cors({ origin: check }));
"""


def _values(source: str, path: str = "src/a.ts", ex=TS):
    out = ex.extract(path, source.encode())
    assert out.errors == []
    defs = [(d.kind, d.qualname, d.parent, d.start_line, d.end_line, d.exported) for d in out.definitions]
    calls = [(c.caller, c.receiver, c.name, c.arity, c.line) for c in out.calls]
    return out, defs, calls


def test_call_values_handed_functions_are_definitions_calling_them() -> None:
    out, defs, calls = _values(SHAPES)
    assert defs == [
        ("function", "getToken", None, 5, 5, False),
        ("function", "check", None, 6, 6, False),
        ("function", "auth.required", "auth", 9, 9, False),  # the property: its own span and line
        ("function", "auth.optional", "auth", 10, 10, False),  # shorthand `{ getToken }` counts
        ("function", "mw", None, 13, 13, True),  # names, dotted imported names, nested calls, inline
        ("function", "shallow", None, 14, 14, False),  # depth 2: an option object of a nested call
    ]  # `plain: jwt({ secret })` hands nothing: no definition
    assert calls == [
        ("auth.required", None, "jwt", 1, 9),  # the library call runs in the value's scope
        ("auth.required", None, "getToken", -1, 9),  # arity unknown: the library calls it
        ("auth.optional", None, "jwt", 1, 10),
        ("auth.optional", None, "getToken", -1, 10),
        (None, None, "jwt", 1, 11),
        ("mw", None, "compose", 5, 13),
        ("mw", None, "check", -1, 13),
        ("mw", None, "helper", -1, 13),  # imported: the resolver decides
        ("mw", "utils", "verify", -1, 13),
        ("mw", None, "wrap", 1, 13),
        ("mw", None, "check", -1, 13),  # `wrap(check)`: a nested call's argument
        ("mw", None, "log", 1, 13),  # the inline arrow's call belongs to the value
        ("shallow", None, "compose", 1, 14),
        ("shallow", None, "cors", 1, 14),
        ("shallow", None, "check", -1, 14),
    ]
    assert [(b.scope, b.name, b.how) for b in out.bindings if b.how == "object"] == [(None, "auth", "object")]
    sig = {d.qualname: d.signature for d in out.definitions}
    assert sig["auth.required"] == "required: jwt(...)"
    assert sig["mw"] == "const mw = compose(...)"  # `export` left out, as for every definition


def test_values_that_hand_no_function_define_nothing() -> None:
    source = """\
import express from "express";
import { Router } from "express";
import { helper } from "./util";
import * as z from "zod";
function check(x) { return x; }
const config = { retries: 2 };
const router = express.Router();
const x = foo(1, "a", config);
const logged = wrap(console.log);
const chain = Router().use(helper);
const deep = a({ b: c({ d: e({ f: check }) }) });
const Schema = z.object({ name: z.string() });
const y = require("./y");
let later;
later = jwt({ getToken: check });
function inside() { const z2 = jwt({ getToken: check }); return z2; }
"""
    out, defs, calls = _values(source)
    assert [d[1] for d in defs] == ["check", "inside"]
    # Each call keeps the caller it had: module level (None), or the function around it.
    assert {c[0] for c in calls} == {None, "inside"}
    assert [c for c in calls if c[3] == -1] == []  # no call site to a handed name anywhere


def test_a_method_of_module_level_data_makes_no_value() -> None:
    # `nums.map(double)` of an array literal yields an array: no callable definition, no call site to
    # `double` from one; a method of anything else handed a function still makes one.
    source = """\
function double(x) { return 2 * x; }
const nums = [1, 2, 3];
export const label = "n";
const doubled = nums.map(double);
const upper = label.replace(/n/, double);
const piped = pipeline.map(double);
"""
    out, defs, calls = _values(source)
    assert [d[1] for d in defs] == ["double", "piped"]
    assert [c for c in calls if c[3] == -1] == [("piped", None, "double", -1, 6)]


def test_commonjs_var_and_module_exports_values() -> None:
    source = """\
var jwt = require("express-jwt");
function getToken(req) { return req.headers.authorization; }
var auth = { required: jwt({ getToken: getToken }) };
module.exports = { optional: jwt({ credentialsRequired: false, getToken: getToken }), auth: auth };
"""
    out, defs, calls = _values(source, "src/auth.js", JS)
    assert defs == [
        ("function", "getToken", None, 2, 2, False),
        ("function", "auth.required", "auth", 3, 3, False),
        ("function", "optional", None, 4, 4, True),  # an exported top-level name, as exports.m = ...
    ]
    assert [c for c in calls if c[3] == -1] == [
        ("auth.required", None, "getToken", -1, 3),
        ("optional", None, "getToken", -1, 4),
    ]
    assert sorted((e.exported, e.local) for e in out.exports) == [("auth", "auth"), ("optional", "optional")]


def test_a_name_the_file_already_defines_is_left_alone() -> None:
    """TypeScript merges ``interface X`` and ``const X = make(...)``: the interface stays the one
    definition (types resolve to it as before) and the value defines nothing."""
    source = """\
function init(inst) { return inst; }
export interface Thing { id: string }
export const Thing: Ctor<Thing> = make("Thing", init);
"""
    _, defs, calls = _values(source)
    assert [d[1] for d in defs] == ["init", "Thing", "Thing.id"]
    assert [c for c in calls if c[3] == -1] == []


def test_a_typed_value_keeps_its_declared_type_binding_at_module_level() -> None:
    source = """\
function initializer(inst) { return inst; }
export const ZodError: Ctor<ZodError> = make("ZodError", initializer);
"""
    out, defs, _ = _values(source)
    assert [d[1] for d in defs] == ["initializer", "ZodError"]
    assert [(b.scope, b.name, b.type, b.how) for b in out.bindings if b.name == "ZodError"] == [
        (None, "ZodError", "Ctor", "declared")  # the module's, not the value's own scope
    ]
    assert [(e.exported, e.local) for e in out.exports] == [("ZodError", "ZodError")]


RESOLVED = """
// --- path: src/auth.ts ---
import { expressjwt as jwt } from "express-jwt";
import { verify } from "./util";
const getToken = (req: any) => req.headers.authorization;
const auth = {
  required: jwt({ getToken }),
  checked: jwt({ getToken: verify }),
};
export default auth;
export const api = { list: () => 1 };
export function same() { return auth.required; }
// --- path: src/util.ts ---
export function verify(t: string) { return t; }
// --- path: src/use.ts ---
import auth, { api } from "./auth";
export function go() { auth.required(); auth.missing(); api.list(); }
"""


def test_value_properties_resolve_through_the_object_and_call_what_they_were_handed() -> None:
    check(
        RESOLVED,
        [
            "src/auth.auth.checked(0) -> src/util.verify(1) [exact]",  # an imported handed function
            "src/auth.auth.required(0) -> src/auth.getToken(1) [exact]",
            "src/use.go(0) -> src/auth.api.list(0) [exact]",  # before: matched by name only
            "src/use.go(0) -> src/auth.auth.required(0) [exact]",  # default import of the object
        ],
    )  # auth.missing(): no such property and no function of that name: unresolved as before
