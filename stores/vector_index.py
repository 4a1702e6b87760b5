"""Approximate nearest neighbours for the embedded store past a configurable size.

Below :data:`ANN_THRESHOLD` embedded chunks (configurable: ``[search] ann_threshold``), the embedded
store keeps its exact search (every vector in one numpy matrix, one product per query). Past it,
:class:`AnnVectors` answers instead: an HNSW graph per vector dimension (`usearch
<https://github.com/unum-cloud/usearch>`_), its vectors quantised to ``int8`` (a quarter of float32),
giving candidates that are then *re-ranked exactly*: the candidates' float32 vectors are read back
from the chunk rows and scored by cosine, so every score returned is exact and only which chunks
make the top-k is approximate (``bench/ann_bench.py`` measures recall@10 against exact search and
the latency).

**Consistency.** The chunk rows stay the truth. The ANN index holds one entry per embedded chunk of
its dimension, keyed by the chunk's ``rowid``, and remembers each entry's *fingerprint* (the chunk's
text checksum: with the model, it fixes the vector). Whenever the database changed (SQLite's
``PRAGMA data_version``, or this connection wrote), :meth:`AnnVectors.refresh` compares
``(rowid, fingerprint)`` of the embedded rows with what the index holds and applies the difference
only: rows gone or re-embedded are removed, new ones added (deletes and updates are incremental). A
different embedding model, or an index file that cannot be read, rebuilds from the vectors.

**Persistence and kill -9.** The index is saved beside the database (``<db>.vectors/``) as a
usearch file named by a fresh generation plus a small ``.npz`` manifest (keys, fingerprints, model,
the generation's file name) replaced atomically *after* the usearch file is complete: a process
killed at any moment leaves the previous manifest pointing at a complete file (or none); the next
process loads it and brings it up to date by the same difference. A manifest whose file is missing
or damaged means a rebuild. Saving is skipped on a read-only location (the index then lives in
memory for the process) and after small changes (the difference is cheap to apply again).
"""

from __future__ import annotations

import hashlib
import json
import functools
import logging
import os
import re
import sqlite3
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from stores.lazy_import import LazyModule

if TYPE_CHECKING:
    import numpy as np
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)

__all__ = ["ANN_THRESHOLD", "AnnParams", "AnnVectors", "DimIndex", "DTYPES", "PARAM_RANGES", "fingerprint",
           "fingerprints", "embedded_keys"]

log = logging.getLogger(__name__)

ANN_THRESHOLD = 200_000
"""Embedded chunks from which the embedded store searches approximately (below: exact)."""
DTYPES = ("i8", "f16", "f32")
"""Scalar kinds the ANN index may store its vectors as (usearch's names: int8, float16, float32)."""
PARAM_RANGES: dict[str, tuple[int, int]] = {
    "connectivity": (4, 128), "expansion_add": (8, 4096), "expansion_search": (8, 65_536), "candidates": (1, 4096)}
"""Allowed (lowest, highest) of each integer field of :class:`AnnParams`."""


@dataclass(frozen=True)
class AnnParams:
    """How the ANN index is built and searched (``bench/ann_sweep.py`` measured the defaults; the
    figures are in docs/benchmarks.md, "Approximate vector search past a size threshold").

    Built into the index file (changing one rebuilds the index from the vectors, once): ``connectivity``
    (HNSW's ``M``, graph edges per vector), ``expansion_add`` (candidates kept while inserting) and
    ``dtype`` (the vectors' scalar kind in the index, one of :data:`DTYPES`). Per query (no rebuild):
    ``expansion_search`` (candidates the graph search keeps: recall rises with it, and the search's
    CPU time) and ``candidates`` (how many of its best are re-ranked by their exact float32 vectors
    read from the chunk rows: at least four per result asked). Raises ``ValueError`` naming the
    field and its allowed range (:data:`PARAM_RANGES`) for a value out of range."""

    connectivity: int = 16
    expansion_add: int = 64
    expansion_search: int = 2048
    candidates: int = 64
    dtype: str = "i8"

    def __post_init__(self) -> None:
        for name, (low, high) in PARAM_RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"ANN {name} must be an integer between {low} and {high:,}, not {value!r}")
        if self.dtype not in DTYPES:
            raise ValueError(f"ANN dtype must be one of {', '.join(DTYPES)}, not {self.dtype!r}")

    def built(self) -> dict[str, object]:
        """The parameters fixed in a built index (a saved index built with others is rebuilt)."""
        return {"connectivity": self.connectivity, "expansion_add": self.expansion_add, "dtype": self.dtype}

