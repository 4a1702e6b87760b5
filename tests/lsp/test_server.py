"""End to end: ``ripple serve`` over stdio driven by pytest-lsp's typed client, on a workspace of two
repositories (a Java service and a Python client) whose indexes the server builds itself, plus a
folder whose index is corrupt. Exact items and ranges (LSP: 0-based lines, UTF-16 columns unless
the client offers UTF-8)."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_asyncio
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient

WORKSPACE = Path(__file__).parent / "workspace"
SERVER = [sys.executable, "-m", "lsp_server.cli", "serve"]
JAVA = "petclinic/src/main/java/org/example"

pytestmark = pytest.mark.asyncio(loop_scope="module")


def make_workspace(root: Path) -> Path:
    shutil.copytree(WORKSPACE, root, dirs_exist_ok=True)
    broken = root / "broken"
    (broken / ".ripple").mkdir(parents=True)
    (broken / ".ripple" / "index.db").write_bytes(b"this is not an index" * 100)
    return root


async def start(client: LanguageClient, root: Path, encodings: list[str] | None) -> None:
    caps = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None,
        window=types.WindowClientCapabilities(work_done_progress=True),
    )
    folders = [types.WorkspaceFolder((root / n).as_uri(), n) for n in ("petclinic", "client", "broken")]
    await client.initialize_session(types.InitializeParams(capabilities=caps, workspace_folders=folders))
    for _ in range(600):  # the server indexes (and embeds) both repositories in the background
        status = await client.protocol.send_request_async("ripple/indexStatus", {})
        if all(f.state == "error" or f.phase == "done" for f in status.folders):
            return  # indexed and embedded: search answers are then stable
        await asyncio.sleep(0.05)
    raise AssertionError(f"indexing did not finish: {status}")


BOLT_ENV = "RIPPLE_TEST_BOLT_URI"


def backend_env(backend: str) -> dict[str, str]:
    """The server's environment for ``backend``: ``embedded`` (the default configuration), or ``bolt``: the
    graph in the Bolt server ``$RIPPLE_TEST_BOLT_URI`` names (ArcadeDB, as the contract suite runs it;
    ``start`` starts one), emptied first, search in each folder's embedded file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RIPPLE_GRAPH", "RIPPLE_MEMGRAPH", "RIPPLE_SEARCH"))}
    if backend == "embedded":
        return env
    from stores.memgraph import MemgraphGraphStore
    from tests.contract.conftest import bolt_uri

    uri = bolt_uri(BOLT_ENV) or ""
    store = MemgraphGraphStore(uri, dialect="neo4j")
    try:
        store.clear()
    finally:
        store.close()
    return {**env, "RIPPLE_GRAPH_BACKEND": "memgraph", "RIPPLE_MEMGRAPH_URI": uri, "RIPPLE_MEMGRAPH_DIALECT": "neo4j"}


BACKENDS = [pytest.param("embedded", id="embedded"),
            pytest.param("bolt", id="bolt", marks=pytest.mark.skipif(
                not os.environ.get(BOLT_ENV), reason=f"set {BOLT_ENV} (a Bolt URI, or `start`) to run the Bolt backend"))]


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=BACKENDS)
async def client(request, tmp_path_factory):
    """A server on the fixture workspace, with the graph in each folder's embedded file or in the Bolt
    server (the same answers are expected of both)."""
    lsp_client = await ClientServerConfig(server_command=SERVER, server_env=backend_env(request.param)).start(
        devtools=None)
    root = make_workspace(tmp_path_factory.mktemp("ws16"))
    lsp_client.root = root  # type: ignore[attr-defined]
    lsp_client.backend = request.param  # type: ignore[attr-defined]
    await start(lsp_client, root, None)
    yield lsp_client
    await lsp_client.shutdown_session()
    await lsp_client.stop()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client8(lsp_client: LanguageClient, request):
    root = make_workspace(request.getfixturevalue("tmp_path_factory").mktemp("ws8"))
    lsp_client.root = root  # type: ignore[attr-defined]
    await start(lsp_client, root, ["utf-8", "utf-16"])
    yield
    await lsp_client.shutdown_session()


