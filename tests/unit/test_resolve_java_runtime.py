"""Code the JVM runs (issue 16, item 11): static initialisers and serialization hooks are entry
points (kind ``runtime``), ``Thread.start()`` reaches the subclass's ``run()``, a reflective
``X.class.getMethod("m")`` calls ``X.m``. Exact edges and facts, and what must not bind."""

from indexer.languages import extractor_for_path
from indexer.model import EntryRegistration
from tests.resolution_harness import check, resolve_fixture


def test_static_initialisers_and_serialization_hooks_are_runtime_entries():
    src = """package p;
import java.io.*;
public class Cache implements Serializable {
    static { warm(); }
    static void warm() { }
    private void readObject(ObjectInputStream in) { warm(); }
    private void writeObject(ObjectOutputStream out) { }
    private Object readResolve() { return this; }
    private void readObject(String notAStream) { }
    public Object writeReplace(int x) { return null; }
    class Inner { static { } }
}
"""
    ex = extractor_for_path("p/Cache.java").extract("p/Cache.java", src.encode())
    assert sorted(ex.entries, key=lambda e: (e.line, e.col)) == [
        EntryRegistration("jvm", "runtime", "Cache", 4, 4, name="static initialiser"),
        EntryRegistration("jvm", "runtime", "Cache.readObject", 6, 17, name="serialization"),
        EntryRegistration("jvm", "runtime", "Cache.writeObject", 7, 17, name="serialization"),
        EntryRegistration("jvm", "runtime", "Cache.readResolve", 8, 19, name="serialization"),
        EntryRegistration("jvm", "runtime", "Cache.Inner", 11, 18, name="static initialiser"),
    ]
    result = resolve_fixture(f"// --- path: p/Cache.java ---\n{src}")
    entries = sorted((e.src.split(":", 1)[1], e.props["kind"]) for f in result.files for e in f.edges if e.kind == "ENTRY")
    assert entries == [("p/Cache.Cache", "runtime"), ("p/Cache.Cache.Inner", "runtime"),
                       ("p/Cache.Cache.readObject(ObjectInputStream)", "runtime"),
                       ("p/Cache.Cache.readResolve()", "runtime"),
                       ("p/Cache.Cache.writeObject(ObjectOutputStream)", "runtime")]


def test_thread_start_reaches_run_of_a_known_thread_subclass():
    result = check("""
// --- path: p/Worker.java ---
package p;
public class Worker extends Thread {
    public void run() { }
}
// --- path: p/Fast.java ---
package p;
public class Fast extends Worker {
    public void run() { }
}
// --- path: p/Engine.java ---
package p;
public class Engine {
    public void start() { }
    public void run() { }
}
// --- path: p/Boot.java ---
package p;
public class Boot {
    void go(Worker w, Engine e) {
        w.start();
        new Fast().start();
        e.start();
        w.start(1);
    }
}
""", [
        "p/Boot.Boot.go(Worker,Engine) -> p/Worker.Worker.run() [inferred]",
        "p/Boot.Boot.go(Worker,Engine) -> p/Fast.Fast.run() [inferred]",  # dispatch, and `new Fast()`
        "p/Boot.Boot.go(Worker,Engine) -> p/Fast.Fast [exact]",
        # Engine is no Thread: its own start(), never its run()
        "p/Boot.Boot.go(Worker,Engine) -> p/Engine.Engine.start() [exact]",
    ])
    # `w.start(1)` is no Thread.start(): it reaches no run() (the JDK's overload, outside)
    assert [u.name for f in result.files for u in f.unresolved] == []


def test_reflective_get_method_with_a_literal_name():
    result = check("""
// --- path: p/Plugin.java ---
package p;
public class Plugin {
    public void activate() { }
}
// --- path: p/Loader.java ---
package p;
public class Loader {
    void load(String name) throws Exception {
        Plugin.class.getMethod("activate").invoke(new Plugin());
        Plugin.class.getDeclaredMethod(name);
        Plugin.class.getMethod("missing");
    }
}
""", [
        "p/Loader.Loader.load(String) -> p/Plugin.Plugin.activate() [exact]",
        "p/Loader.Loader.load(String) -> p/Plugin.Plugin [exact]",
    ])
    # a method the class does not declare binds nothing; the reflection API itself is the JDK's
    assert [(u.name, u.receiver) for f in result.files for u in f.unresolved] == [
        ("getMethod", "Plugin.class"), ("invoke", "Plugin.class.getMethod()"), ("getDeclaredMethod", "Plugin.class"),
        ("getMethod", "Plugin.class"), ("missing", "Plugin")]


