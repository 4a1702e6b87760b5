"""The write path of the embedded store (a mixin of :class:`stores.embedded.EmbeddedStore`).

Replacing and deleting files' graph rows and chunks over the integer tables of
:mod:`stores.embedded_schema`: strings become keys through one :class:`~stores.embedded_schema.Interner`
per transaction, and every write ends by pruning the ``ids`` / ``paths`` rows it left unreferenced
(:func:`~stores.embedded_schema.prune`). The contentless ``chunks_fts`` rows of a chunk are deleted
with the analysed values they were indexed with, recomputed from the chunk row, so a file's chunks
are always deleted while the file text their ranges point into is still the old one.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from stores.lazy_import import LazyModule
from stores.analyzer import analyze_joined
from stores.bm25_blocks import REFERENCE_KEY, WRITER_KEY, BlockValues, record_rows, rows_maxima, rows_reference
from stores.chunk_prep import ChunkBasis, PreparedChunks, analysed_rows
from stores.contracts import SHARED_LABELS, IndexedFile
from stores.errors import StoreCorrupt
from stores.embedded_lexical import BM25_WEIGHTS
from stores.embedded_schema import (FileText, Interner, chunk_texts, compress_text, encode_chunk_text, encode_parent,
                                    encode_qualname, has_parent_cut, product_may_be_null, prune, split_props)

if TYPE_CHECKING:  # numpy's types; the mixin's host
    import numpy as np
    from stores.embedded import EmbeddedStore
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)


__all__ = ["EmbeddedWriter", "normalised_blob", "props_encoder"]

_IDS = "SELECT value FROM json_each(?)"


def normalised_blob(vector: Sequence[float]) -> bytes:
    """``vector`` as a unit-length float32 blob (a zero vector stays zero)."""
    v = np.asarray(vector, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(v))
    if norm > 0.0:
        v = v / np.float32(norm)
    return v.astype(np.float32, copy=False).tobytes()


def props_encoder() -> Callable[[object], str]:
    """A function giving the stored JSON of a node's or edge's props: exactly
    ``json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode(value)`` (ASCII, keys sorted, no
    spaces; ``TypeError`` for a value JSON cannot hold, ``ValueError`` for a circular one). It calls the
    standard library's C encoder (``json.encoder.c_make_encoder``, which ``encode`` builds anew on each
    call behind two Python frames) directly, with fresh circular-reference markers per value; where
    that C encoder is missing, ``encode`` itself. A write encodes one per node or edge with props
    (Django cold: 90,569): about half the CPU (docs/benchmarks.md, session 67, r67b)."""
    encoder = json.JSONEncoder(separators=(",", ":"), sort_keys=True)
    make = json.encoder.c_make_encoder
    if make is None:
        return encoder.encode
    # The arguments JSONEncoder.iterencode passes it for this encoder (ensure_ascii, check_circular).
    args = (encoder.default, json.encoder.encode_basestring_ascii, encoder.indent, encoder.key_separator,
            encoder.item_separator, encoder.sort_keys, encoder.skipkeys, encoder.allow_nan)
    join = "".join

    def encode(value: object) -> str:
        return join(make({}, *args)(value, 0))

    return encode


class _Removed:
    """What a write dropped references to: candidates for :func:`~stores.embedded_schema.prune`."""

    def __init__(self) -> None:
        self.nids: set[int] = set()
        self.fids: set[int] = set()

    def rows(self, cursor: sqlite3.Cursor) -> None:
        """Every value of ``cursor``'s rows (``RETURNING`` id columns) is a candidate nid."""
        for row in cursor.fetchall():
            self.nids.update(v for v in row if v is not None)


def _shared_tids(conn: sqlite3.Connection) -> str:
    return json.dumps([r[0] for r in conn.execute(
        f"SELECT tid FROM terms WHERE term IN ({_IDS})", (json.dumps(SHARED_LABELS),))])


