"""A pytest test's own applications (indexer/frameworks/test_apps.py): Flask's ``app`` fixture value
and the blueprints a test makes are that test's, so hooks, error handlers and app-wide hooks of one
test never wrap another test's routes, a test's blueprint registered with ``url_prefix`` is mounted
there, and a fixture parameter wins over an import of the same name inside another test."""

from __future__ import annotations

from indexer.frameworks.test_apps import owning_test, scoped_key
from tests.resolution_harness import edges, resolve_fixture

FLASK_TESTS = """
# --- path: tests/test_hooks.py ---
import flask


def test_first(app, client):
    bp = flask.Blueprint("bp", __name__)

    @bp.after_app_request
    def after_app(response):
        return response

    @app.before_request
    def before_first():
        pass

    @bp.route("/x")
    def x():
        return ""

    app.register_blueprint(bp, url_prefix="/bp")


def test_second(app, client):
    @app.route("/a")
    def a():
        return ""

    @app.errorhandler(404)
    def missing(e):
        return ""


def test_uses_the_example_app():
    from blueprintapp import app

    assert app


class TestThird:
    def test_method(self, app):
        @app.teardown_request
        def teardown(exc):
            pass

        @app.get("/c")
        def c():
            return ""
"""


def test_a_tests_app_and_blueprints_are_its_own() -> None:
    result = resolve_fixture(FLASK_TESTS)
    assert edges(result, "EXPOSES") == [
        "tests/test_hooks.TestThird.test_method.c(0) -> endpoint:GET /c",
        "tests/test_hooks.test_first.x(0) -> endpoint:GET /bp/x",  # the test's blueprint, mounted at /bp
        "tests/test_hooks.test_second.a(0) -> endpoint:GET /a",
    ]
    assert edges(result, "WRAPS") == [
        "tests/test_hooks.TestThird.test_method.teardown(1) -> endpoint:GET /c",
        "tests/test_hooks.test_first.after_app(1) -> endpoint:GET /bp/x",
        "tests/test_hooks.test_first.before_first(0) -> endpoint:GET /bp/x",
        "tests/test_hooks.test_second.missing(1) -> endpoint:GET /a",
    ]  # not: before_first / after_app -> GET /a or /c, missing -> GET /bp/x, teardown -> GET /a (other tests' apps)


def test_owning_test_and_scoped_keys() -> None:
    assert owning_test("python", "tests/test_hooks.py", "test_first.after_app") == "test_first"
    assert owning_test("python", "tests/test_hooks.py", "TestThird.test_method.c") == "TestThird.test_method"
    assert owning_test("python", "tests/test_hooks.py", "make_app") is None  # a helper or a fixture
    assert owning_test("python", "tests/conftest.py", "test_first") is None  # no test module
    assert owning_test("python", "app/views.py", "test_first") is None
    assert owning_test("javascript", "tests/test_hooks.py", "test_first") is None
    assert scoped_key("python", "tests/test_hooks.py", "test_first", "app") == ("tests/test_hooks.py", "test_first#app")
    assert scoped_key("python", "tests/test_hooks.py", None, "app") is None  # module level: one app for all
    assert scoped_key("python", "tests/test_hooks.py", "test_first", "f#app") is None  # already a function's key