_BUILT_BEFORE = {"connectivity": 16, "expansion_add": 64}
"""What a manifest written before these were recorded was built with (not rebuilt for their absence)."""
SAVE_FRACTION = 0.01
"""A refresh that changed at least this fraction of the entries (or a build) saves the index."""
_BATCH = 20_000
PROGRESS_FROM = 200_000
"""Adding at least this many vectors at once logs its progress (INFO) about every 5%."""


def fingerprint(checksum: str) -> int:
    """A chunk's fingerprint: 63 bits of its text checksum (hex digests read directly, other texts
    hashed)."""
    try:
        return int(checksum[:15], 16)
    except ValueError:
        return int.from_bytes(hashlib.blake2b(checksum.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                              "little") >> 1


def _load_usearch_safely() -> None:
    """Load onnxruntime (the embedding model's runtime, a dependency of fastembed) before usearch:
    with usearch 2.26.6 (its SIMD library) loaded first, a later ``import onnxruntime`` in the same
    process crashes it with a segmentation fault (reproduced here; the other order is fine), and the
    language server and ``ripple search`` may embed a query after an approximate search."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:  # no model runtime installed: nothing can clash
        pass


class DimIndex:
    """The ANN index of the vectors of one dimension: a usearch HNSW graph built and searched as
    ``params`` says (default :class:`AnnParams`: ``int8``) plus, sorted by key, the ``keys`` (chunk
    rowids) and ``fps`` (fingerprints) it holds."""

    def __init__(self, dim: int, params: AnnParams | None = None) -> None:
        _load_usearch_safely()
        from usearch.index import Index  # a compiled extension: loaded only past the threshold

        self.dim, self.params = dim, params or AnnParams()
        self.model = ""
        """The embedding model whose vectors it holds."""
        p = self.params
        self.index = Index(ndim=dim, metric="cos", dtype=p.dtype, connectivity=p.connectivity,
                           expansion_add=p.expansion_add, expansion_search=p.expansion_search)
        self.keys = np.zeros(0, dtype=np.uint64)
        self.fps = np.zeros(0, dtype=np.uint64)

    def __len__(self) -> int:
        return len(self.keys)

    def apply(self, keys: np.ndarray, fps: np.ndarray, vectors_of: _Fetch) -> int:
        """Bring the index to exactly ``keys`` with fingerprints ``fps`` (parallel arrays, any
        order): entries not in ``keys`` or whose fingerprint changed are removed, missing ones are
        added with their vectors from ``vectors_of(keys)`` (float32, one row per key). Returns how
        many entries were removed plus added."""
        order = np.argsort(keys, kind="stable")
        keys, fps = keys[order], fps[order]
        keep = np.zeros(len(self.keys), dtype=bool)
        if len(self.keys):
            pos = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
            unchanged = (self.keys[pos] == keys) & (self.fps[pos] == fps)
            keep[pos[unchanged]] = True
        else:
            unchanged = np.zeros(len(keys), dtype=bool)
        stale = self.keys[~keep]
        if len(stale):
            self.index.remove(stale)
        added = keys[~unchanged]
        report = max(_BATCH, len(added) // 20 // _BATCH * _BATCH)  # a long build logs about every 5%
        for start in range(0, len(added), _BATCH):
            part = added[start:start + _BATCH]
            vectors = vectors_of(part)
            self.index.add(part, vectors)
            if len(added) >= PROGRESS_FROM and (start + len(part)) % report < len(part):
                log.info("vector index: %s of %s vectors added", f"{start + len(part):,}", f"{len(added):,}")
        self.keys, self.fps = keys, fps
        return len(stale) + len(added)

    def search(self, vector: np.ndarray, count: int) -> np.ndarray:
        """Keys of up to ``count`` approximate nearest entries to ``vector`` (unit length), nearest
        first (by the index's quantised distance), found keeping ``max(expansion_search, count)``
        candidates."""
        if not len(self.keys):
            return np.zeros(0, dtype=np.uint64)
        self.index.expansion_search = max(self.params.expansion_search, count)
        found = self.index.search(vector, min(count, len(self.keys)))
        return np.asarray(found.keys, dtype=np.uint64)

    # -- persistence ---------------------------------------------------------------------------

    def save(self, folder: Path, model: str) -> None:
        """Write the index to ``folder`` (see the module docstring: usearch file first, then the
        manifest atomically, then the previous generation's file is removed). Raises ``OSError``."""
        if folder.is_symlink():  # a repository may ship `.ripple/index.db.vectors` as a link
            raise OSError(f"{folder} is a symbolic link: nothing is written through it")
        folder.mkdir(parents=True, exist_ok=True)
        manifest = folder / f"dim{self.dim}.npz"
        previous = _manifest_file(manifest, self.dim)
        name = f"dim{self.dim}-{uuid.uuid4().hex}.usearch"
        self.index.save(str(folder / name))
        tmp = folder / f"dim{self.dim}.{uuid.uuid4().hex}.tmp.npz"
        meta = json.dumps({"file": name, "model": model, "dim": self.dim, **self.params.built()})
        np.savez(tmp, keys=self.keys, fps=self.fps, meta=np.array(meta))
        os.replace(tmp, manifest)
        if previous and previous != name:
            (folder / previous).unlink(missing_ok=True)

    @classmethod
    def load(cls, folder: Path, dim: int, model: str, params: AnnParams | None = None) -> DimIndex | None:
        """The index saved in ``folder`` for ``dim`` and ``model`` built with ``params``'s build
        parameters (:meth:`AnnParams.built`), or ``None`` (none saved, another model, built with
        other parameters, a damaged or missing file: logged, never raised)."""
        params = params or AnnParams()
        if folder.is_symlink():
            log.warning("vector index folder %s is a symbolic link: not read through (rebuilt in memory)", folder)
            return None
        manifest = folder / f"dim{dim}.npz"
        try:
            with np.load(manifest, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                keys, fps = data["keys"].astype(np.uint64), data["fps"].astype(np.uint64)
        except FileNotFoundError:
            return None
        except Exception as exc:
            log.warning("vector index manifest %s unreadable (%s): rebuilt", manifest, exc)
            return None
        if meta.get("model") != model or meta.get("dim") != dim:
            return None
        if not _own_file(meta.get("file"), dim):  # a path anywhere else, planted or damaged
            log.warning("vector index manifest %s names no index file of its own: rebuilt", manifest)
            return None
        built = {k: meta.get(k, _BUILT_BEFORE.get(k)) for k in params.built()}
        if built != params.built():
            log.info("vector index %s was built with %s, not %s: rebuilt", manifest, built, params.built())
            return None
        out = cls(dim, params)
        try:
            out.index.load(str(folder / meta["file"]))
        except Exception as exc:
            log.warning("vector index %s unreadable (%s): rebuilt", folder / str(meta.get("file")), exc)
            return None
        if len(out.index) != len(keys) or (len(keys) and not bool(np.all(out.index.contains(keys[:: max(1, len(keys) // 64)])))):
            log.warning("vector index %s does not match its manifest: rebuilt", folder / meta["file"])
            return None
        out.index.expansion_search = params.expansion_search
        out.keys, out.fps, out.model = keys, fps, model
        return out


def _own_file(name: object, dim: int) -> bool:
    """Whether ``name`` (a manifest's ``file``) is an index file :meth:`DimIndex.save` writes for
    ``dim``: ``dim<N>-<32 hex>.usearch`` in the folder itself, never a path elsewhere."""
    return isinstance(name, str) and re.fullmatch(rf"dim{dim}-[0-9a-f]{{32}}\.usearch", name) is not None


def _manifest_file(manifest: Path, dim: int) -> str | None:
    """The index file ``manifest`` names, when it is one of the folder's own (:func:`_own_file`)."""
    try:
        with np.load(manifest, allow_pickle=False) as data:
            name = json.loads(str(data["meta"]))["file"]
    except Exception:
        return None
    return name if _own_file(name, dim) else None


class _Fetch:
    """Reads the float32 vectors of chunk rowids (a callable: ``fetch(keys) -> matrix``)."""

    def __init__(self, db: sqlite3.Connection, dim: int) -> None:
        self.db, self.dim = db, dim

    def __call__(self, keys: np.ndarray) -> np.ndarray:
        rows = dict(self.db.execute(
            "SELECT rowid, embedding FROM chunk_rows WHERE rowid IN (SELECT value FROM json_each(?))",
            (json.dumps(keys.tolist()),)).fetchall())
        return np.frombuffer(b"".join(rows[int(k)] for k in keys), dtype=np.float32).reshape(len(keys), self.dim)


class AnnVectors:
    """The ANN side of one embedded store: a :class:`DimIndex` per vector dimension, kept in line
    with the chunk rows, saved in ``folder`` (``None``: in memory only), used from ``threshold``
    embedded chunks on (``0``: never), built and searched as ``params`` says."""

    def __init__(self, folder: Path | None, threshold: int = ANN_THRESHOLD, params: AnnParams | None = None) -> None:
        self.folder, self.threshold, self.params = folder, threshold, params or AnnParams()
        self._dims: dict[int, DimIndex] = {}
        self._stamp: dict[int, object] = {}

    def active(self, embedded: int) -> bool:
        """Whether a store holding ``embedded`` embedded chunks searches approximately."""
        return 0 < self.threshold <= embedded

    def refresh(self, db: sqlite3.Connection, dim: int, model: str, stamp: object) -> DimIndex:
        """The index of ``dim``, brought in line with the chunk rows of ``db`` when ``stamp`` (the
        database state: changes when anything was written) differs from the last refresh."""
        index = self._dims.get(dim)
        if index is not None and self._stamp.get(dim) == stamp and index.model == model:
            return index
        if index is None or index.model != model:
            index = (DimIndex.load(self.folder, dim, model, self.params) if self.folder is not None else None) \
                or DimIndex(dim, self.params)
            index.model = model
        keys, fps = embedded_keys(db, dim)
        built = not len(index)
        changed = index.apply(keys, fps, _Fetch(db, dim))
        if self.folder is not None and changed and (built or changed >= SAVE_FRACTION * max(len(index), 1)):
            try:
                index.save(self.folder, model)
            except OSError as exc:  # read-only location: the index lives in memory for this process
                log.info("vector index not saved in %s: %s", self.folder, exc)
        self._dims[dim] = index
        self._stamp[dim] = stamp
        return index

    def knn(self, db: sqlite3.Connection, vector: np.ndarray, limit: int, filters: dict[str, str], model: str,
            stamp: object) -> list[tuple[float, str]]:
        """Up to ``limit`` ``(exact cosine, chunk id)`` of the approximate nearest embedded chunks to
        ``vector`` (unit length, float32) passing ``filters`` (column -> value among product, repo,
        language, kind), best first, ties by id. Candidates come from the ANN index
        (``params.candidates`` or four per result, more while filters drop too many, then an exact pass
        over the filtered rows) and are re-ranked by their exact float32 vectors: the best
        ``params.candidates`` (or four per result) of a graph search keeping ``params.expansion_search``."""
        dim = int(vector.shape[0])
        index = self.refresh(db, dim, model, stamp)
        widen = 1
        while True:
            keys = index.search(vector, max(self.params.candidates, 4 * limit) * widen)
            scored = rerank(db, keys.tolist(), vector, dim, filters)
            if len(scored) >= limit or len(keys) >= len(index) or not filters:
                break
            if widen >= 64:
                scored = exact_filtered(db, vector, dim, filters)
                break
            widen *= 8
        scored.sort(key=lambda s: (-s[0], s[1]))
        return scored[:limit]


def embedded_keys(db: sqlite3.Connection, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rowids, fingerprints)`` (parallel ``uint64`` arrays, by rowid) of the chunks embedded with
    ``dim`` dimensions, read :data:`_BATCH` rows at a time (at 5 million chunks a list of row tuples
    would hold about a gigabyte; the arrays hold 80 MB) from the schema's small index of the embedded
    rows (``chunk_rows_vectors``; without it, a pass over the whole table, vectors included)."""
    keys, fps = [], []
    cur = db.execute("SELECT rowid, checksum FROM chunk_rows WHERE embedding IS NOT NULL AND length(embedding) = ?",
                     (dim * 4,))
    while rows := cur.fetchmany(_BATCH):
        keys.append(np.fromiter((r[0] for r in rows), dtype=np.uint64, count=len(rows)))
        fps.append(fingerprints([r[1] for r in rows]))
    if not keys:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64)
    keys_all, fps_all = np.concatenate(keys), np.concatenate(fps)
    order = np.argsort(keys_all, kind="stable")
    return keys_all[order], fps_all[order]


@functools.cache
def _hex_digits() -> np.ndarray:
    """Each byte's hexadecimal digit value (255: not a digit), made on first use (numpy loads lazily)."""
    table = np.full(256, 255, dtype=np.uint8)
    for value, chars in enumerate(zip("0123456789abcdef", "0123456789ABCDEF")):
        table[[ord(c) for c in chars]] = value
    return table


def fingerprints(checksums: Sequence[str]) -> np.ndarray:
    """:func:`fingerprint` of each of ``checksums`` (``uint64``, same order), the hexadecimal ones
    (the store's: SHA-256 digests) decoded by numpy at once, the others one by one."""
    out = np.zeros(len(checksums), dtype=np.uint64)
    if not len(checksums):
        return out
    raw = "".join(c[:15] for c in checksums).encode("utf-8", "surrogatepass")
    if len(raw) == 15 * len(checksums):  # every one at least 15 characters long, all of them ASCII
        digits = _hex_digits()[np.frombuffer(raw, dtype=np.uint8).reshape(len(checksums), 15)]
        if not (digits == 255).any():
            for column in digits.T.astype(np.uint64):
                out = out * np.uint64(16) + column
            return out
    return np.fromiter((fingerprint(c) for c in checksums), dtype=np.uint64, count=len(checksums))


def rerank(db: sqlite3.Connection, keys: Sequence[int], vector: np.ndarray, dim: int,
           filters: dict[str, str]) -> list[tuple[float, str]]:
    """``(exact cosine, chunk id)`` of the rows ``keys`` that pass ``filters`` (column -> value among
    product, repo, language, kind), unsorted."""
    if not len(keys):
        return []
    where = "".join(f" AND {name} = ?" for name in filters)
    rows = db.execute(
        "SELECT id, embedding FROM chunks WHERE rowid IN (SELECT value FROM json_each(?)) AND length(embedding) = ?"
        + where, (json.dumps([int(k) for k in keys]), dim * 4, *filters.values())).fetchall()
    if not rows:
        return []
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
    scores = matrix @ vector
    return [(float(s), r[0]) for s, r in zip(scores.tolist(), rows)]


def exact_filtered(db: sqlite3.Connection, vector: np.ndarray, dim: int, filters: dict[str, str]) -> list[tuple[float, str]]:
    """``(exact cosine, chunk id)`` of every embedded row of ``dim`` passing ``filters`` (the
    fallback when a selective filter leaves too few ANN candidates)."""
    where = "".join(f" AND {name} = ?" for name in filters)
    out: list[tuple[float, str]] = []
    cur = db.execute("SELECT id, embedding FROM chunks WHERE embedding IS NOT NULL AND length(embedding) = ?" + where,
                     (dim * 4, *filters.values()))
    while True:
        rows = cur.fetchmany(_BATCH)
        if not rows:
            return out
        matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
        out.extend((float(s), r[0]) for s, r in zip((matrix @ vector).tolist(), rows))
