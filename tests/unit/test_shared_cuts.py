"""Edits that break what the resolver shares or builds on read (brk36): a definition's id built from
its file's prefix, its qualname and its tail, members and hierarchy links held by :class:`Def` objects
that a watcher keeps across versions of a file. After each edit the watcher's index and a one-shot
run's must equal a full index (:class:`tests.unit.test_incremental.Workspace`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.index_dump import calls, dump
from tests.unit.test_incremental import Workspace

FILES = {
    "p/__init__.py": "",
    "p/a.py": "def a(x):\n    return 1\n\n\ndef b(x, y):\n    return 2\n",
    "p/use.py": "from p.a import a, b\n\n\ndef go():\n    a(1)\n    b(1, 2)\n",
    "p/base.py": "class Base:\n    def run(self):\n        pass\n\n    def get(self):\n        pass\n",
    "p/call.py": "from p.base import Base\n\n\ndef go(b: Base):\n    b.run()\n    b.get()\n",
}
CALLS = [
    "p/call.go(1) -> p/base.Base.get(0) [exact]",
    "p/call.go(1) -> p/base.Base.run(0) [exact]",
    "p/use.go(0) -> p/a.a(1) [exact]",
    "p/use.go(0) -> p/a.b(2) [exact]",
]


@pytest.fixture
def ws(tmp_path: Path):
    w = Workspace(tmp_path, FILES)
    yield w
    w.close()


def test_moving_a_function_below_another_keeps_each_ones_id(ws: Workspace) -> None:
    # Same interface (the same names, signatures, nesting), another order: the watcher patches the file
    # in place, and used to pair its Def objects with the new definitions by position ("r:p/a.b(1)").
    report = ws.edit({"p/a.py": "def b(x, y):\n    return 2\n\n\ndef a(x):\n    return 1\n"})
    assert (report.files_changed, report.files_resolved) == (1, 1)
    assert calls(ws.db) == CALLS


def test_swapped_methods_keep_their_callers_when_a_caller_binds_again(ws: Workspace) -> None:
    ws.edit({"p/base.py": "class Base:\n    def get(self):\n        pass\n\n    def run(self):\n        pass\n"})
    assert calls(ws.db) == CALLS
    ws.edit({"p/call.py": FILES["p/call.py"] + "    b.run()\n"})  # b.run() bound to Base.get before
    assert calls(ws.db) == CALLS
    assert [c for c in calls(ws.db) if "Base.get" in c] == ["p/call.go(1) -> p/base.Base.get(0) [exact]"]


MODELS = ("from django.db import models\n\n\nclass Member(models.Model):\n    def greet(self):\n        pass\n\n\n"
          "class Profile(models.Model):\n    user = models.OneToOneField(Member, on_delete=models.CASCADE)\n\n"
          "    def follow(self):\n        pass\n")
VIEWS = "from app.models import Member\n\n\ndef go(m: Member):\n    m.profile.follow()\n    m.greet()\n"


def test_a_removed_one_to_one_field_leaves_no_reverse_accessor(tmp_path: Path) -> None:
    # Profile's own definition is unchanged when its field goes, so the watcher keeps its Def object
    # (FileCtx.reuse_defs, now of the new file); the reverse accessor `profile` it gave Member must go
    # with the old version of the file all the same.
    w = Workspace(tmp_path, {"app/__init__.py": "", "app/models.py": MODELS, "app/views.py": VIEWS})
    try:
        assert calls(w.db) == ["app/views.go(1) -> app/models.Member.greet(0) [exact]",
                               "app/views.go(1) -> app/models.Profile.follow(0) [inferred]"]
        w.edit({"app/models.py": MODELS.replace("    user = models.OneToOneField(Member, on_delete=models.CASCADE)\n\n", "")})
        assert "app/views.go(1) -> app/models.Profile.follow(0) [inferred]" not in calls(w.db)
        w.edit({"app/views.py": VIEWS + "    m.profile.follow()\n"})  # bound again: still no accessor
        assert "app/views.go(1) -> app/models.Profile.follow(0) [inferred]" not in calls(w.db)
        w.edit({"app/models.py": MODELS})
        assert calls(w.db) == ["app/views.go(1) -> app/models.Member.greet(0) [exact]",
                               "app/views.go(1) -> app/models.Profile.follow(0) [inferred]"]
    finally:
        w.close()


def _auth(order: list[int]) -> str:
    return ("from flask_httpauth import HTTPTokenAuth\n\nauth = HTTPTokenAuth()\n\n"
            + "".join(f"@auth.verify_token\ndef check{i}(token):\n    return token\n\n" for i in order))


def _wraps(db: Path) -> list[str]:
    return sorted(f"{s.rpartition('.')[2]} -> {d.rpartition('.')[2]}" for kind, s, d, *_ in dump(db)["edges"] if kind == "WRAPS")


def test_moving_the_last_registered_callback_up_changes_which_one_runs(tmp_path: Path) -> None:
    # Flask-HTTPAuth keeps the last verify_token registered: moving functions within the file keeps its
    # interface (the watcher patches it in place), but not which one is last.
    views = ("from flask import Flask\n\nfrom app.auth import auth\n\napp = Flask(__name__)\n\n"
             "@app.route('/a')\n@auth.login_required\ndef a():\n    pass\n")
    w = Workspace(tmp_path, {"app/__init__.py": "", "app/auth.py": _auth([0, 1, 2]), "app/views.py": views})
    try:
        assert _wraps(w.db) == ["check2(1) -> endpoint:GET /a"]
        w.edit({"app/auth.py": _auth([1, 2, 0])})
        assert _wraps(w.db) == ["check0(1) -> endpoint:GET /a"]
        w.edit({"app/auth.py": _auth([2, 0, 1])})
        assert _wraps(w.db) == ["check1(1) -> endpoint:GET /a"]
    finally:
        w.close()


OWNER = ('package shop;\n\nimport jakarta.persistence.Entity;\nimport jakarta.persistence.Table;\n\n'
         '@Entity\n@Table(name = "owners")\npublic class Owner {\n    private String city;\n}\n')
SCHEMA = "CREATE TABLE owners (\n  id INTEGER PRIMARY KEY,\n  city VARCHAR(80)\n);\n"


def _column_types(db: Path) -> list[tuple[str, str]]:
    return sorted((n[0], json.loads(n[10])["type"]) for n in dump(db)["nodes"] if n[1] == "Column")


def test_a_column_two_files_declare_has_the_same_type_whoever_wrote_last(tmp_path: Path) -> None:
    # A Column is a shared node both the entity and the SQL script emit; the store keeps one row, so
    # each must emit the same properties, or an edit of the entity alone (its output written again,
    # the script's not) changes the column's type (spring-petclinic: "text" -> "String").
    w = Workspace(tmp_path, {"src/main/java/shop/Owner.java": OWNER, "src/main/resources/db/schema.sql": SCHEMA})
    try:
        before = _column_types(w.db)
        assert before == [("column:r:.owners.city", "varchar(80)"), ("column:r:.owners.id", "int")]
        w.edit({"src/main/java/shop/Owner.java": OWNER.replace("    private String city;\n",
                                                               "    private String city;\n\n    String city() { return city; }\n")})
        assert _column_types(w.db) == before
    finally:
        w.close()
