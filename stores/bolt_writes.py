"""How the Bolt graph store (:mod:`stores.memgraph`) writes: the write statements (Cypher in the subset
Memgraph and ArcadeDB both accept), rows cut into ``UNWIND`` batches by count and by bytes
(:func:`batches`), the transaction wrapper that counts round trips (:class:`BoltTx`), and one
``replace_files`` call's rows built before its transaction (:class:`WritePlan`: a retried transaction
sends the same rows) with what it removes first (:func:`remove_old`) and the shared nodes and stubs
left without an edge collected after (:func:`collect_loose`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from stores.contracts import EDGE_KINDS, SHARED_LABELS, IndexedFile, symbol_parts
from stores.errors import QueryFailed

if TYPE_CHECKING:
    from stores.memgraph import MemgraphGraphStore

__all__ = ["BATCH_BYTES", "BATCH_ROWS", "BoltTx", "WritePlan", "batches", "collect_loose", "file_key", "remove_old",
           "row_size"]

BATCH_ROWS = 5_000
"""Most rows one ``UNWIND`` statement carries (writes and id lists of reads)."""

BATCH_BYTES = 4 << 20
"""About the most bytes of parameters one statement carries: a batch is cut before it grows past this
(a single bigger row still goes alone). ArcadeDB refuses Bolt messages over 16 MiB, and then never
answers (the driver waits for ever); 250 files' texts can exceed that."""

_NO_SYMBOL_LABELS = ("File", "Repository", *SHARED_LABELS)  # not code symbols

# ----------------------------------------------------------------------------------- write queries
_Q_OLD_NODES = "UNWIND $keys AS k MATCH (n:Node {fk: k}) RETURN n.id"
_Q_OLD_SRCS = "UNWIND $keys AS k MATCH (f:IndexedFile {fk: k}) RETURN f.fk, f.srcs"
_Q_LOOSE_NEIGHBOURS = "UNWIND $ids AS i MATCH (n:Node {id: i})--(m:Node) WHERE m.fk IS NULL RETURN DISTINCT m.id"
_Q_DETACH = "UNWIND $ids AS i MATCH (n:Node {id: i}) DETACH DELETE n"
_Q_DELETE_OWNED_EDGES = (
    "UNWIND $rows AS p MATCH (s:Node {id: p.src})-[e]->(d:Node) WHERE e.fk = p.fk"
    " WITH e, d, d.fk IS NULL AS loose DELETE e WITH d, loose WHERE loose RETURN DISTINCT d.id"
)
_Q_DELETE_UNRESOLVED = "UNWIND $keys AS k MATCH (u:UnresolvedCall {fk: k}) DELETE u"
_Q_DELETE_FILES = "UNWIND $keys AS k MATCH (f:IndexedFile {fk: k}) DELETE f"
_Q_UPSERT_FILES = (
    "UNWIND $rows AS r MERGE (f:IndexedFile {fk: r.fk})"
    " SET f.repo = r.repo, f.path = r.path, f.language = r.language, f.checksum = r.checksum,"
    " f.size = r.size, f.text = r.text, f.srcs = r.srcs"
)
_Q_UPSERT_NODES = (
    "UNWIND $rows AS r MERGE (n:Node {id: r.id})"
    " SET n.label = r.label, n.name = r.name, n.qualname = r.qualname, n.repo = r.repo, n.file = r.file,"
    " n.fk = r.fk, n.start_line = r.start_line, n.start_col = r.start_col, n.end_line = r.end_line,"
    " n.end_col = r.end_col, n.props = r.props, n.sym = r.sym"
)
# The relationship type cannot be a parameter: {kind} is one of EDGE_KINDS, checked before use.
_Q_CREATE_EDGES = (
    "UNWIND $rows AS r MERGE (s:Node {{id: r.src}}) MERGE (d:Node {{id: r.dst}})"
    " CREATE (s)-[:{kind} {{fk: r.fk, repo: r.repo, file: r.file, line: r.line, col: r.col,"
    " resolution: r.resolution, props: r.props}}]->(d)"
)
_Q_CREATE_UNRESOLVED = (
    "UNWIND $rows AS r CREATE (:UnresolvedCall {fk: r.fk, caller: r.caller, name: r.name, arity: r.arity,"
    " receiver: r.receiver, repo: r.repo, file: r.file, line: r.line, col: r.col})"
)
_Q_COLLECT_LOOSE = (
    "UNWIND $ids AS i MATCH (n:Node {id: i}) WHERE n.fk IS NULL"
    " OPTIONAL MATCH (n)-[e]-() WITH n, count(e) AS degree WHERE degree = 0 DELETE n"
)

