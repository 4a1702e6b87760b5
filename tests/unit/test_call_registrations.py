"""Functions registered with a library by a call (indexer/languages/python/frameworks/registrations.py):
``jwt.user_loader_callback_loader(f)`` counts as ``@jwt.user_loader_callback_loader`` on ``f``, for the
library proxies (Flask-JWT-Extended's ``current_user``) and the guard callbacks (``@jwt_required``
routes WRAPPED by the loader), and nothing else registers."""

from __future__ import annotations

from indexer.languages.python.extractor import EXTRACTOR
from tests.resolution_harness import edges, resolve_fixture


def registrations(source: str) -> list[tuple[str | None, str, str, int]]:
    ex = EXTRACTOR.extract("m.py", source.encode())
    return [(b.scope, b.name, b.type, b.line) for b in ex.bindings if b.how == "registers"]


def test_a_statement_handing_one_function_to_a_method_is_a_registration():
    src = """\
import handlers
from flask_jwt_extended import JWTManager
from app.loaders import load
jwt = JWTManager()
jwt.user_loader_callback_loader(load)


def identity(user):
    return user.id


jwt.user_identity_loader(identity)
jwt.token_in_blacklist_loader(handlers.check)


def setup(app, items, user, db):
    app.errorhandler(ValueError)(identity)
    items.append(user)
    db.session.add(user)
    x = jwt.user_loader_callback_loader(load)
    app.register_error_handler(404, identity)
    jwt.user_loader_callback_loader(lambda i: i)
    jwt.user_loader_callback_loader(load, identity)
    jwt.user_loader_callback_loader(load())
    identity(load)
"""
    # a local or parameter handed (`user`), a value used (`x = ...`), two arguments, a lambda, a call,
    # a bare function call (no receiver): no registration
    assert registrations(src) == [
        (None, "@jwt.user_loader_callback_loader", "load", 5),
        (None, "@jwt.user_identity_loader", "identity", 12),
        (None, "@jwt.token_in_blacklist_loader", "handlers.check", 13),
        ("setup", "@app.errorhandler(ValueError)", "identity", 17),
    ]


APP = """
# --- path: app/__init__.py ---
from flask import Flask
from flask_jwt_extended import JWTManager
from app.utils import jwt_identity, other_loader
app = Flask(__name__)
jwt = JWTManager(app)
jwt.user_loader_callback_loader(jwt_identity)
jwt.user_identity_loader(other_loader)
# --- path: app/models.py ---
class User:
    @classmethod
    def find(cls, i):
        pass

    def follow(self, other):
        pass


class Post:
    def follow(self, other):
        pass
# --- path: app/utils.py ---
from app.models import User, Post


def jwt_identity(payload):
    return User(payload)


def other_loader(user):
    return Post(user)
# --- path: app/views.py ---
from flask_jwt_extended import current_user, jwt_required, jwt_optional
from app import app


@app.route("/follow", methods=["POST"])
@jwt_required
def follow():
    current_user.follow(None)


@app.route("/feed")
@jwt_optional
def feed():
    return []


@app.route("/open")
def open_route():
    return []
"""


def test_current_user_is_what_the_loader_registered_by_a_call_returns():
    result = resolve_fixture(APP)
    # `other_loader` is registered as another callback (`user_identity_loader`): Post.follow is not it
    assert [e for e in edges(result) if e.startswith("app/views.")] == [
        "app/views.follow(0) -> app/models.User.follow(1) [inferred]"]


def test_the_loader_registered_by_a_call_guards_the_jwt_routes_only():
    result = resolve_fixture(APP)
    assert edges(result, "WRAPS") == [
        "app/utils.jwt_identity(1) -> endpoint:GET /feed",
        "app/utils.jwt_identity(1) -> endpoint:POST /follow",
    ]


def test_a_registration_in_a_file_not_importing_the_library_guards_nothing():
    fixture = APP.replace("from flask_jwt_extended import JWTManager\n", "").replace(
        "jwt = JWTManager(app)", "jwt = object()")
    result = resolve_fixture(fixture)
    assert edges(result, "WRAPS") == []
    # the proxy itself still reads the registration (which library's loader it is, the proxy says)
    assert [e for e in edges(result) if e.startswith("app/views.")] == [
        "app/views.follow(0) -> app/models.User.follow(1) [inferred]"]


def test_a_builtin_base_class_called_by_name_is_the_languages_not_an_unbound_site():
    result = resolve_fixture("""
# --- path: app/__init__.py ---
# --- path: app/errors.py ---
class InvalidUsage(Exception):
    def __init__(self, message):
        Exception.__init__(self)
        object.__setattr__(self, "message", message)
        Unknown.__init__(self)
""")
    # `Unknown` is no name the file or the language binds: that site stays unbound
    unbound = sorted((u.name, u.receiver) for f in result.files for u in f.unresolved)
    assert unbound == [("__init__", "Unknown")]
    assert edges(result) == []
