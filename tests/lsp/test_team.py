"""``ripple serve`` on a team configuration: a graph store that is down (the server keeps answering what
it can and says why), and the read-only mode where a central indexer owns the index (the Bolt graph
written by ``ripple index``, the server only reading it)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.test_server import BOLT_ENV, JAVA, SERVER, WORKSPACE, backend_env

pytestmark = pytest.mark.asyncio(loop_scope="function")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def session(env: dict[str, str], folders: list[Path]) -> LanguageClient:
    client = await ClientServerConfig(server_command=SERVER, server_env=env).start(devtools=None)
    caps = types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True))
    await client.initialize_session(types.InitializeParams(
        capabilities=caps, workspace_folders=[types.WorkspaceFolder(f.as_uri(), f.name) for f in folders]))
    return client


async def wait_for(predicate, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def test_a_graph_store_that_is_down_is_said_and_the_server_keeps_answering(tmp_path: Path):
    ws = tmp_path / "petclinic"
    shutil.copytree(WORKSPACE / "petclinic", ws)
    port = closed_port()
    env = {**backend_env("embedded"), "RIPPLE_GRAPH_BACKEND": "memgraph", "RIPPLE_MEMGRAPH_DIALECT": "neo4j",
           "RIPPLE_MEMGRAPH_URI": f"bolt://127.0.0.1:{port}", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    client = await session(env, [ws])
    try:
        await wait_for(lambda: any("unreachable" in m.message for m in client.messages))
        [down] = [m for m in client.messages if m.message.startswith("ripple: the graph store")]
        assert down.type == types.MessageType.Error
        assert down.message.startswith(f"ripple: the graph store bolt://127.0.0.1:{port} is unreachable (")
        assert down.message.endswith("answers that need it fail until it is back, the server reconnects by itself")
        with pytest.raises(JsonRpcException, match=f"bolt://127.0.0.1:{port}") as failed:
            await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="Owner"))
        assert failed.value.code == -32803  # RequestFailed: an answer, not a dead server
        status = await client.protocol.send_request_async("ripple/indexStatus", {})
        assert [f.repo for f in status.folders] == ["petclinic"]
        await wait_for(lambda: any("waits for the stores" in m.message for m in client.messages))
        await asyncio.sleep(3.5)  # several retries later: each outage is said once
        assert [m.message for m in client.messages if "waits for the stores" in m.message] == [
            "ripple: indexing petclinic waits for the stores; it starts again by itself once they answer"]
        assert len([m for m in client.messages if m.message.startswith("ripple: the graph store")]) == 1
        # Still serving: the file's text needs no store.
        content = await client.protocol.send_request_async("ripple/fileContent", {"uri": (ws / f"{JAVA[10:]}/Owner.java").as_uri()})
        assert "class Owner" in content.text
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.skipif(not os.environ.get(BOLT_ENV), reason=f"set {BOLT_ENV} (a Bolt URI, or `start`) to run the Bolt backend")
async def test_read_only_server_answers_from_the_central_bolt_graph(tmp_path: Path):
    ws = tmp_path / "petclinic"
    shutil.copytree(WORKSPACE / "petclinic", ws)
    env = {**backend_env("bolt"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(ws), "--no-embed"], env=env, check=True,
                   capture_output=True, timeout=180)
    db = ws / ".ripple" / "index.db"
    written = db.stat().st_mtime_ns
    client = await session({**env, "RIPPLE_SERVER_INDEX_WORKSPACE": "false"}, [ws])
    try:
        uri = (ws / f"{JAVA[10:]}/OwnerController.java").as_uri()
        items = await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(
            types.TextDocumentIdentifier(uri), types.Position(10, 36)))
        assert [i.name for i in items] == ["findById"]
        calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(items[0]))
        assert [c.from_.name for c in calls] == ["show"]
        status = await client.protocol.send_request_async("ripple/indexStatus", {})
        [folder] = status.folders
        assert (folder.repo, folder.state, folder.phase, folder.watching, folder.files) == ("petclinic", "ready", "done", False, 3)
        started = await client.workspace_execute_command_async(types.ExecuteCommandParams("ripple.reindex", []))
        assert started == {"started": []}  # read-only: the central indexer owns the index
        assert db.stat().st_mtime_ns == written
    finally:
        await client.shutdown_session()
        await client.stop()