def uri(client: LanguageClient, rel: str) -> str:
    return (client.root / rel).as_uri()  # type: ignore[attr-defined]


def rng(l1: int, c1: int, l2: int, c2: int) -> types.Range:
    return types.Range(types.Position(l1, c1), types.Position(l2, c2))


def doc(client: LanguageClient, rel: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri(client, rel))


async def prepare(client: LanguageClient, rel: str, line: int, char: int) -> list[types.CallHierarchyItem]:
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(doc(client, rel), types.Position(line, char)))
    return items or []


def brief(item: types.CallHierarchyItem) -> tuple[str, str, types.Range, types.Range]:
    return item.name, item.uri.rsplit("/", 1)[-1], item.range, item.selection_range


async def test_index_status_and_progress(client: LanguageClient):
    status = await client.protocol.send_request_async("ripple/indexStatus", {})
    states = {f.repo: (f.state, f.files) if f.state != "error" else (f.state, "index.db" in f.error) for f in status.folders}
    assert states == {"petclinic": ("ready", 3), "client": ("ready", 3), "broken": ("error", True)}
    kinds = {tok: [type(v).__name__ for v in values][::max(1, len(values) - 1)] for tok, values in client.progress_reports.items()}
    assert sorted(kinds.values()) == [["WorkDoneProgressBegin", "WorkDoneProgressEnd"]] * 2
    assert any("is not a ripple index" in m.message and "delete" not in m.message for m in client.messages)


async def test_bolt_mode_keeps_no_graph_in_the_workspace_file(client: LanguageClient):
    """With the graph on the Bolt server, each folder's embedded file holds the search chunks only."""
    from stores.embedded import EmbeddedStore

    for name in ("petclinic", "client"):
        store = EmbeddedStore(client.root / name / ".ripple" / "index.db")  # type: ignore[attr-defined]
        try:
            nodes, files, chunks = store.stats()["nodes"], store.file_checksums(name), store.chunk_count()["chunks"]
        finally:
            store.close()
        if client.backend == "bolt":  # type: ignore[attr-defined]
            assert (nodes, files) == ({}, {}) and chunks > 0
        else:
            assert sum(nodes.values()) > 0 and len(files) == 3 and chunks > 0


async def test_call_hierarchy_java(client: LanguageClient):
    # OwnerController.show: `Owner owner = repository.findById(id);` -> findById
    [item] = await prepare(client, f"{JAVA}/OwnerController.java", 10, 36)
    assert brief(item) == ("findById", "OwnerRepository.java", rng(3, 4, 5, 5), rng(3, 17, 3, 25))
    assert item.data == {"id": "petclinic:src/main/java/org/example/OwnerRepository.OwnerRepository.findById(int)"}
    calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
    assert [(brief(c.from_), list(c.from_ranges)) for c in calls] == [
        (("show", "OwnerController.java", rng(9, 4, 12, 5), rng(9, 17, 9, 21)), [rng(10, 33, 10, 41)])]
    [show] = await prepare(client, f"{JAVA}/OwnerController.java", 9, 18)
    callers = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(show))
    assert [(c.from_.name, list(c.from_ranges)) for c in callers] == [("showName", [rng(15, 26, 15, 30)])]
    [show_name] = await prepare(client, f"{JAVA}/OwnerController.java", 14, 20)
    out = await client.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(show_name))
    assert [(c.to.name, c.to.uri.rsplit("/", 1)[-1], list(c.from_ranges)) for c in out] == [
        ("show", "OwnerController.java", [rng(15, 26, 15, 30)]), ("getId", "Owner.java", [rng(15, 35, 15, 40)])]


