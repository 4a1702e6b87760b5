"""Java call resolution: every hard case of the core issue, one named test each."""

from tests.resolution_harness import check, edges, resolve_fixture

REPOSITORY = """
// --- path: src/com/shop/repo/OwnerRepository.java ---
package com.shop.repo;

public interface OwnerRepository {
    Owner findById(int id);
    void save(Owner owner);
}
// --- path: src/com/shop/repo/JdbcOwnerRepository.java ---
package com.shop.repo;

public class JdbcOwnerRepository implements OwnerRepository {
    public Owner findById(int id) { return null; }
    public void save(Owner owner) { }
}
// --- path: src/com/shop/repo/Owner.java ---
package com.shop.repo;

public class Owner {
    public Owner() { }
    public Owner(String name) { }
    public String getName() { return ""; }
}
"""


def test_import_field_type_and_interface_reaches_implementations():
    check(
        REPOSITORY
        + """
// --- path: src/com/shop/web/OwnerController.java ---
package com.shop.web;

import com.shop.repo.OwnerRepository;

public class OwnerController {
    private final OwnerRepository owners;

    public OwnerController(OwnerRepository owners) { this.owners = owners; }

    public void show(int id) {
        owners.findById(id);
        this.owners.save(null);
    }
}
""",
        [
            "src/com/shop/web/OwnerController.OwnerController.show(int) -> src/com/shop/repo/OwnerRepository.OwnerRepository.findById(int) [exact]",
            "src/com/shop/web/OwnerController.OwnerController.show(int) -> src/com/shop/repo/JdbcOwnerRepository.JdbcOwnerRepository.findById(int) [inferred]",
            "src/com/shop/web/OwnerController.OwnerController.show(int) -> src/com/shop/repo/OwnerRepository.OwnerRepository.save(Owner) [exact]",
            "src/com/shop/web/OwnerController.OwnerController.show(int) -> src/com/shop/repo/JdbcOwnerRepository.JdbcOwnerRepository.save(Owner) [inferred]",
        ],
    )


def test_same_package_class_without_import_and_overloaded_constructors():
    check(
        REPOSITORY
        + """
// --- path: src/com/shop/repo/Seeder.java ---
package com.shop.repo;

class Seeder {
    void seed() {
        Owner a = new Owner();
        Owner b = new Owner("x");
        b.getName();
    }
}
""",
        [
            "src/com/shop/repo/Seeder.Seeder.seed() -> src/com/shop/repo/Owner.Owner.Owner() [exact]",
            "src/com/shop/repo/Seeder.Seeder.seed() -> src/com/shop/repo/Owner.Owner.Owner(String) [exact]",
            "src/com/shop/repo/Seeder.Seeder.seed() -> src/com/shop/repo/Owner.Owner.getName() [exact]",
        ],
    )


def test_this_bare_and_inherited_calls():
    check(
        """
// --- path: p/Base.java ---
package p;

public abstract class Base {
    protected void log(String m) { }
}
// --- path: p/Job.java ---
package p;

public class Job extends Base {
    void run() {
        step();
        this.step();
        log("x");
        super.log("y");
    }
    private void step() { }
}
""",
        [
            "p/Job.Job.run() -> p/Job.Job.step() [exact]",
            "p/Job.Job.run() -> p/Base.Base.log(String) [inferred]",
        ],
    )


def test_nested_class_caller_and_outer_method():
    check(
        """
// --- path: p/Outer.java ---
package p;

public class Outer {
    void helper() { }

    static class Inner {
        void method() {
            helper();
        }
    }
}
""",
        ["p/Outer.Outer.Inner.method() -> p/Outer.Outer.helper() [exact]"],
    )


def test_lambda_and_anonymous_class_calls_belong_to_enclosing_method():
    check(
        """
// --- path: p/Sched.java ---
package p;

import java.util.List;

public class Sched {
    void tick(int n) { }

    void start(List<Integer> items) {
        items.forEach(i -> tick(i));
        Runnable r = new Runnable() {
            public void run() { tick(0); }
        };
    }
}
""",
        ["p/Sched.Sched.start(List) -> p/Sched.Sched.tick(int) [exact]"],
    )


