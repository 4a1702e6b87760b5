"""Lombok (issue 16, item 9): the members its annotations generate are definitions marked
``generated``, so getter, setter, builder and constructor calls bind, and a field's blast radius
reaches its accessors' callers. Exact edges, and what must not bind (a setter of a final field,
``AccessLevel.NONE``, a member the class writes itself, a class without Lombok)."""

from pathlib import Path

from analysis.impact import NodesQuery, blast_radius
from indexer.languages import extractor_for_path
from stores.embedded import EmbeddedStore
from tests.resolution_harness import check, resolve_fixture

USER = """
// --- path: p/User.java ---
package p;

import lombok.Data;

@Data
public class User {
    private final String name;
    private int age;
    private boolean active;
    private boolean isAdmin;
    private static int count;
}
"""

ACCESSORS = [
    "p/User.User.getName() -> p/User.User.name [exact]",
    "p/User.User.getAge() -> p/User.User.age [exact]",
    "p/User.User.setAge(int) -> p/User.User.age [exact]",
    "p/User.User.isActive() -> p/User.User.active [exact]",
    "p/User.User.setActive(boolean) -> p/User.User.active [exact]",
    "p/User.User.isAdmin() -> p/User.User.isAdmin [exact]",
    "p/User.User.setAdmin(boolean) -> p/User.User.isAdmin [exact]",
]


def test_data_getters_setters_and_required_args_constructor():
    result = check(USER + """
// --- path: p/Use.java ---
package p;

public class Use {
    void go(User u) {
        u.getName();
        u.setAge(3);
        u.isActive();
        u.isAdmin();
        u.setAdmin(true);
        new User("n").getAge();
        u.setName("x");
        u.getCount();
    }
}
""", [
        *ACCESSORS,
        "p/Use.Use.go(User) -> p/User.User.getName() [exact]",
        "p/Use.Use.go(User) -> p/User.User.setAge(int) [exact]",
        "p/Use.Use.go(User) -> p/User.User.isActive() [exact]",
        "p/Use.Use.go(User) -> p/User.User.isAdmin() [exact]",
        "p/Use.Use.go(User) -> p/User.User.setAdmin(boolean) [exact]",
        "p/Use.Use.go(User) -> p/User.User.User(String) [exact]",
        "p/Use.Use.go(User) -> p/User.User.getAge() [exact]",
    ])
    # a final field has no setter, a static one no accessor: both stay unresolved, never name-matched
    assert sorted(u.name for f in result.files for u in f.unresolved) == ["getCount", "setName"]
    nodes = {n.qualname: n for f in result.files for n in f.nodes}
    getter = nodes["User.getName"]
    assert getter.props["generated"] == "lombok"
    assert (getter.start_line, getter.props["name_line"], getter.props["name_col"]) == (7, 7, 25)  # the field
    ctor = nodes["User.User"]
    assert (ctor.props["generated"], ctor.start_line, ctor.props["name_line"], ctor.props["name_col"]) == (
        "lombok", 5, 5, 1)  # the annotation `@Data`
    assert "generated" not in nodes["User.name"].props


def test_field_level_getter_setter_access_none_and_written_members():
    result = check("""
// --- path: p/Item.java ---
package p;

import lombok.Getter;
import lombok.Setter;
import lombok.AccessLevel;

@Getter
public class Item {
    @Setter private String title;
    @Getter(AccessLevel.NONE) private String secret;
    private Long id;

    public Long getId() { return id; }
}
// --- path: p/Shop.java ---
package p;

public class Shop {
    void go(Item i) {
        i.getTitle();
        i.setTitle("t");
        i.getId();
        i.getSecret();
        i.setId(1L);
    }
}
""", [
        "p/Item.Item.getTitle() -> p/Item.Item.title [exact]",
        "p/Item.Item.setTitle(String) -> p/Item.Item.title [exact]",
        "p/Shop.Shop.go(Item) -> p/Item.Item.getTitle() [exact]",
        "p/Shop.Shop.go(Item) -> p/Item.Item.setTitle(String) [exact]",
        "p/Shop.Shop.go(Item) -> p/Item.Item.getId() [exact]",  # the written one: no generated twin
    ])
    assert sorted(u.name for f in result.files for u in f.unresolved) == ["getSecret", "setId"]
    ids = [n.id for f in result.files for n in f.nodes if n.qualname == "Item.getId"]
    assert ids == ["t:p/Item.Item.getId()"]