async def test_call_hierarchy_python_utf16_after_emoji(client: LanguageClient):
    # `    title = "所有者 😀 " + str(client.fetch_owner(owner_id))`: code point 34 is UTF-16 unit 35
    [item] = await prepare(client, "client/client/report.py", 5, 37)
    assert brief(item) == ("fetch_owner", "api.py", rng(7, 4, 8, 47), rng(7, 8, 7, 19))
    calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
    assert [(brief(c.from_), list(c.from_ranges)) for c in calls] == [
        (("render", "report.py", rng(3, 0, 6, 16), rng(3, 4, 3, 10)), [rng(5, 35, 5, 46)])]
    # a class: its constructor's callers, at the class name
    [cls] = await prepare(client, "client/client/report.py", 4, 16)
    assert cls.name == "__init__"
    calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(cls))
    assert [(c.from_.name, list(c.from_ranges)) for c in calls] == [("render", [rng(4, 13, 4, 24)])]


async def test_a_module_level_caller_selects_its_call_site(client: LanguageClient):
    # `TITLE = banner()`: the caller is the file's top-level code
    [item] = await prepare(client, "client/client/report.py", 13, 5)
    assert item.name == "banner"
    [call] = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
    assert (call.from_.name, call.from_.detail, call.from_.kind) == (
        "report.py (top-level code)", "client · client/report.py", types.SymbolKind.File)
    assert call.from_.selection_range == rng(17, 8, 17, 14) != rng(0, 0, 0, 0)  # the call site, not line 1
    assert list(call.from_ranges) == [rng(17, 8, 17, 14)]
    assert call.from_.range.start == types.Position(0, 0)  # the range holds the selection


async def test_utf8_client_gets_byte_columns(client8: LanguageClient):
    # 所有者 is 9 bytes, 😀 is 4: code point 34 is byte 43
    [item] = await prepare(client8, "client/client/report.py", 5, 45)
    assert item.name == "fetch_owner"
    calls = await client8.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
    assert [list(c.from_ranges) for c in calls] == [[rng(5, 43, 5, 54)]]


async def test_references_include_declaration(client: LanguageClient):
    params = types.ReferenceParams(text_document=doc(client, f"{JAVA}/Owner.java"), position=types.Position(2, 15),
                                   context=types.ReferenceContext(include_declaration=True))
    locs = await client.text_document_references_async(params)
    assert [(loc.uri.rsplit("/", 1)[-1], loc.range) for loc in locs] == [
        ("Owner.java", rng(2, 13, 2, 18)),
        ("OwnerController.java", rng(9, 11, 9, 16)),
        ("OwnerController.java", rng(10, 8, 10, 13)),
        ("OwnerRepository.java", rng(3, 11, 3, 16)),
        ("OwnerRepository.java", rng(4, 19, 4, 24)),
    ]
    params.context.include_declaration = False
    locs = await client.text_document_references_async(params)
    assert len(locs) == 4 and locs[0].uri.endswith("OwnerController.java")


async def test_hover_impact(client: LanguageClient):
    hover = await client.text_document_hover_async(
        types.HoverParams(doc(client, f"{JAVA}/OwnerRepository.java"), types.Position(3, 20)))
    assert hover.range == rng(3, 17, 3, 25)
    assert hover.contents.value == (
        "```\npublic Owner findById(int id)\n```\n`org.example.OwnerRepository.findById` · petclinic\n\n"
        "**Impact:** 1 caller · 0 endpoints — 1 call site; 2 nodes reached within 5 hops (1 / 1 by hop)")


async def test_code_lens_resolved_lazily(client: LanguageClient):
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(doc(client, f"{JAVA}/OwnerController.java")))
    assert [(lens.range, lens.command) for lens in lenses] == [
        (rng(2, 13, 2, 28), None), (rng(5, 11, 5, 26), None), (rng(9, 17, 9, 21), None), (rng(14, 18, 14, 26), None)]
    titles = [(await client.code_lens_resolve_async(lens)).command.title for lens in lenses]
    assert titles == ["0 callers · 0 endpoints", "0 callers · 0 endpoints", "1 caller · 0 endpoints",
                      "0 callers · 0 endpoints"]