class EmbeddedWriter:
    """``replace_files`` / ``replace_chunks`` / ``delete_files`` bodies of the embedded store."""

    _prepared: Callable[[], PreparedChunks | None] | None = None

    def _offer_prepared(self: EmbeddedStore, take: Callable[[], PreparedChunks | None]) -> None:
        self._prepared = take

    @staticmethod
    def _chunk_basis(conn: sqlite3.Connection) -> ChunkBasis:
        start = conn.execute("SELECT coalesce(max(rowid), 0) FROM chunk_rows").fetchone()[0] + 1
        ref = conn.execute("SELECT value FROM meta WHERE key = ?", (REFERENCE_KEY,)).fetchone()
        return ChunkBasis(start, None if ref is None else float(ref[0]), tuple(BM25_WEIGHTS))

    @staticmethod
    def _fids(conn: sqlite3.Connection, keys: Sequence[tuple[str, str]]) -> list[int]:
        """The stored keys of ``keys`` (those never stored are absent)."""
        out = []
        for repo, path in keys:
            row = conn.execute("SELECT fid FROM paths WHERE repo = ? AND path = ?", (repo, path)).fetchone()
            if row:
                out.append(row[0])
        return out

    def _delete_files_body(self: EmbeddedStore, conn: sqlite3.Connection, keys: list[tuple[str, str]]) -> None:
        fids = self._fids(conn, keys)
        gone = _Removed()
        gone.fids.update(fids)
        self._delete_chunks(conn, fids, gone)
        removed = [r[0] for fid in fids for r in conn.execute("SELECT nid FROM node_rows WHERE fid = ?", (fid,))]
        shared = self._shared_touched(conn, fids, removed)
        self._delete_owned(conn, fids, gone)
        self._detach(conn, removed, gone)
        self._prune_shared(conn, shared, gone)
        conn.executemany("DELETE FROM file_rows WHERE fid = ?", [(f,) for f in fids])
        prune(conn, gone.nids, gone.fids)

    def _replace_body(self: EmbeddedStore, conn: sqlite3.Connection, batch: list[IndexedFile], graph: bool) -> None:
        """Replace the chunks (and with ``graph`` the graph rows and file records) of ``batch``: the old
        chunks go first, while the file texts their ranges point into are still the stored ones."""
        it = Interner(conn)
        gone = _Removed()
        fids = self._fids(conn, [(f.file.repo, f.file.path) for f in batch])
        gone.fids.update(fids)
        self._delete_chunks(conn, fids, gone)
        files = self._replace_graph(conn, batch, fids, it, gone) if graph else []
        self._insert_chunks(conn, batch, it, gone, files)
        prune(conn, gone.nids, gone.fids)

    @staticmethod
    def _delete_owned(conn: sqlite3.Connection, fids: list[int], gone: _Removed) -> None:
        for fid in fids:
            gone.rows(conn.execute("DELETE FROM edge_rows WHERE fid = ? RETURNING src, dst", (fid,)))
            gone.rows(conn.execute("DELETE FROM unresolved_rows WHERE fid = ? RETURNING caller", (fid,)))
            gone.rows(conn.execute("DELETE FROM node_rows WHERE fid = ? RETURNING nid", (fid,)))

    @staticmethod
    def _detach(conn: sqlite3.Connection, removed: list[int], gone: _Removed) -> None:
        for nid in removed:
            for end in ("dst", "src"):
                for src, dst, fid in conn.execute(f"DELETE FROM edge_rows WHERE {end} = ? RETURNING src, dst, fid",
                                                  (nid,)).fetchall():
                    gone.nids.update((src, dst))
                    gone.fids.add(fid)
        gone.nids.update(removed)

    def _replace_graph(self: EmbeddedStore, conn: sqlite3.Connection, batch: list[IndexedFile], fids: list[int],
                       it: Interner, gone: _Removed) -> list[tuple[int, IndexedFile]]:
        """Replace the graph rows of ``batch``; returns the file rows to write, ``(fid, file)``: the
        chunk write (:meth:`_insert_chunks`) writes them, with a text prepared ahead when it has one."""
        new_ids = {n.id for f in batch for n in f.nodes}
        removed = [nid for fid in fids for nid, node_id in conn.execute(
            "SELECT n.nid, i.id FROM node_rows n JOIN ids i ON i.nid = n.nid WHERE n.fid = ?", (fid,))
            if node_id not in new_ids]
        shared = self._shared_touched(conn, fids, removed)
        self._delete_owned(conn, fids, gone)
        self._detach(conn, removed, gone)

        keys = [(f.file.repo, f.file.path) for f in batch]
        owners = {k: None for k in keys}
        for f in batch:
            owners.update({("", "") if n.label in SHARED_LABELS else (n.repo, n.file): None for n in f.nodes})
            owners.update({(e.repo, e.file): None for e in f.edges})
            owners.update({(u.repo, u.file): None for u in f.unresolved})
        fid = it.fids(owners)
        nid = it.nids([n.id for f in batch for n in f.nodes] + [x for f in batch for e in f.edges for x in (e.src, e.dst)]
                      + [u.caller for f in batch for u in f.unresolved])
        split = [(n, *split_props(n.props)) for f in batch for n in f.nodes]
        tid = it.tids([n.label for f in batch for n in f.nodes] + [e.kind for f in batch for e in f.edges]
                      + [e.resolution for f in batch for e in f.edges if e.resolution is not None]
                      + [promoted[0] for _, _, promoted in split if promoted[0] is not None])
        node_nids = [nid[n.id] for f in batch for n in f.nodes]
        for part in range(0, len(node_nids), 20_000):  # a node moving here from another file leaves that file
            gone.fids.update(r[0] for r in conn.execute(
                f"SELECT fid FROM node_rows WHERE nid IN ({_IDS})", (json.dumps(node_nids[part:part + 20_000]),)))
        dumps = props_encoder()
        conn.executemany(
            "INSERT OR REPLACE INTO node_rows (nid, label, name, qualname, fid, start_line, start_col, end_line,"
            " end_col, props, language, module, name_line, name_col, arity, min_arity, max_arity, signature)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(nid[n.id], tid[n.label], n.name, encode_qualname(n.id, n.qualname),
              fid[("", "") if n.label in SHARED_LABELS else (n.repo, n.file)],
              n.start_line, n.start_col, n.end_line, n.end_col, dumps(rest) if rest else None,
              None if promoted[0] is None else tid[promoted[0]], *promoted[1:])  # type: ignore[index]
             for n, rest, promoted in split])
        conn.executemany(
            "INSERT INTO edge_rows (kind, src, dst, fid, line, col, resolution, props) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(tid[e.kind], nid[e.src], nid[e.dst], fid[(e.repo, e.file)], e.line, e.col,
              tid[e.resolution] if e.resolution is not None else None, dumps(e.props) if e.props else None)
             for f in batch for e in dict.fromkeys(f.edges)])
        conn.executemany(
            "INSERT INTO unresolved_rows (caller, name, arity, receiver, fid, line, col) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(nid[u.caller], u.name, u.arity, u.receiver, fid[(u.repo, u.file)], u.line, u.col)
             for f in batch for u in f.unresolved])
        shared |= {nid[n.id] for f in batch for n in f.nodes if n.label in SHARED_LABELS}
        self._prune_shared(conn, shared, gone)
        return [(fid[(f.file.repo, f.file.path)], f) for f in batch]

    @staticmethod
    def _write_files(conn: sqlite3.Connection, files: Sequence[tuple[int, IndexedFile]],
                     prep: PreparedChunks | None) -> dict[int, bytes | None]:
        """Write the ``file_rows`` of ``files`` (``(fid, file)``), each text compressed
        (:func:`~stores.embedded_schema.compress_text`), or the blob ``prep`` compressed ahead for
        the file when it decompresses to exactly this text (decompressing is a fraction of
        compressing); returns each fid's stored blob."""
        ready = prep.texts if prep is not None else {}
        rows = []
        for key, f in files:
            blob = ready.get((f.file.repo, f.file.path))
            if blob is None or f.text is None or zlib.decompress(blob) != f.text.encode("utf-8", "surrogatepass"):
                blob = compress_text(f.text)
            rows.append((key, f.file.language, f.file.checksum, f.file.size, blob))
        conn.executemany("INSERT OR REPLACE INTO file_rows (fid, language, checksum, size, ztext) VALUES (?, ?, ?, ?, ?)", rows)
        return {row[0]: row[4] for row in rows}

    @staticmethod
    def _shared_touched(conn: sqlite3.Connection, fids: list[int], removed: list[int]) -> set[int]:
        """Nids of the shared nodes at either end of an edge the files ``fids`` own or of an edge of a
        ``removed`` node: the only shared nodes a write can leave without an edge."""
        labels = _shared_tids(conn)
        found: set[int] = set()
        for fid in fids:
            found.update(r[0] for r in conn.execute(
                f"SELECT nid FROM node_rows WHERE label IN ({_IDS}) AND nid IN"
                " (SELECT dst FROM edge_rows WHERE fid = ? UNION SELECT src FROM edge_rows WHERE fid = ?)",
                (labels, fid, fid)))
        if removed:
            ids = json.dumps(removed)
            found.update(r[0] for r in conn.execute(
                f"SELECT nid FROM node_rows WHERE label IN ({_IDS}) AND nid IN (SELECT dst FROM edge_rows WHERE src IN"
                f" ({_IDS}) UNION SELECT src FROM edge_rows WHERE dst IN ({_IDS}))", (labels, ids, ids)))
        return found

    @staticmethod
    def _prune_shared(conn: sqlite3.Connection, candidates: set[int], gone: _Removed) -> None:
        """Delete the shared nodes among ``candidates`` (nids) that no edge touches any more."""
        if candidates:
            for nid, fid in conn.execute(
                    f"DELETE FROM node_rows WHERE nid IN ({_IDS}) AND label IN ({_IDS})"
                    " AND NOT EXISTS (SELECT 1 FROM edge_rows WHERE dst = node_rows.nid)"
                    " AND NOT EXISTS (SELECT 1 FROM edge_rows WHERE src = node_rows.nid) RETURNING nid, fid",
                    (json.dumps(sorted(candidates)), _shared_tids(conn))).fetchall():
                gone.nids.add(nid)
                gone.fids.add(fid)

    def _delete_fts(self: EmbeddedStore, conn: sqlite3.Connection, where: str, params: Sequence[object]) -> None:
        """Remove from the contentless ``chunks_fts`` the rows of the chunks ``where`` selects (an SQL
        condition on ``chunk_rows`` aliased ``c``, with ``params``): FTS5's ``'delete'`` command needs the
        values each row was indexed with, analysed again from the chunk row exactly as they were. The
        block maxima the transaction still owes of those rows are computed first, while they are stored
        (:meth:`~stores.embedded_tx.EmbeddedTransactions.settle_owed`)."""
        rows = chunk_texts(conn, where, params, "c.rowid, c.name, coalesce(c.fqn, (SELECT id FROM ids WHERE nid = c.nid))")
        if any(fqn is None or text is None for _, _, fqn, text in rows):  # its id or text row is gone
            db_file = conn.execute("PRAGMA database_list").fetchone()[2]
            raise StoreCorrupt(f"index {db_file} is damaged (a chunk's id or text is missing); delete it and re-index")
        if rows:
            self.settle_owed(conn, [r[0] for r in rows])
        conn.executemany(
            "INSERT INTO chunks_fts (chunks_fts, rowid, name, fqn, text) VALUES ('delete', ?, ?, ?, ?)",
            [(rowid, analyze_joined(name), analyze_joined(fqn), analyze_joined(text)) for rowid, name, fqn, text in rows],
        )

    def _delete_chunks(self: EmbeddedStore, conn: sqlite3.Connection, fids: list[int], gone: _Removed) -> None:
        if not fids:
            return
        where = f"c.fid IN ({_IDS})"
        self._delete_fts(conn, where, (json.dumps(fids),))
        gone.rows(conn.execute(f"DELETE FROM chunk_rows WHERE fid IN ({_IDS}) RETURNING nid", (json.dumps(fids),)))

    def _insert_chunks(self: EmbeddedStore, conn: sqlite3.Connection, batch: list[IndexedFile], it: Interner,
                       gone: _Removed, files: Sequence[tuple[int, IndexedFile]] = ()) -> None:
        """Insert the chunks of ``batch`` (their rows, ``chunks_fts`` rows and block maxima), after
        the file rows ``files`` (:meth:`_replace_graph`) their stored form points into."""
        # Analysed and encoded ahead (stores.chunk_prep) when offered for exactly these rows, else here:
        # the same values. Taken only now: it is not held beside the graph rows.
        take, self._prepared = self._prepared, None
        taken = prep = take() if take is not None else None
        try:
            self._insert_prepared(conn, batch, it, gone, files, prep)
        finally:
            if taken is not None:  # not used with its held block maxima (or used and settled already)
                taken.settle(False)

    def _insert_prepared(self: EmbeddedStore, conn: sqlite3.Connection, batch: list[IndexedFile], it: Interner,
                         gone: _Removed, files: Sequence[tuple[int, IndexedFile]], prep: PreparedChunks | None) -> None:
        """:meth:`_insert_chunks` with the preparation ``prep`` taken (``None``: none)."""
        blobs: dict[int, bytes | None] = self._write_files(conn, files, prep) if files else {}
        chunks = list({c.id: c for f in batch for c in f.chunks}.values())
        if not chunks:
            return
        nid = it.nids(c.id for c in chunks)
        # A chunk id owned by a file outside this batch moves here: drop the old row first.
        nids = json.dumps([nid[c.id] for c in chunks])
        self._delete_fts(conn, f"c.nid IN ({_IDS})", (nids,))
        gone.fids.update(r[0] for r in conn.execute(f"DELETE FROM chunk_rows WHERE nid IN ({_IDS}) RETURNING fid", (nids,)))
        fid = it.fids((c.repo, c.file) for c in chunks)
        start = conn.execute("SELECT coalesce(max(rowid), 0) FROM chunk_rows").fetchone()[0] + 1
        # A chunk's stored form only where its file's stored text is the one prepared.
        if prep is not None and not prep.matches(chunks, start):
            prep = None
        owed = False  # the block maxima of these rows left to the preparer's fold (stores.chunk_prep)
        if prep is not None and prep.held:
            owed = rows_reference(conn, prep.analysed) == prep.reference and self.owe_maxima(start, len(chunks))
            prep.settle(owed)  # as early as it is known: the preparer folds while this process writes
        texts: dict[int, FileText | None] = {}
        for key in {fid[(c.repo, c.file)] for c in chunks} - blobs.keys():  # a file not written just now
            row = conn.execute("SELECT ztext FROM file_rows WHERE fid = ?", (key,)).fetchone()
            blobs[key] = row[0] if row else None
        rows = []
        cut = has_parent_cut(conn)  # not in a 6 or 7 index another process has not migrated yet: parents whole
        same = product_may_be_null(conn)  # NULL for a product that is the chunk's repository (created at 8)
        for i, c in enumerate(chunks):
            f = fid[(c.repo, c.file)]
            ready = prep.texts.get((c.repo, c.file)) if prep is not None and prep.encoded else None
            if ready is not None and ready == blobs[f]:
                head, boff, blen, tail = prep.encoded[i]  # type: ignore[union-attr]
            else:
                if f not in texts:
                    texts[f] = FileText(blob=blobs[f]) if blobs[f] is not None else None
                head, boff, blen, tail = encode_chunk_text(texts[f], c.start_line, c.end_line, c.text)
            parent, pcut = encode_parent(c.id, c.parent) if cut else (c.parent, None)
            product = None if same and c.product == c.repo else c.product
            rows.append((start + i, nid[c.id], f, product, c.language, c.kind, c.name, None if c.fqn == c.id else c.fqn,
                         parent, c.start_line, c.end_line, len(c.text), head, boff, blen, tail, c.checksum,
                         normalised_blob(c.embedding) if c.embedding is not None else None, pcut))
        # This write records its rows' block maxima: the guard trigger (stores.bm25_blocks.GUARD) lets them by.
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", (WRITER_KEY,))
        conn.executemany(
            "INSERT INTO chunk_rows (rowid, nid, fid, product, language, kind, name, fqn, parent, start_line, end_line,"
            " size, head, boff, blen, tail, checksum, embedding" + (", pcut) VALUES (" + "?, " * 18 + "?)" if cut else
                                                                   ") VALUES (" + "?, " * 17 + "?)"),
            rows if cut else [r[:-1] for r in rows])
        if prep is not None:
            analysed, ahead = prep.analysed, (None if prep.held else (prep.reference, prep.maxima))
        else:
            analysed, ahead = analysed_rows(chunks, start), None
        conn.executemany("INSERT INTO chunks_fts (rowid, name, fqn, text) VALUES (?, ?, ?, ?)",
                         [(rowid, *columns) for rowid, columns in analysed])
        # The block maxima of BM25's cut (stores.bm25_blocks); inside transaction() they wait to be folded into
        # their table with the next batches' (stores.bm25_pending: a common term's row written once, not per batch).
        # Owed ones come with the preparer's fold (adopt_maxima) or are computed before the commit (settle_owed).
        pending = self._pending_maxima
        if not owed and pending is None:
            record_rows(conn, analysed, BM25_WEIGHTS, ahead)
        elif not owed and pending is not None:
            maxima = rows_maxima(conn, analysed, BM25_WEIGHTS, ahead, as_values=True)
            if isinstance(maxima, BlockValues):  # computed here: held as flat arrays, no dict per term
                pending.add_values(conn, maxima)
            elif maxima is not None:
                pending.add(conn, maxima)
        conn.execute("DELETE FROM meta WHERE key = ?", (WRITER_KEY,))
        # Texts embedded before (this run or an earlier one) get their vector back without a model call.
        conn.execute(
            "UPDATE chunk_rows SET embedding = (SELECT e.embedding FROM embedding_cache e WHERE e.checksum = chunk_rows.checksum)"
            " WHERE rowid >= ? AND embedding IS NULL AND checksum IN (SELECT checksum FROM embedding_cache)",
            (start,),
        )
