"""A call written as another call's argument (``max(max(a, b), c)``, ``foo(Util.idem(3))``): its
own arguments choose among its overloads first, and the chosen overload's declared return type is
the argument's type for the outer call's overload choice (JLS 15.12.2). Exact edges per line, and
what must not be chosen: a call whose return type is unknown keeps every outer overload."""

from indexer.languages import extractor_for_path
from tests.resolution_harness import resolve_fixture, short

FIXTURE = """
// --- path: p/Util.java ---
package p;
public class Util {
    static int idem(int x) { return x; }
    static String idem(String x) { return x; }
}
// --- path: p/M.java ---
package p;
public class M {
    static int max(int a, int b) { return a; }
    static long max(long a, long b) { return a; }
    static double max(double a, double b) { return a; }
    static String bar() { return ""; }
    static int baz(int x) { return x; }
    static String baz(String x) { return x; }
    static void foo(String s) { }
    static void foo(int i) { }
    void go(int a, int b, int c, long l, Object o, Thing t) {
        max(max(a, b), c);
        max(max(l, b), c);
        foo(bar());
        foo(baz(1));
        foo(baz("x"));
        foo(baz(o.hashCode()));
        foo(Util.idem(3));
        foo(Util.idem("x"));
        foo(baz(t));
        foo(unknown());
        foo(max(max(max(max(max(a, b), c), a), b), c));
    }
}
"""


def _calls(fixture: str, path: str) -> list[tuple[int, str]]:
    """``(line, callee)`` of every CALLS edge written in ``path``, sorted."""
    return sorted({(e.line, short(e.dst).split(".", 1)[1]) for f in resolve_fixture(fixture).files
                   for e in f.edges if e.kind == "CALLS" and e.file == path})


def test_an_inner_calls_overload_gives_the_outer_call_its_argument_type():
    calls = _calls(FIXTURE, "p/M.java")
    assert calls == [
        (12, "M.max(int,int)"),  # both the inner and the outer call: int, int
        (13, "M.max(long,long)"),  # max(long, int) is long's; then max(long, int) again
        (14, "M.bar()"), (14, "M.foo(String)"),  # one overload: its return type, as before
        (15, "M.baz(int)"), (15, "M.foo(int)"),
        (16, "M.baz(String)"), (16, "M.foo(String)"),
        (17, "M.baz(int)"), (17, "M.foo(int)"),  # Object.hashCode() is an int
        (18, "M.foo(int)"), (18, "Util.idem(int)"),  # a class's static method, qualified
        (19, "M.foo(String)"), (19, "Util.idem(String)"),
        # an argument of unknown type (`Thing` is no class here) keeps both inner overloads, so the
        # outer call's argument type is unknown and both outer overloads are kept
        (20, "M.baz(String)"), (20, "M.baz(int)"), (20, "M.foo(String)"), (20, "M.foo(int)"),
        (21, "M.foo(String)"), (21, "M.foo(int)"),  # no declared return type: both kept
        # nested five deep: every max(..) site is chosen by its own arguments, but the fifth call
        # is past the bound on written-out arguments, so foo's argument type is unknown
        (22, "M.foo(String)"), (22, "M.foo(int)"), (22, "M.max(int,int)"),
    ]
    # what must not be linked: the wider overloads an int argument also fits
    assert not [c for c in calls if c[0] == 12 and c[1] != "M.max(int,int)"]
    assert (13, "M.max(double,double)") not in calls and (13, "M.max(int,int)") not in calls


def test_the_extracted_form_of_a_call_as_an_argument():
    src = """package p;
class A {
    void f(int n) {
        g(h(n, "s"), k(), Util.m(1L), x.y(h(n)));
        g(h(h(h(h(h(h(n)))))));
        g(1 + h(n));
    }
}
"""
    ex = extractor_for_path("p/A.java").extract("p/A.java", src.encode())
    by_line = {c.line: c.arg_types for c in ex.calls if c.name == "g"}
    assert by_line == {
        4: ('&["h()",["=n","String"]]', '&["k()",[]]', '&["Util.m()",["long"]]', '&["x.y()",[["h()",["=n"]]]]'),
        # four calls' arguments are written out, nested as lists; the fifth call is a plain `@` form
        5: ('&["h()",[["h()",[["h()",[["h()",["@h()"]]]]]]]]',),
        6: ("+int|@h()",),  # an operand keeps the plain form
    }