async def test_blast_radius_request(client: LanguageClient):
    # On the name of OwnerRepository.findById: a position request.
    result = await client.protocol.send_request_async("ripple/blastRadius", {
        "textDocument": {"uri": uri(client, f"{JAVA}/OwnerRepository.java")}, "position": {"line": 3, "character": 20}})
    report = result.report
    assert [(t.id, t.role) for t in report.targets] == [
        ("petclinic:src/main/java/org/example/OwnerRepository.OwnerRepository.findById(int)", "selected")]
    assert [(c.id, [(s.path, s.line, s.col, s.resolution) for s in c.sites]) for c in report.callers] == [
        ("petclinic:src/main/java/org/example/OwnerController.OwnerController.show(int)",
         [("src/main/java/org/example/OwnerController.java", 11, 34, "exact")])]  # 1-based column
    assert (report.callers_by_hop, report.endpoints, report.truncated) == ([1, 1], [], [])
    assert [(s.repo, s.nodes, s.endpoints, s.hops) for s in report.services] == [("petclinic", 3, 0, 0)]
    assert report.summary.text == "1 caller · 0 endpoints"
    assert [s.name for s in report.steps] == [
        "Targets", "Direct callers", "Upward walk", "Attach endpoints and topics", "Tables", "Report"]
    assert result.markdown.startswith("# Blast radius of `OwnerRepository.findById`\n\n**1 direct caller · 0 endpoints**")
    controller = uri(client, f"{JAVA}/OwnerController.java")
    assert (f"- `OwnerController.show` · petclinic · [src/main/java/org/example/OwnerController.java:11]"
            f"(<{controller}#L11>) (exact)") in result.markdown
    # The diagram as the view draws it: the markdown's Mermaid source and, per code node, where it is (1-based).
    assert result.diagram.mermaid == report.mermaid
    assert "```mermaid\n" + report.mermaid + "\n```" in result.markdown
    repository = uri(client, f"{JAVA}/OwnerRepository.java")
    assert [(link.id, link.label, link.uri, link.line) for link in result.diagram.links] == [
        ("t0", "OwnerRepository.findById", repository, 4), ("c0", "OwnerController.show", controller, 10),
        ("c1", "OwnerController.showName", controller, 15)]
    assert [line.strip() for line in report.mermaid.splitlines() if "-->" in line] == ["t0 --> c0", "c0 --> c1"]
    # By name, across the other repository, with a depth.
    result = await client.protocol.send_request_async("ripple/blastRadius", {"symbol": "OwnerClient.fetch_owner"})
    assert [(p.id, p.kinds, p.hops) for p in result.report.entry_points] == [("client:client/report.main(0)", ["main"], 2)]
    result = await client.protocol.send_request_async("ripple/blastRadius", {"symbol": "OwnerClient.fetch_owner", "depth": 1})
    assert [c.id for c in result.report.callers] == ["client:client/report.render(1)"]
    assert result.report.truncated == ["depth 1 reached: 1 caller at hop 2 not followed"]
    result = await client.protocol.send_request_async("ripple/blastRadius", {"symbol": "NoSuch.thing"})
    assert (result.report.targets, result.report.summary.text) == ([], "0 callers · 0 endpoints")
    assert (result.diagram.mermaid, result.diagram.links) == ('flowchart LR\n  none["nothing found"]', [])
    # The tests param is ripple impact's --tests.
    assert result.report.tests_mode == "apart"
    result = await client.protocol.send_request_async("ripple/blastRadius", {"symbol": "OwnerClient.fetch_owner", "tests": "only"})
    assert (result.report.tests_mode, result.report.callers, result.report.endpoints) == ("only", [], [])
    for bad in ({"symbol": "x", "depth": 0}, {}, {"symbol": 3}, {"textDocument": {"uri": 1}, "position": {"line": 0, "character": 0}},
                {"symbol": "x", "tests": "skip"}, {"symbol": "x", "tests": 1}):
        with pytest.raises(JsonRpcInvalidParams):
            await client.protocol.send_request_async("ripple/blastRadius", bad)


