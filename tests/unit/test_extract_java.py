"""Unit tests for the Java extractor (:mod:`indexer.languages.java`): exact IR records on small sources."""

from __future__ import annotations

import textwrap

import pytest

from indexer.languages import extractor_for_path
from indexer.languages.java import EXTRACTOR
from indexer.model import Binding, CallSite, Definition, FileExtraction, Import, Injection, Param, TypeUse


def extract(code: str, path: str = "src/Example.java") -> FileExtraction:
    """Extract a dedented inline source."""
    return EXTRACTOR.extract(path, textwrap.dedent(code).lstrip("\n").encode("utf-8"))


def outline(fx: FileExtraction) -> list[tuple]:
    """(kind, qualname, parent, start_line, end_line, name_line, name_col) per definition."""
    return [(d.kind, d.qualname, d.parent, d.start_line, d.end_line, d.name_line, d.name_col) for d in fx.definitions]


CONTROLLER = """
package org.acme.owner;

import java.util.List;
import org.springframework.web.bind.annotation.*;
import static org.junit.Assert.assertEquals;
import static java.util.Objects.*;

/** Owners web layer. */
@Controller
class OwnerController extends BaseController implements Api, Crud<Owner, Integer> {

    private final OwnerRepository owners;

    OwnerController(OwnerRepository owners) {
        this.owners = owners;
    }

    /**
     * Show one owner.
     */
    @GetMapping("/owners/{ownerId}")
    public Owner findById(@PathVariable("ownerId") Integer id, String... tags) {
        return this.owners.findById(id);
    }
}
"""


def test_registry_claims_java() -> None:
    assert extractor_for_path("src/main/java/Foo.java") is EXTRACTOR
    assert EXTRACTOR.language == "java"
    assert EXTRACTOR.extensions == (".java",)


def test_package_and_imports() -> None:
    fx = extract(CONTROLLER)
    assert fx.package == "org.acme.owner"
    assert fx.language == "java"
    assert fx.path == "src/Example.java"
    assert fx.imports == [
        Import(local="List", module="java.util", name="List", line=3),
        Import(local="*", module="org.springframework.web.bind.annotation", name=None, line=4),
        Import(local="assertEquals", module="org.junit.Assert", name="assertEquals", line=5),
        Import(local="*", module="java.util.Objects", name=None, line=6),
    ]
    assert fx.exports == []
    assert fx.errors == []


def test_controller_definitions_exact() -> None:
    fx = extract(CONTROLLER)
    assert fx.definitions == [
        Definition(
            kind="class",
            name="OwnerController",
            qualname="OwnerController",
            parent=None,
            start_line=9,
            start_col=0,
            end_line=25,
            end_col=1,
            name_line=10,
            name_col=6,
            signature="class OwnerController extends BaseController implements Api, Crud<Owner, Integer>",
            decorators=["Controller"],
            bases=["BaseController"],
            implements=["Api", "Crud<Owner, Integer>"],
            docstring="Owners web layer.",
        ),
        Definition(
            kind="field",
            name="owners",
            qualname="OwnerController.owners",
            parent="OwnerController",
            start_line=12,
            start_col=4,
            end_line=12,
            end_col=41,
            name_line=12,
            name_col=34,
            signature="private final OwnerRepository owners",
            modifiers=["private", "final"],
            field_type="OwnerRepository",
        ),
        Definition(
            kind="constructor",
            name="OwnerController",
            qualname="OwnerController.OwnerController",
            parent="OwnerController",
            start_line=14,
            start_col=4,
            end_line=16,
            end_col=5,
            name_line=14,
            name_col=4,
            signature="OwnerController(OwnerRepository owners)",
            params=[Param("owners", "OwnerRepository")],
        ),
        Definition(
            kind="method",
            name="findById",
            qualname="OwnerController.findById",
            parent="OwnerController",
            start_line=21,
            start_col=4,
            end_line=24,
            end_col=5,
            name_line=22,
            name_col=17,
            signature="public Owner findById(Integer id, String... tags)",
            params=[Param("id", "Integer"), Param("tags", "String", variadic="*")],
            return_type="Owner",
            modifiers=["public"],
            decorators=['GetMapping("/owners/{ownerId}")'],
            docstring="Show one owner.",
        ),
    ]
    method = fx.definitions[-1]
    assert (method.min_arity, method.max_arity) == (1, None)


