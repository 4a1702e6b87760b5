"""Incremental indexing: the exact graph after sequences of edits (rename, move, delete then recreate, a
new file binding an old unresolved call, a file that stops parsing and parses again, a new override),
what each update re-binds and writes, and a seeded random walk over file versions in which, after every
update, the index equals a full index of the same tree (``RIPPLE_FUZZ_STEPS`` sets the walk's length)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from indexer.incremental import RepositoryIndex
from indexer.run import IndexOptions
from indexer.pipeline import index_repository
from stores.embedded import EmbeddedStore
from tests.index_dump import calls, dump, problems, unresolved

FILES = {
    "app/__init__.py": "",
    "app/repo.py": "class Repo:\n    def save(self, x):\n        pass\n\n    def find(self, n):\n        return n\n",
    "app/service.py": (
        "from app.repo import Repo\n\n\nclass Service:\n    def __init__(self):\n        self.repo = Repo()\n\n"
        "    def run(self):\n        self.repo.save(1)\n        return self.repo.find(2)\n\n"
        "    def go(self, thing):\n        thing.flush_all()\n"
    ),
    "app/base.py": "class Base:\n    def handle(self):\n        pass\n\n\ndef process(b: Base):\n    b.handle()\n",
    "app/impl.py": "from app.base import Base\n\n\nclass Impl(Base):\n    pass\n",
    "web/main.js": "import { fmt } from './fmt';\n\nexport function show(x) {\n  return fmt(x);\n}\n",
    "shop/Owner.java": 'package shop;\n\npublic class Owner {\n    public String getName() { return ""; }\n}\n',
    "shop/OwnerController.java": (
        "package shop;\n\npublic class OwnerController {\n    private final Owner owner = new Owner();\n\n"
        "    public String show() {\n        return owner.getName() + owner.getAge();\n    }\n}\n"
    ),
}

BASE_CALLS = [
    "app/base.process(1) -> app/base.Base.handle(0) [exact]",
    "app/service.Service.__init__(0) -> app/repo.Repo [exact]",
    "app/service.Service.run(0) -> app/repo.Repo.find(1) [inferred]",
    "app/service.Service.run(0) -> app/repo.Repo.save(1) [inferred]",
    "shop/OwnerController.OwnerController -> shop/Owner.Owner [exact]",
    "shop/OwnerController.OwnerController.show() -> shop/Owner.Owner.getName() [exact]",
]
BASE_UNRESOLVED = ["app/service.py:13 flush_all", "shop/OwnerController.java:7 getAge"]


class Workspace:
    """A source tree, its incrementally maintained index, and a full index to compare with."""

    def __init__(self, tmp: Path, files: dict[str, str], records_first: bool = False) -> None:
        """``records_first``: the tree is indexed by a one-shot run first, whose records the
        watcher's first sync takes over (a server opening a folder `ripple index` wrote)."""
        self.tmp, self.src, self.db = tmp, tmp / "src", tmp / "inc.db"
        self.write(files)
        self.store = EmbeddedStore(self.db)
        options = IndexOptions(repo="r", jobs=1, state_dir=str(tmp / "state"))
        if records_first:
            index_repository(self.src, self.store, self.store, options)
        self.index = RepositoryIndex(self.src, self.store, self.store, options)
        self.first = self.index.sync()
        if records_first:  # nothing bound or written again
            assert (self.first.files_resolved, self.first.files_written) == (0, 0)
        self.runs = 0
        # A second index kept by one-shot runs (`ripple index`: a fresh process each time, the
        # resolver's records taken over from the state folder): it must equal the full index too.
        self.cli_db, self.cli_state = tmp / "cli.db", tmp / "cli-state"
        self.cli_report = self.one_shot()

    def write(self, files: dict[str, str | None]) -> None:
        for rel, text in files.items():
            path = self.src / rel
            if text is None:
                path.unlink(missing_ok=True)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")

    def edit(self, files: dict[str, str | None]):
        """Write ``files`` (``None``: delete), update with their paths, check against a full index."""
        self.write(files)
        report = self.index.update([self.src / rel for rel in files])
        self.check()
        # The one-shot run re-bound what the watcher re-bound, no more (a fallback binds every file).
        assert self.cli_report.files_resolved == report.files_resolved
        return report

    def one_shot(self):
        """``ripple index`` over the tree into the one-shot index (a new store and orchestrator)."""
        store = EmbeddedStore(self.cli_db)
        try:
            return index_repository(self.src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(self.cli_state)))
        finally:
            store.close()

    def check(self) -> None:
        self.runs += 1
        self.cli_report = self.one_shot()
        full = self.tmp / f"full{self.runs}.db"
        store = EmbeddedStore(full)
        try:
            index_repository(self.src, store, store, IndexOptions(repo="r", jobs=1))
        finally:
            store.close()
        assert problems(self.db) == []
        assert dump(self.db) == dump(full)
        assert dump(self.cli_db) == dump(full)
        full.unlink()

    def close(self) -> None:
        self.index.close()
        self.store.close()


