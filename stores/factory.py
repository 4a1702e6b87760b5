"""Which store to open: the one place that maps configuration to a backend.

:func:`open_stores` builds the graph store and the search index that :mod:`stores.config` selects:
the embedded SQLite store (one object serving both contracts), a Memgraph per product
(:mod:`stores.memgraph`), an Elasticsearch cluster (:mod:`stores.elasticsearch`), in any combination.
It builds stores (and the bulk embedder) only: what is computed over them, the query engine
included, is the analysis layer's (:mod:`analysis`).
The server backends are imported only when configured. :func:`open_store` / :func:`find_db` keep
opening the embedded store directly (``$RIPPLE_DB``, ``.ripple/index.db``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from dataclasses import dataclass

import filelock

from stores.vector_index import ANN_THRESHOLD, AnnParams
from stores.config import Config, ConfigError
from stores.contracts import GraphStore, RepositoryRecord, SearchIndex
from stores.embedded import EmbeddedStore
from stores.embedder import MODEL_ENV, Embedder
from stores.sqlite_file import not_an_index
from stores.errors import (QueryFailed, StoreError, StoreIncomplete, StoreOutdated, StoreReadOnly, StoreUnavailable,
                           os_error_message)

__all__ = ["DB_ENV", "INDEX_DIR", "default_db_path", "find_db", "open_store", "open_embedder", "Stores", "open_stores",
           "state_dir", "prune_state_dirs", "embed_lock", "STATE_MARKER", "PRUNE_AFTER_SECONDS", "writer_lock",
           "RepositoryClash", "repository_name", "claim_repository", "index_identity", "repository_roots",
           "index_written_at", "INDEX_STATE", "record_index_state", "index_states", "open_graph_store",
           "open_search_index"]

DB_ENV = "RIPPLE_DB"
"""Environment variable naming the index file (overrides discovery)."""

log = logging.getLogger(__name__)

INDEX_DIR = ".ripple"

def default_db_path(root: Path) -> Path:
    """``<root>/.ripple/index.db``: where ``ripple index ROOT`` writes by default."""
    return root / INDEX_DIR / "index.db"


def state_dir(db: Path, env: Mapping[str, str] | None = None) -> Path:
    """The folder where the indexer keeps index ``db``'s extraction cache and write journal
    (:class:`indexer.run.IndexOptions` ``state_dir``): ``$XDG_CACHE_HOME/ripple/state/<name>-<digest>``
    (default ``~/.cache/ripple/state/...``), ``<digest>`` the first 16 hex digits of the SHA-256 of
    ``db``'s real path, so each index has its own folder. Never beside the index: a repository can ship
    its ``.ripple/`` folder, and the extraction cache holds pickled extractions (loading a planted one
    runs its code); only the user's own cache folder is trusted. Without a home folder (no ``$HOME``,
    no password entry): ``<db>-state``, beside the index. ``env`` defaults to ``os.environ``."""
    base = _state_base(env)
    if base is None:
        return db.with_name(db.name + "-state")
    real = os.path.realpath(db)
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return base / f"{Path(real).name}-{digest}"


def _state_base(env: Mapping[str, str] | None = None) -> Path | None:
    """``$XDG_CACHE_HOME/ripple/state`` (default ``~/.cache/ripple/state``), ``None`` without a home folder."""
    env = os.environ if env is None else env
    base = env.get("XDG_CACHE_HOME")
    if not base:
        try:
            home = env.get("HOME") or str(Path.home())
        except RuntimeError:  # "Could not determine home directory"
            return None
        base = str(Path(home) / ".cache")
    return Path(base) / "ripple" / "state"


STATE_MARKER = "index"
"""File in a state folder naming, in UTF-8, the real path of the index it serves
(:func:`prune_state_dirs` removes the folders of indexes that are gone)."""

PRUNE_AFTER_SECONDS = 7 * 24 * 3600
"""A state folder whose index is gone is removed once it has not changed for this long (a week: an
index on a drive that is only unmounted keeps its cache a while)."""


def prune_state_dirs(env: Mapping[str, str] | None = None, older_than: float = PRUNE_AFTER_SECONDS,
                     now: float | None = None) -> list[Path]:
    """Remove the state folders (:func:`state_dir`) of indexes that no longer exist and that have not
    changed for ``older_than`` seconds (their extraction caches would otherwise pile up, one per
    index path ever written, temporary ones included); returns the folders removed. Only folders
    carrying a :data:`STATE_MARKER` are considered; links are never followed. Never raises: a folder
    that cannot be read or removed is left."""
    base = _state_base(env)
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(base)) if base is not None else []
    except OSError:
        return removed
    for entry in entries:
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            marker = Path(entry.path) / STATE_MARKER
            info = marker.lstat()
            if not stat.S_ISREG(info.st_mode) or info.st_size > 4096:
                continue
            index = marker.read_text(encoding="utf-8", errors="surrogateescape")
            newest = max(info.st_mtime, entry.stat(follow_symlinks=False).st_mtime)
            if not index or os.path.lexists(index) or now - newest < older_than:
                continue
            shutil.rmtree(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def writer_lock(db: Path) -> filelock.FileLock:
    """The lock every writer of index ``db`` holds while it indexes (``<db>.lock``), so that a
    ``ripple index`` and a language server's or ``ripple watch``'s updates never interleave;
    readers never take it (WAL lets them read while one writer commits). One object per thread
    that uses it. Raises :class:`stores.errors.StoreUnavailable` when the folder cannot be made."""
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable(f"cannot create the folder of index {db}: {exc}") from exc
    return filelock.FileLock(f"{db}.lock")


def embed_lock(db: Path) -> filelock.FileLock:
    """The lock of the one process that embeds index ``db``'s chunks at a time (``<db>.embed.lock``):
    ``ripple embed``, ``ripple index``'s embedding phase and its background worker, a language
    server's embedding thread. Taken without waiting: whoever finds it held leaves the pending chunks
    to the holder. Raises :class:`stores.errors.StoreUnavailable` when the folder cannot be made."""
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable(f"cannot create the folder of index {db}: {exc}") from exc
    return filelock.FileLock(f"{db}.embed.lock")


class RepositoryClash(StoreError):
    """A folder would be indexed under the name of a repository that the index holds from another
    folder: indexing it would replace (and delete) that repository's files."""


