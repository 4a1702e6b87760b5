"""Java calls the code states without naming them, and types it states without a declaration
(``indexer/languages/java/implicit.py``, ``narrowing.allocations``, ``JavaExtractor._var_binding``):
try-with-resources ``close()``, the enhanced ``for``'s ``iterator()``, string conversion's
``toString()``, ``var`` typed by a cast, a local initialised with ``new C()``. Exact edges per line,
and what must not bind: a JDK value, a primitive, a numeric ``+``, a reassigned local, an anonymous
class, a class the initialiser does not build."""

from tests.resolution_harness import resolve_fixture, short

CLASSES = """
// --- path: p/Base.java ---
package p;
public class Base { public void m() { } public String toString() { return "b"; } }
// --- path: p/Sub.java ---
package p;
public class Sub extends Base { public void m() { } public void only() { } public String toString() { return "s"; } }
// --- path: p/Other.java ---
package p;
public class Other extends Base { public void m() { } public void only() { } }
// --- path: p/Res.java ---
package p;
public class Res implements AutoCloseable { public void close() { } }
// --- path: p/Bag.java ---
package p;
import java.util.Iterator;
public class Bag implements Iterable<Sub> { public Iterator<Sub> iterator() { return new It(); } }
// --- path: p/It.java ---
package p;
import java.util.Iterator;
public class It implements Iterator<Sub> { public boolean hasNext() { return false; } public Sub next() { return null; } }
// --- path: p/Task.java ---
package p;
public class Task implements Runnable { public void run() { } }
// --- path: p/Job.java ---
package p;
public class Job implements Runnable { public void run() { } }
// --- path: p/Worker.java ---
package p;
public class Worker extends Thread { public void run() { } }
"""


def _lines(fixture: str, path: str) -> list[str]:
    """``line: Class.method [resolution]`` of every CALLS edge to a method written in ``path``, sorted."""
    out = set()
    for f in resolve_fixture(fixture).files:
        for e in f.edges:
            if e.kind == "CALLS" and e.file == path and "(" in e.dst:
                dst = short(e.dst).split(".", 1)[1].split("(")[0]
                out.add((e.line, f"{dst} [{e.resolution}]"))
    return [f"{line}: {dst}" for line, dst in sorted(out)]


def test_calls_the_compiler_writes():
    fixture = CLASSES + """
// --- path: p/Use.java ---
package p;
import java.util.List;
import java.io.StringReader;
public class Use {
    Res held = new Res();
    void go(Base b, Sub s, int n, List<Sub> subs, String text) throws Exception {
        try (Res r = new Res()) { }
        try (var r2 = new Res(); StringReader in = new StringReader(text)) { }
        try (held) { }
        for (Sub x : new Bag()) { }
        for (Sub x : subs) { }
        String a = "b=" + b;
        String c = "s=" + s + " n=" + n + text;
        String d = n + 1 + "";
        String e = (s) + "";
        String f = "" + s.toString();
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "7: Res.close [exact]",
        "8: Res.close [inferred]",  # `var`: what `new Res()` builds; the JDK reader: nothing
        "9: Res.close [exact]",  # Java 9: a field as the resource
        "10: Bag.iterator [exact]",  # and It.hasNext / next: Bag.iterator() returns a JDK Iterator
        # line 11: a JDK List iterates itself: nothing
        "12: Base.toString [exact]",
        "12: Sub.toString [inferred]",  # an override of the declared type's
        "13: Sub.toString [exact]",  # `n` an int, `text` a String: nothing
        # line 14: `n + 1` is a sum, then an int converted: nothing
        "15: Sub.toString [exact]",
        "16: Sub.toString [exact]",  # the explicit call only (one edge, its own site)
    ]


def test_an_iterator_of_the_repository_is_run_too():
    fixture = CLASSES + """
// --- path: p/Bag2.java ---
package p;
public class Bag2 implements Iterable<Sub> { public It iterator() { return new It(); } }
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Bag2 bag) {
        for (Sub x : bag) { x.only(); }
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "4: Bag2.iterator [exact]",
        "4: It.hasNext [inferred]",  # through what iterator() returns
        "4: It.next [inferred]",
        "4: Sub.only [exact]",
    ]


def test_var_typed_by_a_cast():
    fixture = CLASSES + """
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Object o, boolean c) {
        var v = (Sub) o;
        v.only();
        var w = c ? (Sub) o : null;
        w.only();
        var z = c ? (Sub) o : (Other) o;
        z.only();
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "5: Sub.only [exact]",
        "7: Sub.only [exact]",
        # line 9: a `?:` of two classes holds neither: nothing
    ]


def test_a_local_holds_the_class_its_initialiser_builds():
    fixture = CLASSES + """
