"""``ripple mcp``: the Model Context Protocol server, so coding agents ask ripplegraph directly.

Built on the official MCP Python SDK (``mcp``, its ``MCPServer``): stdio by default, streamable HTTP
with ``--http HOST:PORT`` (loopback unless ``--allow-remote``, which needs an API key: every request
must then carry ``Authorization: Bearer KEY``, the key ``ripple api`` uses, ``$RIPPLE_API_KEY`` or
``[api] key``, compared in constant time by :func:`lsp_server.api.guard.key_matches`). Each tool is a thin call into the
analysis facade (:class:`analysis.agent_queries.AgentQueries`) and answers with the facade's readable
markdown as its text content and its JSON as structured content (``outputSchema``: :class:`AnswerModel`).
Tools are read-only.

Stores are opened through :func:`stores.factory.open_stores`, as the CLI opens them: the configured
backends (the embedded index by default, Memgraph / Elasticsearch in a team configuration), one index
per ``--db`` (several are served as one). A store that cannot be opened or fails during a call turns
into a tool error whose message says what is wrong; the next call opens the stores again, so the
server outlives an index being rebuilt or a database restarting.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from analysis.agent_queries import (DEFAULT_MAX_TOKENS, MAX_DEPTH, MAX_LIMIT, MAX_MAX_TOKENS, MAX_OFFSET,
                                    MIN_MAX_TOKENS, AgentQueries, Answer, IndexSource)
from analysis.impact import DEFAULT_DEPTH
from analysis.services import service_map
from stores.errors import StoreError

__all__ = ["Backend", "AnswerModel", "BearerGuard", "build_server", "run_stdio", "run_http", "TOOLS", "INSTRUCTIONS"]

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "ripplegraph answers questions about the indexed repositories from a code graph and a search index, "
    "so you read the few lines that matter instead of whole files. Start with `search` (words or an "
    "identifier) or `symbol` (a name you know); `callers`, `callees` and `references` navigate; `impact` "
    "answers 'what breaks if I change this' (callers hop by hop, HTTP/GraphQL/gRPC endpoints, queues, "
    "tests); `similar` finds code like a symbol; `repositories` says what is indexed and how fresh; "
    "`endpoints` lists the HTTP / GraphQL / gRPC endpoints the code serves (the route map); `unlinked` "
    "the client calls that reach no endpoint or topic the index knows, and why. "
    "A target is a qualified name (Class.method, package.module.function), a node id from an earlier "
    "answer, or PATH:LINE. Answers fit max_tokens and say what they cut."
)

_TARGET = Field(description="What to look at: a qualified name (OwnerController.show, "
                            "django.db.models.base.Model.save), a node id from an earlier answer "
                            "(repo:path/module.Class.method(1)), PATH:LINE (1-based; PATH:LINE:COL for the "
                            "symbol written there), or table:NAME / table:NAME.column (the methods reading or "
                            "writing that table or column).", min_length=1, max_length=2000)
_MAX_TOKENS = Field(ge=MIN_MAX_TOKENS, strict=True, le=MAX_MAX_TOKENS,
                    description="Size budget of the answer in tokens (counted with the bundled model's WordPiece "
                                "tokenizer, about 2.5 characters each); what does not fit is cut and the answer "
                                "says so in `truncated`.")
_LIMIT = Field(ge=1, le=MAX_LIMIT, strict=True, description="Most hits returned.")

_REPO = Field(default=None, max_length=200, description="Only symbols of this repository (see repositories): for a "
              "name defined in several.")
Target = Annotated[str, _TARGET]
Repo = Annotated[str | None, _REPO]
MaxTokens = Annotated[int, _MAX_TOKENS]


class StepModel(BaseModel):
    """One step executed: wall time in milliseconds, graph-store calls, a one-line result."""

    name: str
    ms: float
    round_trips: int
    detail: str


class BudgetModel(BaseModel):
    """The size budget asked for, the tokens of the text answer and how they were counted (the bundled
    tokenizer, or an estimate of 4 characters a token and why the tokenizer could not load)."""

    max_tokens: int
    tokens: int
    counted_by: str


class AnswerModel(BaseModel):
    """Every tool's structured output: the tool, its result (see the tool's description), what the budget
    cut, the steps executed and the budget."""

    tool: str
    result: dict[str, Any]
    truncated: list[str]
    steps: list[StepModel]
    budget: BudgetModel


ToolResult = Annotated[CallToolResult, AnswerModel]


class Backend:
    """The stores a server answers from, opened on first use through :func:`stores.factory.open_stores`
    (``dbs``: index files; none: ``config.db``, else the nearest ``.ripple/index.db``), and the
    :class:`AgentQueries` over them. :meth:`call` runs one facade call at a time (stores serve one
    thread at a time); a store error closes the stores so the next call opens them again."""

    def __init__(self, dbs: Sequence[Path] = (), model: str | None = None,
                 opener: Callable[[], tuple[AgentQueries, Callable[[], None]]] | None = None) -> None:
        self.dbs = list(dbs)
        self.model = model
        self._opener = opener or self._open
        self._queries: AgentQueries | None = None
        self._close: Callable[[], None] | None = None
        self._lock = threading.Lock()

    def _open(self) -> tuple[AgentQueries, Callable[[], None]]:
        from stores.config import load_config
        from lsp_server.freshness_support import recorded_states
        from stores.factory import find_db, index_written_at, open_stores, repository_roots

        config = load_config()
        for warning in config.warnings:
            log.warning("%s", warning)
        needs_file = "embedded" in (config.graph.backend, config.search.backend)
        dbs: list[Path | None] = list(self.dbs)
        if not dbs:
            found = config.db or find_db(Path.cwd())
            if needs_file and found is None:
                raise StoreError("no index found in this directory or its parents: run `ripple index PATH` first, "
                                 "or start `ripple mcp --db FILE` (or set RIPPLE_DB)")
            dbs = [found]
        opened = []
        try:
            for db in dbs:
                if needs_file and db is not None and not db.exists():
                    raise StoreError(f"no index at {db}: run `ripple index PATH --db {db}` first")
                opened.append(open_stores(config, db if needs_file else None))
            sources = []
            for db, stores in zip(dbs, opened):
                if needs_file and db is not None:
                    roots = repository_roots(stores.graph, db)
                    sources.append(IndexSource(str(db), index_written_at(db), roots,
                                               recorded_states(db, list(roots), stores.graph)))
            services = {**config.http_services, **service_map()}
        except BaseException:
            for stores in opened:
                stores.close()
            raise
        queries = AgentQueries([s.graph for s in opened], [s.search for s in opened],
                               model=self.model or config.embedding_model, services=services, sources=sources,
                               models=config.search.models,
                               models_folder=str(config.models_dir) if config.models_dir else None)

        def close() -> None:
            for stores in opened:
                stores.close()

        return queries, close

    def call(self, fn: Callable[[AgentQueries], Answer]) -> Answer:
        """``fn(queries)`` under the lock, opening the stores first if needed. Raises :class:`ToolError`
        with a message for the agent on a store failure, a bad target or a bad argument."""
        with self._lock:
            try:
                if self._queries is None:
                    self._queries, self._close = self._opener()
                return self._queries.annotate(fn(self._queries))
            except StoreError as exc:
                self._reset()
                raise ToolError(f"the index cannot answer: {exc}") from exc
            except ValueError as exc:  # TargetError included: the message names candidates
                raise ToolError(str(exc)) from exc

    def _reset(self) -> None:
        close, self._queries, self._close = self._close, None, None
        if close is not None:
            try:
                close()
            except Exception:  # closing a store that already failed: nothing more to do
                log.debug("closing the stores failed", exc_info=True)

    def close(self) -> None:
        """Close the stores (if open)."""
        with self._lock:
            self._reset()


def _result(answer: Answer) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=answer.text)], structured_content=answer.as_dict())


_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

TOOLS = ("search", "symbol", "callers", "callees", "references", "impact", "similar", "repositories", "endpoints",
         "unlinked")
"""The tools every ``ripple mcp`` serves, in the order they are listed."""


def build_server(backend: Backend) -> MCPServer:
    """The MCP server whose tools call ``backend``'s facade (see :data:`TOOLS`)."""
    server = MCPServer("ripplegraph", instructions=INSTRUCTIONS, version=_version())

    def tool(description: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return server.tool(description=description, annotations=_READ_ONLY, structured_output=True)

    @tool("Hybrid search (keywords + semantic + exact names) over the indexed code. Each hit carries its source "
          "text, location, node id and graph context: callers, callees and served endpoints (counts and first "
          "names). Use it to find where something is done, then pass a hit's id to symbol/callers/impact.")
    def search(query: Annotated[str, Field(min_length=1, max_length=2000,
                                           description="Words or an identifier (load configuration from env, "
                                                       "OwnerRepository.findById).")],
               repo: Annotated[str | None, Field(description="Only this repository (see repositories).")] = None,
               product: Annotated[str | None, Field(description="Only this product.")] = None,
               language: Annotated[str | None, Field(description="Only this language: java, python, "
                                                                  "typescript, javascript, ...")] = None,
               kind: Annotated[Literal["method", "function", "class", "file_section", "sql", "config", "doc"] | None,
                               Field(description="Only chunks of this kind: code (method, function, class, "
                                                 "file_section), sql (DDL statements, migrations), config (keys "
                                                 "of application.yml / .properties, Helm values, .env.example), "
                                                 "doc (sections of Markdown, reStructuredText, AsciiDoc; a doc "
                                                 "hit lists the code it mentions).")] = None,
               limit: Annotated[int, _LIMIT] = 10,
               max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
               tests: Annotated[bool, Field(strict=True, description="Look for test code: rank it above the implementation "
                                                          "(it ranks below otherwise, unless the query asks for "
                                                          "tests).")] = False) -> ToolResult:
        return _result(backend.call(lambda q: q.search(query, repo, product, language, kind, limit, max_tokens,
                                                       tests)))

    @tool("One symbol: signature, location, source, the endpoints it serves, its direct callers (call sites, "
          "how each was bound) and callees. Overloads come together; a name matching several symbols is an "
          "error listing their ids.")
    def symbol(target: Target, repo: Repo = None, max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.symbol(target, max_tokens, repo)))

    @tool("Direct call sites of a method, function or class (its constructors), with the calling symbol, "
          "PATH:LINE:COL and how the call was bound (exact, inferred, name).")
    def callers(target: Target,
                resolution: Annotated[list[Literal["exact", "inferred", "name"]] | None,
                                      Field(description="Keep only calls bound these ways.")] = None,
                repo: Repo = None, max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.callers(target, resolution, max_tokens, repo)))

    @tool("What a method or function calls: each callee with its location and the lines of the calls.")
    def callees(target: Target, repo: Repo = None, max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.callees(target, max_tokens, repo)))

    @tool("Every reference to a symbol: call sites, type uses, injections, subclasses and implementations, "
          "overrides (kind says which), sorted by location.")
    def references(target: Target,
                   include_declaration: Annotated[bool, Field(strict=True, description="List the definitions first.")] = False,
                   repo: Repo = None, max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.references(target, include_declaration, max_tokens, repo)))

    @tool("What breaks if this changes: the blast radius (overloads and interface declarations, callers hop by "
          "hop, HTTP/GraphQL/gRPC endpoints, topics and queues, scheduled and CLI entry points, services, tests "
          "kept apart) as a markdown report (text) and JSON (result.report).")
    def impact(target: Target,
               depth: Annotated[int, Field(ge=1, le=MAX_DEPTH, strict=True, description="Hops walked up from the target.")]
               = DEFAULT_DEPTH,
               tests: Annotated[Literal["apart", "include", "exclude", "only"],
                                Field(description="Test code: its own section (apart), counted as callers "
                                                  "(include), not walked (exclude), or alone (only).")] = "apart",
               repo: Repo = None, max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.impact(target, depth, tests, max_tokens, repo)))

    @tool("Code like a given symbol or search hit (by embedding distance), each hit with source and graph "
          "context. Give target or chunk_id (a search hit's chunk_id), not both.")
    def similar(target: Annotated[str | None, _TARGET] = None,
                chunk_id: Annotated[str | None, Field(max_length=2000,
                                                      description="A search hit's chunk_id.")] = None,
                limit: Annotated[int, _LIMIT] = 10, repo: Repo = None,
                max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.similar(target, chunk_id, limit, max_tokens, repo)))

    @tool("What is indexed: each repository with its file and search-chunk counts (and how many chunks are "
          "embedded), the folder it was indexed from, when and how "
          "many of its files changed on disk since; totals of nodes, edges and search chunks.")
    def repositories(max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.repositories(max_tokens)))

    @tool("The endpoints the indexed code serves (route map): each HTTP route, GraphQL operation and gRPC method "
          "with its handlers (the method serving it, PATH:LINE, the route as declared, the framework), how many "
          "clients call it and the wrappers (filters, middleware, guards) it runs through; sorted by path.")
    def endpoints(repo: Annotated[str | None, Field(max_length=200, description="Only endpoints served or called "
                                                   "by this repository (see repositories).")] = None,
                  match: Annotated[str | None, Field(max_length=500, description="Only endpoints whose method and "
                                                    "path, or declared route, contain this text (owners, "
                                                    "POST /api).")] = None,
                  limit: Annotated[int, _LIMIT] = MAX_LIMIT,
                  unserved: Annotated[bool, Field(strict=True, description="Also the endpoints only called (no handler "
                                                              "indexed: external APIs).")] = False,
                  max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.endpoints(repo, match, limit, max_tokens, unserved)))

    @tool("The client calls the index could not link to an endpoint or topic (HTTP requests whose URL names no "
          "known path, gRPC stub calls no .proto declares, GraphQL operations no schema declares, queue uses of "
          "unknown topics): each with PATH:LINE, the calling symbol, the call as far as it is known (POST "
          "http://{}), the reason and the nearest candidates the linker had.")
    def unlinked(repo: Repo = None,
                 product: Annotated[str | None, Field(max_length=200, description="Only calls made by the "
                                                     "repositories of this product.")] = None,
                 reason: Annotated[str | None, Field(max_length=100, description="Only calls not linked for this "
                                                    "reason (url, grpc_ambiguous, graphql_document, topic, ...).")]
                 = None,
                 limit: Annotated[int, _LIMIT] = MAX_LIMIT,
                 offset: Annotated[int, Field(ge=0, le=MAX_OFFSET, strict=True, description="Calls skipped first, in the list's "
                                              "stable order (by place): the next page starts at offset + limit.")]
                 = 0,
                 max_tokens: MaxTokens = DEFAULT_MAX_TOKENS) -> ToolResult:
        return _result(backend.call(lambda q: q.unlinked(repo, product, reason, limit, max_tokens, offset)))

    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ripplegraph")
    except PackageNotFoundError:
        return "0"


