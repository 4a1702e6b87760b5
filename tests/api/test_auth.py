"""``ripple api``'s refusals at start-up and per request: a non-loopback bind without an API key, a
short key, a missing or wrong key (401), the right key (200); and a store that is down (503)."""

from __future__ import annotations

import socket
import subprocess
import sys

import httpx
import pytest

from tests.api.conftest import clean_env, copy_index, start_server, stop_server

KEY = "k" * 12 + "-secret-key-0123"


def run_api(tmp_path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lsp_server.cli", "api", "--db", str(tmp_path / "index.db"), *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, env=clean_env(**env))


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.1", "::"])
def test_non_loopback_without_key_refuses_to_start(tmp_path, host):
    done = run_api(tmp_path, "--host", host, "--port", "0")
    assert done.returncode == 2
    assert (f"{host} is not a loopback address: anyone who reaches it could read and change the index. Set an API "
            "key ($RIPPLE_API_KEY, or key in the [api] table of your configuration file), or bind to 127.0.0.1"
            ) in " ".join(done.stderr.split())
    assert not (tmp_path / "index.db").exists()  # refused before anything was opened


def test_short_key_refuses_to_start(tmp_path):
    done = run_api(tmp_path, "--port", "0", RIPPLE_API_KEY="short")
    assert done.returncode == 2
    assert "the API key must have at least 16 characters (it has 5)" in " ".join(done.stderr.split())


def test_port_in_use_is_a_message(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_api(tmp_path, "--port", str(port))
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr


def test_key_from_config_file(indexed, tmp_path):
    _, db = indexed
    config = tmp_path / "config.toml"
    config.write_text(f'[api]\nkey = "{KEY}"\n')
    config.chmod(0o600)
    srv = start_server(tmp_path, copy_index(db, tmp_path / "db"), env=clean_env(RIPPLE_CONFIG=str(config)))
    try:
        assert httpx.get(srv.url + "/v1/repositories").status_code == 401
        assert httpx.get(srv.url + "/v1/repositories", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200
    finally:
        stop_server(srv)


@pytest.fixture(scope="module")
def keyed(indexed, tmp_path_factory):
    _, db = indexed
    root = tmp_path_factory.mktemp("keyed")
    srv = start_server(root, copy_index(db, root / "db"), env=clean_env(RIPPLE_API_KEY=KEY))
    yield srv
    stop_server(srv)


@pytest.mark.parametrize("header", [None, "Bearer wrong-key-wrong-key", f"Basic {KEY}", f"Bearer {KEY}x", "Bearer"])
def test_missing_or_wrong_key_is_401(keyed, header):
    headers = {"Authorization": header} if header else {}
    for method, path, body in (("GET", "/v1/repositories", None), ("POST", "/v1/search", {"query": "owner"}),
                               ("DELETE", "/v1/repositories/petclinic", None)):
        r = httpx.request(method, keyed.url + path, json=body, headers=headers)
        assert r.status_code == 401, (method, path, r.text)
        assert r.headers["www-authenticate"] == "Bearer"
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json() == {"type": "https://ripplegraph.dev/problems/unauthorized", "title": "Unauthorized",
                            "status": 401, "detail": "send the server's API key as `Authorization: Bearer KEY`"}
    assert [r["name"] for r in httpx.get(keyed.url + "/v1/repositories", headers={"Authorization": f"Bearer {KEY}"}
                                         ).json()["repositories"]] == ["client", "petclinic"]


def test_right_key_is_200_and_documented(keyed):
    auth = {"Authorization": f"Bearer {KEY}"}
    r = httpx.post(keyed.url + "/v1/callers", json={"target": "OwnerRepository.findById"}, headers=auth)
    assert r.status_code == 200 and r.json()["count"] == 1
    spec = httpx.get(keyed.url + "/openapi.json").json()
    assert spec["components"]["securitySchemes"] == {"HTTPBearer": {
        "type": "http", "scheme": "bearer", "description": "The server's API key ($RIPPLE_API_KEY or [api] key)."}}
    assert spec["paths"]["/v1/search"]["post"]["security"] == [{"HTTPBearer": []}]


def test_store_down_is_503(indexed, tmp_path):
    """The graph on a Memgraph that is not running: every answer is a 503 problem, the server stays up."""
    _, db = indexed
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    env = clean_env(RIPPLE_GRAPH_BACKEND="memgraph", RIPPLE_MEMGRAPH_URI=f"bolt://127.0.0.1:{port}",
                    RIPPLE_MEMGRAPH_DIALECT="memgraph")
    srv = start_server(tmp_path, copy_index(db, tmp_path / "db"), env=env)
    try:
        health = httpx.get(srv.url + "/v1/health", timeout=60)
        assert health.status_code == 503
        body = health.json()
        assert body["status"] == "degraded"
        assert [(s["role"], s["backend"], s["ok"]) for s in body["stores"]] == [
            ("graph", "memgraph", False), ("search", "embedded", True)]
        for method, path, payload in (("GET", "/v1/repositories", None), ("POST", "/v1/callers", {"target": "x"}),
                                      ("POST", "/v1/search", {"query": "owner"})):
            r = httpx.request(method, srv.url + path, json=payload, timeout=60)
            assert r.status_code == 503, r.text
            assert r.headers["content-type"] == "application/problem+json"
            problem = r.json()
            assert problem["title"] == "Store unavailable"
            assert problem["detail"].startswith("the store did not answer: ")
            assert problem["detail"].endswith("check it is running (`ripple doctor` says what is wrong), then retry")
            assert "Traceback" not in problem["detail"]
        assert srv.proc.poll() is None
    finally:
        stop_server(srv)
