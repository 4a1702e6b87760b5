"""The embedded store's tables (schema version 8): every string once, the source text once.

The graph and chunk rows refer to three small dictionaries by integer instead of repeating strings
(schema 5 kept 29 MB of repeated string ids in Django's 204k edges and 53 MB more in their three
indexes):

* ``ids (nid, h, id)``: node ids, edge ends, chunk ids and unresolved callers, each string once, found
  by ``h``, a 32-bit hash of the text (:func:`id_hash`; its index holds 4 bytes an id where a unique
  index on the text held the text again: 7.2 of Django's 13.7 MB of ids), collisions told apart by
  comparing the text (:data:`NIDS_OF`, :meth:`Interner.nids`);
* ``paths (fid, repo, path)``: the ``(repo, file)`` every file record, node, edge, unresolved call and
  chunk belongs to (shared nodes: ``('', '')``);
* ``terms (tid, term)``: node labels, edge kinds and CALLS resolutions (a small vocabulary, never pruned).

``ids`` and ``paths`` rows are removed by :func:`prune` once nothing refers to them, in the write
that dropped the last reference.

A node row keeps its qualified name as a range of its id when the id holds it (:func:`encode_qualname`:
an integer, ``start << 16 | length``; the text otherwise: 69,435 of Django's 69,507), and the most
common properties in typed columns of their own (:data:`PROMOTED_PROPS`: ``language`` as a term,
``module``, ``name_line``, ...), not as keys and values of the JSON text ``props``, which keeps the
rest (:func:`split_props`, :func:`join_props`): 9.98 MB of props JSON in Django, 4.2 MB of it key names.

File texts are stored zlib-compressed (``file_rows.ztext``, :func:`compress_text`). A chunk's text
is not stored when the file text holds it: ``chunk_rows`` keeps ``head`` (text before the part found
in the file, usually ``NULL``), ``boff`` / ``blen`` (that part as a byte range of the file's UTF-8
text) and ``tail`` (what follows: the ``…`` of a capped chunk, a class chunk's member signatures;
``''`` mostly). Without a file text (a search-only store) or with none of it found, the whole text is
the tail. :func:`encode_chunk_text` cuts a text so and :func:`chunk_texts` puts it back together;
the file text a range points into only changes in a write that also replaces (or deletes) that
file's chunks, after deleting their FTS rows with the old text.

Readers keep the tables of schema 5 as views (``files``, ``nodes``, ``edges``, ``unresolved``,
``chunks``, same columns, strings resolved), so queries, tools and :mod:`stores.vector_index` read
as before; writes go to the ``*_rows`` tables. Some columns differ: ``files`` has no ``text`` (read
it with ``EmbeddedStore.file_text``), ``chunks.text`` is ``NULL`` for a text stored as a range
(read it with ``EmbeddedStore.get_chunks``), and ``nodes.props`` is the same JSON object with its
promoted keys after the others (``json_patch``; the store's readers return every props dict sorted by
key, as written). A view's ``id`` column is not indexed: raw SQL selecting by id scans (the store's
readers look ids up by hash). ``UPDATE files`` (not its repo or path) still works, through a trigger;
``INSERT INTO chunks`` (schema 6 and 7) is gone, as an id cannot be hashed in SQL.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from typing import Any

from stores.analyzer import FTS_TOKENCHARS
from stores.bm25_blocks import CREATE_TABLE as BM25_BLOCKS_TABLE
from stores.read_cache import StampedCache

log = logging.getLogger(__name__)

__all__ = ["SCHEMA_VERSION", "MIGRATABLE_VERSIONS", "SCHEMA", "Interner", "FileText", "encode_chunk_text", "prune", "chunk_texts", "fid_of",
           "encode_parent", "add_parent_cut", "has_parent_cut", "product_may_be_null",
           "read_chunks", "schema_statements", "compress_text", "decompress_text", "VECTOR_KEYS_INDEX",
           "add_vector_keys_index", "missing_objects", "id_hash", "id_keys", "NIDS_OF", "graph_layout_current", "PROMOTED_PROPS",
           "split_props", "join_props", "encode_qualname", "qualname_sql", "NODE_SELECT", "node_row", "DEFERRED_INDEXES",
           "defer_indexes", "restore_indexes", "missing_indexes"]

SCHEMA_VERSION = 8
"""Bumped whenever the schema or the analysed FTS content changes; an index of another version must be
rebuilt, except 6 and 7 in the graph layout of 8 (:func:`graph_layout_current`: a test's index without the
block maxima, or with 7's), which :mod:`stores.embedded_migrate` brings to 8 at a writable open (and which
are read as they are, without the block maxima, when opened read-only); a real index of 6 or 7 has the older
graph layout and is rebuilt. 2: embedding_cache, 3: files.text, 4: edges.props and shared nodes,
5: contentless FTS, 6: ids, paths and terms as integers, chunk text as a range of the file text, 7: BM25
block maxima (:mod:`stores.bm25_blocks`), 8: ids found by hash, qualified names as ranges of the ids,
promoted node properties; the block maxima keyed by a hash of the term, their blocks as varint
differences (``bm25_maxima``, a third of 7's size), a chunk's parent as a cut of its id
(``chunk_rows.pcut``, :func:`encode_parent`), ``NULL`` for a chunk's product that is its repository
(:func:`product_may_be_null`)."""
MIGRATABLE_VERSIONS = (6, 7)
"""Schema versions an open accepts besides :data:`SCHEMA_VERSION` (migrated when writable), in the
graph layout of :data:`SCHEMA_VERSION` only (:func:`graph_layout_current`)."""

_JSON = "SELECT value FROM json_each(?)"

VECTOR_KEYS_INDEX = ("CREATE INDEX IF NOT EXISTS chunk_rows_vectors ON chunk_rows (length(embedding), checksum)"
                     " WHERE embedding IS NOT NULL")
"""A partial index of the embedded chunk rows by dimension (``length(embedding)``, 4 bytes a float) and
text checksum: at 5 million rows the table is about 10 GB (the float32 vectors), this index about 350
MB, and the ANN index's start-up check (``stores.vector_index.embedded_keys``: every embedded row's
rowid and checksum) and the count of embedded rows read it alone. Part of :data:`SCHEMA`; an index
created before it gets it from :func:`add_vector_keys_index` (same schema version: nothing else
changes)."""

def qualname_sql(node: str = "n", ids: str = "i") -> str:
    """The SQL of a node row's qualified name (:func:`encode_qualname` undone), for ``node_rows``
    aliased ``node`` joined to its ``ids`` row aliased ``ids``."""
    q = f"{node}.qualname"
    return f"CASE WHEN typeof({q}) = 'integer' THEN substr({ids}.id, {q} >> 16, {q} & 65535) ELSE {q} END"


_QUALNAME = qualname_sql()

PROMOTED_PROPS = ("language", "module", "name_line", "name_col", "arity", "min_arity", "max_arity", "signature")
"""Node properties stored in ``node_rows`` columns of the same names (in this order, after ``props``)
when their value is of the column's type: ``language`` a string (stored as a ``terms`` key),
``module`` and ``signature`` strings, the others integers. The keys most nodes of every language
have (Django: ``language`` 59,605 of 69,507 nodes, ``name_line`` 56,096, ``signature`` 30,415);
any other value of these keys (a ``null`` ``max_arity``: varargs) stays in the JSON."""
_INT_PROPS = frozenset(("name_line", "name_col", "arity", "min_arity", "max_arity"))


def _storable(key: str, value: object) -> bool:
    if key in _INT_PROPS:
        return type(value) is int and -(1 << 63) <= value < (1 << 63)  # type: ignore[operator]
    return type(value) is str and _UNSTORABLE.search(value) is None


_UNSTORABLE = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')
"""Characters JSON escapes (a quote, a backslash, the controls below a space), and lone surrogates
(SQLite text cannot hold one, which a UTF-8 encoding refuses; the JSON escapes it): a string holding
one stays in the JSON, so that the ``nodes`` view can write the JSON of the promoted strings by
concatenation (a view may not call SQLite's JSON functions with ``trusted_schema`` off, as the store
opens indexes). One search in C, not a Python test per character (a signature is tens of them)."""
_PROPS_JSON = ("nullif('{' || substr(" + " || ".join(
    f"""coalesce(',"{k}":' || {'g.term' if k == 'language' else 'n.' + k}, '')""" if k in _INT_PROPS else
    f"""coalesce(',"{k}":"' || {'g.term' if k == 'language' else 'n.' + k} || '"', '')""" for k in PROMOTED_PROPS)
    + " || coalesce(',' || substr(n.props, 2, length(n.props) - 2), ''), 2) || '}', '{}')")
"""The ``nodes`` view's ``props``: the JSON object of the promoted columns and the other properties."""


