"""Flask-SQLAlchemy shapes the resolver types (indexer/languages/python/frameworks/sqlalchemy_bindings.py,
orm_results.py, Resolver.own_class): ``db = SQLAlchemy(model_class=Mixin)`` makes ``db.Model`` the
mixin, a backref one object (``uselist=False``, or the many-to-one side of a one-to-many
relationship: the foreign key in the other table) an instance attribute of the other class, a
relationship attribute to one object an instance of its target, and a mixin's classmethod returning
``cls.query.get(i)`` an instance of the class it is called on."""

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
    tag_id = Column(Integer, ForeignKey("tags.id"))
    owner_id = reference_col("user_accounts")
    user = db.relationship("User", backref=db.backref("profile", uselist=False))
    posts = relationship(Post, backref="author")
    tags = relationship("Tag", backref=backref("items"))
    plain = relationship("Tag")
    owner = relationship("UserAccount", backref="profiles")
    labels = relationship("Label", secondary=profile_labels, backref="profiles")
    notes = relationship("Note", backref=backref("profile", uselist=True))
    typed: Mapped["Tag"] = relationship("Tag")
"""
    ex = EXTRACTOR.extract("m.py", src.encode())
    found = sorted((b.scope or "", b.name, b.type, b.how) for b in ex.bindings if b.how in ("reverse", "alias", "related"))
    # a relationship outside a class body, `other` without model_class, an annotated attribute: nothing;
    # Profile's foreign keys name tags and user_accounts: those relationships are many-to-one
    assert found == [
        ("", "db.Model", "CRUDMixin", "alias"),
        ("Profile", "labels", "*'Label'", "related"),  # secondary: many-to-many
        ("Profile", "notes", "*'Note'", "related"),
        ("Profile", "owner", "'UserAccount'", "related"),  # reference_col("user_accounts")
        ("Profile", "plain", "'Tag'", "related"),
        ("Profile", "posts", "*Post", "related"),  # one-to-many: the key is in Post's table
        ("Profile", "tags", "'Tag'", "related"),
        ("Profile", "user", "*'User'", "related"),  # no key to user here: one-to-many, as SQLAlchemy reads it
        ("Profile", "~author", "Post", "reverse"),  # ... so a post's author is one Profile
        ("Profile", "~items", "*'Tag'", "reverse"),  # a tag's items: every Profile keyed to it
        ("Profile", "~profile", "'User'", "reverse"),  # uselist=False
        ("Profile", "~profile", "*'Note'", "reverse"),  # uselist=True
        ("Profile", "~profiles", "*'Label'", "reverse"),
        ("Profile", "~profiles", "*'UserAccount'", "reverse"),
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
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"))
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
    # `u.followed` is a collection (Profile holds the key to user: many-to-one, its backref many):
    # nothing; `CRUDMixin.get_by_id(i)` is a mixin, which has no `check`
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


ONE_TO_MANY = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from sqlalchemy import Column, Integer, String, ForeignKey
from sqlalchemy.orm import relationship, declarative_base
Base = declarative_base()


class Parent(Base):
    __tablename__ = "parents"
    id = Column(Integer, primary_key=True)
    name = Column(String)
    children = relationship("Child", backref="parent")
    kids = relationship("Kid", back_populates="mother")

    def greet(self):
        pass


class Child(Base):
    __tablename__ = "child"
    id = Column(Integer, primary_key=True)
    parent_id = Column(Integer, ForeignKey("parents.id"))

    def play(self):
        pass


class Kid(Base):
    __tablename__ = "kid"
    id = Column(Integer, primary_key=True)
    mother_id = Column(Integer, ForeignKey(Parent.id))
    mother = relationship("Parent", back_populates="kids")

    def play(self):
        pass


class Other(Base):
    __tablename__ = "other"
    id = Column(Integer, primary_key=True)

    def greet(self):
        pass
# --- path: app/views.py ---
from app.models import Child, Kid, Parent


def view(c: Child, k: Kid, p: Parent):
    c.parent.greet()
    k.mother.greet()
    p.children.play()
    p.kids.play()


def rename(c: Child):
    owner = c.parent
    owner.name = "x"
"""


def test_a_one_to_many_backref_and_back_populates_are_the_parent_and_its_table():
    result = resolve_fixture(ONE_TO_MANY)
    found = sorted((e.kind, e.src.removeprefix("t:"), e.dst.removeprefix("t:"), e.line, e.resolution, e.props.get("columns"))
                   for f in result.files for e in f.edges
                   if e.kind in ("CALLS", "WRITES", "READS") and e.file == "app/views.py")
    # `c.parent` (backref of the one-to-many Parent.children) and `k.mother` (a many-to-one attribute)
    # are one Parent: its greet, never Other.greet; `p.children` / `p.kids` are collections: no `play`;
    # the write through `owner = c.parent` is Parent's table
    assert found == [
        ("CALLS", "app/views.view(3)", "app/models.Parent.greet(0)", 5, "inferred", None),
        ("CALLS", "app/views.view(3)", "app/models.Parent.greet(0)", 6, "inferred", None),
        ("WRITES", "app/views.rename(1)", "table:t:.parents", 13, None, ["name"]),
    ]


FLASKY = """
# --- path: app/__init__.py ---
from flask_sqlalchemy import SQLAlchemy
db = SQLAlchemy()
# --- path: app/models.py ---
from . import db


class Role(db.Model):
    __tablename__ = 'roles'
    users = db.relationship('User', backref='role', lazy='dynamic')

    def has_permission(self, perm):
        return True


class User(db.Model):
    __tablename__ = 'users'
    role_id = db.Column(db.Integer, db.ForeignKey('roles.id'))

    def __init__(self, **kwargs):
        if self.role is None:
            self.role = Role.query.filter_by(default=True).first()

    def can(self, perm):
        return self.role is not None and self.role.has_permission(perm)
"""


def test_a_backref_of_a_one_to_many_relationship_and_a_lookup_assigned_to_self_type_the_attribute():
    can = ["app/models.User.can(1) -> app/models.Role.has_permission(1) [inferred]"]
    assert edges(resolve_fixture(FLASKY)) == can
    # the backref alone (no assignment in __init__), and the lookup alone (a backref of no direction known)
    no_lookup = FLASKY.replace("            self.role = Role.query.filter_by(default=True).first()", "            pass")
    assert edges(resolve_fixture(no_lookup)) == can
    assert edges(resolve_fixture(FLASKY.replace("backref='role', ", ""))) == can
    # Role holding a key to users makes `users` many-to-one and the backref `role` a collection: nothing
    many = no_lookup.replace("    users = db.relationship", "    owner_id = db.Column(db.Integer, db.ForeignKey('users.id'))\n"
                                                           "    users = db.relationship")
    assert edges(resolve_fixture(many)) == []
