"""Column accesses through ORM instances' attributes (indexer/languages/python/frameworks/orm_attributes.py
and the table linker): writes ``X.a = ...`` anywhere, reads ``self.a`` in a mapped class's methods; only
names that are columns of the table the object's class maps to are kept."""

from __future__ import annotations

import json
import sqlite3

import pytest

from analysis.impact import TESTS_MODES, SymbolQuery, blast_radius
from tests.golden.harness import index_fixture

MODELS = '''
import sqlalchemy as sa
import sqlalchemy.orm as so
from app import db


class User(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    username: so.Mapped[str] = so.mapped_column(sa.String(64))
    password_hash: so.Mapped[str] = so.mapped_column(sa.String(256))
    posts: so.WriteOnlyMapped["Post"] = so.relationship(back_populates="author")

    def set_password(self, password):
        self.password_hash = "hashed:" + password

    def check_password(self, password):
        return self.password_hash == "hashed:" + password

    def describe(self):
        self.touch()
        return self.posts


class Post(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    body: so.Mapped[str] = so.mapped_column(sa.String(140))


class Cache:
    def __init__(self):
        self.password_hash = None

    def read(self):
        return self.username
'''

ROUTES = '''
from app.models import User, Post
from app.forms import Form


def rename(user_id, name):
    user = db.session.get(User, user_id)
    user.username = name
    user.nickname = name
    user.username += "!"


def edit(text):
    post = Post()
    post.body = text
    form = Form()
    form.username = text
    return post
'''

TEST = '''
from app.models import User


def test_rename():
    user = User()
    user.username = "x"
'''

DJANGO = '''
from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=50)


class Article(models.Model):
    title = models.CharField(max_length=100)
    author = models.ForeignKey(Author, on_delete=models.CASCADE)

    def retitle(self, title, who):
        self.title = title
        self.author = who
        self.slug = title.lower()
'''


@pytest.fixture(scope="module")
def accesses(tmp_path_factory):
    root = tmp_path_factory.mktemp("orm") / "src"
    for rel, text in {"app/__init__.py": "db = None\n", "app/models.py": MODELS, "app/routes.py": ROUTES,
                      "app/forms.py": "class Form:\n    username = None\n", "blog/models.py": DJANGO,
                      "tests/test_user.py": TEST}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    db = root.parent / "i.db"
    store = index_fixture(root, db, "r")
    reports = {mode: blast_radius(store, SymbolQuery("table:user.username"), tests=mode) for mode in TESTS_MODES}
    store.close()
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT kind, src, dst, props FROM edges WHERE kind IN ('READS', 'WRITES')").fetchall()
    return sorted((kind, src.split(":", 1)[1], dst.rsplit(":", 1)[1].lstrip("."), tuple(json.loads(props).get("columns") or ()))
                  for kind, src, dst, props in rows if json.loads(props).get("framework") == "orm_attribute"), reports


def test_attribute_reads_and_writes_of_mapped_columns_only(accesses):
    assert accesses[0] == [
        ("READS", "app/models.User.check_password(1)", "user", ("password_hash",)),
        ("WRITES", "app/models.User.set_password(1)", "user", ("password_hash",)),
        # `user.nickname` is no column; `form.username` is no mapped instance; Cache is no model
        ("WRITES", "app/routes.edit(1)", "post", ("body",)),
        ("WRITES", "app/routes.rename(2)", "user", ("username",)),
        # a ForeignKey attribute is its `_id` column; `self.slug` is no column
        ("WRITES", "blog/models.Article.retitle(2)", "blog_article", ("author_id", "title")),
        ("WRITES", "tests/test_user.test_rename(0)", "user", ("username",)),
    ]


def test_a_tables_test_accessors_are_apart_from_its_targets(accesses):
    reports = accesses[1]
    targets = {mode: [t.node.qualname for t in r.targets] for mode, r in reports.items()}
    tests = {mode: [(t.node.qualname, t.hops) for t in r.tests] for mode, r in reports.items()}
    assert targets["apart"] == targets["exclude"] == ["rename"]
    assert tests["apart"] == [("test_rename", 0)]  # listed under the tests, at hop 0, not a target
    assert targets["include"] == ["rename", "test_rename"] and targets["only"] == ["test_rename"]
