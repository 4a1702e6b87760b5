"""Incremental indexing of framework facts: after each edit of a route, queue, wrapper, OpenAPI spec,
proxy, user loader, decorator, table or template file, the watcher's index (and a one-shot run's)
equals a full index of the same tree (:class:`tests.unit.test_incremental.Workspace` checks it), and
the links named here are exactly those of the new files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from tests.index_dump import calls, dump
from tests.unit.test_incremental import Workspace


JWT = Path(__file__).resolve().parent.parent / "fixtures" / "spring-jwt"


def _wraps(db: Path) -> list[tuple[str, str]]:
    return sorted((src.rsplit(".", 2)[-2] + "." + src.rsplit(".", 2)[-1].split("(")[0], dst)
                  for kind, src, dst, *_ in dump(db)["edges"] if kind == "WRAPS")


def test_app_wide_wrappers_follow_route_files_that_come_go_and_change(tmp_path: Path) -> None:
    files = {p.relative_to(JWT).as_posix(): p.read_text(encoding="utf-8") for p in sorted(JWT.rglob("*.java"))}
    ws = Workspace(tmp_path, files)
    try:
        filt = ("JwtAuthFilter.doFilterInternal", "endpoint:POST /api/v1/auth/register")
        assert filt in _wraps(ws.db)
        auth = "src/main/java/com/example/shop/auth/AuthController.java"
        ws.edit({auth: None})  # the route file goes: the filter's file loses the edges (checked against a full index)
        assert filt not in _wraps(ws.db)
        assert ("JwtAuthFilter.doFilterInternal", "endpoint:GET /api/v1/products") in _wraps(ws.db)
        ws.edit({auth: files[auth]})  # and comes back
        assert filt in _wraps(ws.db)
        orders = "src/main/java/com/example/shop/order/OrderController.java"
        ws.edit({orders: (
            "package com.example.shop.order;\n\n@RestController\n@RequestMapping(\"/api/v1/orders\")\n"
            "public class OrderController {\n    @GetMapping\n    public String list() { return \"\"; }\n}\n")})
        assert ("JwtAuthFilter.doFilterInternal", "endpoint:GET /api/v1/orders") in _wraps(ws.db)
        # ... but not the products-only interceptor: its path limit holds.
        assert ("RequestTimingInterceptor.preHandle", "endpoint:GET /api/v1/orders") not in _wraps(ws.db)
        web = "src/main/java/com/example/shop/config/WebConfig.java"
        ws.edit({web: files[web].replace('"/api/v1/products/**"', '"/api/v1/orders/**"')})
        assert ("RequestTimingInterceptor.preHandle", "endpoint:GET /api/v1/orders") in _wraps(ws.db)
        assert ("RequestTimingInterceptor.preHandle", "endpoint:GET /api/v1/products") not in _wraps(ws.db)
        # The filter class loses its framework method: the security chain's registration (another
        # file, unchanged) no longer wraps anything through it; it comes back with the method.
        filt = "src/main/java/com/example/shop/security/JwtAuthFilter.java"
        ws.edit({filt: files[filt].replace("void doFilterInternal(", "void filterLater(")})
        assert not [w for w in _wraps(ws.db) if w[0].startswith("JwtAuthFilter.")]
        ws.edit({filt: files[filt]})
        assert ("JwtAuthFilter.doFilterInternal", "endpoint:GET /api/v1/orders") in _wraps(ws.db)
    finally:
        ws.close()


QUEUES = Path(__file__).resolve().parent.parent / "fixtures" / "queues"


def _queue_links(db: Path) -> list[tuple[str, str, str]]:
    return sorted((kind, src.split(":", 1)[1].split("(")[0], dst) for kind, src, dst, *_ in dump(db)["edges"]
                  if kind in ("PRODUCES", "CONSUMES"))


def test_queue_links_follow_bindings_and_tasks_in_other_files(tmp_path: Path) -> None:
    files = {f"shop/{p.relative_to(QUEUES / 'shop').as_posix()}": p.read_text(encoding="utf-8")
             for p in sorted((QUEUES / "shop").rglob("*.java"))}
    files.update({f"worker/{p.relative_to(QUEUES / 'worker').as_posix()}": p.read_text(encoding="utf-8")
                  for p in sorted((QUEUES / "worker").rglob("*.py"))})
    ws = Workspace(tmp_path, files)
    try:
        placed = ("PRODUCES", "shop/src/main/java/org/shop/OrderService.OrderService.placeOrder",
                  "topic:rabbitmq:orders")
        assert placed in _queue_links(ws.db)
        config = "shop/src/main/java/org/shop/RabbitConfig.java"
        # the binding's key changes in another file: the producer's link goes (checked against a full index)
        ws.edit({config: files[config].replace('"order.*"', '"invoice.*"')})
        assert placed not in _queue_links(ws.db)
        ws.edit({config: files[config]})
        assert placed in _queue_links(ws.db)
        tasks = "worker/shop/tasks.py"
        delayed = ("PRODUCES", "worker/shop/views.purge", "topic:celery:shop.tasks.cleanup")
        assert delayed in _queue_links(ws.db)
        ws.edit({tasks: files[tasks].replace("@shared_task\n", "")})  # cleanup is no task any more
        assert delayed not in _queue_links(ws.db)
        ws.edit({tasks: files[tasks]})
        assert delayed in _queue_links(ws.db)
    finally:
        ws.close()


WRAPPERS_DJANGO = Path(__file__).resolve().parent.parent / "fixtures" / "wrappers-django"
WRAPPERS_FASTAPI = Path(__file__).resolve().parent.parent / "fixtures" / "wrappers-fastapi"


def _fixture_files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.py"))}


def test_python_middleware_and_decorator_wrappers_follow_edits(tmp_path: Path) -> None:
    files = _fixture_files(WRAPPERS_DJANGO)
    ws = Workspace(tmp_path, files)
    try:
        inner = ("timing_middleware.middleware", "endpoint:* /about")
        audit = ("AuditMiddleware.__call__", "endpoint:* /polls/{}")
        assert {inner, audit} <= set(_wraps(ws.db))
        mw = "mysite/middleware.py"
        # the factory's nested function goes (its middleware file changes, settings do not)
        ws.edit({mw: files[mw].replace("    def middleware(request):", "    def per_request(request):")})
        assert inner not in _wraps(ws.db)
        assert ("timing_middleware.per_request", "endpoint:* /about") in _wraps(ws.db)
        settings = "mysite/settings.py"
        ws.edit({settings: files[settings].replace('    "mysite.middleware.AuditMiddleware",\n', "")})
        assert audit not in _wraps(ws.db)
        ws.edit({settings: files[settings]})
        assert audit in _wraps(ws.db)
        # a view's decorator in views.py: the edge belongs to polls/urls.py, which routes the view
        views = "polls/views.py"
        hit = ("decorator.wrapped", "endpoint:* /polls/{}")
        assert hit in _wraps(ws.db)
        ws.edit({views: files[views].replace('@track("detail")\n', "")})
        assert hit not in _wraps(ws.db)
        ws.edit({views: files[views]})
        assert hit in _wraps(ws.db)
        ws.edit({views: files[views].replace('@track("detail")', "@staff_only")})  # same lines, other decorator
        assert hit not in _wraps(ws.db)
        assert ("r:polls/permissions.staff_only", "endpoint:* /polls/{}") in _wraps(ws.db)
    finally:
        ws.close()


def test_fastapi_dependency_alias_follows_edits(tmp_path: Path) -> None:
    files = _fixture_files(WRAPPERS_FASTAPI)
    ws = Workspace(tmp_path, files)
    try:
        alias = ("r:shop/deps.CurrentUser", "endpoint:GET /orders/{}")  # _wraps keeps the module of a top-level name
        assert alias in _wraps(ws.db)
        deps = "shop/deps.py"
        # the alias becomes a plain type: the route that imports it loses its dependency
        ws.edit({deps: files[deps].replace("Annotated[dict, Depends(get_current_user)]", "dict")})
        assert alias not in _wraps(ws.db)
        ws.edit({deps: files[deps]})
        assert alias in _wraps(ws.db)
    finally:
        ws.close()


OPENAPI = Path(__file__).resolve().parent.parent / "fixtures" / "openapi" / "petstore"


def _api_links(db: Path) -> list[tuple[str, str, str]]:
    return sorted((kind, src.rsplit(".", 1)[-1].split("(")[0], dst) for kind, src, dst, *_ in dump(db)["edges"]
                  if kind in ("EXPOSES", "CALLS_HTTP"))


def test_api_first_links_follow_spec_edits_new_specs_and_referenced_files(tmp_path: Path) -> None:
    files = {p.relative_to(OPENAPI).as_posix(): p.read_text(encoding="utf-8")
             for p in sorted(OPENAPI.rglob("*")) if p.is_file()}
    ws = Workspace(tmp_path, files)
    try:
        listed = ("EXPOSES", "listPets", "endpoint:GET /v1/pets")
        assert listed in _api_links(ws.db)
        spec = "api/petstore.yaml"
        # the base path changes in the spec: every link moves (checked against a full index)
        ws.edit({spec: files[spec].replace("localhost:8080/v1", "localhost:8080/v2")})
        assert ("EXPOSES", "listPets", "endpoint:GET /v2/pets") in _api_links(ws.db)
        assert listed not in _api_links(ws.db)
        ws.edit({spec: files[spec]})
        assert listed in _api_links(ws.db)
        # the referenced path item renames its operation: showPetById exposes nothing any more
        item = "api/paths/pet.yaml"
        ws.edit({item: files[item].replace("showPetById", "getPet")})
        assert not [link for link in _api_links(ws.db) if link[1] == "showPetById"]
        # the spec goes, then a JSON spec appears elsewhere with a different base path
        ws.edit({spec: None, item: None})
        assert not [link for link in _api_links(ws.db) if link[0] == "EXPOSES"]
        ws.edit({"docs/api.json": '{"openapi": "3.0.0", "servers": [{"url": "/api"}], '
                                  '"paths": {"/pets": {"get": {"operationId": "listPets", "tags": ["pets"]}}}}'})
        assert ("EXPOSES", "listPets", "endpoint:GET /api/pets") in _api_links(ws.db)
    finally:
        ws.close()


PREFIX_FILES = {
    "docker-compose.yml": "services:\n  orders-api:\n    build: ./srv\n    ports:\n      - \"8081:8080\"\n",
    "srv/package.json": '{"name": "srv", "dependencies": {"express": "4"}}\n',
    "srv/index.js": 'const express = require("express");\nconst app = express();\n'
                    'app.get("/api/orders", function orders(req, res) { res.json([]); });\n',
    "web/package.json": '{"name": "web", "dependencies": {"react": "18"}}\n',
    "web/vite.config.ts": 'export default defineConfig({ server: { proxy: { "/api": "http://localhost:8081" } } });\n',
    "web/src/orders.ts": 'export function load() { return fetch("/api/orders"); }\n',
    "shop/OrdersApi.java": 'package shop;\n\npublic interface OrdersApi {\n    @GetExchange("/api/orders")\n    String list();\n}\n',
    "shop/OrdersController.java": ('package shop;\n\n@RestController\npublic class OrdersController implements OrdersApi {\n'
                                   '    public String list() { return ""; }\n}\n'),
}


def _services(db: Path) -> list[tuple[str, str, str | None]]:
    import json
    import sqlite3

    with sqlite3.connect(db) as conn:
        rows = conn.execute("select kind, src, props from edges where kind in ('EXPOSES', 'CALLS_HTTP')").fetchall()
    return sorted((k, s.removeprefix("r:"), json.loads(p or "{}").get("service")) for k, s, p in rows)


def test_proxy_and_exchange_edits_relink_like_a_full_index(tmp_path: Path) -> None:
    # A proxy target edited in vite.config.ts (a source file's facts), an Angular-style JSON proxy file
    # added (configuration: a whole-tree sync), a controller that stops implementing the exchange
    # interface (another file's definitions): each update equals a full index.
    w = Workspace(tmp_path, PREFIX_FILES)
    try:
        assert _services(w.db) == [
            ("CALLS_HTTP", "shop/OrdersApi.OrdersApi.list()", None),
            ("CALLS_HTTP", "web/src/orders.load(0)", "orders-api"),
            ("EXPOSES", "shop/OrdersController.OrdersController.list()", None),
            ("EXPOSES", "srv/index.GET /api/orders(2)", "orders-api"),
        ]
        w.edit({"web/vite.config.ts": PREFIX_FILES["web/vite.config.ts"].replace("localhost:8081", "billing:8080")})
        assert ("CALLS_HTTP", "web/src/orders.load(0)", "billing") in _services(w.db)
        w.edit({"web/vite.config.ts": None, "web/proxy.conf.json": '{"/api": {"target": "http://localhost:8081"}}\n'})
        assert ("CALLS_HTTP", "web/src/orders.load(0)", "orders-api") in _services(w.db)
        w.edit({"shop/OrdersController.java": PREFIX_FILES["shop/OrdersController.java"].replace(" implements OrdersApi", "")})
        assert [e for e in _services(w.db) if e[1].startswith("shop/OrdersController")] == []
    finally:
        w.close()


CONNEXION = {
    "app.py": 'import connexion\n\napp = connexion.App(__name__)\napp.add_api("openapi.yaml")\n',
    "handlers.py": "def list_pets():\n    return []\n",
    "openapi.yaml": ("openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    get:\n"
                     "      operationId: handlers.list_pets\n      responses: {'200': {description: ok}}\n"),
}


def _exposed(db: Path) -> list[tuple[str, str]]:
    return sorted((src.split(":", 1)[1], dst) for kind, src, dst, *_ in dump(db)["edges"] if kind == "EXPOSES")


def test_a_one_shot_run_after_editing_only_a_spec_relinks(tmp_path: Path) -> None:
    # Hostile review D5: the run compared source files only, said "up to date" and kept GET /pets.
    ws = Workspace(tmp_path, CONNEXION)
    try:
        opts = IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / "state"))
        index_repository(ws.src, ws.store, ws.store, opts)
        assert _exposed(ws.db) == [("handlers.list_pets(0)", "endpoint:GET /pets")]
        ws.write({"openapi.yaml": CONNEXION["openapi.yaml"].replace("/pets", "/animals")})
        index_repository(ws.src, ws.store, ws.store, opts)
        assert _exposed(ws.db) == [("handlers.list_pets(0)", "endpoint:GET /animals")]
        again = index_repository(ws.src, ws.store, ws.store, opts)  # nothing changed: stops after hashing
        assert (again.files_extracted, again.files_resolved, again.files_written) == (0, 0, 0)
        ws.check()
    finally:
        ws.close()


def test_watcher_follows_a_ref_target_of_any_suffix_and_kubernetes_manifests(tmp_path: Path) -> None:
    # Hostile review D8: a $ref to parts/pets.txt, and a renamed Kubernetes Service, were not re-read.
    files = {
        "app.py": CONNEXION["app.py"], "handlers.py": CONNEXION["handlers.py"],
        "openapi.yaml": "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /pets: {$ref: 'parts/pets.txt#/item'}\n",
        "parts/pets.txt": "item:\n  get:\n    operationId: handlers.list_pets\n",
        "billing/Dockerfile": "FROM python\n",
        "billing/main.py": ('from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route("/invoices")\n'
                            "def invoices():\n    return []\n"),
        "deploy/k8s.yaml": ("apiVersion: v1\nkind: Service\nmetadata:\n  name: billing-svc\nspec:\n  selector:\n"
                            "    app: billing\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: b\n"
                            "spec:\n  template:\n    metadata:\n      labels:\n        app: billing\n    spec:\n"
                            "      containers:\n        - name: b\n          image: reg/billing:1\n"),
    }
    ws = Workspace(tmp_path, files)
    try:
        assert _exposed(ws.db) == [("billing/main.invoices(0)", "endpoint:GET /invoices"),
                                   ("handlers.list_pets(0)", "endpoint:GET /pets")]
        ws.edit({"parts/pets.txt": files["parts/pets.txt"].replace("get:", "put:")})  # checked against a full index
        assert _exposed(ws.db) == [("billing/main.invoices(0)", "endpoint:GET /invoices"),
                                   ("handlers.list_pets(0)", "endpoint:PUT /pets")]
        with sqlite3.connect(ws.db) as conn:
            service = [json.loads(p).get("service") for (p,) in conn.execute(
                "SELECT props FROM edges WHERE kind = 'EXPOSES' AND dst = 'endpoint:GET /invoices'")]
        assert service == ["billing-svc"]  # the Kubernetes Service selecting the billing image
        ws.edit({"deploy/k8s.yaml": files["deploy/k8s.yaml"].replace("billing-svc", "billing-api")})
        ws.edit({"deploy/k8s.yaml": None})
    finally:
        ws.close()


def _user_calls(db: Path) -> list[str]:
    return [c for c in calls(db) if c.startswith("app/routes.")]


def test_current_user_follows_the_user_loader_as_it_comes_goes_and_changes(tmp_path: Path) -> None:
    """Flask-Login's ``current_user`` is what the ``user_loader`` returns (python/modules.py
    LOADER_PROXIES): adding, removing or retargeting the loader in another file rebinds the routes."""
    models = (
        "from app import db, login\n\n\nclass User(db.Model):\n    def follow(self, o):\n        pass\n\n\n"
        "class Admin(db.Model):\n    def follow(self, o):\n        pass\n\n\n"
        "def load_user(id):\n    return db.session.get(User, int(id))\n"
    )
    files = {
        "app/__init__.py": "from flask_login import LoginManager\nlogin = LoginManager()\ndb = None\n",
        "app/models.py": models,
        "app/routes.py": "from flask_login import current_user\n\n\ndef follow(name):\n    current_user.follow(name)\n",
    }
    ws = Workspace(tmp_path, files)
    try:
        assert _user_calls(ws.db) == []
        loader = models.replace("def load_user", "@login.user_loader\ndef load_user")
        ws.edit({"app/models.py": loader})
        assert _user_calls(ws.db) == ["app/routes.follow(1) -> app/models.User.follow(1) [inferred]"]
        ws.edit({"app/models.py": loader.replace("get(User,", "get(Admin,")})
        assert _user_calls(ws.db) == ["app/routes.follow(1) -> app/models.Admin.follow(1) [inferred]"]
        ws.edit({"app/models.py": models})
        assert _user_calls(ws.db) == []
    finally:
        ws.close()


def test_ids_keep_the_suffix_exactly_while_another_file_would_share_them(tmp_path: Path) -> None:
    dotted = "def z():\n    return 2\n\n\ndef caller():\n    return z()\n"
    ws = Workspace(tmp_path, {"x.Y.py": dotted, "a.py": "class K:\n    pass\n"})
    try:  # each step checked against a full index (Workspace.edit), the CLI's path and the watcher's
        for step in ({"x.py": "class Y:\n    def z(self):\n        return 1\n"},
                     {"x.py": "class Q:\n    def z(self):\n        return 1\n"},
                     {"x.py": "class Y:\n    pass\n"},
                     {"a.py": "class py:\n    def m(self):\n        return 1\n"},
                     {"x.py": None},
                     {"a.py": "class K:\n    pass\n"}):
            ws.edit(step)
            ids = sorted(n for n, *_ in dump(ws.db)["nodes"] if n.startswith("r:x.Y") or n.startswith("r:a."))
            if (step.get("x.py") or "").startswith("class Y"):
                assert [i for i in ids if i.startswith("r:x.Y.py.")] == ["r:x.Y.py.caller(0)", "r:x.Y.py.z(0)"]
            if step == {"x.py": None}:
                assert [i for i in ids if i.startswith("r:x.Y.")] == ["r:x.Y.caller(0)", "r:x.Y.py", "r:x.Y.z(0)"]
            if "a.py" in step:
                suffixed = step["a.py"].startswith("class py")
                assert [i for i in ids if i.startswith("r:a.")] == (
                    ["r:a.py", "r:a.py.py", "r:a.py.py.m(0)"] if suffixed else ["r:a.K", "r:a.py"])
    finally:
        ws.close()


def test_decorator_edits_rebind_the_wrappers_and_closures_other_files_reach(tmp_path: Path) -> None:
    # the wrapper a caller reaches and the closure calling the decorated function are read from
    # the decorator's file: editing how it returns (an assignment of the returned name on another
    # path, a second return, the wrapper's call of f) must rebind the files using it
    deco = (
        "def timed(f):\n    def inner():\n        return f()\n    return inner\n"
    )
    w = Workspace(tmp_path, {
        "app/__init__.py": "",
        "app/deco.py": deco,
        "app/views.py": "from app.deco import timed\n\n\n@timed\ndef page():\n    pass\n",
        "app/main.py": "from app.views import page\n\n\ndef go():\n    page()\n",
    })
    try:
        wrapper = "app/main.go(0) -> app/deco.timed.inner(0) [inferred]"
        closure = "app/deco.timed.inner(0) -> app/views.page(0) [inferred]"
        assert wrapper in calls(w.db) and closure in calls(w.db)
        w.edit({"app/deco.py": deco.replace("    return inner\n", "    if f is None:\n        inner = f\n    return inner\n")})
        assert wrapper not in calls(w.db)
        w.edit({"app/deco.py": deco.replace("return f()", "return 1")})
        assert wrapper in calls(w.db) and closure not in calls(w.db)
        w.edit({"app/deco.py": deco.replace("    return inner\n", "    return inner if f else f()\n")})
        assert wrapper not in calls(w.db) and closure in calls(w.db)
        w.edit({"app/deco.py": deco})
        assert wrapper in calls(w.db) and closure in calls(w.db)
    finally:
        w.close()


def test_a_link_that_must_run_again_produces_only_the_files_whose_links_changed(tmp_path: Path) -> None:
    # urls.py's route reads views.py whole (the handler's decorators), so any interface edit of
    # views.py may change links: the linker runs again over every framework file, but a file whose
    # share of the links (table accesses, endpoints) is unchanged keeps its stored output
    files = {
        "app/__init__.py": "",
        "app/models.py": "from django.db import models\n\n\nclass Note(models.Model):\n    title = models.CharField(max_length=9)\n",
        "app/views.py": "from app.models import Note\n\n\ndef show(request):\n    return Note.objects.filter(title='a')\n",
        "app/other.py": "from app.models import Note\n\n\ndef count():\n    return Note.objects.count()\n",
        "app/more.py": "from app.models import Note\n\n\ndef titles():\n    return list(Note.objects.all())\n",
        "app/urls.py": "from django.urls import path\nfrom app import views\n\nurlpatterns = [path('notes/', views.show)]\n",
    }
    ws = Workspace(tmp_path, files)
    try:
        def links() -> list[tuple[str, str, str]]:
            con = sqlite3.connect(ws.db)
            try:
                return sorted(con.execute("SELECT kind, src, dst FROM edges WHERE kind IN ('READS', 'WRITES', 'EXPOSES')"))
            finally:
                con.close()

        before = links()
        assert before == [
            ("EXPOSES", "r:app/views.show(1)", "endpoint:* /notes"),
            ("READS", "r:app/more.titles(0)", "table:r:.app_note"),
            ("READS", "r:app/other.count(0)", "table:r:.app_note"),
            ("READS", "r:app/views.show(1)", "table:r:.app_note"),
        ]
        added = files["app/views.py"] + "\n\ndef extra(request):\n    return None\n"
        report = ws.edit({"app/views.py": added})  # checked against a full index and a one-shot run
        assert report.files_resolved == 1  # views.py alone: other.py, more.py, urls.py, models.py kept
        assert links() == before
        # a body edit of a file owning table accesses: the link runs for its share alone
        report = ws.edit({"app/other.py": files["app/other.py"].replace(".count()", ".filter(title='b').count()")})
        assert report.files_resolved == 1
        assert links() == before
        # a change that does move another file's share: the model's table renamed
        report = ws.edit({"app/models.py": files["app/models.py"] + "\n    class Meta:\n        db_table = 'notes'\n"})
        assert links() == [
            ("EXPOSES", "r:app/views.show(1)", "endpoint:* /notes"),
            ("READS", "r:app/more.titles(0)", "table:r:.notes"),
            ("READS", "r:app/other.count(0)", "table:r:.notes"),
            ("READS", "r:app/views.show(1)", "table:r:.notes"),
        ]
    finally:
        ws.close()


def test_a_link_replays_the_table_accesses_of_files_whose_reads_still_hold(tmp_path: Path) -> None:
    # lnk43: a link that runs again over every framework file takes each file's table accesses from
    # the last link (indexer/frameworks/link_memo.py) unless the file changed, the declarations
    # changed, or something its accesses resolved through changed (user.py names Note through
    # alias.py: its bytes stay, its access moves)
    d = "from django.db import models\n\n\n"
    files = {
        "app/__init__.py": "",
        "app/models.py": d + "class Note(models.Model):\n    title = models.CharField(max_length=9)\n\n\n"
                         "class Memo(models.Model):\n    body = models.TextField()\n",
        "app/views.py": "from app.models import Note\n\n\ndef show(request):\n    return Note.objects.filter(title='a')\n",
        "app/other.py": "from app.models import Note\n\n\ndef count():\n    return Note.objects.count()\n",
        "app/alias.py": "from app.models import Note\n",
        "app/user.py": "from app.alias import Note\n\n\ndef first():\n    return Note.objects.first()\n",
        "app/urls.py": "from django.urls import path\nfrom app import views\n\nurlpatterns = [path('notes/', views.show)]\n",
    }
    ws = Workspace(tmp_path, files)
    try:
        def reads() -> list[tuple[str, str]]:
            return sorted((e[1], e[2]) for e in dump(ws.db)["edges"] if e[0] == "READS")

        def counted() -> tuple[int, int, int, int]:  # accesses replayed, computed; declarations replayed, computed
            memo = ws.index.resolver.link_memo
            assert memo is not None
            return memo.hits["tables"], memo.misses["tables"], memo.hits["declarations"], memo.misses["declarations"]

        assert reads() == [("r:app/other.count(0)", "table:r:.app_note"), ("r:app/user.first(0)", "table:r:.app_note"),
                           ("r:app/views.show(1)", "table:r:.app_note")]
        start = counted()
        # an interface edit of the routed views file links every framework file again: views.py's
        # accesses are computed again (new bytes), other.py's and user.py's replayed
        ws.edit({"app/views.py": files["app/views.py"] + "\n\ndef extra(request):\n    return None\n"})
        assert counted() == (start[0] + 2, start[1] + 1, start[2] + 1, start[3])  # no model changed
        assert reads() == [("r:app/other.count(0)", "table:r:.app_note"), ("r:app/user.first(0)", "table:r:.app_note"),
                           ("r:app/views.show(1)", "table:r:.app_note")]
        # alias.py now names Memo: user.py's bytes and the declarations are the same, but what its
        # access resolved through changed: not replayed (the others are)
        start = counted()
        ws.edit({"app/alias.py": "from app.models import Memo as Note\n"})
        assert reads() == [("r:app/other.count(0)", "table:r:.app_note"), ("r:app/user.first(0)", "table:r:.app_memo"),
                           ("r:app/views.show(1)", "table:r:.app_note")]
        assert counted() == (start[0] + 2, start[1] + 1, start[2] + 1, start[3])
        # a declaration that changes (Note's table renamed): the declarations and every file's
        # accesses computed again
        start = counted()
        ws.edit({"app/models.py": files["app/models.py"].replace(
            "max_length=9)\n", "max_length=9)\n\n    class Meta:\n        db_table = 'notes'\n", 1)})
        assert counted() == (start[0], start[1] + 3, start[2], start[3] + 1)
        assert reads() == [("r:app/other.count(0)", "table:r:.notes"), ("r:app/user.first(0)", "table:r:.app_memo"),
                           ("r:app/views.show(1)", "table:r:.notes")]
    finally:
        ws.close()


def test_a_migration_that_renames_a_table_to_another_name_moves_the_declaration(tmp_path: Path) -> None:
    # brk42: the rename's target is no other framework fact of the migration (name, kind: the same),
    # so the link did not run again and V1's DECLARES kept the old name
    ws = Workspace(tmp_path, {"db/V1__init.sql": "CREATE TABLE a (id int);\n",
                              "db/V2__rename.sql": "ALTER TABLE a RENAME TO b;\n",
                              "q.py": "def q(cur):\n    cur.execute('SELECT id FROM b')\n"})
    try:
        ws.edit({"db/V2__rename.sql": "ALTER TABLE a RENAME TO c;\n"})  # checked against a full index
        assert [e[:3] for e in dump(ws.db)["edges"] if e[0] == "DECLARES"] == [
            ("DECLARES", "r:db/V1__init.sql", "table:r:.c")]
    finally:
        ws.close()


def test_a_cascade_that_goes_takes_the_cascaded_writes_of_other_files_with_it(tmp_path: Path) -> None:
    # brk42: a JPA relationship's cascade is no other framework fact of the entity, and the
    # annotation's arguments no part of its interface: the repository's caller kept writing pet
    owner = ("package j;\n\nimport javax.persistence.*;\nimport java.util.List;\n\n@Entity\npublic class Owner {\n"
             "    @Id Long id;\n    @OneToMany(cascade = CascadeType.ALL)\n    List<Pet> pets;\n}\n")
    ws = Workspace(tmp_path, {
        "j/Owner.java": owner,
        "j/Pet.java": "package j;\n\nimport javax.persistence.*;\n\n@Entity\npublic class Pet {\n    @Id Long id;\n}\n",
        "j/OwnerRepository.java": "package j;\n\nimport org.springframework.data.jpa.repository.JpaRepository;\n\n"
                                  "public interface OwnerRepository extends JpaRepository<Owner, Long> {}\n",
        "j/Svc.java": "package j;\n\npublic class Svc {\n    private OwnerRepository repo;\n"
                      "    public void add(Owner o) { repo.save(o); }\n}\n"})
    try:
        def writes() -> list[str]:
            return [e[2] for e in dump(ws.db)["edges"] if e[0] == "WRITES"]

        assert writes() == ["table:r:.owner", "table:r:.pet"]
        ws.edit({"j/Owner.java": owner.replace("(cascade = CascadeType.ALL)", "")})  # checked against a full index
        assert writes() == ["table:r:.owner"]
        ws.edit({"j/Owner.java": owner})
        assert writes() == ["table:r:.owner", "table:r:.pet"]
    finally:
        ws.close()


ANGULAR = {
    "src/app/child.component.ts": (
        "import { Component, EventEmitter, Output } from '@angular/core';\n"
        "@Component({ selector: 'app-child', template: '<b></b>' })\n"
        "export class ChildComponent {\n  @Output() toggle = new EventEmitter<boolean>();\n"
        "  fire() { this.toggle.emit(true); }\n}\n"),
    "src/app/page.component.ts": (
        "import { Component } from '@angular/core';\n"
        "@Component({ selector: 'app-page', templateUrl: './page.component.html' })\n"
        "export class PageComponent {\n  save() {}\n  title() { return ''; }\n  onToggle(v: boolean) {}\n}\n"),
    "src/app/page.component.html": '<button (click)="save()">s</button>\n',
}


def _template_calls(db: Path) -> list[tuple[str, str]]:
    return sorted((src.split(":", 1)[1], dst.split(":", 1)[1]) for kind, src, dst, *_ in dump(db)["edges"]
                  if kind == "CALLS" and "Component." in dst and "Component" in src)


def test_template_file_edits_relink_like_a_full_index(tmp_path: Path) -> None:
    # Only the .html changes (a file no language claims): the watcher and a one-shot run link again,
    # the component's file is produced again, and each update equals a full index.
    ws = Workspace(tmp_path, ANGULAR)
    page, html = "src/app/page.component.PageComponent", "src/app/page.component.html"
    try:
        assert _template_calls(ws.db) == [(page, f"{page}.save(0)")]
        report = ws.edit({html: '<h1>{{ title() }}</h1><app-child (toggle)="onToggle($event)"></app-child>\n'})
        assert report.files_resolved == 2  # the two component files whose links changed, no other
        assert _template_calls(ws.db) == [
            ("src/app/child.component.ChildComponent.fire(0)", f"{page}.onToggle(1)"),
            (page, f"{page}.onToggle(1)"), (page, f"{page}.title(0)")]
        ws.edit({html: None})
        assert _template_calls(ws.db) == []
        ws.edit({html: ANGULAR[html]})
        assert _template_calls(ws.db) == [(page, f"{page}.save(0)")]
        # the child stops emitting (a body edit of another file): the parent's template is kept
        ws.edit({html: '<app-child (toggle)="onToggle($event)"></app-child>\n'})
        ws.edit({"src/app/child.component.ts": ANGULAR["src/app/child.component.ts"].replace("this.toggle.emit(true);", "")})
        assert _template_calls(ws.db) == [(page, f"{page}.onToggle(1)")]
    finally:
        ws.close()