def test_known_type_never_binds_unrelated_class_method():
    result = check(
        """
// --- path: p/A.java ---
package p;

public class A {
    void close() { }
}
// --- path: p/B.java ---
package p;

public class B {
    void open() { }
}
// --- path: p/Use.java ---
package p;

public class Use {
    void go(B b) {
        b.close();
    }
}
""",
        [],
    )
    assert [u.name for f in result.files for u in f.unresolved] == ["close"]


def test_static_call_through_class_name_and_static_import():
    check(
        """
// --- path: p/util/Strings.java ---
package p.util;

public final class Strings {
    public static String trim(String s) { return s; }
}
// --- path: p/App.java ---
package p;

import p.util.Strings;
import static p.util.Strings.trim;

public class App {
    void main() {
        Strings.trim("a");
        trim("b");
    }
}
""",
        [
            "p/App.App.main() -> p/util/Strings.Strings.trim(String) [exact]",
        ],
    )


def test_spring_injection_and_type_edges():
    result = resolve_fixture(
        REPOSITORY
        + """
// --- path: src/com/shop/web/VisitController.java ---
package com.shop.web;

import com.shop.repo.OwnerRepository;
import com.shop.repo.Owner;
import org.springframework.beans.factory.annotation.Autowired;

@RestController
public class VisitController {
    @Autowired
    private OwnerRepository repo;

    public Owner latest() { return null; }
}
"""
    )
    assert edges(result, "INJECTS") == [
        "src/com/shop/web/VisitController.VisitController -> src/com/shop/repo/OwnerRepository.OwnerRepository"
    ]
    assert edges(result, "IMPLEMENTS") == [
        "src/com/shop/repo/JdbcOwnerRepository.JdbcOwnerRepository -> src/com/shop/repo/OwnerRepository.OwnerRepository"
    ]
    assert edges(result, "OVERRIDES") == [
        "src/com/shop/repo/JdbcOwnerRepository.JdbcOwnerRepository.findById(int) -> src/com/shop/repo/OwnerRepository.OwnerRepository.findById(int)",
        "src/com/shop/repo/JdbcOwnerRepository.JdbcOwnerRepository.save(Owner) -> src/com/shop/repo/OwnerRepository.OwnerRepository.save(Owner)",
    ]
    uses = [e for e in edges(result, "USES_TYPE") if e.startswith("src/com/shop/web/")]
    assert uses == [
        "src/com/shop/web/VisitController.VisitController.latest() -> src/com/shop/repo/Owner.Owner",
        "src/com/shop/web/VisitController.VisitController.repo -> src/com/shop/repo/OwnerRepository.OwnerRepository",
    ]


def test_the_class_name_inside_its_own_class_is_the_class_not_its_constructor():
    # grpc-java's RouteGuideClient.main: `RouteGuideClient client = new RouteGuideClient(ch);
    # client.getFeature(...)` bound by name only, because `RouteGuideClient` inside the class found
    # the constructor RouteGuideClient.RouteGuideClient first; `A.helper()` in A's constructor too.
    # Other classes declaring getFeature / helper must not be reached.
    check(
        """
// --- path: src/a/Client.java ---
package a;

public class Client {
    public Client(int channel) { Client.helper(); }
    static void helper() { }
    public void getFeature(int x) { }
    public static void main(String[] args) {
        Client client = new Client(1);
        client.getFeature(2);
    }
}
// --- path: src/a/Other.java ---
package a;

public class Other {
    public Other() { }
    static void helper() { }
    public void getFeature(int x) { }
}
""",
        [
            "src/a/Client.Client.Client(int) -> src/a/Client.Client.helper() [exact]",
            "src/a/Client.Client.main(String) -> src/a/Client.Client.Client(int) [exact]",
            "src/a/Client.Client.main(String) -> src/a/Client.Client.getFeature(int) [exact]",
        ],
    )


