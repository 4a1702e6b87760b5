"""Error handlers are not code every request runs through: ``ripple endpoints`` (and the MCP / REST
endpoint lists) name them apart, ``on error``, and a Django middleware's ``process_exception`` is an
error handler of the routes its class wraps while its ``__call__`` stays middleware. One small
application per framework the detectors know (Flask ``errorhandler`` / ``app_errorhandler`` /
``register_error_handler``, Express error middleware of four parameters, FastAPI
``exception_handler``, Spring ``@ControllerAdvice`` ``@ExceptionHandler``, Django ``MIDDLEWARE``,
Flask-HTTPAuth's ``error_handler`` and Flask-Login's ``unauthorized_handler`` beside their guards' loaders),
indexed for real; exact wrappers and error handlers per endpoint, and the per-request hooks of each
must NOT be listed as error handlers (nor the reverse)."""

from __future__ import annotations


import pytest

from analysis.endpoints import endpoint_line, endpoint_list
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore

FLASK = {
    "app.py": '''
from flask import Blueprint, Flask

app = Flask(__name__)
bp = Blueprint("errors", __name__)


@app.before_request
def load_user():
    return None


@app.errorhandler(404)
def not_found_error(error):
    return "nf", 404


@bp.app_errorhandler(500)
def internal_error(error):
    return "ie", 500


def teapot(error):
    return "t", 418


app.register_error_handler(418, teapot)
app.register_blueprint(bp)


@app.route("/user/<username>")
def user(username):
    return username
'''}
EXPRESS = {
    "server.js": '''
const express = require("express");
const app = express();

function logger(req, res, next) { next(); }
function onError(err, req, res, next) { res.status(500).end(); }

app.use(logger);
app.get("/items/:id", function getItem(req, res) { res.json({}); });
app.use(onError);
app.listen(3000);
'''}
FASTAPI = {
    "main.py": '''
from fastapi import FastAPI, Request

app = FastAPI()


@app.middleware("http")
async def timing(request: Request, call_next):
    return await call_next(request)


@app.exception_handler(ValueError)
async def value_error(request: Request, exc: ValueError):
    return None


@app.get("/users/{username}")
def read_user(username: str):
    return username
'''}
SPRING = {
    "src/main/java/shop/OrderController.java": '''
package shop;

import org.springframework.web.bind.annotation.*;

@RestController
public class OrderController {
    @GetMapping("/orders/{id}")
    public String show(@PathVariable int id) { return "x"; }
}
''',
    "src/main/java/shop/Errors.java": '''
package shop;

import org.springframework.web.bind.annotation.*;

@ControllerAdvice
public class Errors {
    @ExceptionHandler(IllegalStateException.class)
    public String conflict(IllegalStateException e) { return "c"; }

    @ModelAttribute
    public void common() { }
}
'''}
GUARDS = {
    "app.py": '''
from flask import Flask
from flask_httpauth import HTTPTokenAuth
from flask_login import LoginManager, login_required

app = Flask(__name__)
token_auth = HTTPTokenAuth()
login = LoginManager(app)


@token_auth.verify_token
def verify_token(token):
    return token


@token_auth.error_handler
def token_auth_error(status):
    return "no", status


@login.user_loader
def load_user(user_id):
    return None


@login.unauthorized_handler
def unauthorized():
    return "log in", 401


@app.route("/api/me")
@token_auth.login_required
def me():
    return "me"


@app.route("/profile")
@login_required
def profile():
    return "p"
'''}
DJANGO = {
    "manage.py": "import django\n",
    "shop/__init__.py": "",
    "shop/settings.py": 'MIDDLEWARE = ["shop.middleware.AuditMiddleware"]\nROOT_URLCONF = "shop.urls"\n',
    "shop/middleware.py": '''
class AuditMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return None
''',
    "shop/views.py": '''
from django.http import HttpResponse


def order(request, pk):
    return HttpResponse(str(pk))
''',
    "shop/urls.py": '''
from django.urls import path

from shop import views

urlpatterns = [path("orders/<int:pk>/", views.order)]
'''}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("errors")
    s = EmbeddedStore(base / "index.db")
    for name, files in (("flask", FLASK), ("express", EXPRESS), ("fastapi", FASTAPI), ("spring", SPRING),
                        ("django", DJANGO), ("guards", GUARDS)):
        for rel, text in files.items():
            (base / name / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / name / rel).write_text(text.lstrip("\n"))
        index_repository(base / name, s, s, IndexOptions(repo=name, jobs=1))
    yield s
    s.close()


