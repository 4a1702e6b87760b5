"""Custom requests ``ripple/search``, ``ripple/similar``, ``ripple/blastRadius``, ``ripple/indexStatus``,
``ripple/fileContent`` and the ``ripple.reindex`` command (workspace/executeCommand)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from analysis.agent_queries import MAX_MAX_TOKENS, AgentQueries, TargetError
from analysis.ensemble import configured_engine, engine_maker, model_ranks
from analysis.multi_search import search_indexes
from analysis.retrieval import QueryEngine, check_query
from analysis.services import service_map
from analysis.impact import DEFAULT_DEPTH, TESTS_MODES, NodesQuery, PositionQuery, SymbolQuery, blast_radius
from analysis.impact_report import diagram_links, markdown_text, render_markdown, report_json
from analysis.navigation import dotted_name, node_at
from stores.embedder import EmbedderError
from stores.local_models import parse_model_names

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES", "COMMANDS", "MESSAGE_TYPES", "SEARCH", "SIMILAR", "SimilarParams", "BLAST_RADIUS", "INDEX_STATUS", "FILE_CONTENT", "REINDEX",
           "SearchParams", "BlastRadiusParams", "FileContentParams", "IndexStatusParams", "watching"]

SEARCH = "ripple/search"
SIMILAR = "ripple/similar"
BLAST_RADIUS = "ripple/blastRadius"
INDEX_STATUS = "ripple/indexStatus"
FILE_CONTENT = "ripple/fileContent"
REINDEX = "ripple.reindex"


def _at_least_one(instance: Any, attribute: Any, value: int) -> None:
    if not 1 <= value <= 1000:
        raise ValueError(f"{attribute.name} must be between 1 and 1000")


def _depth(instance: Any, attribute: Any, value: int) -> None:
    if not 1 <= value <= 20:
        raise ValueError("depth must be between 1 and 20")


def _model_names(instance: Any, attribute: Any, value: list[str]) -> None:
    try:
        parse_model_names(value)
    except EmbedderError as exc:
        raise ValueError(str(exc)) from None


@attrs.define
class SearchParams:
    """``ripple/search`` params: ``query``, ``limit`` (1 to 1000, default 20), ``tests`` (rank test
    code above the implementation; default false: below it, unless the query asks for tests) and
    ``models`` (an ensemble of these embedding models, ``["minilm", "mpnet"]``; default: ``[search]
    models``, else the index's one model)."""

    query: str = attrs.field(validator=lambda instance, attribute, value: check_query(value))
    limit: int = attrs.field(default=20, validator=[attrs.validators.instance_of(int), _at_least_one])
    tests: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))
    models: list[str] | None = attrs.field(default=None, validator=attrs.validators.optional(_model_names))


def _similar_limit(instance: Any, attribute: Any, value: int) -> None:
    if not 1 <= value <= 100:
        raise ValueError("limit must be between 1 and 100")


@attrs.define
class SimilarParams:
    """``ripple/similar`` params: ``textDocument`` and ``position`` (the symbol written there, else the
    definition around it), or ``symbol`` (a qualified name, a node id or ``PATH:LINE``); ``limit`` 1 to
    100 (default 10)."""

    text_document: types.TextDocumentIdentifier | None = attrs.field(default=None)
    position: types.Position | None = attrs.field(default=None)
    symbol: str | None = attrs.field(default=None)
    limit: int = attrs.field(default=10, validator=[attrs.validators.instance_of(int), _similar_limit])


@attrs.define
class BlastRadiusParams:
    """``ripple/blastRadius`` params: ``symbol``, or ``textDocument`` and ``position``; ``depth`` 1 to 20;
    ``tests`` one of :data:`analysis.impact.TESTS_MODES` (default ``apart``), as ``ripple impact --tests``."""

    text_document: types.TextDocumentIdentifier | None = attrs.field(default=None)
    position: types.Position | None = attrs.field(default=None)
    symbol: str | None = attrs.field(default=None)
    depth: int = attrs.field(default=DEFAULT_DEPTH, validator=[attrs.validators.instance_of(int), _depth])
    tests: str = attrs.field(default="apart", validator=attrs.validators.in_(TESTS_MODES))


