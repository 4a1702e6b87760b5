"""The language server follows its index: a commit by another process makes it send
``workspace/codeLens/refresh``; a file saved in the workspace is re-indexed by its own watcher, and the
new caller shows in incomingCalls (and a refresh is sent)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from stores.contracts import FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore

SERVER = [sys.executable, "-m", "lsp_server.cli", "serve", "--no-embed"]

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def wait_until(check, timeout: float = 15.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("condition not reached in time")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, request):
    root = request.getfixturevalue("tmp_path_factory").mktemp("refresh") / "shop"
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("", encoding="utf-8")
    (root / "app" / "repo.py").write_text("def save(x):\n    return x\n", encoding="utf-8")
    lsp_client.root = root  # type: ignore[attr-defined]
    lsp_client.refreshes = 0  # type: ignore[attr-defined]

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def refresh(params: None) -> None:
        lsp_client.refreshes += 1  # type: ignore[attr-defined]

    caps = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True)))
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=caps, workspace_folders=[types.WorkspaceFolder(root.as_uri(), "shop")]))

    async def watching() -> bool:
        status = await lsp_client.protocol.send_request_async("ripple/indexStatus", {})
        return all(f.watching for f in status.folders)

    await wait_until(watching)
    yield
    await lsp_client.shutdown_session()


async def test_a_commit_by_another_process_refreshes_code_lenses(client: LanguageClient):
    root: Path = client.root  # type: ignore[attr-defined]
    await asyncio.sleep(1.2)  # past the refresh of the server's own first index
    before = client.refreshes  # type: ignore[attr-defined]
    other = EmbeddedStore(root / ".ripple" / "index.db")  # this test process writes the index
    try:
        other.replace_files([IndexedFile(FileRecord("elsewhere", "x.py", "python", "0" * 64, 1),
                                         nodes=[Node("elsewhere:x.py", "File", "x.py", "x.py", "elsewhere", "x.py",
                                                     1, 0, 1, 0)])])
    finally:
        other.close()

    async def refreshed() -> bool:
        return client.refreshes > before  # type: ignore[attr-defined]

    await wait_until(refreshed, timeout=5.0)


async def test_a_saved_file_reaches_incoming_calls(client: LanguageClient):
    root: Path = client.root  # type: ignore[attr-defined]
    uri = (root / "app" / "repo.py").as_uri()
    [item] = await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(
        types.TextDocumentIdentifier(uri), types.Position(0, 5)))
    calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
    assert not calls
    before = client.refreshes  # type: ignore[attr-defined]
    (root / "app" / "service.py").write_text("from app.repo import save\n\n\ndef run():\n    save(1)\n",
                                             encoding="utf-8")

    async def visible() -> bool:
        found = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
        return [(c.from_.name, list(c.from_ranges)) for c in found or []] == [
            ("run", [types.Range(types.Position(4, 4), types.Position(4, 8))])]

    await wait_until(visible, timeout=10.0)

    async def refreshed() -> bool:  # the refresh request follows the write: it may come a moment later
        return client.refreshes > before  # type: ignore[attr-defined]

    await wait_until(refreshed, timeout=10.0)