REGISTRY = "repositories.json"
"""File in the index's state folder recording the folder each repository was indexed from:
``{"<repo>": "<absolute root>"}``."""


REGISTRY_MAX_BYTES = 16 << 20
"""Largest registry read (16 MiB: a name and a folder per repository)."""


def _read_registry(path: Path) -> bytes | None:
    """The registry's bytes (``None``: there is none). Opened without blocking and read only when a
    regular file, at most :data:`REGISTRY_MAX_BYTES`: the state folder may come from a clone, and a
    FIFO there would block the caller, ``/dev/zero`` fill its memory."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreUnavailable(f"cannot read {path} (the folders of the index's repositories): {exc}") from exc
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise StoreUnavailable(f"{path} is not a regular file (the folders of the index's repositories, written by "
                                   "ripple): remove it")
        data = fh.read(REGISTRY_MAX_BYTES + 1)
    if len(data) > REGISTRY_MAX_BYTES:
        raise StoreUnavailable(f"{path} is larger than {REGISTRY_MAX_BYTES:,} bytes: not the registry ripple writes "
                               "(the folders of the index's repositories); remove it")
    return data


def _registry(db: Path) -> dict[str, str]:
    path = state_dir(db) / REGISTRY
    try:
        raw = _read_registry(path)
        data = json.loads(raw) if raw is not None else {}
    except ValueError as exc:
        raise StoreUnavailable(f"cannot read {path} (the folders of the index's repositories): {exc}") from exc
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise StoreUnavailable(f"{state_dir(db) / REGISTRY} is not a map of repository names to folders")
    return data


def repository_name(store: GraphStore, db: Path, root: Path) -> str:
    """The name folder ``root`` is indexed under in the index ``db`` (``store``): the repository
    recorded for this folder and held by the index (its own name first when several are), else, for the folder's own
    index (``root/.ripple/index.db``) that holds exactly one repository recorded nowhere (indexed
    with ``--repo`` by an older version), that one; else the folder's name. Never the name of a
    repository recorded for another folder. Raises what the store raises."""
    root = root.resolve()
    repos = store.repos()
    registry = _registry(db)
    mine = sorted(name for name, where in registry.items() if Path(where) == root and name in repos)
    if mine:
        return root.name if root.name in mine else mine[0]
    if db.resolve() == default_db_path(root).resolve():
        if len(repos) == 1 and repos[0] not in registry:
            return repos[0]
    return root.name


def claim_repository(store: GraphStore, db: Path, repo: str, root: Path) -> None:
    """Record that repository ``repo`` of index ``db`` is indexed from folder ``root``, unless it
    belongs to another folder: raises :class:`RepositoryClash` when ``repo`` is recorded for another
    folder, or is in the index unrecorded (an older version wrote it) while ``db`` is not the
    folder's own index and fewer than half of its indexed files exist under ``root``.
    Raises :class:`stores.errors.StoreUnavailable` when the record cannot be read, written or locked."""
    root = root.resolve()
    state = state_dir(db)
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable(f"cannot create {state}: {os_error_message(exc, state)}; the state folder of an index "
                               "(its folder registry, journal and caches) is under $XDG_CACHE_HOME/ripple/state, else "
                               "~/.cache/ripple/state: set XDG_CACHE_HOME to a folder you can write") from exc
    lock = state / (REGISTRY + ".lock")
    try:
        lock_held = filelock.FileLock(str(lock))
        lock_held.acquire()
    except OSError as exc:  # a link or folder planted at its name (filelock does not follow links)
        raise StoreUnavailable(f"cannot lock {lock}: {exc.strerror or exc}; remove it") from exc
    try:
        marker = state / STATE_MARKER
        real = os.path.realpath(db)
        try:
            known = marker.read_text(encoding="utf-8", errors="surrogateescape") if marker.is_file() else None
        except OSError:
            known = None
        if known != real:
            try:
                _write_new(marker, real)  # what prune_state_dirs checks
            except UnicodeEncodeError:  # a path that is not UTF-8: its folder is simply never pruned
                pass
        _claim(store, db, repo, root, state)
    finally:
        lock_held.release()


def _claim(store: GraphStore, db: Path, repo: str, root: Path, state: Path) -> None:
    """:func:`claim_repository` under the registry's lock."""
    entry = next((r for r in _store_registry(store) if r.key == repo), None)
    if entry is not None and Path(entry.root) != root:  # the store's own registry: every backend, every machine
        raise RepositoryClash(
            f"{_where(store, db)} already holds repository {repo!r}, indexed from {entry.root}: {root} cannot be "
            f"indexed under the same name (that would replace its files). Give this folder another name "
            f"(`ripple index --repo NAME`), or remove the other one first (`ripple repos remove {repo}`).")
    held = set(store.repos())
    # The record outlives the index (it is in the user's cache folder): an entry counts only for a
    # repository the index still holds, so a deleted and re-created index starts with no claims.
    registry = {name: folder for name, folder in _registry(db).items() if name in held}
    owner = registry.get(repo)
    if owner is not None:
        if Path(owner) != root:
            raise RepositoryClash(
                f"index {db} already holds repository {repo!r}, indexed from {owner}: {root} cannot be indexed "
                f"under the same name (that would replace its files). Give this folder another name "
                f"(`ripple index --repo NAME`) or another index (--db / {DB_ENV}).")
        return
    if repo in held and db.resolve() != default_db_path(root).resolve():
        paths = sorted(store.file_checksums(repo))
        sample = paths[:: max(1, len(paths) // 200)]
        present = sum((root / p).is_file() for p in sample)
        if 2 * present < len(sample):
            raise RepositoryClash(
                f"index {db} already holds a repository named {repo!r} whose files are not in {root} "
                f"({present} of {len(sample)} found): indexing {root} under that name would replace them. "
                f"Give this folder another name (`ripple index --repo NAME`) or another index (--db / {DB_ENV}).")
    registry[repo] = str(root)
    _write_new(state / REGISTRY, json.dumps(registry, indent=1, sort_keys=True))


def _store_registry(store: GraphStore) -> list[RepositoryRecord]:
    """The store's registry entries; ``[]`` for a store that keeps none (a read-only view)."""
    try:
        return store.repositories()
    except QueryFailed:
        return []


def _where(store: GraphStore, db: Path) -> str:
    """How an error names the store: the index file, or the server's URI."""
    uri = getattr(store, "uri", None)
    return f"graph store {uri}" if isinstance(uri, str) else f"index {db}"


def _write_new(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically through a temporary file of a fresh random name
    (``O_EXCL``): a name planted beside it (a link to a user's file) is never opened, so nothing
    outside is written. Raises :class:`stores.errors.StoreUnavailable`."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise StoreUnavailable(f"cannot write {path}: {exc}") from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise StoreUnavailable(f"cannot write {path}: {exc}") from exc


def repository_roots(store: GraphStore, db: Path) -> dict[str, str]:
    """``{repo: absolute folder}`` each repository of index ``db`` (``store``) was indexed from, for the
    repositories the index still holds (what ``claim_repository`` recorded). Raises
    :class:`stores.errors.StoreUnavailable` when the record cannot be read."""
    held = set(store.repos())
    return {name: folder for name, folder in sorted(_registry(db).items()) if name in held}


INDEX_STATE = "index-state.json"
"""File in the index's state folder recording, per repository, what its source was when last indexed:
``{"<repo>": {"root": "<absolute folder>", "commit": "<40 hex>" | null, "branch": "<name>" | null,
"indexed_at": <seconds since the epoch>}}`` (read by :mod:`analysis.freshness`)."""


def record_index_state(db: Path, repo: str, state: Mapping[str, object]) -> None:
    """Record ``state`` (``{"root", "commit", "branch", "indexed_at"}``) as repository ``repo``'s entry of
    :data:`INDEX_STATE` in index ``db``'s state folder, under the registry's lock. Raises
    :class:`stores.errors.StoreUnavailable` when it cannot be read, locked or written."""
    folder = state_dir(db)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        held = filelock.FileLock(str(folder / (REGISTRY + ".lock")))
        held.acquire()
    except OSError as exc:
        raise StoreUnavailable(f"cannot record the indexed state in {folder}: {exc.strerror or exc}") from exc
    try:
        states = index_states(db)
        states[repo] = dict(state)
        _write_new(folder / INDEX_STATE, json.dumps(states, indent=1, sort_keys=True))
    finally:
        held.release()


def index_states(db: Path) -> dict[str, dict[str, object]]:
    """Every repository's entry of :data:`INDEX_STATE` for index ``db`` (``{}`` when none is recorded);
    entries that are not objects are left out. Raises :class:`stores.errors.StoreUnavailable` when the
    file cannot be read or is not JSON."""
    path = state_dir(db) / INDEX_STATE
    raw = _read_registry(path)
    try:
        data = json.loads(raw) if raw is not None else {}
    except ValueError as exc:
        raise StoreUnavailable(f"cannot read {path} (the indexed state of the index's repositories): {exc}") from exc
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, dict)}


def index_written_at(db: Path) -> float | None:
    """When index file ``db`` was last written (seconds since the epoch: the later modification time of
    the file and its write-ahead log), ``None`` when it does not exist."""
    times = []
    for path in (db, db.with_name(db.name + "-wal")):
        try:
            times.append(os.stat(path).st_mtime)
        except OSError:
            pass
    return max(times) if times else None


def index_identity(db: Path) -> tuple[int, int] | None:
    """``(device, inode)`` of the index file ``db``, ``None`` when it does not exist: a change means
    the file was deleted or replaced under the processes that have it open."""
    try:
        st = os.stat(db)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def find_db(start: Path) -> Path | None:
    """The index named by ``$RIPPLE_DB``, else the nearest ``.ripple/index.db`` in ``start`` or a
    parent folder (as git finds ``.git``), else ``None``."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
    for folder in (start, *start.parents):
        candidate = default_db_path(folder)
        if candidate.is_file():
            return candidate
    return None


def open_store(path: Path, create: bool = False, busy_timeout: float = 5.0,
               ann_threshold: int = ANN_THRESHOLD, ann_params: AnnParams | None = None) -> EmbeddedStore:
    """Open the embedded store at ``path`` (created, with its folder, when ``create``).

    With ``create`` (the caller will write), an index of another schema version is an outdated cache:
    it is deleted and built anew (a file that is not a ripplegraph index is never deleted), and an
    index that can only be read raises :class:`stores.errors.StoreReadOnly`; without it, a read-only
    index opens for reading (:attr:`EmbeddedStore.read_only`). Raises
    :class:`stores.errors.StoreUnavailable` / :class:`stores.errors.StoreCorrupt`. ``busy_timeout``: seconds a
    write waits for another process's transaction (the central indexer's jobs wait for each other).
    ``ann_threshold``: embedded chunks from which vector search is approximate, ``ann_params``: how
    (:mod:`stores.vector_index`). Without ``create``, an existing empty file (0 bytes, no write-ahead
    log beside it) is no index: :class:`stores.errors.NotAnIndex`, the file left as it was (SQLite would
    write a schema into it); only a command that makes an index (``ripple index``) turns it into one."""
    if not create and _empty_file(path):
        raise not_an_index(path, "an empty file of 0 bytes; `ripple index PATH --db FILE` makes an index there")
    if create and path.parent.name == INDEX_DIR:
        # A repository can ship `.ripple` (or `.ripple/index.db`) as a link, dangling or not: the index,
        # its lock and its journal would be created wherever it points.
        for planted in (path.parent, path):
            if planted.is_symlink():
                raise StoreUnavailable(f"{planted} is a symbolic link: ripple does not write an index through "
                                       "it (remove the link, or pass --db to choose where the index goes)")
    if create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"cannot create the folder of index {path}: {exc}") from exc
        if path.parent.name == INDEX_DIR:
            ignore = path.parent / ".gitignore"
            try:  # O_EXCL | O_NOFOLLOW: a planted link (even a dangling one) is never written through
                fd = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write("# written by ripplegraph: the index is not source\n*\n")
            except OSError:
                pass  # there already, or a read-only folder: the store's own open reports the real problem
    try:
        store = EmbeddedStore(path, busy_timeout=busy_timeout, ann_threshold=ann_threshold, ann_params=ann_params)
    except StoreOutdated as exc:
        if not create:
            raise
        log.warning("%s: rebuilding it", f"{path} is damaged, a table is missing" if isinstance(exc, StoreIncomplete)
                    else f"{path} was written by another ripplegraph version")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        shutil.rmtree(f"{path}.vectors", ignore_errors=True)  # the ANN index of the old file
        store = EmbeddedStore(path, busy_timeout=busy_timeout, ann_threshold=ann_threshold, ann_params=ann_params)
    if create and store.read_only:
        store.close()
        raise StoreReadOnly(f"cannot write index {path}: {store.read_only}; readers (callers, references, search, "
                            "impact, stats) can still use it; to index, pass a writable --db")
    return store


def _empty_file(path: Path) -> bool:
    """Whether ``path`` is a regular file of 0 bytes with no non-empty ``-wal`` beside it (an index
    being written in WAL mode has its header in the main file from its first transaction on)."""
    try:
        st = path.stat()
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_size:
        return False
    try:
        return Path(f"{path}-wal").stat().st_size == 0
    except OSError:
        return True


def open_embedder(model_name: str | None = None) -> Embedder:
    """The configured embedder: ``model_name``, else ``$RIPPLE_EMBEDDING_MODEL``, else the bundled
    int8 all-MiniLM-L6-v2. Raises :class:`stores.embedder.EmbedderError`."""
    return Embedder(model_name or os.environ.get(MODEL_ENV) or None)


@dataclass
class Stores:
    """The configured graph store and search index (the same object for the embedded store)."""

    graph: GraphStore
    search: SearchIndex

    def close(self) -> None:
        """Close both (once when they are the same object)."""
        try:
            self.graph.close()
        finally:
            if self.search is not self.graph:
                self.search.close()


def open_stores(config: Config, db: Path | None = None, product: str | None = None, create: bool = False,
                busy_timeout: float = 5.0) -> Stores:
    """The stores ``config`` selects. ``db`` is the embedded index file (needed when either backend
    is ``embedded``; ``None``: ``config.db``); ``product`` picks the product's Memgraph
    (``[graph.products]``); ``create`` and ``busy_timeout`` as in :func:`open_store`. Nothing is sent to a server here
    (``ripple doctor`` pings them). Raises :class:`stores.config.ConfigError` for a configuration
    the backends refuse, and what :func:`open_store` raises."""
    db = db if db is not None else config.db
    embedded: EmbeddedStore | None = None
    if "embedded" in (config.graph.backend, config.search.backend):
        if db is None:
            raise ConfigError("the embedded store needs an index file: run `ripple index PATH` first, or set "
                              f"{DB_ENV} / [embedded] db")
        embedded = open_store(db, create=create, busy_timeout=busy_timeout, ann_threshold=config.ann_threshold,
                              ann_params=config.ann_params)
    try:
        graph: GraphStore = embedded if embedded is not None and config.graph.backend == "embedded" else _memgraph(config, product)
        try:
            search: SearchIndex = (embedded if embedded is not None and config.search.backend == "embedded"
                                   else _elasticsearch(config))
        except BaseException:
            if graph is not embedded:
                graph.close()
            raise
    except BaseException:
        if embedded is not None:
            embedded.close()
        raise
    return Stores(graph, search)


def open_graph_store(config: Config, product: str | None = None) -> GraphStore:
    """The configured Bolt graph store alone (``[graph] backend = "memgraph"``; ``product`` picks its
    ``[graph.products]`` URI). Nothing is sent to the server here. Raises
    :class:`stores.config.ConfigError`."""
    return _memgraph(config, product)


def open_search_index(config: Config) -> SearchIndex:
    """The configured Elasticsearch search index alone (``[search] backend = "elasticsearch"``). Nothing
    is sent to the server here. Raises :class:`stores.config.ConfigError`."""
    return _elasticsearch(config)


def _memgraph(config: Config, product: str | None) -> GraphStore:
    from stores.memgraph import MemgraphGraphStore

    g = config.graph
    user, password = g.credentials_for(product)  # only credentials set beside that URI
    try:
        return MemgraphGraphStore(g.uri_for(product), user=user, password=password, database=g.database,
                                  dialect=g.dialect, max_concurrency=g.max_concurrency)
    except ValueError as exc:
        key = "graph.products" if product is not None and product in g.products else "graph.uri"
        where = f"[graph.products] {product} in {config.source_of(key)}" if key == "graph.products" else \
            config.source_of(key)
        raise ConfigError(f"graph ({where}): {exc}") from exc


def _elasticsearch(config: Config) -> SearchIndex:
    from stores.elasticsearch import ElasticsearchSearchIndex

    s = config.search
    try:
        return ElasticsearchSearchIndex(s.url, api_key=s.api_key, user=s.user, password=s.password,
                                        index_prefix=s.index_prefix, replicas=s.replicas, ca_certs=s.ca_certs)
    except ValueError as exc:
        raise ConfigError(f"search ({config.source_of('search.index_prefix')}): {exc}") from exc
