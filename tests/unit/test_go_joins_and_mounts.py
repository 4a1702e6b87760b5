"""Go URLs joined by ``path.Join`` / ``url.JoinPath`` and chi routers mounted from a function's result keeping the
parent's middleware (session 67, acc67c): exact URL templates, exact links and wrappers, and the negatives (a
reassigned result, a ``Join`` of the application's own package, a parent without middleware)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from indexer.languages import extractor_for_path
from tests.unit.test_incremental import Workspace

GO_MOD = "module example.com/app\n\ngo 1.21\n"

CLIENT = """package client

import (
	"net/http"
	"net/url"
	gopath "path"

	"example.com/app/paths"
)

const base = "http://orders:8080"

func Joins(id string) {
	http.Get(base + gopath.Join("/api/items", id))
	http.Get(base + gopath.Join("/api//", "", "users/", id, "/"))
	j, _ := url.JoinPath(base, "api", "carts", id)
	http.Get(j)
	s, err := url.JoinPath(base, "/api/x/")
	if err != nil {
		return
	}
	http.Post(s, "application/json", nil)
	r, _ := url.JoinPath(base, "api", "reassigned")
	r = base + "/other"
	http.Get(r)
	http.Get(base + paths.Join("/api", "own"))
}
"""


def _urls(path: str, text: str) -> list[tuple[int, str, tuple]]:
    ex = extractor_for_path(path).extract(path, text.encode())
    return [(c.line, c.method, c.url.parts) for c in ex.http_calls]


def test_path_join_and_url_join_path_build_the_url() -> None:
    assert _urls("client/c.go", CLIENT) == [
        (14, "GET", (("lit", "http://orders:8080/api/items/"), ("ref", "id"))),
        # runs of '/' made one, the empty element left out, the trailing '/' cleaned away (path.Join)
        (15, "GET", (("lit", "http://orders:8080/api/users/"), ("ref", "id"))),
        (17, "GET", (("lit", "http://orders:8080/api/carts/"), ("ref", "id"))),
        # url.JoinPath keeps the last element's trailing '/'; the (string, error) pair gives `s` the string
        (22, "POST", (("lit", "http://orders:8080/api/x/"),)),
        # `r` is given two values: not followed, no request (line 25); the application's own `paths.Join` is a call
        # the linker folds when it builds a URL, as before
        (26, "GET", (("lit", "http://orders:8080"), ("ref", 'call:paths.Join[[["lit","/api"]],[["lit","own"]]]'))),
    ]


MAIN = """package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

func auth(next http.Handler) http.Handler  { return next }
func audit(next http.Handler) http.Handler { return next }
func trace(next http.Handler) http.Handler { return next }

func list(w http.ResponseWriter, r *http.Request)   {}
func ban(w http.ResponseWriter, r *http.Request)    {}
func ping(w http.ResponseWriter, r *http.Request)   {}
func status(w http.ResponseWriter, r *http.Request) {}

func adminRouter() http.Handler {
	r := chi.NewRouter()
	r.Use(audit)
	r.Get("/users", list)
	r.Post("/ban", ban)
	return r
}

func publicRouter() http.Handler {
	r := chi.NewRouter()
	r.Get("/status", status)
	return r
}

func main() {
	r := chi.NewRouter()
	r.Mount("/public", publicRouter())
	r.Get("/ping", ping)
	r.Use(auth)
	r.Mount("/admin", adminRouter())
	r.With(trace).Mount("/traced", publicRouter())
	http.ListenAndServe(":3000", r)
}
"""


def _edges(db: Path, kind: str) -> list[tuple[str, str]]:
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT src, dst FROM edges WHERE kind = ?", (kind,)).fetchall()
    finally:
        conn.close()
    return sorted((src.split(":", 1)[1], dst.removeprefix("endpoint:")) for src, dst in rows)


def test_chi_mount_of_a_returned_router_keeps_the_parents_middleware(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, {"go.mod": GO_MOD, "main.go": MAIN})
    try:
        assert _edges(ws.db, "EXPOSES") == [
            ("main.ban(2)", "POST /admin/ban"), ("main.list(2)", "GET /admin/users"), ("main.ping(2)", "GET /ping"),
            ("main.status(2)", "GET /public/status"), ("main.status(2)", "GET /traced/status")]
        # auth runs before the admin router's own audit; /public was mounted before `Use(auth)` and its parent
        # had no middleware then: no wrapper; `With(trace)` wraps the router mounted through it only
        assert _edges(ws.db, "WRAPS") == [
            ("main.audit(1)", "GET /admin/users"), ("main.audit(1)", "POST /admin/ban"),
            ("main.auth(1)", "GET /admin/users"), ("main.auth(1)", "GET /traced/status"),
            ("main.auth(1)", "POST /admin/ban"), ("main.trace(1)", "GET /traced/status")]
        # the parent's middleware edited alone: the mounted routes follow (checked against a full index)
        ws.edit({"main.go": MAIN.replace("r.Use(auth)\n", "")})
        assert _edges(ws.db, "WRAPS") == [
            ("main.audit(1)", "GET /admin/users"), ("main.audit(1)", "POST /admin/ban"),
            ("main.trace(1)", "GET /traced/status")]
    finally:
        ws.close()


SERVER = """package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

func cart(w http.ResponseWriter, r *http.Request) {}

func main() {
	r := chi.NewRouter()
	r.Get("/api/carts/{id}", cart)
	http.ListenAndServe(":8080", r)
}
"""


def test_a_joined_url_links_to_the_route(tmp_path: Path) -> None:
    client = ("package client\n\nimport (\n\t\"net/http\"\n\t\"net/url\"\n)\n\n"
              "func Cart(base, id string) {\n\tu, _ := url.JoinPath(base, \"api\", \"carts\", id)\n\thttp.Get(u)\n}\n\n"
              "func Other(base, id string) {\n\tu, _ := url.JoinPath(base, \"api\", \"carts\")\n\tu = base\n\thttp.Get(u)\n}\n")
    ws = Workspace(tmp_path, {"go.mod": GO_MOD, "server/main.go": SERVER, "client/c.go": client})
    try:
        assert [e for e in _edges(ws.db, "CALLS_HTTP") if e[1].startswith("GET ")] == [
            ("client/c.Cart(2)", "GET /api/carts/{}")]
    finally:
        ws.close()
