"""Session 66, brk66b: hostile input against session 65's additions and the known leftovers, each break with
its fix (docs/benchmarks.md, "Session 66, brk66b"). Exact expectations; a bound on time is a subprocess
timeout, never a timed assertion."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from analysis.agent_queries import MAX_OFFSET, AgentQueries
from analysis.unlinked import unlinked_calls, unlinked_text
from lsp_server.api.app import ApiSettings, create_app
from lsp_server.cli import main
from stores.config import load_config
from stores.contracts import RepositoryRecord
from stores.embedded import EmbeddedStore
from tests.index_harness import index_files
from tests.unit.test_unlinked_calls import ADMIN, AUDIT, FETCH, PING, SHOP, STUB, TASK, rows


@pytest.fixture(scope="module")
def unlinked_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """test_unlinked_calls's two repositories: five unlinked calls of three reasons, interleaved by place."""
    base = tmp_path_factory.mktemp("brk66b_unlinked")
    path = base / "index.db"
    index_files(base / "shop", SHOP, "shop", path).close()
    s = index_files(base / "admin", ADMIN, "admin", path)
    s.upsert_repository(RepositoryRecord("admin", "admin", "backoffice", str(base / "admin")))
    s.close()
    return path


class TestUnlinkedPages:
    """``offset`` pages the unlinked list (REST ``GET /v1/unlinked``, MCP / agent ``unlinked``, ``ripple unlinked
    --offset``): a stable order over reasons (url 3, grpc_ambiguous 1, task 1 interleaved by place), each page the
    slice of the full list, the count beyond the page exact, bad offsets refused with a clear message."""

    def test_pages_are_slices_of_the_full_list(self, unlinked_db: Path) -> None:
        s = EmbeddedStore(unlinked_db)
        try:
            assert rows(unlinked_calls(s)) == [AUDIT, FETCH, PING, STUB, TASK]
            pages = [unlinked_calls(s, limit=2, offset=o) for o in (0, 2, 4, 6)]
            assert [rows(p) for p in pages] == [[AUDIT, FETCH], [PING, STUB], [TASK], []]
            assert [(p.total, p.left_out, p.offset) for p in pages] == [(5, 3, 0), (5, 1, 2), (5, 0, 4), (5, 0, 6)]
            assert rows(unlinked_calls(s, limit=3, offset=1)) == [FETCH, PING, STUB]  # across the three reasons
            assert rows(unlinked_calls(s, offset=3)) == [STUB, TASK]  # no limit: the rest
            one = unlinked_calls(s, reason="url", limit=1, offset=1)
            assert (rows(one), one.total, one.left_out, one.by_reason) == ([FETCH], 3, 1, {"url": 3})
            assert rows(unlinked_calls(s, product="shop", limit=2, offset=2)) == [STUB, TASK]
            for bad in (-1, True, 1.5):
                with pytest.raises(ValueError, match=f"offset must be 0 or more, not {bad!r}"):
                    unlinked_calls(s, limit=2, offset=bad)  # type: ignore[arg-type]
            text = unlinked_text(pages[1].as_dict())
            assert text[0] == "# Unlinked calls (3-4 of 5)"
            assert text[-1] == "1 more beyond the limit: raise it, page on with offset 4, or narrow with repo / product / reason."
            q = AgentQueries(s, s)
            answer = q.unlinked(limit=2, offset=2)
            assert [(c["path"], c["line"]) for c in answer.result["calls"]] == [("client.py", 13), ("stubs.py", 8)]
            assert (answer.result["offset"], answer.result["left_out"]) == (2, 1)
            with pytest.raises(ValueError, match=f"offset must be an integer from 0 to {MAX_OFFSET:,}, not 1000001"):
                q.unlinked(offset=MAX_OFFSET + 1)
        finally:
            s.close()

    def test_cli_and_rest_pages(self, unlinked_db: Path) -> None:
        result = CliRunner().invoke(main, ["unlinked", "--db", str(unlinked_db), "--limit", "2", "--offset", "2"])
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines() == [
            "3-4 of 5 unlinked calls (url 3, grpc_ambiguous 1, task 1)",
            "  client.py:13  POST http://{}  (url; in client.ping)",
            "  stubs.py:8  GRPC Orders/Get  (grpc_ambiguous; in stubs.get_order; candidates: shop.a.Orders, "
            "shop.b.Orders)",
            "1 more beyond --limit 2 (next page: --offset 4)"]
        result = CliRunner().invoke(main, ["unlinked", "--db", str(unlinked_db), "--offset", "-1"])
        assert result.exit_code == 2 and "-1 is not in the range x>=0" in result.output
        data = json.loads(CliRunner().invoke(main, ["unlinked", "--db", str(unlinked_db), "--offset", "5",
                                                    "--json"]).stdout)
        assert (data["calls"], data["total"], data["left_out"], data["offset"]) == ([], 5, 0, 5)
        app = create_app(ApiSettings(load_config(unlinked_db.parent), unlinked_db, roots=[unlinked_db.parent]))
        with TestClient(app) as http:
            body = http.get("/v1/unlinked", params={"limit": 2, "offset": 4}).json()
            bad = [http.get("/v1/unlinked", params={"offset": o}).status_code for o in (-1, MAX_OFFSET + 1, "x")]
            edge = http.get("/v1/unlinked", params={"offset": MAX_OFFSET}).json()
        assert [(c["repo"], c["path"], c["line"]) for c in body["calls"]] == [("shop", "tasks.py", 17)]
        assert (body["total"], body["leftOut"], body["offset"]) == (5, 0, 4)
        assert bad == [422, 422, 422]
        assert (edge["calls"], edge["total"], edge["leftOut"], edge["offset"]) == ([], 5, 0, MAX_OFFSET)


