"""FastAPI dependencies given as a call (indexer/languages/python/frameworks/fastapi.py,
``CallSite.via == "result"`` bound in indexer/resolve/calls.py): ``Depends(get_repo(Repo))`` runs the
function ``get_repo`` returns, ``Depends(repo_class())`` builds the class it returns,
``Security(Checker(...))`` runs the instance's ``__call__``; the factory itself is called once, where
Python evaluates the default value (module code), never a second time as the dependency. Exact callers
and endpoints, and what must not be linked."""

from __future__ import annotations

import sqlite3

import pytest

from analysis.impact import SymbolQuery, blast_radius
from tests.golden.harness import index_fixture

DEPS = '''\
from typing import Annotated, Callable

from fastapi import Depends, Security


def get_db():
    return {}


def get_user(db: dict = Depends(get_db)):
    return db


class Repo:
    def __init__(self, db: dict = Depends(get_db)):
        self.db = db

    def find(self):
        return self.db


class Checker:
    def __init__(self, role):
        self.role = role

    def __call__(self, db: dict = Depends(get_db)):
        return self.role


def get_repo(kind) -> Callable:
    def _get(db=Depends(get_db)):
        return kind(db)

    return _get


def repo_class():
    return Repo


def strict():
    return 1


def lenient():
    return 0


def pick(required=True):
    return strict if required else lenient


def get_item(repo=Depends(get_repo(Repo)), user=Depends(get_user)):
    return repo.find()


def get_thing(repo: Repo = Depends(repo_class())):
    return repo.find()


def guarded(ok=Security(Checker("admin")), mode=Depends(pick(required=False))):
    return ok


Guarded = Annotated[int, Depends(pick())]
'''

MAIN = '''\
from fastapi import Depends, FastAPI

from .deps import Checker, Guarded, Repo, get_item, get_repo, get_thing, get_user, guarded

app = FastAPI()


@app.get("/a")
def a(user: dict = Depends(get_user)):
    return user


@app.get("/b")
def b(item=Depends(get_item)):
    return item


@app.get("/c")
def c(repo: Repo = Depends(get_repo(Repo))):
    return repo.find()


@app.get("/d")
def d(thing=Depends(get_thing)):
    return thing


@app.get("/e")
def e(ok=Depends(guarded)):
    return ok


@app.get("/f")
def f(g: Guarded):
    return g


@app.get("/g")
def g(repo: Repo = Depends()):
    return repo
'''


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("fastapi-results")
    app = root / "src" / "app"
    app.mkdir(parents=True)
    (app / "__init__.py").write_text("", encoding="utf-8")
    (app / "deps.py").write_text(DEPS, encoding="utf-8")
    (app / "main.py").write_text(MAIN, encoding="utf-8")
    s = index_fixture(root / "src", root / "i.db", "shop")
    yield s
    s.close()


def _callers(store, qualname: str) -> list[tuple[str, int, int, str]]:
    """``(caller qualname, or the file for module code, line, col, resolution)`` of the CALLS edges
    into the definition ``qualname``."""
    with sqlite3.connect(store.path) as db:
        rows = db.execute(
            "SELECT coalesce(s.qualname, s.file), e.line, e.col, e.resolution FROM edges e"
            " JOIN nodes n ON n.id = e.dst JOIN nodes s ON s.id = e.src"
            " WHERE e.kind = 'CALLS' AND n.qualname = ?", (qualname,)).fetchall()
    return sorted(rows)


def _endpoints(store, name: str) -> list[str]:
    return sorted(f"{h.http_method} {h.path}" for h in blast_radius(store, SymbolQuery(name)).endpoints)


def test_the_function_a_factory_returns_is_the_dependency(store):
    # get_item depends on what get_repo(Repo) returns; the route /c on it directly (a wrapper)
    assert _callers(store, "get_repo._get") == [("get_item", 53, 26, "exact")]
    assert _endpoints(store, "get_repo._get") == ["GET /b", "GET /c"]
    # the factory runs once, at import (the default value), never per request
    assert _callers(store, "get_repo") == [("app/deps.py", 53, 26, "exact"), ("app/main.py", 19, 27, "exact")]
    assert _endpoints(store, "get_repo") == []


