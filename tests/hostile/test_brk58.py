"""Hostile suite, session 58 (brk58): what the newcomer run on bxcodec/go-clean-arch (an echo service) found,
and attacks on the indexer, the CLI and the stores. Every input is generated here (no committed blobs).

- :class:`TestEchoMethodConstants`: echo's own verb constants (``echo.POST``) in ``http.NewRequest`` and
  ``e.Add`` were read as "any method", and a request with an unknown method was linked as a GET: go-clean-arch's
  ``TestStore`` (``echo.POST``) and ``TestDelete`` (``echo.DELETE``) were clients of ``GET /article``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from indexer.languages.go.extractor import EXTRACTOR
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_dump import problems


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def index(root: Path, db: Path, repo: str = "r") -> Path:
    """Index ``root`` as ``repo`` into a fresh embedded store at ``db``; checked consistent."""
    store = EmbeddedStore(db)
    try:
        index_repository(root, store, store, IndexOptions(repo=repo, jobs=1))
    finally:
        store.close()
    assert problems(db) == []
    return db


def edges(db: Path, kind: str) -> list[tuple[str, str, int]]:
    """``(src, dst, line)`` of the edges of ``kind``, sorted."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return sorted(conn.execute("SELECT src, dst, line FROM edges WHERE kind = ?", (kind,)).fetchall())
    finally:
        conn.close()


# ------------------------------------------------------------------ newcomer: echo's verb constants

ECHO_REST = '''package rest

import (
    "net/http"

    "github.com/labstack/echo/v4"
)

type H struct{}

func (h *H) Patch(c echo.Context) error { return nil }
func (h *H) Put(c echo.Context) error { return nil }

func Register(e *echo.Echo, h *H, verb string) {
    e.Add(echo.PATCH, "/items/:id", h.Patch)
    e.Add(http.MethodPut, "/items", h.Put)
    e.Add(verb, "/dynamic", h.Put)
}
'''

ECHO_TEST = '''package rest

import (
    "context"
    "net/http"
    "testing"

    "github.com/labstack/echo/v4"
    other "example.com/other"
)

func TestStore(t *testing.T) {
    http.NewRequestWithContext(context.TODO(), echo.POST, "/items", nil)
}

func TestDelete(t *testing.T) {
    http.NewRequest(echo.DELETE, "/items/"+id, nil)
}

func TestOther(t *testing.T) {
    http.NewRequest(other.PATCH, "/items/1", nil)
    http.NewRequest(echo.Nope, "/items/2", nil)
}
'''


class TestEchoMethodConstants:
    def test_echo_verb_constants_are_the_methods_of_requests_and_routes(self) -> None:
        ex = EXTRACTOR.extract("rest/a.go", ECHO_REST.encode())
        assert [(r.framework, r.methods, r.path.literal(), r.handler_ref) for r in ex.routes] == [
            ("echo", ["PATCH"], "/items/:id", "h.Patch"),
            ("echo", ["PUT"], "/items", "h.Put"),
        ]  # `e.Add(verb, ...)`: a method nobody states is no route
        ex = EXTRACTOR.extract("rest/a_test.go", ECHO_TEST.encode())
        # `other.PATCH` is a package's constant too (a verb name), `echo.Nope` is no verb: any method
        assert [(c.method, c.caller) for c in ex.http_calls] == [
            ("POST", "TestStore"), ("DELETE", "TestDelete"), ("PATCH", "TestOther"), ("*", "TestOther")]

    def test_a_local_value_named_like_a_verb_is_no_method(self) -> None:
        src = ECHO_TEST.replace("echo.POST", "req.POST").replace("func TestStore(t *testing.T) {",
                                                                "func TestStore(t *testing.T) {\n    req := x()")
        ex = EXTRACTOR.extract("rest/a_test.go", src.encode())
        assert [c.method for c in ex.http_calls if c.caller == "TestStore"] == ["*"]

    def test_the_requests_link_to_the_endpoints_of_their_verbs(self, tmp_path: Path) -> None:
        root = write_tree(tmp_path / "svc", {"go.mod": "module example.com/svc\n\ngo 1.21\n",
                                             "rest/a.go": ECHO_REST, "rest/a_test.go": ECHO_TEST})
        db = index(root, tmp_path / "x.db")
        assert edges(db, "EXPOSES") == [
            ("r:rest/a.H.Patch(1)", "endpoint:PATCH /items/{}", 15),
            ("r:rest/a.H.Put(1)", "endpoint:PUT /items", 16),
        ]
        assert edges(db, "CALLS_HTTP") == [
            ("r:rest/a_test.TestDelete(1)", "endpoint:DELETE /items/{}", 17),
            ("r:rest/a_test.TestOther(1)", "endpoint:GET /items/2", 22),  # unknown method: GET, as fetch; no route: as written
            ("r:rest/a_test.TestOther(1)", "endpoint:PATCH /items/{}", 21),
            ("r:rest/a_test.TestStore(1)", "endpoint:POST /items", 13),
        ]