def test_interface_call_reaches_an_implementers_inherited_body_not_abstract_ones():
    # `Runner extends Base implements Job` runs Base.work for Job.work (JCG J8DIM2's shape); `Lazy`
    # inherits only the abstract `Named.work` of another interface: no body, no target; `Other.work`
    # is no implementer's; `Sub` inherits Runner's choice (no second edge).
    check("""
// --- path: p/Job.java ---
package p;
public interface Job { void work(); }
// --- path: p/Named.java ---
package p;
public interface Named { void work(); }
// --- path: p/Base.java ---
package p;
public class Base { public void work() { } public void work(int n) { } }
// --- path: p/Runner.java ---
package p;
public class Runner extends Base implements Job { }
// --- path: p/Sub.java ---
package p;
public class Sub extends Runner { }
// --- path: p/Own.java ---
package p;
public class Own implements Job { public void work() { } }
// --- path: p/Lazy.java ---
package p;
public abstract class Lazy implements Named, Job { }
// --- path: p/Other.java ---
package p;
public class Other { public void work() { } }
// --- path: p/Main.java ---
package p;
public class Main {
    void go(Job job, Base base) {
        job.work();
        base.work();
    }
}
""", [
        "p/Main.Main.go(Job,Base) -> p/Job.Job.work() [exact]",
        "p/Main.Main.go(Job,Base) -> p/Base.Base.work() [inferred]",
        "p/Main.Main.go(Job,Base) -> p/Own.Own.work() [inferred]",
        "p/Main.Main.go(Job,Base) -> p/Base.Base.work() [exact]",
    ])


def test_call_on_implicit_this_reaches_overrides_as_this_call_does():
    # Template method: `tmpl()` in Base.go runs the subclass's override, as `this.tmpl()` does.
    # Private, static and final methods are never overridden (a subclass's namesake hides, no
    # dispatch); an override repeats the parameter types (Leaf's `save(String)` is no override of
    # `save(Object)`, Side's `keep(String)` overrides the generic `keep(T)`); a call written in Mid
    # reaches only the overrides below Mid (not Side's); an inner class's call of its outer class's
    # method dispatches on the outer instance.
    check("""
// --- path: p/Base.java ---
package p;
public abstract class Base<T> {
    abstract void tmpl();
    private void priv() { }
    static void stat() { }
    final void fin() { }
    void save(Object o) { }
    void keep(T t) { }
    void go() { tmpl(); priv(); stat(); fin(); save(null); keep(null); }
}
// --- path: p/Mid.java ---
package p;
public class Mid extends Base<String> {
    void tmpl() { }
    void again() { tmpl(); }
    class Inner { void run() { tmpl(); } }
}
// --- path: p/Leaf.java ---
package p;
public class Leaf extends Mid {
    void tmpl() { }
    private void priv() { }
    static void stat() { }
    void fin() { }  // no Java compiler accepts it: the modifier rule alone keeps it out
    void save(String s) { }
}
// --- path: p/Side.java ---
package p;
public class Side extends Base<String> { void tmpl() { } void keep(String s) { } }
""", [
        "p/Base.Base.go() -> p/Base.Base.tmpl() [exact]",
        "p/Base.Base.go() -> p/Mid.Mid.tmpl() [inferred]",
        "p/Base.Base.go() -> p/Leaf.Leaf.tmpl() [inferred]",
        "p/Base.Base.go() -> p/Side.Side.tmpl() [inferred]",
        "p/Base.Base.go() -> p/Base.Base.priv() [exact]",
        "p/Base.Base.go() -> p/Base.Base.stat() [exact]",
        "p/Base.Base.go() -> p/Base.Base.fin() [exact]",
        "p/Base.Base.go() -> p/Base.Base.save(Object) [exact]",
        "p/Base.Base.go() -> p/Base.Base.keep(T) [exact]",
        "p/Base.Base.go() -> p/Side.Side.keep(String) [inferred]",
        "p/Mid.Mid.again() -> p/Mid.Mid.tmpl() [exact]",
        "p/Mid.Mid.again() -> p/Leaf.Leaf.tmpl() [inferred]",
        "p/Mid.Mid.Inner.run() -> p/Mid.Mid.tmpl() [exact]",
        "p/Mid.Mid.Inner.run() -> p/Leaf.Leaf.tmpl() [inferred]",
    ])
