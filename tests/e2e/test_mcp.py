"""``ripple mcp`` through the MCP SDK's own client: over stdio (the server a subprocess) and over
streamable HTTP (a free port), on two repositories indexed into one file by ``ripple index``. Lists
the tools, calls each one for exact answers, and checks that bad arguments, a missing index and a
store that is down come back as tool errors from a server that keeps answering."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from lsp_server.cli import main
from lsp_server.mcp_server import TOOLS, AnswerModel

ROOT = Path(__file__).resolve().parents[1]
SHOP = ROOT / "fixtures" / "agent-shop"
PETCLINIC = ROOT / "lsp" / "workspace" / "petclinic"
RIPPLE = str(Path(sys.executable).parent / "ripple")


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("mcp") / "shop.db"
    for folder, repo in ((SHOP, "agent-shop"), (PETCLINIC, "petclinic")):
        result = CliRunner().invoke(main, ["index", str(folder), "--repo", repo, "--db", str(path), "--json"])
        assert result.exit_code == 0, result.output
    return path


def stdio(*args: str, env: dict[str, str] | None = None) -> Client:
    # The SDK passes the server a few variables only (HOME, PATH, ...): the session's cache folder
    # (where `ripple index` recorded each repository's folder) is passed on, and PYTHONPATH when set
    # (a virtualenv shared by several checkouts: the server must run this checkout's code).
    keep = {k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}
    env = {"XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"], **keep, **(env or {})}
    return Client(StdioServerParameters(command=RIPPLE, args=["mcp", *args], env=env, cwd=str(ROOT)))


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


async def call(client: Client, tool: str, args: dict) -> tuple[dict, str]:
    r = await client.call_tool(tool, args)
    assert not r.is_error, r.content[0].text
    AnswerModel.model_validate(r.structured_content)
    return r.structured_content, r.content[0].text


async def error(client: Client, tool: str, args: dict) -> str:
    r = await client.call_tool(tool, args)
    assert r.is_error
    return r.content[0].text


async def exercise(client: Client) -> None:
    """Every tool once, with exact answers."""
    listed = await client.list_tools()
    assert [t.name for t in listed.tools] == list(TOOLS)
    for t in listed.tools:
        assert t.description and t.output_schema["title"] == "AnswerModel"
        assert t.annotations.read_only_hint is True
    schema = {t.name: t.input_schema for t in listed.tools}
    assert schema["search"]["required"] == ["query"]
    assert schema["search"]["properties"]["limit"]["maximum"] == 100
    assert schema["impact"]["properties"]["tests"]["enum"] == ["apart", "include", "exclude", "only"]

    data, text = await call(client, "search", {"query": "validate", "limit": 2})
    top = data["result"]["hits"][0]
    assert (top["id"], top["path"], top["line"]) == ("agent-shop:shop/service.validate(1)", "shop/service.py", 20)
    assert top["callers"] == {"count": 1, "names": ["shop.service.OrderService.place"]}
    assert top["source"].startswith('def validate(order):\n    """Refuse an order without items."""')
    assert [s["name"] for s in data["steps"]] == ["Load query model", "Hybrid search", "Graph context"]
    assert "```python\ndef validate(order):" in text and text.rstrip().splitlines()[-2].startswith("| Hybrid search |")

    data, text = await call(client, "symbol", {"target": "shop/api.py:13"})
    (d,) = data["result"]["definitions"]
    assert (d["id"], d["signature"], d["endpoints"]) == ("agent-shop:shop/api.create_order(1)",
                                                         "def create_order(order: dict)", ["POST /orders"])
    assert [c["name"] for c in d["callees"]] == ["shop.service.OrderService.place"]

    data, text = await call(client, "callers", {"target": "OrderRepository.save"})
    assert [(c["from_name"], c["line"], c["col"], c["resolution"]) for c in data["result"]["callers"]] == [
        ("shop.service.OrderService.place", 12, 32, "exact"), ("shop.service.OrderService.cancel", 17, 32, "exact")]
    # path:line:col as `ripple callers` prints it (one repository among the sites: no repository in front)
    assert "\n- shop/service.py:12:32 `shop.service.OrderService.place` [exact]\n" in text
    assert "agent-shop/shop/" not in text
    data, _ = await call(client, "callers", {"target": "OrderService.place", "resolution": ["inferred"]})
    assert [c["from_name"] for c in data["result"]["callers"]] == ["shop.api.create_order"]

    data, _ = await call(client, "callees", {"target": "agent-shop:shop/service.OrderService.cancel(1)"})
    assert [c["name"] for c in data["result"]["callees"]] == ["shop.repository.OrderRepository.find",
                                                              "shop.repository.OrderRepository.save"]

    data, _ = await call(client, "references", {"target": "OrderRepository"})
    assert [(r["kind"], r["path"], r["line"]) for r in data["result"]["references"]] == [
        ("CALLS", "shop/api.py", 9), ("USES_TYPE", "shop/service.py", 7), ("CALLS", "tests/check_service.py", 6)]
    data, _ = await call(client, "references", {"target": "Owner.getId", "include_declaration": True})
    assert [(r["kind"], r["repo"], r["path"], r["line"]) for r in data["result"]["references"]] == [
        ("DECLARATION", "petclinic", "src/main/java/org/example/Owner.java", 10),
        ("CALLS", "petclinic", "src/main/java/org/example/OwnerController.java", 16)]

    data, text = await call(client, "impact", {"target": "OrderRepository.save"})
    report = data["result"]["report"]
    assert report["summary"]["text"] == "2 callers · 2 endpoints · 1 test"
    assert [(e["http_method"], e["path"], e["hops"]) for e in report["endpoints"]] == [
        ("POST", "/orders", 2), ("DELETE", "/orders/{}", 2)]
    assert text.startswith("# Blast radius of `OrderRepository.save`") and text.count("## Steps executed") == 1
    data, _ = await call(client, "impact", {"target": "OrderRepository.save", "depth": 1, "tests": "exclude"})
    assert data["result"]["report"]["callers_by_hop"] == [2]

    data, _ = await call(client, "similar", {"target": "OrderRepository.find", "limit": 3})
    hits = [h["id"] for h in data["result"]["hits"]]
    assert len(hits) == 3 and "agent-shop:shop/repository.OrderRepository.find(1)" not in hits
    again, _ = await call(client, "similar", {"chunk_id": "agent-shop:shop/repository.OrderRepository.find(1)",
                                              "limit": 3})
    assert [h["id"] for h in again["result"]["hits"]] == hits

    data, text = await call(client, "repositories", {})
    repos = data["result"]["repositories"]
    assert [(r["name"], r["files"], r["root"], r["changed_files"]) for r in repos] == [
        ("agent-shop", 5, str(SHOP), 0), ("petclinic", 3, str(PETCLINIC), 0)]
    assert "| agent-shop | 5 |" in text

    data, text = await call(client, "endpoints", {})
    assert [(e["method"], e["path"], [(h["name"], h["path"], h["line"], h["route"], h["framework"]) for h in e["handlers"]],
             e["clients"]) for e in data["result"]["endpoints"]] == [
        ("POST", "/orders", [("shop.api.create_order", "shop/api.py", 12, "/orders", "fastapi")], 0),
        ("DELETE", "/orders/{}", [("shop.api.cancel_order", "shop/api.py", 17, "/orders/{order_id}", "fastapi")], 0)]
    assert (data["result"]["total"], data["result"]["left_out"]) == (2, 0)
    assert "\n- DELETE /orders/{order_id} -> shop.api.cancel_order (shop/api.py:17, fastapi)\n" in text
    data, text = await call(client, "endpoints", {"match": "orders", "limit": 1})
    assert [e["id"] for e in data["result"]["endpoints"]] == ["endpoint:POST /orders"]
    assert (data["result"]["total"], data["result"]["left_out"]) == (2, 1) and "1 more beyond the limit" in text
    data, _ = await call(client, "endpoints", {"match": "DELETE", "repo": "petclinic"})  # served by agent-shop only
    assert (data["result"]["endpoints"], data["result"]["total"]) == ([], 0)

    small, text = await call(client, "search", {"query": "order", "max_tokens": 400})
    assert small["truncated"] and small["truncated"][-1].startswith("showing ")
    assert small["budget"]["max_tokens"] == 400 and small["budget"]["tokens"] <= 400
    assert small["budget"]["counted_by"] == "bundled tokenizer (all-MiniLM-L6-v2 WordPiece)"
    assert "**Truncated:** " in text

    assert "'__init__' names 2 different symbols" in await error(client, "symbol", {"target": "__init__"})
    missing = await error(client, "callers", {"target": "OrderServ"})
    assert "no symbol matches 'OrderServ'; closest names: shop.service.OrderService" in missing
    assert "greater than or equal to 1" in await error(client, "search", {"query": "x", "limit": 0})
    assert "either target" in await error(client, "similar", {})
    assert "is not a file of the index" in await error(client, "impact", {"target": "nowhere.py:3"})


def test_stdio_every_tool(db):
    async def main_():
        async with stdio("--db", str(db)) as client:
            await exercise(client)

    run(main_())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


KEY = "k" * 8 + "-mcp-test-key-0123"


def _start_http(db: Path, log: Path, host_port: str, *extra: str, env: dict[str, str] | None = None):
    env = {**{k: v for k, v in os.environ.items() if k != "RIPPLE_API_KEY"}, **(env or {})}
    with log.open("w") as err:
        proc = subprocess.Popen([RIPPLE, "mcp", "--db", str(db), "--http", host_port, *extra], stderr=err,
                                stdin=subprocess.DEVNULL, cwd=str(ROOT), env=env)
    deadline = time.monotonic() + 60
    while not (m := re.search(r"ripple mcp: listening on (http://[^ ]+/mcp); (.*)\n", log.read_text())):
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)
    return proc, m[1], m[2]


def test_streamable_http_every_tool(db, tmp_path):
    log = tmp_path / "stderr.txt"
    proc, url, note = _start_http(db, log, "127.0.0.1:0")
    assert note == "no API key (loopback only)"
    try:
        async def main_():
            async with Client(url) as client:
                await exercise(client)

        run(main_())
        # DNS rebinding: a page elsewhere cannot reach the loopback server under another host name.
        refused = httpx.post(url, headers={"Host": "attacker.example", "Accept": "application/json, text/event-stream"},
                             json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert refused.status_code == 421 and "Invalid Host header" in refused.text
    finally:
        proc.terminate()
        proc.wait(10)
    assert "Traceback" not in log.read_text()


def test_missing_index_is_a_tool_error_until_it_exists(tmp_path):
    db = tmp_path / "later.db"

    async def main_():
        async with stdio("--db", str(db)) as client:
            assert f"no index at {db}" in await error(client, "callers", {"target": "OrderRepository.save"})
            assert len((await client.list_tools()).tools) == len(TOOLS)  # still serving
            result = CliRunner().invoke(main, ["index", str(SHOP), "--repo", "agent-shop", "--db", str(db), "--no-embed"])
            assert result.exit_code == 0, result.output
            data, _ = await call(client, "callers", {"target": "OrderRepository.save"})
            assert data["result"]["count"] == 2

    run(main_())


def test_graph_store_down_is_a_tool_error(db):
    port = _free_port()  # nothing listens there
    env = {"RIPPLE_GRAPH_BACKEND": "memgraph", "RIPPLE_MEMGRAPH_URI": f"bolt://127.0.0.1:{port}"}

    async def main_():
        async with stdio("--db", str(db), env=env) as client:
            for _ in range(2):
                message = await error(client, "callers", {"target": "OrderRepository.save"})
                assert message.startswith("Error executing tool callers: the index cannot answer: graph store "
                                          f"bolt://127.0.0.1:{port} is unreachable")
                assert "ripple doctor" in message
            assert len((await client.list_tools()).tools) == len(TOOLS)

    t0 = time.perf_counter()
    run(main_())
    assert time.perf_counter() - t0 < 60


@pytest.mark.parametrize("args, message", [
    (["--http", "10.1.2.3:8000"], "10.1.2.3 is not a loopback address"),
    (["--http", "localhost"], "expected HOST:PORT"),
    (["--allow-remote"], "only with --http"),
])
def test_bad_command_lines(args, message):
    result = CliRunner().invoke(main, ["mcp", *args])
    assert result.exit_code == 2 and message in result.output


def test_answers_are_json_documents(db):
    async def main_():
        async with stdio("--db", str(db)) as client:
            r = await client.call_tool("repositories", {})
            assert json.loads(json.dumps(r.structured_content)) == r.structured_content

    run(main_())


def test_allow_remote_refuses_to_start_without_an_api_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "RIPPLE_API_KEY"}
    done = subprocess.run([RIPPLE, "mcp", "--http", "0.0.0.0:0", "--allow-remote"], capture_output=True, text=True,
                          env=env, cwd=str(tmp_path), timeout=60)
    assert done.returncode == 2
    assert "0.0.0.0 is not a loopback address: anyone who reaches it could read and change the index. Set an API " \
           "key ($RIPPLE_API_KEY, or key in the [api] table" in done.stderr
    short = subprocess.run([RIPPLE, "mcp", "--http", "0.0.0.0:0", "--allow-remote"], capture_output=True, text=True,
                           env={**env, "RIPPLE_API_KEY": "short"}, cwd=str(tmp_path), timeout=60)
    assert short.returncode == 2 and "the API key must have at least 16 characters (it has 5)" in short.stderr


def test_http_with_an_api_key_needs_it_on_every_request(db, tmp_path):
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    log = tmp_path / "stderr.txt"
    # Bound to every interface (--allow-remote), reached on loopback.
    proc, url, note = _start_http(db, log, "0.0.0.0:0", "--allow-remote", env={"RIPPLE_API_KEY": KEY})
    url = url.replace("0.0.0.0", "127.0.0.1")
    assert note == "clients send the API key"
    try:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        accept = {"Accept": "application/json, text/event-stream"}
        for headers in ({}, {"Authorization": "Bearer wrong-key-of-enough-length"}, {"Authorization": KEY},
                        {"Authorization": f"Basic {KEY}"}):
            r = httpx.post(url, headers={**accept, **headers}, json=body)
            assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer", headers
            assert r.json() == {"error": "unauthorized: send the server's API key as Authorization: Bearer KEY"}

        statuses: list[int] = []

        async def record(response) -> None:
            statuses.append(response.status_code)

        async def without_key():
            http = create_mcp_http_client()
            http.event_hooks["response"].append(record)
            async with http, Client(streamable_http_client(url, http_client=http)) as client:
                await client.list_tools()

        with pytest.raises(BaseException):  # noqa: B017 - the SDK reports a 401 as an MCPError inside task groups
            run(without_key())
        assert statuses and set(statuses) == {401}

        async def with_key():
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {KEY}"})
            async with http, Client(streamable_http_client(url, http_client=http)) as client:
                assert [t.name for t in (await client.list_tools()).tools] == list(TOOLS)
                data, _ = await call(client, "callers", {"target": "OrderRepository.save"})
                assert data["result"]["count"] == 2

        run(with_key())
    finally:
        proc.terminate()
        proc.wait(10)
    assert "Traceback" not in log.read_text()
