"""A file's bindings with the function-local ones on disk (indexer.resolve.bindings): what is read from
memory, what from the spill file and when, and that the index is the same whichever way."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

import indexer.parked as parked_module
import indexer.resolve.bindings as bindings_module
from indexer.model import Binding
from indexer.parked import ParkedList
from indexer.resolve.bindings import ScopedBindings
from indexer.spill import SpillFile
from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from tests.index_dump import calls
from tests.parked_harness import CountingSpill, holds, index_and_dump
from tests.resolution_harness import write_tree

BINDINGS = [
    Binding(None, "db", "Database", "constructed", 1),
    Binding("Service", "self.repo", "Repo", "declared", 4),
    Binding("Service.run", "x", "Repo", "constructed", 6),
    Binding("Service.run", "x", "Cache", "constructed", 8),
    Binding("helper", "y", "int", "declared", 12),
    Binding("Service", "owners", "Owner", "reverse", 3),
    Binding("helper", "~items", "Item", "reverse", 13),
]
EXPOSED = {None, "Service"}


def _held(sb: ScopedBindings) -> bool:
    """Whether the process-wide table holds ``sb``'s local table (by identity: comparing mappings
    would read them)."""
    return holds(bindings_module.held_tables(), sb)


def _parked(spill: SpillFile, items: list[Binding]) -> ParkedList:
    return ParkedList.park(spill, items)


def test_exposed_scopes_answer_from_memory_and_local_ones_from_the_parked_list() -> None:
    spill = CountingSpill()
    sb = ScopedBindings(_parked(spill, BINDINGS), EXPOSED)
    assert spill.reads == 1  # read once to keep the exposed ones
    assert sb.parked
    assert sb.get((None, "db")) == [BINDINGS[0]]
    assert sb[("Service", "self.repo")] == [BINDINGS[1]]
    assert ("Service", "owners") in sb
    assert sb.get((None, "nothing")) is None and ("Service", "x") not in sb
    assert spill.reads == 1  # none of those read the disk
    # the other files' readable bindings, in source order: exposed scopes and every reverse binding
    assert sb.visible == [BINDINGS[0], BINDINGS[1], BINDINGS[5], BINDINGS[6]]
    assert sb.get(("Service.run", "x")) == [BINDINGS[2], BINDINGS[3]]  # both, in source order
    assert spill.reads == 2
    assert sb[("helper", "y")] == [BINDINGS[4]] and sb[("helper", "~items")] == [BINDINGS[6]]
    assert ("Service.run", "z") not in sb
    assert spill.reads == 2  # the local table is kept while in use
    with pytest.raises(KeyError):
        sb[("helper", "z")]
    assert dict(sb) == {(None, "db"): [BINDINGS[0]], ("Service", "self.repo"): [BINDINGS[1]],
                        ("Service", "owners"): [BINDINGS[5]], ("Service.run", "x"): [BINDINGS[2], BINDINGS[3]],
                        ("helper", "y"): [BINDINGS[4]], ("helper", "~items"): [BINDINGS[6]]}
    assert len(sb) == 6
    sb.release()
    assert sb.get(("helper", "y")) == [BINDINGS[4]]
    assert spill.reads == 3  # built again after release
    assert _held(sb)
    sb.release()
    assert not _held(sb)


def test_at_most_open_files_local_tables_are_held(monkeypatch) -> None:
    monkeypatch.setattr(bindings_module, "OPEN_FILES", 2)
    spill = CountingSpill()
    files = [ScopedBindings(_parked(spill, BINDINGS), EXPOSED) for _ in range(3)]
    assert spill.reads == 3
    for sb in files:
        assert sb.get(("helper", "y")) == [BINDINGS[4]]
    assert spill.reads == 6
    files[2].get(("helper", "y"))
    files[1].get(("helper", "y"))
    assert spill.reads == 6  # the last two are held
    files[0].get(("helper", "y"))  # dropped when the third was built: read again, the second goes
    assert spill.reads == 7
    files[1].get(("helper", "y"))
    assert spill.reads == 8
    assert [_held(sb) for sb in files] == [True, True, False]  # the third dropped when the second came back
    for sb in files:
        sb.release()
    assert not any(_held(sb) for sb in files)


def test_a_list_in_memory_is_kept_whole_and_never_dropped(monkeypatch) -> None:
    monkeypatch.setattr(bindings_module, "OPEN_FILES", 1)
    plain = ScopedBindings(list(BINDINGS), EXPOSED)
    other = ScopedBindings(_parked(CountingSpill(), BINDINGS), EXPOSED)
    assert not plain.parked and other.parked
    other.get(("helper", "y"))
    assert plain.get(("Service.run", "x")) == [BINDINGS[2], BINDINGS[3]]
    no_locals = ScopedBindings([BINDINGS[0]], EXPOSED)
    assert no_locals.source is None and no_locals.get(("f", "x")) is None
    assert _held(other) and not _held(plain) and not _held(no_locals)  # only a parked one is listed
    other.release()


APP = {
    "app/__init__.py": "",
    "app/models.py": (
        "class Repo:\n    def save(self, n):\n        return n\n\n\n"
        "class Cache:\n    def save(self, n):\n        return n\n\n    def get(self):\n        return self\n\n\n"
        "DEFAULT = Repo()\n"),
    "app/service.py": (
        "from app.models import Repo, Cache, DEFAULT\n\n\n"
        "class Service:\n    def __init__(self):\n        self.repo = Repo()\n\n"
        "    def run(self, n):\n        x = Cache()\n        x.save(n)\n        y = x.get()\n        y.save(n)\n"
        "        self.repo.save(n)\n        DEFAULT.save(n)\n        return x\n\n\n"
        "def helper():\n    s = Service()\n    return s.run(1)\n"),
    "app/use.py": (
        "from app.service import Service, helper\n\n\n"
        "def go():\n    svc = Service()\n    svc.repo.save(2)\n    got = helper()\n    got.save(3)\n"
        "    cached = svc.run(4)\n    cached.get().save(5)\n"),
}


def test_the_index_is_the_same_with_bindings_parked_held_or_read_back_for_every_lookup(tmp_path, monkeypatch) -> None:
    """Negative and positive at once: the local bindings bind exactly the calls they bound when held
    (x.save -> Cache.save, not Repo.save), whether they stay in memory, are read back with eight
    tables held or with one (every other file's lookup reads them back again)."""
    root = tmp_path / "src"
    write_tree(root, APP)
    parked = index_and_dump(root, tmp_path / "parked.db")
    monkeypatch.setattr(bindings_module, "OPEN_FILES", 1)
    one = index_and_dump(root, tmp_path / "one.db")
    monkeypatch.setattr(parked_module, "PARKED_FIELDS", tuple(f for f in parked_module.PARKED_FIELDS if f != "bindings"))
    held = index_and_dump(root, tmp_path / "held.db")
    assert parked == one == held
    # x = Cache() in run binds x.save to Cache.save, never to Repo.save (which self.repo.save and
    # DEFAULT.save reach); svc.repo.save in another file reads Service's class-level binding.
    assert calls(tmp_path / "parked.db") == [
        "app/models.py -> app/models.Repo [exact]",
        "app/service.Service.__init__(0) -> app/models.Repo [exact]",
        "app/service.Service.run(1) -> app/models.Cache [exact]",
        "app/service.Service.run(1) -> app/models.Cache.get(0) [inferred]",
        "app/service.Service.run(1) -> app/models.Cache.save(1) [inferred]",
        "app/service.Service.run(1) -> app/models.Repo.save(1) [inferred]",
        "app/service.helper(0) -> app/service.Service.__init__(0) [exact]",
        "app/service.helper(0) -> app/service.Service.run(1) [inferred]",
        "app/use.go(0) -> app/models.Cache.get(0) [name]",
        "app/use.go(0) -> app/models.Repo.save(1) [inferred]",
        "app/use.go(0) -> app/service.Service.__init__(0) [exact]",
        "app/use.go(0) -> app/service.Service.run(1) [inferred]",
        "app/use.go(0) -> app/service.helper(0) [exact]",
    ]


def test_a_finished_run_holds_no_local_table_nor_its_spill_file(tmp_path) -> None:
    """Once a one-shot run released its files (:meth:`RepositoryResolver.release`), the process-wide
    table of open files holds none of them: their local tables and, through their parked lists, the
    run's spill file (an open file in the state folder) must not outlive the run in a long-lived
    process (``ripple index --all``, the language server indexing a folder)."""
    root = tmp_path / "src"
    write_tree(root, APP)
    before = {id(sb) for sb in bindings_module.held_tables()}  # other tests' files, if any
    index_and_dump(root, tmp_path / "x.db")
    assert [sb for sb in bindings_module.held_tables() if id(sb) not in before] == []


def test_a_park_damaged_under_a_run_is_a_clear_error_and_writes_nothing(tmp_path, monkeypatch) -> None:
    """The run's park file zeroed while it runs (a stray process, a disk fault): ``ripple index``
    stops with what happened and what the index holds, exit status 1, no traceback, nothing written."""
    root = tmp_path / "src"
    write_tree(root, APP)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(SpillFile, "get", lambda self, ref: bytes(ref[1]))  # every read: zeros
    db = tmp_path / "x.db"
    result = CliRunner().invoke(main, ["index", str(root), "--db", str(db), "--no-embed"])
    assert result.exit_code == 1, result.output
    assert "parked extraction data at" in result.output and "unreadable" in result.output
    assert "was changed or removed while it ran" in result.output and "run `ripple index` again" in result.output
    assert "Traceback" not in result.output
    store = EmbeddedStore(db)
    try:
        assert store.file_checksums("r") == {} and store.file_checksums(root.name) == {}
    finally:
        store.close()


def test_kept_bindings_share_their_texts_and_local_ones_are_untouched():
    spill = SpillFile()
    fresh = lambda text: "".join(list(text))  # noqa: E731  # an equal string that is not the interned one
    written = [Binding(fresh("Service"), fresh("self.repo"), fresh("Repo"), fresh("declared"), 4),
               Binding(fresh("Service.run"), fresh("x"), fresh("Repo"), fresh("constructed"), 6)]
    table = ScopedBindings(ParkedList.park(spill, written), {None, "Service"})
    kept = table.visible
    assert [(b.scope, b.name, b.type, b.how) for b in kept] == [("Service", "self.repo", "Repo", "declared")]
    b = kept[0]
    assert b.scope is sys.intern("Service") and b.name is sys.intern("self.repo")
    assert b.type is sys.intern("Repo") and b.how is sys.intern("declared")
    (name,) = table.hot
    assert name is b.name and table.hot[name] is b  # keyed by the same string; one binding held as itself
    local = table.get(("Service.run", "x"))
    assert [(x.scope, x.name, x.type, x.how) for x in local] == [("Service.run", "x", "Repo", "constructed")]


def test_few_exposed_scopes_are_a_tuple_many_a_frozenset_and_no_objects_one_shared_set() -> None:
    """What the lookups answer does not depend on how the exposed scopes are held: a tuple of up to
    SMALL_SCOPES (module level first), a frozenset above; a file binding no object shares one set."""
    sb = ScopedBindings(list(BINDINGS), EXPOSED)
    assert sb.exposed == (None, "Service")
    assert sb.objects is ScopedBindings(list(BINDINGS[:2]), {None}).objects and sb.objects == frozenset()
    assert [b.type for b in sb.get(("Service", "self.repo"))] == ["Repo"]
    assert [b.type for b in sb.get(("Service.run", "x"))] == ["Repo", "Cache"]
    assert sb.get(("Service", "x")) is None and sb.get((None, "self.repo")) is None  # not across scopes
    many = {None, *(f"C{i}" for i in range(bindings_module.SMALL_SCOPES))}
    wide = ScopedBindings(list(BINDINGS) + [Binding("C3", "z", "Zed", "declared", 20)], many)
    assert isinstance(wide.exposed, frozenset) and wide.exposed == frozenset(many)
    assert [b.type for b in wide.get(("C3", "z"))] == ["Zed"] and wide.get(("C3", "x")) is None
    assert [b.type for b in wide.get(("Service.run", "x"))] == ["Repo", "Cache"]
    assert ("Service", "self.repo") not in wide.hot and wide.get(("Service", "self.repo"))[0].type == "Repo"  # local there
    named = ScopedBindings([Binding(None, "api", "api", "object", 1), Binding("api", "list", "f", "alias", 2)], {None})
    assert named.objects == frozenset({"api"}) and named.exposed == (None, "api")
    assert [b.type for b in named.get(("api", "list"))] == ["f"]


def test_exposed_bindings_are_held_per_name_and_answer_per_scope_and_name() -> None:
    """The exposed scopes' bindings are held per name (one binding as itself, several of one scope as
    one list, several scopes as a dict of those per scope) and answer ``get``, ``in`` and iteration exactly as a
    table per ``(scope, name)`` did; the list of a key bound several times is the same object at
    every read (what member_flow.per_attribute keeps its work by), and no other key's bindings leak in."""
    items = [Binding(None, "x", "A", "constructed", 1),
             Binding("C", "self.x", "B", "assigned", 3),
             Binding("C", "x", "D", "declared", 4),
             Binding("C", "self.x", "E", "assigned", 7),
             Binding(None, "y", "F", "constructed", 9),
             Binding("C.run", "x", "G", "constructed", 11)]
    sb = ScopedBindings(list(items), {None, "C"})
    assert sb.hot["y"] is items[4]
    assert sb.hot["self.x"] == [items[1], items[3]]
    assert sb.hot["x"] == {None: items[0], "C": items[2]}  # one binding of a scope held as itself
    assert sb.get((None, "x")) == [items[0]] and sb.get(("C", "x")) == [items[2]] and sb.get(("D", "x")) is None
    assert sb.get(("C", "self.x")) == [items[1], items[3]]
    assert sb.get(("C", "self.x")) is sb.get(("C", "self.x"))
    assert sb.get((None, "x")) == [items[0]] and sb.get(("C", "x")) == [items[2]]
    assert sb.get((None, "y")) == [items[4]]
    assert sb.get(("C.run", "x")) == [items[5]]  # a local scope: the local table
    # what must not be found: a name bound in another exposed scope only, an unbound name
    assert sb.get(("C", "y")) is None and sb.get((None, "self.x"), ()) == ()
    assert ("C", "y") not in sb and (None, "z") not in sb and ("C", "x") in sb
    assert list(sb) == [(None, "x"), ("C", "self.x"), ("C", "x"), (None, "y"), ("C.run", "x")]
    assert len(sb) == 5


def test_a_name_of_several_scopes_holds_one_binding_or_one_list_per_scope() -> None:
    """Per scope of a name bound in several: a binding bound once there is held as itself (no one-item
    list each, session 62), several as one list (the same object at every read), a repeat of the one
    before kept once; nothing of another scope answers."""
    items = [Binding(None, "x", "A", "constructed", 1),
             Binding("C", "x", "B", "declared", 2),
             Binding(None, "x", "A", "constructed", 1),  # a repeat: kept once
             Binding(None, "x", "D", "constructed", 5),
             Binding("C", "x", "B", "declared", 2),  # a repeat of C's one: still one binding
             Binding("K", "x", "E", "declared", 8)]
    sb = ScopedBindings(list(items), {None, "C", "K"})
    assert sb.hot["x"] == {None: [items[0], items[3]], "C": items[1], "K": items[5]}
    assert sb.get((None, "x")) == [items[0], items[3]] and sb.get((None, "x")) is sb.get((None, "x"))
    assert sb.get(("C", "x")) == [items[1]] and sb.get(("K", "x")) == [items[5]]
    assert sb.get(("C.m", "x")) is None and ("C.m", "x") not in sb and sb.get(("Z", "x"), []) == []