async def test_similar_code(client: LanguageClient):
    """ripple/similar: code like the symbol at a position (or named), through the agent facade."""
    api = uri(client, "client/client/api.py")
    # On `fetch_owner`'s name (line 8, 1-based): its nearest chunks in the client's index, itself excluded.
    result = await client.protocol.send_request_async("ripple/similar", {
        "textDocument": {"uri": api}, "position": {"line": 7, "character": 10}, "limit": 4})
    assert (result.target.id, result.target.name) == ("client:client/api.OwnerClient.fetch_owner(1)",
                                                      "client.api.OwnerClient.fetch_owner")
    def span(r):
        return r.start.line, r.start.character, r.end.line, r.end.character

    assert [(h.id, h.name, h.fqn, h.kind, h.uri.rsplit("/", 1)[-1], span(h.range), h.callers) for h in result.hits] == [
        ("client:client/api.OwnerClient", "OwnerClient", "client.api.OwnerClient", "class", "api.py", (3, 0, 12, 0), 0),
        # the vectors read path and class (contextual chunk headers): the members of its class first
        ("client:client/api.OwnerClient._get(1)", "_get", "client.api.OwnerClient._get", "method", "api.py",
         (10, 0, 12, 0), 1),
        ("client:client/api.OwnerClient.__init__(1)", "__init__", "client.api.OwnerClient.__init__", "method", "api.py",
         (4, 0, 6, 0), 1),
        ("client:client/report.render(1)", "render", "client.report.render", "function", "report.py", (3, 0, 7, 0), 1)]
    assert result.hits[0].score > result.hits[1].score > result.hits[2].score > result.hits[3].score
    assert result.notes == []
    # Inside a body, off any name: the definition around the cursor.
    inside = await client.protocol.send_request_async("ripple/similar", {
        "textDocument": {"uri": api}, "position": {"line": 8, "character": 2}, "limit": 1})
    assert inside.target.id == "client:client/api.OwnerClient.fetch_owner(1)" and len(inside.hits) == 1
    # By name, in the other repository's index.
    named = await client.protocol.send_request_async("ripple/similar", {"symbol": "OwnerRepository.findById", "limit": 2})
    assert named.target.id == "petclinic:src/main/java/org/example/OwnerRepository.OwnerRepository.findById(int)"
    assert [h.id.split(":", 1)[0] for h in named.hits] == ["petclinic", "petclinic"]
    assert named.target.id not in [h.id for h in named.hits]
    # The module docstring: no class, method or function there.
    none = await client.protocol.send_request_async("ripple/similar", {
        "textDocument": {"uri": api}, "position": {"line": 0, "character": 3}})
    assert (none.target, none.hits, none.notes) == (None, [], ["no class, method or function here: put the cursor on one"])
    with pytest.raises(JsonRpcException, match="no symbol matches 'NoSuch.thing'"):
        await client.protocol.send_request_async("ripple/similar", {"symbol": "NoSuch.thing"})
    for bad in ({"symbol": "x", "limit": 0}, {"symbol": "x", "limit": 101}, {}, {"symbol": 3}):
        with pytest.raises(JsonRpcInvalidParams):
            await client.protocol.send_request_async("ripple/similar", bad)


async def test_workspace_symbol_camel_case(client: LanguageClient):
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="OwnCon"))
    assert [(s.name, s.kind, s.location.uri.rsplit("/", 1)[-1], s.location.range) for s in found] == [
        ("OwnerController", types.SymbolKind.Class, "OwnerController.java", rng(2, 13, 2, 28)),
        ("OwnerController", types.SymbolKind.Constructor, "OwnerController.java", rng(5, 11, 5, 26)),
    ]
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="owner cl"))
    assert [(s.name, s.container_name) for s in found] == [  # parts first, then the abbreviation owner-c-l
        ("OwnerClient", "client · client.api"), ("OwnerController", "petclinic · org.example"),
        ("OwnerController", "petclinic · org.example.OwnerController")]
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="ftchown"))  # fuzzy
    assert [(s.name, s.container_name) for s in found] == [("fetch_owner", "client · client.api.OwnerClient")]