def test_static_members_class_literals_and_supertype_arguments_are_type_uses() -> None:
    fx = extract("""
package x;

interface VisitRepository extends JpaRepository<Visit, Integer> {}

class Use {
    Object make(Visit v) {
        LOGGER.info(Visit.class.getName());
        log.info(Visit.MAX);
        return Visit.Builder.aVisit();
    }
}
""")
    assert [(t.owner, t.type, t.line) for t in fx.type_uses] == [
        ("VisitRepository", "Visit", 3), ("VisitRepository", "Integer", 3),  # the supertype's arguments
        ("Use.make", "Object", 6), ("Use.make", "Visit", 6),
        ("Use.make", "LOGGER", 7),  # a capitalised receiver: binds to no class unless one is so named
        ("Use.make", "Visit", 7),  # Visit.class
        ("Use.make", "Visit", 8),  # Visit.MAX (log.info: a lower-case receiver is a value)
        ("Use.make", "Visit", 9),  # Visit.Builder.aVisit()
    ]


def test_controller_calls_bindings_type_uses_injections() -> None:
    fx = extract(CONTROLLER)
    assert fx.calls == [CallSite("OwnerController.findById", "findById", "this.owners", 1, 23, 27)]
    assert fx.bindings == [
        Binding("OwnerController", "this.owners", "OwnerRepository", "declared", 12),
        Binding("OwnerController", "owners", "OwnerRepository", "declared", 12),
        Binding("OwnerController.OwnerController", "owners", "OwnerRepository", "declared", 14),
        Binding("OwnerController.findById", "id", "Integer", "declared", 22),
        Binding("OwnerController.findById", "tags", "String", "declared", 22),
    ]
    assert fx.type_uses == [
        TypeUse("OwnerController", "Owner", 10, 66),  # the type arguments of a supertype
        TypeUse("OwnerController", "Integer", 10, 73),
        TypeUse("OwnerController.owners", "OwnerRepository", 12, 18),
        TypeUse("OwnerController.OwnerController", "OwnerRepository", 14, 20),
        TypeUse("OwnerController.findById", "Owner", 22, 11),
        TypeUse("OwnerController.findById", "Integer", 22, 51),
        TypeUse("OwnerController.findById", "String", 22, 63),
    ]
    # @Controller with exactly one constructor: Spring injects its parameters.
    assert fx.injections == [Injection("OwnerController", "OwnerRepository", "constructor", 14, 20)]


KINDS = """
public interface Repo<T> extends Base<T>, Other {
    T find(int id);
    default void touch() { }
    static Repo<String> create() { return null; }
}

abstract class Outer {
    protected abstract synchronized void run();
    static final class Inner { }
    enum Color implements Named { RED, GREEN; Color() { } }
    record Point(int x, Owner y) { }
    @interface Marker { String value() default ""; }
}
"""


