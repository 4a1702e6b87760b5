"""The repository registry of the Bolt graph store (a mixin of :class:`stores.memgraph.MemgraphGraphStore`).

Layout: one ``(:Repository {key, name, product, root, branch, is_default, remote, vcs_commit,
indexed_at, counts, props})`` per indexed repository (and branch), beside the ``(:Node)`` graph
(``counts`` and ``props`` as JSON text). It is no ``(:Node)``: symbol look-ups and graph walks never
meet it. ``key`` is indexed (:data:`stores.memgraph.DDL`).

:meth:`BoltRegistry.remove_repository` runs in one explicit transaction: every file record of the
repository goes the way ``delete_files`` takes it (nodes detached, owned edges and unresolved calls
deleted, shared nodes left without an edge collected), then any node still carrying the repository
(none, unless a write was cut short) and the ``Repository`` node. The Cypher stays in the subset
Memgraph and ArcadeDB both accept (see :mod:`stores.memgraph`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar


from stores.contracts import REPOSITORY_COUNTS, RepositoryRecord

if TYPE_CHECKING:  # the mixin's host
    from stores.memgraph import MemgraphGraphStore

__all__ = ["BoltRegistry"]

_T = TypeVar("_T")

_FIELDS = ("key", "name", "product", "root", "branch", "is_default", "remote", "vcs_commit", "indexed_at",
           "counts", "props")
_RETURN = ", ".join(f"r.{f}" for f in _FIELDS)
_Q_UPSERT = "MERGE (r:Repository {key: $row.key}) SET " + ", ".join(f"r.{f} = $row.{f}" for f in _FIELDS[1:])
_Q_LIST = f"MATCH (r:Repository) RETURN {_RETURN}"
_Q_FILE_KEYS = "MATCH (f:IndexedFile {repo: $key}) RETURN f.fk"
_Q_DELETE = "MATCH (r:Repository {key: $key}) DELETE r RETURN count(*)"
_Q_THERE = ("OPTIONAL MATCH (f:IndexedFile {repo: $key}) WITH count(f) AS files"
            " OPTIONAL MATCH (r:Repository {key: $key}) RETURN files, count(r)")
_Q_FILES = "MATCH (f:IndexedFile {repo: $key}) RETURN f.fk, f.srcs"
_Q_COUNT_NODES = "UNWIND $keys AS k MATCH (n:Node {fk: k}) RETURN count(n)"
_Q_COUNT_EDGES = "UNWIND $rows AS p MATCH (s:Node {id: p.src})-[e]->() WHERE e.fk = p.fk RETURN count(e)"


def _record(row: list[Any]) -> RepositoryRecord:
    v = dict(zip(_FIELDS, row))
    counts = json.loads(v["counts"]) if v["counts"] else {}
    return RepositoryRecord(key=v["key"], name=v["name"], product=v["product"], root=v["root"], branch=v["branch"],
                            default=bool(v["is_default"]), remote=v["remote"], commit=v["vcs_commit"],
                            indexed_at=float(v["indexed_at"] or 0.0),
                            counts={k: int(counts.get(k, 0)) for k in REPOSITORY_COUNTS},
                            props=json.loads(v["props"]) if v["props"] else {})


class BoltRegistry:
    """The registry methods of :class:`stores.contracts.GraphStore` over Bolt (see the module
    docstring); they use the host's session, transaction and error plumbing."""

    def _registry(self: MemgraphGraphStore, work: Callable[[], _T]) -> _T:
        """Run ``work`` with the schema in place and driver errors mapped, as every method is
        (the host's ``_guarded``)."""
        return self._guarded(work)

    def upsert_repository(self: MemgraphGraphStore, record: RepositoryRecord) -> None:
        """Create or replace the ``Repository`` node ``record.key`` (one transaction)."""
        row = {"key": record.key, "name": record.name, "product": record.product, "root": record.root,
               "branch": record.branch, "is_default": bool(record.default), "remote": record.remote,
               "vcs_commit": record.commit, "indexed_at": float(record.indexed_at),
               "counts": json.dumps({k: int(record.counts.get(k, 0)) for k in REPOSITORY_COUNTS}),
               "props": json.dumps(record.props, sort_keys=True)}
        self._registry(lambda: self._write(lambda tx: tx.rows(_Q_UPSERT, row=row)))

    def repositories(self: MemgraphGraphStore) -> list[RepositoryRecord]:
        """Every ``Repository`` node, sorted by (name, default first, branch, key)."""
        records = [_record(r) for r in self._registry(lambda: self._read(_Q_LIST))]
        return sorted(records, key=lambda r: (r.name, not r.default, r.branch or "", r.key))

    def repository_counts(self: MemgraphGraphStore, key: str) -> dict[str, int]:
        """``{"files", "nodes", "edges"}`` of repository ``key`` (edges: those its files own, found
        from each file's edge sources, as ``delete_files`` finds them; every lookup by an index)."""

        def count() -> dict[str, int]:
            files = self._read(_Q_FILES, key=key)
            fks = [fk for fk, _ in files]
            pairs = [{"fk": fk, "src": src} for fk, srcs in files for src in (srcs or ())]
            nodes = sum(r[0] for r in self._read_batched(_Q_COUNT_NODES, "keys", fks)) if fks else 0
            edges = sum(r[0] for r in self._read_batched(_Q_COUNT_EDGES, "rows", pairs)) if pairs else 0
            return {"files": len(files), "nodes": int(nodes), "edges": int(edges)}

        return self._registry(count)

    def remove_repository(self: MemgraphGraphStore, key: str) -> bool:
        """Remove repository ``key`` whole in one transaction (see the module docstring); ``True``
        when it had a file record or a ``Repository`` node."""

        def body(tx: Any) -> bool:
            files, entries = tx.rows(_Q_THERE, key=key)[0]
            fks = [r[0] for r in tx.rows(_Q_FILE_KEYS, key=key)]
            if fks:
                self._remove_file_keys(tx, fks)
            tx.rows(_Q_DELETE, key=key)
            return bool(files or entries)

        return self._registry(lambda: self._write(body))
