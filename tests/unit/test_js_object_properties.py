"""Properties of a JavaScript object literal naming a function (ecmascript/objects.py, ``ObjV``'s
bindings): ``const o = { b: foo, c, d: util.helper }; o.b()`` calls ``foo``; exact edges, and what
must not bind (a property naming a variable, a property the literal lacks)."""

from indexer.languages import extractor_for_path
from tests.resolution_harness import check

FIXTURE = """
// --- path: src/objs.js ---
const util = require("./util");
function first() { return 1; }
function second() { return 2; }
function third() { return 3; }
var o = { a: first, b: second, u: util.helper };
const port = 3;
const cfg = { port: port, run() { return 5; }, go: third };
function main() {
  o.b();
  o.u();
  cfg.go();
  cfg.run();
  cfg.port();
  o.missing();
}
function inner() {
  const local = { x: first, third };
  local.x();
  local.third();
}
// --- path: src/util.js ---
exports.helper = function () { return 4; };
"""


def test_object_literal_properties_naming_functions():
    check(FIXTURE, [
        "src/objs.main(0) -> src/objs.second(0) [exact]",  # o.b(), never o.a's first
        "src/objs.main(0) -> src/util.helper(0) [exact]",
        "src/objs.main(0) -> src/objs.third(0) [exact]",
        "src/objs.main(0) -> src/objs.cfg.run(0) [exact]",
        "src/objs.inner(0) -> src/objs.first(0) [exact]",
        "src/objs.inner(0) -> src/objs.third(0) [exact]",
        # cfg.port(): port is a number; o.missing(): no such property
    ])


def test_object_property_bindings_exactly():
    source = FIXTURE.split("---\n", 1)[1].split("// --- path")[0]
    ex = extractor_for_path("a.js").extract("a.js", source.encode())
    assert [(b.scope, b.name, b.type, b.how) for b in ex.bindings if b.how in ("object", "alias")] == [
        (None, "cfg", "cfg", "object"),  # bound with its method's definition, before the others
        (None, "o", "o", "object"),
        ("o", "a", "first", "alias"),
        ("o", "b", "second", "alias"),
        ("o", "u", "util.helper", "alias"),
        ("cfg", "go", "third", "alias"),
        ("inner", "local", "local", "object"),
        ("inner.local", "x", "first", "alias"),
        ("inner.local", "third", "third", "alias"),
    ]