// --- path: p/Use.java ---
package p;
public class Use {
    void go(boolean c, Runnable given) {
        Runnable r = new Task();
        r.run();
        Thread t = new Worker();
        t.start();
        Base b = new Sub();
        b.m();
        Object o = new Sub();
        o.toString();
        Runnable again = new Task();
        if (c) again = new Job();
        again.run();
        Base anon = new Base() { public void m() { } };
        anon.m();
        given.run();
    }
    void other(Base b) {
        b.m();
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "5: Task.run [inferred]",  # not Job.run
        "7: Worker.run [inferred]",  # Thread.start runs the subclass's run
        "9: Base.m [exact]",  # what the compiler binds, kept
        "9: Sub.m [inferred]",  # not Other.m
        "11: Sub.toString [inferred]",
        # line 14: `again` assigned in the block: nothing known of it
        "16: Base.m [exact]",  # an anonymous class: the declared type, as before
        "16: Other.m [inferred]",
        "16: Sub.m [inferred]",
        # line 17: a parameter of a JDK interface: nothing
        "20: Base.m [exact]",  # another method's `b`: every override, as before
        "20: Other.m [inferred]",
        "20: Sub.m [inferred]",
    ]


def test_the_jdk_converts_what_it_is_handed_to_a_string():
    fixture = """
// --- path: p/Item.java ---
package p;
public class Item { public String toString() { return "i"; } }
// --- path: p/Plain.java ---
package p;
public class Plain { }
// --- path: p/Use.java ---
package p;
import java.util.Objects;
import java.io.PrintWriter;
public class Use {
    void go(Item it, Plain plain, PrintWriter w, int n) {
        String.valueOf(it);
        Objects.toString(it);
        StringBuilder sb = new StringBuilder(); sb.append(it);
        System.out.println(it);
        w.print(it);
        String.format("%s", it);
        String.valueOf(n);
        String.valueOf(plain);
        it.toString();
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "6: Item.toString [inferred]",
        "7: Item.toString [inferred]",
        "8: Item.toString [inferred]",
        "9: Item.toString [inferred]",
        "10: Item.toString [inferred]",
        "11: Item.toString [inferred]",
        # line 12: an int; line 13: a class without its own toString (Object's runs): nothing
        "14: Item.toString [exact]",
    ]


def test_final_classes_of_java_lang_are_the_jdks():
    fixture = """
// --- path: p/Text.java ---
package p;
public class Text {
    public static String valueOf(char c) { return ""; }
    public static int parseInt(String s) { return 0; }
    public char charAt(int i) { return 'a'; }
}
// --- path: p/Use.java ---
package p;
public class Use {
    void go(String s, StringBuilder sb, CharSequence cs, Text t) {
        String.valueOf('c');
        Integer.parseInt(s);
        sb.charAt(0);
        new StringBuilder(s).charAt(0);
        t.charAt(0);
        Text.valueOf('c');
        cs.charAt(0);
    }
}
"""
    # java.lang's final classes (imported on demand, JLS 7.3) are the library's: no method of the
    # repository matched by name for them (lines 4-7); an interface (`CharSequence`, line 10) may be a
    # repository class's, matched by name as before
    assert _lines(fixture, "p/Use.java") == [
        "8: Text.charAt [exact]",
        "9: Text.valueOf [exact]",
        "10: Text.charAt [name]",
    ]
    unresolved = {(u.name, u.line) for f in resolve_fixture(fixture).files for u in f.unresolved}
    assert not {n for n, line in unresolved if line in (4, 5, 6, 7)}


def test_string_builders_choose_overloads():
    fixture = """
// --- path: p/Sink.java ---
package p;
public class Sink {
    public void put(StringBuilder b) { }
    public void put(StringBuffer b) { }
    public void put(CharSequence b) { }
    public void take(Appendable a) { }
    public void take(String s) { }
}
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Sink k, StringBuffer buf) {
        k.put(new StringBuilder());
        k.put(buf);
        k.take(buf);
    }
}
"""
    # each builder fits its own overload, which is more specific than CharSequence's (JLS 15.12.2.5);
    # a StringBuffer is an Appendable, never a String
    assert _lines(fixture, "p/Use.java") == [
        "4: Sink.put [exact]",
        "5: Sink.put [exact]",
        "6: Sink.take [exact]",
    ]
    calls = sorted((e.line, short(e.dst)) for f in resolve_fixture(fixture).files for e in f.edges
                   if e.kind == "CALLS" and e.file == "p/Use.java")
    assert calls == [(4, "p/Sink.Sink.put(StringBuilder)"), (5, "p/Sink.Sink.put(StringBuffer)"),
                     (6, "p/Sink.Sink.take(Appendable)")]


def test_a_bare_call_names_a_method_not_a_variable():
    fixture = """