def test_error_handlers_are_listed_apart_from_what_every_request_runs_through(store) -> None:
    found = {e.id: (e.wrappers, e.on_error) for e in endpoint_list(store).endpoints}
    assert found == {
        "endpoint:GET /user/{}": (("app.load_user",), ("app.internal_error", "app.not_found_error", "app.teapot")),
        "endpoint:GET /items/{}": (("logger",), ("onError",)),
        "endpoint:GET /users/{}": (("main.timing",), ("main.value_error",)),
        "endpoint:GET /orders/{}": (("shop.Errors.common",), ("shop.Errors.conflict",)),
        "endpoint:* /orders/{}": (("shop.middleware.AuditMiddleware.__call__",),
                                  ("shop.middleware.AuditMiddleware.process_exception",)),
        # a library guard's callbacks: the check runs on every request, the failure handlers only when it fails
        "endpoint:GET /api/me": (("app.verify_token",), ("app.token_auth_error",)),
        "endpoint:GET /profile": (("app.load_user",), ("app.unauthorized",)),
    }
    # negatives: no error handler among what every request passes through, no hook among the error handlers
    for through, on_error in found.values():
        assert not {"app.not_found_error", "app.internal_error", "onError", "main.value_error", "shop.Errors.conflict",
                    "shop.middleware.AuditMiddleware.process_exception", "app.token_auth_error", "app.unauthorized"} \
            & set(through)
        assert not {"app.load_user", "logger", "main.timing", "shop.Errors.common", "app.verify_token"} & set(on_error)


def test_the_line_says_on_error(store) -> None:
    entries = {e.id: e.as_dict() for e in endpoint_list(store).endpoints}
    assert entries["endpoint:GET /user/{}"]["on_error"] == ["app.internal_error", "app.not_found_error", "app.teapot"]
    assert endpoint_line(entries["endpoint:GET /user/{}"]) == (
        "GET /user/<username> -> app.user (app.py:30, flask) · through app.load_user"
        " · on error app.internal_error, app.not_found_error, app.teapot")
    # an entry of an older answer (no on_error key) still prints
    old = {k: v for k, v in entries["endpoint:GET /items/{}"].items() if k != "on_error"}
    assert endpoint_line(old) == "GET /items/:id -> an inline handler (server.js:8, express) · through logger"


def test_a_middleware_exception_hook_wraps_as_an_error_handler(store) -> None:
    edges = store.incoming(["endpoint:* /orders/{}"], ["WRAPS"])["endpoint:* /orders/{}"]
    assert sorted((e.src, e.props["kind"]) for e in edges) == [
        ("django:shop/middleware.AuditMiddleware.__call__(1)", "middleware"),
        ("django:shop/middleware.AuditMiddleware.process_exception(2)", "error_handler")]


def test_rest_and_agents_carry_the_error_handlers(store, monkeypatch, tmp_path) -> None:
    from fastapi.testclient import TestClient

    from analysis.agent_queries import AgentQueries
    from lsp_server.api.app import ApiSettings, create_app
    from stores.config import load_config

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    app = create_app(ApiSettings(load_config(store.path.parent), store.path, roots=[store.path.parent]))
    with TestClient(app) as http:
        body = http.get("/v1/endpoints", params={"match": "/user/"}).json()
    assert [(e["id"], e["wrappers"], e["onError"]) for e in body["endpoints"]] == [
        ("endpoint:GET /user/{}", ["app.load_user"], ["app.internal_error", "app.not_found_error", "app.teapot"])]
    text = AgentQueries(store, store).endpoints(match="/api/me").text
    assert "GET /api/me -> app.me (app.py:30, flask) · through app.verify_token · on error app.token_auth_error" in text
