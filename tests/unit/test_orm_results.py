"""ORM lookups type their results (indexer/languages/python/frameworks/orm_results.py) and library
proxies stand for what the application's registered loader returns (Flask-Login ``current_user``):
calls on the result bind to the model's methods, exactly, and nothing else is linked."""

from __future__ import annotations

from indexer.languages.python.extractor import EXTRACTOR
from tests.resolution_harness import edges, resolve_fixture

MODELS = """
# --- path: app/__init__.py ---
from flask import Flask
from flask_login import LoginManager
from flask_sqlalchemy import SQLAlchemy
app = Flask(__name__)
db = SQLAlchemy(app)
login = LoginManager(app)
# --- path: app/models.py ---
import sqlalchemy as sa
from app import db, login


class User(db.Model):
    def follow(self, other):
        pass

    def notify(self, name):
        pass


class Post(db.Model):
    def publish(self):
        pass


@login.user_loader
def load_user(id):
    if not id:
        return None
    return db.session.get(User, int(id))


def find_post(pid):
    return Post.query.get(pid)
"""


def bindings(source: str) -> list[tuple[str | None, str, str, str]]:
    ex = EXTRACTOR.extract("m.py", source.encode())
    return sorted((b.scope, b.name, b.type, b.how) for b in ex.bindings)


def test_lookup_shapes_bind_the_model_and_other_calls_do_not():
    src = """
import sqlalchemy as sa
from django.shortcuts import get_object_or_404

def view(db, session, name):
    a = User.query.filter_by(name=name).first_or_404()
    b = db.session.get(User, 1)
    c = db.session.scalar(sa.select(User).where(User.name == name))
    d = session.query(Post).filter(Post.id == 1).one()
    e = Post.objects.select_related("author").get(pk=1)
    f = get_object_or_404(Post, pk=1)
    g = session.execute(sa.select(Post)).scalar_one()
    h = db.first_or_404(db.select(User).filter_by(name=name))
    n = User.query.count()
    q = User.query.filter_by(name=name)
    r = session.query(User, Post).first()
    s = requests.get(url)
    t = cache.get(User, 1)
    for p in Post.objects.filter(author=a):
        p.publish()
    for u in session.scalars(sa.select(User)):
        u.follow(a)
    for x in User.query.get(1):
        pass
"""
    assert bindings(src) == [
        ("view", "a", "User", "constructed"),
        ("view", "b", "User", "constructed"),
        ("view", "c", "User", "constructed"),
        ("view", "d", "Post", "constructed"),
        ("view", "e", "Post", "constructed"),
        ("view", "f", "Post", "constructed"),
        ("view", "g", "Post", "constructed"),
        ("view", "h", "User", "constructed"),
        # the extractor's own bindings of calls it cannot type stay as they were
        ("view", "n", "User.query.count", "constructed"),
        ("view", "p", "Post", "constructed"),
        ("view", "q", "User.query.filter_by", "constructed"),
        ("view", "r", "session.query().first", "constructed"),
        ("view", "s", "requests.get", "constructed"),
        ("view", "t", "cache.get", "constructed"),
        ("view", "u", "User", "constructed"),
        ("view", "x", "User.query.get()", "element"),  # what iterating it yields: the resolver's to say
    ]


def test_a_function_returning_lookups_of_one_model_returns_an_instance():
    ex = EXTRACTOR.extract("m.py", b"""
def one(i):
    if i is None:
        return None
    return User.query.get(i)

def mixed(i):
    if i:
        return Post.query.get(i)
    return User.query.get(i)

def other(i):
    if i:
        return cached
    return User.query.get(i)

def annotated(i) -> Account:
    return User.query.get(i)

def many():
    return User.query.all()
""")
    assert {d.qualname: d.inferred_return for d in ex.definitions} == {
        "one": "User", "mixed": None, "other": None, "annotated": None, "many": "User.query.all",
    }


def test_current_user_is_what_the_user_loader_returns():
    result = resolve_fixture(MODELS + """
# --- path: app/routes.py ---
import sqlalchemy as sa
from flask_login import current_user
from app import app, db
from app.models import User, find_post


@app.route("/follow/<name>")
def follow(name):
    user = db.session.scalar(sa.select(User).where(User.name == name))
    current_user.follow(user)
    current_user.notify("followed")
    find_post(1).publish()
    current_user.publish()
""")
    calls = [e for e in edges(result) if e.startswith("app/routes.")]
    # ``current_user.publish()``: a User has no ``publish``; nothing links it to Post's
    assert calls == sorted([
        "app/routes.follow(1) -> app/models.User.follow(1) [inferred]",
        "app/routes.follow(1) -> app/models.User.notify(1) [inferred]",
        "app/routes.follow(1) -> app/models.find_post(1) [exact]",
        "app/routes.follow(1) -> app/models.Post.publish(0) [inferred]",
    ])