// --- path: p/Printer.java ---
package p;
public class Printer {
    String out(Printer p) { StringBuilder out = new StringBuilder(); out(this); return ""; }
    String err(Printer p) { Printer err = p; err(p); return ""; }
    Printer other;
    void other() { other(); other.err(this); }
}
"""
    # JLS 6.5.7.1: `out(this)` calls the method `out` whatever local is named `out` (a JDK value or
    # one of the repository's); the field `other` still is the receiver of `other.err(this)`
    calls = sorted((e.line, short(e.dst)) for f in resolve_fixture(fixture).files for e in f.edges
                   if e.kind == "CALLS")
    assert calls == [(3, "p/Printer.Printer.out(Printer)"), (4, "p/Printer.Printer.err(Printer)"),
                     (6, "p/Printer.Printer.err(Printer)"), (6, "p/Printer.Printer.other()")]


def test_a_static_import_beside_a_namesake_parameter_of_an_overload():
    fixture = """
// --- path: p/Providers.java ---
package p;
public class Providers { public static Providers provider(String s) { return null; } }
// --- path: p/Parser.java ---
package p;
import static p.Providers.provider;
public class Parser {
    void parse(int start, Providers provider) { }
    void parse(String s) { parse(0, provider(s)); }
}
"""
    # overloads share a scope: `parse(int, Providers provider)`'s parameter is no variable of
    # `parse(String)`, whose `provider(s)` is the method imported
    calls = sorted((e.line, short(e.dst)) for f in resolve_fixture(fixture).files for e in f.edges
                   if e.kind == "CALLS" and e.file == "p/Parser.java")
    assert calls == [(5, "p/Parser.Parser.parse(int,Providers)"), (5, "p/Providers.Providers.provider(String)")]


def test_a_method_of_fixed_arity_is_chosen_before_a_variadic_one():
    fixture = """
// --- path: p/Rand.java ---
package p;
import java.util.Random;
public class Rand {
    static Random random() { return null; }
    static String random(int count, char... chars) { return ""; }
    static String random(int count, int start, boolean letters, char[] chars, Random random) { return ""; }
    static String random(int count, int start, boolean letters, char... chars) { return ""; }
    static String next(int count, char[] chars) {
        random(count, 0, false, chars, new Random());
        random(count, 'a', 'b');
        return random(count, 0, false, chars);
    }
}
"""
    # JLS 15.12.2: phases 1 and 2 weigh no variable arity invocation (line 9: not `random(int,
    # char...)`); only when no method applies there does phase 3 (lines 10-11; a variadic
    # parameter's elements are not compared with the arguments: line 11 keeps both variadic ones)
    calls = sorted((e.line, short(e.dst).split(".", 2)[2]) for f in resolve_fixture(fixture).files for e in f.edges
                   if e.kind == "CALLS" and e.file == "p/Rand.java")
    assert calls == [
        (9, "random(int,int,boolean,char,Random)"),  # every argument's type certainly fits it
        (10, "random(int,char...)"),
        (11, "random(int,char...)"),
        (11, "random(int,int,boolean,char...)"),
    ]


def test_an_argument_of_unknown_type_keeps_the_variadic_overload():
    fixture = """
// --- path: p/Validate.java ---
package p;
public class Validate {
    public static void isTrue(boolean b, String message, long value) { }
    public static void isTrue(boolean b, String message, Object... values) { }
    static void use(java.lang.reflect.Field field, boolean b) {
        isTrue(b, "the field %s", field.getName());
        isTrue(b, "the value %d", 1L);
    }
}
"""
    # `field.getName()`: a JDK method's result, unknown here: it may need the variadic overload (javac
    # picks it: a String is no long); `1L` certainly fits `long`: the fixed-arity one alone
    calls = sorted((e.line, short(e.dst).split(".", 2)[2]) for f in resolve_fixture(fixture).files for e in f.edges
                   if e.kind == "CALLS")
    assert calls == [(6, "isTrue(boolean,String,Object...)"), (6, "isTrue(boolean,String,long)"),
                     (7, "isTrue(boolean,String,long)")]


def test_a_generated_concatenation_of_thousands_of_terms():
    from indexer.languages import extractor_for_path

    # a `+` chain nests as deep as it is long: walked without recursion, every term converted once
    source = 'class A { String f(Object o) { return "a"' + " + o" * 3000 + "; } }"
    ex = extractor_for_path("A.java").extract("A.java", source.encode())
    assert ex.errors == []
    assert [(c.name, c.receiver) for c in ex.calls if c.via == "dunder"] == [("toString", "o")] * 3000
    numeric = "class A { int f(int n) { return n" + " + n" * 3000 + "; } }"
    ex = extractor_for_path("A.java").extract("A.java", numeric.encode())
    assert ex.errors == [] and [c for c in ex.calls if c.via == "dunder"] == []
