"""Unit tests of the Python framework detectors: exact routes, routers, mounts, HTTP calls, topics and
constants for small inline sources, extracted through the Python extractor (which runs the
registered detectors)."""

from __future__ import annotations

import pytest

from indexer.languages.python.frameworks import DETECTOR_MODULES
from indexer.languages.python import EXTRACTOR
from indexer.model import DJANGO_ADMIN_SITE, FileExtraction, HttpCall, Mount, Route, Router, StringConstant, Template, TopicUse, WrapperRef


def extract(source: str) -> FileExtraction:
    out = EXTRACTOR.extract("svc/mod.py", source.encode("utf-8"))
    assert [e for e in out.errors if "detector" in e or "failure" in e] == []
    return out


def lit(*texts: str) -> Template:
    return Template.of(*texts)


def T(*parts: tuple[str, str]) -> Template:
    return Template(tuple(parts))


def test_python_detectors_are_registered():
    for name in ("fastapi", "flask", "django_urls", "python_http_clients", "python_kafka", "python_constants"):
        assert name in DETECTOR_MODULES


# ------------------------------------------------------------------------------------------ FastAPI

FASTAPI_SRC = '''\
from fastapi import APIRouter, FastAPI
from .routers import users

router = APIRouter(prefix="/items", tags=["items"])
app = FastAPI()


@router.get("/{item_id}")
async def read_item(item_id: int):
    return {}


@router.post("/", status_code=201)
def create_item():
    pass


@app.api_route("/multi", methods=["get", "POST"])
@cache.get("/not-a-route")
def multi():
    pass


@app.api_route(path="/default")
def default():
    pass


@users.router.delete("/users/{id}")
def remove(id):
    pass


def health():
    return "ok"


app.add_api_route("/health", health, methods=["HEAD"])
app.add_api_route("/ext", users.ping)
app.include_router(router, prefix="/api")
app.include_router(users.router)
app.mount("/static", StaticFiles(directory="static"))
'''


def test_fastapi_routes():
    out = extract(FASTAPI_SRC)
    assert out.routes == [
        # names: the endpoint function's (FastAPI's default; url_path_for builds from them)
        Route("fastapi", ["GET"], lit("/{item_id}"), "read_item", 8, 8, router="router", name="read_item"),
        Route("fastapi", ["POST"], lit("/"), "create_item", 13, 8, router="router", name="create_item"),
        # @cache.get(...) is no route but sits below the route decorator: it wraps the handler
        Route("fastapi", ["GET", "POST"], lit("/multi"), "multi", 18, 5, router="app",
              wrappers=[WrapperRef("decorator", "cache.get")], name="multi"),
        Route("fastapi", ["GET"], lit("/default"), "default", 24, 5, router="app", name="default"),
        Route("fastapi", ["DELETE"], lit("/users/{id}"), "remove", 29, 14, router="users.router", name="remove"),
        Route("fastapi", ["HEAD"], lit("/health"), "health", 38, 4, router="app", name="health"),
        Route("fastapi", ["GET"], lit("/ext"), None, 39, 4, handler_ref="users.ping", router="app", name="ping"),
    ]


def test_fastapi_routers_and_mounts():
    out = extract(FASTAPI_SRC)
    assert out.routers == [
        Router("fastapi", "router", lit("/items"), 4),
        Router("fastapi", "app", Template(), 5),
    ]
    assert out.mounts == [
        Mount("fastapi", "app", "router", lit("/api"), 40, 4),
        Mount("fastapi", "app", "users.router", Template(), 41, 4),
    ]


def test_fastapi_needs_a_fastapi_import():
    out = extract('app = make()\n\n@app.get("/x")\ndef f():\n    pass\n')
    assert (out.routes, out.routers, out.mounts) == ([], [], [])


# ------------------------------------------------------------------------------------------ Flask

FLASK_SRC = '''\
from flask import Blueprint, Flask
from flask.views import MethodView

from . import auth

bp = Blueprint("shop", __name__, url_prefix="/shop")


@bp.route("/items")
def items():
    pass


@bp.route("/items/<int:id>", methods=("GET", "post"))
def item(id):
    pass


@bp.delete("/items/<int:id>")
def delete_item(id):
    pass


class ItemAPI(MethodView):
    def get(self, id):
        pass

    def put(self, id):
        pass


def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp, url_prefix="/api")
    app.register_blueprint(auth.bp)
    app.add_url_rule("/api/items/<id>", view_func=ItemAPI.as_view("item_api"))
    app.add_url_rule("/", "index", items, methods=["GET", "HEAD"])
    app.add_url_rule("/ext", view_func=auth.Login.as_view("login"))

    @app.route("/hello")
    def hello():
        pass

    return app
'''