def test_without_a_loader_current_user_stays_external():
    fixture = MODELS.replace("@login.user_loader\n", "")
    result = resolve_fixture(fixture + """
# --- path: app/routes.py ---
from flask_login import current_user


def view():
    current_user.follow(None)
""")
    assert [e for e in edges(result) if e.startswith("app/routes.")] == []


def test_sqlalchemy_secondary_relationships_write_and_read_their_join_table():
    result = resolve_fixture("""
# --- path: app/__init__.py ---
db = None
# --- path: app/models.py ---
import sqlalchemy as sa
import sqlalchemy.orm as so
from app import db

followers = sa.Table("followers", db.metadata, sa.Column("follower_id", sa.Integer), sa.Column("followed_id", sa.Integer))


class User(db.Model):
    following = so.relationship(secondary=followers, back_populates="followers")
    tags = so.relationship("Tag", secondary="user_tags")
    posts = so.relationship("Post")

    def follow(self, user):
        self.following.add(user)

    def tag(self, t):
        self.tags.append(t)

    def write(self, p):
        self.posts.append(p)

    def count(self):
        return db.session.scalar(sa.select(sa.func.count()).select_from(self.following.select().subquery()))
# --- path: app/routes.py ---
from app.models import User


def unfollow(me: User, other):
    me.following.remove(other)
""")
    # ``posts`` has no join table: ``self.posts.append`` links nothing
    assert edges(result, "WRITES") == [
        "app/models.User.follow(1) -> table:t:.followers",
        "app/models.User.tag(1) -> table:t:.user_tags",
        "app/routes.unfollow(2) -> table:t:.followers",
    ]
    assert edges(result, "READS") == ["app/models.User.count(0) -> table:t:.followers"]


def test_a_function_returning_a_local_bound_to_one_lookup_returns_an_instance():
    ex = EXTRACTOR.extract("m.py", b"""
def load(user_id):
    user = Admin.query.get(int(user_id))
    return user

def rebound(i):
    user = Admin.query.get(i)
    user = wrap(user)
    return user

def looped():
    for user in Admin.query.all():
        pass
    return user
""")
    assert {d.qualname: d.inferred_return for d in ex.definitions} == {"load": "Admin", "rebound": None, "looped": None}


def test_a_tables_test_accessors_follow_the_tests_mode(tmp_path):
    from analysis.tables import table_accessors
    from indexer.pipeline import index_repository
    from indexer.run import IndexOptions
    from stores.embedded import EmbeddedStore

    src = tmp_path / "src"
    (src / "app").mkdir(parents=True)
    (src / "app" / "__init__.py").write_text("db = None\n")
    (src / "app" / "models.py").write_text(
        "import sqlalchemy as sa\nimport sqlalchemy.orm as so\nfrom app import db\n\n"
        "followers = sa.Table('followers', db.metadata, sa.Column('a', sa.Integer))\n\n\n"
        "class User(db.Model):\n    following = so.relationship(secondary=followers)\n\n"
        "    def follow(self, u):\n        self.following.add(u)\n")
    (src / "tests.py").write_text(
        "from app.models import User\n\n\ndef test_follow(u: User, v):\n    u.following.append(v)\n")
    store = EmbeddedStore(tmp_path / "i.db")
    try:
        index_repository(src, store, store, IndexOptions(repo="r", jobs=1))
        names = {mode: [n.id for n in table_accessors(store, "table:followers", mode)]
                 for mode in ("include", "apart", "exclude", "only")}
    finally:
        store.close()
    both = ["r:app/models.User.follow(1)", "r:tests.test_follow(2)"]
    assert names == {"include": both, "apart": both, "exclude": both[:1], "only": both[1:]}


def test_a_node_is_found_at_a_code_point_column_after_non_ascii_text():
    from indexer.languages.base import SourceText, parser

    data = "x = 'é€'; User.query.get(1)\n".encode()
    src = SourceText(data)
    root = parser("python").parse(data).root_node
    node = src.node_at(root, 1, 10)  # code point 10: the "U" of User (bytes 13)
    assert (node.type, src.text(node)) == ("identifier", "User")
    assert src.node_at(root, 3, 0) is None and src.node_at(root, 0, 0) is None
    ex = EXTRACTOR.extract("m.py", b"def f():\n    u = User.query.get(1)  # \xc3\xa9\xe2\x82\xac\n    \xc3\xa9 = 1; v = Post.objects.get(pk=1)\n")
    assert sorted((b.name, b.type) for b in ex.bindings if b.how == "constructed") == [("u", "User"), ("v", "Post")]


