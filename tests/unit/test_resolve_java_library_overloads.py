"""A repository class that extends or implements a library type (``implements Iterable<Handler>``,
``extends ArrayList<Handler>``) has the library's methods as members too (JLS 8.4.8): a call none of
the repository's namesake overloads can take (by arity, or a lambda where a ``String`` is declared)
is the library's (``Iterable.forEach``), and the lambda it is handed still runs. Exact edges per line,
and what must not be linked: the repository's inapplicable namesake, a class with no library
ancestor keeps its one candidate as before."""

from tests.resolution_harness import resolve_fixture, short

FIXTURE = """
// --- path: p/Handler.java ---
package p;
public class Handler { public void handle() { } }
// --- path: p/Stranger.java ---
package p;
public class Stranger { public void handle() { } public void forEach(Object o) { } }
// --- path: p/Chain.java ---
package p;
import java.util.ArrayList;
public class Chain extends ArrayList<Handler> { public void own() { } }
// --- path: p/Repo.java ---
package p;
import java.util.Iterator;
public class Repo implements Iterable<Handler> {
    public Iterator<Handler> iterator() { return null; }
    public void forEach(String s) { }
    public void remove(int a, int b) { }
}
// --- path: p/Own.java ---
package p;
import java.util.function.Consumer;
public class Own implements Iterable<Handler> {
    public java.util.Iterator<Handler> iterator() { return null; }
    public void forEach(Consumer<? super Handler> c) { }
}
// --- path: p/Plain.java ---
package p;
public class Plain { public void forEach(String s) { } }
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Chain chain, Repo repo, Own own, Plain plain) {
        chain.forEach(h -> h.handle());
        repo.forEach(h -> h.handle());
        repo.forEach("x");
        repo.remove(1);
        own.forEach(h -> h.handle());
        plain.forEach(k -> k.handle());
        for (Handler h : repo) { h.handle(); }
    }
}
"""


def test_a_call_no_repository_overload_takes_is_the_library_supertypes():
    calls = sorted({(e.line, short(e.dst).split(".", 1)[1]) for f in resolve_fixture(FIXTURE).files
                    for e in f.edges if e.kind == "CALLS" and e.file == "p/Use.java"})
    assert calls == [
        (4, "Handler.handle()"),  # ArrayList.forEach: the lambda runs on the elements
        (5, "Handler.handle()"),  # Iterable.forEach, not Repo.forEach(String): the lambda still runs
        (6, "Repo.forEach(String)"),  # a String: the repository's overload applies
        # remove(1): Repo declares only remove(int, int); the library's remove(Object) is meant
        (8, "Handler.handle()"), (8, "Own.forEach(Consumer)"),  # an override that applies is linked
        (9, "Plain.forEach(String)"),  # no library ancestor: the one candidate is kept, as before
        (10, "Handler.handle()"), (10, "Repo.iterator()"),
    ]
    # what must not be linked: the repository's inapplicable namesakes and an unrelated class's
    assert (5, "Repo.forEach(String)") not in calls and (7, "Repo.remove(int,int)") not in calls
    assert not [c for c in calls if c[1].startswith("Stranger.")]