def test_flask_routes():
    out = extract(FLASK_SRC)
    assert out.routes == [
        # names: the endpoint url_for names (without the blueprint's): the view function's, the
        # add_url_rule endpoint given, the name as_view(...) is given
        Route("flask", ["GET"], lit("/items"), "items", 9, 4, router="bp", name="items"),
        Route("flask", ["GET", "POST"], lit("/items/<int:id>"), "item", 14, 4, router="bp", name="item"),
        Route("flask", ["DELETE"], lit("/items/<int:id>"), "delete_item", 19, 4, router="bp", name="delete_item"),
        Route("flask", ["GET", "PUT"], lit("/api/items/<id>"), None, 36, 8, handler_ref="ItemAPI.as_view()",
              router="app", name="item_api"),
        Route("flask", ["GET", "HEAD"], lit("/"), "items", 37, 8, router="app", name="index"),
        Route("flask", ["*"], lit("/ext"), None, 38, 8, handler_ref="auth.Login.as_view()", router="app", name="login"),
        Route("flask", ["GET"], lit("/hello"), "create_app.hello", 40, 9, router="app", name="hello"),
    ]


def test_flask_blueprints_and_registration():
    out = extract(FLASK_SRC)
    assert out.routers == [Router("flask", "bp", lit("/shop"), 6, "shop")]  # create_app's app is local
    assert out.mounts == [
        Mount("flask", "app", "bp", lit("/api"), 34, 8),
        Mount("flask", "app", "auth.bp", Template(), 35, 8),
    ]


# ------------------------------------------------------------------------------------------ Django

DJANGO_SRC = '''\
from django.contrib import admin
from django.urls import include, path, re_path

from . import views

extra_patterns = [
    path("reports/", views.report, name="report"),
]

urlpatterns = [
    path("owners/<int:pk>/", views.owner_detail, name="owner"),
    re_path(r"^pets/(?P<pk>\\d+)/$", views.PetView.as_view(template_name="p.html")),
    path("health/", health),
    path("api/", include("shop.urls", namespace="shop")),
    path("more/", include(extra_patterns)),
    path("blog/", include([path("<slug>/", views.post), path("tags/", include(("tags.urls", "tags")))])),
    path("admin/", admin.site.urls),
]
urlpatterns += [path("about/", views.about)] + router.urls
handler404 = views.not_found


def later():
    urlpatterns.append(path("never/", views.never))
'''


def test_django_routes():
    out = extract(DJANGO_SRC)
    assert out.routes == [
        Route("django", ["*"], lit("reports/"), None, 7, 4, handler_ref="views.report", router="extra_patterns",
              name="report"),
        Route("django", ["*"], lit("owners/<int:pk>/"), None, 11, 4, handler_ref="views.owner_detail",
              router="urlpatterns", name="owner"),
        Route("django", ["*"], lit(r"^pets/(?P<pk>\d+)/$"), None, 12, 4, handler_ref="views.PetView.as_view()",
              router="urlpatterns"),
        Route("django", ["*"], lit("health/"), None, 13, 4, handler_ref="health", router="urlpatterns"),
        Route("django", ["*"], lit("blog/<slug>/"), None, 16, 27, handler_ref="views.post", router="urlpatterns"),
        *(Route("django", ["*"], lit(p), None, 17, 4, handler_ref=f"admin.site.{v}", router=DJANGO_ADMIN_SITE, name=n,
                inherited=True)  # Django's admin site: its own routes (django_admin)
          for p, v, n in [("", "index", "index"), ("login/", "login", "login"), ("logout/", "logout", "logout"),
                          ("password_change/", "password_change", "password_change"),
                          ("password_change/done/", "password_change_done", "password_change_done"),
                          ("autocomplete/", "autocomplete_view", "autocomplete"),
                          ("jsi18n/", "i18n_javascript", "jsi18n"), ("<app_label>/", "app_index", "app_list")]),
        Route("django", ["*"], lit("r/<path:content_type_id>/<path:object_id>/"), None, 17, 4,
              handler_ref="django.contrib.contenttypes.views.shortcut", router=DJANGO_ADMIN_SITE, name="view_on_site",
              inherited=True),
        Route("django", ["*"], lit("about/"), None, 19, 16, handler_ref="views.about", router="urlpatterns"),
    ]


