"""Java receivers issue 16 items 8 and 10 name: method references, lambdas handed collection
elements, casts, ``instanceof`` patterns, calls chained on ``new X()``, inherited fields used without
``this.`` and ``A.helper()`` inside ``A()``. Exact edges, and what must not bind."""

from tests.resolution_harness import check

CLASSES = """
// --- path: p/Owner.java ---
package p;
public class Owner {
    public String getName() { return ""; }
    public void save() { }
}
// --- path: p/Pet.java ---
package p;
public class Pet extends Owner {
    public Pet() { }
    public void save() { }
    public void bark() { }
}
"""
GO = "p/Use.Use.go(List,Object,Optional,Map)"


def test_method_references_are_calls_from_the_enclosing_method():
    check(CLASSES + """
// --- path: p/Use.java ---
package p;
import java.util.*;
public class Use extends Base {
    void go(List<Owner> os, Object o, Optional<Owner> op, Map<String, Pet> pets) {
        os.forEach(this::keep);
        os.stream().map(Owner::getName);
        Runnable r = Pet::new;
        op.ifPresent(super::drop);
        os.forEach(String::valueOf);
    }
    void keep(Owner o) { }
}
// --- path: p/Base.java ---
package p;
public class Base {
    void drop(Owner o) { }
}
""", [
        f"{GO} -> p/Use.Use.keep(Owner) [exact]",
        f"{GO} -> p/Owner.Owner.getName() [exact]",
        f"{GO} -> p/Pet.Pet.Pet() [exact]",
        f"{GO} -> p/Base.Base.drop(Owner) [inferred]",
    ])


def test_lambda_parameters_typed_by_collection_stream_map_and_optional_elements():
    result = check(CLASSES + """
// --- path: p/Use.java ---
package p;
import java.util.*;
public class Use {
    private List<Pet> pets;
    void go(List<Owner> os, Object o, Optional<Owner> op, Map<String, Pet> byName) {
        os.stream().filter(x -> x.getName() != null).forEach(y -> y.save());
        op.ifPresent(w -> w.getName());
        byName.forEach((k, v) -> v.bark());
        byName.values().forEach(q -> q.bark());
        pets.forEach(t -> t.bark());
        os.stream().map(m -> m.getName()).forEach(s -> s.bark());
    }
}
""", [
        f"{GO} -> p/Owner.Owner.getName() [exact]",
        f"{GO} -> p/Owner.Owner.save() [exact]",
        f"{GO} -> p/Pet.Pet.save() [inferred]",
        f"{GO} -> p/Pet.Pet.bark() [exact]",
        # after `map(...)` the element type is unknown: `s.bark()` is only the one `bark` by name
        f"{GO} -> p/Pet.Pet.bark() [name]",
    ])
    assert [(u.name, u.receiver) for f in result.files for u in f.unresolved] == []


def test_same_lambda_parameter_name_with_two_element_types_binds_neither():
    result = check(CLASSES + """
// --- path: p/Use.java ---
package p;
import java.util.*;
public class Use {
    void go(List<Owner> os, Object o, Optional<Owner> op, Map<String, Pet> pets) {
        os.forEach(x -> x.getName());
        pets.values().forEach(x -> x.save());
    }
}
""", [f"{GO} -> p/Owner.Owner.getName() [name]"])
    assert [u.name for f in result.files for u in f.unresolved] == ["save"]  # two `save`: no name match


def test_casts_instanceof_patterns_and_new_chains():
    check(CLASSES + """
// --- path: p/Use.java ---
package p;
import java.util.*;
public class Use {
    void go(List<Owner> os, Object o, Optional<Owner> op, Map<String, Pet> pets) {
        ((Pet) o).bark();
        ((Owner) o).save();
        if (o instanceof Pet f) { f.bark(); }
        new Pet().save();
        new Owner().getName();
    }
}
""", [
        f"{GO} -> p/Pet.Pet.bark() [exact]",
        f"{GO} -> p/Owner.Owner.save() [exact]",
        f"{GO} -> p/Pet.Pet.save() [inferred]",  # a cast to Owner may hold a Pet
        f"{GO} -> p/Pet.Pet.Pet() [exact]",
        f"{GO} -> p/Pet.Pet.save() [exact]",  # built by `new Pet()`: exactly Pet's, no dispatch
        f"{GO} -> p/Owner.Owner [exact]",  # no constructor written: the class
        f"{GO} -> p/Owner.Owner.getName() [exact]",
    ])


def test_inherited_field_without_this_and_class_qualified_static_call_in_constructor():
    result = check(CLASSES + """
// --- path: p/BaseService.java ---
package p;
public abstract class BaseService {
    protected Owner owner;
}
// --- path: p/A.java ---
package p;
public class A extends BaseService {
    private Pet pet;
    public A() {
        A.helper();
        owner.save();
        pet.bark();
        missing.save();
    }
    static void helper() { }
}
""", [
        "p/A.A.A() -> p/A.A.helper() [exact]",
        "p/A.A.A() -> p/Owner.Owner.save() [exact]",
        "p/A.A.A() -> p/Pet.Pet.save() [inferred]",
        "p/A.A.A() -> p/Pet.Pet.bark() [exact]",
    ])
    assert [u.name for f in result.files for u in f.unresolved] == ["save"]  # `missing` is nothing