def test_type_kinds_nesting_and_members() -> None:
    fx = extract(KINDS)
    assert outline(fx) == [
        ("interface", "Repo", None, 1, 5, 1, 17),
        ("method", "Repo.find", "Repo", 2, 2, 2, 6),
        ("method", "Repo.touch", "Repo", 3, 3, 3, 17),
        ("method", "Repo.create", "Repo", 4, 4, 4, 24),
        ("class", "Outer", None, 7, 13, 7, 15),
        ("method", "Outer.run", "Outer", 8, 8, 8, 41),
        ("class", "Outer.Inner", "Outer", 9, 9, 9, 23),
        ("enum", "Outer.Color", "Outer", 10, 10, 10, 9),
        ("field", "Outer.Color.RED", "Outer.Color", 10, 10, 10, 34),
        ("field", "Outer.Color.GREEN", "Outer.Color", 10, 10, 10, 39),
        ("constructor", "Outer.Color.Color", "Outer.Color", 10, 10, 10, 46),
        ("class", "Outer.Point", "Outer", 11, 11, 11, 11),
        ("field", "Outer.Point.x", "Outer.Point", 11, 11, 11, 21),
        ("field", "Outer.Point.y", "Outer.Point", 11, 11, 11, 30),
        ("interface", "Outer.Marker", "Outer", 12, 12, 12, 15),
        ("method", "Outer.Marker.value", "Outer.Marker", 12, 12, 12, 31),
    ]
    by = {d.qualname: d for d in fx.definitions}
    assert by["Repo"].bases == ["Base<T>", "Other"]
    assert by["Repo"].implements == []
    assert by["Repo"].signature == "public interface Repo<T> extends Base<T>, Other"
    assert by["Repo.find"].modifiers == ["abstract"]
    assert by["Repo.find"].signature == "T find(int id)"
    assert by["Repo.find"].return_type == "T"
    assert by["Repo.touch"].modifiers == ["default"]
    assert by["Repo.create"].modifiers == ["static"]
    assert by["Repo.create"].return_type == "Repo<String>"
    assert by["Outer.run"].modifiers == ["protected", "abstract", "synchronized"]
    assert by["Outer.run"].signature == "protected abstract synchronized void run()"
    assert by["Outer.Inner"].modifiers == ["static", "final"]
    assert by["Outer.Color"].implements == ["Named"]
    assert by["Outer.Color.RED"].field_type == "Color"
    assert by["Outer.Point.y"].field_type == "Owner"
    assert by["Outer.Point"].signature == "record Point(int x, Owner y)"
    assert by["Outer.Marker.value"].modifiers == ["abstract"]
    assert by["Outer.Marker.value"].return_type == "String"
    # Type variables are not type uses; record components are field-owned.
    assert fx.type_uses == [
        TypeUse("Repo.create", "Repo", 4, 11),
        TypeUse("Repo.create", "String", 4, 16),
        TypeUse("Outer.Point.y", "Owner", 11, 24),
        TypeUse("Outer.Marker.value", "String", 12, 24),
    ]
    assert fx.bindings == [
        Binding("Repo.find", "id", "int", "declared", 2),
        Binding("Outer.Color", "this.RED", "Color", "declared", 10),
        Binding("Outer.Color", "RED", "Color", "declared", 10),
        Binding("Outer.Color", "this.GREEN", "Color", "declared", 10),
        Binding("Outer.Color", "GREEN", "Color", "declared", 10),
        Binding("Outer.Point", "this.x", "int", "declared", 11),
        Binding("Outer.Point", "x", "int", "declared", 11),
        Binding("Outer.Point", "this.y", "Owner", "declared", 11),
        Binding("Outer.Point", "y", "Owner", "declared", 11),
    ]


CALLS = """
class Svc extends Base {
    private Helper helper = new Helper(make());
    static { init(); }
    Svc() { this(1); }
    Svc(int x) { super(x); }
    void run(List<String> items) {
        go();
        this.helper.help(1, 2);
        super.run(items);
        helper.chain().next(a, b, c);
        items.forEach(i -> process(i));
        new Thread(new Runnable() {
            public void run() { tick(); }
        }).start();
        Map<String, Integer> m = new HashMap<>();
        new java.util.ArrayList<Owner>(3);
        Collections.<String>emptyList();
    }
}
"""