DJANGO_WRAPPED = '''\
from django.contrib.auth.decorators import login_required
from django.urls import path
from django.views.decorators.cache import cache_page
from django.views.decorators.csrf import csrf_exempt
from graphene_django.views import GraphQLView

from . import views
from .factories import make_view, audited

urlpatterns = [
    path("graphql/", csrf_exempt(GraphQLView.as_view(graphiql=True))),
    path("me/", login_required(views.profile)),
    path("home/", cache_page(60)(views.home)),
    path("admin/", audited(login_required(views.AdminView.as_view()))),
    path("pets/", make_view(views.Pet)),
    path("named/", views.named("x")),
]
'''


def test_django_views_wrapped_by_decorators_in_the_pattern():
    out = extract(DJANGO_WRAPPED)
    assert out.routes == [
        Route("django", ["*"], lit("graphql/"), None, 11, 4, handler_ref="GraphQLView.as_view()", router="urlpatterns",
              wrappers=[WrapperRef("decorator", "csrf_exempt")]),
        Route("django", ["*"], lit("me/"), None, 12, 4, handler_ref="views.profile", router="urlpatterns",
              wrappers=[WrapperRef("decorator", "login_required")]),
        Route("django", ["*"], lit("home/"), None, 13, 4, handler_ref="views.home", router="urlpatterns",
              wrappers=[WrapperRef("decorator", "cache_page(60)")]),
        # an application's own decorator around a wrapped class-based view: both are wrappers
        Route("django", ["*"], lit("admin/"), None, 14, 4, handler_ref="views.AdminView.as_view()",
              router="urlpatterns", wrappers=[WrapperRef("decorator", "audited"), WrapperRef("decorator", "login_required")]),
        # negative: a factory given a class or a string (not django's, not wrapping a view) is the view
        Route("django", ["*"], lit("pets/"), None, 15, 4, handler_ref="make_view()", router="urlpatterns"),
        Route("django", ["*"], lit("named/"), None, 16, 4, handler_ref="views.named()", router="urlpatterns"),
    ]


def test_django_routers_and_mounts():
    out = extract(DJANGO_SRC)
    assert out.routers == [
        Router("django", "extra_patterns", Template(), 6),
        Router("django", "urlpatterns", Template(), 10),
    ]
    assert out.mounts == [
        # namespaces: include(..., namespace=), an include((module, app_name)) tuple's app name
        Mount("django", "urlpatterns", None, lit("api/"), 14, 17, child_module="shop.urls", namespace="shop"),
        Mount("django", "urlpatterns", "extra_patterns", lit("more/"), 15, 18),
        Mount("django", "urlpatterns", None, lit("blog/tags/"), 16, 70, child_module="tags.urls", namespace="tags"),
        Mount("django", "urlpatterns", DJANGO_ADMIN_SITE, lit("admin/"), 17, 4, namespace="admin"),
        Mount("django", "urlpatterns", "router.urls", Template(), 19, 47),
    ]


def test_django_needs_urlpatterns():
    out = extract('from django.urls import path\n\npatterns = [path("x/", view)]\n')
    assert (out.routes, out.routers, out.mounts) == ([], [], [])


def test_django_list_comprehension_and_splat_include():
    out = extract(
        "urlpatterns = [\n"
        '    path("{}/".format(n), views.v) for n in NAMES\n'
        "]\n"
        'urlpatterns.append(path("t/", include(*obj.urls)))\n'
    )
    # "{}/".format(n) fills its placeholder with the argument, as f"{n}/" does (acc65b)
    assert out.routes == [Route("django", ["*"], T(("ref", "n"), ("lit", "/")), None, 2, 4, "views.v", "urlpatterns")]
    assert out.mounts == [Mount("django", "urlpatterns", "obj.urls", lit("t/"), 4, 30)]


# ------------------------------------------------------------------------------------------ HTTP clients