@attrs.define
class FileContentParams:
    """``ripple/fileContent`` params: the ``uri`` of an indexed file."""

    uri: str = attrs.field(validator=attrs.validators.instance_of(str))


@attrs.define
class IndexStatusParams:
    """``ripple/indexStatus`` params: none."""


def _request_type(method: str, params: type, optional: bool = False) -> type:
    """The JSON-RPC request type of ``method`` with typed ``params``: the protocol structures a
    request into it before the handler runs, so bad params are answered with InvalidParams there
    (:class:`lsp_server.protocol.RippleProtocol`)."""
    annotation = params | None if optional else params
    fields = {
        "id": attrs.field(type=int | str),
        "params": attrs.field(type=annotation, default=None) if optional else attrs.field(type=annotation),
        "method": attrs.field(type=str, default=method),
        "jsonrpc": attrs.field(type=str, default="2.0"),
    }
    attrs.resolve_types(params, globals())
    return attrs.make_class(params.__name__.replace("Params", "Request"), fields)


def markdown_link(path: str, uri: str, line: int) -> str:
    """``[path:line](<uri#Lline>)``: the text markdown-escaped (:func:`analysis.impact_report.markdown_text`: a
    path may hold ``] * _ `` or backticks) and the destination inside ``<...>`` so parentheses and
    spaces cannot end it (CommonMark link destinations)."""
    text = markdown_text(f"{path}:{line}")
    return f"[{text}](<{uri.replace('<', '%3C').replace('>', '%3E')}#L{line}>)"


def search(ls: RippleServer, params: SearchParams) -> dict[str, Any]:
    """``{query, limit?, tests?, models?}`` -> ``{hits: [{uri, range, name, fqn, id, kind, score, callers,
    ranks, models}], notes}`` by hybrid search over every ready folder's index, best first (``fqn``: the
    dotted name, for display; ``ranks``: the hit's rank in each list, ``{"bm25": 2, "knn": 1}``, or one
    kNN list per model of an ensemble, ``{"knn:minilm": 1, "knn:mpnet": 3}``; ``models``: those per-model
    ranks by model name, ``{"minilm": 1, "mpnet": 3}``, empty for one model). The ensemble is the
    request's ``models``, else ``[search] models`` (:mod:`analysis.ensemble`); a requested model that
    is not built is a RequestFailed error naming ``ripple models build`` (raises ``JsonRpcException``
    -32803), a configured one falls back to the index's model with a note."""
    query, limit = params.query, params.limit
    conv = ls.converter()
    hits, notes = [], []
    config = ls.session.config if ls.session is not None else None
    folder = str(config.models_dir) if config is not None and config.models_dir else None
    sources = ls.search_sources()
    engines = []
    for graph, index in sources:
        if params.models is not None:  # asked for: a model that cannot load is the request's error
            try:
                engine = configured_engine(graph, index, None, parse_model_names(params.models), folder)
            except EmbedderError as exc:
                raise JsonRpcException(f"ripple: {exc}", -32803) from exc
        else:  # [search] models: one not built falls back to the index's model, with a note
            make, note = engine_maker(graph, index, None, config.search.models if config else (), folder)
            notes += [note] if note else []
            engine = make(graph, index) if make else QueryEngine(graph, index)
        engines.append(engine)
    if engines:  # several folders' indexes ranked as one (analysis.multi_search), not each on its own scale
        result = search_indexes(engines, query, limit, tests=params.tests, graph=ls.graph() if len(engines) > 1 else None)
        hits, notes = result.hits, [*notes, *result.notes]
    return {"hits": [{
        "uri": conv.text(h.chunk.repo, h.chunk.file).uri,
        "range": conv.range(h.chunk.repo, h.chunk.file, h.chunk.start_line, 0, h.chunk.end_line + 1, 0),
        "name": h.node.name, "fqn": dotted_name(h.node), "id": h.node.id, "kind": h.chunk.kind, "score": h.score,
        "callers": h.callers, "ranks": dict(h.ranks), "models": model_ranks(h.ranks),
    } for h in hits[:limit]], "notes": list(dict.fromkeys(notes))}