_T = TypeVar("_T")


def file_key(repo: str, path: str) -> str:
    """The owning-file key stored on nodes, edges and unresolved calls."""
    return json.dumps([repo, path], ensure_ascii=False, separators=(",", ":"))


def _props_json(value: dict[str, Any], what: str) -> str | None:
    if not value:
        return None
    try:
        return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise QueryFailed(f"{what} props must be JSON-serialisable: {exc}") from exc


def _symbol_key(label: str, name: str) -> str | None:
    if label in _NO_SYMBOL_LABELS:
        return None
    parts = symbol_parts(name)
    return parts[0].lower()[0] if parts else None


def batches(rows: Sequence[_T], size: int = BATCH_ROWS, max_bytes: int = BATCH_BYTES) -> list[Sequence[_T]]:
    """``rows`` cut into batches of at most ``size`` rows and about ``max_bytes`` (see row_size)."""
    out: list[Sequence[_T]] = []
    start, total = 0, 0
    for i, row in enumerate(rows):
        n = row_size(row)
        if i > start and (i - start >= size or total + n > max_bytes):
            out.append(rows[start:i])
            start, total = i, 0
        total += n
    if start < len(rows):
        out.append(rows[start:])
    return out


def row_size(value: Any) -> int:
    """Roughly the bytes ``value`` (a row: a string or a flat dict of scalars and lists of strings)
    takes in a Bolt message: strings by length (UTF-8 length when long and not ASCII), 9 per other
    value and per key."""
    if isinstance(value, str):
        return len(value) if len(value) < 256 or value.isascii() else len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, dict):
        total = 0
        for v in value.values():
            if isinstance(v, str):
                total += row_size(v) + 9
            elif isinstance(v, list):
                total += sum(row_size(x) + 9 for x in v) + 9
            else:
                total += 18
        return total
    return 9


class BoltTx:
    """A transaction (or session) that counts its round trips and returns plain value rows."""

    def __init__(self, store: MemgraphGraphStore, tx: Any) -> None:
        self._store = store
        self._tx = tx

    def rows(self, query: str, **params: Any) -> list[list[Any]]:
        """Run ``query`` with ``params`` once (one round trip); its rows as lists of values."""
        self._store.count_trip()
        return self._tx.run(query, params).values()

    def run_batched(self, query: str, name: str, rows: Sequence[Any], **params: Any) -> list[list[Any]]:
        """Run ``query`` once per batch of ``rows`` (bound to ``$name``; at most BATCH_ROWS rows and
        about BATCH_BYTES)."""
        out: list[list[Any]] = []
        for chunk in batches(list(rows)):
            out.extend(self.rows(query, **{name: list(chunk)}, **params))
        return out


def remove_old(tx: BoltTx, keys: list[str], keep: set[str], *, delete_records: bool) -> set[str]:
    """Delete what the files ``keys`` own: nodes not in ``keep`` (with every edge touching them),
    owned edges, unresolved calls (and the file records when ``delete_records``). Collects shared
    nodes and stubs left without edges. Returns the ids of shared nodes / stubs to check."""
    loose: set[str] = set()
    old_nodes = {r[0] for r in tx.run_batched(_Q_OLD_NODES, "keys", keys)}
    removed = sorted(old_nodes - keep)
    if removed:
        loose.update(r[0] for r in tx.run_batched(_Q_LOOSE_NEIGHBOURS, "ids", removed))
        tx.run_batched(_Q_DETACH, "ids", removed)
    pairs = [
        {"fk": fk, "src": src}
        for fk, srcs in tx.run_batched(_Q_OLD_SRCS, "keys", keys)
        for src in (srcs or ())
    ]
    if pairs:
        loose.update(r[0] for r in tx.run_batched(_Q_DELETE_OWNED_EDGES, "rows", pairs))
        loose.update(p["src"] for p in pairs if p["src"] not in old_nodes)
    tx.run_batched(_Q_DELETE_UNRESOLVED, "keys", keys)
    if delete_records:
        tx.run_batched(_Q_DELETE_FILES, "keys", keys)
        collect_loose(tx, loose)
    return loose


