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
            "=n", "=this.x", '&["h()",[]]', "+=a|=b"),
        5: (),
        6: ('&["h()",[]]',),  # a call's result: the declared return type of the overload its arguments choose
    }


def test_a_class_has_the_overloads_it_inherits_and_arrays_choose_among_them():
    fixture = """
// --- path: p/Base.java ---
package p;
public class Base {
    protected void detail(StringBuilder b, String f, Object v) { }
    protected void detail(StringBuilder b, String f, int[] v) { }
    protected void detail(StringBuilder b, String f, long[] v) { }
    protected void detail(StringBuilder b, String f, int i, Object v) { }
    static boolean seen(Object a, Object b, java.util.Set<Object> registry) { return false; }
}
// --- path: p/Sub.java ---
package p;
public class Sub extends Base {
    @Override
    protected void detail(StringBuilder b, String f, Object v) { }
    static boolean seen(Object a, Object b) { return seen(a, b, null); }
    void go(StringBuilder b, int[] ints, final long[] longs, String s, Object[] objects) {
        detail(b, "x", ints);
        detail(b, "x", 1, s);
        detail(b, "x", s);
        super.detail(b, "x", longs);
        detail(b, "x", objects);
        detail(b, "x", null);
        new Sub().detail(b, "x", 2, longs);
    }
}
"""
    assert _sites(fixture, "detail") == [
        "Sub.java:7 -> Base.detail(StringBuilder,String,int) [exact]",  # int[]: Base's, not Sub.detail(Object)
        "Sub.java:8 -> Base.detail(StringBuilder,String,int,Object) [exact]",  # 4 arguments: the inherited one
        "Sub.java:9 -> Sub.detail(StringBuilder,String,Object) [exact]",  # a String is no array
        "Sub.java:10 -> Base.detail(StringBuilder,String,long) [inferred]",  # super: the long[] one
        "Sub.java:11 -> Sub.detail(StringBuilder,String,Object) [exact]",  # Object[] is no int[] / long[]
        "Sub.java:12 -> Base.detail(StringBuilder,String,int) [exact]",  # null fits all three: none lost
        "Sub.java:12 -> Base.detail(StringBuilder,String,long) [exact]",
        "Sub.java:12 -> Sub.detail(StringBuilder,String,Object) [exact]",
        "Sub.java:13 -> Base.detail(StringBuilder,String,int,Object) [inferred]",  # on an instance: inherited
    ]
    assert _sites(fixture, "seen") == [
        "Sub.java:5 -> Base.seen(Object,Object,Set) [exact]",  # not Sub.seen itself (2 parameters)
    ]


def test_a_class_overloads_never_hide_each_other_and_varargs_take_an_array():
    fixture = """
// --- path: p/Joiner.java ---
package p;
public final class Joiner<T> {
    public StringBuilder join(StringBuilder sb, Iterable<T> elements) { return sb; }
    public StringBuilder join(StringBuilder sb, @SuppressWarnings("unchecked") final T... elements) { return sb; }
}
// --- path: p/Use.java ---
package p;
public class Use {
    private static final Joiner<Object> J = new Joiner<>();
    void f(StringBuilder buf, Class<?> cls, final Type[] bounds, java.util.List<Object> list) {
        J.join(buf, (Object[]) cls.getTypeParameters());
        J.join(buf, bounds);
        J.join(buf, list);
    }
    void v(StringBuilder buf, Object... rest) {
        J.join(buf, rest);
    }
    void v(StringBuilder buf, List<Object> rest) {
        J.join(buf, rest);
    }
}
"""
    assert _sites(fixture, "join") == [  # the varargs overload is no override of join(sb, Iterable<T>)
        "Use.java:5 -> Joiner.join(StringBuilder,T...) [exact]",  # an array is no Iterable
        "Use.java:6 -> Joiner.join(StringBuilder,T...) [exact]",
        # a library class (List) is not compared with another (Iterable): both kept
        "Use.java:7 -> Joiner.join(StringBuilder,Iterable) [exact]",
        "Use.java:7 -> Joiner.join(StringBuilder,T...) [exact]",
        "Use.java:10 -> Joiner.join(StringBuilder,T...) [exact]",  # a varargs parameter is an array
        "Use.java:13 -> Joiner.join(StringBuilder,Iterable) [exact]",  # an overload's namesake parameter
        "Use.java:13 -> Joiner.join(StringBuilder,T...) [exact]",  # is no array
    ]