def similar(ls: RippleServer, params: SimilarParams) -> dict[str, Any]:
    """``{textDocument, position, limit?}`` or ``{symbol, limit?}`` -> ``{target: {id, name} | null,
    hits: [{uri, range, name, fqn, id, kind, score, callers}], notes}``: code like the symbol's (its
    nearest chunks by embedding, the symbol itself excluded), through the agent facade's ``similar``
    (:meth:`analysis.agent_queries.AgentQueries.similar`, what ``ripple mcp`` and ``ripple api``
    answer) over every ready folder's index. No symbol at the position, a symbol without a chunk or a
    chunk not embedded yet give no hits and a note saying why; a ``symbol`` that names nothing or
    several symbols is an error naming candidates (``JsonRpcException`` -32803); neither a ``symbol``
    nor a position raises ``JsonRpcInvalidParams``."""
    conv = ls.converter()
    if params.symbol is not None:
        target = params.symbol
    else:
        if params.text_document is None or params.position is None:
            raise JsonRpcInvalidParams("give 'symbol', or 'textDocument' and 'position'")
        cur = ls.at_cursor(params.text_document.uri, params.position)
        node = None
        if cur is not None:
            node = cur.symbols[0] if cur.symbols else node_at(cur.graph, cur.repo, cur.path, cur.at[0], cur.at[1])
        if node is None or node.label == "File":
            return {"target": None, "hits": [], "notes": ["no class, method or function here: put the cursor on one"]}
        target = node.id
    indexes = [index for _, index in ls.search_sources()]
    graph = ls.graph()
    queries = AgentQueries(graph, indexes)
    try:
        answer = queries.similar(target=target, limit=params.limit, max_tokens=MAX_MAX_TOKENS)
    except TargetError as exc:
        raise JsonRpcException(f"ripple: {exc}", -32803) from exc
    except ValueError as exc:  # the symbol has no chunk (a field, an endpoint): nothing to compare
        node = graph.get_nodes([target]).get(target)
        return {"target": {"id": target, "name": dotted_name(node) if node else target}, "hits": [],
                "notes": [str(exc)]}
    result = answer.result
    node = graph.get_nodes([result["chunk_id"]]).get(result["chunk_id"])
    hits = [{
        "uri": conv.text(h["repo"], h["path"]).uri,
        "range": conv.range(h["repo"], h["path"], h["line"], 0, h["end_line"] + 1, 0),
        "name": h["name"].rsplit(".", 1)[-1], "fqn": h["name"], "id": h["id"], "kind": h["kind"], "score": h["score"],
        "callers": h["callers"]["count"],
    } for h in result["hits"]]
    return {"target": {"id": result["chunk_id"], "name": dotted_name(node) if node else result["chunk_id"]},
            "hits": hits, "notes": list(result["notes"])}


def blast_radius_request(ls: RippleServer, params: BlastRadiusParams) -> dict[str, Any]:
    """``{textDocument: {uri}, position: {line, character}, depth?, tests?}`` or ``{symbol, depth?, tests?}`` ->
    ``{markdown, report, diagram}``: the blast radius (:func:`analysis.impact.blast_radius`) of the symbol at the
    position or of the named one, over every indexed repository, rendered with ``[path:line](uri#Lline)``
    links, and as data (:func:`analysis.impact_report.report_json`). ``diagram`` is what a front end
    needs to draw the report's Mermaid diagram with each code node a link: ``{mermaid, links: [{id,
    label, uri, line}]}`` (``id`` the Mermaid node id, ``line`` 1-based; see
    :func:`analysis.impact_report.diagram_links`). Nothing found is a report without targets;
    ``$RIPPLE_SERVICES`` is the service map (unreadable: ``JsonRpcException`` -32803); neither a
    ``symbol`` nor a position raises ``JsonRpcInvalidParams``."""
    depth = params.depth
    conv = ls.converter()
    query: SymbolQuery | PositionQuery | NodesQuery
    if params.symbol is not None:
        query = SymbolQuery(params.symbol)
    else:
        if params.text_document is None or params.position is None:
            raise JsonRpcInvalidParams("give 'symbol', or 'textDocument' and 'position'")
        repo, path = ls.locate(params.text_document.uri)
        at = conv.from_position(repo, path, params.position)
        query = PositionQuery(repo, path, *at) if at is not None else NodesQuery(())
    try:
        services = service_map()
    except ValueError as exc:
        raise JsonRpcException(f"ripple: $RIPPLE_SERVICES: {exc}", -32803) from exc
    report = blast_radius(ls.graph(), query, depth=depth, services=services, tests=params.tests)

    def link(repo: str, path: str, line: int) -> str:
        return markdown_link(path, conv.text(repo, path).uri, line)

    data = report_json(report)
    diagram = {"mermaid": data["mermaid"], "links": [
        {"id": node_id, "label": label, "uri": conv.text(n.repo, n.file).uri, "line": n.start_line}
        for node_id, label, n in diagram_links(report)]}
    return {"markdown": render_markdown(report, link), "report": data, "diagram": diagram}