def test_sqlalchemy_mapped_and_typing_wrappers_are_looked_through():
    from indexer.typetext import base_type

    assert [base_type(t) for t in ("so.Mapped[User]", "Mapped[Optional[User]]", 'Optional[so.Mapped["User"]]',
                                   "Annotated[User, Field()]", "ClassVar[User]", "List[User]", "Dict[str, User]",
                                   "so.WriteOnlyMapped[User]")] == [
        "User", "User", "User", "User", "User", "List", "Dict", "so.WriteOnlyMapped"]
    result = resolve_fixture("""
# --- path: app/__init__.py ---
db = None
# --- path: app/models.py ---
import sqlalchemy.orm as so
from app import db


class User(db.Model):
    def notify(self, m):
        pass


class Task(db.Model):
    user: so.Mapped[User] = so.relationship(back_populates="tasks")
    users: so.Mapped[list[User]] = so.relationship()
# --- path: app/tasks.py ---
from app import db
from app.models import Task


def progress(job):
    task = db.session.get(Task, job)
    task.user.notify("50%")
    task.users.notify("no")
""")
    assert [e for e in edges(result) if e.startswith("app/tasks.")] == [
        "app/tasks.progress(1) -> app/models.User.notify(1) [exact]"]  # a declared field type; the list links nothing


def test_a_returned_local_that_is_bound_again_anywhere_types_nothing():
    src = b"""
def loop(id, items):
    user = Admin.query.get(id)
    for user in items:
        pass
    return user

def caught(id):
    user = Admin.query.get(id)
    try:
        pass
    except Exception as user:
        pass
    return user

def walrus(id):
    user = Admin.query.get(id)
    if (user := Other()):
        pass
    return user

def matched(id, x):
    user = Admin.query.get(id)
    match x:
        case Other() as user:
            pass
    return user

def imported(id):
    user = Admin.query.get(id)
    import os as user
    return user

def unpacked(id, xs):
    user = Admin.query.get(id)
    *user, = xs
    return user

def param(user, c):
    if c:
        user = Admin.query.get(1)
    return user

def with_as(id):
    user = Admin.query.get(id)
    with open("x") as user:
        pass
    return user

def checked(id):
    user = Admin.query.get(id)
    if user is None or not user.active:
        return None
    user.touch()
    return user

def twice(id):
    user = Admin.query.get(id)
    if not user:
        user = Admin.query.filter_by(name=id).first()
    return user
"""
    ex = EXTRACTOR.extract("m.py", src)
    assert {d.qualname: d.inferred_return for d in ex.definitions} == {
        "loop": None, "caught": None, "walrus": None, "matched": None, "imported": None, "unpacked": None,
        "param": None, "with_as": None, "checked": "Admin", "twice": "Admin"}


def test_equally_near_loaders_that_disagree_give_current_user_no_type_and_the_nearest_wins():
    loaders = """
# --- path: a/__init__.py ---
# --- path: a/auth.py ---
from x import login


class Admin:
    def follow(self):
        pass


@login.user_loader
def load(i):
    return Admin.query.get(i)
# --- path: b/__init__.py ---
# --- path: b/auth.py ---
from x import login


class User:
    def follow(self):
        pass


@login.user_loader
def load(i):
    return User.query.get(i)
"""
    result = resolve_fixture(loaders + """
# --- path: views.py ---
from flask_login import current_user


def view():
    current_user.follow()
# --- path: b/views.py ---
from flask_login import current_user


def view():
    current_user.follow()
""")
    assert [e for e in edges(result) if "views." in e] == ["b/views.view(0) -> b/auth.User.follow(0) [inferred]"]


def test_a_method_called_on_a_lookup_binds_to_the_model():
    result = resolve_fixture(MODELS + """
# --- path: app/api.py ---
from app import db
from app.models import User, Post


def get_user(id):
    return db.get_or_404(User, id).notify("x")


def publish(id):
    Post.query.filter_by(id=id).first_or_404().publish()
    db.get_or_404(Post, id).publish()
    Post.query.filter_by(id=id).all().publish()
""")
    assert [e for e in edges(result) if e.startswith("app/api.")] == [
        "app/api.get_user(1) -> app/models.User.notify(1) [inferred]",
        "app/api.publish(1) -> app/models.Post.publish(0) [inferred]",
    ]
    lines = sorted(e.line for f in result.files for e in f.edges if e.kind == "CALLS" and e.dst.endswith("Post.publish(0)"))
    assert lines == [10, 11]  # not line 12: all() returns rows, not a Post