def collect_loose(tx: BoltTx, ids: Iterable[str]) -> None:
    """Delete the shared nodes and stubs among ``ids`` that no edge touches."""
    candidates = sorted(set(ids))
    if candidates:
        tx.run_batched(_Q_COLLECT_LOOSE, "ids", candidates)


class WritePlan:
    """The rows one :meth:`MemgraphGraphStore.replace_files` call writes, built before the
    transaction (so a retried transaction re-sends the same rows)."""

    def __init__(self, batch: list[IndexedFile]) -> None:
        self.keys = [file_key(f.file.repo, f.file.path) for f in batch]
        nodes: dict[str, dict[str, Any]] = {}
        self.shared: set[str] = set()
        self.edges: dict[str, list[dict[str, Any]]] = {}
        self.unresolved: list[dict[str, Any]] = []
        srcs: dict[str, dict[str, None]] = {}
        for f in batch:
            for n in f.nodes:
                shared = n.label in SHARED_LABELS
                if shared:
                    self.shared.add(n.id)
                repo, path = ("", "") if shared else (n.repo, n.file)  # whatever the record says
                nodes[n.id] = {
                    "id": n.id, "label": n.label, "name": n.name, "qualname": n.qualname, "repo": repo,
                    "file": path, "fk": None if shared else file_key(repo, path),
                    "start_line": n.start_line, "start_col": n.start_col, "end_line": n.end_line,
                    "end_col": n.end_col, "props": _props_json(n.props, f"node {n.id}"), "sym": _symbol_key(n.label, n.name),
                }
            for e in dict.fromkeys(f.edges):
                if e.kind not in EDGE_KINDS:
                    raise QueryFailed(f"edge kind {e.kind!r} ({e.src} -> {e.dst}) is not one of {', '.join(EDGE_KINDS)}")
                fk = file_key(e.repo, e.file)
                srcs.setdefault(fk, {})[e.src] = None
                self.edges.setdefault(e.kind, []).append({
                    "src": e.src, "dst": e.dst, "fk": fk, "repo": e.repo, "file": e.file, "line": e.line,
                    "col": e.col, "resolution": e.resolution, "props": _props_json(e.props, f"edge {e.src} -> {e.dst}"),
                })
            for u in f.unresolved:
                self.unresolved.append({
                    "fk": file_key(u.repo, u.file), "caller": u.caller, "name": u.name, "arity": u.arity,
                    "receiver": u.receiver, "repo": u.repo, "file": u.file, "line": u.line, "col": u.col,
                })
        self.nodes = list(nodes.values())
        self.files = [
            {
                "fk": key, "repo": f.file.repo, "path": f.file.path, "language": f.file.language,
                "checksum": f.file.checksum, "size": f.file.size, "text": f.text, "srcs": list(srcs.get(key, {})),
            }
            for key, f in zip(self.keys, batch)
        ]

    def replace(self, tx: BoltTx) -> None:
        """The transaction body: remove the old state, write the new, collect loose nodes."""
        keep = {n["id"] for n in self.nodes}
        loose = remove_old(tx, self.keys, keep, delete_records=False)
        tx.run_batched(_Q_UPSERT_FILES, "rows", self.files)
        tx.run_batched(_Q_UPSERT_NODES, "rows", self.nodes)
        for kind, rows in self.edges.items():
            tx.run_batched(_Q_CREATE_EDGES.format(kind=kind), "rows", rows)
        tx.run_batched(_Q_CREATE_UNRESOLVED, "rows", self.unresolved)
        collect_loose(tx, loose | self.shared)
