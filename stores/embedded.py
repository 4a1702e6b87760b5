"""The embedded default backend: graph, BM25 and vectors in one SQLite file per workspace.

:class:`EmbeddedStore` implements both :class:`~stores.contracts.GraphStore` and
:class:`~stores.contracts.SearchIndex` over a single SQLite database (stdlib :mod:`sqlite3`, WAL
journal, ``synchronous=NORMAL``):

* the graph: file records, nodes, edges (indexed on ``(dst, kind)``, ``(src, kind)``, their file;
  ``props`` as JSON), unresolved calls (indexed on ``name``), with every id, ``(repo, file)`` and
  label / kind as an integer key (:mod:`stores.embedded_schema`, schema 6 to 8: the tables are
  ``*_rows``; views named ``files``, ``nodes``, ``edges``, ``unresolved`` and ``chunks`` show them
  with their strings, as schema 5 stored them). File texts are zlib-compressed. Shared nodes
  (:data:`~stores.contracts.SHARED_LABELS`: Endpoint, Topic) are stored with ``repo = file = ''``,
  so no file's replacement or deletion takes them; a write removes those it left without an edge;
* ``chunks`` and ``chunks_fts``, an FTS5 table whose columns ``name``, ``fqn`` and ``text`` hold the
  chunk's fields *analysed* by :func:`stores.analyzer.analyze` (tokens joined by spaces; the
  ``unicode61`` tokenizer with ``tokenchars`` :data:`stores.analyzer.FTS_TOKENCHARS` keeps every
  analysed token whole); BM25 via ``bm25(chunks_fts, 3, 2, 1)``. The FTS table is *contentless*
  (``content=''``): it keeps its inverted index and column sizes, not a copy of the text; a chunk's
  text is itself a byte range of its file's text when found there (plus what is not: a heading
  trail, a class chunk's member signatures), so source text is stored once. Removing a row
  means FTS5's ``'delete'`` command with the analysed values it was indexed with, recomputed from
  the chunk row (:mod:`stores.embedded_write`; analysis is deterministic for a schema version);
* embeddings as normalised float32 blobs on the chunk rows, searched by exact cosine in process
  (numpy), with an in-memory matrix reloaded lazily after any write; from ``ann_threshold``
  embedded chunks on, approximately (:mod:`stores.vector_index`: an int8 HNSW index beside the
  file, candidates re-ranked by these exact vectors);
* ``meta``: the schema version; the SQLite header's ``application_id`` is :data:`APPLICATION_ID`.
  A ripplegraph index of an older schema version raises :class:`~stores.errors.StoreOutdated`
  (rebuilt by ``ripple index``), one of a newer version :class:`~stores.errors.StoreTooNew` (never
  rebuilt: the message asks for an upgrade or another ``--db``); a damaged ripplegraph index :class:`~stores.errors.StoreCorrupt`
  (delete it and re-index); any other file :class:`~stores.errors.NotAnIndex`, whose message never
  suggests deleting a file ripplegraph did not create.

Read-only indexes: when the file cannot be opened for writing (a read-only mount, a file or folder
this user may not write, so that SQLite cannot create the ``-wal`` / ``-shm`` files beside it), the
store opens it read-only (``mode=ro``; when even the ``-shm`` file cannot be created, ``immutable=1``:
such a reader does not see later writes of another process). Reads work; :attr:`EmbeddedStore.read_only`
says why, and every write raises :class:`~stores.errors.StoreReadOnly`. Failed writes say what
happened: ``disk full: N bytes free on MOUNT``, ``read-only: ...``, ``busy: ...``
(:func:`stores.errors.disk_full_message`, :func:`stores.errors.read_only_message`).

:meth:`EmbeddedStore.replace_files` writes the graph *and* the chunks of every file of the call in one
transaction, so graph and search never disagree.

Threads and processes: one instance serialises its calls with a lock, so it may be shared between
threads, but it is meant for one writer. Readers that want to run concurrently with the writer
open their own :class:`EmbeddedStore` on the same path (WAL lets readers proceed while one writer
commits). A writer blocked by another process's write waits up to ``busy_timeout`` seconds, then
raises :class:`~stores.errors.StoreUnavailable`.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import stat
import threading
from urllib.parse import quote
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from stores.lazy_import import LazyModule
from stores.contracts import (
    CODE_UNIT_KINDS,
    Chunk,
    Edge,
    GraphStore,
    IndexedFile,
    Node,
    ScoredChunk,
    SearchFilters,
    SearchIndex,
    UnresolvedCall,
    SymbolNameIndex,
    SymbolKey,
    SymbolRef,
    query_parts,
)
from stores.chunk_prep import ChunkBasis, FoldedMaxima, PreparedChunks
from stores.embedded_lexical import TERM_CACHE_TERMS, EmbeddedLexical, LexicalReader
from stores.embedded_registry import EmbeddedRegistry
from stores.embedded_tx import EmbeddedTransactions
from stores.model_vectors import EmbeddedModelVectors
from stores.read_cache import StampedCache
from stores.embedded_migrate import ensure_current
from stores.embedded_symbols import symbol_keys
from stores.qualified_symbols import with_qualified
from stores.embedded_schema import (MIGRATABLE_VERSIONS, NIDS_OF, NODE_SELECT, SCHEMA_VERSION, add_vector_keys_index,
                                    decompress_text, graph_layout_current, id_hash, id_keys, missing_objects, node_row, qualname_sql,
                                    read_chunks, schema_statements)
from stores.embedded_write import EmbeddedWriter, normalised_blob
from stores.vector_index import ANN_THRESHOLD, AnnParams, AnnVectors
from stores.errors import (StoreCorrupt, StoreError, StoreIncomplete, StoreOutdated, StoreReadOnly, StoreTooNew,
                           StoreUnavailable, read_only_message)
from stores.sqlite_file import APPLICATION_ID, file_identity, is_ripple_index, map_sqlite_error, not_an_index

if TYPE_CHECKING:
    import numpy as np
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)

__all__ = ["EmbeddedStore", "SCHEMA_VERSION", "APPLICATION_ID", "is_ripple_index"]  # the last two from stores.sqlite_file

#: Bumped whenever the schema or the analysed FTS content changes; an index of another version must be
#: rebuilt.
_APPLICATION = "ripplegraph"

FILE_TEXT_CACHE_FILES = 4096
FILE_TEXT_CACHE_BYTES = 16 * 1024 * 1024
"""Bounds of the decompressed file texts a store keeps for cutting chunk texts (``get_chunks``)."""
_IDS_PARAM = "SELECT value FROM json_each(?)"  # one bound parameter for any number of keys

_EDGE_SELECT = ("SELECT k.term, s.id, d.id, p.repo, p.path, e.line, e.col, r.term, e.props FROM edge_rows e"
                " JOIN terms k ON k.tid = e.kind JOIN ids s ON s.nid = e.src JOIN ids d ON d.nid = e.dst"
                " JOIN paths p ON p.fid = e.fid LEFT JOIN terms r ON r.tid = e.resolution")
"""The ``edges`` view's columns (kind, src, dst, repo, file, line, col, resolution, props) over the rows."""
_UNRESOLVED_COLS = "caller, name, arity, receiver, repo, file, line, col"
_REPOS = ("SELECT r.repo FROM (SELECT DISTINCT repo FROM paths) r WHERE EXISTS (SELECT 1 FROM paths p"
          " WHERE p.repo = r.repo AND ((p.repo <> '' AND EXISTS (SELECT 1 FROM node_rows n WHERE n.fid = p.fid))"
          " OR EXISTS (SELECT 1 FROM file_rows f WHERE f.fid = p.fid)"
          " OR EXISTS (SELECT 1 FROM chunk_rows c WHERE c.fid = p.fid)))")