@pytest.fixture
def ws(tmp_path: Path):
    w = Workspace(tmp_path, FILES)
    yield w
    w.close()


def test_first_sync_indexes_everything(ws: Workspace) -> None:
    assert (ws.first.files_indexed, ws.first.files_written, ws.first.files_extracted) == (8, 8, 8)
    assert calls(ws.db) == BASE_CALLS
    assert unresolved(ws.db) == BASE_UNRESOLVED
    ws.check()


def test_rename_loses_callers_and_renaming_back_regains_them(ws: Workspace) -> None:
    renamed = ws.edit({"app/repo.py": FILES["app/repo.py"].replace("save", "store")})
    assert (renamed.files_changed, renamed.files_resolved, renamed.files_written) == (1, 2, 2)
    assert calls(ws.db) == [c for c in BASE_CALLS if "save" not in c]
    assert unresolved(ws.db) == ["app/service.py:13 flush_all", "app/service.py:9 save", BASE_UNRESOLVED[1]]
    ws.edit({"app/repo.py": FILES["app/repo.py"]})
    assert calls(ws.db) == BASE_CALLS
    assert unresolved(ws.db) == BASE_UNRESOLVED


def test_body_edit_rebinds_only_that_file(ws: Workspace) -> None:
    report = ws.edit({"app/repo.py": FILES["app/repo.py"].replace("pass", "print(x)")})
    assert (report.files_changed, report.files_resolved, report.files_written) == (1, 1, 1)
    assert calls(ws.db) == BASE_CALLS
    # `return n + 1`: find no longer returns its parameter as handed (Definition.returned_param), which
    # the caller's `self.repo.find(2)` reads: it is bound again too, its output unchanged (not written)
    report = ws.edit({"app/repo.py": FILES["app/repo.py"].replace("return n", "return n + 1")})
    assert (report.files_changed, report.files_resolved, report.files_written, calls(ws.db)) == (1, 2, 1, BASE_CALLS)


def test_move_then_fix_the_import(ws: Workspace) -> None:
    moved = ws.edit({"app/repo.py": None, "app/storage.py": FILES["app/repo.py"]})
    assert (moved.files_deleted, moved.files_written) == (1, 2)
    # service.py imports app.repo, which is gone: its calls now leave the repository (external).
    assert calls(ws.db) == [c for c in BASE_CALLS if "app/repo" not in c]
    assert unresolved(ws.db) == BASE_UNRESOLVED
    ws.edit({"app/service.py": FILES["app/service.py"].replace("app.repo", "app.storage")})
    assert calls(ws.db) == [c.replace("app/repo", "app/storage") for c in BASE_CALLS]


def test_delete_then_recreate(ws: Workspace) -> None:
    ws.edit({"app/repo.py": None})
    assert calls(ws.db) == [c for c in BASE_CALLS if "app/repo" not in c]
    assert ws.store.file_checksums("r").keys() == set(FILES) - {"app/repo.py"}
    ws.edit({"app/repo.py": FILES["app/repo.py"]})
    assert calls(ws.db) == BASE_CALLS


