"""An HTTP client addressing a public DNS name (an outside API) is no caller of the indexed application's
route of the same path (microblog's `translate()` posting to Microsoft's translator reached its own
`POST /translate`); loopback, one-label service names and mapped hosts still are."""

from __future__ import annotations

from analysis.impact import SymbolQuery, blast_radius
from analysis.services import public_host
from tests.golden.harness import index_fixture

APP = """
from flask import Flask

app = Flask(__name__)


@app.route("/translate", methods=["POST"])
def translate_text():
    return "ok"
"""

CLIENTS = """
import requests


def outside(text):
    return requests.post("https://api.cognitive.microsofttranslator.com/translate", json=text)


def local(text):
    return requests.post("http://localhost:5000/translate", json=text)


def by_service_name(text):
    return requests.post("http://translator/translate", json=text)


def by_cluster_name(text):
    return requests.post("http://translator.default.svc.cluster.local/translate", json=text)
"""


def test_public_host_names():
    assert [public_host(h) for h in ("api.github.com", "api.cognitive.microsofttranslator.com", "translator",
                                     "translator.default.svc.cluster.local", "db.internal", "10.0.0.5",
                                     "localhost", "app.test", None)] == [
        True, True, False, False, False, False, False, False, False]


def test_a_client_of_a_public_host_is_no_caller_of_the_local_route(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "app.py").write_text(APP, encoding="utf-8")
    (src / "clients.py").write_text(CLIENTS, encoding="utf-8")
    store = index_fixture(src, tmp_path / "i.db", "shop")
    try:
        # What calls the route: the three clients that can address it, not the public API's.
        report = blast_radius(store, SymbolQuery("translate_text"), depth=2)
        assert sorted(r.node.qualname for hop in report.hops for r in hop) == ["by_cluster_name", "by_service_name",
                                                                               "local"]
    finally:
        store.close()