def test_value_builder_and_constructor_annotations():
    check("""
// --- path: p/Money.java ---
package p;

import lombok.Value;
import lombok.Builder;

@Value
@Builder
public class Money {
    String currency;
    long cents;
    long scale = 2;
}
// --- path: p/Repo.java ---
package p;

import lombok.RequiredArgsConstructor;
import lombok.NoArgsConstructor;

@RequiredArgsConstructor(staticName = "of")
@NoArgsConstructor
public class Repo {
    private final Money seed;
    private String label;
}
// --- path: p/Pay.java ---
package p;

public class Pay {
    void go() {
        Money m = Money.builder().currency("EUR").cents(5).build();
        m.getCents();
        m.getScale();
        Repo.of(m);
        new Repo();
    }
}
""", [
        "p/Money.Money.getCurrency() -> p/Money.Money.currency [exact]",
        "p/Money.Money.getCents() -> p/Money.Money.cents [exact]",
        "p/Money.Money.getScale() -> p/Money.Money.scale [exact]",
        "p/Money.Money.MoneyBuilder.currency(String) -> p/Money.Money.currency [exact]",
        "p/Money.Money.MoneyBuilder.cents(long) -> p/Money.Money.cents [exact]",
        "p/Pay.Pay.go() -> p/Money.Money.builder() [exact]",
        "p/Pay.Pay.go() -> p/Money.Money.MoneyBuilder.currency(String) [inferred]",
        "p/Pay.Pay.go() -> p/Money.Money.MoneyBuilder.cents(long) [inferred]",
        "p/Pay.Pay.go() -> p/Money.Money.MoneyBuilder.build() [inferred]",
        "p/Pay.Pay.go() -> p/Money.Money.getCents() [exact]",
        "p/Pay.Pay.go() -> p/Money.Money.getScale() [exact]",
        "p/Pay.Pay.go() -> p/Repo.Repo.of(Money) [exact]",
        "p/Pay.Pay.go() -> p/Repo.Repo.Repo() [exact]",
    ])


def test_builder_without_value_has_all_args_constructor_and_no_setters_for_value():
    result = resolve_fixture("""
// --- path: p/Money.java ---
package p;

@lombok.Value
public class Money {
    String currency;
}
""")
    names = sorted(n.qualname for f in result.files for n in f.nodes if n.props.get("generated"))
    assert names == ["Money.Money", "Money.getCurrency"]  # @Value: final fields, no setter


def test_no_lombok_no_generated_members():
    result = resolve_fixture("""
// --- path: p/Plain.java ---
package p;

@Entity
public class Plain {
    private String name;
}
// --- path: p/Other.java ---
package p;

public class Other {
    private String name;
    public String getName() { return name; }
    void go(Plain p) { p.getName(); }
}
""")
    assert [n.qualname for f in result.files for n in f.nodes if n.props.get("generated")] == []
    # a known receiver type lacking the method never falls back to the other class's getName
    assert [e for f in result.files for e in f.edges if e.kind == "CALLS"] == []
    assert [u.name for f in result.files for u in f.unresolved] == ["getName"]


def test_field_blast_radius_reaches_accessor_callers(tmp_path: Path):
    result = resolve_fixture(USER + """
// --- path: p/Svc.java ---
package p;

public class Svc {
    int age(User u) { return u.getAge(); }
    void older(User u) { u.setAge(age(u) + 1); }
    void name(User u) { u.getName(); }
}
""")
    store = EmbeddedStore(tmp_path / "i.db")
    try:
        store.replace_files(result.files)
        field = store.get_nodes(["t:p/User.User.age"])["t:p/User.User.age"]
        report = blast_radius(store, NodesQuery((field,)))
        assert sorted(c.node.qualname for c in report.callers) == ["User.getAge", "User.setAge"]
        reached = sorted(r.node.qualname for hop in report.hops for r in hop)
        assert reached == ["Svc.age", "Svc.older", "User.getAge", "User.setAge"]  # not Svc.name
    finally:
        store.close()


def test_generated_members_get_no_chunks():
    from indexer.chunking import chunk_file

    src = USER.split("---\n", 1)[1]
    ex = extractor_for_path("p/User.java").extract("p/User.java", src.encode())
    chunks = chunk_file("t", "t", ex, src)
    assert [c.name for c in chunks if c.kind != "file_section"] == ["User"]
    [cls] = [c for c in chunks if c.name == "User"]
    assert "public String getName()" in cls.text and "public void setAge(int age)" in cls.text


