"""Values read out of containers, maps and tuples (session 46): a subscript of a container of a
repository class (``users[0].m()``, ``d[k].m()``), an annotated map's values (``.get``, ``.values()``,
``.items()`` unpacked in a loop), an item of an annotated tuple return (``a, b = f()``), and a
function wrapped by ``functools.partial`` / asgiref's ``sync_to_async`` held in an attribute. Every
fixture has a namesake method in another class, so a call the values do not bind stays unlinked
(no name match); what must not link is asserted as absent."""

from __future__ import annotations

from indexer.languages.python.modules import map_value, tuple_items
from indexer.resolve.dotted import split_dotted
from tests.resolution_harness import resolve_fixture

PYTHON = '''
# --- path: app/__init__.py ---
# --- path: app/models.py ---
class User:
    def activate(self): pass


class Group:
    def activate(self): pass
# --- path: app/svc.py ---
from app.models import Group, User


def load() -> list[User]:
    return []


def by_name() -> dict[str, User]:
    return {}


def by_user() -> dict[User, int]:
    return {}


def pair() -> tuple[User, bool]:
    return User(), True


def untyped():
    return User(), True


def run(users: list[User], i: int):
    users[0].activate()
    load()[i].activate()
    by_name()["a"].activate()
    by_name().get("a").activate()
    for u in by_name().values():
        u.activate()
    for k, v in by_name().items():
        v.activate()
        k.activate()
    for n in by_name():
        n.activate()
    by_user()[User()].activate()
    first = users[1]
    first.activate()
    rest = users[1:]
    rest.activate()
    a, flag = pair()
    a.activate()
    flag.activate()
    b, c = untyped()
    b.activate()
'''


def _calls(fixture: str, src: str, dst: str) -> list[tuple[int, str, str]]:
    resolved = resolve_fixture(fixture)
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and src in e.src and dst in e.dst)


def test_python_subscripts_maps_and_tuples() -> None:
    assert _calls(PYTHON, "svc.run", "models") == [
        (25, "app/models.User.activate(0)", "inferred"),  # users[0]: list[User]
        (26, "app/models.User.activate(0)", "inferred"),  # load()[i]
        (27, "app/models.User.activate(0)", "inferred"),  # by_name()["a"]: dict[str, User]'s value
        (28, "app/models.User.activate(0)", "inferred"),  # by_name().get("a")
        (30, "app/models.User.activate(0)", "inferred"),  # for u in by_name().values()
        (32, "app/models.User.activate(0)", "inferred"),  # for k, v in by_name().items(): v
        (36, "app/models.User", "exact"),  # by_user()[User()]: the constructor call only
        (38, "app/models.User.activate(0)", "inferred"),  # first = users[1]
        (42, "app/models.User.activate(0)", "inferred"),  # a, flag = pair(): tuple[User, bool]
        # negatives: k (line 33) is the str key of the items; iterating a dict hands out keys
        # (n, line 35); dict[User, int]'s value is an int, not the key class (line 36); a slice is
        # the list, no User (line 40); flag is the tuple's bool (line 43); an unannotated tuple
        # return gives nothing (b, line 45); Group.activate is never reached
    ]


def test_python_map_and_tuple_annotations() -> None:
    assert [map_value(t) for t in ("dict[str, User]", "Mapping[int, app.User]", "Optional[dict[str, User]]",
                                   "defaultdict[str, User]")] == [("User", "map"), ("app.User", "map"),
                                                                   ("User", "map"), ("User", "map")]
    assert [map_value(t) for t in ("list[User]", "dict", "User")] == [None] * 3
    assert map_value("dict[str, list[User]]") == ("list[User]", "map")  # kept as written: the resolver nests (gen48)
    assert [tuple_items(t) for t in ("tuple[Channel, bool]", "Tuple[A, B, C]", "tuple[A, B] | None")] == [
        ["Channel", "bool"], ["A", "B", "C"], ["A", "B"]]
    assert [tuple_items(t) for t in ("tuple[A, ...]", "list[A]", "tuple", "A")] == [None] * 4


def test_split_dotted_keeps_subscripts() -> None:
    assert split_dotted('d["a.b"].get().x') == ['d["a.b"]', "get()", "x"]
    assert split_dotted("f()[0].m") == ["f()[0]", "m"]
    assert split_dotted("users[g(x.y)].m") == ["users[g()]", "m"]