def test_calls_exact() -> None:
    fx = extract(CALLS)
    assert fx.calls == [
        CallSite("Svc", "Helper", None, 1, 2, 32, is_new=True),
        CallSite("Svc", "make", None, 0, 2, 39),
        CallSite("Svc", "init", None, 0, 3, 13),
        CallSite("Svc.Svc", "this", None, 1, 4, 12),
        CallSite("Svc.Svc", "super", None, 1, 5, 17),
        CallSite("Svc.run", "go", None, 0, 7, 8),
        CallSite("Svc.run", "help", "this.helper", 2, 8, 20),
        CallSite("Svc.run", "run", "super", 1, 9, 14),
        CallSite("Svc.run", "chain", "helper", 0, 10, 15),
        CallSite("Svc.run", "next", "helper.chain()", 3, 10, 23),
        CallSite("Svc.run", "forEach", "items", 1, 11, 14),
        CallSite("Svc.run", "process", None, 1, 11, 27),
        CallSite("Svc.run", "Thread", None, 1, 12, 12, is_new=True),
        CallSite("Svc.run", "Runnable", None, 0, 12, 23, is_new=True),
        CallSite("Svc.run", "tick", None, 0, 13, 32),
        CallSite("Svc.run", "start", "new Thread()", 0, 14, 11),
        CallSite("Svc.run", "HashMap", None, 0, 15, 37, is_new=True),
        CallSite("Svc.run", "ArrayList", "java.util", 1, 16, 22, is_new=True),
        CallSite("Svc.run", "emptyList", "Collections", 0, 17, 28),
    ]


def test_anonymous_class_methods_are_not_definitions() -> None:
    fx = extract(CALLS)
    assert outline(fx) == [
        ("class", "Svc", None, 1, 19, 1, 6),
        ("field", "Svc.helper", "Svc", 2, 2, 2, 19),
        ("constructor", "Svc.Svc", "Svc", 4, 4, 4, 4),
        ("constructor", "Svc.Svc", "Svc", 5, 5, 5, 4),
        ("method", "Svc.run", "Svc", 6, 18, 6, 9),
    ]
    assert fx.type_uses == [
        TypeUse("Svc.helper", "Helper", 2, 12),
        TypeUse("Svc.helper", "Helper", 2, 32),
        TypeUse("Svc.run", "List", 6, 13),
        TypeUse("Svc.run", "String", 6, 18),
        TypeUse("Svc.run", "Thread", 12, 12),
        TypeUse("Svc.run", "Runnable", 12, 23),
        TypeUse("Svc.run", "Map", 15, 8),
        TypeUse("Svc.run", "String", 15, 12),
        TypeUse("Svc.run", "Integer", 15, 20),
        TypeUse("Svc.run", "HashMap", 15, 37),
        TypeUse("Svc.run", "java.util.ArrayList", 16, 12),
        TypeUse("Svc.run", "Owner", 16, 32),
        TypeUse("Svc.run", "Collections", 17, 8),  # Collections.emptyList(): a static member's class
    ]


def test_long_chain_receivers() -> None:
    fx = extract(
        """
        class T {
            String s() {
                return new Builder<X>(this).a(1)
                    .b(x.y(), 2).c();
            }
        }
        """
    )
    assert [(c.name, c.receiver, c.arity, c.is_new) for c in fx.calls] == [
        ("Builder", None, 1, True),
        ("a", "new Builder()", 1, False),
        ("b", "new Builder().a()", 2, False),
        ("y", "x", 0, False),
        ("c", "new Builder().a().b()", 0, False),
    ]