def test_generated_accessors_are_no_name_fallback_candidates():
    """`fieldError.getField()` on a library type (unknown receiver) must not bind a Lombok getter
    only because it is the one `getField` of the repository."""
    result = check("""
// --- path: p/FieldErrorResource.java ---
package p;

@lombok.Getter
public class FieldErrorResource {
    private String field;
}
// --- path: p/Handler.java ---
package p;

import org.springframework.validation.FieldError;

public class Handler {
    void handle(FieldError fieldError, Object o) {
        fieldError.getField();
        unknown().getField();
    }
}
""", ["p/FieldErrorResource.FieldErrorResource.getField() -> p/FieldErrorResource.FieldErrorResource.field [exact]"])
    assert [u.name for f in result.files for u in f.unresolved] == ["unknown", "getField"]


def test_builder_on_a_constructor_and_on_a_static_factory_method():
    result = check("""
// --- path: p/Money.java ---
package p;
import lombok.Builder;
public class Money {
    private final String currency;
    private final long cents;
    @Builder
    public Money(String currency, long cents) { this.currency = currency; this.cents = cents; }
}
// --- path: p/Ranges.java ---
package p;
import lombok.Builder;
public class Ranges {
    @Builder
    public static Range range(long lo, long hi) { return null; }
    public static Range plain(long lo) { return null; }
}
// --- path: p/Range.java ---
package p;
public class Range { }
// --- path: p/Pay.java ---
package p;
public class Pay {
    void go() {
        Money m = Money.builder().currency("EUR").cents(5).build();
        Range r = Ranges.builder().lo(1).hi(2).build();
        Ranges.builder().currency("x");
    }
}
""", [
        # a constructor's steps name the fields they set; a factory's parameters are no fields
        "p/Money.Money.MoneyBuilder.currency(String) -> p/Money.Money.currency [exact]",
        "p/Money.Money.MoneyBuilder.cents(long) -> p/Money.Money.cents [exact]",
        "p/Pay.Pay.go() -> p/Money.Money.builder() [exact]",
        "p/Pay.Pay.go() -> p/Money.Money.MoneyBuilder.currency(String) [inferred]",
        "p/Pay.Pay.go() -> p/Money.Money.MoneyBuilder.cents(long) [inferred]",
        "p/Pay.Pay.go() -> p/Money.Money.MoneyBuilder.build() [inferred]",
        "p/Pay.Pay.go() -> p/Ranges.Ranges.builder() [exact]",
        "p/Pay.Pay.go() -> p/Ranges.Ranges.RangeBuilder.lo(long) [inferred]",
        "p/Pay.Pay.go() -> p/Ranges.Ranges.RangeBuilder.hi(long) [inferred]",
        "p/Pay.Pay.go() -> p/Ranges.Ranges.RangeBuilder.build() [inferred]",
    ])
    # the factory's builder has no step `currency`: that call binds nothing
    assert [(u.name, u.receiver) for f in result.files for u in f.unresolved] == [("currency", "Ranges.builder()")]
    ranges = next(f for f in result.files if f.file.path == "p/Ranges.java")
    assert sorted(n.id.removeprefix("t:") for n in ranges.nodes if n.props.get("generated") == "lombok") == [
        "p/Ranges.Ranges.RangeBuilder", "p/Ranges.Ranges.RangeBuilder.build()", "p/Ranges.Ranges.RangeBuilder.hi(long)",
        "p/Ranges.Ranges.RangeBuilder.lo(long)", "p/Ranges.Ranges.builder()"]


def test_logger_annotations_give_a_library_typed_log_field():
    result = check("""
// --- path: p/Audit.java ---
package p;
public class Audit {
    public void info(String s) { }
    public void warning(String s) { }
}
// --- path: p/Pay.java ---
package p;
import lombok.extern.slf4j.Slf4j;
@Slf4j
public class Pay {
    void go() { log.info("paid"); }
}
// --- path: p/Jul.java ---
package p;
import lombok.extern.java.Log;
@Log
public class Jul {
    void go() { log.warning("x"); }
}
// --- path: p/Plain.java ---
package p;
public class Plain {
    void go() { log.info("no Lombok: unknown receiver"); }
}
""", [
        # without Lombok the receiver is unknown and the unique `info(1)` is matched by name, as before
        "p/Plain.Plain.go() -> p/Audit.Audit.info(String) [name]",
    ])
    # with it `log` is the logger: a library call, neither unresolved nor linked into the repository
    assert [u.name for f in result.files for u in f.unresolved] == []
    pay = next(f for f in result.files if f.file.path == "p/Pay.java")
    log = next(n for n in pay.nodes if n.name == "log")
    assert (log.label, log.props["type"], log.props["generated"]) == ("Field", "org.slf4j.Logger", "lombok")
