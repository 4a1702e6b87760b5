"""brk50's hostile inputs against session 49's work: what broke is tested here with exact values and
what must not be linked or read (inputs, sizes and times: docs/benchmarks.md, "brk50")."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from analysis.counting import CountingGraph
from analysis.endpoints import ENDPOINT_EDGES, endpoint_list
from indexer.frameworks.sql_dialect import h2_standard_form
from stores.contracts import Edge, GraphStore
from tests.golden.harness import index_files
from tests.resolution_harness import edges, resolve_fixture

_DEPS = "".join(f"\n\ndef dep{i}():\n    return {i}\n" for i in range(4))
RING = f'''from fastapi import APIRouter, Depends
from fastapi_utils.cbv import cbv

router = APIRouter()
{_DEPS}

class V0(V2):
    a: int = Depends(dep0)

    def __init__(self):
        self.x = 0


class V1(V0):
    b: int = Depends(dep1)


class V2(V1):
    c: int = Depends(dep2)
    a: int = Depends(dep3)


@cbv(router)
class W(V1):
    @router.get("/w")
    def get(self):
        return self.a
'''


def _rows(store, kinds: Sequence[str]) -> list[tuple[str, str, str]]:
    with sqlite3.connect(store.path) as con:
        return con.execute(
            "SELECT e.kind, s.qualname, e.dst FROM edges e JOIN nodes s ON s.id = e.src WHERE e.kind IN "
            f"({', '.join('?' * len(kinds))}) ORDER BY 1, 2, 3", list(kinds)).fetchall()


def test_a_class_view_whose_lineage_is_a_cycle_takes_each_attribute_once(tmp_path: Path) -> None:
    """``V0(V2)``, ``V1(V0)``, ``V2(V1)``: the lineage of ``W(V1)`` is a ring (Python refuses it at
    import; a repository may still hold it). Each attribute name once, nearest class first: ``a`` is
    V0's (``dep0``), not V2's (``dep3``)."""
    store = index_files(tmp_path / "src", {"app.py": RING}, "ring")
    try:
        assert _rows(store, ["EXPOSES", "WRAPS"]) == [
            ("EXPOSES", "W.get", "endpoint:GET /w"),
            ("WRAPS", "V0.__init__", "endpoint:GET /w"),
            ("WRAPS", "dep0", "endpoint:GET /w"),
            ("WRAPS", "dep1", "endpoint:GET /w"),
            ("WRAPS", "dep2", "endpoint:GET /w"),
        ]  # negative: dep3 (V2's `a`, replaced by V0's) wraps nothing
    finally:
        store.close()


def _ring_of_views(n: int) -> str:
    """``n`` classes in a ring, each with a ``Depends`` attribute, and ``n`` views each deriving from one:
    the generated input that took 240 s at 1,600 (every view's lineage read the file's Wrappers once per
    class: N^3)."""
    out = ["from fastapi import APIRouter, Depends", "from fastapi_utils.cbv import cbv", "router = APIRouter()",
           "def dep():\n    return 1"]
    out += [f"class V{i}(V{(i + 1) % n}):\n    user: int = Depends(dep)\n    def __init__(self):\n        self.x = {i}"
            for i in range(n)]
    out += [f"@cbv(router)\nclass W{i}(V{i}):\n    @router.get('/w{i}')\n    def get(self):\n        return self.user"
            for i in range(n)]
    return "\n".join(out) + "\n"


def test_a_file_of_views_in_a_ring_links_each_view_once(tmp_path: Path) -> None:
    """200 views over a ring of 200 classes: one ``dep`` and the nearest ``__init__`` wrap each route."""
    store = index_files(tmp_path / "src", {"app.py": _ring_of_views(200)}, "ring")
    try:
        rows = _rows(store, ["EXPOSES", "WRAPS"])
    finally:
        store.close()
    assert len(rows) == 600
    assert [r for r in rows if r[2] == "endpoint:GET /w7"] == [
        ("EXPOSES", "W7.get", "endpoint:GET /w7"), ("WRAPS", "V7.__init__", "endpoint:GET /w7"),
        ("WRAPS", "dep", "endpoint:GET /w7")]  # negative: no other class's __init__ (V8's, the ring's)


ROUTES = {"app.py": "from flask import Flask\n\napp = Flask(__name__)\n" + "".join(
    f"\n\n@app.route('/r{i:02d}/<int:k>')\ndef r{i:02d}(k):\n    return k\n" for i in range(30)),
    "client.py": "import requests\n\n\ndef poll():\n" + "".join(
        f"    requests.get('http://x/r00/{i}')\n" for i in range(5)) + "    requests.get('http://x/ext')\n"}


class Recording(CountingGraph):
    """Records the ids each ``incoming`` call asks for."""

    def __init__(self, inner: GraphStore) -> None:
        super().__init__(inner)
        self.asked: list[list[str]] = []

    def incoming(self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
                 ) -> dict[str, list[Edge]]:
        """Recorded, then forwarded."""
        self.asked.append(list(ids))
        return super().incoming(ids, kinds, resolutions)


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory):
    store = index_files(tmp_path_factory.mktemp("routes") / "src", ROUTES, "web")
    yield store
    store.close()


def test_the_endpoint_list_reads_the_edges_of_the_endpoints_it_shows_only(routes) -> None:
    """``ripple endpoints --limit 2`` over 30 served endpoints read all 31 endpoints' edges (100,000
    endpoints: every edge, whatever the limit); it reads the two it shows."""
    g = Recording(routes)
    found = endpoint_list(g, limit=2)
    assert [e.id for e in found.endpoints] == ["endpoint:GET /r00/{}", "endpoint:GET /r01/{}"]
    assert (found.total, found.left_out, found.unserved) == (30, 28, 1)
    assert [(e.clients, e.client_calls) for e in found.endpoints] == [(1, 5), (0, 0)]
    assert [h.route for e in found.endpoints for h in e.handlers] == ["/r00/<int:k>", "/r01/<int:k>"]
    assert g.asked == [["endpoint:GET /r00/{}", "endpoint:GET /r01/{}"]] and g.calls == 4
    # negative: none of the 28 endpoints left out, nor the unserved one, had its edges read
    g = Recording(routes)
    found = endpoint_list(g, limit=0)
    assert (found.endpoints, found.total, found.left_out, g.asked, g.calls) == ([], 30, 30, [], 2)


def test_the_filters_read_the_summary(routes) -> None:
    """The repository, match (the declared route too) and unserved filters decide on the summary."""
    g = Recording(routes)
    found = endpoint_list(g, match="<INT:K>", limit=3)
    assert ([e.id for e in found.endpoints], found.total) == (
        ["endpoint:GET /r00/{}", "endpoint:GET /r01/{}", "endpoint:GET /r02/{}"], 30)
    assert g.asked == [[e.id for e in found.endpoints]]
    found = endpoint_list(Recording(routes), match="r29")
    assert [e.id for e in found.endpoints] == ["endpoint:GET /r29/{}"]
    assert endpoint_list(routes, match="ext").total == 0  # negative: only called, not asked for
    found = endpoint_list(routes, match="ext", unserved=True)
    assert ([e.id for e in found.endpoints], [e.handlers for e in found.endpoints]) == (["endpoint:GET /ext"], [()])
    assert endpoint_list(routes, repo="other").total == 0  # negative: no edge of `other` touches them


def test_incoming_summary_is_the_reduction_of_incoming(routes) -> None:
    """The embedded store's SQL answers what the contract's default (reducing ``incoming``) answers."""
    ids = ["endpoint:GET /r00/{}", "endpoint:GET /ext", "endpoint:GET /r29/{}", "no such id"]
    for prop in (None, "route", "framework", "missing"):
        assert routes.incoming_summary(ids, ENDPOINT_EDGES, prop) == GraphStore.incoming_summary(
            routes, ids, ENDPOINT_EDGES, prop)
    assert routes.incoming_summary(ids, ENDPOINT_EDGES, "route") == {
        "endpoint:GET /r00/{}": {("EXPOSES", "web", "/r00/<int:k>"), ("CALLS_HTTP", "web", "")},
        "endpoint:GET /ext": {("CALLS_HTTP", "web", "")},
        "endpoint:GET /r29/{}": {("EXPOSES", "web", "/r29/<int:k>")},
        "no such id": set(),
    }
    assert routes.incoming_summary(ids, []) == dict.fromkeys(ids, set())  # no kinds: nothing
    assert routes.incoming_summary([], ENDPOINT_EDGES) == {}


def test_h2_drop_rewrite_reads_a_run_of_blanks_once() -> None:
    """``DROP TABLE a`` + 16,000 blanks + ``x``: the trailing-``IF EXISTS`` pattern backtracked over the
    run at every position (14 s for one statement; a 100,000-character statement, the most a script's
    statement may be, about 9 minutes). Exact rewrites kept; a run of 100,000 blanks in well under a second."""
    assert h2_standard_form("DROP TABLE vets IF EXISTS") == "DROP TABLE IF EXISTS vets"
    assert h2_standard_form("-- c\ndrop view a,  b\n if  exists cascade;") == "-- c\ndrop view IF EXISTS a,  b cascade;"
    assert h2_standard_form("DROP TABLE a" + " " * 5 + "b IF EXISTS;") == "DROP TABLE IF EXISTS a     b;"
    # negatives: already standard, an IF EXISTS past the statement's end, none at all, another word
    assert h2_standard_form("DROP TABLE IF EXISTS vets") is None
    assert h2_standard_form("DROP TABLE vets; DROP TABLE x IF EXISTS") is None
    assert h2_standard_form("DROP TABLE vets IF EXISTSX") is None
    assert h2_standard_form("DROP TABLES vets IF EXISTS") is None
    started = time.perf_counter()
    for blank in (" ", "\n", "\t "):
        hostile = "DROP TABLE a" + blank * 100_000 + "x"
        assert h2_standard_form(hostile) is None
        assert h2_standard_form(hostile + " IF EXISTS") == "DROP TABLE IF EXISTS a" + blank * 100_000 + "x"
    assert time.perf_counter() - started < 5  # before: hours (quadratic in the run)


def test_a_test_title_loses_its_invisible_format_characters() -> None:
    """A title holding U+202E (right-to-left override), an isolate, zero-width characters, the BOM or a
    C1 control (NEL) kept them raw in the test's name: the name read backwards or hid text in an answer.
    They are blanks now, as control characters were; letters of any script are kept (Hebrew here)."""
    fixture = ("// --- path: a.test.js ---\nfunction helper() {}\n"
               "describe('rev\u202eersed \u2067iso\u2069', () => {\n"
               "  it('zero\u200bwidth\ufeff \u0085next', () => { helper(); });\n"
               "  it('\u05e9\u05dc\u05d5\u05dd \u200fok', () => { helper(); });\n});\n")
    assert edges(resolve_fixture(fixture)) == [
        "a.test.describe rev ersed iso.it zero width next(0) -> a.test.helper(0) [exact]",
        "a.test.describe rev ersed iso.it \u05e9\u05dc\u05d5\u05dd ok(0) -> a.test.helper(0) [exact]",
    ]  # negative: no name holds U+202E, U+2067, U+200B, U+FEFF, U+0085 or U+200F