def run_stdio(backend: Backend) -> None:
    """Serve over stdin / stdout until the client closes them. A line that is no JSON-RPC message
    (not JSON, or JSON the protocol's types refuse, such as a lone surrogate escape) is answered with
    a parse error (-32700, id null), as the HTTP transport answers it: the SDK's stdio transport
    hands such a line to the session, which answers nothing, and the client waited for ever."""
    try:
        server = build_server(backend)
        if getattr(server, "_lowlevel_server", None) is None:  # an SDK without it: its own transport
            server.run("stdio")
        else:
            anyio.run(_serve_stdio, server)
    finally:
        backend.close()


async def _serve_stdio(server: MCPServer) -> None:
    """:meth:`MCPServer.run_stdio_async` with the parse errors of the stdio transport answered."""
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage
    from mcp_types import PARSE_ERROR, ErrorData, JSONRPCError

    lowlevel = server._lowlevel_server  # noqa: SLF001 - the SDK's own run_stdio_async uses it this way
    async with stdio_server() as (read_stream, write_stream):
        send, receive = anyio.create_memory_object_stream[Any](0)

        async def pump() -> None:
            async with send:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        log.info("MCP stdio: a line that is no JSON-RPC message: %s", str(item).splitlines()[0][:200])
                        error = ErrorData(code=PARSE_ERROR, message="Parse error: not a JSON-RPC message")
                        await write_stream.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error)))
                        continue
                    await send.send(item)

        async with anyio.create_task_group() as tg:
            tg.start_soon(pump)
            await lowlevel.run(receive, write_stream, lowlevel.create_initialization_options())
            tg.cancel_scope.cancel()