def test_class_for_name_and_reflective_construction_with_literal_names():
    result = check("""
// --- path: p/Plugin.java ---
package p;
public class Plugin {
    static { }
    public Plugin() { }
    public Plugin(String s) { }
    public void activate() { }
}
// --- path: p/Loader.java ---
package p;
public class Loader {
    void load(String name) throws Exception {
        Class.forName("p.Plugin");
        Class.forName("p.Plugin").getDeclaredConstructor().newInstance();
        Class.forName("p.Plugin").getConstructor(String.class).newInstance("x");
        Class.forName("p.Plugin").getMethod("activate");
        Class.forName("com.mysql.jdbc.Driver").newInstance();
        Class.forName(name).newInstance();
        Class.forName("p.Missing");
    }
}
""", [
        # loading the class (its static initialiser is the class's code), each constructor by the
        # parameter types named, the method named
        "p/Loader.Loader.load(String) -> p/Plugin.Plugin [exact]",
        "p/Loader.Loader.load(String) -> p/Plugin.Plugin.Plugin() [exact]",
        "p/Loader.Loader.load(String) -> p/Plugin.Plugin.Plugin(String) [exact]",
        "p/Loader.Loader.load(String) -> p/Plugin.Plugin.activate() [exact]",
    ])
    # a library class, a name not written as a literal, a class the repository lacks: nothing bound,
    # and no reflective site is left as an unresolved call of its own; the JDK calls written are calls
    # of `java.lang.Class` (imported on demand, JLS 7.3): the library's, not unresolved either
    loader = next(f for f in result.files if f.file.path == "p/Loader.java")
    assert sorted({u.name for u in loader.unresolved}) == []
    assert all(u.name not in ("Plugin", "Driver", "Missing", "activate") for u in loader.unresolved)


def test_thread_and_executor_run_the_handed_runnable_or_callable_of_a_known_class():
    check("""
// --- path: p/Task.java ---
package p;
public class Task implements Runnable {
    public void run() { }
}
// --- path: p/Job.java ---
package p;
import java.util.concurrent.Callable;
public class Job implements Callable<String> {
    public String call() { return ""; }
    public void run() { }
}
// --- path: p/Boot.java ---
package p;
import java.util.concurrent.ExecutorService;
public class Boot {
    private Task task = new Task();
    void go(ExecutorService executor, Job job, Runnable any) {
        new Thread(task).start();
        executor.submit(job);
        executor.execute(new Task());
        executor.execute(any);
        helper(job);
    }
    void helper(Job j) { }
}
""", [
        "p/Boot.Boot -> p/Task.Task [exact]",
        "p/Boot.Boot.go(ExecutorService,Job,Runnable) -> p/Boot.Boot.helper(Job) [exact]",
        "p/Boot.Boot.go(ExecutorService,Job,Runnable) -> p/Task.Task [exact]",
        # new Thread(task) and execute(new Task()) run Task.run(); submit of a Callable runs call(),
        # not its run(); a Runnable of unknown class and a repository method handed a Job run nothing
        "p/Boot.Boot.go(ExecutorService,Job,Runnable) -> p/Task.Task.run() [inferred]",
        "p/Boot.Boot.go(ExecutorService,Job,Runnable) -> p/Job.Job.call() [inferred]",
    ])


def test_method_handle_lookups_with_literal_names():
    result = check("""
// --- path: p/Plugin.java ---
package p;
public class Plugin {
    public Plugin() { }
    public static String make() { return ""; }
    public String name() { return ""; }
    protected void reset() { }
}
// --- path: p/Loader.java ---
package p;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
public class Loader {
    void load(String n, MethodType t) throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodHandles.lookup().findStatic(Plugin.class, "make", t).invokeExact();
        lookup.findVirtual(Plugin.class, "name", t);
        lookup.findSpecial(Plugin.class, "reset", t, Loader.class);
        lookup.findConstructor(Plugin.class, t);
        lookup.findVirtual(Plugin.class, n, t);
        lookup.findVirtual(Plugin.class, "missing", t);
        lookup.findVirtual(Object.class, "toString", t);
        lookup.findStaticGetter(Plugin.class, "make", String.class);
    }
}
""", [
        # each method named by a literal on a class literal; the constructor (arity unknown: all)
        "p/Loader.Loader.load(String,MethodType) -> p/Plugin.Plugin.make() [exact]",
        "p/Loader.Loader.load(String,MethodType) -> p/Plugin.Plugin.name() [exact]",
        "p/Loader.Loader.load(String,MethodType) -> p/Plugin.Plugin.reset() [exact]",
        "p/Loader.Loader.load(String,MethodType) -> p/Plugin.Plugin.Plugin() [exact]",
    ])
    # a name not written as a literal, a method the class lacks, a JDK class, a field getter: nothing
    # bound, and no reflective site left unresolved (`missing`, `toString`); the java.lang.invoke
    # calls themselves are the JDK's (external, not unresolved)
    loader = next(f for f in result.files if f.file.path == "p/Loader.java")
    assert [u.name for u in loader.unresolved] == []
