"""Type parameters of repository classes bound by the classes extending them or by a declared type
(:mod:`indexer.resolve.generics`): a generic repository's ``get`` called on a ``UserRepository`` gives
a ``User``, in Python, Java, TypeScript, C# and Kotlin; what must stay unlinked."""

from __future__ import annotations

from pathlib import Path

from indexer.languages.base import class_type_arguments, declared_type_parameters, generic_arguments, header_type_arguments
from indexer.languages.python.modules import base_type_arguments, type_parameters
from indexer.model import Definition
from tests.index_dump import calls
from tests.resolution_harness import resolve_fixture
from tests.unit.test_incremental import Workspace

PY = '''
# --- path: app/__init__.py ---
# --- path: app/models.py ---
class User:
    def activate(self): pass


class Group:
    def activate(self): pass
# --- path: app/repo.py ---
from typing import Generic, Iterator, Optional, TypeVar

ModelT = TypeVar("ModelT")
T = TypeVar("T")


class Repository(Generic[ModelT]):
    current: Optional[ModelT] = None

    def get(self, key) -> Optional[ModelT]:
        return None

    def all(self) -> list[ModelT]:
        return []

    def by_name(self) -> dict[str, ModelT]:
        return {}

    def stream(self) -> Iterator[ModelT]:
        return iter([])


class Mid(Repository[T]):
    pass
# --- path: app/users.py ---
from app.models import Group, User
from app.repo import Mid, Repository


class UserRepository(Repository[User]):
    pass


class GroupRepository(Mid[Group]):
    pass


class CountRepository(Repository[int]):
    pass


class RawRepository(Repository):
    pass


def make() -> Repository[Group]:
    return Repository()


def run(users: UserRepository, groups: GroupRepository, counts: CountRepository, raw: RawRepository,
        base: Repository):
    users.get(1).activate()
    u = users.get(2)
    u.activate()
    for g in groups.all():
        g.activate()
    groups.by_name()["x"].activate()
    [x.activate() for x in users.stream()]
    make().get(3).activate()
    counts.get(4).activate()
    raw.get(5).activate()
    base.get(6).activate()
    users.current.activate()
    raw.current.activate()
'''


def _calls(resolved, caller: str, needle: str) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.endswith(caller) and needle in e.dst)


def test_python_type_parameters_bound_by_subclasses_and_declared_types() -> None:
    resolved = resolve_fixture(PY)
    assert _calls(resolved, "users.run(5)", "activate") == [
        (27, "app/models.User.activate(0)", "inferred"),  # users.get(1): Repository[User]'s ModelT
        (29, "app/models.User.activate(0)", "inferred"),  # u = users.get(2)
        (31, "app/models.Group.activate(0)", "inferred"),  # a list[ModelT] through Mid[Group] -> Repository[T]
        (32, "app/models.Group.activate(0)", "inferred"),  # a dict[str, ModelT]'s value
        (33, "app/models.User.activate(0)", "inferred"),  # an Iterator[ModelT] in a comprehension
        (34, "app/models.Group.activate(0)", "inferred"),  # -> Repository[Group]: the declared argument
        (38, "app/models.User.activate(0)", "inferred"),  # a class attribute `current: Optional[ModelT]`
        # negative: Repository[int] binds no class (35); a base without arguments (36), the
        # generic base itself (37) and RawRepository's attribute (39) bind none: no edge to
        # either activate, not even by name
    ]


def test_python_hooks_read_bases_and_headers() -> None:
    def cls(name: str, bases: list[str], signature: str = "") -> Definition:
        return Definition("class", name, name, None, 1, 0, 2, 0, 1, 6, signature=signature, bases=bases)

    assert type_parameters(cls("R", ["Base[ModelT]", "Generic[K, ModelT]"])) == ("K", "ModelT")  # Generic's order
    assert type_parameters(cls("S", ["List[T]", "Mapping[str, list[V]]", "Dict[str, Any]"])) == ("T", "str", "V")  # free names, in order
    assert type_parameters(cls("P", ["Base"], "class P[T, U](Base):")) == ("T", "U")  # PEP 695
    assert type_parameters(cls("Q", ["Base", "mod.Other"])) == ()
    assert base_type_arguments(cls("U", ['Repository["User", int]', "mod.Mixin[User]", "Plain"])) == {
        "Repository": ("User", "int"), "Mixin": ("User",)}


def test_header_parsing_of_the_bracket_languages() -> None:
    assert declared_type_parameters("public abstract class Repo<T, ID extends Serializable>", "Repo") == ("T", "ID")
    assert declared_type_parameters("open class Box<out T : Any, in K>", "Box") == ("T", "K")
    assert declared_type_parameters("class Repo<@NonNull T>", "Repo") == ("T",)
    assert declared_type_parameters("class Repo<T", "Repo") == ()  # never closes
    assert declared_type_parameters("class RepoX<T>", "Repo") == ()  # another name
    assert header_type_arguments("class U extends Repo<User, Long> implements Api<Map<K, V>>", "U") == {
        "Repo": ("User", "Long"), "Api": ("Map<K, V>",)}
    assert header_type_arguments("public class UserRepo<T> : Repo<User>, IX<T> where T : class", "UserRepo") == {
        "Repo": ("User",), "IX": ("T",)}
    assert header_type_arguments("class A extends B<", "A") == {}
    assert generic_arguments("a.Repo<User, Map<K, V>>") == ("User", "Map<K, V>")
    assert generic_arguments("List<User>[]") == ()
    assert generic_arguments("Repo") == ()
    d = Definition("class", "UserRepo", "UserRepo", None, 1, 0, 2, 0, 1, 6, signature="class UserRepo",
                   bases=["Repo<User, Long>"], implements=["Api<User>"])
    assert class_type_arguments(d) == {"Repo": ("User", "Long"), "Api": ("User",)}


