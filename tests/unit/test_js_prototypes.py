"""JavaScript constructor functions and their prototypes (ecmascript/prototypes.py, the resolver's
``is_constructor``): members assigned a named function (``X.prototype.m = foo``, ``X.prototype =
{ m: foo, n() {} }``), chains (``Object.create(P.prototype)``, ``Object.setPrototypeOf``,
``util.inherits``), exact edges and what must not bind."""

from indexer.languages import extractor_for_path
from tests.resolution_harness import check

SHAPES = """
// --- path: src/shapes.js ---
function area() { return 1; }
function perimeter() { return 2; }
function woof() { return 3; }
function Shape() {}
Shape.prototype.area = area;
Shape.prototype.draw = function () { return this.area(); };
function Square() {}
Square.prototype = Object.create(Shape.prototype);
Square.prototype.perimeter = perimeter;
function Circle() {}
Circle.prototype = { area: woof, grow() { return 4; }, perimeter };
function Ring() {}
Object.setPrototypeOf(Ring.prototype, Circle.prototype);
function Other() {}
Other.prototype.spin = woof;
"""


def test_prototype_members_named_functions_and_chains():
    check(SHAPES + """
function main() {
  const s = new Square();
  s.area();
  s.perimeter();
  new Shape().area();
  const r = new Ring();
  r.grow();
  r.area();
  r.spin();
}
""", [
        "src/shapes.Shape.draw(0) -> src/shapes.area(0) [exact]",
        "src/shapes.main(0) -> src/shapes.Square(0) [exact]",
        "src/shapes.main(0) -> src/shapes.Shape(0) [exact]",
        "src/shapes.main(0) -> src/shapes.Ring(0) [exact]",
        "src/shapes.main(0) -> src/shapes.area(0) [inferred]",  # s.area(): Shape's, inherited
        "src/shapes.main(0) -> src/shapes.area(0) [exact]",  # new Shape().area()
        "src/shapes.main(0) -> src/shapes.perimeter(0) [inferred]",
        "src/shapes.main(0) -> src/shapes.Circle.grow(0) [inferred]",
        "src/shapes.main(0) -> src/shapes.woof(0) [inferred]",  # r.area(): Circle's area is woof
        # r.spin(): Other's member, not Ring's: no edge
    ])


def test_override_in_the_child_prototype_wins():
    check("""
// --- path: src/dog.js ---
function sound() { return 1; }
function bark() { return 2; }
function Animal() {}
Animal.prototype.speak = sound;
function Dog() {}
Dog.prototype = Object.create(Animal.prototype);
Dog.prototype.constructor = Dog;
Dog.prototype.speak = bark;
function main() { const d = new Dog(); d.speak(); const a = new Animal(); a.speak(); }
""", [
        "src/dog.main(0) -> src/dog.Dog(0) [exact]",
        "src/dog.main(0) -> src/dog.Animal(0) [exact]",
        "src/dog.main(0) -> src/dog.bark(0) [inferred]",
        "src/dog.main(0) -> src/dog.sound(0) [inferred]",
    ])


def test_util_inherits_and_unknown_receivers():
    check("""
// --- path: src/stream.js ---
const util = require("util");
function flush() { return 1; }
function Base() {}
Base.prototype.flush = flush;
function Child() {}
util.inherits(Child, Base);
function run(x) { new Child().flush(); x.flush(); }
""", [
        "src/stream.run(1) -> src/stream.Child(0) [exact]",
        "src/stream.run(1) -> src/stream.flush(0) [exact]",
        # x.flush(): x is unknown, and a function bound to a prototype member is no method by name
    ])


def test_extracted_bindings_and_bases_exactly():
    ex = extractor_for_path("a.js").extract("a.js", SHAPES.split("---\n", 1)[1].encode())
    assert {d.qualname: d.bases for d in ex.definitions if d.bases} == {
        "Shape": ["Object"], "Square": ["Shape"], "Circle": ["Object"], "Ring": ["Circle"], "Other": ["Object"]}
    assert [(b.scope, b.name, b.type, b.how) for b in ex.bindings if b.name.startswith("this.")] == [
        ("Shape", "this.area", "area", "alias"),
        ("Square", "this.perimeter", "perimeter", "alias"),
        ("Circle", "this.area", "woof", "alias"),
        ("Circle", "this.perimeter", "perimeter", "alias"),
        ("Other", "this.spin", "woof", "alias"),
    ]
    assert [(d.kind, d.qualname, d.parent) for d in ex.definitions if d.qualname.startswith("Circle.")] == [
        ("method", "Circle.grow", "Circle")]


def test_prototype_member_naming_another_prototype_member():
    # negotiator's `Negotiator.prototype.preferredCharset = Negotiator.prototype.charset`
    check("""
// --- path: src/neg.js ---
function Negotiator() {}
Negotiator.prototype.charset = function charset(x) { return x; };
Negotiator.prototype.encoding = function encoding(x) { return x; };
Negotiator.prototype.preferredCharset = Negotiator.prototype.charset;
function main() { const n = new Negotiator(); n.preferredCharset(1); }
""", [
        "src/neg.main(0) -> src/neg.Negotiator(0) [exact]",
        "src/neg.main(0) -> src/neg.Negotiator.charset(1) [inferred]",  # never encoding
    ])


def test_a_chain_to_a_constructor_of_another_module():
    # `util.inherits(Child, a.Base)` / `Object.create(lib.Base.prototype)`: the parent is a dotted
    # name (a module's member), resolved as any base is.
    check("""
// --- path: a.js ---
function Base() {}
Base.prototype.greet = function () { return 1; };
module.exports = { Base: Base };
// --- path: b.js ---
var util = require('util');
var a = require('./a');
function Child() {}
util.inherits(Child, a.Base);
Child.prototype.run = function () { this.greet(); this.missing(); };
function Other() {}
Other.prototype = Object.create(a.Base.prototype);
Other.prototype.go = function () { this.greet(); };
function main() { var c = new Child(); c.greet(); c.run(); }
""", [
        "b.Child.run(0) -> a.Base.greet(0) [inferred]",
        "b.Other.go(0) -> a.Base.greet(0) [inferred]",
        "b.main(0) -> a.Base.greet(0) [inferred]",
        "b.main(0) -> b.Child(0) [exact]",
        "b.main(0) -> b.Child.run(0) [inferred]",
        # not: this.missing() (no such member on the chain)
    ])
