"""Flask error handlers and hooks an application factory registers on the app it is given
(indexer/languages/python/frameworks/flask.py): ``app.errorhandler(E)(handler)`` (the call the
decorator makes) and ``@app.errorhandler(E)`` inside ``def register(app)`` wrap every route;
``app.errorhandler(E)`` alone, or a parameter of a file importing no flask, registers nothing."""

from __future__ import annotations

from indexer.languages.python.extractor import EXTRACTOR
from tests.resolution_harness import edges, resolve_fixture


def wrappers(source: str, path: str = "app/factory.py") -> list[tuple[str, str | None, str | None, str | None, int]]:
    ex = EXTRACTOR.extract(path, source.encode())
    return [(w.kind, w.owner, w.owner_ref, w.router, w.line) for w in ex.wrappers]


def test_a_factorys_app_parameter_registers_app_wide_handlers():
    src = """\
from flask import Flask
from app.errors import InvalidUsage, on_error


def register_errorhandlers(app, other):
    def errorhandler(error):
        return error.to_json()

    app.errorhandler(InvalidUsage)(errorhandler)
    app.errorhandler(KeyError)
    app.register_error_handler(404, on_error)
    other.before_request(on_error)

    @app.errorhandler(ValueError)
    def value_error(e):
        return ""


def unrelated(thing):
    thing.errorhandler(InvalidUsage)(on_error)


def test_errors(app):
    app.errorhandler(KeyError)(on_error)


class Setup:
    def register(self, app):
        app.before_request(on_error)
"""
    # `app.errorhandler(KeyError)` alone registers nothing; `other` and `thing` are parameters too:
    # any parameter of a module-level function of a file importing flask counts (the rule's limit);
    # a test's `app` (its fixture) and a method's parameter do not
    assert wrappers(src) == [
        ("error_handler", "register_errorhandlers.errorhandler", None, None, 9),
        ("error_handler", None, "on_error", None, 11),
        ("hook", None, "on_error", None, 12),
        ("error_handler", "register_errorhandlers.value_error", None, None, 14),
        ("error_handler", None, "on_error", None, 20),
    ]
    # in a test file nothing is a factory
    assert wrappers(src, "tests/test_app.py") == []


def test_without_a_flask_import_a_parameter_is_no_app():
    src = """\
def register(app, handler):
    app.errorhandler(KeyError)(handler)
    app.before_request(handler)
"""
    assert wrappers(src) == []


def test_the_handler_wraps_every_route_of_the_application():
    result = resolve_fixture("""
# --- path: app/__init__.py ---
from flask import Flask
from app.views import bp


def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp)
    register_errorhandlers(app)
    return app


def register_errorhandlers(app):
    def errorhandler(error):
        return str(error)

    app.errorhandler(ValueError)(errorhandler)
# --- path: app/views.py ---
from flask import Blueprint
bp = Blueprint("bp", __name__)


@bp.route("/a")
def a():
    return ""


@bp.route("/b", methods=["POST"])
def b():
    return ""
""")
    assert edges(result, "WRAPS") == [
        "app/__init__.register_errorhandlers.errorhandler(1) -> endpoint:GET /a",
        "app/__init__.register_errorhandlers.errorhandler(1) -> endpoint:POST /b",
    ]
