"""Overloads of one arity chosen by the types of a call's arguments (JLS 15.12.2): literals, typed
locals / parameters / fields, ``new X()``, casts, boxing, ``null``, subclasses; all overloads kept
when no argument's type is known. Exact edges per call site, and what must not bind."""

from indexer.languages import extractor_for_path
from tests.resolution_harness import resolve_fixture, short


def _sites(fixture: str, callee: str) -> list[str]:
    """``file:line -> overload [resolution]`` of every CALLS edge to a method named ``callee``, sorted."""
    result = resolve_fixture(fixture)
    out = set()
    for f in result.files:
        for e in f.edges:
            dst = short(e.dst).split(".", 1)[1]
            if e.kind == "CALLS" and dst.split("(")[0].rsplit(".", 1)[-1] == callee:
                out.add((e.file.rsplit("/", 1)[-1], e.line, f"{dst} [{e.resolution}]"))
    return [f"{file}:{line} -> {dst}" for file, line, dst in sorted(out)]


OWNER = """
// --- path: p/Pet.java ---
package p;
public class Pet { }
// --- path: p/Cat.java ---
package p;
public class Cat extends Pet { }
// --- path: p/Owner.java ---
package p;
public class Owner {
    public Pet getPet(String name) { return getPet(name, false); }
    public Pet getPet(Integer id) { return null; }
    public Pet getPet(String name, boolean ignoreNew) { return null; }
    public void visit(Integer petId) { Pet pet = getPet(petId); }
}
"""


def test_argument_types_pick_the_overload_of_one_arity():
    fixture = OWNER + """
// --- path: p/Clinic.java ---
package p;
public class Clinic {
    private Integer lastId;
    void run(Owner owner, int petId, String name, Object anything, long big) {
        owner.getPet(petId);
        owner.getPet(name);
        owner.getPet("Max");
        owner.getPet(7);
        owner.getPet(this.lastId);
        owner.getPet(lastId);
        owner.getPet(unknown());
        owner.getPet(null);
        owner.getPet((Integer) anything);
        owner.getPet(big);
        Integer boxed = 3;
        owner.getPet(boxed);
        owner.getPet(name, true);
    }
    Object unknown() { return null; }
}
"""
    assert _sites(fixture, "getPet") == [
        "Clinic.java:5 -> Owner.getPet(Integer) [exact]",  # int parameter: boxed to Integer, never String
        "Clinic.java:6 -> Owner.getPet(String) [exact]",  # String parameter
        "Clinic.java:7 -> Owner.getPet(String) [exact]",  # string literal
        "Clinic.java:8 -> Owner.getPet(Integer) [exact]",  # int literal
        "Clinic.java:9 -> Owner.getPet(Integer) [exact]",  # this.field
        "Clinic.java:10 -> Owner.getPet(Integer) [exact]",  # a field without this.
        "Clinic.java:11 -> Owner.getPet(Integer) [exact]",  # a call's result: unknown, every overload
        "Clinic.java:11 -> Owner.getPet(String) [exact]",
        "Clinic.java:12 -> Owner.getPet(Integer) [exact]",  # null fits any reference
        "Clinic.java:12 -> Owner.getPet(String) [exact]",
        "Clinic.java:13 -> Owner.getPet(Integer) [exact]",  # a cast
        "Clinic.java:14 -> Owner.getPet(Integer) [exact]",  # long fits neither: all kept, not lost
        "Clinic.java:14 -> Owner.getPet(String) [exact]",
        "Clinic.java:16 -> Owner.getPet(Integer) [exact]",  # a local declared Integer
        "Clinic.java:17 -> Owner.getPet(String,boolean) [exact]",  # arity alone
        "Owner.java:3 -> Owner.getPet(String,boolean) [exact]",  # a bare call in the class: arity
        "Owner.java:6 -> Owner.getPet(Integer) [exact]",  # a bare call: its argument's type, not the last overload
    ]


def test_repository_classes_subclasses_strict_before_loose_and_constructors():
    fixture = OWNER + """
// --- path: p/Shelter.java ---
package p;
public class Shelter {
    public Shelter(String name) { }
    public Shelter(Pet first) { }
    static void admit(Pet pet) { }
    static void admit(String name) { }
    static void admit(Owner owner) { }
    static void weigh(long grams) { }
    static void weigh(Integer grams) { }
    static void weigh(Object any) { }
    static void tag(Object any) { }
    static void tag(String text) { }
}
// --- path: p/Desk.java ---
package p;
public class Desk {
    void go(Cat cat, int n, Integer boxed) {
        Shelter.admit(cat);
        Shelter.admit(new Cat());
        Shelter.admit(new Owner());
        var pet = new Pet();
        Shelter.admit(pet);
        Shelter.weigh(n);
        Shelter.weigh(boxed);
        Shelter.weigh('c');
        Shelter.tag("x");
        Shelter.tag(cat);
        new Shelter(cat);
        new Shelter("Main St");
    }
}
"""
    assert _sites(fixture, "admit") == [
        "Desk.java:4 -> Shelter.admit(Pet) [exact]",  # a subclass fits its base's parameter, no other
        "Desk.java:5 -> Shelter.admit(Pet) [exact]",
        "Desk.java:6 -> Shelter.admit(Owner) [exact]",
        "Desk.java:8 -> Shelter.admit(Pet) [exact]",  # `var` constructed
    ]
    assert _sites(fixture, "weigh") == [
        "Desk.java:9 -> Shelter.weigh(long) [exact]",  # widening before boxing (JLS phase 1)
        "Desk.java:10 -> Shelter.weigh(Integer) [exact]",  # identity beats Object
        "Desk.java:11 -> Shelter.weigh(long) [exact]",  # char widens to long
    ]
    assert _sites(fixture, "tag") == [
        "Desk.java:12 -> Shelter.tag(String) [exact]",  # the most specific of the two that fit
        "Desk.java:13 -> Shelter.tag(Object) [exact]",  # a Cat is no String
    ]
    assert _sites(fixture, "Shelter") == [
        "Desk.java:14 -> Shelter.Shelter(Pet) [exact]",
        "Desk.java:15 -> Shelter.Shelter(String) [exact]",
    ]


def test_argument_types_as_extracted():
    src = """package p;
class A {
    void f(int n) {
        g("s", 1, 2L, 1.5, 2f, 'c', true, null, new java.util.ArrayList<String>(), (Long) o, n, this.x, h(), a + b);
        g();
        g(h());
    }
}
"""
    ex = extractor_for_path("p/A.java").extract("p/A.java", src.encode())
    by_line = {c.line: c.arg_types for c in ex.calls if c.name == "g"}
    assert by_line == {
        4: ("String", "int", "long", "double", "float", "char", "boolean", "null", "java.util.ArrayList", "Long",
            "=n", "=this.x", "", ""),
        5: (),
        6: (),  # no argument's type is known
    }