async def test_document_symbols(client: LanguageClient):
    syms = await client.text_document_document_symbol_async(types.DocumentSymbolParams(doc(client, "client/client/api.py")))
    assert [(s.name, s.range, [(c.name, c.selection_range) for c in s.children]) for s in syms] == [
        ("OwnerClient", rng(3, 0, 11, 44), [("__init__", rng(4, 8, 4, 16)), ("base_url", rng(5, 13, 5, 21)),
                                             ("fetch_owner", rng(7, 8, 7, 19)), ("_get", rng(10, 8, 10, 12))])]


async def test_buffer_differs_from_disk(client: LanguageClient):
    path = client.root / "client/client/report.py"  # type: ignore[attr-defined]
    text = "import os\n# edited, not saved\n" + path.read_text(encoding="utf-8")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(path.as_uri(), "python", 1, text)))
    try:
        [item] = await prepare(client, "client/client/api.py", 7, 10)
        calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
        assert [(c.from_.selection_range, list(c.from_ranges)) for c in calls] == [(rng(5, 4, 5, 10), [rng(7, 35, 7, 46)])]
        [again] = await prepare(client, "client/client/report.py", 7, 37)
        assert again.name == "fetch_owner"
    finally:
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(path.as_uri())))


async def test_search_and_file_content(client: LanguageClient):
    result = await client.protocol.send_request_async("ripple/search", {"query": "fetch owner", "limit": 3})
    assert (result.hits[0].id, result.hits[0].fqn) == ("client:client/api.OwnerClient.fetch_owner(1)",
                                                       "client.api.OwnerClient.fetch_owner")
    content = await client.protocol.send_request_async("ripple/fileContent", {"uri": uri(client, "client/client/api.py")})
    assert content.text.startswith('"""HTTP client for the owners service."""\n')


async def test_errors_are_answers_not_crashes(client: LanguageClient, tmp_path: Path):
    outside = tmp_path / "secret.py"
    outside.write_text("def secret(): pass\n")
    with pytest.raises(JsonRpcInvalidParams, match="not inside a workspace folder"):
        await client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(outside.as_uri()), position=types.Position(0, 5),
            context=types.ReferenceContext(False)))
    [item] = await prepare(client, "client/client/report.py", 10, 12)
    item.data = None
    with pytest.raises(JsonRpcInvalidParams, match="without ripple data"):
        await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
    with pytest.raises(JsonRpcInvalidParams):
        await client.protocol.send_request_async("ripple/search", {"limit": 3})
    # still alive
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="render"))
    assert [s.name for s in found] == ["render"]


async def test_commands_through_execute_command(client8: LanguageClient):
    # Editors send the arguments (VS Code an empty list too); pygls converts them by the handler's hints.
    lens = [uri(client8, f"{JAVA}/OwnerRepository.java"), {"line": 3, "character": 17}]
    assert await client8.workspace_execute_command_async(types.ExecuteCommandParams("ripple.showCallers", lens)) is None
    started = await client8.workspace_execute_command_async(types.ExecuteCommandParams("ripple.reindex", []))
    assert started == {"started": ["petclinic", "client"]}
    for _ in range(600):
        status = await client8.protocol.send_request_async("ripple/indexStatus", {})
        if all(f.state == "error" or f.state == "ready" and f.phase == "done" for f in status.folders):
            break
        await asyncio.sleep(0.05)
    assert [(f.repo, f.state, getattr(f, "files", None)) for f in status.folders] == [
        ("petclinic", "ready", 3), ("client", "ready", 3), ("broken", "error", None)]