def test_a_bare_call_dispatches_from_the_one_overload_its_argument_types_choose():
    # `format(cal)` in Printer binds format(Calendar) of its three 1-parameter overloads and reaches
    # Fast's override of it, not Fast's format(long) / format(Date); `format(Util.convert(any))` of an
    # unknown argument keeps the three overloads and dispatches from none of them.
    fixture = """
// --- path: p/Printer.java ---
package p;
import java.util.Calendar;
import java.util.Date;
public abstract class Printer {
    String format(long millis) { return null; }
    String format(Date date) { return null; }
    String format(Calendar cal) { return null; }
    void go(Calendar cal, Object any) {
        format(cal);
        format(Util.convert(any));
    }
}
// --- path: p/Fast.java ---
package p;
import java.util.Calendar;
import java.util.Date;
public class Fast extends Printer {
    String format(long millis) { return null; }
    String format(Date date) { return null; }
    String format(Calendar cal) { return null; }
}
"""
    assert _sites(fixture, "format") == [
        "Printer.java:9 -> Fast.format(Calendar) [inferred]",
        "Printer.java:9 -> Printer.format(Calendar) [exact]",
        "Printer.java:10 -> Printer.format(Calendar) [exact]",  # a library call's result: unknown, no dispatch
        "Printer.java:10 -> Printer.format(Date) [exact]",
        "Printer.java:10 -> Printer.format(long) [exact]",
    ]


def test_a_primitive_varargs_parameter_and_a_later_overloads_namesake():
    fixture = """
// --- path: p/Arrays2.java ---
package p;
public class Arrays2 {
    public static boolean isEmpty(char[] array) { return false; }
    public static boolean isEmpty(Object[] array) { return false; }
    public static boolean isEmpty(CharSequence text) { return false; }
}
// --- path: p/Text.java ---
package p;
public class Text {
    static int indexOf(CharSequence cs, char... chars) {
        return Arrays2.isEmpty(chars) ? -1 : 0;
    }
    static int indexOf(CharSequence cs, CharSequence chars) {
        return Arrays2.isEmpty(chars) ? -1 : 0;
    }
}
"""
    assert _sites(fixture, "isEmpty") == [
        "Text.java:4 -> Arrays2.isEmpty(char) [exact]",  # char... is a char[]: not the CharSequence one below
        "Text.java:7 -> Arrays2.isEmpty(CharSequence) [exact]",
    ]


def _visitor_fixture(nodes: int) -> str:
    """Node classes ``Expr0``..``N<nodes-1>`` each with ``accept(V v, A a)`` calling ``v.visit(this,
    a)``; an interface ``V`` and two implementations declaring ``visit(Expri, A)`` for every node."""
    files = ["// --- path: p/Node.java ---\npackage p;\npublic abstract class Node { }\n"]
    for i in range(nodes):
        files.append(f"// --- path: p/Expr{i}.java ---\npackage p;\npublic class Expr{i} extends Node {{\n"
                     f"    public <A> void accept(V<A> v, A arg) {{ v.visit(this, arg); }}\n}}\n")
    for name, head in (("V", "public interface V<A>"), ("Printer", "public class Printer implements V<String>"),
                       ("Counter", "public class Counter<A> implements V<A>")):
        body = "".join(f"    {'' if name == 'V' else 'public '}void visit(Expr{i} n, {'String' if name == 'Printer' else 'A'} arg)"
                       f"{';' if name == 'V' else ' { }'}\n" for i in range(nodes))
        files.append(f"// --- path: p/{name}.java ---\npackage p;\n{head} {{\n{body}}}\n")
    return "".join(files)