def test_bindings_locals_and_statements() -> None:
    fx = extract(
        """
        class B {
            void m(final Owner owner, @Valid Pet pet, int n) {
                var repo = new OwnerRepo<>();
                var unknown = compute();
                List<Owner> all = repo.findAll();
                for (Owner o : all) { }
                list.forEach(x -> x.go());
                list.forEach((Visit v) -> v.go());
                try (Reader r = open()) {
                } catch (IOException | RuntimeException e) { }
                if (obj instanceof Vet vet) { }
            }
        }
        """
    )
    assert fx.bindings == [
        Binding("B.m", "owner", "Owner", "declared", 2),
        Binding("B.m", "pet", "Pet", "declared", 2),
        Binding("B.m", "n", "int", "declared", 2),
        Binding("B.m", "repo", "OwnerRepo", "constructed", 3),
        Binding("B.m", "unknown", "compute", "constructed", 4),  # what compute() returns
        Binding("B.m", "all", "List<Owner>", "declared", 5),
        Binding("B.m", "o", "Owner", "declared", 6),
        Binding("B.m", "v", "Visit", "declared", 8),
        Binding("B.m", "r", "Reader", "declared", 9),
        Binding("B.m", "e", "IOException | RuntimeException", "declared", 10),
        Binding("B.m", "vet", "Vet", "declared", 11),
        Binding("B.m", "vet", "Vet", "narrowed", 11, 11),  # over the guarded block's lines
        Binding("B.m", "obj", "Vet", "narrowed", 11, 11),  # the name tested, too
    ]
    assert fx.definitions[1].signature == "void m(final Owner owner, Pet pet, int n)"
    assert [t.type for t in fx.type_uses] == [
        "Owner", "Pet", "OwnerRepo", "List", "Owner", "Owner", "Visit", "Reader",
        "IOException", "RuntimeException", "Vet",
    ]  # fmt: skip


def test_casts_arrays_and_field_declarators() -> None:
    fx = extract(
        """
        class F {
            private Map<String, Owner[]> a = null, b = (Map<String, Owner[]>) make(new Vet[2]);
            int[] plain;
        }
        """
    )
    assert outline(fx) == [
        ("class", "F", None, 1, 4, 1, 6),
        ("field", "F.a", "F", 2, 2, 2, 33),
        ("field", "F.b", "F", 2, 2, 2, 43),
        ("field", "F.plain", "F", 3, 3, 3, 10),
    ]
    assert [d.field_type for d in fx.definitions[1:]] == ["Map<String, Owner[]>", "Map<String, Owner[]>", "int[]"]
    assert fx.type_uses == [
        TypeUse("F.a", "Map", 2, 12),
        TypeUse("F.a", "String", 2, 16),
        TypeUse("F.a", "Owner", 2, 24),
        TypeUse("F.b", "Map", 2, 48),
        TypeUse("F.b", "String", 2, 52),
        TypeUse("F.b", "Owner", 2, 60),
        TypeUse("F.b", "Vet", 2, 79),
    ]
    assert fx.calls == [CallSite("F", "make", None, 1, 2, 70)]


INJECTION = """
@Service
class A {
    @Autowired private Foo foo;
    @Inject Bar bar;
    private Baz baz;
    @Autowired
    void setQux(Qux qux) { }
    A(Dep dep) { }
}

@Component
class B {
    B(One one) { }
    B(Two two, Three three) { }
    @Autowired
    B(Four four) { }
}

@Service
@RequiredArgsConstructor
class C {
    private final Repo repo;
    private final Mapper mapper = new Mapper();
    private static final Log LOG = null;
    private Cache cache;
}

class D {
    D(Plain plain) { }
}

@org.springframework.stereotype.Repository
@AllArgsConstructor
class E {
    private Alpha alpha;
    private static Beta beta;
}
"""


def test_injections() -> None:
    fx = extract(INJECTION)
    assert fx.injections == [
        Injection("A", "Foo", "field", 3, 23),
        Injection("A", "Bar", "field", 4, 12),
        Injection("A", "Qux", "field", 7, 16),
        Injection("A", "Dep", "constructor", 8, 6),
        Injection("B", "Four", "constructor", 16, 6),
        Injection("C", "Repo", "constructor", 22, 18),
        Injection("E", "Alpha", "constructor", 35, 12),
    ]
    assert fx.definitions[0].decorators == ["Service"]
    written = [d for d in fx.definitions if d.generated is None]  # Lombok's constructors come last
    assert written[-3].decorators == ["org.springframework.stereotype.Repository", "AllArgsConstructor"]


