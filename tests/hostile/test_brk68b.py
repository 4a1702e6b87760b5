"""Session 68, brk68b: hostile input against session 67's additions and the known leftovers, each break with
its fix (docs/benchmarks.md, "Session 68, brk68b"). Exact expectations; a bound on time is a subprocess
timeout, never a timed assertion."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from mcp import Client

from lsp_server.api.app import ApiSettings, create_app
from lsp_server.cli import main
from lsp_server.mcp_server import Backend, build_server
from stores.config import load_config
from stores.contracts import RepositoryRecord
from tests.index_harness import index_files
from tests.unit.test_unlinked_calls import ADMIN, SHOP


@pytest.fixture(scope="module")
def unlinked_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """test_unlinked_calls's two repositories: five unlinked calls of three reasons."""
    base = tmp_path_factory.mktemp("brk68b_unlinked")
    path = base / "index.db"
    index_files(base / "shop", SHOP, "shop", path).close()
    s = index_files(base / "admin", ADMIN, "admin", path)
    s.upsert_repository(RepositoryRecord("admin", "admin", "backoffice", str(base / "admin")))
    s.close()
    return path


def _mcp_calls(db: Path, calls: list[tuple[str, dict]]) -> list[tuple[bool, str]]:
    """Each ``(tool, arguments)`` called through the MCP SDK's own client on an in-memory server:
    ``(is_error, first text line)`` in order."""

    async def go() -> list[tuple[bool, str]]:
        out = []
        async with Client(build_server(Backend([db]))) as client:
            for tool, args in calls:
                r = await client.call_tool(tool, args)
                out.append((r.is_error, r.content[0].text))
        return out

    return asyncio.run(asyncio.wait_for(go(), 120))


class TestIntegerArgumentsNotConverted:
    """The MCP SDK validates tool arguments with pydantic's lax mode: ``offset: true`` paged from 1,
    ``"5"`` and ``5.0`` from 5, ``limit: "2"`` listed 2 and a boolean ``tests: "yes"`` was true; REST
    bodies took ``limit: true`` and ``depth: "3"`` the same way, and REST query strings ``offset=5.0``,
    ``offset=%205`` and ``limit=1_0``. A client sending them has a bug it should hear of: MCP tool
    arguments and REST bodies are now strict (JSON integers and booleans only), REST query integers are
    decimal digits only; the CLI (click) already refused ``True`` and ``5.0``."""

    def test_mcp_refuses_booleans_strings_and_floats_for_integers(self, unlinked_db: Path) -> None:
        got = _mcp_calls(unlinked_db, [
            ("unlinked", {"offset": True}), ("unlinked", {"offset": "5"}), ("unlinked", {"offset": 5.0}),
            ("unlinked", {"limit": "2"}), ("unlinked", {"max_tokens": True}),
            ("search", {"query": "fetch", "tests": "yes"}), ("search", {"query": "fetch", "limit": False}),
            ("impact", {"target": "x", "depth": "3"}), ("references", {"target": "x", "include_declaration": 1}),
            ("endpoints", {"unserved": "true"}),
            ("unlinked", {"offset": 4, "limit": 2})])
        errors = [(bad, text.splitlines()[1:3]) for bad, text in got[:-1]]
        int_type = "  Input should be a valid integer [type=int_type, input_value={}, input_type={}]"
        bool_type = "  Input should be a valid boolean [type=bool_type, input_value={}, input_type={}]"
        assert errors == [
            (True, ["offset", int_type.format("True", "bool")]),
            (True, ["offset", int_type.format("'5'", "str")]),
            (True, ["offset", int_type.format("5.0", "float")]),
            (True, ["limit", int_type.format("'2'", "str")]),
            (True, ["max_tokens", int_type.format("True", "bool")]),
            (True, ["tests", bool_type.format("'yes'", "str")]),
            (True, ["limit", int_type.format("False", "bool")]),
            (True, ["depth", int_type.format("'3'", "str")]),
            (True, ["include_declaration", bool_type.format("1", "int")]),
            (True, ["unserved", bool_type.format("'true'", "str")])]
        assert [text.splitlines()[0] for _, text in got[:-1]] == [
            f"Error executing tool {tool}: 1 validation error for {tool}Arguments"
            for tool in ("unlinked",) * 5 + ("search",) * 2 + ("impact", "references", "endpoints")]
        ok, text = got[-1]
        assert (ok, text.splitlines()[0]) == (False, "# Unlinked calls (5-5 of 5)")

    def test_rest_refuses_them_in_bodies_and_query_strings(self, unlinked_db: Path) -> None:
        app = create_app(ApiSettings(load_config(unlinked_db.parent), unlinked_db, roots=[unlinked_db.parent]))
        with TestClient(app) as http:
            queries = [http.get("/v1/unlinked", params=p) for p in (
                {"offset": "5.0"}, {"offset": "True"}, {"offset": " 4"}, {"limit": "1_0"}, {"maxTokens": "300.0"})]
            bodies = [http.post(route, json=b) for route, b in (
                ("/v1/search", {"query": "fetch", "limit": True}), ("/v1/search", {"query": "fetch", "limit": "3"}),
                ("/v1/search", {"query": "fetch", "maxTokens": 300.0}), ("/v1/impact", {"target": "x", "depth": "3"}))]
            good = http.get("/v1/unlinked", params={"offset": "4", "limit": "2"}).json()
        assert [(r.status_code, r.json()["detail"]) for r in queries] == [
            (422, "offset: Value error, expected an integer in decimal digits, not '5.0'"),
            (422, "offset: Value error, expected an integer in decimal digits, not 'True'"),
            (422, "offset: Value error, expected an integer in decimal digits, not ' 4'"),
            (422, "limit: Value error, expected an integer in decimal digits, not '1_0'"),
            (422, "maxTokens: Value error, expected an integer in decimal digits, not '300.0'")]
        assert [(r.status_code, r.json()["detail"]) for r in bodies] == [
            (422, "limit: Input should be a valid integer"), (422, "limit: Input should be a valid integer"),
            (422, "maxTokens: Input should be a valid integer"), (422, "depth: Input should be a valid integer")]
        assert (good["total"], good["offset"], [(c["repo"], c["path"]) for c in good["calls"]]) == (
            5, 4, [("shop", "tasks.py")])

    def test_cli_refuses_them(self, unlinked_db: Path) -> None:
        out = [CliRunner().invoke(main, ["unlinked", "--db", str(unlinked_db), "--offset", v]) for v in ("True", "5.0")]
        assert [(r.exit_code, r.output.splitlines()[-1]) for r in out] == [
            (2, "Error: Invalid value for '--offset': 'True' is not a valid integer range."),
            (2, "Error: Invalid value for '--offset': '5.0' is not a valid integer range.")]
        data = json.loads(CliRunner().invoke(main, ["unlinked", "--db", str(unlinked_db), "--offset", "4",
                                                    "--json"]).stdout)
        assert (data["total"], data["offset"], len(data["calls"])) == (5, 4, 1)

