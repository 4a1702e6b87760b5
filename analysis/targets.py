"""What a user's target names: a symbol, or ``PATH:LINE[:COL]`` (a position in an indexed file).

:func:`target_query` turns the text into a :class:`~analysis.impact.SymbolQuery` or a
:class:`~analysis.impact.PositionQuery`; :func:`file_candidates` says which indexed files a path can
mean. A path is matched by its trailing parts, and narrowed by what else it says: the repository
whose recorded root holds an absolute path, or a ``repo/path`` prefix naming the repository.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from analysis.impact import PositionQuery, SymbolQuery
from analysis.navigation import AmbiguousPath, closest_endpoints
from stores.contracts import GraphStore, Node

__all__ = ["file_candidates", "target_query", "position_miss", "nearest_definitions", "closest_symbols", "quoted_target",
           "EMPTY_INDEX", "empty_index_miss"]

_DEFINITIONS = ("Class", "Interface", "Enum", "Method", "Function", "Constructor")

_PATH_LINE = re.compile(r"(?P<path>[^()]+?):(?P<line>[0-9]+)(?::(?P<col>[0-9]+))?")
_WORD = re.compile(r"[\w$]+")  # an identifier of any of the languages (`$` for JavaScript's)


def file_candidates(graph: GraphStore, path: str) -> list[tuple[str, str]]:
    """The indexed files ``path`` can mean, sorted: the ``(repo, indexed path)`` pairs sharing the
    most trailing path parts with ``path`` (an absolute path, one relative to anywhere, ``repo/path``
    or a bare file name). Among files of several repositories that match as well, those whose
    repository the path names (the part just before the indexed path is the repository's key or name,
    or the absolute path lies under the root the registry records for it) are kept when there are
    any. One call per repository plus one or two."""
    parts = tuple(p for p in PurePosixPath(path.replace("\\", "/")).parts if p not in ("/", "."))
    best: list[tuple[str, str]] = []
    size = 0
    for repo in graph.repos():
        for indexed in graph.file_checksums(repo):
            ip = tuple(indexed.split("/"))
            k = min(len(ip), len(parts))
            if k and k >= size and parts[len(parts) - k:] == ip[len(ip) - k:]:
                if k > size:
                    best, size = [], k
                best.append((repo, indexed))
    if len({r for r, _ in best}) > 1:
        named = [(r, p) for r, p in best if _names_repository(graph, path, parts, r, p)]
        best = named or best
    return sorted(best)


def _names_repository(graph: GraphStore, path: str, parts: tuple[str, ...], repo: str, indexed: str) -> bool:
    """Whether ``path`` says it is ``indexed`` of ``repo``: the part before the indexed path is the
    repository's key or name, or the absolute path is under the repository's recorded root."""
    n = len(indexed.split("/"))
    before = parts[len(parts) - n - 1] if len(parts) > n else None
    try:
        entries = [r for r in graph.repositories() if r.key == repo]
    except Exception:  # noqa: BLE001 - a store without a registry: the key alone
        entries = []
    if before is not None and (before == repo or any(before == e.name for e in entries)):
        return True
    if PurePosixPath(path.replace("\\", "/")).is_absolute():
        return any(e.root and path.replace("\\", "/") == f"{e.root.rstrip('/')}/{indexed}" for e in entries)
    return False


def target_query(graph: GraphStore, target: str, repo: str | None = None) -> SymbolQuery | PositionQuery:
    """The query a user's ``target`` names: ``PATH:LINE[:COL]`` (1-based; a file of the index, of
    ``repo`` if given, matched by :func:`file_candidates`; a path that exists here is resolved
    first) is a :class:`PositionQuery`, anything else a :class:`SymbolQuery`. Raises
    :class:`ValueError` (the message says what to type) when the path is no file of the index, and
    :class:`~analysis.navigation.AmbiguousPath` (a ValueError) when it may be several."""
    m = _PATH_LINE.fullmatch(target.strip())
    if m is None:
        return SymbolQuery(target)
    path = Path(m["path"]).expanduser()
    found = [f for f in file_candidates(graph, str(path.resolve()) if path.exists() else m["path"]) if repo in (None, f[0])]
    if not found:
        where = f" of repository {repo!r}" if repo else ""
        raise ValueError(f"{m['path']} is not a file{where} of the index")
    if len(found) > 1:
        raise AmbiguousPath(f"{m['path']} may be any of " + ", ".join(f"{r}/{p}" for r, p in found)
                            + "; give more of its path (or the repository: repo/path, --repo)")
    (repo, rel), line = found[0], int(m["line"])
    col = int(m["col"]) - 1 if m["col"] and int(m["col"]) > 0 else None
    if col is None:
        return PositionQuery(repo, rel, line)
    start, word = _word_at(graph.file_text(repo, rel), line, col)
    return PositionQuery(repo, rel, line, start, word)


def _word_at(text: str | None, line: int, col: int) -> tuple[int, str]:
    """``(start column, identifier)`` of the identifier that holds 0-based code-point ``col`` of 1-based
    ``line`` in ``text`` (lines split at ``\\n`` only, as the parser counts them); ``(col, "")`` when the
    position is on no identifier (blank, punctuation, a number) or the text is not known."""
    lines = (text or "").split("\n")
    if not 1 <= line <= len(lines):
        return col, ""
    for m in _WORD.finditer(lines[line - 1]):
        if m.start() <= col < m.end():
            return (col, "") if m.group()[0].isdigit() else (m.start(), m.group())
    return col, ""


def nearest_definitions(graph: GraphStore, query: PositionQuery, nodes: list[Node] | None = None) -> list[Node]:
    """The definitions of ``query``'s file closest to its line, for a position that names nothing: the
    outermost class, method or function ending last above the line, then the one starting first
    below it (at most two; either is missing at the file's ends). Fields and the File node are not
    offered. ``nodes``: the file's nodes when already read (else one store call)."""
    nodes = graph.nodes_in_file(query.repo, query.path) if nodes is None else nodes
    code = [n for n in nodes if n.label in _DEFINITIONS]
    above = [n for n in code if n.end_line < query.line]
    below = [n for n in code if n.start_line > query.line]
    out = []
    if above:  # the latest end; the outermost (earliest start) of those ending on that line
        out.append(min(above, key=lambda n: (-n.end_line, n.start_line, n.id)))
    if below:  # the earliest start; the outermost (latest end) of those starting on that line
        out.append(min(below, key=lambda n: (n.start_line, -n.end_line, n.id)))
    return out


def position_miss(graph: GraphStore, query: PositionQuery) -> str:
    """The error for a position that names nothing: the position as the user wrote it (the path
    relative to its repository, which is named only when the index holds several), what is there,
    and the nearest definitions of the file (:func:`nearest_definitions`, ``NAME at PATH:LINE``) to
    retry with. Shared by every front end (CLI, MCP, REST) so that each says the same. Two or three
    store calls."""
    line = f"{query.path}:{query.line}"
    where = line + (f":{query.col + 1}" if query.col is not None else "")
    of = f" (repository {query.repo})" if len(graph.repos()) > 1 else ""
    nodes = graph.nodes_in_file(query.repo, query.path)
    around = any(n.label in _DEFINITIONS and n.start_line <= query.line <= n.end_line for n in nodes)
    near = [] if around else nearest_definitions(graph, query, nodes)
    listed = " or ".join(f"{n.qualname} at {n.file}:{n.start_line}" for n in near)
    if query.word:
        retry = f"give {line} for the definition around it" if around else f"nearest definitions: {listed}" if near \
            else "the file defines no method, function or class"
        return (f"`{query.word}` at {where}{of} is bound to nothing in the index (a local name, a keyword, a library's "
                f"method, or a call whose receiver's type is not known): {retry}, or a qualified name")
    text = graph.file_text(query.repo, query.path)
    lines = None if text is None else text.count("\n") + (0 if text.endswith("\n") else 1)
    what = f"{query.path} has {lines} line{'s' if lines != 1 else ''}" if lines is not None and query.line > lines \
        else "outside every method, function and class"
    if not near:
        return (f"nothing is defined at {where}{of} ({what}; the file defines no method, function or class): "
                "give a qualified name or a line of another file")
    return (f"nothing is defined at {where}{of} ({what}); nearest: {listed}: give a line inside a method, "
            "function or class (PATH:LINE), or its name")


def closest_symbols(graph: GraphStore, text: str, repo: str | None = None, limit: int = 10) -> list[Node]:
    """Up to ``limit`` symbols whose names come closest to what ``text`` names (its last dotted part,
    arguments dropped: ``httpx.Client.send`` asks for ``send``), of ``repo`` when given: what a
    target that matched nothing is answered with; for a target written as an endpoint (``GET /x``)
    the endpoints nearest its path (:func:`analysis.navigation.closest_endpoints`). One store call."""
    endpoints = closest_endpoints(graph, text, limit)
    if endpoints is not None:
        return endpoints
    short = text.split("(", 1)[0].strip().strip(".").rsplit(".", 1)[-1] or text
    return [n for n in graph.search_symbols(short, limit * (3 if repo else 1)) if repo in (None, n.repo)][:limit]


EMPTY_INDEX = "nothing was indexed into it, or the `ripple index` that made it was stopped before it finished writing"
"""Why an index may hold no repository: what the front ends say of one."""

QUOTED_TARGET_CHARS = 200
"""The characters of a target an error message quotes; the rest is counted."""


def quoted_target(text: str, limit: int = QUOTED_TARGET_CHARS) -> str:
    """``repr(text)`` for an error message, its first ``limit`` characters only when longer (a target of
    100,000 characters was echoed whole): ``'aaa…' (100,000 characters)``."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def empty_index_miss(text: str) -> str:
    """The error for target ``text`` asked of an index holding no repository (:data:`EMPTY_INDEX`)."""
    return f"no symbol matches {quoted_target(text)}: the index holds no repository ({EMPTY_INDEX}); run `ripple index PATH`"