HTTP_SRC = '''\
import httpx
import requests as rq
from requests import post as send_form

BASE = "http://owners-service"
client = httpx.Client(base_url="http://api.local")


def calls(owner_id):
    rq.get(f"{BASE}/owners/{owner_id}/pets/{owner_id + 1}")
    send_form(BASE + "/forms")
    rq.request("delete", url="/visits/%s" % owner_id)
    client.post("/items")
    client.get("https://other.local/x")
    session = rq.Session()
    session.put(OWNERS_URL)
    cache = {}
    cache.get("key")
    httpx.Client(base_url=BASE).get("/z/{}".format(owner_id))


class Gateway:
    def __init__(self, url):
        self.http = httpx.AsyncClient(base_url=url)

    async def fetch(self):
        async with httpx.AsyncClient(base_url="http://w") as c:
            await c.stream("GET", "/stream")
        return await self.http.patch("/p")
'''


def test_http_client_calls():
    out = extract(HTTP_SRC)
    assert out.http_calls == [
        HttpCall("requests", "GET",
                 T(("ref", "BASE"), ("lit", "/owners/"), ("ref", "owner_id"), ("lit", "/pets/"),
                   ("hole", "owner_id + 1")), "calls", 10, 7),
        HttpCall("requests", "POST", T(("ref", "BASE"), ("lit", "/forms")), "calls", 11, 4),
        HttpCall("requests", "DELETE", T(("lit", "/visits/"), ("hole", "%s")), "calls", 12, 7),
        HttpCall("httpx", "POST", lit("http://api.local/items"), "calls", 13, 11),
        HttpCall("httpx", "GET", lit("https://other.local/x"), "calls", 14, 11),
        HttpCall("requests", "PUT", T(("ref", "OWNERS_URL")), "calls", 16, 12),
        HttpCall("httpx", "GET", T(("ref", "BASE"), ("lit", "/z/"), ("ref", "owner_id")), "calls", 19, 32),  # .format(owner_id) fills {}
        HttpCall("httpx", "GET", lit("http://w/stream"), "Gateway.fetch", 28, 20),
        HttpCall("httpx", "PATCH", T(("ref", "url"), ("lit", "/p")), "Gateway.fetch", 29, 31),
    ]


TEST_CLIENT_SRC = '''\
from django.test import Client, TestCase
from fastapi.testclient import TestClient

from app.main import app

client = TestClient(app)


def test_read():
    client.get("/items/foo")
    with TestClient(app, base_url="http://testserver") as c:
        c.post("/items", json={})
    Client().delete("/orders/1/")
    settings = {}
    settings.get("/not/a/request")


class OrdersTest(TestCase):
    def test_page(self):
        self.client.get("/orders/")  # the TestCase's own client (test_django_test_client_setup.py)
'''


def test_test_clients_send_requests_to_the_application():
    out = extract(TEST_CLIENT_SRC)
    assert out.http_calls == [
        HttpCall("testclient", "GET", lit("/items/foo"), "test_read", 10, 11),
        HttpCall("testclient", "POST", lit("http://testserver/items"), "test_read", 12, 10),
        HttpCall("django-test", "DELETE", lit("/orders/1/"), "test_read", 13, 13),
        HttpCall("django-test", "GET", lit("/orders/"), "OrdersTest.test_page", 20, 20),
    ]


def test_http_calls_need_a_client_library():
    out = extract('import json\n\ndef f(s):\n    s.get("/x")\n    get("/y")\n')
    assert out.http_calls == []


# ------------------------------------------------------------------------------------------ Kafka

KAFKA_SRC = '''\
from confluent_kafka import Consumer, Producer
from kafka import KafkaConsumer, KafkaProducer, TopicPartition

ORDERS = "orders"
producer = KafkaProducer(bootstrap_servers="kafka:9092")


def publish(order):
    producer.send(ORDERS, order)
    KafkaProducer().send(topic=f"orders.{order.region}", value=b"x")
    p = Producer({"bootstrap.servers": "kafka"})
    p.produce("payments", b"x")
    p.send("not-a-confluent-call")


class Worker:
    def __init__(self):
        self.consumer = Consumer({"group.id": "g"})
        self.consumer.subscribe(["payments", ORDERS])

    def run(self):
        c = KafkaConsumer("audit", "billing", group_id="g")
        c.assign([TopicPartition("replay", 0)])
        c.subscribe(pattern="^logs-.*")
'''