BRACKETS = '''
# --- path: src/a/User.java ---
package a;
public class User { public void activate() {} }
# --- path: src/a/Group.java ---
package a;
public class Group { public void activate() {} }
# --- path: src/a/Repo.java ---
package a;
import java.util.List;
public abstract class Repo<T, ID> {
  protected T last;
  public T find(ID id) { return null; }
  public List<T> all() { return null; }
}
# --- path: src/a/UserRepo.java ---
package a;
public class UserRepo extends Repo<User, Long> {}
# --- path: src/a/Svc.java ---
package a;
public class Svc {
  UserRepo users;
  Repo<Group, Long> groups;
  Repo<String, Long> names;
  void run() {
    users.find(1L).activate();
    users.all().get(0).activate();
    groups.find(2L).activate();
    names.find(3L).activate();
    users.last.activate();
  }
}
# --- path: web/user.ts ---
export class User { activate(): void {} }
export class Group { activate(): void {} }
# --- path: web/base.ts ---
export class BaseService<T> {
  async findOne(id: number): Promise<T> { return null as any; }
  findAll(): T[] { return []; }
}
# --- path: web/users.ts ---
import { BaseService } from './base';
import { User } from './user';
export class UserService extends BaseService<User> {}
# --- path: web/ctl.ts ---
import { UserService } from './users';
import { BaseService } from './base';
export class Ctl {
  constructor(private readonly users: UserService, private readonly any: BaseService<unknown>) {}
  async run() {
    const u = await this.users.findOne(1);
    u.activate();
    this.users.findAll()[0].activate();
    (await this.any.findOne(2)).activate();
  }
}
# --- path: cs/Repo.cs ---
namespace App {
  public class Order { public void Ship() {} }
  public class Parcel { public void Ship() {} }
  public class Repo<T> where T : class { public T GetById(int id) { return null; } }
  public class OrderRepo : Repo<Order> {}
  public class Svc {
    private OrderRepo _r;
    public void Run() {
      var o = _r.GetById(2);
      o.Ship();
    }
  }
}
# --- path: kt/k/Repo.kt ---
package k
class Item { fun use() {} }
class Other { fun use() {} }
open class Repo<T> { fun find(id: Int): T? = null }
class ItemRepo : Repo<Item>() {}
class Svc(val r: ItemRepo) {
  fun run() {
    r.find(1)?.use()
  }
}
'''


def test_bracket_languages_bind_type_parameters_through_subclasses_and_declarations() -> None:
    resolved = resolve_fixture(BRACKETS)
    assert _calls(resolved, "Svc.run()", "activate") == [
        (7, "src/a/User.User.activate()", "inferred"),  # UserRepo extends Repo<User, Long>: T = User
        (8, "src/a/User.User.activate()", "inferred"),  # users.all(): a List<T>, its get(0)
        (9, "src/a/Group.Group.activate()", "inferred"),  # a field declared Repo<Group, Long>
        (11, "src/a/User.User.activate()", "inferred"),  # the base's field `protected T last`
        # negative: Repo<String, Long> (10) binds no class of the repository
    ]
    assert _calls(resolved, "Ctl.run(0)", "activate") == [
        (7, "web/user.User.activate(0)", "inferred"),  # await this.users.findOne(1): Promise<T>
        (8, "web/user.User.activate(0)", "inferred"),  # findAll(): T[], subscripted
        # negative: BaseService<unknown> (9) binds nothing: neither User's nor Group's activate
    ]
    assert _calls(resolved, "Svc.Run(0)", "Ship") == [(10, "cs/Repo.Order.Ship(0)", "inferred")]  # not Parcel's
    assert _calls(resolved, "Svc.run()", "use") == [(8, "kt/k/Repo.Item.use()", "inferred")]  # not Other's


MODELS = "class User:\n    def activate(self): pass\n\n\nclass Group:\n    def activate(self): pass\n"
REPO = ("from typing import Generic, Optional, TypeVar\n\nM = TypeVar('M')\n\n\n"
        "class Repository(Generic[M]):\n    def get(self, key) -> Optional[M]:\n        return None\n")
USERS = "from app.models import Group, User\nfrom app.repo import Repository\n\n\nclass UserRepository(Repository[User]):\n    pass\n"
SVC = "from app.users import UserRepository\n\n\ndef run(users: UserRepository):\n    users.get(1).activate()\n"


def test_an_edit_of_the_binding_declaration_or_the_generic_base_rebinds_the_callers(tmp_path: Path) -> None:
    # svc.py never changes: only the subclass's declaration (users.py) or the generic base (repo.py)
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/models.py": MODELS, "app/repo.py": REPO,
                              "app/users.py": USERS, "app/svc.py": SVC})
    edge = "app/svc.run(1) -> app/models.{}.activate(0) [inferred]"
    try:
        assert [c for c in calls(ws.db) if "activate" in c] == [edge.format("User")]
        ws.edit({"app/users.py": USERS.replace("Repository[User]", "Repository[Group]")})
        assert [c for c in calls(ws.db) if "activate" in c] == [edge.format("Group")]
        ws.edit({"app/repo.py": REPO.replace("-> Optional[M]", "-> int")})
        assert [c for c in calls(ws.db) if "activate" in c] == []
        ws.edit({"app/repo.py": REPO})
        assert [c for c in calls(ws.db) if "activate" in c] == [edge.format("Group")]
    finally:
        ws.close()