def test_new_files_satisfy_old_unresolved_calls(ws: Workspace) -> None:
    ws.edit({"app/cache.py": "class Cache:\n    def flush_all(self):\n        pass\n"})
    assert "app/service.Service.go(1) -> app/cache.Cache.flush_all(0) [name]" in calls(ws.db)
    assert unresolved(ws.db) == [BASE_UNRESOLVED[1]]
    ws.edit({"web/fmt.js": "export function fmt(x) {\n  return x;\n}\n"})  # an import that now resolves
    assert "web/main.show(1) -> web/fmt.fmt(1) [exact]" in calls(ws.db)
    ws.edit({"shop/Owner.java": FILES["shop/Owner.java"].replace("}\n}", "}\n    public int getAge() { return 1; }\n}")})
    assert "shop/OwnerController.OwnerController.show() -> shop/Owner.Owner.getAge() [exact]" in calls(ws.db)
    assert unresolved(ws.db) == []
    # A second candidate of the same name makes the name-matched call ambiguous again.
    ws.edit({"app/cache2.py": "class Other:\n    def flush_all(self):\n        pass\n"})
    assert unresolved(ws.db) == ["app/service.py:13 flush_all"]


def test_file_that_stops_parsing_and_parses_again(ws: Workspace) -> None:
    broken = ws.edit({"app/service.py": FILES["app/service.py"].replace("def run(self):", "def run(self:")})
    assert broken.files_with_parse_errors == 1
    assert [e.split(": ", 1)[0] for e in broken.parse_error_examples] == ["app/service.py"]
    assert [c for c in calls(ws.db) if c.startswith("app/service")] == [
        "app/service.Service -> app/repo.Repo.find(1) [name]",
        "app/service.Service -> app/repo.Repo.save(1) [inferred]",
        "app/service.Service.__init__(0) -> app/repo.Repo [exact]",
    ]
    fixed = ws.edit({"app/service.py": FILES["app/service.py"]})
    assert (fixed.files_with_parse_errors, fixed.parse_error_examples) == (0, [])
    assert calls(ws.db) == BASE_CALLS
    assert unresolved(ws.db) == BASE_UNRESOLVED


def test_new_override_gains_the_callers_of_the_base_method(ws: Workspace) -> None:
    ws.edit({"app/impl.py": FILES["app/impl.py"].replace("    pass\n", "    def handle(self):\n        pass\n")})
    assert "app/base.process(1) -> app/impl.Impl.handle(0) [inferred]" in calls(ws.db)
    ws.edit({"app/impl.py": FILES["app/impl.py"]})
    assert calls(ws.db) == BASE_CALLS


def test_kotlin_facade_that_goes_with_its_top_level_functions(tmp_path: Path) -> None:
    """A Kotlin file's facade class ``ModelKt`` exists while it has top-level functions; the Java
    caller naming it is bound again when it goes and comes back (its module key does not move)."""
    top = "package kt\n\nclass Item(val name: String)\n\nfun Item.label(): String = name\n"
    member = "package kt\n\nclass Item(val name: String) {\n    fun label(): String = name\n}\n"
    caller = ("package shop;\n\nimport kt.ModelKt;\nimport kt.Item;\n\npublic class KtCaller {\n"
              "    String run(Item i) { ModelKt.label(i); return i.getName(); }\n}\n")
    w = Workspace(tmp_path, {"kt/Model.kt": top, "shop/KtCaller.java": caller})
    try:
        getters = ["kt/Model.Item.getName() -> kt/Model.Item.name [exact]",
                   "shop/KtCaller.KtCaller.run(Item) -> kt/Model.Item.getName() [exact]"]
        facade = "shop/KtCaller.KtCaller.run(Item) -> kt/Model.label(Item) [exact]"
        assert calls(w.db) == [*getters, facade]
        w.edit({"kt/Model.kt": member})  # no facade: ModelKt names nothing of the repository
        assert calls(w.db) == getters
        assert unresolved(w.db) == []  # was `ModelKt.label` left unresolved against a module gone
        w.edit({"kt/Model.kt": top})
        assert calls(w.db) == [*getters, facade]
    finally:
        w.close()


