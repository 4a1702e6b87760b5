"""Test oracle for the embedded index: its whole content as plain sorted data, and the consistency
rules every index must satisfy after any run, finished or killed.

Reads the SQLite file directly (read-only, its own connection) so that what is checked does not go
through the code under test.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any


def _connect(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True)


def dump(db: Path) -> dict[str, Any]:
    """Files, nodes, edges, unresolved calls and chunks, each sorted, ids and all properties."""
    conn = _connect(db)
    try:
        q = lambda sql: sorted(conn.execute(sql).fetchall(), key=repr)  # noqa: E731
        return {
            "files": q("SELECT repo, path, language, checksum, size FROM files"),
            "nodes": q("SELECT id, label, name, qualname, repo, file, start_line, start_col, end_line, end_col, props FROM nodes"),
            "edges": q("SELECT kind, src, dst, repo, file, line, col, resolution FROM edges"),
            "unresolved": q("SELECT caller, name, arity, receiver, repo, file, line, col FROM unresolved"),
            "chunks": q("SELECT id, repo, file, kind, fqn, start_line, end_line, checksum FROM chunks"),
        }
    finally:
        conn.close()


def calls(db: Path, repo: str = "r") -> list[str]:
    """CALLS edges as ``src -> dst [resolution]`` with the ``repo:`` prefix dropped, sorted."""
    conn = _connect(db)
    try:
        rows = conn.execute("SELECT src, dst, resolution FROM edges WHERE kind = 'CALLS'").fetchall()
    finally:
        conn.close()
    cut = len(repo) + 1
    return sorted({f"{s[cut:]} -> {d[cut:]} [{r}]" for s, d, r in rows})


def http_links(db: Path) -> list[tuple[str, str, str | None]]:
    """CALLS_HTTP edges as ``(caller's last dotted part, endpoint id, the edge's service prop)``, sorted."""
    conn = _connect(db)
    try:
        rows = conn.execute("SELECT src, dst, props FROM edges WHERE kind = 'CALLS_HTTP'").fetchall()
    finally:
        conn.close()
    return sorted((s.rsplit(".", 1)[-1], d, json.loads(p).get("service")) for s, d, p in rows)


def unresolved(db: Path) -> list[str]:
    """Unresolved call sites as ``file:line name``, sorted."""
    conn = _connect(db)
    try:
        rows = conn.execute("SELECT file, line, name FROM unresolved").fetchall()
    finally:
        conn.close()
    return sorted(f"{f}:{line} {name}" for f, line, name in rows)


def problems(db: Path) -> list[str]:
    """Violations of the index's invariants (empty when consistent): no edge with a missing end, no
    node, unresolved call or chunk of a file that is not indexed, no chunk naming a missing node, no
    duplicate node or edge, a File node per file whose checksum is the file's, no orphan FTS row."""
    conn = _connect(db)
    out: list[str] = []

    def each(sql: str, what: str) -> None:
        for row in conn.execute(sql).fetchall():
            out.append(f"{what}: {row}")

    try:
        each("SELECT kind, src, dst FROM edges WHERE src NOT IN (SELECT id FROM nodes)"
             " OR dst NOT IN (SELECT id FROM nodes)", "dangling edge")
        each("SELECT id, repo, file FROM nodes WHERE repo <> '' AND (repo, file) NOT IN (SELECT repo, path FROM files)",
             "node of no file")
        each("SELECT caller, name FROM unresolved WHERE (repo, file) NOT IN (SELECT repo, path FROM files)",
             "unresolved call of no file")
        each("SELECT id, file FROM chunks WHERE (repo, file) NOT IN (SELECT repo, path FROM files)", "orphan chunk")
        each("SELECT id, fqn FROM chunks WHERE fqn NOT IN (SELECT id FROM nodes)", "chunk of a missing node")
        each("SELECT kind, src, dst, repo, file, line, col, count(*) FROM edges"
             " GROUP BY kind, src, dst, repo, file, line, col HAVING count(*) > 1", "duplicate edge")
        each("SELECT rowid FROM chunks_fts WHERE rowid NOT IN (SELECT rowid FROM chunks)", "orphan FTS row")
        each("SELECT rowid FROM chunks WHERE rowid NOT IN (SELECT rowid FROM chunks_fts)", "chunk without FTS row")
        files = conn.execute("SELECT repo, path, checksum FROM files").fetchall()
        file_nodes = {(r, f): json.loads(p or "{}") for r, f, p in conn.execute(
            "SELECT repo, file, props FROM nodes WHERE label = 'File'")}
        for repo, path, checksum in files:
            props = file_nodes.get((repo, path))
            if props is None:
                out.append(f"file without File node: {path}")
            elif props.get("checksum") != checksum:
                out.append(f"File node checksum differs: {path}")
    finally:
        conn.close()
    return out


def checksum(data: bytes) -> str:
    """The checksum the index keeps for a file's bytes."""
    return hashlib.sha256(data).hexdigest()
