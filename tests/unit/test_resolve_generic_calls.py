"""Generic functions and methods (:mod:`indexer.resolve.generic_calls`): a call's result is the type
its arguments bind to the callee's own type parameter (``first(users)`` is a ``User``,
``container.get(UserService)`` a ``UserService``), in Python, TypeScript and Java; what must stay
unlinked."""

from __future__ import annotations

from pathlib import Path

from indexer.languages.base import class_literal, type_token
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
# --- path: app/util.py ---
from typing import Optional, Sequence, TypeVar

T = TypeVar("T")


def first(xs: Sequence[T]) -> T:
    return xs[0]


def same(x: T) -> Optional[T]:
    return x


def many(cls: type[T]) -> list[T]:
    return [cls()]


class Container:
    def get(self, cls: type[T]) -> T:
        return cls()
# --- path: app/run.py ---
from app.models import Group, User
from app.util import Container, first, many, same


def run(c: Container, users: list[User], groups: list[Group], counts: list[int], user: User, name: str):
    first(users).activate()
    g = first(groups)
    g.activate()
    c.get(User).activate()
    same(user).activate()
    many(Group).activate()
    first(counts).activate()
    c.get(user).activate()
    same(name).activate()
    first([]).activate()
'''


def _calls(resolved, caller: str, needle: str) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.endswith(caller) and needle in e.dst)


def test_python_generic_functions_bind_their_type_parameter_from_the_arguments() -> None:
    resolved = resolve_fixture(PY)
    assert _calls(resolved, "run.run(6)", "activate") == [
        (6, "app/models.User.activate(0)", "inferred"),  # first(users): Sequence[T] handed a list[User]
        (8, "app/models.Group.activate(0)", "inferred"),  # g = first(groups)
        (9, "app/models.User.activate(0)", "inferred"),  # c.get(User): type[T] handed the class
        (10, "app/models.User.activate(0)", "inferred"),  # same(user): T handed an instance, Optional[T]
        # negative: many(Group) gives a list[Group], whose activate is the list's (11); a list[int]
        # (12), an instance where type[T] is declared (13), a str (14) and a literal (15) bind no
        # class: no edge to either activate, not even by name
    ]


TS = '''
# --- path: web/models.ts ---
export class User { activate(): void {} }
export class Group { activate(): void {} }
# --- path: web/util.ts ---
export type Type<T> = new (...args: any[]) => T;
export function first<T>(xs: T[]): T { return xs[0]; }
export class Container {
  get<T>(cls: Type<T>): T { return new cls(); }
  make<T>(cls: new () => T): T { return new cls(); }
}
# --- path: web/run.ts ---
import { Group, User } from './models';
import { Container, first } from './util';
export function run(c: Container, users: User[], groups: Group[], names: string[], user: User) {
  first(users).activate();
  const g = first(groups);
  g.activate();
  c.get(User).activate();
  c.make(Group).activate();
  first(names).activate();
  c.get(user).activate();
}
'''


def test_typescript_generic_functions_and_constructor_types() -> None:
    resolved = resolve_fixture(TS)
    assert _calls(resolved, "run.run(5)", "activate") == [
        (4, "web/models.User.activate(0)", "inferred"),  # first<T>(xs: T[]) handed a User[]
        (6, "web/models.Group.activate(0)", "inferred"),  # const g = first(groups)
        (7, "web/models.User.activate(0)", "inferred"),  # get<T>(cls: Type<T>) handed the class
        (8, "web/models.Group.activate(0)", "inferred"),  # make<T>(cls: new () => T)
        # negative: a string[] (9) and an instance handed to Type<T> (10) bind nothing
    ]


JAVA = '''
# --- path: src/a/User.java ---
package a;
public class User { public void activate() {} }
# --- path: src/a/Group.java ---
package a;
public class Group { public void activate() {} }
# --- path: src/a/Beans.java ---
package a;
import java.util.List;
public class Beans {
  public <T> T getBean(Class<T> type) { return null; }
  public static <T> T first(List<T> xs) { return xs.get(0); }
  public <T> java.util.Optional<T> find(Class<T> type) { return null; }
  public <T> java.util.Optional<T> up(Class<T>... types) { return null; }
}
# --- path: src/a/Svc.java ---
package a;
import java.util.List;
public class Svc {
  void run(Beans beans, List<User> users, List<String> names, Group group) {
    beans.getBean(User.class).activate();
    Beans.first(users).activate();
    var u = Beans.first(users);
    u.activate();
    Beans.first(names).activate();
    beans.getBean(group).activate();
    beans.find(Group.class).get().activate();
    var g = beans.find(Group.class).get();
    g.activate();
    beans.up(User.class).get().activate();
    beans.up(User.class, Group.class).get().activate();
  }
}
'''


def test_java_generic_methods_bound_by_class_literals_and_containers() -> None:
    resolved = resolve_fixture(JAVA)
    assert _calls(resolved, "Svc.run(Beans,List,List,Group)", "activate") == [
        (5, "src/a/User.User.activate()", "inferred"),  # <T> T getBean(Class<T>) handed User.class
        (6, "src/a/User.User.activate()", "inferred"),  # static <T> T first(List<T>) handed a List<User>
        (8, "src/a/User.User.activate()", "inferred"),  # var u = Beans.first(users)
        (11, "src/a/Group.Group.activate()", "inferred"),  # Optional<T> find(Class<T>): a call after it
        (13, "src/a/Group.Group.activate()", "inferred"),  # var g = beans.find(Group.class).get()
        (14, "src/a/User.User.activate()", "inferred"),  # Class<T>... handed one class
        # negative: a List<String> (9), an instance handed to Class<T> (10) and two classes handed
        # to Class<T>... (15): neither activate
    ]


def test_type_tokens_and_class_literals() -> None:
    assert type_token("Class<T>") == "T"
    assert type_token("Class<? extends T>") == "T"
    assert type_token("KClass<T>") == "T"
    assert type_token("Type<T>") == "T"
    assert type_token("new (...args: any[]) => T") == "T"
    assert type_token("abstract new () => T") == "T"
    assert type_token("List<T>") is None  # a container, not a class object
    assert type_token("Class<List<T>>") is None
    assert type_token("Class") is None
    assert class_literal("User.class") == "User"
    assert class_literal("a.b.User.class") == "a.b.User"
    assert class_literal("User::class") == "User"
    assert class_literal("User::class.java") == "User"
    assert class_literal("user") is None
    assert class_literal(".class") is None


UTIL = "from typing import Sequence, TypeVar\n\nT = TypeVar('T')\n\n\ndef first(xs: Sequence[T]) -> T:\n    return xs[0]\n"
RUN = ("from app.models import Group, User\nfrom app.util import first\n\n\n"
       "def run(users: list[User], groups: list[Group]):\n    first(users).activate()\n")


def test_an_edit_of_the_generic_function_or_of_the_call_rebinds(tmp_path: Path) -> None:
    models = "class User:\n    def activate(self): pass\n\n\nclass Group:\n    def activate(self): pass\n"
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/models.py": models, "app/util.py": UTIL, "app/run.py": RUN})
    edge = "app/run.run(2) -> app/models.{}.activate(0) [inferred]"
    try:
        assert [c for c in calls(ws.db) if "activate" in c] == [edge.format("User")]
        ws.edit({"app/run.py": RUN.replace("first(users)", "first(groups)")})  # the argument handed
        assert [c for c in calls(ws.db) if "activate" in c] == [edge.format("Group")]
        ws.edit({"app/util.py": UTIL.replace("-> T:", "-> int:")})  # the callee no longer generic
        assert [c for c in calls(ws.db) if "activate" in c] == []
        ws.edit({"app/util.py": UTIL})
        assert [c for c in calls(ws.db) if "activate" in c] == [edge.format("Group")]
    finally:
        ws.close()


JAVA_IDENTITY = '''
# --- path: src/p/A.java ---
package p;
public class A { public void m() { } }
# --- path: src/p/B.java ---
package p;
public class B { public void m() { } }
# --- path: src/p/G.java ---
package p;
public class G {
  static <T> T id(T t) { return t; }
  void go(Object raw, A a) {
    id(new A()).m();
    A x = id(new A()); x.m();
    id(a).m();
    var v = id(new B()); v.m();
    id(raw).m();
    id(make()).m();
  }
}
'''


def test_java_type_parameter_bound_by_an_instance_argument() -> None:
    # `<T> T id(T t)`: T is the class of the instance handed (JLS 18.5.1), by `new` or a typed name;
    # negative: an Object (raw) and a call of no known type (make()) bind nothing, so m() of
    # neither A nor B is linked at those lines (9, 10)
    resolved = resolve_fixture(JAVA_IDENTITY)
    assert _calls(resolved, "G.go(Object,A)", "m") == [
        (5, "src/p/A.A.m()", "inferred"),
        (6, "src/p/A.A.m()", "exact"),  # the local declared A
        (7, "src/p/A.A.m()", "inferred"),
        (8, "src/p/B.B.m()", "inferred"),
    ]
