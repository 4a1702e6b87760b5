"""Custom requests ``ripple/search``, ``ripple/indexStatus``, ``ripple/fileContent`` and the
``ripple.reindex`` command (workspace/executeCommand)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from stores.factory import query_engine

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES", "COMMANDS", "SEARCH", "INDEX_STATUS", "FILE_CONTENT", "REINDEX"]

SEARCH = "ripple/search"
INDEX_STATUS = "ripple/indexStatus"
FILE_CONTENT = "ripple/fileContent"
REINDEX = "ripple.reindex"


def _param(params: Any, name: str, kind: type, default: Any = None) -> Any:
    value = params.get(name, default) if isinstance(params, dict) else getattr(params, name, default)
    if value is None and default is None or not isinstance(value, kind):
        raise JsonRpcInvalidParams(f"{name!r} must be a {kind.__name__}")
    return value


def search(ls: RippleServer, params: Any) -> dict[str, Any]:
    """``{query, limit?}`` -> ``{hits: [{uri, range, name, kind, score, callers}]}`` by hybrid
    search over every ready folder's index, best first."""
    query, limit = _param(params, "query", str), _param(params, "limit", int, 20)
    conv = ls.converter()
    hits = []
    for folder in ls.folders:
        if folder.store is not None and folder.state != "error":
            hits += query_engine(folder.store).search(query, limit).hits
    hits.sort(key=lambda h: -h.score)
    return {"hits": [{
        "uri": conv.text(h.chunk.repo, h.chunk.file).uri,
        "range": conv.range(h.chunk.repo, h.chunk.file, h.chunk.start_line, 0, h.chunk.end_line + 1, 0),
        "name": h.node.name, "id": h.node.id, "kind": h.chunk.kind, "score": h.score, "callers": h.callers,
    } for h in hits[:limit]]}


def index_status(ls: RippleServer, params: Any) -> dict[str, Any]:
    """Every folder: ``{uri, repo, db, state (ready | indexing | error), phase, error, files, nodes}``."""
    out = []
    for f in ls.folders:
        counts: dict[str, Any] = {}
        if f.store is not None:
            try:
                stats = f.store.stats()
                counts = {"files": sum(stats["files"].values()), "nodes": sum(stats["nodes"].values())}
            except Exception as exc:  # a broken index is reported, not raised
                counts = {"error": str(exc)}
        out.append({"uri": f.uri, "repo": f.repo, "db": str(f.db), "state": f.state, "phase": f.phase,
                    "error": f.error, **counts})
    return {"folders": out}


def file_content(ls: RippleServer, params: Any) -> dict[str, Any]:
    """``{uri}`` -> ``{text}`` of a file of an indexed repository: from disk inside a workspace
    folder, else (a ``ripple:`` URI) the text kept in the index."""
    repo, path = ls.locate(_param(params, "uri", str))
    lines = ls.converter().text(repo, path).disk
    if lines is None:
        raise JsonRpcException(f"ripple: the source of {repo}/{path} is not available on this machine", -32803)
    return {"text": "\n".join(lines) + "\n"}


def reindex(ls: RippleServer, *args: Any) -> dict[str, Any]:
    """Index every workspace folder again (in the background); returns the folders started."""
    return {"started": [f.repo for f in ls.folders if f.store is not None and ls.reindex(f)]}


FEATURES = [(SEARCH, None, search), (INDEX_STATUS, None, index_status), (FILE_CONTENT, None, file_content)]
COMMANDS = [(REINDEX, reindex)]
