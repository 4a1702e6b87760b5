"""On-disk cache of extractions, content-addressed by file checksum and extractor version.

Extraction is the costly phase of a run (Django: about 10 s of 18 s). Incremental runs need every
file's extraction in memory (the resolver looks across files) but re-parse only files whose bytes
changed: the others come from here. A key is ``(EXTRACTOR_VERSION, checksum, path)``: the version is a
digest of the code that produces extractions (extractors, their tree-sitter queries, framework
detectors, the IR, the parser packages' versions), so changing any of it misses every old entry
instead of serving stale records; the path stays in the key because an extraction names its file.

Storage is a :class:`diskcache.Cache` folder (SQLite index plus files, safe across processes and
against a killed writer: an entry is either whole or absent), bounded in size with the
least-recently-stored entries culled first. The cache is best effort: a read that fails is a miss and
a write that fails is logged, never raised.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import pickle
from importlib import metadata
from pathlib import Path

import diskcache

from indexer.model import FileExtraction

__all__ = ["ExtractionCache", "extractor_version", "SIZE_LIMIT", "SQLITE_CACHE_PAGES"]

log = logging.getLogger(__name__)

SIZE_LIMIT = 2 << 30
"""Bytes the cache folder may hold before the oldest entries are culled (Django's 2,864 files take
about 32 MB)."""

SQLITE_CACHE_PAGES = 256
"""Pages (4 KiB) of SQLite's page cache per connection to the cache folder (1 MiB; diskcache's default
is 8,192, 32 MiB). Each entry is written once by a worker and read at most once by a later run, so
cached pages are never read again, yet they stayed: putting Django 5.2.8's 3,509 extractions through
one connection grew its process by 19.6 MiB at the default, 2.0 MiB at 256 pages, for the same CPU
(0.42 s; docs/benchmarks.md, session 66, cpu66a). The setting is kept in the folder (diskcache's
Settings table); each opening sets it again."""

_PACKAGE_DIR = Path(__file__).resolve().parent
_VERSIONED = ("languages/**/*.py", "languages/**/*.scm", "frameworks/*.py", "content/*.py", "model*.py", "string_templates.py",
              "packed.py", "typetext.py", "chunking.py", "chunk_context.py", "symbols.py")
_PARSER_PACKAGES = ("tree-sitter", "tree-sitter-language-pack")


@functools.cache
def extractor_version() -> str:
    """A digest of the source of everything that shapes an extraction or its chunks, plus the parser
    packages' versions (computed once per process)."""
    h = hashlib.sha256()
    for pattern in _VERSIONED:
        for path in sorted(_PACKAGE_DIR.glob(pattern)):
            h.update(path.relative_to(_PACKAGE_DIR).as_posix().encode())
            h.update(path.read_bytes())
    for name in _PARSER_PACKAGES:
        try:
            h.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name}=?".encode())
    return h.hexdigest()[:16]


class ExtractionCache:
    """Extractions by ``(path, checksum)`` in the folder ``directory`` (created when missing).

    One instance per process: worker processes open their own on the same folder.
    """

    def __init__(self, directory: str | Path, size_limit: int = SIZE_LIMIT) -> None:
        self.directory = Path(directory)
        self.version = extractor_version()
        self._write_failed = False
        """Whether a write failed already (the next ones are logged at INFO, not once per file)."""
        try:
            self._cache: diskcache.Cache | None = diskcache.Cache(
                str(self.directory), size_limit=size_limit, eviction_policy="least-recently-stored", timeout=30,
                sqlite_cache_size=SQLITE_CACHE_PAGES,
            )
        except Exception as exc:  # an unusable folder costs speed, not the run
            log.warning("extraction cache %s unusable (%s): every file is parsed", directory, exc)
            self._cache = None

    def _key(self, path: str, checksum: str) -> str:
        return f"{self.version}:{checksum}:{path}"

    def get(self, path: str, checksum: str) -> FileExtraction | None:
        """The cached extraction of ``path`` with these bytes, or ``None``."""
        if self._cache is None:
            return None
        try:
            value = self._cache.get(self._key(path, checksum))
        except Exception as exc:  # a damaged entry is a miss
            log.info("extraction cache read failed for %s: %s", path, exc)
            return None
        if not isinstance(value, bytes):
            return None
        try:
            ex = pickle.loads(value)
        except Exception:
            return None
        return ex if isinstance(ex, FileExtraction) else None

    def put(self, path: str, checksum: str, extraction: FileExtraction) -> None:
        """Remember ``extraction`` (stored without its ``id_path``, which depends on other files)."""
        if self._cache is None:
            return
        id_path, extraction.id_path = extraction.id_path, None
        try:
            blob = pickle.dumps(extraction, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            extraction.id_path = id_path
        self.put_blob(path, checksum, blob)

    def put_blob(self, path: str, checksum: str, blob: bytes) -> None:
        """Remember an extraction already pickled (without its ``id_path``, as :meth:`put` stores it):
        a worker pickles each extraction once, for this cache and for its trip to the main process.
        A failed write costs speed, not the run: the first is a warning, the next ones of this
        instance are logged at INFO (a full disk refused every file: 716 warnings for 699 files)."""
        if self._cache is None:
            return
        try:
            self._cache.set(self._key(path, checksum), blob)
        except Exception as exc:
            if self._write_failed:
                log.info("extraction cache write failed for %s: %s", path, exc)
            else:
                self._write_failed = True
                log.warning("extraction cache write failed for %s: %s (files it cannot keep are parsed again by "
                            "the next run; further failures are logged with -v)", path, exc)

    def prune(self, keep: set[tuple[str, str]]) -> int:
        """Remove every entry but this extractor version's extractions of the ``(path, checksum)``
        pairs in ``keep`` (what the index still references): entries of older extractor versions
        and of file versions no index holds any more. Returns how many were removed; best effort
        (a failure is logged, never raised)."""
        if self._cache is None:
            return 0
        removed = 0
        try:
            for key in list(self._cache.iterkeys()):
                version, _, rest = str(key).partition(":")
                checksum, _, path = rest.partition(":")
                if version != self.version or (path, checksum) not in keep:
                    removed += bool(self._cache.delete(key))
        except Exception as exc:
            log.warning("extraction cache prune failed after %d entries: %s", removed, exc)
        return removed

    def close(self) -> None:
        """Close the cache's connections (idempotent)."""
        if self._cache is not None:
            self._cache.close()
            self._cache = None
