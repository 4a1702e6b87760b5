"""Java values held in library containers of a repository class (``Optional<Owner>``,
``List<Owner>``, ``Map<String, Pet>``, a Spring Data repository's results): what a one-element read
(``get()``, ``orElseThrow()``, ``get(i)``, ``map.get(k)``) gives is an instance of the element class,
a step (``stream()``, ``filter()``, ``findFirst()``) keeps the container, a lambda handed by a call's
container (``repo.findAll().forEach(o -> ...)``) receives its elements; what must stay unlinked."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

APP = """
// --- path: src/main/java/a/Owner.java ---
package a;
public class Owner {
    public String getName() { return ""; }
    public void addPet(Pet p) {}
}
// --- path: src/main/java/a/Vet.java ---
package a;
public class Vet {
    public String getName() { return ""; }
    public void addPet(Pet p) {}
}
// --- path: src/main/java/a/Pet.java ---
package a;
public class Pet {
    public void feed() {}
}
// --- path: src/main/java/a/Bowl.java ---
package a;
public class Bowl {
    public void feed() {}
}
// --- path: src/main/java/a/OwnerRepository.java ---
package a;
import java.util.List;
import java.util.Optional;
import org.springframework.data.repository.CrudRepository;
public interface OwnerRepository extends CrudRepository<Owner, Integer> {
    List<Owner> findByLastName(String name);
    Optional<Owner> findByEmail(String e);
}
// --- path: src/main/java/a/Svc.java ---
package a;
import java.util.List;
import java.util.Map;
import java.util.Optional;
public class Svc {
    private OwnerRepository repo;
    private Map<String, Pet> pets;
    void a(Optional<Owner> opt, List<Owner> all) {
        repo.findByEmail("e").get().addPet(null);
        repo.findById(1).orElseThrow().getName();
        opt.get().getName();
        all.get(0).addPet(null);
        all.stream().filter(x -> true).findFirst().get().getName();
        pets.get("k").feed();
        repo.findByLastName("z").forEach(q -> q.addPet(null));
        repo.findByEmail("e").ifPresent(w -> w.getName());
        all.stream().map(m -> m.getName()).forEach(n -> n.feed());
        pets.keySet().iterator().next().feed();
        all.size();
    }
}
"""


def _calls(resolved) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.removeprefix("t:src/main/java/a/"), e.resolution)
                  for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and "Svc.a(" in e.src and "OwnerRepository" not in e.dst)


def test_one_element_reads_steps_and_lambdas_of_containers_reach_the_element_class() -> None:
    assert _calls(resolve_fixture(APP)) == [
        (9, "Owner.Owner.addPet(Pet)", "inferred"),  # Optional returned by a repository method, get()
        (10, "Owner.Owner.getName()", "inferred"),  # CrudRepository<Owner, Integer>'s findById, orElseThrow()
        (11, "Owner.Owner.getName()", "inferred"),  # a parameter declared Optional<Owner>
        (12, "Owner.Owner.addPet(Pet)", "inferred"),  # List.get(i)
        (13, "Owner.Owner.getName()", "inferred"),  # stream().filter(...).findFirst().get()
        (14, "Pet.Pet.feed()", "inferred"),  # a field Map<String, Pet>: get(k) is a value
        (15, "Owner.Owner.addPet(Pet)", "inferred"),  # forEach's lambda on a method's returned List
        (16, "Owner.Owner.getName()", "inferred"),  # ifPresent's lambda on a returned Optional
        (17, "Owner.Owner.getName()", "exact"),  # `m` declared by the field-typed `all` (in-file rule)
        # negative: after map(...) the elements are the library's (`n.feed()` is no Pet's nor Bowl's),
        # and a map's keys are no values (`keySet().iterator().next()` is a String)
    ]