_LOCALS = r"""
import json, sys
from indexer.languages import extractor_for_path
n = int(sys.argv[1])
body = "".join(f"        url{i} = reverse('a')\n        self.client.get(url{i})\n" for i in range(n))
body += "        u = reverse('b')\n        self.client.get(u)\n        u = reverse('c')\n        self.client.get(u)\n"
other = "".join(f"        h{i} = 'http://svc/items/{i}'\n        requests.get(h{i})\n" for i in range(n))
other += "        v = 'http://svc/a'\n        v = 'http://svc/b'\n        requests.get(v)\n"
src = ("import requests\nfrom django.test import TestCase\nfrom django.urls import reverse\n\n\nclass T(TestCase):\n"
       "    def test_x(self):\n" + body + "\n    def test_y(self):\n" + other)
ex = extractor_for_path("app/tests.py").extract("app/tests.py", src.encode())
print(json.dumps({"partial": ex.partial,
                  "calls": [[c.line, c.url.parts, c.route_name] for c in ex.http_calls]}))
"""


class TestManyLocalsInOneFunction:
    """A Django test of N ``url = reverse("a"); self.client.get(url)`` pairs (and a function of N
    ``h = "http://..."; requests.get(h)``): each request's local was looked up by walking the whole function
    body again (``url_names._local`` and ``common.local_value``), so the file cost N² nodes: 500 pairs 5.3 s,
    1,000 pairs past the extraction time budget (indexed in part), 5,000 pairs: ``ripple index`` not done after
    500 s. The function's bindings are now read once (``common.function_bindings``)."""

    def test_900_requests_each_read_from_its_local(self) -> None:
        n = 900  # (under local_value's 20,000 nodes of a function: each pair is 19)
        done = subprocess.run([sys.executable, "-c", _LOCALS, str(n)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        reversed_a = [["ref", 'call:reverse[[["lit","a"]]]']]
        assert data["partial"] is None
        assert data["calls"][:n] == [[9 + 2 * i, reversed_a, ["django", "a", 0, ""]] for i in range(n)]
        # a local assigned twice: the request reads the assignment before it (route names), ...
        assert data["calls"][n:n + 2] == [[9 + 2 * n, [["ref", "u"]], ["django", "b", 0, ""]],
                                          [11 + 2 * n, [["ref", "u"]], ["django", "c", 0, ""]]]
        start = 15 + 2 * n
        assert data["calls"][n + 2:2 * n + 2] == [[start + 2 * i, [["lit", f"http://svc/items/{i}"]], None]
                                                  for i in range(n)]
        # ... but a URL local bound twice is no known value (``local_value``: exactly one binding)
        assert data["calls"][2 * n + 2:] == [[start + 2 * n + 1, [["ref", "v"]], None]]


_NESTS = r"""
import json, sys
from indexer.languages import extractor_for_path
m = int(sys.argv[1])
inner = 'route(GET("/leaf"), h::leaf)'
for i in range(m):
    inner = f'nest(path("/n{i}"), {inner}.andRoute(GET("/r{i}"), h::r))'
src = ("package a;\nimport static org.springframework.web.reactive.function.server.RouterFunctions.*;\n"
       "import static org.springframework.web.reactive.function.server.RequestPredicates.*;\n"
       "public class R {\n  RouterFunction<?> r(H h) {\n    return " + inner + ";\n  }\n"
       '  RouterFunction<?> s(H h) {\n    return route(GET("/top"), h::top);\n  }\n}\n')
ex = extractor_for_path("src/main/java/a/R.java").extract("src/main/java/a/R.java", src.encode())
print(json.dumps({"partial": ex.partial, "routes": sorted(("".join(t for _, t in r.path.parts), r.methods, r.handler_ref)
                                                          for r in ex.routes)}))
"""


class TestNestedSpringRouterFunctions:
    """Spring WebFlux ``nest(path("/n"), ...)`` 700 deep, a route at each level: the prefixes of each route were
    found by walking ``Node.parent`` to the root (each step costs the node's depth), for every route: 600 levels
    took 26.9 s, 700 levels about 45 s. Now one :func:`~indexer.languages.base.around` walk per route, each ``nest``'s prefixes
    remembered (1.8 s), with the same routes."""

    def test_700_nested_prefixes_exact(self) -> None:
        m = 700
        done = subprocess.run([sys.executable, "-c", _NESTS, str(m)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        assert data["partial"] is None

        def under(i: int) -> str:  # the prefixes of the nests 499 .. i, outermost first
            return "".join(f"/n{j}" for j in range(m - 1, i - 1, -1))
        want = [[under(0) + "/leaf", ["GET"], "H.leaf"], ["/top", ["GET"], "H.top"]]  # (not under another's nest)
        want += [[under(i) + f"/r{i}", ["GET"], "H.r"] for i in range(m)]  # `.andRoute` in nest i's body
        assert data["routes"] == sorted(want)


_SAME_NAME = r"""
import json, sys, tempfile
from pathlib import Path
from analysis.unlinked import unlinked_calls
from tests.index_harness import index_files
n, calls = int(sys.argv[1]), int(sys.argv[2])
files = {"manage.py": "import django\n", "app/__init__.py": "",
         "app/views.py": "from django.http import HttpResponse\n\ndef v(request, *a, **k):\n    return HttpResponse('x')\n"}
for j in range(4):
    body = "".join(f"    path('p{i}/', views.v, name='same'),\n" for i in range(n // 4))
    files[f"app/u{j}.py"] = "from django.urls import path\nfrom app import views\nurlpatterns = [\n" + body + "]\n"
files["app/urls.py"] = ("from django.urls import include, path\nfrom app import views\nurlpatterns = [\n"
                        + "".join(f"    path('s{j}/', include('app.u{j}')),\n" for j in range(4))
                        + "    path('one/<int:x>/', views.v, name='same'),\n]\n")
files["app/tests.py"] = ("from django.test import TestCase\nfrom django.urls import reverse\n\nclass T(TestCase):\n"
                         "    def test_x(self):\n" + "".join("        self.client.get(reverse('same'))\n" for _ in range(calls))
                         + "        self.client.get(reverse('same', args=(1,)))\n        self.client.get(reverse('gone'))\n")
with tempfile.TemporaryDirectory() as tmp:
    s = index_files(Path(tmp) / "r", files, "r")
    found = unlinked_calls(s, limit=2, offset=calls - 1)
    linked = [(e.src, e.dst, e.line) for es in s.incoming(["endpoint:* /one/{}"], ["CALLS_HTTP"]).values() for e in es]
    print(json.dumps({"total": found.total, "by_reason": found.by_reason,
                      "calls": [[c.line, c.call, c.reason, list(c.candidates)] for c in found.calls],
                      "linked": linked}))
    s.close()
"""


class TestOneNameOnManyRoutes:
    """100,000 Django routes named ``same`` and 4,000 ``reverse("same")`` requests: each request listed the
    name's paths again, counted their ``{}`` in each and sorted them all for its candidates (of which 5 are
    kept): ``ripple index`` was not done after 600 s. The name's paths are now indexed once
    (``route_names._Paths``): 152 s, most of it extracting and writing the 100,000 routes."""

    def test_ambiguous_name_and_the_one_path_of_its_arity(self) -> None:
        n, calls = 20_000, 2_000
        done = subprocess.run([sys.executable, "-c", _SAME_NAME, str(n), str(calls)], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        assert data["total"] == calls + 1 and data["by_reason"] == {"route_name_ambiguous": calls, "route_name": 1}
        first = ["/one/{}", "/s0/p0", "/s0/p1", "/s0/p10", "/s0/p100"]  # the 5 first in sorted order
        assert data["calls"] == [[5 + calls, 'GET reverse("same")', "route_name_ambiguous", first],
                                 [7 + calls, 'GET reverse("gone")', "route_name", []]]
        # one value given: the one path of that name taking one value
        # (a function view accepts any method: the request reaches its "*" endpoint, literal_paths)
        assert [(line, dst) for _, dst, line in data["linked"]] == [(6 + calls, "endpoint:* /one/{}")]


class TestMqttFilterTree:
    """5,000 MQTT wildcard subscriptions and 10,000 publishes: each publish split and compared every filter
    (``mqtt_matches``), 209 s of linking. The filters are now a tree of levels (``queues.MqttFilters``) each
    publish walks once (1.5 s, the same 20,009 produce links). Its answers equal ``mqtt_matches`` on every pair
    of 4,680 filters and 4,680 topics built from hostile levels (``#`` not last, ``$SYS``, empty levels, ``b#``,
    literal ``+`` / ``#`` in a topic)."""

    def test_same_answers_as_the_rule_on_every_pair(self) -> None:
        import itertools

        from indexer.frameworks.queues import MqttFilters, mqtt_matches
        filters = {"/".join(c) for n in range(1, 5)
                   for c in itertools.product(["a", "b", "", "+", "#", "$SYS", "b#", "x+"], repeat=n)}
        topics = {"/".join(c) for n in range(1, 5)
                  for c in itertools.product(["a", "b", "", "$SYS", "$x", "+", "#", "c"], repeat=n)}
        tree = MqttFilters(filters)
        assert tree.size == len(filters) == 4680
        assert [t for t in sorted(topics) if tree.matching(t) != sorted(f for f in filters if mqtt_matches(f, t))] == []
        assert tree.matching("a/b") == ["#", "+/#", "+/+", "+/+/#", "+/b", "+/b/#", "a/#", "a/+", "a/+/#", "a/b",
                                        "a/b/#"]
        assert tree.matching("$SYS/a") == ["$SYS/#", "$SYS/+", "$SYS/+/#", "$SYS/a", "$SYS/a/#"]  # no `#`, `+/a`

    def test_huge_topics_and_filters_stay_bounded(self) -> None:
        script = (
            "from indexer.frameworks.queues import MqttFilters\n"
            "t = MqttFilters(['+/' * 50_000 + '#', 'a/' * 200_000 + '#', '#/a', 'a/#/b', '#'])\n"
            "print(t.matching('a/' * 500_000), t.matching('x/' * 49_998 + 'x') == ['#'], t.matching('x/' * 49_999 + 'x') == ['#', '+/' * 50_000 + '#'], t.size)\n")
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-2000:]
        # a 1 MB topic of 500,001 levels: the filters of fewer levels ending in `#` match it; `#/a` and
        # `a/#/b` (a `#` before the last level) match nothing
        assert done.stdout.split("\n")[0] == str(["#", "+/" * 50_000 + "#", "a/" * 200_000 + "#"]) + " True True 5"


_PROJECT = {
    "manage.py": "import django\n",
    "proj/__init__.py": "",
    "proj/urls.py": "from django.urls import include, path\n\nurlpatterns = [path('shop/', include('app.urls'))]\n",
    "app/__init__.py": "",
    "app/views.py": "from django.http import HttpResponse\n\n\ndef v(request, *a, **k):\n    return HttpResponse('x')\n",
    "app/urls.py": ("from django.urls import include, path\n\nfrom app import views\n\napp_name = 'app'\n"
                    "urlpatterns = [path('x/', views.v, name='x')]\n"),
    "app/tests.py": ("from django.test import TestCase\nfrom django.urls import reverse\n\n\nclass T(TestCase):\n"
                     "    def test_x(self):\n        self.client.get(reverse('app:x'))\n"),
}


def _served_and_called(db: Path) -> tuple[list[str], list[tuple[str, int]]]:
    con = sqlite3.connect(db)
    try:
        rows_ = con.execute(
            "SELECT k.term, d.id, e.line FROM edge_rows e JOIN terms k ON k.tid = e.kind JOIN ids d ON d.nid = e.dst"
            " WHERE k.term IN ('EXPOSES', 'CALLS_HTTP')").fetchall()
    finally:
        con.close()
    return sorted(d for k, d, _ in rows_ if k == "EXPOSES"), sorted((d, ln) for k, d, ln in rows_ if k == "CALLS_HTTP")


class TestUrlconfIncludingItselfLive:
    """The watcher's index (and a one-shot run's) while a URLconf is edited to include itself, then the root
    URLconf and the app's to include each other, then back: each step equals a full index (the Workspace
    harness checks it) and names exactly the routes below: the cycle adds nothing and hangs nothing (held: no fix
    was needed)."""

    def test_self_include_edited_in_and_out(self, tmp_path: Path) -> None:
        from tests.unit.test_incremental import Workspace

        ws = Workspace(tmp_path, dict(_PROJECT))
        try:
            start = (["endpoint:* /shop/x"], [("endpoint:* /shop/x", 7)])  # a function view: any method
            assert _served_and_called(ws.db) == start
            looped = _PROJECT["app/urls.py"].replace("urlpatterns = [", "urlpatterns = [path('again/', include('app.urls')), ")
            ws.edit({"app/urls.py": looped})
            assert _served_and_called(ws.db) == _served_and_called(ws.cli_db) == start
            ws.edit({"app/urls.py": looped.replace("include('app.urls')", "include('proj.urls')")})  # a two-file ring
            # (each URLconf of the ring is mounted by the other, so none is the root: the route keeps its own path;
            # Django would serve /shop/x with proj.urls as ROOT_URLCONF. Left: docs/benchmarks.md, brk66b)
            ring = (["endpoint:* /x"], [("endpoint:* /x", 7)])
            assert _served_and_called(ws.db) == _served_and_called(ws.cli_db) == ring
            ws.edit({"app/urls.py": _PROJECT["app/urls.py"]})
            assert _served_and_called(ws.db) == _served_and_called(ws.cli_db) == start
        finally:
            ws.close()
