"""Repository classes extending a library container with type arguments
(:mod:`indexer.resolve.container_bases`: ``class Registry(dict[str, Handler])``, ``extends
ArrayList<Handler>``, ``extends Map<string, Handler>``), and classes read out of containers
(``dict[str, type[Handler]]``, nested ``dict[str, list[Handler]]``); what must stay unlinked."""

from __future__ import annotations

from indexer.languages.python.modules import container_element, map_value
from tests.resolution_harness import resolve_fixture

PY = '''
# --- path: app/__init__.py ---
# --- path: app/h.py ---
from typing import Any


class Handler:
    def run(self): pass

    @classmethod
    def create(cls): return cls()


class Registry(dict[str, Handler]):
    def register(self, k, h): self[k] = h


class Chain(list[Handler]):
    pass


class Loose(dict[str, Any]):
    pass


class Own(list[Handler]):
    def __getitem__(self, i) -> "Own":
        return self


def main(reg: Registry, chain: Chain, loose: Loose, own: Own, k: str):
    reg[k].run()
    reg.get(k).run()
    for h in reg.values():
        h.run()
    for h in chain:
        h.run()
    chain[0].run()
    reg.register(k, None)
    loose[k].run()
    own[0].run()
# --- path: app/t.py ---
from app.h import Handler


def kinds(handlers: dict[str, type[Handler]], groups: dict[str, list[Handler]], ks: list[type[Handler]], k: str):
    handlers[k]().run()
    handlers[k].create()
    for cls in handlers.values():
        cls().run()
    groups[k][0].run()
    ks[0]().run()


def pick(handlers: dict[str, type[Handler]], k: str, name: str):
    cls = handlers.get(k) or Handler
    cls.create()
    first = name or k
    first.create()
'''


def _calls(resolved, caller: str, needle: str) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.endswith(caller) and needle in e.dst)


def test_python_classes_extending_a_builtin_container_hand_out_its_elements() -> None:
    resolved = resolve_fixture(PY)
    assert _calls(resolved, "h.main(5)", "Handler.run") == [
        (29, "app/h.Handler.run(0)", "inferred"),  # reg[k] of Registry(dict[str, Handler])
        (30, "app/h.Handler.run(0)", "inferred"),  # reg.get(k): the dict's get
        (32, "app/h.Handler.run(0)", "inferred"),  # reg.values(), iterated
        (34, "app/h.Handler.run(0)", "inferred"),  # iterating Chain(list[Handler])
        (35, "app/h.Handler.run(0)", "inferred"),  # chain[0]
        # negative: dict[str, Any] (37) holds no class of the repository; Own's own __getitem__
        # (38) returns an Own, not the list's element
    ]
    assert _calls(resolved, "h.main(5)", "register") == [(36, "app/h.Registry.register(2)", "exact")]  # its own


def test_python_classes_and_containers_read_out_of_containers() -> None:
    resolved = resolve_fixture(PY)
    assert _calls(resolved, "t.kinds(4)", "Handler.") == [
        (5, "app/h.Handler.run(0)", "inferred"),  # handlers[k](): an instance of the class read out
        (6, "app/h.Handler.create(0)", "exact"),  # handlers[k].create(): the classmethod on the class
        (8, "app/h.Handler.run(0)", "exact"),  # cls of handlers.values() called
        (9, "app/h.Handler.run(0)", "inferred"),  # groups[k][0]: dict[str, list[Handler]]
        (10, "app/h.Handler.run(0)", "inferred"),  # ks[0](): list[type[Handler]]
    ]


def test_python_a_call_on_the_left_of_or_is_the_value_too() -> None:
    resolved = resolve_fixture(PY)
    assert _calls(resolved, "t.pick(3)", "create") == [
        # `handlers.get(k) or Handler`: the class read out or Handler, either operand (indexer/resolve/either.py)
        (15, "app/h.Handler.create(0)", "inferred"),
    ]  # not: `name or k` (17): both operands are `str` parameters now bound, so no name match to Handler.create


def test_python_hooks_keep_a_subscripted_element_for_the_resolver_to_nest() -> None:
    assert map_value("dict[str, list[Handler]]") == ("list[Handler]", "map")
    assert map_value("dict[str, type[Handler]]") == ("type[Handler]", "map")
    assert container_element("list[type[Handler]]") == "type[Handler]"
    assert container_element("list[Handler]") == "Handler"
    assert container_element("list[Callable[..., X] | Y]") is None  # neither a name nor one subscripted type
    # new50b: a None alternative is dropped first (`present`), leaving one subscripted type
    assert container_element("list[Callable[..., X] | None]") == "Callable[..., X]"
    assert map_value("dict[str, 'a b']") is None


BRACKETS = '''
# --- path: src/a/Handler.java ---
package a;
public class Handler { public void run() {} }
# --- path: src/a/Other.java ---
package a;
public class Other { public void run() {} }
# --- path: src/a/Chain.java ---
package a;
import java.util.ArrayList;
public class Chain extends ArrayList<Handler> {}
# --- path: src/a/Names.java ---
package a;
import java.util.ArrayList;
public class Names extends ArrayList<String> {}
# --- path: src/a/Svc.java ---
package a;
import java.util.HashMap;
public class Svc {
  static class Handlers extends HashMap<String, Handler> {}
  void main(Chain chain, Handlers hs, Names names) {
    chain.get(0).run();
    hs.get("a").run();
    names.get(0).run();
  }
}
# --- path: web/h.ts ---
export class Handler { run(): void {} }
export class Handlers extends Map<string, Handler> {
  add(k: string, h: Handler) { this.set(k, h); }
}
export class Chain extends Array<Handler> {}
export class Plain extends Map<string, number> {}
export function main(hs: Handlers, chain: Chain, p: Plain, k: string) {
  hs.get(k).run();
  for (const [key, h] of hs) { h.run(); }
  chain[0].run();
  hs.add(k, new Handler());
  p.get(k).run();
}
'''


def test_bracket_languages_classes_extending_a_library_container() -> None:
    resolved = resolve_fixture(BRACKETS)
    assert _calls(resolved, "Svc.main(Chain,Handlers,Names)", "run") == [
        (6, "src/a/Handler.Handler.run()", "inferred"),  # Chain extends ArrayList<Handler>: get(0)
        (7, "src/a/Handler.Handler.run()", "inferred"),  # Handlers extends HashMap<String, Handler>
        # negative: Names extends ArrayList<String> (8): neither Handler's nor Other's run
    ]
    assert _calls(resolved, "h.main(4)", "Handler.run") == [
        (8, "web/h.Handler.run(0)", "inferred"),  # extends Map<string, Handler>: get(k)
        (9, "web/h.Handler.run(0)", "inferred"),  # iterated by [key, value] pairs
        (10, "web/h.Handler.run(0)", "inferred"),  # extends Array<Handler>: chain[0]
        # negative: Map<string, number> (12) binds nothing
    ]
    assert _calls(resolved, "h.main(4)", "add") == [(11, "web/h.Handlers.add(2)", "exact")]  # its own method