"""The repositories with a file, a node (of a repository: ``''`` holds the shared nodes) or a chunk.
Asked per repository (the ``(repo, path)`` index), each stops at its first live path, and the node
test, on its index, comes before the file rows, whose table pages hold the file texts: every path
tested against ``file_rows`` first read most of a 4.5 GiB index's pages (45 s, and a full page cache
per connection, at 500 repositories)."""
_EDGE_ORDER = "ORDER BY p.repo, p.path, e.line, e.col, s.id, d.id, k.term"

_T = TypeVar("_T")


def _guarded(method: Callable[..., _T]) -> Callable[..., _T]:
    """Serialise a public method on the instance lock and map sqlite3 errors at the boundary."""

    @functools.wraps(method)
    def wrapper(self: EmbeddedStore, *args: Any, **kwargs: Any) -> _T:
        with self._lock:
            if self._conn is None:
                raise StoreUnavailable(f"index {self.path} is closed")
            try:
                return method(self, *args, **kwargs)
            except sqlite3.Error as exc:
                raise map_sqlite_error(exc, self.path) from exc

    return wrapper


class EmbeddedStore(EmbeddedLexical, EmbeddedRegistry, EmbeddedTransactions, EmbeddedModelVectors, EmbeddedWriter, GraphStore, SearchIndex):
    """Graph store and search index in one SQLite file (see the module docstring).

    ``EmbeddedStore(path)`` opens ``path``, creating the file and its parent folders if needed.
    Raises :class:`~stores.errors.StoreUnavailable` when the file cannot be created or opened (no
    permission, parent not creatable, locked longer than ``busy_timeout`` seconds) and
    :class:`~stores.errors.StoreCorrupt` when it is not a ripplegraph index of
    :data:`SCHEMA_VERSION`. Every method maps sqlite3 errors the same way; other failures raise
    :class:`~stores.errors.QueryFailed`.

    Grouping methods (:meth:`incoming`, :meth:`outgoing`, :meth:`find_symbols`,
    :meth:`unresolved_calls`) return a key for every requested id / name, with ``[]`` when nothing
    matches; :meth:`get_nodes` / :meth:`get_chunks` omit missing ids, as documented.
    """

    def __init__(self, path: str | Path, *, busy_timeout: float = 5.0, ann_threshold: int = ANN_THRESHOLD,
                 ann_params: AnnParams | None = None) -> None:
        self.path = Path(path)
        self._ann = AnnVectors(self.path.with_name(self.path.name + ".vectors"), ann_threshold, ann_params)
        """Approximate search from ``ann_threshold`` embedded chunks on, built and searched as
        ``ann_params`` says (:mod:`stores.vector_index`)."""
        self.read_only: str | None = None
        """Why the index is open for reading only (``read-only: ...``), or ``None`` (writable)."""
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._generation = 0  # bumped by every write of this instance
        self._vectors: _VectorCache | None = None
        self._counts: tuple[int, int, dict[str, int]] | None = None  # (generation, data_version, counts)
        self._names: tuple[tuple[int, int], SymbolNameIndex] | None = None
        self._file_texts: StampedCache[bytes] = StampedCache(FILE_TEXT_CACHE_FILES, FILE_TEXT_CACHE_BYTES)
        self._term_docs: StampedCache[int] = StampedCache(TERM_CACHE_TERMS, TERM_CACHE_TERMS)
        self._lexical: LexicalReader | None = None  # BM25's own connection (stores.embedded_lexical)
        self._lexical_failed = False
        self._file_id: tuple[int, int] | None = None
        """``(device, inode)`` of the file the main connection opened (:func:`stores.sqlite_file.file_identity`):
        BM25's connection, opened later by name, must reach the same file."""
        self._busy_timeout = busy_timeout
        self._ro_target = "file:" + quote(str(self.path.absolute())) + "?mode=ro"
        """What a read-only connection to this index opens (BM25's; ``immutable=1`` added when the
        main connection needed it)."""
        if self.path.is_dir():
            raise StoreUnavailable(f"{self.path} is a folder, not an index file; pass the index file (such as "
                                   f"{self.path / 'index.db'})")
        try:
            mode = self.path.stat().st_mode
        except OSError:
            mode = None  # absent (created below) or unreadable (SQLite says why)
        if mode is not None and not stat.S_ISREG(mode):
            # A FIFO would block or fail as a "disk I/O error"; /dev/null swallows the schema while SQLite
            # creates /dev/null-journal beside it. Never hand SQLite anything but a file.
            raise StoreUnavailable(f"{self.path} is not a regular file (a FIFO or a device), not an index file; "
                                   "pass another --db (or RIPPLE_DB)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"cannot create the folder of index {self.path}: {exc}") from exc
        try:
            self._conn = self._connect(str(self.path), busy_timeout, uri=False)
        except StoreError as exc:
            # Not writable (a read-only mount; a file or folder this user may not write): read it.
            if not isinstance(exc, StoreReadOnly) or not self.path.is_file():
                raise
            reason = read_only_message(self.path)
            target = "file:" + quote(str(self.path.absolute()))
            try:
                self._conn = self._connect(target + "?mode=ro", busy_timeout, uri=True)
            except StoreError:
                # WAL mode needs <db>-shm even to read; where it cannot be created, nobody is writing.
                self._conn = self._connect(target + "?mode=ro&immutable=1", busy_timeout, uri=True)
                self._ro_target = target + "?mode=ro&immutable=1"
            self._file_id = file_identity(self.path)
            self.read_only = reason
            return
        self._file_id = file_identity(self.path)
        if not os.access(self.path, os.W_OK):  # SQLite opened the file read-only by itself
            self.read_only = read_only_message(self.path)

    def _connect(self, target: str, busy_timeout: float, uri: bool) -> sqlite3.Connection:
        """A connection to ``target`` that passed :meth:`_open`; raises the mapped store error."""
        try:
            conn = sqlite3.connect(target, timeout=busy_timeout, isolation_level=None, check_same_thread=False,
                                   uri=uri)
        except sqlite3.Error as exc:
            raise map_sqlite_error(exc, self.path, ours=False) from exc
        try:
            self._open(conn, writable=not uri)
        except sqlite3.Error as exc:
            conn.close()
            raise map_sqlite_error(exc, self.path, ours=False) from exc
        except BaseException:
            conn.close()
            raise
        return conn

    # ----------------------------------------------------------------------------------- lifecycle

    @staticmethod
    def default_path(root: str | Path) -> Path:
        """``<root>/.ripple/index.db``, the workspace's default index file (the folder is created when
        the store is opened, not here)."""
        return Path(root) / ".ripple" / "index.db"

    def _open(self, conn: sqlite3.Connection, writable: bool = True) -> None:
        # An index file may come with a repository: its schema (views, triggers, defaults) must not be
        # able to call functions with side effects (SQLite's trusted_schema, off as its docs advise).
        conn.execute("PRAGMA trusted_schema = OFF")
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables and not writable:
            raise not_an_index(self.path, "an empty database")
        if not tables:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Another process may have created the schema between our check and the lock.
                if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                    for statement in schema_statements():
                        conn.execute(statement)
                    conn.executemany(
                        "INSERT INTO meta (key, value) VALUES (?, ?)",
                        [("application", _APPLICATION), ("schema_version", str(SCHEMA_VERSION))],
                    )
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        ours = conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        if "meta" not in tables:
            if ours:
                raise StoreCorrupt(f"index {self.path} is damaged (no meta table); delete it and re-index")
            raise not_an_index(self.path, "a SQLite database without ripplegraph's tables")
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("application") != _APPLICATION:
            raise not_an_index(self.path, "a SQLite database of another application")
        version = meta.get("schema_version")
        if version is not None and version.isdigit() and int(version) > SCHEMA_VERSION:
            raise StoreTooNew(
                f"index {self.path} has schema version {version!r}, written by a newer ripplegraph; this one "
                f"reads {SCHEMA_VERSION}: upgrade ripplegraph to use it, or pass another --db to index with this one"
            )
        if version != str(SCHEMA_VERSION) and (version not in {str(v) for v in MIGRATABLE_VERSIONS}
                                               or not graph_layout_current(conn)):
            raise StoreOutdated(
                f"index {self.path} has schema version {meta.get('schema_version')!r}, this ripplegraph "
                f"needs {SCHEMA_VERSION}; run `ripple index` again to rebuild it"
            )
        lacking = missing_objects(conn) if version == str(SCHEMA_VERSION) else []
        if lacking:  # ours (its meta says so), of this version, a table dropped: rebuilt as an old one is
            raise StoreIncomplete(f"index {self.path} is damaged (no {', '.join(lacking)}); run `ripple index` again "
                                  "to rebuild it")
        if not writable:
            conn.execute("PRAGMA temp_store = MEMORY")
            conn.execute("PRAGMA cache_size = -65536")  # 64 MiB
            conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.ripple_vocab USING fts5vocab(main, chunks_fts, 'row')")
            conn.execute("PRAGMA query_only = ON")
            return
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.execute("PRAGMA cache_size = -65536")  # 64 MiB
        add_vector_keys_index(conn)
        ensure_current(conn, version)  # 6 or 7 -> 8; the block maxima's guard, rebuilt when stale
        # Per-connection document frequencies of the FTS terms (see bm25).
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.ripple_vocab USING fts5vocab(main, chunks_fts, 'row')")

    def _read_target(self) -> str:
        """The URI of a read-only connection to this index (:mod:`stores.embedded_lexical`)."""
        return self._ro_target

    def close(self) -> None:
        """Close the connections (idempotent; BM25's after its query in progress); later calls raise
        StoreUnavailable."""
        with self._lock:
            self._close_lexical()
            if self._conn is not None:
                try:
                    self._conn.close()
                finally:
                    self._conn = None
                    self._vectors = None
                    self._names = None
                    self._file_texts.clear()
                    self._term_docs.clear()

    def __enter__(self) -> EmbeddedStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def _db(self) -> sqlite3.Connection:
        assert self._conn is not None
        return self._conn

    def _write(self, body: Callable[[sqlite3.Connection], None]) -> None:
        """Run ``body`` in one ``BEGIN IMMEDIATE`` transaction; roll back on any error. Raises
        :class:`~stores.errors.StoreReadOnly` on an index opened read-only."""
        if self.read_only:
            raise StoreReadOnly(f"index {self.path} was opened for reading only ({self.read_only}); nothing was "
                                "written")
        conn = self._db
        if self._tx_depth:  # inside transaction(): its one transaction holds this write
            body(conn)
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            body(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            self._generation += 1

    # ------------------------------------------------------------------------------------- writing

    @_guarded
    def replace_files(self, files: Sequence[IndexedFile]) -> None:
        """Replace, for every file, its File record, nodes, owned edges, unresolved calls *and
        chunks*, all files of the call in one transaction.

        Old nodes of a file absent from the new version (and from every other file of the call) are
        deleted with every edge into or out of them, whichever file owns the edge (the semantics of
        a graph database's ``DETACH DELETE``). A file given twice counts once (the last one wins).
        Shared nodes (Endpoint, Topic) in ``IndexedFile.nodes`` are upserted by id, stored with
        ``repo = file = ''`` whatever the record says, and deleted once no edge touches them.
        Raises StoreUnavailable when the index is locked by another writer beyond the busy timeout.
        """
        batch = self._dedupe(files)
        if not batch:
            return

        self._write(lambda conn: self._replace_body(conn, batch, graph=True))

    @_guarded
    def chunk_basis(self) -> ChunkBasis:
        """Next chunk rowid, stored reference length and BM25 weights (:mod:`stores.chunk_prep`)."""
        return self._chunk_basis(self._db)

    @_guarded
    def offer_prepared(self, take: Callable[[], PreparedChunks | None]) -> None:
        """The next chunk write calls ``take`` when it needs its analysis and uses what it returns
        where it matches exactly (:meth:`PreparedChunks.matches`)."""
        self._offer_prepared(take)

    @_guarded
    def adopt_maxima(self, fold: FoldedMaxima) -> bool:
        """Write the block-max rows a preparer folded for chunk writes this transaction owes
        (:meth:`stores.embedded_tx.EmbeddedTransactions._adopt_maxima`); ``False`` when not all owed."""
        return self._adopt_maxima(fold)

    @_guarded
    def replace_chunks(self, files: Sequence[IndexedFile]) -> None:
        """Replace every chunk of each file with ``IndexedFile.chunks`` (one transaction for the
        call); the graph is untouched."""
        batch = self._dedupe(files)
        if batch:
            self._write(lambda conn: self._replace_body(conn, batch, graph=False))

    @_guarded
    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Remove the files, their nodes (with every edge into or out of them), their owned edges,
        unresolved calls and chunks, in one transaction; shared nodes left without an edge go too. This
        one method is both contracts' ``delete_files`` (GraphStore and SearchIndex)."""
        keys = [(repo, p) for p in dict.fromkeys(paths)]
        if not keys:
            return

        self._write(lambda conn: self._delete_files_body(conn, keys))

    @staticmethod
    def _dedupe(files: Sequence[IndexedFile]) -> list[IndexedFile]:
        by_key: dict[tuple[str, str], IndexedFile] = {}
        for f in files:
            by_key[(f.file.repo, f.file.path)] = f
        return list(by_key.values())

    @_guarded
    def set_embeddings(self, vectors: dict[str, Sequence[float]]) -> None:
        """Store (normalised) embeddings by chunk id in one transaction; unknown ids are ignored.

        Each vector also goes to the content-addressed cache under the chunk's checksum, and to every
        other chunk with the same text that has none yet."""
        if not vectors:
            return
        rows = [(normalised_blob(v), id_hash(chunk_id), chunk_id) for chunk_id, v in vectors.items()]
        nid = "(SELECT nid FROM ids WHERE h = ?2 AND id = ?3)"

        def body(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT OR REPLACE INTO embedding_cache (checksum, embedding)"
                f" SELECT checksum, ?1 FROM chunk_rows WHERE nid = {nid}", rows)
            conn.executemany(
                f"UPDATE chunk_rows SET embedding = ?1 WHERE nid = {nid}"
                f" OR (embedding IS NULL AND checksum = (SELECT checksum FROM chunk_rows WHERE nid = {nid}))", rows)

        self._write(body)

    @_guarded
    def pending_chunks(self, limit: int) -> list[Chunk]:
        """Up to ``limit`` chunks without an embedding, one per distinct text: code units (method,
        class, function chunks, :data:`~stores.contracts.CODE_UNIT_KINDS`) first, then the rest;
        shortest first within each."""
        order = self._db.execute(
            "SELECT c.rowid, (SELECT id FROM ids WHERE nid = c.nid) AS cid FROM chunk_rows c WHERE c.rowid IN"
            " (SELECT min(rowid) FROM chunk_rows WHERE embedding IS NULL GROUP BY checksum)"
            f" ORDER BY c.kind NOT IN ({', '.join(repr(k) for k in CODE_UNIT_KINDS)}), c.size, cid LIMIT ?",
            (int(limit),)).fetchall()
        place = {cid: i for i, (_, cid) in enumerate(order)}
        rows = read_chunks(self._db, f"c.rowid IN ({_IDS_PARAM})", (json.dumps([r for r, _ in order]),))
        return [Chunk(*r[:13]) for r in sorted(rows, key=lambda r: place[r[0]])]

    @_guarded
    def set_embedding_model(self, model: str) -> bool:
        """Record the embedding model; when it differs from the recorded one, drop every embedding and
        the cache (vectors of two models are not comparable) and return ``True``."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchone()
        if row is not None and row[0] == model:
            return False

        def body(conn: sqlite3.Connection) -> None:
            if row is not None:
                conn.execute("UPDATE chunk_rows SET embedding = NULL WHERE embedding IS NOT NULL")
                conn.execute("DELETE FROM embedding_cache")
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('embedding_model', ?)", (model,))

        self._write(body)
        return row is not None

    # ------------------------------------------------------------------------------- graph reading

    @staticmethod
    def _node(row: tuple[Any, ...]) -> Node:
        fields, props = node_row(row)
        return Node(*fields, props=props)

    @_guarded
    def file_text(self, repo: str, path: str) -> str | None:
        """The file's source as indexed, or ``None``."""
        row = self._db.execute("SELECT ztext FROM file_rows WHERE fid = (SELECT fid FROM paths WHERE repo = ? AND"
                               " path = ?)", (repo, path)).fetchone()
        return decompress_text(row[0]) if row else None

    @_guarded
    def file_checksums(self, repo: str) -> dict[str, str]:
        """``{path: checksum}`` of every indexed file of ``repo``."""
        return dict(self._db.execute("SELECT path, checksum FROM files WHERE repo = ?", (repo,)).fetchall())

    @_guarded
    def repos(self) -> list[str]:
        """Repositories with a file, a node or a chunk in the store, sorted."""
        rows = self._db.execute(
            f"{_REPOS} ORDER BY 1"
        ).fetchall()
        return [r[0] for r in rows]

    @_guarded
    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node]:
        """``{id: Node}`` for the ids that exist; missing ids are absent."""
        if not ids:
            return {}
        rows = self._db.execute(
            f"{NODE_SELECT} WHERE n.nid IN ({NIDS_OF})", (id_keys(ids),)
        ).fetchall()
        return {r[0]: self._node(r) for r in rows}

    @_guarded
    def find_symbols(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[Node]]:
        """``{name: [Node]}`` for every requested name (``[]`` when none), nodes whose short name
        equals it (case-sensitive), optionally restricted to ``labels``; each list sorted by id."""
        result: dict[str, list[Node]] = {n: [] for n in names}
        if not result or (labels is not None and not labels):
            return result
        sql = f"{NODE_SELECT} WHERE n.name IN ({_IDS_PARAM})"
        params: list[Any] = [json.dumps(list(result))]
        if labels is not None:
            sql += f" AND l.term IN ({_IDS_PARAM})"
            params.append(json.dumps(list(labels)))
        for row in self._db.execute(sql + " ORDER BY i.id", params):
            result[row[2]].append(self._node(row))
        return result

    @_guarded
    def find_symbol_refs(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[SymbolRef]]:
        """:meth:`find_symbols` without reading the nodes' properties (a name shared by hundreds of
        definitions costs a fifth of the time): ``{name: [SymbolRef]}``, each list sorted by id."""
        result: dict[str, list[SymbolRef]] = {n: [] for n in names}
        if not result or (labels is not None and not labels):
            return result
        sql = (f"SELECT i.id, p.repo, p.path, {qualname_sql()}, n.name FROM node_rows n JOIN ids i ON i.nid = n.nid"
               f" JOIN paths p ON p.fid = n.fid WHERE n.name IN ({_IDS_PARAM})")
        params: list[Any] = [json.dumps(list(result))]
        if labels is not None:
            sql += f" AND n.label IN (SELECT tid FROM terms WHERE term IN ({_IDS_PARAM}))"
            params.append(json.dumps(list(labels)))
        for row in self._db.execute(sql + " ORDER BY i.id", params):
            result[row[4]].append(SymbolRef(*row[:4]))
        return result

    @_guarded
    def find_symbol_keys(
        self, keys: Sequence[tuple[str, str]], labels: Sequence[str] | None = None, *, limit: int | None = None,
        skip_repo: str = "", skip_files: Iterable[str] = (),
    ) -> dict[tuple[str, str], list[SymbolKey]]:
        """The contract's selection in SQL, every key in one query
        (:func:`stores.embedded_symbols.symbol_keys`): the tail and the labels filter the rows by
        name in SQLite, ``module`` is read out of the props with ``json_extract``, and with a
        ``limit`` the other repositories' rows are cut there; the rows of ``skip_repo`` (one
        repository's) are read whole and skipped here. First one query
        asks whether any node of those ``labels`` lies outside the skipped files at all (none does
        while a repository is first indexed into a store of its own: each write batch's mention
        lookup would otherwise look its keys up to find nothing)."""
        result: dict[tuple[str, str], list[SymbolKey]] = {k: [] for k in keys}
        if not result or (labels is not None and not labels):
            return result
        skip = set(skip_files) if skip_repo else set()
        kinds = json.dumps(list(labels)) if labels is not None else None
        if self._db.execute(
                "SELECT 1 FROM paths p WHERE NOT (p.repo = ?1 AND p.path IN (SELECT value FROM json_each(?2)))"
                " AND EXISTS (SELECT 1 FROM node_rows n WHERE n.fid = p.fid AND (?3 IS NULL OR n.label IN"
                " (SELECT tid FROM terms WHERE term IN (SELECT value FROM json_each(?3))))) LIMIT 1",
                (skip_repo, json.dumps(sorted(skip)), kinds)).fetchone() is None:
            return result  # every row the queries below could find is one they skip
        return symbol_keys(self._db, result, kinds, limit, skip_repo, skip)

    @_guarded
    def nodes_in_file(self, repo: str, path: str) -> list[Node]:
        """Every node of the file: the File node first, then by start line, start col, id."""
        rows = self._db.execute(
            f"{NODE_SELECT} WHERE p.repo = ? AND p.path = ?"
            " ORDER BY l.term <> 'File', n.start_line, n.start_col, i.id",
            (repo, path),
        ).fetchall()
        return [self._node(r) for r in rows]

    @_guarded
    def labelled(self, labels: Sequence[str], limit: int | None = None) -> list[Node]:
        """The nodes of ``labels`` sorted by (label, name, id), at most ``limit``: one query over the
        ``nodes`` view, the labels bound as one JSON parameter."""
        if not labels or (limit is not None and limit <= 0):
            return []
        rows = self._db.execute(
            f"{NODE_SELECT} WHERE l.term IN ({_IDS_PARAM}) ORDER BY l.term, n.name, i.id LIMIT ?",
            (json.dumps(list(dict.fromkeys(labels))), -1 if limit is None else limit),
        ).fetchall()
        return [self._node(r) for r in rows]

    def _edges(
        self, end: str, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None
    ) -> dict[str, list[Edge]]:
        result: dict[str, list[Edge]] = {i: [] for i in ids}
        if not result or not kinds:
            return result
        sql = f"{_EDGE_SELECT} WHERE e.{end} IN ({NIDS_OF}) AND k.term IN ({_IDS_PARAM})"
        params: list[Any] = [id_keys(result), json.dumps(list(dict.fromkeys(kinds)))]
        if resolutions is not None:
            sql += f" AND (k.term <> 'CALLS' OR r.term IN ({_IDS_PARAM}))"
            params.append(json.dumps(list(resolutions)))
        key = 1 if end == "src" else 2
        for row in self._db.execute(sql + " " + _EDGE_ORDER, params):
            result[row[key]].append(Edge(*row[:8], props=json.loads(row[8]) if row[8] else {}))
        return result

    @_guarded
    def incoming(
        self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
    ) -> dict[str, list[Edge]]:
        """``{dst_id: [Edge]}`` for every requested id (``[]`` when none): edges of ``kinds`` ending
        there, sorted by (repo, file, line, col, src, dst, kind). ``resolutions`` restricts CALLS
        edges only; other kinds pass. Empty ``kinds`` selects nothing."""
        return self._edges("dst", ids, kinds, resolutions)

    @_guarded
    def outgoing(
        self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
    ) -> dict[str, list[Edge]]:
        """``{src_id: [Edge]}`` for every requested id, as :meth:`incoming` but leaving each id."""
        return self._edges("src", ids, kinds, resolutions)

    @_guarded
    def incoming_window(self, ids: Sequence[str], kinds: Sequence[str], limit: int,
                        repos: Collection[str] | None = None) -> dict[str, tuple[int, list[Edge]]]:
        """:meth:`GraphStore.incoming_window` by SQLite: per id, one count and one ``LIMIT`` query (the
        edges past the page are never read nor decoded)."""
        if limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit!r}")
        where = (f" WHERE e.dst IN ({NIDS_OF}) AND k.term IN ({_IDS_PARAM})"
                 f" AND (? IS NULL OR p.repo IN ({_IDS_PARAM}))")
        count = ("SELECT count(*) FROM edge_rows e JOIN terms k ON k.tid = e.kind JOIN paths p ON p.fid = e.fid"
                 + where)
        wanted = json.dumps(sorted(repos)) if repos is not None else None
        out: dict[str, tuple[int, list[Edge]]] = {}
        for i in dict.fromkeys(ids):
            params = (id_keys([i]), json.dumps(list(dict.fromkeys(kinds))), wanted, wanted or "[]")
            n = self._db.execute(count, params).fetchone()[0] if kinds else 0
            rows = self._db.execute(f"{_EDGE_SELECT}{where} {_EDGE_ORDER} LIMIT ?", (*params, limit)).fetchall() \
                if n and limit else []
            out[i] = (n, [Edge(*r[:8], props=json.loads(r[8]) if r[8] else {}) for r in rows])
        return out

    @_guarded
    def incoming_summary(self, ids: Sequence[str], kinds: Sequence[str], prop: str | None = None
                         ) -> dict[str, set[tuple[str, str, str]]]:
        """:meth:`GraphStore.incoming_summary` selected by SQLite: one row per distinct triple, no
        edge built (``prop`` read with ``json_extract``)."""
        result: dict[str, set[tuple[str, str, str]]] = {i: set() for i in ids}
        if not result or not kinds:
            return result
        value = "json_extract(e.props, ?)" if prop is not None else "NULL"
        params: list[Any] = (['$.' + json.dumps(prop)] if prop is not None else []) + [
            id_keys(result), json.dumps(list(dict.fromkeys(kinds)))]
        rows = self._db.execute(
            f"SELECT DISTINCT d.id, k.term, p.repo, {value} FROM ids d JOIN edge_rows e ON e.dst = d.nid"
            " JOIN terms k ON k.tid = e.kind JOIN paths p ON p.fid = e.fid"
            f" WHERE d.nid IN ({NIDS_OF}) AND k.term IN ({_IDS_PARAM})", params)
        for dst, kind, repo, val in rows:
            result[dst].add((kind, repo, "" if val is None else str(val)))
        return result

    @_guarded
    def incoming_counts(self, groups: Mapping[str, Sequence[str]], kinds: Sequence[str]) -> dict[str, int]:
        """:meth:`GraphStore.incoming_counts` counted by SQLite on the edge rows (no edge is read out)."""
        result = dict.fromkeys(groups, 0)
        pairs = [[key, i, id_hash(i)] for key, ids in groups.items() for i in ids]
        if not pairs or not kinds:
            return result
        rows = self._db.execute(
            "SELECT g.key, count(*) FROM (SELECT DISTINCT json_extract(j.value, '$[0]') AS key, e.kind, e.src"
            " FROM json_each(?) j JOIN ids i ON i.h = json_extract(j.value, '$[2]') AND i.id = json_extract(j.value, '$[1]')"
            " JOIN edge_rows e ON e.dst = i.nid"
            f" WHERE e.kind IN (SELECT tid FROM terms WHERE term IN ({_IDS_PARAM}))) g GROUP BY g.key",
            (json.dumps(pairs), json.dumps(list(dict.fromkeys(kinds)))),
        ).fetchall()
        result.update(rows)
        return result

    @_guarded
    def search_symbols(self, query: str, limit: int) -> list[Node]:
        """Up to ``limit`` code nodes whose name matches ``query`` (the rule of
        :meth:`GraphStore.search_symbols`), best first.

        The distinct names of the index are cached in memory as a :class:`SymbolNameIndex` (rebuilt
        lazily after any write, like the vectors), which ranks them; then one query fetches the
        first ``limit`` nodes of the best names in that order (a name defined in hundreds of
        repositories costs a sort in SQLite, not hundreds of nodes read)."""
        parts = query_parts(query)
        if not parts or limit <= 0:
            return []
        return with_qualified(self, query, limit, self._named_symbols(query, parts, limit))

    def _named_symbols(self, query: str, parts: list[str], limit: int) -> list[Node]:
        """:meth:`search_symbols` by the short name only (a dotted query's qualified names aside)."""
        ranked = sorted(self._symbol_names().best(query, parts, limit))  # (rank, len, name): best first
        if not ranked:
            return []
        # The ids first (no path, label or properties read for the rows the limit cuts), then their nodes.
        ids = [i for (i,) in self._db.execute(
            "SELECT i.id FROM json_each(?) j JOIN node_rows r ON r.name = j.value JOIN ids i ON i.nid = r.nid"
            " WHERE r.label NOT IN (SELECT tid FROM terms WHERE term IN ('File', 'Repository', 'Endpoint', 'Topic', 'Unlinked'))"
            " ORDER BY j.key, i.id LIMIT ?",
            (json.dumps([name for _, _, name in ranked]), int(limit)),
        )]
        nodes = self.get_nodes(ids)
        return [nodes[i] for i in ids]

    def _symbol_names(self) -> SymbolNameIndex:
        """Every code node name, indexed for workspace-symbol queries (cached until the next write)."""
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        cached = self._names
        if cached is not None and cached[0] == (self._generation, version):
            return cached[1]
        names = SymbolNameIndex(name for (name,) in self._db.execute(
            "SELECT DISTINCT name FROM nodes WHERE label NOT IN ('File', 'Repository', 'Endpoint', 'Topic', 'Unlinked')"))
        self._names = ((self._generation, version), names)
        return names

    @_guarded
    def unresolved_calls(self, names: Sequence[str]) -> dict[str, list[UnresolvedCall]]:
        """``{callee_name: [UnresolvedCall]}`` for every requested name (``[]`` when none), sorted by
        (repo, file, line, col, caller)."""
        result: dict[str, list[UnresolvedCall]] = {n: [] for n in names}
        if not result:
            return result
        rows = self._db.execute(
            f"SELECT {_UNRESOLVED_COLS} FROM unresolved WHERE name IN ({_IDS_PARAM})"
            " ORDER BY repo, file, line, col, caller, arity",
            (json.dumps(list(result)),),
        )
        for row in rows:
            result[row[1]].append(UnresolvedCall(*row))
        return result

    @_guarded
    def stats(self) -> dict[str, Any]:
        """``{"files": {language: n}, "nodes": {label: n}, "edges": {kind: n},
        "calls_by_resolution": {resolution: n}, "unresolved_calls": n, "repos": n, "chunks": n,
        "embedded": n}``; the dicts hold only non-zero counts, keys sorted."""
        db = self._db

        def grouped(sql: str) -> dict[str, int]:
            return {k: n for k, n in db.execute(sql)}

        return {
            "files": grouped("SELECT language, count(*) FROM file_rows GROUP BY 1 ORDER BY 1"),
            "nodes": grouped("SELECT t.term, n FROM (SELECT label, count(*) AS n FROM node_rows GROUP BY 1)"
                             " JOIN terms t ON t.tid = label ORDER BY 1"),
            "edges": grouped("SELECT t.term, n FROM (SELECT kind, count(*) AS n FROM edge_rows GROUP BY 1)"
                             " JOIN terms t ON t.tid = kind ORDER BY 1"),
            "calls_by_resolution": grouped(
                "SELECT coalesce(r.term, 'none'), count(*) FROM edge_rows e LEFT JOIN terms r ON r.tid = e.resolution"
                " WHERE e.kind = (SELECT tid FROM terms WHERE term = 'CALLS') GROUP BY 1 ORDER BY 1"
            ),
            "unresolved_calls": db.execute("SELECT count(*) FROM unresolved_rows").fetchone()[0],
            "repos": db.execute(f"SELECT count(*) FROM ({_REPOS})").fetchone()[0],
            **self._chunk_count(),
        }

    # ------------------------------------------------------------------------------ search reading

    @staticmethod
    def _filter_sql(filters: SearchFilters | None, alias: str) -> tuple[str, list[Any]]:
        if filters is None:
            return "", []
        clauses, params = [], []
        for column in ("product", "repo", "language", "kind"):
            value = getattr(filters, column)
            if value is not None:
                clauses.append(f"{alias}.{column} = ?")
                params.append(value)
        return "".join(" AND " + c for c in clauses), params

    def _read_cache(self, cache: StampedCache[_T]) -> StampedCache[_T] | None:
        """``cache`` for the current database state (emptied after any write, of this instance or a
        commit of another connection); ``None`` inside a transaction, whose writes move no stamp."""
        if self._db.in_transaction:
            return None
        return cache.view((self._generation, self._db.execute("PRAGMA data_version").fetchone()[0]))

    def _vector_cache(self) -> _VectorCache:
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        cache = self._vectors
        if cache is None or cache.generation != self._generation or cache.data_version != version:
            rows = self._db.execute(
                "SELECT id, product, repo, language, kind, embedding FROM chunks WHERE embedding IS NOT NULL"
            ).fetchall()
            cache = _VectorCache(self._generation, version, rows)
            self._vectors = cache
        return cache

    @_guarded
    def prepare_ann(self) -> int | None:
        """Bring the approximate-search index (past ``ann_threshold`` embedded chunks) up to date with
        the embedded rows and save it, as the first :meth:`knn` would do otherwise, inside a query
        (building 5 million vectors takes CPU-hours). Returns how many vectors it holds (all
        dimensions), ``None`` below the threshold (nothing done)."""
        if not self._ann.active(self._chunk_count()["embedded"]):
            return None
        stamp = (self._generation, self._db.execute("PRAGMA data_version").fetchone()[0])
        model = self._db.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchone()
        dims = [r[0] // 4 for r in self._db.execute(
            "SELECT DISTINCT length(embedding) FROM chunk_rows WHERE embedding IS NOT NULL")]
        return sum(len(self._ann.refresh(self._db, d, model[0] if model else "", stamp)) for d in dims if d)

    def knn(self, vector: Sequence[float], limit: int, filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Nearest ``limit`` embedded chunks to ``vector`` by cosine similarity (exact, in process),
        best first, ties by chunk id; ``[]`` when nothing is embedded. Only stored vectors of the
        query's dimension are considered. The first call after a write reloads the vectors.

        The matrix product runs outside the instance lock, so another thread's query (a search's
        BM25) proceeds meanwhile: on the vectors last read, then checked under the lock to be the
        current ones (else computed again on those)."""
        if limit <= 0:
            return []
        q = np.frombuffer(normalised_blob(vector), dtype=np.float32)
        cache = self._vectors
        if cache is not None:
            ranked = _nearest(*cache.select(q.shape[0], filters), q, limit)
            if self._vectors_current(cache):
                return ranked
        found = self._knn_source(q, limit, filters)
        return found if isinstance(found, list) else _nearest(*found, q, limit)

    @_guarded
    def _vectors_current(self, cache: _VectorCache) -> bool:
        """Whether exact kNN now reads ``cache`` (no approximate index in use, no write since)."""
        return not self._ann.active(self._chunk_count()["embedded"]) and self._vector_cache() is cache

    @_guarded
    def _knn_source(self, q: np.ndarray, limit: int, filters: SearchFilters | None,
                    ) -> list[ScoredChunk] | tuple[np.ndarray | None, list[str], np.ndarray | None]:
        """What :meth:`knn` reads under the lock: the approximate index's answer past its threshold,
        else the current vectors of ``q``'s dimension ``(matrix, ids, mask)`` (immutable: a write
        replaces the cache, it does not change it)."""
        if self._ann.active(self._chunk_count()["embedded"]):
            stamp = (self._generation, self._db.execute("PRAGMA data_version").fetchone()[0])
            model = self._db.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchone()
            wanted = {k: v for k in ("product", "repo", "language", "kind") if (v := getattr(filters, k, None)) is not None}
            found = self._ann.knn(self._db, q, limit, wanted, model[0] if model else "", stamp)
            return [ScoredChunk(chunk_id=i, score=s, rank=r) for r, (s, i) in enumerate(found, 1)]
        return self._vector_cache().select(q.shape[0], filters)

    @_guarded
    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """``{id: Chunk}`` for the ids that exist; ``embedding`` is the stored (normalised) vector
        or ``None``."""
        if not ids:
            return {}
        rows = read_chunks(self._db, f"c.nid IN ({NIDS_OF})", (id_keys(ids),), self._read_cache(self._file_texts))
        result = {}
        for r in rows:
            emb = tuple(np.frombuffer(r[13], dtype=np.float32).tolist()) if r[13] is not None else None
            result[r[0]] = Chunk(*r[:13], embedding=emb)
        return result

    def _chunk_count(self) -> dict[str, int]:
        # count(embedding) reads every row past its text (the blob sits in overflow pages): about
        # 150 ms at 100k chunks, paid by every search. Cached like the vector matrix, until this
        # instance writes or another connection commits (PRAGMA data_version).
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        cached = self._counts
        if cached is not None and cached[0] == self._generation and cached[1] == version:
            return dict(cached[2])
        # Two counts: the embedded rows are counted in their own small index (VECTOR_KEYS_INDEX),
        # not by reading every row's vector (minutes at 5 million rows on a cold cache).
        n = self._db.execute("SELECT count(*) FROM chunk_rows").fetchone()[0]
        m = self._db.execute("SELECT count(*) FROM chunk_rows WHERE embedding IS NOT NULL").fetchone()[0]
        self._counts = (self._generation, version, {"chunks": n, "embedded": m})
        return {"chunks": n, "embedded": m}

    @_guarded
    def instance_token(self) -> str | None:
        """A random value given to this index file once (its ``meta`` key ``instance``, made at the
        first call on a writable index): what a user's state folder records of the index its runs
        wrote (:meth:`indexer.incremental.RepositoryIndex._written_here`), so that an index file
        that came from elsewhere is told apart; a copy of the file keeps it. ``None`` on a read-only
        index that has none."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'instance'").fetchone()
        if row is not None or self.read_only is not None:
            return row[0] if row is not None else None
        token = os.urandom(16).hex()
        self._db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('instance', ?)", (token,))
        return str(self._db.execute("SELECT value FROM meta WHERE key = 'instance'").fetchone()[0])

    @_guarded
    def release_memory(self) -> None:
        """Give back what SQLite's page cache of this connection holds (``PRAGMA shrink_memory``; up
        to ``cache_size``, 64 MiB): a watcher whose resolver state went (:mod:`indexer.state_budget`)
        writes nothing until its next change, which reads the pages it needs again."""
        self._db.execute("PRAGMA shrink_memory")

    @_guarded
    def version_token(self) -> str | None:
        """``"<data_version>:<generation>"``: SQLite's ``PRAGMA data_version`` moves when another
        connection commits, the generation when this instance writes."""
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        return f"{version}:{self._generation}"

    @_guarded
    def chunk_count(self, repo: str | None = None) -> dict[str, int]:
        """``{"chunks": n, "embedded": m}``, of repository ``repo`` only when given (not cached)."""
        if repo is None:
            return self._chunk_count()
        n, m = self._db.execute("SELECT count(*), count(embedding) FROM chunk_rows WHERE fid IN"
                                " (SELECT fid FROM paths WHERE repo = ?)", (repo,)).fetchone()
        return {"chunks": n, "embedded": m}


