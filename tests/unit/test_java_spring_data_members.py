"""Spring Data repository interfaces: the methods they inherit from the library's repository types
are generated (``generated = "spring-data"``) with the interface's type arguments, so calls of them
bind; what the interface writes itself is not generated; an interface extending no such type gets
nothing. Exact definitions and edges, and what must not bind."""

from indexer.languages import extractor_for_path
from indexer.languages.java.spring_data import split_type_arguments
from tests.resolution_harness import check


def _generated(src: str, path: str = "p/OwnerRepository.java") -> list[str]:
    ex = extractor_for_path(path).extract(path, src.encode())
    return [d.signature for d in ex.definitions if d.generated == "spring-data"]


def test_crud_repository_members_with_type_arguments_and_written_ones_kept():
    src = """package p;
import org.springframework.data.repository.CrudRepository;
public interface OwnerRepository extends CrudRepository<Owner, Long> {
    Owner findById(long id);
    void deleteAll();
}
"""
    assert _generated(src) == [
        "public Owner save(Owner entity)",
        "public Iterable<Owner> saveAll(Iterable<Owner> entities)",
        # findById(ID) is written by the interface (same name and parameter count): not generated
        "public boolean existsById(Long id)",
        "public Iterable<Owner> findAll()",
        "public Iterable<Owner> findAllById(Iterable<Long> ids)",
        "public long count()",
        "public void deleteById(Long id)",
        "public void delete(Owner entity)",
        "public void deleteAllById(Iterable<Long> ids)",
        "public void deleteAll(Iterable<Owner> entities)",
        # deleteAll() is written
    ]
    ex = extractor_for_path("p/OwnerRepository.java").extract("p/OwnerRepository.java", src.encode())
    save = next(d for d in ex.definitions if d.name == "save")
    assert (save.qualname, save.parent, save.kind, save.name_line, save.name_col, save.return_type) == (
        "OwnerRepository.save", "OwnerRepository", "method", 3, 17, "Owner")


def test_jpa_repository_overloads_of_one_arity_and_no_members_without_a_library_base():
    jpa = _generated("package p;\ninterface R extends org.springframework.data.jpa.repository.JpaRepository<Pet, Integer> {}\n",
                     "p/R.java")
    assert [s for s in jpa if " findAll(" in s] == [
        "public List<Pet> findAll()",
        "public List<Pet> findAll(Sort sort)",
        "public Page<Pet> findAll(Pageable pageable)",
        "public List<Pet> findAll(Example<Pet> example)",
        "public List<Pet> findAll(Example<Pet> example, Sort sort)",
        "public Page<Pet> findAll(Example<Pet> example, Pageable pageable)",
    ]
    assert len(jpa) == 30
    # the marker `Repository` declares nothing; an interface of the application's own, or a class, neither
    assert _generated("package p;\ninterface V extends Repository<Vet, Integer> { }\n", "p/V.java") == []
    assert _generated("package p;\ninterface M extends Mapper<Vet> { }\n", "p/M.java") == []
    assert _generated("package p;\nclass C extends CrudRepository<Vet, Integer> { }\n", "p/C.java") == []
    assert split_type_arguments("a.b.JpaRepository<Map<String, Long>, Integer>") == (
        "JpaRepository", ["Map<String,Long>", "Integer"])


def test_calls_of_inherited_members_bind_to_the_repository_interface():
    check("""
// --- path: p/Owner.java ---
package p;
public class Owner { }
// --- path: p/OwnerRepository.java ---
package p;
import org.springframework.data.jpa.repository.JpaRepository;
public interface OwnerRepository extends JpaRepository<Owner, Integer> {
    Owner findByName(String name);
}
// --- path: p/BaseRepository.java ---
package p;
import org.springframework.data.repository.ListCrudRepository;
public interface BaseRepository<T> extends ListCrudRepository<T, Long> { }
// --- path: p/VisitRepository.java ---
package p;
public interface VisitRepository extends BaseRepository<Owner> { }
// --- path: p/Other.java ---
package p;
public interface Other { }
// --- path: p/OwnerService.java ---
package p;
public class OwnerService {
    private final OwnerRepository owners;
    private final VisitRepository visits;
    private final Other other;
    OwnerService(OwnerRepository owners, VisitRepository visits, Other other) {
        this.owners = owners; this.visits = visits; this.other = other;
    }
    void go(Owner o) {
        this.owners.save(o);
        owners.findByName("x");
        owners.findAll();
        visits.count();
        other.save(o);
        owners.frobnicate();
    }
}
""", [
        "p/OwnerService.OwnerService.go(Owner) -> p/OwnerRepository.OwnerRepository.save(Owner) [exact]",
        "p/OwnerService.OwnerService.go(Owner) -> p/OwnerRepository.OwnerRepository.findByName(String) [exact]",
        "p/OwnerService.OwnerService.go(Owner) -> p/OwnerRepository.OwnerRepository.findAll() [exact]",
        # inherited through the application's own base interface
        "p/OwnerService.OwnerService.go(Owner) -> p/BaseRepository.BaseRepository.count() [inferred]",
        # `other.save(o)`: Other extends nothing of Spring Data, binds nothing; `frobnicate` is no CRUD method
    ])