def index_status(ls: RippleServer, params: Any) -> dict[str, Any]:
    """Every folder: ``{uri, repo, db, state (ready | indexing | error), phase, error, watching, freshness,
    files, nodes}`` (``watching``: its watcher is armed: saved files are re-indexed; ``freshness``: the
    last ``ripple/status`` entry of the folder, ``null`` before the first check; ``files`` and ``nodes``
    count the folder's repository only, never the whole index file (a central index of hundreds of
    repositories, opened by every folder: the whole store's counts took 45 s per poll at 11 million
    edges); with a shared graph, ``nodes`` is left out)."""
    out = []
    for f in ls.folders:
        counts: dict[str, Any] = {}
        if ls.session is not None and ls.session.graph is not None and f.state != "error":
            try:  # the shared graph: this folder's repository only
                counts = {"files": len(ls.session.graph.file_checksums(f.repo))}
            except Exception as exc:  # a store that is down is reported, not raised
                counts = {"error": str(exc)}
        elif f.store is not None:
            try:  # this folder's repository: the whole store's counts take minutes over a central index
                found = f.store.repository_counts(f.repo)
                counts = {"files": found["files"], "nodes": found["nodes"]}
            except Exception as exc:  # a broken index is reported, not raised
                counts = {"error": str(exc)}
        out.append({"uri": f.uri, "repo": f.repo, "db": str(f.db), "state": f.state, "phase": f.phase,
                    "error": f.error, "watching": watching(f), "freshness": f.freshness, **counts})
    return {"folders": out}


def watching(folder: Any) -> bool:
    """Whether ``folder``'s watcher is armed and its thread alive (a watcher stopped by a reopen
    or a failure keeps its ``ready`` flag, but re-indexes nothing)."""
    thread = folder.thread
    return (folder.watcher is not None and folder.watcher.ready.is_set() and thread is not None
            and thread.is_alive() and not folder.stop.is_set())


def file_content(ls: RippleServer, params: FileContentParams) -> dict[str, Any]:
    """``{uri}`` -> ``{text}`` of a file of an indexed repository: from disk inside a workspace
    folder, else (a ``ripple:`` URI) the text kept in the index; neither at hand raises
    ``JsonRpcException`` -32803 (RequestFailed)."""
    repo, path = ls.locate(params.uri)
    lines = ls.converter().text(repo, path).disk
    if lines is None:
        raise JsonRpcException(f"ripple: the source of {repo}/{path} is not available on this machine", -32803)
    return {"text": "\n".join(lines) + "\n"}


def reindex(ls: RippleServer, *args: Any) -> dict[str, Any]:
    """Index every workspace folder again (in the background); returns the folders started."""
    return {"started": [f.repo for f in ls.folders if ls.writes(f) and ls.reindex(f)]}


MESSAGE_TYPES = {
    SEARCH: _request_type(SEARCH, SearchParams),
    SIMILAR: _request_type(SIMILAR, SimilarParams),
    BLAST_RADIUS: _request_type(BLAST_RADIUS, BlastRadiusParams),
    FILE_CONTENT: _request_type(FILE_CONTENT, FileContentParams),
    INDEX_STATUS: _request_type(INDEX_STATUS, IndexStatusParams, optional=True),
}
"""Request types of the custom methods (checked by the protocol before dispatch)."""

FEATURES = [(SEARCH, None, search), (SIMILAR, None, similar), (BLAST_RADIUS, None, blast_radius_request), (INDEX_STATUS, None, index_status),
            (FILE_CONTENT, None, file_content)]
COMMANDS = [(REINDEX, reindex)]
