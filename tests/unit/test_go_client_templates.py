"""Go HTTP client functions whose method (and URL) their callers choose: ``http.NewRequest(method,
c.base+path, body)`` in ``func (c *Client) do(method, path string, ...)`` is linked, for each call
passing a method and a path, with that method and path (not as ``GET``); a function with a fixed URL and
a method parameter too, and a URL held in a local given one value; calls passing no method or no path
do not link there."""

from __future__ import annotations

from tests.resolution_harness import edges, extract_fixture, resolve_fixture

FIXTURE = """
// --- path: server/routes.go ---
package server

import "net/http"

func Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /users", createUser)
	mux.HandleFunc("DELETE /users/{id}", deleteUser)
	mux.HandleFunc("PUT /ping", ping)
}

func createUser(w http.ResponseWriter, r *http.Request) {}
func deleteUser(w http.ResponseWriter, r *http.Request) {}
func ping(w http.ResponseWriter, r *http.Request)       {}
// --- path: client/client.go ---
package client

import (
	"fmt"
	"net/http"
)

type Client struct{ base string }

func (c *Client) do(method, path string) (*http.Response, error) {
	req, err := http.NewRequest(method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

func (c *Client) CreateUser() { c.do(http.MethodPost, "/users") }

func (c *Client) DeleteUser(id string) { c.do("delete", fmt.Sprintf("/users/%s", id)) }

func (c *Client) Unknown(m string) { c.do(m, "/users") }

func send(method string) {
	http.NewRequest(method, "http://users/ping", nil)
}

func Ping() { send("PUT") }

func Label(name string) { fmt.Println("/users", name) }

const base = "http://users"

func Do(method string, endpoint string) {
	url := base + endpoint
	http.NewRequest(method, url, nil)
}

func Twice(method, endpoint string) {
	u := base + endpoint
	u = u + "?x=1"
	http.NewRequest(method, u, nil)
}

func Stop() { Do("DELETE", "/admin/stop"); Twice("PUT", "/admin/twice") }
"""


def test_calls_of_a_client_function_are_reported_with_their_method_and_path() -> None:
    found = [(u.callee, [a.parts if a is not None else None for a in u.args], u.caller, u.params)
             for ex, _, _ in extract_fixture(FIXTURE) for u in ex.url_arg_calls]
    assert found == [
        ("c.do", [(("lit", "POST"),), (("lit", "/users"),)], "Client.CreateUser", ()),
        ("c.do", [(("lit", "DELETE"),), (("lit", "/users/"), ("ref", "id"))], "Client.DeleteUser", ("id",)),
        ("c.do", [(("ref", "m"),), (("lit", "/users"),)], "Client.Unknown", ("m",)),
        ("send", [(("lit", "PUT"),)], "Ping", ()),
        ("Do", [(("lit", "DELETE"),), (("lit", "/admin/stop"),)], "Stop", ()),
        ("Twice", [(("lit", "PUT"),), (("lit", "/admin/twice"),)], "Stop", ()),
    ]  # mux.HandleFunc and fmt.Println: routes / the standard library, no client function
    calls = [(h.method, h.method_param, h.url.parts, h.caller) for ex, _, _ in extract_fixture(FIXTURE)
             for h in ex.http_calls]
    assert calls == [
        ("*", "method", (("hole", "c.base"), ("ref", "path")), "Client.do"),
        ("*", "method", (("lit", "http://users/ping"),), "send"),
        ("*", "method", (("lit", "http://users"), ("ref", "endpoint")), "Do"),
    ]  # Twice: its local u is given two values, no URL known


def test_each_call_links_with_the_method_it_passes() -> None:
    assert edges(resolve_fixture(FIXTURE), "CALLS_HTTP") == [
        "client/client.Client.CreateUser(0) -> endpoint:POST /users",
        "client/client.Client.DeleteUser(1) -> endpoint:DELETE /users/{}",
        "client/client.Client.Unknown(1) -> endpoint:GET /users",
        "client/client.Ping(0) -> endpoint:PUT /ping",
        "client/client.Stop(0) -> endpoint:DELETE /admin/stop",
    ]  # not Client.do -> GET /{}, not send -> GET /ping (their callers choose); Unknown's method is
    # a parameter nobody calls with: unknown, linked as GET as every unknown method is