def test_second_sync_parses_and_writes_nothing(ws: Workspace) -> None:
    again = ws.index.sync()
    assert (again.files_extracted, again.files_written, again.files_deleted) == (0, 0, 0)
    # A fresh process on the same index and cache: every extraction comes from the cache.
    other = RepositoryIndex(ws.src, ws.store, ws.store, IndexOptions(repo="r", jobs=1, state_dir=str(ws.tmp / "state")))
    try:
        cold = other.sync()
    finally:
        other.close()
    # It takes the resolver's records over from the state folder: nothing is bound again.
    assert (cold.files_indexed, cold.files_extracted, cold.files_resolved, cold.files_written) == (8, 0, 0, 0)


def test_one_shot_run_on_an_unchanged_tree_stops_after_hashing(ws: Workspace) -> None:
    ws.write({"app/broken.py": "def f(:\n    pass\n"})
    first = index_repository(ws.src, ws.store, ws.store, IndexOptions(repo="r", jobs=1, state_dir=str(ws.tmp / "state")))
    assert (first.files_written, first.files_with_parse_errors) == (1, 1)
    assert first.parse_error_examples == ["app/broken.py: 1:6: missing )"]
    again = index_repository(ws.src, ws.store, ws.store, IndexOptions(repo="r", jobs=1, state_dir=str(ws.tmp / "state")))
    assert (again.files_indexed, again.files_with_parse_errors, again.files_extracted, again.files_resolved,
            again.files_written) == (9, 1, 0, 0, 0)
    assert again.parse_error_examples == ["app/broken.py"]  # the index keeps the count, not the message
    assert again.files_by_language == {"python": 6, "java": 2, "javascript": 1}
    ws.check()


def test_unchanged_chunks_keep_their_embeddings(ws: Workspace) -> None:
    chunk_ids = ["r:app/repo.Repo.save(1)", "r:app/repo.Repo.find(1)"]
    found = ws.store.get_chunks(chunk_ids)
    assert found.keys() == set(chunk_ids)
    ws.store.set_embeddings({cid: [1.0, 0.0] for cid in chunk_ids})
    ws.edit({"app/repo.py": FILES["app/repo.py"].replace("return n", "return n * 2")})
    after = ws.store.get_chunks(chunk_ids)
    assert after["r:app/repo.Repo.save(1)"].embedding == (1.0, 0.0)  # same text: vector kept
    assert after["r:app/repo.Repo.find(1)"].embedding is None  # new text: to embed
    assert after["r:app/repo.Repo.find(1)"].checksum != found["r:app/repo.Repo.find(1)"].checksum


def test_journal_forces_the_files_an_interrupted_run_left(ws: Workspace) -> None:
    ws.index.journal.write(["app/base.py", "app/impl.py"], ["app/impl.py"])
    report = ws.index.update([ws.src / "app/repo.py"])  # nothing changed there
    assert (report.files_resumed, report.files_written) == (1, 1)
    assert ws.index.journal.read() == (set(), set())


def test_paths_outside_the_root_and_unindexable_files_are_ignored(ws: Workspace, tmp_path: Path) -> None:
    (ws.src / "notes.txt").write_text("hello\n", encoding="utf-8")
    report = ws.index.update([tmp_path / "elsewhere.py", ws.src / "notes.txt", "../up.py"])
    assert (report.files_resolved, report.files_written) == (0, 0)


def test_directory_move_and_gitignore_rescan(ws: Workspace) -> None:
    (ws.src / "app").rename(ws.src / "core")
    report = ws.index.update([ws.src / "app", ws.src / "core"])
    ws.check()
    assert report.files_deleted == 5 and "core/repo.py" in ws.store.file_checksums("r")
    ws.write({".gitignore": "core/\n"})
    ws.index.update([ws.src / ".gitignore"])
    ws.check()
    assert sorted(ws.store.file_checksums("r")) == ["shop/Owner.java", "shop/OwnerController.java", "web/main.js"]