def _nearest(matrix: np.ndarray | None, ids: list[str], mask: np.ndarray | None, q: np.ndarray,
             limit: int) -> list[ScoredChunk]:
    """The ``limit`` (> 0) rows of ``matrix`` (ids ``ids``, only where ``mask`` when given) nearest to
    the unit vector ``q`` by dot product, best first, ties by id."""
    if matrix is None or not len(ids):
        return []
    scores = matrix @ q
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
        n = int(mask.sum())
    else:
        n = len(ids)
    if n == 0:
        return []
    k = min(limit, n)
    if k < len(scores):
        threshold = np.partition(scores, len(scores) - k)[len(scores) - k]
        cand = np.nonzero(scores >= threshold)[0]
    else:
        cand = np.nonzero(scores > -np.inf)[0]
    order = sorted(cand.tolist(), key=lambda i: (-float(scores[i]), ids[i]))[:k]
    return [ScoredChunk(chunk_id=ids[i], score=float(scores[i]), rank=r) for r, i in enumerate(order, 1)]


class _VectorCache:
    """The embedded chunks of one database state: a normalised float32 matrix per dimension, plus
    the filter columns."""

    def __init__(self, generation: int, data_version: int, rows: list[tuple[Any, ...]]) -> None:
        self.generation = generation
        self.data_version = data_version
        self._by_dim: dict[int, tuple[np.ndarray, list[str], dict[str, np.ndarray]]] = {}
        groups: dict[int, list[tuple[Any, ...]]] = {}
        for row in rows:
            groups.setdefault(len(row[5]) // 4, []).append(row)
        for dim, group in groups.items():
            matrix = np.frombuffer(b"".join(r[5] for r in group), dtype=np.float32).reshape(len(group), dim)
            columns = {
                name: np.array([r[i] for r in group], dtype=object)
                for i, name in enumerate(("product", "repo", "language", "kind"), 1)
            }
            self._by_dim[dim] = (matrix, [r[0] for r in group], columns)

    def select(
        self, dim: int, filters: SearchFilters | None
    ) -> tuple[np.ndarray | None, list[str], np.ndarray | None]:
        """``(matrix, ids, mask)`` of the vectors of ``dim``; ``mask`` is ``None`` without filters."""
        entry = self._by_dim.get(dim)
        if entry is None:
            return None, [], None
        matrix, ids, columns = entry
        mask = None
        if filters is not None:
            for name, column in columns.items():
                value = getattr(filters, name)
                if value is not None:
                    hit = column == value
                    mask = hit if mask is None else (mask & hit)
        return matrix, ids, mask