def test_a_class_a_factory_returns_or_a_class_dependency_is_built(store):
    assert _callers(store, "Repo.__init__") == [("get_thing", 57, 35, "exact")]
    # /d through get_thing, /g through Depends() on the annotation Repo (its constructor runs)
    assert _endpoints(store, "Repo.__init__") == ["GET /d", "GET /g"]
    assert _callers(store, "repo_class") == [("app/deps.py", 57, 35, "exact")]
    # every dependency function asking for get_db calls it once, from its own parameter
    assert _callers(store, "get_db") == [("Checker.__call__", 26, 42, "exact"), ("Repo.__init__", 15, 42, "exact"),
                                         ("get_repo._get", 31, 24, "exact"), ("get_user", 10, 32, "exact")]
    assert _endpoints(store, "get_db") == ["GET /a", "GET /b", "GET /c", "GET /d", "GET /e", "GET /g"]


def test_an_instance_dependency_runs_its_call_method_and_the_constructor_runs_at_import(store):
    assert _callers(store, "Checker.__call__") == [("guarded", 61, 24, "exact")]
    assert _endpoints(store, "Checker.__call__") == ["GET /e"]
    assert _callers(store, "Checker.__init__") == [("app/deps.py", 61, 24, "exact")]
    assert _endpoints(store, "Checker.__init__") == []


def test_a_factory_returning_one_of_several_functions_depends_on_each_inferred(store):
    # `pick(required=False)` in a parameter and `pick()` in an alias: which one runs depends on the argument
    assert _callers(store, "strict") == [("Guarded", 65, 33, "inferred"), ("guarded", 61, 56, "inferred")]
    assert _callers(store, "lenient") == [("Guarded", 65, 33, "inferred"), ("guarded", 61, 56, "inferred")]
    assert _endpoints(store, "lenient") == ["GET /e", "GET /f"]
    # pick itself: the two calls Python makes at import (the default value, the alias's value), which
    # the alias does not own (it owns the Depends(...) FastAPI runs for /f)
    assert _callers(store, "pick") == [("app/deps.py", 61, 56, "exact"), ("app/deps.py", 65, 33, "exact")]
    assert _endpoints(store, "pick") == []


def test_the_extracted_sites_a_call_given_to_depends_makes():
    from indexer.languages.python import EXTRACTOR
    from indexer.model import CallSite

    out = EXTRACTOR.extract("app/deps.py", (
        b"from fastapi import Depends\n\n\n"
        b"def helper(x=Depends(deps.make(1)), y=Depends(plain)):\n    pass\n"))
    assert [c for c in out.calls if c.name in ("make", "plain")] == [
        CallSite(None, "make", "deps", 1, 4, 26),  # Python's call, evaluating the default at import
        CallSite("helper", "make", "deps", -1, 4, 26, via="result"),  # FastAPI's, of what make(1) returns
        CallSite("helper", "plain", None, -1, 4, 46),  # a plain dependency: a call of it, no result
    ]


def test_changing_what_the_factory_returns_rebinds_like_a_fresh_resolve():
    from indexer.languages import extractor_for_path
    from indexer.resolve.repository import RepositoryResolver, resolve_repository
    from tests.resolution_harness import edges

    def extract(deps: str):
        files = {"app/__init__.py": "", "app/deps.py": deps, "app/main.py": MAIN}
        return [(extractor_for_path(p).extract(p, s.encode()), str(hash(s)), len(s.encode())) for p, s in files.items()]

    live = RepositoryResolver("t")
    live.update(extract(DEPS))
    paths = sorted(live.files)
    assert "app/deps.get_item(2) -> app/deps.get_repo._get(1) [exact]" in edges(live.resolve(paths))
    changed = DEPS.replace("    return _get\n", "    return get_user\n")
    live.update([x for x in extract(changed) if x[0].path == "app/deps.py"])
    after = edges(live.resolve(paths))
    assert after == edges(resolve_repository("t", extract(changed)))
    assert [e for e in after if e.startswith("app/deps.get_item(2)")] == [
        "app/deps.get_item(2) -> app/deps.Repo.find(0) [name]",  # `repo.find()` (repo untyped): by name, as before
        "app/deps.get_item(2) -> app/deps.get_user(1) [exact]",  # what get_repo(Repo) now returns, and the plain one
    ]
