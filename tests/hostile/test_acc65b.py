"""Session 65, acc65b: client URLs built by the application's own helpers and configuration.

- :class:`TestPythonConfigUrls`: GoogleCloudPlatform/bank-of-anthos's Flask front end writes
  ``app.config["TRANSACTIONS_URI"] = 'http://{}/transactions'.format(os.environ.get('TRANSACTIONS_API_ADDR'))``
  in ``create_app`` and requests ``requests.post(url=app.config["TRANSACTIONS_URI"], ...)``: 5 of its 6 requests
  were unlinked (``url``). A Django ``settings.X`` read of a settings module's constant, an
  ``os.getenv("X", "http://svc/api")`` default and a URL put in a local first are read the same way.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.index_harness import index_files


def _rows(db: Path, kind: str = "CALLS_HTTP") -> list[tuple[str, int, str, str | None]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT file, line, dst, json_extract(props, '$.url') FROM edges"
                           " WHERE kind = ? ORDER BY file, line, dst", (kind,)).fetchall()
    finally:
        con.close()


FLASK_FRONT = '''import os
import requests
from flask import Flask, current_app


def create_app():
    app = Flask(__name__)

    def submit(account):
        requests.post(url=app.config["TRANSACTIONS_URI"], data={})
        url = '{}/{}'.format(app.config["CONTACTS_URI"], account)
        requests.post(url=url, data={})
        requests.get(f'{app.config["BALANCES_URI"]}/{account}')
        requests.get(current_app.config.get("LEDGER_URI") + "/entries")
        requests.get(app.config["NEVER_WRITTEN_URI"] + "/x")
        again = app.config["CONTACTS_URI"]
        again = "http://elsewhere/y"
        requests.get(again)

    app.config["TRANSACTIONS_URI"] = 'http://{}/transactions'.format(os.environ.get('TRANSACTIONS_API_ADDR'))
    app.config["CONTACTS_URI"] = 'http://{}/contacts'.format(os.environ.get('CONTACTS_API_ADDR'))
    app.config["BALANCES_URI"] = f'http://{os.environ.get("BALANCES_API_ADDR")}/balances'
    app.config.update(LEDGER_URI=os.getenv("LEDGER_URI", "http://ledger:8080/api/ledger"))
    return app
'''

FLASK_BACK = '''from flask import Flask

app = Flask(__name__)


@app.route("/transactions", methods=["POST"])
def add():
    return ""


@app.route("/contacts/<user>", methods=["POST"])
def add_contact(user):
    return ""


@app.route("/balances/<account>")
def balance(account):
    return ""


@app.route("/api/ledger/entries")
def entries():
    return ""
'''

DJANGO = {
    "shop/settings.py": 'import os\nBILLING_URL = os.getenv("BILLING_URL", "http://billing/api/v2")\nDEBUG = True\n',
    "shop/views.py": '''import requests
from django.conf import settings


def pay(request):
    requests.post(settings.BILLING_URL + "/payments")
    requests.get(settings.MISSING_URL + "/payments")
''',
}


class TestPythonConfigUrls:
    def test_flask_config_writes_reach_the_reads(self, tmp_path: Path) -> None:
        index_files(tmp_path / "r", {"front/app.py": FLASK_FRONT, "back/app.py": FLASK_BACK}, "bank").close()
        assert _rows(tmp_path / "i.db") == [
            ("front/app.py", 10, "endpoint:POST /transactions", "http://{}/transactions"),
            ("front/app.py", 12, "endpoint:POST /contacts/{}", "http://{}/contacts/{}"),
            ("front/app.py", 13, "endpoint:GET /balances/{}", "http://{}/balances/{}"),
            ("front/app.py", 14, "endpoint:GET /api/ledger/entries", "http://ledger:8080/api/ledger/entries"),
            # a key no file writes is an unknown base (no other key's value): only its known end is the path
            ("front/app.py", 15, "endpoint:GET /x", "{}/x"),
        ]
        # a local assigned twice may hold either value: unknown
        assert [(f, line) for f, line, _, _ in _rows(tmp_path / "i.db", "UNLINKED")] == [("front/app.py", 18)]

    def test_a_local_base_is_followed_once(self, tmp_path: Path) -> None:
        # bank-of-anthos's metadata requests: `metadata_url + 'instance/zone'`, the local assigned once in create_app
        front = (
            "import os\nimport requests\n\n\ndef create_app():\n"
            "    server = os.getenv('METADATA_SERVER', 'metadata.google.internal')\n"
            "    metadata_url = f'http://{server}/computeMetadata/v1/'\n"
            "    requests.get(metadata_url + 'instance/zone')\n"
            "    other = 'http://a/x/'\n"
            "    if os.getenv('B'):\n"
            "        other = 'http://b/y/'\n"
            "    requests.get(other + 'z')\n"
        )
        index_files(tmp_path / "r", {"front/app.py": front}, "meta").close()
        assert _rows(tmp_path / "i.db") == [
            ("front/app.py", 8, "endpoint:GET /computeMetadata/v1/instance/zone",
             "http://{}/computeMetadata/v1/instance/zone"),
        ]
        # assigned twice: an unknown base, and "z" is no path
        assert [(f, line) for f, line, _, _ in _rows(tmp_path / "i.db", "UNLINKED")] == [("front/app.py", 12)]

    def test_django_settings_and_getenv_default(self, tmp_path: Path) -> None:
        index_files(tmp_path / "r", DJANGO, "shop").close()
        assert _rows(tmp_path / "i.db") == [
            ("shop/views.py", 6, "endpoint:POST /api/v2/payments", "http://billing/api/v2/payments"),
            # a setting no settings module writes: an unknown base, not another setting's value
            ("shop/views.py", 7, "endpoint:GET /payments", "{}/payments"),
        ]


# ---------------------------------------------------------------------------------- URL builders (TypeScript)

CONFIG_SERVICE = '''import { Injectable } from '@angular/core';

@Injectable({ providedIn: 'root' })
export class ApplicationConfigService {
  private endpointPrefix = '';

  setEndpointPrefix(endpointPrefix: string): void {
    this.endpointPrefix = endpointPrefix;
  }

  getEndpointFor(api: string, microservice?: string): string {
    if (microservice) {
      return `${this.endpointPrefix}services/${microservice}/${api}`;
    }
    return `${this.endpointPrefix}${api}`;
  }

  opaque(api: string): string {
    return new URL(api, window.location.href).toString();
  }
}
'''

LABEL_SERVICE = '''import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { ApplicationConfigService } from 'app/core/config/application-config.service';
import { apiUrl } from 'app/core/urls';

@Injectable({ providedIn: 'root' })
export class LabelService {
  protected readonly http = inject(HttpClient);
  protected readonly applicationConfigService = inject(ApplicationConfigService);
  protected readonly resourceUrl = this.applicationConfigService.getEndpointFor('api/labels');

  query() {
    return this.http.get(this.resourceUrl);
  }

  find(id: number) {
    return this.http.get(`${this.resourceUrl}/${encodeURIComponent(id)}`);
  }

  register(body: unknown) {
    return this.http.post(this.applicationConfigService.getEndpointFor('api/register'), body);
  }

  health() {
    return this.http.get(this.applicationConfigService.getEndpointFor('management/health'));
  }

  remote() {
    return this.http.get(this.applicationConfigService.getEndpointFor('api/labels', 'labelsvc'));
  }

  opaque() {
    return this.http.get(this.applicationConfigService.opaque('api/labels'));
  }

  orders() {
    return this.http.get(apiUrl('/api/orders'));
  }
}
'''

URLS = '''export const apiUrl = (path: string) => `${process.env.API_BASE}${path}`;
'''

LABEL_RESOURCE = '''package shop.web;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/api")
public class LabelResource {
    @GetMapping("/labels")
    public String all() { return ""; }

    @GetMapping("/labels/{id}")
    public String one(@PathVariable Long id) { return ""; }

    @PostMapping("/register")
    public String register() { return ""; }

    @GetMapping("/orders")
    public String orders() { return ""; }
}
'''


def _jhipster(root: Path) -> dict[str, str]:
    return {
        "src/main/webapp/app/core/config/application-config.service.ts": CONFIG_SERVICE,
        "src/main/webapp/app/core/urls.ts": URLS,
        "src/main/webapp/app/entities/label/label.service.ts": LABEL_SERVICE,
        "src/main/webapp/package.json": '{"name": "web"}',
        "tsconfig.json": '{"compilerOptions": {"baseUrl": "src/main/webapp/"}}',
        "src/main/java/shop/web/LabelResource.java": LABEL_RESOURCE,
    }


class TestUrlBuilders:
    def test_a_builder_method_is_folded_with_its_argument(self, tmp_path: Path) -> None:
        from indexer.languages.ecmascript.typescript import EXTRACTOR
        ex = EXTRACTOR.extract("app/core/config/application-config.service.ts", CONFIG_SERVICE.encode())
        assert [(b.qualname, b.params, [t.parts for t in b.returns]) for b in ex.url_builders] == [
            ("ApplicationConfigService.getEndpointFor", ("api", "microservice"), [
                (("ref", "ApplicationConfigService.endpointPrefix"), ("lit", "services/"), ("ref", "microservice"),
                 ("lit", "/"), ("ref", "api")),
                (("ref", "ApplicationConfigService.endpointPrefix"), ("ref", "api")),
            ]),
        ]  # `opaque` returns a call: no builder

    def test_jhipster_services_reach_their_spring_endpoints(self, tmp_path: Path) -> None:
        root = tmp_path / "r"
        index_files(root, _jhipster(root), "shop").close()
        rows = [(f.rsplit("/", 1)[-1], line, dst, url) for f, line, dst, url in _rows(tmp_path / "i.db")]
        assert rows == [
            ("label.service.ts", 13, "endpoint:GET /api/labels", "{}api/labels"),
            ("label.service.ts", 17, "endpoint:GET /api/labels/{}", "{}api/labels/{}"),
            ("label.service.ts", 21, "endpoint:POST /api/register", "{}api/register"),
            # served by no code of the repository (Spring Boot's actuator): the glued word is a whole segment
            ("label.service.ts", 25, "endpoint:GET /management/health", "{}management/health"),
            # given a microservice, the return naming it (a gateway's route): no exposed endpoint ends so
            ("label.service.ts", 29, "endpoint:GET /services/labelsvc/api/labels", "{}services/labelsvc/api/labels"),
            # an imported arrow function; its base is an unset environment variable: linked by its known end
            ("label.service.ts", 37, "endpoint:GET /api/orders", "{}/api/orders"),
        ]
        # a helper whose body is no concatenation: unknown, as before
        assert [(f.rsplit("/", 1)[-1], line) for f, line, _, _ in _rows(tmp_path / "i.db", "UNLINKED")] == [
            ("label.service.ts", 33)]


# ----------------------------------------------------------------------------------------------- known ends

KNOWN_ENDS_SERVER = '''const express = require("express");
const app = express();
app.get("/v1/api/orders/:id", (req, res) => res.json({}));
app.get("/v1/users", (req, res) => res.json([]));
app.get("/v2/users", (req, res) => res.json([]));
app.get("/v1/items/:id", (req, res) => res.json({}));
app.get("/v1/reports/:kind", (req, res) => res.json({}));
app.listen(3000);
'''

KNOWN_ENDS_CLIENT = '''export function order(base: string, id: string) {
  return fetch(`${base}/api/orders/${id}`);
}

export function users(base: string) {
  return fetch(`${base}/users`);
}

export function item(base: string, name: string) {
  return fetch(`${base}/${name}`);
}

export function removeOrder(base: string, id: string) {
  return fetch(`${base}/api/orders/${id}`, { method: "DELETE" });
}

export function report(base: string) {
  return fetch(`${base}/reports/daily`);
}

export function known(id: string) {
  return fetch(`/api/orders/${id}`);
}
'''


class TestKnownEnds:
    def test_an_unknown_start_links_by_its_known_end_unless_ambiguous(self, tmp_path: Path) -> None:
        index_files(tmp_path / "r", {"server/index.js": KNOWN_ENDS_SERVER, "server/package.json": '{"name": "s"}',
                                     "web/api.ts": KNOWN_ENDS_CLIENT, "web/package.json": '{"name": "w"}'},
                    "shop").close()
        assert _rows(tmp_path / "i.db") == [
            ("web/api.ts", 2, "endpoint:GET /v1/api/orders/{}", "{}/api/orders/{}"),
            # DELETE: no endpoint of that method ends so; a known start stays where it points
            ("web/api.ts", 14, "endpoint:DELETE /api/orders/{}", "{}/api/orders/{}"),
            # a later literal segment reaches the endpoint's path variable
            ("web/api.ts", 18, "endpoint:GET /v1/reports/{}", "{}/reports/daily"),
            ("web/api.ts", 22, "endpoint:GET /api/orders/{}", "/api/orders/{}"),
        ]
        con = sqlite3.connect(tmp_path / "i.db")
        try:
            unlinked = con.execute("SELECT file, line, dst, json_extract(props, '$.call'), json_extract(props, "
                                   "'$.candidates') FROM edges WHERE kind = 'UNLINKED' ORDER BY line").fetchall()
        finally:
            con.close()
        assert unlinked == [
            # /v1/users and /v2/users both end with /users: which one is not known
            ("web/api.ts", 6, "unlinked:url_ambiguous", "GET {}/users", '["GET /v1/users","GET /v2/users"]'),
            # nothing but unknown pieces: no known end
            ("web/api.ts", 10, "unlinked:url", "GET {}/{}", None),
        ]


class TestEditsRelink:
    def test_builder_and_server_edits_relink_like_a_full_index(self, tmp_path: Path) -> None:
        # A builder's body edited (another file's request changes), the server exposing one of two ambiguous
        # ends, a Flask config value edited: each update equals a full index (Workspace checks it).
        from tests.unit.test_incremental import Workspace

        files = {**_jhipster(tmp_path), "server/index.js": KNOWN_ENDS_SERVER, "server/package.json": '{"name": "s"}',
                 "web/api.ts": KNOWN_ENDS_CLIENT, "web/package.json": '{"name": "w"}',
                 "front/app.py": FLASK_FRONT, "back/app.py": FLASK_BACK}
        w = Workspace(tmp_path, files)

        def http() -> list[tuple[str, int, str]]:
            return [(f.rsplit("/", 1)[-1], line, dst) for f, line, dst, _ in _rows(w.db)
                    if f.endswith(("label.service.ts", "api.ts", "app.py"))]

        try:
            assert ("label.service.ts", 21, "endpoint:POST /api/register") in http()
            assert ("api.ts", 6, "endpoint:GET /v1/users") not in http()
            assert ("app.py", 10, "endpoint:POST /transactions") in http()
            config = "src/main/webapp/app/core/config/application-config.service.ts"
            w.edit({config: CONFIG_SERVICE.replace("return `${this.endpointPrefix}${api}`;", "return `/v2/${api}`;")})
            assert ("label.service.ts", 21, "endpoint:POST /v2/api/register") in http()
            w.edit({"server/index.js": KNOWN_ENDS_SERVER.replace('app.get("/v2/users"', 'app.get("/v2/people"')})
            assert ("api.ts", 6, "endpoint:GET /v1/users") in http()
            w.edit({"front/app.py": FLASK_FRONT.replace("}/transactions'", "}/v2/transactions'")})
            assert ("app.py", 10, "endpoint:POST /v2/transactions") in http()
        finally:
            w.close()


PY_CLIENT = {
    "shop/settings.py": 'ORDERS_API = "http://orders:8000/api/v1"\n',
    "shop/urls.py": '''from django.conf import settings


def api_url(path):
    return f"{settings.ORDERS_API}/{path}"


def joined(path):
    from urllib.parse import urljoin
    return urljoin(settings.ORDERS_API, path)
''',
    "shop/client.py": '''import requests

from shop.urls import api_url, joined


class Orders:
    base = "http://orders:8000/api/v1"

    def _url(self, path, item=None):
        if item is not None:
            return "{}/{}/{}".format(self.base, path, item)
        return self.base + "/" + path

    def one(self, order_id):
        return requests.get(self._url("orders", order_id))

    def all(self):
        return requests.get(self._url("orders"))

    def by_function(self):
        return requests.get(api_url("orders") + "/recent")

    def opaque(self):
        return requests.get(joined("orders"))
''',
    "orders/main.py": '''from fastapi import FastAPI

app = FastAPI()


@app.get("/api/v1/orders")
def orders():
    return []


@app.get("/api/v1/orders/{order_id}")
def order(order_id: int):
    return {}


@app.get("/api/v1/orders/recent")
def recent():
    return []
''',
}


class TestPythonUrlBuilders:
    def test_python_builders_fold_their_arguments(self, tmp_path: Path) -> None:
        index_files(tmp_path / "r", PY_CLIENT, "shop").close()
        assert _rows(tmp_path / "i.db") == [
            ("shop/client.py", 15, "endpoint:GET /api/v1/orders/{}", "http://orders:8000/api/v1/orders/{}"),
            ("shop/client.py", 18, "endpoint:GET /api/v1/orders", "http://orders:8000/api/v1/orders"),
            ("shop/client.py", 21, "endpoint:GET /api/v1/orders/recent", "http://orders:8000/api/v1/orders/recent"),
        ]
        # urljoin(...) is no string built here: unknown, as before
        assert [(f, line) for f, line, _, _ in _rows(tmp_path / "i.db", "UNLINKED")] == [("shop/client.py", 24)]


class TestKnownEndBounds:
    def test_a_request_with_too_many_candidates_is_left_as_it_was(self, monkeypatch) -> None:
        from indexer.frameworks import known_ends
        from stores.contracts import Edge

        def edges() -> dict[str, list[Edge]]:
            served = [Edge("EXPOSES", f"h{i}", f"endpoint:GET /v{i}/api", "r", "s.js", 1, 1, None, {}) for i in range(3)]
            asked = [Edge("CALLS_HTTP", "c", "endpoint:GET /x", "r", "c.js", 2, 1, None, {"url": "{}1/api"}),
                     Edge("CALLS_HTTP", "d", "endpoint:GET /api", "r", "c.js", 3, 1, None, {"url": "{}api"})]
            return {"s.js": served, "c.js": asked}

        found = edges()
        moved, taken = known_ends.retarget_known_ends({}, found, lambda p, m, u: f"endpoint:{m} {u}")
        # "{}1/api": the glued "1" ends only "v1"; "{}api" (one glued word): every /v{i}/api ends with it: taken out
        assert (moved, [(p, e.line, c) for p, e, c in taken]) == (1, [("c.js", 3, ["endpoint:GET /v0/api",
                                                                                  "endpoint:GET /v1/api",
                                                                                  "endpoint:GET /v2/api"])])
        assert [e.dst for e in found["c.js"]] == ["endpoint:GET /v1/api"]
        monkeypatch.setattr(known_ends, "MAX_COMPARED", 2)
        found = edges()
        assert known_ends.retarget_known_ends({}, found, lambda p, m, u: f"endpoint:{m} {u}") == (0, [])
        assert [e.dst for e in found["c.js"]] == ["endpoint:GET /x", "endpoint:GET /api"]  # 3 candidates > 2: as it was