WRAPPED = '''
# --- path: app/__init__.py ---
# --- path: app/jobs.py ---
import functools
from asgiref.sync import async_to_sync, sync_to_async


def _process(data):
    return data


def _send(data):
    return data


def _other(data):
    return data


class Server:
    def __init__(self):
        self.process = sync_to_async(_process)
        self.send = functools.partial(_send, 1)
        self.blocking = async_to_sync(self.handle)

    async def handle(self, data):
        await self.process(data)
        self.send(data)

    def run(self, data):
        self.blocking(data)
'''


def test_wrapped_functions_held_in_attributes_are_called_through() -> None:
    assert [c for c in _calls(WRAPPED, "jobs.Server", "jobs") ] == [
        (24, "app/jobs._process(1)", "exact"),  # await self.process(data): sync_to_async(_process)
        (25, "app/jobs._send(1)", "exact"),  # self.send(data): functools.partial(_send, 1)
        (28, "app/jobs.Server.handle(1)", "exact"),  # self.blocking(data): async_to_sync(self.handle)
        # negative: _other is never called
    ]


TYPESCRIPT = '''
// --- path: src/user.ts ---
export class User { activate(): void {} }
export class Group { activate(): void {} }
// --- path: src/svc.ts ---
import { User } from "./user";
function pair(): [User, boolean] { return [new User(), true]; }
function names(): Map<User, string> { return new Map(); }
export function run(users: User[], m: Map<string, User>, i: number, rec: Record<string, User>) {
  users[0].activate();
  users[i].activate();
  m.get("a")!.activate();
  for (const v of m.values()) { v.activate(); }
  for (const [k, w] of m) { w.activate(); k.activate(); }
  m.forEach((x, k) => x.activate());
  rec["a"].activate();
  const [a, b] = pair();
  a.activate();
  b.activate();
  const y = users[0];
  y.activate();
  for (const e of m) { e.activate(); }
  names().get(new User()).activate();
}
'''


def test_typescript_subscripts_maps_and_tuples() -> None:
    assert _calls(TYPESCRIPT, "svc.run", "user.") == [
        (5, "src/user.User.activate(0)", "inferred"),  # users[0]
        (6, "src/user.User.activate(0)", "inferred"),  # users[i]
        (7, "src/user.User.activate(0)", "inferred"),  # m.get("a")!: Map<string, User>
        (8, "src/user.User.activate(0)", "inferred"),  # for (const v of m.values())
        (9, "src/user.User.activate(0)", "inferred"),  # for (const [k, w] of m): w
        (10, "src/user.User.activate(0)", "inferred"),  # m.forEach((x, k) => ...): x is the value
        (11, "src/user.User.activate(0)", "inferred"),  # rec["a"]: Record<string, User>
        (13, "src/user.User.activate(0)", "inferred"),  # const [a, b] = pair(): [User, boolean]
        (16, "src/user.User.activate(0)", "inferred"),  # const y = users[0]
        (18, "src/user.User", "exact"),  # new User() only
        # negatives: k (line 9) is the string key; b (line 14) the boolean; a Map's for...of hands
        # out [key, value] entries, no User (e, line 17); Map<User, string>'s get gives the string
        # (line 18); Group.activate is never reached
    ]


CSHARP = '''
// --- path: src/User.cs ---
namespace App;
public class User { public void Activate() {} }
public class Group { public void Activate() {} }
// --- path: src/Svc.cs ---
using System.Collections.Generic;
namespace App;
public class Svc {
  private Dictionary<string, User> _byName = new();
  private Dictionary<User, string> _names = new();
  public void Run(List<User> users, User[] arr, int i, Dictionary<string, User> d) {
    users[0].Activate();
    arr[i].Activate();
    d["a"].Activate();
    if (d.TryGetValue("a", out var v)) { v.Activate(); }
    foreach (var u in d.Values) { u.Activate(); }
    foreach (var kv in d) { kv.Value.Activate(); kv.Key.Activate(); }
    _byName["b"].Activate();
    var y = arr[0];
    y.Activate();
    foreach (var p in d) { p.Activate(); }
    _names[y].Activate();
    d.GetValueOrDefault("c").Activate();
  }
}
'''