# ------------------------------------------------------------------------------- random walk

VARIANTS: dict[str, list[str | None]] = {
    "app/__init__.py": ["", None],
    "app/models/__init__.py": ["from app.models.base import Model\n",
                               "from app.models.base import Model as Model\nfrom app.models.extra import Extra\n", None],
    "app/models/base.py": [
        "class Model:\n    def save(self):\n        pass\n\n    def delete(self):\n        pass\n",
        "class Model:\n    def store(self):\n        pass\n\n    def delete(self):\n        return 1\n",
        "class Model:\n    def save(self, force=False):\n        pass\n",
        "class Model:\n    def save(self:\n        pass\n",
        None],
    "app/models/extra.py": ["from app.models.base import Model\n\n\nclass Extra(Model):\n    def save(self):\n        super().save()\n",
                           None, "class Extra:\n    def delete(self):\n        pass\n"],
    "app/repo.py": [
        "from app.models import Model\n\n\nclass Repo:\n    def save(self, x):\n        x.save()\n\n    def find(self, n):\n        return Model()\n",
        "from app.models import Model\n\n\nclass Repo:\n    def store(self, x):\n        x.delete()\n\n"
        "    def find(self, n):\n        m = Model()\n        m.save()\n        return m\n",
        "import app.models\n\n\nclass Repo:\n    def save(self, x):\n        app.models.Model().save()\n\n"
        "    def find(self, n):\n        return self.make()\n\n    def make(self):\n        return app.models.Model()\n",
        None],
    "app/storage.py": [None, "from app.models import Model\n\n\nclass Repo:\n    def save(self, x):\n        x.save()\n\n"
                             "    def find(self, n):\n        return Model()\n"],
    "app/service.py": [
        "from app.repo import Repo\n\n\nclass Service:\n    def __init__(self):\n        self.repo = Repo()\n\n"
        "    def run(self):\n        self.repo.save(1)\n        return self.repo.find(2).delete()\n\n"
        "    def go(self, thing):\n        thing.flush_all()\n        helper = Repo()\n        helper.find(1)\n",
        "from app.storage import Repo\n\n\nclass Service:\n    def __init__(self):\n        self.repo = Repo()\n\n"
        "    def run(self):\n        self.repo.save(1)\n        return self.repo.find(2).save()\n\n"
        "    def go(self, thing):\n        thing.flush_all()\n",
        "from app.repo import Repo\nfrom app.models.extra import Extra\n\n\nclass Service:\n    def __init__(self):\n"
        "        self.repo = Repo()\n\n    def run(self):\n        self.repo.store(1)\n\n"
        "    def go(self, thing):\n        helper = Extra()\n        helper.save()\n"],
    "app/cache.py": [None, "class Cache:\n    def flush_all(self):\n        pass\n",
                     "class Cache:\n    def flush_all(self, deep):\n        pass\n"],
    "app/cache2.py": [None, "class Cache2:\n    def flush_all(self):\n        pass\n"],
    "app/base.py": [
        "class Base:\n    def handle(self):\n        pass\n\n\ndef process(b: Base):\n    b.handle()\n\n\n"
        "def make():\n    return Base()\n\n\ndef use():\n    make().handle()\n",
        "class Base:\n    def handle(self):\n        pass\n\n    def other(self):\n        pass\n\n\n"
        "def process(b: Base):\n    b.handle()\n    b.other()\n\n\ndef make():\n    return Base()\n\n\n"
        "def use():\n    make().handle()\n"],
    "app/impl.py": ["from app.base import Base\n\n\nclass Impl(Base):\n    pass\n",
                    "from app.base import Base\n\n\nclass Impl(Base):\n    def handle(self):\n        pass\n",
                    "from app.base import Base\n\n\nclass Impl(Base):\n    def other(self):\n        pass\n", None],
    "app/alias.py": [None, "from app.base import Base as Alias\n", "from app.impl import Impl as Alias\n"],
    "app/user.py": ["from app.alias import Alias\n\n\ndef run():\n    Alias().handle()\n\n\ndef make():\n    return Alias()\n", None],
    "app/user2.py": ["from app.user import make\n\n\ndef go():\n    make().handle()\n    make().other()\n"],
    "web/main.js": ["import { fmt } from './fmt';\nimport * as u from './util';\n\n"
                    "export function show(x) {\n  u.helper(x);\n  return fmt(x);\n}\n"],
    "web/fmt.js": [None, "export function fmt(x) {\n  return String(x);\n}\n", "export { fmt2 as fmt } from './fmt2';\n"],
    "web/fmt2.js": [None, "export function fmt2(x) {\n  return x;\n}\n"],
    "web/util.js": ["export function helper(x) { return x; }\n", None],
    "web/util.ts": [None, "export function helper(x: number) { return x; }\n"],
    "web/index.js": [None, "export * from './util';\n"],
    "shop/Owner.java": ['package shop;\n\npublic class Owner {\n    public String getName() { return ""; }\n}\n',
                        'package shop;\n\npublic class Owner {\n    public String getName() { return ""; }\n'
                        "    public int getAge() { return 1; }\n}\n", None],
    "shop/OwnerController.java": [FILES["shop/OwnerController.java"]],
    "shop/Pet.java": [None, 'package shop;\n\npublic class Pet extends Owner {\n    public String getName() { return "pet"; }\n}\n'],
    "other/Use.java": ["package other;\n\nimport shop.Owner;\n\npublic class Use {\n    void run(Owner o) { o.getName(); }\n}\n"],
    "svc/__init__.py": [""],
    "svc/consts.py": ['BASE = "http://owners/api"\n', 'BASE = "http://owners/v2"\n', '# moved\n\nBASE = "http://owners/api"\n', None],
    "svc/client.py": ['import requests\nfrom svc.consts import BASE\n\n\ndef fetch():\n    return requests.get(BASE + "/owners")\n',
                      'import requests\nfrom svc.consts import BASE\n\n\ndef fetch():\n    return requests.post(BASE + "/owners/1")\n',
                      None],
    "svc/app.py": ['from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.get("/api/owners")\ndef owners():\n    return []\n',
                '"""Moved down."""\nfrom flask import Flask\n\napp = Flask(__name__)\n\n\n@app.get("/api/owners")\ndef owners():\n    return []\n',
                   'from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.post("/api/owners/<int:id>")\ndef owners(id):\n'
                   "    return []\n", None],
    # issue 14: GraphQL schema files and resolvers share Endpoint nodes; a beat schedule names a task
    # of another module (an ENTRY edge across files)
    "gql/__init__.py": [""],
    "gql/schema.graphqls": ["type Query { owner: Int }\n",
                            "type Query {\n  owner: Int\n  pets: Int\n}\nextend type Mutation { add: Int }\n", None],
    "gql/resolvers.py": ["import strawberry\n\n\n@strawberry.type\nclass Query:\n    @strawberry.field\n"
                         "    def owner(self) -> int:\n        return 1\n",
                         "import strawberry\n\n\n@strawberry.type\nclass Query:\n    @strawberry.field\n"
                         "    def pets(self) -> int:\n        return 2\n", None],
    "gql/beat.py": ['app.conf.beat_schedule = {"a": {"task": "gql.tasks.clean"}}\n', None],
    "gql/tasks.py": ["def clean():\n    pass\n", "def clean(x=1):\n    pass\n", "def other():\n    pass\n", None],
    # issue 15: a .proto whose package and rpcs change, a servicer inheriting an rpc method from a class
    # of another file, a stub calling an rpc that comes and goes
    "rpc/__init__.py": [""],
    "rpc/orders.proto": ['syntax = "proto3";\npackage shop;\nservice Orders { rpc Get (R) returns (R); }\n',
                         'syntax = "proto3";\npackage shop.v2;\nservice Orders {\n  rpc Get (R) returns (R);\n'
                         '  rpc List (R) returns (R);\n}\n', None],
    "rpc/base.py": ["class Base:\n    def List(self, request, context):\n        return []\n", "class Base:\n    pass\n",
                    None],
    "rpc/server.py": ["from rpc import orders_pb2_grpc\nfrom rpc.base import Base\n\n\nclass Impl(Base, orders_pb2_grpc.OrdersServicer):"
                      "\n    def Get(self, request, context):\n        return 1\n",
                      "from rpc import orders_pb2_grpc\n\n\nclass Impl(orders_pb2_grpc.OrdersServicer):\n"
                      "    def Get(self, request, context):\n        return 1\n", None],
    "rpc/client.py": ["from rpc import orders_pb2_grpc\n\n\ndef fetch(ch):\n    return orders_pb2_grpc.OrdersStub(ch).List(1)\n",
                      None],
    # issue 21: Kotlin shares Java's packages (a file with top-level functions is also its facade module
    # `ModelKt`, which comes and goes with them); extensions bind by receiver type; Vue components
    # import scripts and call their methods from the template
    "kt/Model.kt": ["package kt\n\nclass Item(val name: String)\n\nfun Item.label(): String = name\n",
                    "package kt\n\nclass Item(val name: String) {\n    fun label(): String = name\n}\n",
                    "package kt\n\nopen class Base\nclass Item(val name: String) : Base()\n\nfun Base.label(): String = \"\"\n",
                    None],
    "kt/Use.kt": ["package kt\n\nfun show(i: Item): String = i.label()\n",
                  "package kt\n\nimport shop.Owner\n\nobject Use {\n    fun show(i: Item, o: Owner) = i.label() + o.getName()\n}\n"],
    "shop/KtCaller.java": ["package shop;\n\nimport kt.ModelKt;\nimport kt.Item;\n\npublic class KtCaller {\n"
                           "    String run(Item i) { ModelKt.label(i); return i.getName(); }\n}\n", None],
    "web/Comp.vue": ['<template><a @click="go">x</a></template>\n<script>\nimport { fmt } from "./fmt";\n'
                     "export default { methods: { go() { return fmt(1); } } };\n</script>\n",
                     '<template><a @click="go(1)">x</a></template>\n<script setup>\nimport { fmt } from "./fmt";\n'
                     "function go(x) { return fmt(x); }\n</script>\n", None],
    "web/app.js": ["import Comp from './Comp.vue';\n\nexport function mount() { return new Comp(); }\n"],
    # issue 21: Go
    "gomod/go.mod": ["module example.com/g\n", "module example.com/h\n", None],
    "gomod/store/repo.go": ["package store\n\ntype Repo struct{ db *DB }\n\nfunc NewRepo() *Repo { return &Repo{} }\n\n"
                            "func (r *Repo) Save(x int) { r.db.Exec() }\n",
                            "package store\n\ntype Repo struct{}\n\nfunc NewRepo() *Repo { return &Repo{} }\n\n"
                            "func (r *Repo) Store(x int) { open() }\n", None],
    "gomod/store/db.go": ["package store\n\ntype DB struct{}\n\nfunc (d *DB) Exec() {}\n\nfunc open() *DB { return nil }\n",
                          "package store\n\ntype DB struct{}\n\nfunc (d *DB) Exec(q int) {}\n", None],
    "gomod/store/more.go": [None, "package store\n\nfunc (r *Repo) Store(x int) {}\n",
                            "package store\n\nfunc (d *DB) Exec() { open() }\n"],
    "gomod/cmd/main.go": ["package main\n\nimport \"example.com/g/store\"\n\nfunc main() {\n\tr := store.NewRepo()\n"
                          "\tr.Save(1)\n\tr.Store(2)\n\tvar d store.DB\n\td.Exec()\n}\n",
                          "package main\n\nimport s \"example.com/h/store\"\n\nfunc main() {\n\ts.NewRepo().Save(1)\n}\n"],
    # issue 21: Go interfaces satisfied implicitly (an implementer comes and goes); C# partial classes
    # across files, an interface, an extension method
    "gomod/store/iface.go": ["package store\n\ntype Saver interface{ Save(x int) }\n\nfunc Use(s Saver) { s.Save(1) }\n",
                             "package store\n\ntype Saver interface{ Save(x int); Flush() }\n\n"
                             "func Use(s Saver) { s.Save(2) }\n", None],
    "cs/Repo.cs": ["namespace Shop;\n\npublic interface IRepo { void Save(int x); }\n\n"
                   "public partial class Repo : IRepo\n{\n    public void Save(int x) { Log(); }\n}\n",
                   "namespace Shop;\n\npublic partial class Repo\n{\n    public void Save(int x) { }\n}\n", None],
    "cs/Repo.Log.cs": ["namespace Shop;\n\npublic partial class Repo\n{\n    void Log() { }\n}\n",
                       "namespace Shop;\n\npublic static class Ext { public static void Log(this Repo r) { } }\n", None],
    "cs/Api.cs": ["using Shop;\n\nnamespace Shop.Api;\n\npublic class Api\n{\n    private readonly IRepo _r;\n"
                  "    public void Go(Repo r) { _r.Save(1); r.Log(); }\n}\n"],
    # issue 21: Apex classes in one org-wide namespace (a class renamed in case, a method that comes and
    # goes), a trigger, and an LWC component importing an Apex method
    "sf/classes/Repo.cls": ["public class Repo { public void save() {} }\n", "public class repo { public void save() {} }\n",
                            "public class Repo { public void store() {} }\n", None,
                            # session 61: a DML write runs the trigger on Account (a topic only while T exists)
                            "public class Repo { public void save() { insert new Account(); } }\n"],
    "sf/classes/Svc.cls": ["public class Svc { @AuraEnabled public static void run() { new Repo().save(); } }\n",
                           "public class Svc { @AuraEnabled public static void run() { Repo r = new Repo(); r.store(); } }\n",
                           # session 61: a member name folding case (`SAVE` is `save`)
                           "public class Svc { @AuraEnabled public static void run() { new Repo().SAVE(); } }\n"],
    "sf/triggers/T.trigger": ["trigger T on Account (after insert) { Svc.run(); }\n", None],
    # brk40: x.Y.py's ids keep the suffix while x.py defines Y (else x.Y.py's z is x.py's Y.z); a class
    # named like its file's suffix keeps the File node's id apart
    "dot/x.py": ["class Y:\n    def z(self):\n        return 1\n", "class Q:\n    def z(self):\n        return 1\n", None],
    "dot/x.Y.py": ["def z():\n    return 2\n\n\ndef caller():\n    return z()\n", None],
    "dot/a.py": ["class py:\n    def m(self):\n        return 1\n", "class K:\n    pass\n"],
    # a doc naming definitions that come, go and change their ids in other files (its MENTIONS)
    "docs/guide.md": ["# Guide\n\nCall `Repo.save`, `Base.handle`, `gql.tasks.clean` or `store.Repo.Store`.\n",
                      "# Guide\n\nSee `Impl.Get`, `KtCaller.run` and `Repo.save`.\n", None],
    "sf/lwc/c/c.js": ["import { LightningElement } from 'lwc';\nimport run from '@salesforce/apex/Svc.run';\n"
                      "export default class C extends LightningElement { go() { run(); } }\n", None],
}


@pytest.mark.parametrize(("seed", "records_first"), [(1, False), (2, False), (3, True)])
def test_random_edits_keep_the_index_equal_to_a_full_index(tmp_path: Path, seed: int, records_first: bool) -> None:
    """``records_first``: the watcher starts from a one-shot run's records instead of binding every file."""
    steps = int(os.environ.get("RIPPLE_FUZZ_STEPS", "12"))
    rng = random.Random(seed)
    start = {rel: versions[0] for rel, versions in VARIANTS.items() if versions[0] is not None}
    w = Workspace(tmp_path, start, records_first)
    try:
        for _ in range(steps):
            picked = rng.sample(sorted(VARIANTS), rng.choice([1, 1, 2, 3]))
            w.edit({rel: rng.choice(VARIANTS[rel]) for rel in picked})
    finally:
        w.close()
