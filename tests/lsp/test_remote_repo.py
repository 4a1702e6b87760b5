"""A repository that is in the index but not on this disk is served through ``ripple:`` URIs and the
``ripple/fileContent`` request (the text kept in the index)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.test_server import SERVER, WORKSPACE

pytestmark = pytest.mark.asyncio(loop_scope="module")

BILLING = '''def charge_owner(owner_id, amount):
    """Bill an owner: the billing service's entry point."""
    return record_payment(owner_id, amount)


def record_payment(owner_id, amount):
    return (owner_id, amount)
'''


def index(path: Path, db: Path, repo: str) -> None:
    subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(path), "--db", str(db), "--repo", repo,
                    "--no-embed", "--jobs", "1", "--json"], check=True, capture_output=True)


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, request):
    root = request.getfixturevalue("tmp_path_factory").mktemp("remote")
    shutil.copytree(WORKSPACE / "client", root / "client")
    db = root / "client" / ".ripple" / "index.db"
    index(root / "client", db, "client")
    # The billing service was indexed into the same index from a checkout that is gone now.
    elsewhere = root / "checkout"
    (elsewhere / "billing").mkdir(parents=True)
    (elsewhere / "billing" / "service.py").write_text(BILLING, encoding="utf-8")
    index(elsewhere, db, "billing")
    shutil.rmtree(elsewhere)
    folders = [types.WorkspaceFolder((root / "client").as_uri(), "client")]
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), workspace_folders=folders))
    yield
    await lsp_client.shutdown_session()


async def test_symbol_of_a_repository_not_on_disk_has_a_ripple_uri_and_its_text(client: LanguageClient):
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="charge_owner"))
    assert [(s.name, s.location.uri, s.location.range.start.line) for s in found] == [
        ("charge_owner", "ripple:/billing/billing/service.py", 0),
    ]
    content = await client.protocol.send_request_async("ripple/fileContent", {"uri": found[0].location.uri})
    assert content.text == BILLING
    items = await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(
        types.TextDocumentIdentifier("ripple:/billing/billing/service.py"), types.Position(5, 6)))
    assert [i.name for i in items] == ["record_payment"]
    incoming = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(items[0]))
    assert [(c.from_.name, [r.start.line for r in c.from_ranges]) for c in incoming] == [("charge_owner", [2])]