class BearerGuard:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <key>`` (compared in
    constant time, :func:`lsp_server.api.guard.key_matches`); otherwise a 401 JSON answer
    (``{"error": ...}``, ``WWW-Authenticate: Bearer``) and ``app`` is not called."""

    def __init__(self, app: Any, key: str) -> None:
        self.app = app
        self.key = key

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Answer 401 without the key; otherwise pass the request on."""
        from lsp_server.api.guard import key_matches

        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            if not key_matches(headers.get("authorization"), self.key):
                body = b'{"error": "unauthorized: send the server\'s API key as Authorization: Bearer KEY"}'
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def run_http(backend: Backend, host: str, port: int, on_listen: Callable[[str, int], None] | None = None,
             api_key: str | None = None) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` until interrupted; ``on_listen(host, port)`` is
    called once bound (``port`` 0 picks a free one). With ``api_key`` every request must carry it
    (:class:`BearerGuard`); refusing a non-loopback ``host`` without one is the caller's check
    (:func:`lsp_server.api.guard.check_bind`)."""
    import uvicorn

    app: Any = build_server(backend).streamable_http_app(host=host)
    if api_key is not None:
        app = BearerGuard(app, api_key)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    http = uvicorn.Server(config)

    async def serve() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(http.serve)
            while not http.started:
                if http.should_exit:
                    return
                await anyio.sleep(0.02)
            if on_listen is not None:
                bound = http.servers[0].sockets[0].getsockname()
                on_listen(bound[0], bound[1])

    try:
        anyio.run(serve)
    finally:
        backend.close()