def test_kafka_topics():
    out = extract(KAFKA_SRC)
    assert out.topics == [
        TopicUse("kafka-python", "produces", T(("ref", "ORDERS")), "publish", 9, 13),
        TopicUse("kafka-python", "produces", T(("lit", "orders."), ("ref", "order.region")), "publish", 10, 20),
        TopicUse("confluent-kafka", "produces", lit("payments"), "publish", 12, 6),
        TopicUse("confluent-kafka", "consumes", lit("payments"), "Worker.__init__", 19, 22),
        TopicUse("confluent-kafka", "consumes", T(("ref", "ORDERS")), "Worker.__init__", 19, 22),
        TopicUse("kafka-python", "consumes", lit("audit"), "Worker.run", 22, 12),
        TopicUse("kafka-python", "consumes", lit("billing"), "Worker.run", 22, 12),
        TopicUse("kafka-python", "consumes", lit("replay"), "Worker.run", 23, 10),
    ]


# ------------------------------------------------------------------------------------------ constants


def test_string_constants():
    out = extract(
        'BASE = "http://owners"\n'
        'OWNERS = BASE + "/owners"\n'
        'VERSIONED = f"{BASE}/v{API_VERSION}/x"\n'
        'SPLIT = ("a/"\n'
        '         "b")\n'
        "COUNT = 1 + 2\n"
        'RULE = "=" * 10\n'
        '__version__ = "1.0"\n'
        'BASE = "http://owners:8080"\n'
        'prefix = ""\n'
        'ALIAS = BASE\n'
        "\n"
        "class Topics:\n"
        '    ORDERS = "orders"\n'
        "\n"
        "    class Dlq:\n"
        '        ORDERS: str = Topics.ORDERS + ".dlq"\n'
        "\n"
        "    def f(self):\n"
        '        LOCAL = "no"\n'
        "\n"
        "if DEBUG:\n"
        '    HOST = "no"\n'
    )
    assert out.constants == [
        StringConstant("OWNERS", T(("ref", "BASE"), ("lit", "/owners"))),
        StringConstant("VERSIONED", T(("ref", "BASE"), ("lit", "/v"), ("ref", "API_VERSION"), ("lit", "/x"))),
        StringConstant("SPLIT", lit("a/b")),
        StringConstant("BASE", lit("http://owners:8080")),
        StringConstant("prefix", T()),  # the empty string is a value (a URL prefix); a bare alias is none
        StringConstant("Topics.ORDERS", lit("orders")),
        StringConstant("Topics.Dlq.ORDERS", T(("ref", "Topics.ORDERS"), ("lit", ".dlq"))),
    ]


def test_string_escapes_and_format_braces():
    out = extract('A = "tab\\there"\nB = f"{{literal}}/{x!r:>3}\\n"\nC = r"\\d+"\nD = "%d%%/%(name)s" % v\n')
    assert out.constants == [
        StringConstant("A", lit("tab\there")),
        StringConstant("C", lit("\\d+")),
    ]
    # B holds a hole (`{x!r:>3}` is converted and formatted, not the name's value); D one per placeholder.


# ------------------------------------------------------------------------------------------ robustness

BROKEN = [
    "from fastapi import FastAPI\napp = FastAPI()\n@app.get(\ndef f(:\n",
    "from flask import Flask\napp = Flask(\n@app.route(methods=\ndef f(): pass\napp.register_blueprint(\n",
    "urlpatterns = [path(), path(include()), re_path(r'x', include(()))]\nurlpatterns += [path('a', include(*))]\n",
    "import requests\nrequests.get()\nrequests.request()\nrequests.get(url=)\nx = requests.Session(\n",
    "from kafka import KafkaProducer\nKafkaProducer().send()\nc.subscribe(\nKafkaConsumer(*t)\n",
    'X = f"{"\nY = "a" + \nclass C:\n    Z = (\n',
    "A = " + " + ".join(['"x"'] * 3000) + "\n",
    "A = " + "(" * 200 + '"x"' + ")" * 200 + "\n",
]


@pytest.mark.parametrize("source", BROKEN)
def test_detectors_never_raise_on_odd_code(source):
    extract(source)  # asserts no detector error was recorded
