"""Flask-SQLAlchemy shapes the resolver types (indexer/languages/python/frameworks/sqlalchemy_bindings.py,
orm_results.py, Resolver.own_class): ``db = SQLAlchemy(model_class=Mixin)`` makes ``db.Model`` the
mixin, a backref with ``uselist=False`` an instance attribute of the other class, and a mixin's
classmethod returning ``cls.query.get(i)`` an instance of the class it is called on."""

from __future__ import annotations

from indexer.languages.python.extractor import EXTRACTOR
from tests.resolution_harness import edges, resolve_fixture


def test_backrefs_and_model_class_are_bindings():
    src = """\
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import relationship, backref
db = SQLAlchemy(model_class=CRUDMixin)
other = SQLAlchemy()
profile = relationship("User", backref=backref("profile", uselist=False))


class Profile(db.Model):
    user = db.relationship("User", backref=db.backref("profile", uselist=False))
    posts = relationship(Post, backref="author")
    tags = relationship("Tag", backref=backref("items"))
    plain = relationship("Tag")
"""
    ex = EXTRACTOR.extract("m.py", src.encode())
    found = sorted((b.scope or "", b.name, b.type, b.how) for b in ex.bindings if b.how in ("reverse", "alias"))
    # a relationship outside a class body, one without a backref, `other` without model_class: nothing
    assert found == [
        ("", "db.Model", "CRUDMixin", "alias"),
        ("Profile", "~author", "*Post", "reverse"),
        ("Profile", "~items", "*'Tag'", "reverse"),
        ("Profile", "~profile", "'User'", "reverse"),
    ]


APP = """
# --- path: app/__init__.py ---
# --- path: app/extensions.py ---
from flask_sqlalchemy import SQLAlchemy, Model


class CRUDMixin(Model):
    def save(self):
        return self

    @classmethod
    def get_by_id(cls, i):
        return cls.query.get(int(i))

    def plain(self):
        return self


db = SQLAlchemy(model_class=CRUDMixin)
# --- path: app/database.py ---
from app.extensions import db
Model = db.Model
# --- path: app/user/__init__.py ---
# --- path: app/user/models.py ---
from app.database import Model


class User(Model):
    def check(self):
        pass
# --- path: app/profile/__init__.py ---
# --- path: app/profile/models.py ---
from app.database import Model, db


class Profile(Model):
    user = db.relationship("User", backref=db.backref("profile", uselist=False))
    followers = db.relationship("User", backref="followed")

    def follow(self, other):
        pass
# --- path: app/views.py ---
from app.user.models import User
from app.extensions import CRUDMixin


def view(i):
    u = User.get_by_id(i)
    u.check()
    u.profile.follow(None)
    u.followed.follow(None)
    u.save()
    CRUDMixin.get_by_id(i).check()
"""


def test_a_mixins_classmethod_the_model_class_and_a_backref_type_the_calls():
    result = resolve_fixture(APP)
    # `u.followed` is a collection (no `uselist=False`): nothing; `CRUDMixin.get_by_id(i)` is a mixin,
    # which has no `check`
    assert [e for e in edges(result) if e.startswith("app/views.")] == [
        "app/views.view(1) -> app/extensions.CRUDMixin.get_by_id(1) [exact]",
        "app/views.view(1) -> app/extensions.CRUDMixin.save(0) [inferred]",
        "app/views.view(1) -> app/profile/models.Profile.follow(1) [inferred]",
        "app/views.view(1) -> app/user/models.User.check(0) [inferred]",
    ]


def test_without_model_class_db_model_is_the_librarys():
    result = resolve_fixture(APP.replace("SQLAlchemy(model_class=CRUDMixin)", "SQLAlchemy()"))
    # `User` derives the library's `Model`: `User.get_by_id` is unknown, and so is what it returns
    assert [e for e in edges(result) if e.startswith("app/views.")] == [
        "app/views.view(1) -> app/extensions.CRUDMixin.get_by_id(1) [exact]"]