def split_props(props: dict[str, object]) -> tuple[dict[str, object], list[object]]:
    """``(rest, promoted)``: the values of :data:`PROMOTED_PROPS` that their columns can hold (``None``
    where absent or not), in that order, and the other properties (the JSON ``props`` column)."""
    rest = dict(props)
    promoted: list[object] = []
    for key in PROMOTED_PROPS:
        if key in rest and _storable(key, rest[key]):
            promoted.append(rest.pop(key))
        else:
            promoted.append(None)
    return rest, promoted


def join_props(rest: str | None, promoted: Sequence[object]) -> dict[str, object]:
    """The properties :func:`split_props` split, from the JSON ``rest`` and the ``promoted`` column
    values (``language`` as its term), sorted by key as they were written."""
    props = json.loads(rest) if rest else {}
    if any(v is not None for v in promoted):
        props.update((k, v) for k, v in zip(PROMOTED_PROPS, promoted) if v is not None)
        props = dict(sorted(props.items()))
    return props


def encode_qualname(node_id: str, qualname: str) -> str | int:
    """A node row's stored qualified name: ``(start << 16) | length`` of the last place ``node_id``
    holds it (``start`` 1-based, in characters, as SQLite's ``substr`` counts them), or the text
    itself when the id does not hold it (or holds a NUL)."""
    if qualname and len(qualname) < (1 << 16) and "\0" not in node_id:
        at = node_id.rfind(qualname)
        if 0 <= at < (1 << 30):
            return ((at + 1) << 16) | len(qualname)
    return qualname


