"""prepareCallHierarchy answers the definition under the cursor (issue 16, item 13): an overriding
method's name is that method, not the one it overrides (whose callers differ); a Java method whose
annotation spells its own name selects the method's name, not the annotation; a cursor in a
parameter list or a body (not on a call) is the method around it. Driven through ``ripple serve``
over stdio with pytest-lsp on a small Java repository the server indexes itself (LSP positions:
0-based lines, UTF-16 columns)."""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

SERVER = [sys.executable, "-m", "lsp_server.cli", "serve"]
PKG = "shop/src/main/java/org/shop"
SOURCES = {
    "Base.java": """package org.shop;

public class Base {
    public void handle(String find) {
    }
}
""",
    "Impl.java": """package org.shop;

public class Impl extends Base {
    @Override
    public void handle(String find) {
        int handled = 1;
    }
}
""",
    "Main.java": """package org.shop;

public class Main {
    void viaImpl(Impl i) { i.handle("a"); }

    void viaBase(Base b) { b.handle("b"); }
}
""",
    "Finder.java": """package org.shop;

public class Finder {
    @Route("/find")
    public String find(int id) {
        return "x";
    }

    public String use() {
        return find(1);
    }
}
""",
}

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, request):
    root = request.getfixturevalue("tmp_path_factory").mktemp("items")
    for name, text in SOURCES.items():
        path = root / PKG / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    lsp_client.root = root  # type: ignore[attr-defined]
    caps = types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True))
    folders = [types.WorkspaceFolder((root / "shop").as_uri(), "shop")]
    await lsp_client.initialize_session(types.InitializeParams(capabilities=caps, workspace_folders=folders))
    for _ in range(600):
        status = await lsp_client.protocol.send_request_async("ripple/indexStatus", {})
        if all(f.state == "error" or f.phase == "done" for f in status.folders):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"indexing did not finish: {status}")
    yield
    await lsp_client.shutdown_session()


def rng(l1: int, c1: int, l2: int, c2: int) -> types.Range:
    return types.Range(types.Position(l1, c1), types.Position(l2, c2))


async def prepare(client: LanguageClient, name: str, line: int, char: int) -> list[tuple[str, types.Range]]:
    uri = (client.root / PKG / name).as_uri()  # type: ignore[attr-defined]
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(types.TextDocumentIdentifier(uri), types.Position(line, char)))
    return [(i.data["id"].split(":", 1)[1], i.selection_range) for i in items or []]


async def callers(client: LanguageClient, name: str, line: int, char: int) -> list[str]:
    uri = (client.root / PKG / name).as_uri()  # type: ignore[attr-defined]
    [item] = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(types.TextDocumentIdentifier(uri), types.Position(line, char)))
    calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
    return [c.from_.name for c in calls]


IMPL_HANDLE = ("src/main/java/org/shop/Impl.Impl.handle(String)", rng(4, 16, 4, 22))


async def test_overriding_method_at_its_name_is_itself_not_the_base(client: LanguageClient):
    assert await prepare(client, "Impl.java", 4, 18) == [IMPL_HANDLE]
    # the override's callers: through an `Impl` (exact) and through a `Base` (dispatch)
    assert await callers(client, "Impl.java", 4, 18) == ["viaImpl", "viaBase"]
    # the base's callers: only the `Base` receiver (what the editor showed for the override before)
    assert await callers(client, "Base.java", 3, 18) == ["viaBase"]


async def test_overriding_method_in_its_parameter_list_and_body(client: LanguageClient):
    assert await prepare(client, "Impl.java", 4, 32) == [IMPL_HANDLE]  # parameter name `find`
    assert await prepare(client, "Impl.java", 4, 25) == [IMPL_HANDLE]  # parameter type `String`
    assert await prepare(client, "Impl.java", 5, 13) == [IMPL_HANDLE]  # local `handled`
    assert await prepare(client, "Impl.java", 5, 8) == [IMPL_HANDLE]  # keyword `int`


async def test_subclass_name_is_the_subclass(client: LanguageClient):
    assert await prepare(client, "Impl.java", 2, 14) == [("src/main/java/org/shop/Impl.Impl", rng(2, 13, 2, 17))]


async def test_annotation_spelling_the_name_does_not_move_the_selection(client: LanguageClient):
    find = ("src/main/java/org/shop/Finder.Finder.find(int)", rng(4, 18, 4, 22))
    assert await prepare(client, "Finder.java", 4, 19) == [find]  # the name
    assert await prepare(client, "Finder.java", 4, 27) == [find]  # parameter `id`
    assert await prepare(client, "Finder.java", 5, 9) == [find]  # `return` in the body
    # a call in a body is still its callee, not the method around it
    assert await prepare(client, "Finder.java", 9, 16) == [find]
    assert await callers(client, "Finder.java", 4, 19) == ["use"]
