"""brk47's hostile inputs for session 46's work: what held is in docs/accuracy.md; what broke is
tested here, each with the exact edges expected and what must not be linked."""

from __future__ import annotations

from indexer.resolve.dotted import MAX_EXPRESSION_LINKS
from indexer.resolve.interpreter import Resolver
from tests.resolution_harness import edges, resolve_fixture


def _chain_fixture(links: int) -> str:
    """``n.kids[k].kids[k]...m()`` of ``links`` attribute-subscript pairs over a self-referring map
    (``Node.kids: dict[str, Node]``): every subscript is a call site (``__getitem__``) whose receiver
    is the whole chain before it."""
    body = "n" + ".kids[k]" * links
    return ("# --- path: pkg/node.py ---\nfrom __future__ import annotations\n\n\nclass Node:\n"
            "    kids: dict[str, Node]\n\n    def m(self):\n        return 1\n\n\nclass Other:\n"
            f"    def m(self):\n        return 2\n\n\ndef f(n: Node, k):\n    return {body}.m()\n")


def test_a_chain_within_the_bound_is_followed_whole():
    links = MAX_EXPRESSION_LINKS // 2 - 1  # an attribute and a subscript per pair
    assert edges(resolve_fixture(_chain_fixture(links))) == ["pkg/node.f(2) -> pkg/node.Node.m(0) [inferred]"]


def test_a_chain_past_the_bound_is_not_followed_and_costs_linear_work(monkeypatch):
    """A 300-pair chain read every prefix again for each of its 300 call sites: 45,450 attribute
    reads (1,000 pairs: 61 s to resolve); past :data:`MAX_EXPRESSION_LINKS` links an expression has
    no value: its call binds nothing (never Other.m by its name) and is counted unresolved."""
    reads = []
    real = Resolver.attr

    def counted(self, v, name):
        reads.append(name)
        return real(self, v, name)

    monkeypatch.setattr(Resolver, "attr", counted)
    got = edges(resolve_fixture(_chain_fixture(300)))
    assert got == []
    # the call sites within the bound follow their chains: about bound^2 / 4 reads, not 300^2 / 2
    assert len(reads) <= MAX_EXPRESSION_LINKS ** 2


def test_the_split_stops_past_the_bound():
    from indexer.resolve.dotted import TOO_LONG, split_dotted, too_long
    within = "a" + ".b[k]" * (MAX_EXPRESSION_LINKS // 2)  # 64 links: 32 attributes, 32 subscripts
    assert split_dotted(within) == ["a"] + ["b[k]"] * (MAX_EXPRESSION_LINKS // 2) and not too_long(split_dotted(within))
    assert split_dotted(within + ".c()") is TOO_LONG and too_long(TOO_LONG)
    assert split_dotted("a" + "[k]" * (MAX_EXPRESSION_LINKS + 1)) is TOO_LONG
    assert split_dotted("f(" + "x." * 500 + "y).g") == ["f()", "g"]  # arguments are no links


ARROWS = '''
// --- path: src/user.ts ---
export class User { activate(): void {} }
export class Group { activate(): void {} }
// --- path: src/svc.ts ---
import { User } from "./user";
function pair(): [() => void, User] { return [() => {}, new User()]; }
export function first() {
  const [f, u] = pair();
  u.activate();
}
export function second(m: Map<(u: string) => number, User>) {
  m.get(String).activate();
}
'''


def test_an_arrow_inside_a_type_closes_no_bracket():
    """``=>``'s ``>`` closed the ``<`` no one opened: ``[() => void, User]`` was one item and
    ``Map<(u: string) => number, User>`` one type argument, so ``u`` and ``m.get()`` had no type."""
    from indexer.languages.base import split_top_level
    from indexer.languages.ecmascript.syntax import map_value, tuple_items
    assert split_top_level("() => void, User") == ["() => void", " User"]
    assert split_top_level("Map<K, V>, (a) => b, C") == ["Map<K, V>", " (a) => b", " C"]
    assert tuple_items("[() => void, User]") == ["()=>void", "User"]
    assert map_value("Map<(u: string) => number, User>") == ("User", "pairs")
    assert edges(resolve_fixture(ARROWS)) == [
        "src/svc.first(0) -> src/svc.pair(0) [exact]",
        "src/svc.first(0) -> src/user.User.activate(0) [inferred]",  # u: never Group's by name
        "src/svc.pair(0) -> src/user.User [exact]",
        "src/svc.second(1) -> src/user.User.activate(0) [inferred]",  # m.get(...)
    ]


MIXIN = "class Mixin:\n    def go(self):\n        return self.get_object()\n"
PROVIDER = "class Provider:\n    def get_object(self):\n        return 1\n"
GO = "app/mixin.Mixin.go(0) -> app/provider.Provider.get_object(0) [inferred]"


def test_a_subclass_naming_its_base_by_an_alias_rebinds_what_the_base_calls(tmp_path):
    """A class coming in a new file that names the mixin through an import alias (``Mixin as M``) or
    a module-level alias (``Base = mixin.Mixin``) and gets ``get_object`` from its other base: the
    mixin's file read ``^Mixin``, the new class's tokens said only ``^M`` / ``^Base``, so the
    watcher and a one-shot run kept ``Mixin.go`` unbound where a cold index binds it."""
    from tests.index_dump import calls
    from tests.unit.test_incremental import Workspace
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/mixin.py": MIXIN, "app/provider.py": PROVIDER})
    try:
        ws.edit({"app/view.py": "from app.mixin import Mixin as M\nfrom app.provider import Provider\n\n\n"
                                "class View(M, Provider):\n    pass\n"})  # each edit compared with a cold index
        assert calls(ws.db) == [GO]
        ws.edit({"app/view.py": None})
        assert calls(ws.db) == []
        ws.edit({"app/w.py": "from app import mixin, provider\n\nBase = mixin.Mixin\n\n\n"
                             "class W(Base, provider.Provider):\n    pass\n"})
        assert calls(ws.db) == [GO]
        ws.edit({"app/w.py": "from app import mixin, provider\n\nBase = mixin.Mixin\n\n\nclass W(Base):\n    pass\n"})
        assert calls(ws.db) == []  # no subclass provides it
    finally:
        ws.close()


def _wide(bases: int) -> str:
    return ("# --- path: app/m.py ---\n" + "".join(f"class M{i}:\n    pass\n\n" for i in range(bases))
            + "class C(" + ", ".join(f"M{i}" for i in range(bases)) + "):\n    def run(self):\n"
            "        return self.hook()\n\nclass D(C):\n    def hook(self):\n        return 1\n\n"
            "class E:\n    def hook(self):\n        return 2\n")


def test_a_wide_mro_is_no_cut_one():
    """A class of 70 mixin bases has 71 classes in its MRO but is 1 level deep: what only its
    subclasses provide was not looked for (the check counted the MRO's classes, not its levels)."""
    from indexer.resolve.hierarchy import MAX_HIERARCHY_DEPTH
    assert MAX_HIERARCHY_DEPTH < 70
    for bases in (10, 70):
        assert edges(resolve_fixture(_wide(bases))) == ["app/m.C.run(0) -> app/m.D.hook(0) [inferred]"], bases  # never E's