def test_overloads_beyond_the_namesake_bound_are_chosen_by_argument_type_and_dispatch_by_signature():
    from indexer.resolve.context import MAX_NAMESAKES
    n = MAX_NAMESAKES + 6  # Expr0..Expr5 are not among the last 64 `visit` of a class
    sites = [s for s in _sites(_visitor_fixture(n), "visit") if s.startswith(("Expr0.java", "Expr69.java"))]
    # `this` is the enclosing class: V.visit(Expr0, A) and its two overrides, no other `visit`
    assert sites == sorted([
        "Expr0.java:3 -> Counter.visit(Expr0,A) [inferred]",
        "Expr0.java:3 -> Printer.visit(Expr0,String) [inferred]",
        "Expr0.java:3 -> V.visit(Expr0,A) [exact]",
        "Expr69.java:3 -> Counter.visit(Expr69,A) [inferred]",
        "Expr69.java:3 -> Printer.visit(Expr69,String) [inferred]",
        "Expr69.java:3 -> V.visit(Expr69,A) [exact]",
    ])


def test_a_call_of_unknown_arguments_binds_at_most_the_last_namesakes():
    from indexer.resolve.context import MAX_NAMESAKES
    n = MAX_NAMESAKES + 6
    fixture = _visitor_fixture(n) + """
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Printer p, String s) { p.visit(make(), s); }
}
"""
    sites = [s for s in _sites(fixture, "visit") if s.startswith("Use.java")]
    # make() is no method of the repository: every 2-parameter overload fits; the last 64 are bound
    assert sites == sorted(f"Use.java:3 -> Printer.visit(Expr{i},String) [exact]" for i in range(6, n))


FORMS = """
// --- path: p/Pet.java ---
package p;
public class Pet {
    public String name;
    public Pet mate;
    public Pet self() { return this; }
    public String label() { return name; }
    public int age() { return 0; }
    public String mixed() { return name; }
    public int mixed(int n) { return n; }
    void show() { Sink.take(this); }
}
// --- path: p/Cat.java ---
package p;
public class Cat extends Pet { }
// --- path: p/Job.java ---
package p;
public interface Job { void work(int a, int b); }
// --- path: p/Sink.java ---
package p;
public class Sink {
    static void take(String s) { }
    static void take(int n) { }
    static void take(long n) { }
    static void take(boolean b) { }
    static void take(Pet p) { }
    static void take(Class<?> c) { }
    static void take(Runnable r) { }
    static void take(Job j) { }
}
// --- path: p/Desk.java ---
package p;
public class Desk {
    void go(Pet pet, Cat cat, String s, int[] xs, Pet[] pets, long big, boolean flag) {
        Sink.take(pet.name);
        Sink.take(pet.self());
        Sink.take(pet.label());
        Sink.take(pet.age());
        Sink.take(s.length());
        Sink.take(Integer.parseInt(s));
        Sink.take(Long.valueOf(big));
        Sink.take(s + 1);
        Sink.take(big - 1);
        Sink.take(xs[0]);
        Sink.take(pets[0]);
        Sink.take(cat.mate);
        Sink.take(pet.hashCode());
        Sink.take(s == null);
        Sink.take(Pet.class);
        Sink.take(flag ? 1 : big - 1);
        Sink.take(flag ? cat : null);
        Sink.take(() -> { });
        Sink.take((a, b) -> { });
        Sink.take(this::go);
        Sink.take(pet.mixed());
    }
    void go() { }
}
"""