def test_decorator_text_and_signature_drop_annotations_and_comments() -> None:
    fx = extract(
        """
        class R {
            @RequestMapping(
                value = "/x",
                method = RequestMethod.GET)
            public /* note */ ResponseEntity<List<Owner>> list(
                    @RequestParam(name = "q", required = false) String q, // the query
                    int page) throws IOException {
                return null;
            }
        }
        """
    )
    m = fx.definitions[1]
    assert m.decorators == ['RequestMapping(value = "/x", method = RequestMethod.GET)']
    assert m.signature == "public ResponseEntity<List<Owner>> list(String q, int page) throws IOException"
    assert m.return_type == "ResponseEntity<List<Owner>>"
    assert (m.start_line, m.name_line, m.end_line) == (2, 5, 9)


def test_local_class_and_lambda_in_field_initialiser() -> None:
    fx = extract(
        """
        class L {
            Runnable r = () -> work();
            void m() {
                class Local { void inner() { deep(); } }
                new Local().inner();
            }
        }
        """
    )
    assert outline(fx) == [
        ("class", "L", None, 1, 7, 1, 6),
        ("field", "L.r", "L", 2, 2, 2, 13),
        ("method", "L.m", "L", 3, 6, 3, 9),
        ("class", "L.m.Local", "L.m", 4, 4, 4, 14),
        ("method", "L.m.Local.inner", "L.m.Local", 4, 4, 4, 27),
    ]
    assert [(c.caller, c.name, c.receiver) for c in fx.calls] == [
        ("L", "work", None),
        ("L.m.Local.inner", "deep", None),
        ("L.m", "Local", None),
        ("L.m", "inner", "new Local()"),
    ]


def test_syntax_error_mid_file_keeps_other_methods() -> None:
    fx = extract(
        """
        class Broken {
            void ok() { a(); }
            void bad() { int x = ; }
            void later() { b(); }
        }
        """
    )
    assert fx.errors == ["3:23: syntax error"]
    assert [d.qualname for d in fx.definitions] == ["Broken", "Broken.ok", "Broken.bad", "Broken.later"]
    assert fx.calls == [CallSite("Broken.ok", "a", None, 0, 2, 16), CallSite("Broken.later", "b", None, 0, 4, 19)]


@pytest.mark.parametrize("source", [b"", b"   \n", b"\xff\xfe\x00garbage {{{", b"class", b"}}}}"])
def test_bad_input_never_raises(source: bytes) -> None:
    fx = EXTRACTOR.extract("bad.java", source)
    assert isinstance(fx, FileExtraction)
    assert fx.path == "bad.java"
    if not source.strip():
        assert fx == FileExtraction(path="bad.java", language="java")


def test_non_utf8_bytes_still_extracted() -> None:
    fx = EXTRACTOR.extract("l.java", b'class L { void m() { x.f("\xff\xfe"); y(); } }')
    assert [d.qualname for d in fx.definitions] == ["L", "L.m"]
    assert fx.calls == [CallSite("L.m", "f", "x", 1, 1, 23), CallSite("L.m", "y", None, 0, 1, 32)]


def test_columns_are_code_points() -> None:
    fx = EXTRACTOR.extract("u.java", 'class U {\n    void m() { String s = "éé"; s.go(); }\n}\n'.encode())
    assert fx.calls == [CallSite("U.m", "go", "s", 0, 2, 34)]


def test_scoped_new_with_non_ascii_names() -> None:
    fx = EXTRACTOR.extract("x.java", "class X { void m() { new ä.ö.Föö<T>(1); } }".encode())
    assert fx.calls == [CallSite("X.m", "Föö", "ä.ö", 1, 1, 29, is_new=True)]
    assert fx.type_uses == [TypeUse("X.m", "ä.ö.Föö", 1, 25), TypeUse("X.m", "T", 1, 33)]