NODE_SELECT = (f"SELECT i.id, l.term, n.name, {_QUALNAME}, p.repo, p.path, n.start_line, n.start_col, n.end_line,"
               " n.end_col, n.props, g.term, n.module, n.name_line, n.name_col, n.arity, n.min_arity, n.max_arity,"
               " n.signature FROM node_rows n JOIN ids i ON i.nid = n.nid JOIN terms l ON l.tid = n.label"
               " JOIN paths p ON p.fid = n.fid LEFT JOIN terms g ON g.tid = n.language")
"""The columns :func:`node_row` reads, of ``node_rows`` ``n`` with ``ids`` ``i``, ``terms`` ``l``
(the label) and ``g`` (the language), ``paths`` ``p``: add a ``WHERE`` and an ``ORDER BY``."""


def node_row(row: Sequence[Any]) -> tuple[tuple[Any, ...], dict[str, object]]:
    """A :data:`NODE_SELECT` row as ``(the ten fields of a Node before props, props)``."""
    return tuple(row[:10]), join_props(row[10], row[11:19])


def id_hash(text: str) -> int:
    """``ids.h`` of an id: its UTF-8 CRC-32 (:func:`zlib.crc32`, lone surrogates kept) as a signed
    32-bit integer (4 bytes in a record). Not unique: a lookup compares the text too."""
    h = zlib.crc32(text.encode("utf-8", "surrogatepass"))
    return h - (1 << 32) if h >= (1 << 31) else h


def id_keys(ids: Iterable[str]) -> str:
    """The JSON parameter of :data:`NIDS_OF`: ``[[hash, id], ...]``."""
    return json.dumps([[id_hash(i), i] for i in ids])


NIDS_OF = ("SELECT i.nid FROM json_each(?) k JOIN ids i ON i.h = json_extract(k.value, '$[0]')"
           " AND i.id = json_extract(k.value, '$[1]')")
"""The nids of the ids in one JSON parameter (:func:`id_keys`), each found on the hash index (an id
holding a NUL, where SQLite's JSON text ends, is not found, as before)."""


def graph_layout_current(conn: sqlite3.Connection) -> bool:
    """Whether the graph tables on ``conn`` have the layout of :data:`SCHEMA_VERSION` (``ids.h``)."""
    return any(r[1] == "h" for r in conn.execute("PRAGMA table_info(ids)"))


SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE ids (nid INTEGER PRIMARY KEY, h INTEGER NOT NULL, id TEXT NOT NULL);
CREATE INDEX ids_hash ON ids (h);
CREATE TABLE paths (fid INTEGER PRIMARY KEY, repo TEXT NOT NULL, path TEXT NOT NULL, UNIQUE (repo, path));
CREATE TABLE terms (tid INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
CREATE TABLE file_rows (
    fid INTEGER PRIMARY KEY, language TEXT NOT NULL, checksum TEXT NOT NULL, size INTEGER NOT NULL, ztext BLOB
);
-- qualname: no type (no affinity), so an integer (a range of the id, encode_qualname) stays one and a
-- text stays text. props: the JSON of the properties not in the typed columns after it (PROMOTED_PROPS).
CREATE TABLE node_rows (
    nid INTEGER PRIMARY KEY, label INTEGER NOT NULL, name TEXT NOT NULL, qualname NOT NULL,
    fid INTEGER NOT NULL, start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line INTEGER NOT NULL,
    end_col INTEGER NOT NULL, props TEXT, language INTEGER, module TEXT, name_line INTEGER, name_col INTEGER,
    arity INTEGER, min_arity INTEGER, max_arity INTEGER, signature TEXT
);
CREATE INDEX node_rows_name ON node_rows (name);
CREATE INDEX node_rows_file ON node_rows (fid);
CREATE TABLE edge_rows (
    kind INTEGER NOT NULL, src INTEGER NOT NULL, dst INTEGER NOT NULL, fid INTEGER NOT NULL,
    line INTEGER NOT NULL, col INTEGER NOT NULL, resolution INTEGER, props TEXT
);
CREATE INDEX edge_rows_dst ON edge_rows (dst, kind);
CREATE INDEX edge_rows_src ON edge_rows (src, kind);
CREATE INDEX edge_rows_file ON edge_rows (fid);
CREATE TABLE unresolved_rows (
    caller INTEGER NOT NULL, name TEXT NOT NULL, arity INTEGER NOT NULL, receiver TEXT,
    fid INTEGER NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL
);
CREATE INDEX unresolved_rows_name ON unresolved_rows (name);
CREATE INDEX unresolved_rows_file ON unresolved_rows (fid);
CREATE INDEX unresolved_rows_caller ON unresolved_rows (caller);
CREATE TABLE chunk_rows (
    rowid INTEGER PRIMARY KEY, nid INTEGER NOT NULL UNIQUE, fid INTEGER NOT NULL, product TEXT,
    language TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, fqn TEXT, parent TEXT,
    start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, size INTEGER NOT NULL,
    head TEXT, boff INTEGER, blen INTEGER, tail TEXT NOT NULL, checksum TEXT NOT NULL, embedding BLOB, pcut INTEGER
);
CREATE INDEX chunk_rows_file ON chunk_rows (fid);
CREATE INDEX chunk_rows_checksum ON chunk_rows (checksum);
-- The ANN index's (rowid, checksum) of the embedded rows of one dimension, and their count, read
-- from this small index instead of the whole table (vectors included): VECTOR_KEYS_INDEX.
{VECTOR_KEYS_INDEX};
-- Content-addressed: an embedding is computed once per distinct chunk text (its checksum) and
-- survives re-indexing, and is cleared when the embedding model changes (meta 'embedding_model').
CREATE TABLE embedding_cache (checksum TEXT PRIMARY KEY, embedding BLOB NOT NULL) WITHOUT ROWID;
CREATE VIRTUAL TABLE chunks_fts USING fts5 (
    name, fqn, text, content = '', tokenize = "unicode61 remove_diacritics 0 tokenchars '{FTS_TOKENCHARS}'"
);
-- Per FTS term (by a hash), per block of 64 rowids, a bound of the term's BM25 factor (stores.bm25_blocks).
{BM25_BLOCKS_TABLE};
CREATE VIEW files AS SELECT p.repo AS repo, p.path AS path, f.language AS language, f.checksum AS checksum,
    f.size AS size FROM file_rows f JOIN paths p ON p.fid = f.fid;
CREATE VIEW nodes AS SELECT i.id AS id, l.term AS label, n.name AS name, {_QUALNAME} AS qualname, p.repo AS repo,
    p.path AS file, n.start_line AS start_line, n.start_col AS start_col, n.end_line AS end_line,
    n.end_col AS end_col, {_PROPS_JSON} AS props
    FROM node_rows n JOIN ids i ON i.nid = n.nid JOIN terms l ON l.tid = n.label JOIN paths p ON p.fid = n.fid
    LEFT JOIN terms g ON g.tid = n.language;
CREATE VIEW edges AS SELECT k.term AS kind, s.id AS src, d.id AS dst, p.repo AS repo, p.path AS file,
    e.line AS line, e.col AS col, r.term AS resolution, e.props AS props
    FROM edge_rows e JOIN terms k ON k.tid = e.kind JOIN ids s ON s.nid = e.src JOIN ids d ON d.nid = e.dst
    JOIN paths p ON p.fid = e.fid LEFT JOIN terms r ON r.tid = e.resolution;
CREATE VIEW unresolved AS SELECT i.id AS caller, u.name AS name, u.arity AS arity, u.receiver AS receiver,
    p.repo AS repo, p.path AS file, u.line AS line, u.col AS col
    FROM unresolved_rows u JOIN ids i ON i.nid = u.caller JOIN paths p ON p.fid = u.fid;
CREATE VIEW chunks AS SELECT c.rowid AS rowid, i.id AS id, p.repo AS repo, coalesce(c.product, p.repo) AS product,
    p.path AS file,
    c.language AS language, c.kind AS kind, c.name AS name, coalesce(c.fqn, i.id) AS fqn,
    CASE WHEN c.pcut IS NULL THEN c.parent ELSE substr(i.id, 1, c.pcut) || c.parent END AS parent,
    c.start_line AS start_line, c.end_line AS end_line, CASE WHEN c.boff IS NULL THEN c.tail END AS text,
    c.checksum AS checksum, c.embedding AS embedding
    FROM chunk_rows c JOIN ids i ON i.nid = c.nid JOIN paths p ON p.fid = c.fid;
-- Raw SQL written against schema 5 (tests, benchmarks): a file record's fields, as before.
CREATE TRIGGER files_update INSTEAD OF UPDATE ON files BEGIN
    SELECT RAISE(ABORT, 'files: repo and path cannot be updated') WHERE NEW.repo IS NOT OLD.repo
        OR NEW.path IS NOT OLD.path;
    UPDATE file_rows SET language = NEW.language, checksum = NEW.checksum, size = NEW.size
        WHERE fid = (SELECT fid FROM paths WHERE repo = OLD.repo AND path = OLD.path);
END;
"""


def add_vector_keys_index(conn: sqlite3.Connection) -> bool:
    """Create :data:`VECTOR_KEYS_INDEX` in a schema-6 index made before it existed (one pass over the
    chunk rows, once: about a minute at a million rows). Returns whether it was created now. Never
    raises for a busy or read-only database (``sqlite3.OperationalError``: logged, tried again at the
    next writable open; the searches work without it, reading the table instead)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'chunk_rows_vectors'").fetchone():
        return False
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_rows'").fetchone() is None:
        return False
    log.info("creating the index of the embedded chunk rows (once for this index file)")
    try:
        conn.execute(VECTOR_KEYS_INDEX)
    except sqlite3.OperationalError as exc:
        log.info("index of the embedded rows not created now (%s): searches read the table", exc)
        return False
    return True


def has_parent_cut(conn: sqlite3.Connection) -> bool:
    """Whether ``chunk_rows`` on ``conn`` has the ``pcut`` column (schema 8; not a 6 or 7 index another
    process has not migrated yet), so a write may store parents as cuts of the id."""
    return "pcut" in _chunk_columns(conn)


def product_may_be_null(conn: sqlite3.Connection) -> bool:
    """Whether ``chunk_rows.product`` on ``conn`` takes ``NULL`` for "the chunk's repository" (an index
    created at schema 8; one migrated from 6 or 7 keeps the column ``NOT NULL`` and every product whole).
    Readers take either: the ``chunks`` view and :func:`read_chunks` read ``coalesce(product, repo)``."""
    return _chunk_columns(conn).get("product") == 0


def _chunk_columns(conn: sqlite3.Connection) -> dict[str, int]:
    """``chunk_rows``' columns on ``conn`` and their ``NOT NULL`` flags."""
    return {r[1]: r[3] for r in conn.execute("PRAGMA table_info(chunk_rows)")}


def add_parent_cut(conn: sqlite3.Connection) -> None:
    """Give a schema-6 or 7 index's ``chunk_rows`` the ``pcut`` column (``NULL``: the parent stored
    whole, as its rows have it) and the ``chunks`` view (with its insert trigger) that reads it; inside
    the caller's transaction (the migration to 8)."""
    if not has_parent_cut(conn):
        conn.execute("ALTER TABLE chunk_rows ADD COLUMN pcut INTEGER")
    conn.execute("DROP TRIGGER IF EXISTS chunks_insert")
    conn.execute("DROP VIEW IF EXISTS chunks")
    for statement in schema_statements():
        if statement.startswith(("CREATE VIEW chunks ", "CREATE TRIGGER chunks_insert ")):
            conn.execute(statement)


def missing_objects(conn: sqlite3.Connection) -> list[str]:
    """The tables and views of :data:`SCHEMA` that the database on ``conn`` lacks, sorted (an index of
    this version with a table dropped: damaged). ``bm25_maxima`` is not counted: searches work without
    it and a writable open makes it again (:func:`stores.embedded_migrate.ensure_current`)."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    wanted = {m.group(1) for statement in schema_statements()
              if (m := re.search(r"^CREATE (?:VIRTUAL TABLE|TABLE|VIEW) (\w+)", statement, re.M))}
    return sorted(wanted - have - {"bm25_maxima"})


DEFERRED_INDEXES = ("node_rows_name", "node_rows_file", "edge_rows_file", "unresolved_rows_name",
                    "unresolved_rows_file", "unresolved_rows_caller", "chunk_rows_file", "chunk_rows_checksum")
"""The secondary indexes of :data:`SCHEMA` a write transaction on an empty store builds once at its end
instead of row by row (:func:`defer_indexes`): no query of such a write needs them (its deletes find
nothing, its lookups key on ``nid``), unlike ``ids_hash`` (the :class:`Interner`) and ``edge_rows_dst``
/ ``edge_rows_src`` (the shared nodes' pruning, :func:`prune`), which stay. Django 5.2.8's rows
replayed into a new store: 2.10 -> 1.90 s of SQLite CPU, the file 82.4 -> 80.7 MB, the same rows
(docs/benchmarks.md, session 68, cpu68b)."""


def defer_indexes(conn: sqlite3.Connection) -> list[str]:
    """In a write transaction open on ``conn``, drop the :data:`DEFERRED_INDEXES` it holds when the
    graph and chunk tables hold no row (a new index, or one emptied), and return their ``CREATE``
    statements exactly as stored (``sqlite_master.sql``) for :func:`restore_indexes` to run before the
    commit; ``[]`` (nothing dropped) otherwise. SQLite's DDL is transactional: a rollback, or a process
    killed before the commit, leaves them as they were. Raises ``sqlite3.Error`` as SQLite does."""
    if conn.execute("SELECT EXISTS (SELECT 1 FROM node_rows) OR EXISTS (SELECT 1 FROM edge_rows)"
                    " OR EXISTS (SELECT 1 FROM unresolved_rows) OR EXISTS (SELECT 1 FROM chunk_rows)").fetchone()[0]:
        return []
    found = dict(conn.execute(f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN ({_JSON})",
                              (json.dumps(DEFERRED_INDEXES),)).fetchall())
    statements = [found[name] for name in DEFERRED_INDEXES if found.get(name)]
    for name in DEFERRED_INDEXES:
        if found.get(name):
            conn.execute(f'DROP INDEX "{name}"')
    return statements


def missing_indexes(conn: sqlite3.Connection) -> list[str]:
    """The ``CREATE INDEX`` statements of :data:`SCHEMA` whose index the database on ``conn`` lacks, in schema
    order: an index dropped by hand, or by a build that committed a write with its indexes deferred
    (:func:`defer_indexes`), which no later write makes again (a store holding rows defers nothing, an empty
    one restores only the indexes it had). Raises ``sqlite3.Error`` as SQLite does."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    return [statement for statement in schema_statements()
            if (m := re.match(r"CREATE (?:UNIQUE )?INDEX (\w+)", statement)) and m.group(1) not in have]


def restore_indexes(conn: sqlite3.Connection, statements: Sequence[str]) -> None:
    """Create again the indexes :func:`defer_indexes` dropped (its ``statements``), over every row
    written since, in the same transaction. Raises ``sqlite3.Error`` as SQLite does."""
    for statement in statements:
        conn.execute(statement)


def schema_statements() -> list[str]:
    """:data:`SCHEMA` as single statements (trigger bodies hold semicolons of their own)."""
    out, buf = [], ""
    for line in SCHEMA.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    return out


def _chunks(seq: list, n: int = 20_000) -> Iterable[list]:
    for i in range(0, len(seq), n):
        yield seq[i : i + n]


class Interner:
    """Integer keys of strings for one write transaction on ``conn``: :meth:`nids` (ids),
    :meth:`fids` (``(repo, path)``), :meth:`tids` (terms), each inserting what is missing; looked-up
    keys are remembered for the rest of the transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._ids: dict[str, int] = {}
        self._paths: dict[tuple[str, str], int] = {}
        self._terms: dict[str, int] = {}

    def nids(self, ids: Iterable[str]) -> dict[str, int]:
        """``{id: nid}`` for every id (inserted into ``ids`` when missing, with the next free nids)."""
        want = [i for i in dict.fromkeys(ids) if i not in self._ids]
        if want:
            hashes = {i: id_hash(i) for i in want}
            for part in _chunks(want):
                found = self.conn.execute(f"SELECT nid, id FROM ids WHERE h IN ({_JSON})",
                                          (json.dumps(sorted({hashes[i] for i in part})),)).fetchall()
                self._ids.update((s, n) for n, s in found if s in hashes)
            missing = [i for i in want if i not in self._ids]
            if missing:
                start = self.conn.execute("SELECT coalesce(max(nid), 0) + 1 FROM ids").fetchone()[0]
                rows = [(start + k, hashes[i], i) for k, i in enumerate(missing)]
                self.conn.executemany("INSERT INTO ids (nid, h, id) VALUES (?, ?, ?)", rows)
                self._ids.update((i, n) for n, _, i in rows)
        return self._ids

    def fids(self, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """``{(repo, path): fid}`` for every key (inserted into ``paths`` when missing)."""
        want = [k for k in dict.fromkeys(keys) if k not in self._paths]
        if want:
            self.conn.executemany("INSERT OR IGNORE INTO paths (repo, path) VALUES (?, ?)", want)
            for repo, path in want:
                self._paths[(repo, path)] = self.conn.execute(
                    "SELECT fid FROM paths WHERE repo = ? AND path = ?", (repo, path)).fetchone()[0]
        return self._paths

    def tids(self, terms: Iterable[str]) -> dict[str, int]:
        """``{term: tid}`` for every term (inserted into ``terms`` when missing)."""
        want = [t for t in dict.fromkeys(terms) if t not in self._terms]
        if want:
            self.conn.executemany("INSERT OR IGNORE INTO terms (term) VALUES (?)", [(t,) for t in want])
            self._terms.update((s, n) for n, s in self.conn.execute(
                f"SELECT tid, term FROM terms WHERE term IN ({_JSON})", (json.dumps(want),)))
        return self._terms


def fid_of(conn: sqlite3.Connection, repo: str, path: str) -> int | None:
    """The ``paths`` key of ``(repo, path)``, or ``None`` when nothing of it is stored."""
    row = conn.execute("SELECT fid FROM paths WHERE repo = ? AND path = ?", (repo, path)).fetchone()
    return row[0] if row else None


def prune(conn: sqlite3.Connection, nids: Iterable[int], fids: Iterable[int]) -> None:
    """Delete the ``ids`` rows among ``nids`` and the ``paths`` rows among ``fids`` that no row refers
    to any more (the candidates: what the write removed references to)."""
    nid_list = sorted(set(nids))
    for part in _chunks(nid_list):
        conn.execute(
            f"DELETE FROM ids WHERE nid IN ({_JSON})"
            " AND NOT EXISTS (SELECT 1 FROM node_rows WHERE nid = ids.nid)"
            " AND NOT EXISTS (SELECT 1 FROM edge_rows WHERE src = ids.nid)"
            " AND NOT EXISTS (SELECT 1 FROM edge_rows WHERE dst = ids.nid)"
            " AND NOT EXISTS (SELECT 1 FROM chunk_rows WHERE nid = ids.nid)"
            " AND NOT EXISTS (SELECT 1 FROM unresolved_rows WHERE caller = ids.nid)", (json.dumps(part),))
    fid_list = sorted(set(fids))
    for part in _chunks(fid_list):
        conn.execute(
            f"DELETE FROM paths WHERE fid IN ({_JSON})"
            " AND NOT EXISTS (SELECT 1 FROM file_rows WHERE fid = paths.fid)"
            " AND NOT EXISTS (SELECT 1 FROM node_rows WHERE fid = paths.fid)"
            " AND NOT EXISTS (SELECT 1 FROM edge_rows WHERE fid = paths.fid)"
            " AND NOT EXISTS (SELECT 1 FROM chunk_rows WHERE fid = paths.fid)"
            " AND NOT EXISTS (SELECT 1 FROM unresolved_rows WHERE fid = paths.fid)", (json.dumps(part),))


_MIN_RANGE = 24
"""Fewest bytes worth storing as a range of the file text instead of literally."""


def _line_starts(data: bytes) -> list[int]:
    starts = [0]
    find = data.find
    i = find(b"\n")
    while i >= 0:
        starts.append(i + 1)
        i = find(b"\n", i + 1)
    return starts


def _common(a: bytes, a_at: int, b: bytes, b_at: int) -> int:
    """Length of the longest common prefix of ``a[a_at:]`` and ``b[b_at:]`` (binary search on slices)."""
    hi = min(len(a) - a_at, len(b) - b_at)
    if a[a_at : a_at + hi] == b[b_at : b_at + hi]:
        return hi
    lo = 0  # a[a_at:a_at+lo] == b[b_at:b_at+lo] holds; hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[a_at : a_at + mid] == b[b_at : b_at + mid]:
            lo = mid
        else:
            hi = mid
    return lo


def compress_text(text: str | None) -> bytes | None:
    """A file text as stored (``file_rows.ztext``): its UTF-8 bytes (lone surrogates kept), zlib level 6."""
    return None if text is None else zlib.compress(text.encode("utf-8", "surrogatepass"), 6)


def decompress_text(blob: bytes | None) -> str | None:
    """The file text :func:`compress_text` stored (``None`` stays ``None``)."""
    return None if blob is None else zlib.decompress(blob).decode("utf-8", "surrogatepass")


_PROBE_WINDOW = 4096
"""Bytes of a line read for the text a chunk is anchored on (its first 64 after blanks): a slice of
the whole line per chunk cost a copy of a minified line for each of its definitions."""


class FileText:
    """A file's text as UTF-8 bytes with its line starts, for cutting many chunks of it (``data``:
    the bytes; built from the text or from :func:`compress_text`'s blob)."""

    def __init__(self, text: str | None = None, *, blob: bytes | None = None) -> None:
        self.data = zlib.decompress(blob) if blob is not None else (text or "").encode("utf-8", "surrogatepass")
        self.starts = _line_starts(self.data)
        self.found: dict[int, int] = {}
        """Per line, where :func:`encode_chunk_text` last found a chunk's text on it: the next chunk
        of a long (minified) line is looked for from there first (the chunks come in file order), not
        from the line's start each time (quadratic in the line's definitions)."""


def encode_chunk_text(file: FileText | None, start_line: int, end_line: int, text: str
                      ) -> tuple[str | None, int | None, int | None, str]:
    """``(head, boff, blen, tail)`` with ``text == head + file[boff:boff+blen] + tail`` (bytes of the
    file's UTF-8 text; ``head`` ``None`` for empty): the longest part of ``text`` found at the start of
    a line of ``start_line..end_line`` (1-based) of the file, or ``(None, None, None, text)`` when no
    part of at least :data:`_MIN_RANGE` bytes is (or there is no file text)."""
    if file is None or not text:
        return None, None, None, text
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: not storable as a range (nor as SQLite text)
        return None, None, None, text
    src, starts = file.data, file.starts
    first = max(start_line - 1, 0)
    if first >= len(starts):
        return None, None, None, text
    at = starts[first]
    best = (_common(src, at, data, 0), 0, at)  # (length, offset in text, offset in file)
    if best[0] < len(data):
        # The text may start elsewhere on its first line (a definition on a long minified line), or
        # after a head of its own (a doc section's heading trail): anchor on the first line's text.
        for line in range(first, min(first + 4, len(starts))):  # the first line with text (windows strip blanks)
            line_end = starts[line + 1] - 1 if line + 1 < len(starts) else len(src)
            probe = src[starts[line]:min(line_end, starts[line] + _PROBE_WINDOW)].strip()[:64]
            if probe:
                break
        if len(probe) >= 8:
            a = src.find(probe, starts[line], line_end)
            h = data.find(probe)
            for _ in range(8):  # each place it occurs in the text (a heading trail may repeat the heading)
                if h < 0:
                    break
                n = _common(src, a, data, h)
                if n > best[0]:
                    best = (n, h, a)
                h = data.find(probe, h + 1)
        if best[0] < _MIN_RANGE:
            head = data[:64]
            limit = starts[end_line] if end_line < len(starts) else len(src)
            last = file.found.get(first, at)  # after the previous chunk of this line first
            a = src.find(head, last, limit + len(head))
            if a < 0 and last > at:
                a = src.find(head, at, limit + len(head))
            if a >= 0:
                file.found[first] = a
                n = _common(src, a, data, 0)
                if n > best[0]:
                    best = (n, 0, a)
    length, h, a = best
    while length > 0 and h + length < len(data) and (data[h + length] & 0xC0) == 0x80:
        length -= 1  # cut on a character boundary
    if length < _MIN_RANGE:
        return None, None, None, text
    head = data[:h].decode("utf-8") if h else None
    return head, a, length, data[h + length :].decode("utf-8")


def chunk_texts(conn: sqlite3.Connection, where: str, params: Iterable[object], columns: str = "c.rowid",
                cache: StampedCache[bytes] | None = None) -> list[tuple]:
    """Rows ``(*columns, text)`` of the chunk rows (alias ``c`` of ``chunk_rows``) that ``where``
    selects, each text rebuilt from its head, range and tail, every file's text read once and
    decompressed only as far as the ranges reach. ``cache``: those decompressed prefixes by ``fid``, of
    the database state read (the caller's: see :mod:`stores.read_cache`), used when long enough and
    filled."""
    rows = conn.execute(
        f"SELECT {columns}, c.fid, c.head, c.boff, c.blen, c.tail FROM chunk_rows c WHERE {where}", tuple(params)
    ).fetchall()
    ends: dict[int, int] = {}  # how far into each file the ranges reach: decompress that far only
    for *_, fid, _head, boff, blen, _tail in rows:
        if boff is not None:
            ends[fid] = max(ends.get(fid, 0), boff + blen)
    texts: dict[int, bytes] = {}
    for fid, end in ends.items():
        cached = cache.get(fid) if cache is not None else None
        if cached is not None and len(cached) >= end:
            texts[fid] = cached
    missing = [fid for fid in ends if fid not in texts]
    blobs = dict(conn.execute(f"SELECT fid, ztext FROM file_rows WHERE fid IN ({_JSON})", (json.dumps(missing),))
                 ) if missing else {}
    for fid in missing:
        blob = blobs.get(fid)
        texts[fid] = zlib.decompressobj().decompress(blob, ends[fid]) if blob is not None else b""
        if cache is not None:
            cache.put(fid, texts[fid], len(texts[fid]))
    out = []
    for row in rows:
        *cols, fid, head, boff, blen, tail = row
        if boff is None:
            out.append((*cols, tail))
        else:
            out.append((*cols, (head or "") + texts[fid][boff : boff + blen].decode("utf-8", "surrogatepass") + tail))
    return out


_CHUNK_FIELDS = (
    "(SELECT id FROM ids WHERE nid = c.nid), (SELECT repo FROM paths WHERE fid = c.fid),"
    " coalesce(c.product, (SELECT repo FROM paths WHERE fid = c.fid)),"
    " (SELECT path FROM paths WHERE fid = c.fid), c.language, c.kind, c.name,"
    " coalesce(c.fqn, (SELECT id FROM ids WHERE nid = c.nid)), (SELECT v.parent FROM chunks v WHERE v.rowid = c.rowid),"
    " c.start_line, c.end_line, c.checksum, c.embedding"
)
"""The parent is read through the ``chunks`` view, which puts a cut parent back (:func:`encode_parent`)
where the index has ``pcut`` (schema 8) and reads the column as it is where it has not (6 or 7 read
without migration): one query for either."""


def read_chunks(conn: sqlite3.Connection, where: str, params: Iterable[object],
                cache: StampedCache[bytes] | None = None) -> list[tuple]:
    """The chunks ``where`` selects (a condition on ``chunk_rows`` aliased ``c``) as tuples in the field
    order of :class:`stores.contracts.Chunk` (id, repo, product, file, language, kind, name, fqn,
    parent, start_line, end_line, text, checksum, embedding), texts rebuilt by :func:`chunk_texts`
    (with its file text ``cache``; a parent stored as a cut of the id, :func:`encode_parent`, put back)."""
    return [(*r[:11], r[13], r[11], r[12]) for r in chunk_texts(conn, where, params, _CHUNK_FIELDS, cache)]


_MIN_CUT = 8
"""Fewest leading characters a parent must share with its chunk's id to be stored as a cut of it."""


def encode_parent(chunk_id: str, parent: str | None) -> tuple[str | None, int | None]:
    """``(parent, pcut)`` as ``chunk_rows`` stores a chunk's parent: when it shares at least
    :data:`_MIN_CUT` leading characters with the chunk's id (a method's class,
    ``repo:pkg/mod.Class`` of ``repo:pkg/mod.Class.run(1)``: 28,671 of Django's 31,897 parents; a nested
    function's ``...outer(2)`` keeps ``(2)``), ``pcut`` is how many and ``parent`` the rest, else
    ``(parent, None)``. The ``chunks`` view (and :func:`read_chunks` through it) puts ``id[:pcut] + parent`` back.
    An index without the column (6 or 7 not migrated yet) is written whole (:func:`has_parent_cut`)."""
    if not parent:
        return parent, None
    n = len(os.path.commonprefix([chunk_id, parent]))
    return (parent[n:], n) if n >= _MIN_CUT else (parent, None)
