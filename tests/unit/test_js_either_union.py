"""A JavaScript / TypeScript name holding one of several operands (``c ? a : b``, ``a || b``, ``a ?? b``)
binds a call through it to every operand's targets (:mod:`indexer.resolve.either`), each ``inferred``;
``&&``, a declared type on the line, one known operand and a rebinding after the union keep the usual
single binding."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

JS = """
// --- path: lib.js ---
function a() {}
function b() {}
function c() {}
class Cat { speak() {} }
class Dog { speak() {} }
class Fox { speak() {} }
function pick(flag, opts) {
  const t = flag ? a : b;
  t();
  const u = opts.fast || c;
  u();
  const pet = flag ? new Cat() : new Dog();
  pet.speak();
  const d = opts.x ?? (flag ? a : new Fox());
  d();
  d.speak();
  const only = flag ? a : undefined;
  only();
  const both = flag && b;
  both();
  var re = flag ? a : b;
  var re = c;
  re();
}
module.exports = { pick };
"""

TS = """
// --- path: m.ts ---
export class Cat { speak(): void {} }
export class Dog { speak(): void {} }
export function main(flag: boolean) {
  const pet: Cat = flag ? new Cat() : new Dog();
  pet.speak();
}
"""


def test_a_call_through_a_name_holding_either_operand_reaches_each() -> None:
    assert [e for e in edges(resolve_fixture(JS)) if e.startswith("lib.pick(2)") and "speak" in e] == [
        "lib.pick(2) -> lib.Cat.speak(0) [inferred]",  # pet: new Cat() or new Dog()
        "lib.pick(2) -> lib.Dog.speak(0) [inferred]",
        "lib.pick(2) -> lib.Fox.speak(0) [inferred]",  # d: opts.x (unknown), a, or new Fox(): Fox's speak
    ]


def test_the_union_per_call_site() -> None:
    result = resolve_fixture(JS)
    sites = sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in result.files for e in f.edges
                   if e.kind == "CALLS" and e.src.endswith("lib.pick(2)"))
    assert sites == [
        (9, "lib.a(0)", "inferred"), (9, "lib.b(0)", "inferred"),  # t(): either
        (11, "lib.c(0)", "exact"),  # u(): opts.fast is unknown, c the one known operand, as before
        (12, "lib.Cat", "exact"), (12, "lib.Dog", "exact"),  # the constructors called in the operands
        (13, "lib.Cat.speak(0)", "inferred"), (13, "lib.Dog.speak(0)", "inferred"),  # pet.speak()
        (14, "lib.Fox", "exact"),
        (15, "lib.a(0)", "inferred"),  # d(): a (calling an instance of Fox runs nothing)
        (16, "lib.Fox.speak(0)", "inferred"),  # d.speak(): Fox's; a function has no speak
        (18, "lib.a(0)", "exact"),  # only(): a alone (undefined binds nothing)
        (23, "lib.c(0)", "exact"),  # re(): the binding written last before the call decides, not the union
    ]  # negative: line 20 `both()` links nothing (`&&`), re() neither a nor b


def test_a_declared_type_on_the_line_decides_alone() -> None:
    assert edges(resolve_fixture(TS)) == [  # not Dog.speak: `pet: Cat` is what the compiler checks
        "m.main(1) -> m.Cat [exact]", "m.main(1) -> m.Cat.speak(0) [exact]", "m.main(1) -> m.Dog [exact]",
    ]
