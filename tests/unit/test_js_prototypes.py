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


def test_this_in_a_constructor_function_is_its_instance():
    # bluebird's `function Promise(executor) { ... this._resolveFromExecutor(executor); }`: `this`
    # in the constructor is what `new Promise()` builds, so its calls bind as a prototype method's do.
    check("""
// --- path: src/p.js ---
function Promise(executor) { this._init(executor); this._close(); }
Promise.prototype._init = function (e) { return e; };
function Other() { this._init(); }
Other.prototype._init = function () { return 2; };
Other.prototype._close = function () { return 3; };
function plain() { this._close(); }
""", [
        "src/p.Promise(1) -> src/p.Promise._init(1) [exact]",  # was [name]
        "src/p.Other(0) -> src/p.Other._init(0) [exact]",  # its own, never Promise's
        "src/p.plain(0) -> src/p.Other._close(0) [name]",  # no constructor: matched by name as before
        # not: Promise's this._close() (a member of Other only; was a [name] edge to it)
    ])


def test_a_function_called_through_call_and_apply():
    # `Base.call(this, opts)` in an ES5 subclass's constructor; `fn.call(ctx, x)` of a parameter.
    check("""
// --- path: src/c.js ---
function Base(opts) { this.opts = opts; }
function Sub(opts) { Base.call(this, opts); }
Sub.prototype = Object.create(Base.prototype);
function Mixed() { Base.apply(this, arguments); }
function done() { return 1; }
function other() { return 2; }
function viaCall(fn) { return fn.call(null, other); }
function viaApply(fn) { return fn.apply(null, [other]); }
function run(cb) { return cb(); }
function main() {
  viaCall(done); viaApply(done);
  run.call(null, done); run.apply(null, [other]);
  var o = { call: other }; o.call(null, done);
  unknown.call(null, done);
}
""", [
        "src/c.Sub(1) -> src/c.Base(1) [exact]",
        "src/c.Mixed(0) -> src/c.Base(1) [exact]",
        "src/c.main(0) -> src/c.viaCall(1) [exact]",
        "src/c.main(0) -> src/c.viaApply(1) [exact]",
        "src/c.main(0) -> src/c.run(1) [exact]",
        "src/c.viaCall(1) -> src/c.done(0) [inferred]",  # fn.call(...) calls the handed `done`
        "src/c.viaApply(1) -> src/c.done(0) [inferred]",
        "src/c.run(1) -> src/c.done(0) [inferred]",  # run.call(null, done): `done` is `cb`, not `null`
        "src/c.main(0) -> src/c.other(0) [exact]",  # o.call(...): the object's own member `call`
        # not: run -> other (`apply` hands an array), done -> other (`fn.call(null, other)` hands
        # `other` to done, which calls no parameter), unknown.call (nothing of the repository)
    ])


def test_a_constructor_a_module_exports_as_a_whole():
    # express's `module.exports = Layer; function Layer() {}`: required as `Foo`, the module is the
    # constructor: a parent (`inherits(Sub, Foo)`), a `Foo.call(this)`, a `new Foo()` receiver.
    check("""
// --- path: lib/foo.js ---
module.exports = Foo;
function Foo() { this.x = 1; }
Foo.prototype.bar = function () { return this.baz(); };
Foo.prototype.baz = function () { return 1; };
// --- path: lib/sub.js ---
var Foo = require('./foo');
var inherits = require('util').inherits;
module.exports = Sub;
function Sub() { Foo.call(this); this.bar(); this.nope(); }
inherits(Sub, Foo);
Sub.prototype.qux = function () { return this.baz(); };
// --- path: lib/obj.js ---
module.exports = { baz: function () { return 2; } };
// --- path: main.js ---
var Sub = require('./lib/sub');
var Foo = require('./lib/foo');
var obj = require('./lib/obj');
function main() { var s = new Sub(); s.qux(); s.bar(); new Foo().baz(); obj.call(null); }
""", [
        "lib/foo.Foo.bar(0) -> lib/foo.Foo.baz(0) [exact]",
        "lib/sub.Sub(0) -> lib/foo.Foo(0) [exact]",  # Foo.call(this)
        "lib/sub.Sub(0) -> lib/foo.Foo.bar(0) [inferred]",  # inherited from the required parent
        "lib/sub.Sub.qux(0) -> lib/foo.Foo.baz(0) [inferred]",
        "main.main(0) -> lib/foo.Foo(0) [exact]",
        "main.main(0) -> lib/foo.Foo.bar(0) [inferred]",
        "main.main(0) -> lib/foo.Foo.baz(0) [exact]",  # was [name]
        "main.main(0) -> lib/sub.Sub(0) [exact]",
        "main.main(0) -> lib/sub.Sub.qux(0) [inferred]",
        # not: this.nope() (on no prototype), obj.call() (a module exporting an object, no function)
    ])