def test_arguments_typed_by_what_the_resolver_knows():
    sites = _sites(FORMS, "take")
    assert sites == [
        "Desk.java:4 -> Sink.take(String) [exact]",  # a field read: its declared type
        "Desk.java:5 -> Sink.take(Pet) [exact]",  # a call's result: the declared return type
        "Desk.java:6 -> Sink.take(String) [exact]",
        "Desk.java:7 -> Sink.take(int) [exact]",
        "Desk.java:8 -> Sink.take(int) [exact]",  # String.length()
        "Desk.java:9 -> Sink.take(int) [exact]",  # Integer.parseInt()
        "Desk.java:10 -> Sink.take(long) [exact]",  # Long.valueOf(): a Long, unboxed (no take(Long))
        "Desk.java:11 -> Sink.take(String) [exact]",  # string concatenation
        "Desk.java:12 -> Sink.take(long) [exact]",  # numeric promotion, not take(int)
        "Desk.java:13 -> Sink.take(int) [exact]",  # an array's element
        "Desk.java:14 -> Sink.take(Pet) [exact]",
        "Desk.java:15 -> Sink.take(Pet) [exact]",  # a field its class inherits
        "Desk.java:16 -> Sink.take(int) [exact]",  # Object.hashCode()
        "Desk.java:17 -> Sink.take(boolean) [exact]",  # a comparison
        "Desk.java:18 -> Sink.take(Class) [exact]",  # a class literal
        "Desk.java:19 -> Sink.take(long) [exact]",  # a conditional: its branches promoted
        "Desk.java:20 -> Sink.take(Pet) [exact]",  # a Cat or null: no library class (Class) takes a Cat
        "Desk.java:21 -> Sink.take(Runnable) [exact]",  # a lambda of no parameter: no Job, no value type
        "Desk.java:22 -> Sink.take(Job) [exact]",  # two parameters: Job.work(int, int)
        "Desk.java:23 -> Sink.take(Job) [exact]",  # a method reference: any functional interface
        "Desk.java:23 -> Sink.take(Runnable) [exact]",
        # overloads returning different types: the call's own arguments (none) choose mixed(), a String
        "Desk.java:24 -> Sink.take(String) [exact]",
        "Pet.java:10 -> Sink.take(Pet) [exact]",  # `this`: the enclosing class
    ]


def test_java_operator_member_and_lambda_types():
    from indexer.languages.java.conversions import combined_type, functional_assignable, member_type, value_assignable

    assert [combined_type("+", ["int", "String"]), combined_type("+", ["int", "Long"]), combined_type("%", ["char", "short"]),
            combined_type("%", ["boolean", "Boolean"]), combined_type("%", ["int", None]), combined_type("+", ["", "int"]),
            combined_type("?", ["int", "null"]), combined_type("?", ["int", "double"]), combined_type("?", ["String", "int"]),
            combined_type("?", ["", ""])] == ["String", "long", "int", "boolean", None, None, "Integer", "double", None, None]
    assert [member_type("String", "length()", False), member_type("Integer", "valueOf()", True),
            member_type("Integer", "MAX_VALUE", True), member_type("", "toString()", False),
            member_type("", "toString()", True), member_type("List", "size()", False),
            member_type("String", "length()", True)] == ["int", "Integer", "int", "String", None, None, None]
    assert [functional_assignable("->1", "Function"), functional_assignable("->0", "Function"),
            functional_assignable("::", "Supplier"), functional_assignable("->1", "Object"),
            functional_assignable("->1", "String"), functional_assignable("->1", "Handler")] == [True, False, True, False, False, None]
    # a value type goes to no other library class, but may go to a type variable
    assert [value_assignable("String", "Class", True), value_assignable("int", "Class", True),
            value_assignable("String", "T", True), value_assignable("Class", "String", True),
            value_assignable("Class", "Handler", True)] == [False, False, None, False, None]


def test_the_most_specific_of_the_overloads_certainly_applicable():
    fixture = OWNER + """
// --- path: p/Tags.java ---
package p;
import java.io.File;
public class Tags {
    static void tag(Object o) { }
    static void tag(Pet p) { }
    static void tag(Cat c) { }
    void go(Cat cat, Pet pet, String s, File f, java.util.List<Pet> list) {
        tag(cat);
        tag(pet);
        tag(s);
        tag(null);
        tag(f);
        tag(list.get(0));
    }
}
"""
    assert _sites(fixture, "tag") == [
        "Tags.java:8 -> Tags.tag(Cat) [exact]",  # Cat fits all three; tag(Cat) is the most specific
        "Tags.java:9 -> Tags.tag(Pet) [exact]",
        "Tags.java:10 -> Tags.tag(Object) [exact]",  # a String is no Pet
        "Tags.java:11 -> Tags.tag(Cat) [exact]",  # null fits all three: the most specific
        "Tags.java:12 -> Tags.tag(Object) [exact]",  # a library class is no Pet
        "Tags.java:13 -> Tags.tag(Cat) [exact]",  # a library call's result: unknown, all kept
        "Tags.java:13 -> Tags.tag(Object) [exact]",
        "Tags.java:13 -> Tags.tag(Pet) [exact]",
    ]