def test_csharp_indexers_and_dictionaries() -> None:
    assert _calls(CSHARP, "Svc.Run", "User.") == [
        (7, "src/User.User.Activate(0)", "inferred"),  # users[0]: List<User>'s indexer
        (8, "src/User.User.Activate(0)", "inferred"),  # arr[i]: User[]
        (9, "src/User.User.Activate(0)", "inferred"),  # d["a"]: Dictionary<string, User>
        (10, "src/User.User.Activate(0)", "inferred"),  # TryGetValue("a", out var v)
        (11, "src/User.User.Activate(0)", "inferred"),  # foreach (var u in d.Values)
        (12, "src/User.User.Activate(0)", "inferred"),  # foreach (var kv in d): kv.Value
        (13, "src/User.User.Activate(0)", "inferred"),  # _byName["b"]: a field
        (15, "src/User.User.Activate(0)", "inferred"),  # var y = arr[0]
        (18, "src/User.User.Activate(0)", "inferred"),  # GetValueOrDefault
        # negatives: kv.Key (line 12) is the string key; a KeyValuePair is no User (p, line 16);
        # Dictionary<User, string>'s value is a string (line 17)
    ]


JAVA = '''
// --- path: src/app/User.java ---
package app;
public class User { public void activate() {} }
// --- path: src/app/Group.java ---
package app;
public class Group { public void activate() {} }
// --- path: src/app/Svc.java ---
package app;
public class Svc {
  public void run(User[] arr, int i, String[] names) {
    arr[0].activate();
    arr[i].activate();
    names[0].activate();
  }
}
'''


def test_java_array_elements() -> None:
    assert _calls(JAVA, "Svc.run", "User.") == [
        (4, "src/app/User.User.activate()", "inferred"),  # arr[0]: User[]
        (5, "src/app/User.User.activate()", "inferred"),  # arr[i]
        # negative: a String[]'s element is no class of the repository (line 6)
    ]


LOCALS = '''
# --- path: app/__init__.py ---
# --- path: app/table.py ---
class Table:
    def add_row(self): pass
# --- path: app/tags.py ---
from importlib import import_module
from django import template


class Transport:
    pass


TRANSPORTS: dict[str, tuple[str, type[Transport] | str]] = {"a": ("A", "app.t.A")}


def row(context: template.Context):
    context["__table__"].add_row()


class Channel:
    def transport(self) -> Transport:
        label, cls = TRANSPORTS[self.kind]
        if isinstance(cls, str):
            cls = getattr(import_module(label), cls)
        return cls(self)
# --- path: app/lists.py ---
import gettext


class ListMixin:
    def extend(self, items): pass
    def split(self, sep=None): pass


def compile_all():
    return [], []


def build(flag):
    result = ["SELECT"]
    if flag:
        result, params = compile_all()
    result.extend([1])


class Catalog:
    def __init__(self):
        self.translation = gettext.translation("x")

    def plural(self):
        return self.translation._catalog[""].split("\\n")
'''


def test_library_subscripts_and_local_cls() -> None:
    resolved = resolve_fixture(LOCALS)
    calls = sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                   if e.kind == "CALLS" and "app/" in e.dst and "compile_all" not in e.dst)
    assert calls == [
        (13, "app/table.Table.add_row(0)", "name"),  # a library's container may hold it: the name match stays
        # negatives: a local `cls` (an item of a tuple of library types, then getattr's) is no
        # enclosing class: `cls(self)` (line 21) builds no Channel; an unknown item (`result, params
        # = compile_all()`) leaves `result = [...]` a list (result.extend: no ListMixin.extend); a
        # library object's attribute subscripted is the library's (no ListMixin.split)
    ]


SHADOWED = '''
# --- path: app/__init__.py ---
# --- path: app/signals.py ---
def receiver(signal):
    return signal


def live(pairs, out):
    for receiver, flag in pairs:
        out.append(receiver)
'''


def test_an_unpacked_local_shadows_a_module_function() -> None:
    resolved = resolve_fixture(SHADOWED)
    assert [e for f in resolved.files for e in f.edges if e.kind == "REFERENCES" and "receiver" in e.dst] == []
