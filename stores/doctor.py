"""``ripple doctor``: check every configured store and say exactly what is wrong and how to fix it.

:func:`run_checks` returns one :class:`Check` per thing checked, in order: the configuration (files,
variables, risky permissions), the graph store (the embedded index file: present, readable, this
schema version; or each configured Memgraph: reachable, credentials, version), the search index
(embedded: chunks and embeddings; Elasticsearch: reachable, credentials, major version, chunk indices
present with this mapping version) and the embedding model (the bundled files against their
``SHA256SUMS``, or a configured fastembed model loadable offline). A failed check carries the fix;
the front end prints them and exits non-zero when any check failed (warnings do not fail).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from stores.config import Config, ConfigError, load_config
from stores.embedded import SCHEMA_VERSION, EmbeddedStore, is_ripple_index
from stores.embedder import BUNDLED_MODEL, BUNDLED_MODEL_DIR, Embedder, EmbedderError, bundled_model_digest
from stores.errors import NotAnIndex, StoreCorrupt, StoreError, StoreOutdated, StoreTooNew
from stores.local_models import LOCAL_MODELS, models_dir

__all__ = ["Check", "run_checks", "render"]

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True, slots=True)
class Check:
    """One finding: ``name`` is ``config``, ``graph``, ``search`` or ``model``; ``status`` is
    ``ok``, ``warn`` or ``fail``; ``detail`` says what was found; ``fix`` how to repair a problem."""

    name: str
    status: str
    detail: str
    fix: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view."""
        return asdict(self)


def render(checks: list[Check]) -> list[str]:
    """The report as text lines: ``STATUS  name    detail``, a ``fix:`` line under a problem, and a
    summary line."""
    lines = []
    for c in checks:
        detail = " ".join(c.detail.split())  # one line per check, whatever the driver's message holds
        lines.append(f"{c.status.upper() if c.status == FAIL else c.status:<5} {c.name:<7} {detail}")
        if c.fix:
            lines.append(f"{'':13} fix: {c.fix}")
    failed = sum(c.status == FAIL for c in checks)
    warned = sum(c.status == WARN for c in checks)
    also = f" ({warned} warning{'s' if warned > 1 else ''})" if warned else ""
    lines.append(f"all checks passed{also}" if not failed else f"{failed} problem{'s' if failed > 1 else ''} found{also}")
    return lines


def run_checks(start: Path, env: Mapping[str, str] | None = None, db: Path | None = None) -> list[Check]:
    """Check the configuration seen from the folder ``start`` and every store it selects. ``db``
    names the embedded index file to check (``ripple doctor --db``); it wins over the configured
    one (``RIPPLE_DB`` / ``[embedded] db``) and over the ``.ripple/index.db`` found from ``start``."""
    try:
        config = load_config(start, env)
    except ConfigError as exc:
        return [Check("config", FAIL, str(exc), "fix the file or environment variable named above")]
    checks = [_config_check(config)]
    checks += [Check("config", WARN, w) for w in config.warnings]
    named = db  # an index named on the command line is named again in the fixes
    db = db or config.db or _nearest_index(start)
    checks += _graph_checks(config, db)
    checks += _search_checks(config, db, named)
    checks.append(_model_check(config))
    checks += _ensemble_checks(config, os.environ if env is None else env)
    return checks


def _ensemble_checks(config: Config, env: Mapping[str, str]) -> list[Check]:
    """One check per model of ``[search] models`` that is built locally: its files are there, else the
    command that builds it."""
    checks = []
    for name in config.search.models:
        model = LOCAL_MODELS[name]
        if model.bundled:
            continue
        folder = models_dir(config.models_dir, env) / model.folder
        if (folder / "model.onnx").is_file() and (folder / "SHA256SUMS").is_file():
            checks.append(Check("model", OK, f"{name} ([search] models): built in {folder}"))
        else:
            checks.append(Check("model", FAIL, f"{name} ([search] models) is not built: no model in {folder}",
                                f"run `ripple models build {name}`, or take it out of [search] models"))
    return checks


def _nearest_index(start: Path) -> Path | None:
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / ".ripple" / "index.db"
        if candidate.is_file():
            return candidate
    return None


def _config_check(config: Config) -> Check:
    variables = sorted({o[1:] for o in config.origin.values() if o.startswith("$")})
    parts = [str(f) + (" (workspace, trusted)" if f == config.workspace and config.workspace_trusted else
                       " (workspace, not trusted)" if f == config.workspace else "")
             for f in config.files] or ["no configuration file"]
    if variables:
        parts.append("environment " + ", ".join(variables))
    return Check("config", OK, f"{'; '.join(parts)}: graph {config.graph.backend}, search {config.search.backend}")


def _embedded_check(name: str, db: Path | None, what: str) -> tuple[Check, EmbeddedStore | None]:
    fix_index = "run `ripple index PATH` in the workspace (or name the index file with RIPPLE_DB / [embedded] db)"
    if db is None:
        return Check(name, FAIL, "embedded: no index file (.ripple/index.db) in this folder or its parents", fix_index), None
    if db.is_dir():
        return Check(name, FAIL, f"embedded: {db} is a folder, not an index file",
                     f"name the index file itself in RIPPLE_DB / [embedded] db (such as {db / 'index.db'})"), None
    if not db.is_file():
        return Check(name, FAIL, f"embedded: no index at {db}", fix_index), None
    wal = Path(f"{db}-wal")
    if db.stat().st_size == 0 and not (wal.is_file() and wal.stat().st_size > 0):
        # Opening it would write a new, empty index into it: say what it is instead.
        return Check(name, FAIL, f"embedded {db}: the file is empty (0 bytes), not an index", fix_index), None
    if not os.access(db, os.R_OK):
        return Check(name, FAIL, f"embedded {db}: this user cannot read the index file",
                     f"give this user read and write access to {db} (chmod u+rw), or run as its owner"), None
    try:
        store = EmbeddedStore(db)
    except StoreOutdated as exc:
        return Check(name, FAIL, f"embedded {db}: {exc}", "run `ripple index PATH` again: it rebuilds the index"), None
    except StoreTooNew as exc:  # a newer ripplegraph's: upgrading keeps it
        return Check(name, FAIL, f"embedded {db}: {exc}",
                     "upgrade ripplegraph (the version that wrote it), or name another index file (--db / RIPPLE_DB)"), None
    except NotAnIndex as exc:  # someone else's file: never advise deleting it
        return Check(name, FAIL, f"embedded {db}: {exc}",
                     "name another index file (RIPPLE_DB / [embedded] db), or move that file away if it is not "
                     "where it belongs"), None
    except StoreCorrupt as exc:
        return Check(name, FAIL, f"embedded {db}: {exc}", f"delete {db} and run `ripple index PATH`"), None
    except StoreError as exc:
        fix = "stop other ripple processes writing this index and retry"
        if is_ripple_index(db):  # ripple's own file: re-creating it is safe
            fix += f"; if it persists, delete {db} and run `ripple index PATH`"
        return Check(name, FAIL, f"embedded {db}: {exc}", fix), None
    if store.read_only:
        # Readers work (SQLite read-only / immutable open); `ripple index` cannot update it.
        return Check(name, WARN, f"embedded {db}: {store.read_only}: opened for reading only, `ripple index` cannot "
                                 f"update it; schema {SCHEMA_VERSION}, {what}",
                     f"to update it, make {db.parent} and {db.name} writable, or copy the index to a writable "
                     "folder and set RIPPLE_DB"), store
    return Check(name, OK, f"embedded {db}: schema {SCHEMA_VERSION}, {what}"), store


@contextlib.contextmanager
def _quiet(*loggers: str) -> Iterator[None]:
    """Silence the named loggers (every level) while a check runs: the check reports a failure
    itself, so a driver's log line (a retry, a routing error) would only say it twice."""
    saved = [(logging.getLogger(name), logging.getLogger(name).level) for name in loggers]
    for log, _ in saved:
        log.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for log, level in saved:
            log.setLevel(level)


@contextlib.contextmanager
def _quiet_fastembed() -> Iterator[None]:
    """fastembed logs through loguru (``ERROR ... Could not find model``) before raising; the model
    check reports the failure itself."""
    try:
        from loguru import logger
    except ImportError:  # pragma: no cover - a fastembed dependency
        yield
        return
    logger.disable("fastembed")
    try:
        yield
    finally:
        logger.enable("fastembed")


def _fix_setting(config: Config, key: str, setting: str) -> str:
    """"fix <setting> in <file>", or "fix $VARIABLE" when the environment set ``key``."""
    source = config.source_of(key)
    if source.startswith("$"):
        return f"fix {source}"
    return f"fix {setting} in {source}" if source != "default" else f"set {setting}"


def _graph_checks(config: Config, db: Path | None) -> list[Check]:
    if config.graph.backend == "embedded":
        check, store = _embedded_check("graph", db, "")
        if store is not None:
            try:
                stats = store.stats()
                files = sum(stats["files"].values())
                nodes = sum(stats["nodes"].values())
                edges = sum(stats["edges"].values())
                # Endpoints, tables, topics belong to no repository's files: `ripple repos list` counts
                # each repository's own, so say how many of these there are.
                shared = store.repository_counts("")["nodes"] if nodes else 0
                held = f" ({shared:,} shared by the repositories: endpoints, tables, topics)" if shared else ""
                check = Check("graph", check.status, f"{check.detail}{_n(files, 'file')}, {_n(nodes, 'node')}{held}, "
                                                     f"{_n(edges, 'edge')}", check.fix)
                if not files and check.status == OK:  # never indexed, or the run that made it was killed
                    check = Check("graph", WARN, f"{check.detail}: the index holds no file (nothing was indexed into "
                                  "it, or the `ripple index` that made it was stopped before it finished writing)",
                                  "run `ripple index PATH`")
            finally:
                store.close()
        return [check]
    from stores.memgraph import MemgraphGraphStore

    g = config.graph
    targets = [("", None, g.uri, _fix_setting(config, "graph.uri", "[graph] uri"))]
    targets += [(f" (product {p})", p, uri, _fix_setting(config, "graph.products", f"[graph.products] {p}"))
                for p, uri in sorted(g.products.items())]
    checks = []
    for label, product, uri, fix in targets:
        user, password = g.credentials_for(product)
        try:
            store = MemgraphGraphStore(uri, user=user, password=password, database=g.database, dialect=g.dialect,
                                       max_concurrency=g.max_concurrency)
        except ValueError as exc:
            checks.append(Check("graph", FAIL, f"memgraph{label}: {exc}", fix))
            continue
        try:
            with _quiet("neo4j"):
                info = store.ping()
            version = " ".join(str(v) for v in (info.get("product"), info.get("version")) if v)
            checks.append(Check("graph", OK, f"memgraph{label} {info.get('uri', uri)}: {version or 'version unknown'}"
                                             f" (dialect {info.get('dialect')})"))
        except StoreError as exc:
            checks.append(Check("graph", FAIL, f"memgraph{label}: {exc}"))
        finally:
            store.close()
    return checks


def _search_checks(config: Config, db: Path | None, named: Path | None = None) -> list[Check]:
    if config.search.backend == "embedded":
        check, store = _embedded_check("search", db, "")
        if store is None:
            return [] if config.graph.backend == "embedded" else [check]  # the graph check said it already
        try:
            counts = store.chunk_count()
        finally:
            store.close()
        return _count_checks(f"embedded {db}", counts, named)
    from stores.elasticsearch import ElasticsearchSearchIndex

    s = config.search
    try:
        index = ElasticsearchSearchIndex(s.url, api_key=s.api_key, user=s.user, password=s.password,
                                         index_prefix=s.index_prefix, replicas=s.replicas, ca_certs=s.ca_certs,
                                         max_retries=0, request_timeout=10.0)
    except (ValueError, StoreError) as exc:
        return [Check("search", FAIL, f"elasticsearch: {exc}", "fix [search] url / index_prefix / ca_certs "
                                                               "(RIPPLE_ES_URL / RIPPLE_ES_INDEX_PREFIX / "
                                                               "RIPPLE_ES_CA_CERTS)")]
    try:
        with _quiet("elastic_transport"):  # it logs a warning per failed attempt
            info = index.ping()
            status = index.index_status()
    except StoreError as exc:
        return [Check("search", FAIL, f"elasticsearch: {exc}")]
    finally:
        index.close()
    where = f"elasticsearch {info['url']} ({info['version']}, cluster {info['cluster']})"
    if not status["indices"]:
        return [Check("search", FAIL, f"{where}: no chunk index {index.chunk_pattern} yet",
                      "run `ripple index PATH` with this configuration (indices are created on first write)")]
    if status["outdated"]:
        return [Check("search", FAIL, f"{where}: {', '.join(status['outdated'])} were created by another ripplegraph "
                                      "version (mapping differs)",
                      "delete those indices (or use a new [search] index_prefix) and run `ripple index PATH`")]
    checks = _count_checks(f"{where}: {len(status['indices'])} chunk indices", status)
    # a record is "<model id> text=<format>" (indexer.chunk_context.embedding_record): the model is its first word
    recorded, configured = (status.get("embedding_model") or "").split(" ", 1)[0], _model_id(config)
    if status["embedded"] and recorded and configured and recorded != configured:
        checks.append(Check("search", FAIL, f"the stored embeddings come from {recorded}, but this configuration "
                                            f"embeds queries with {configured}: semantic search compares vectors of "
                                            "two models", "run `ripple index PATH` with this configuration (it "
                                                          "re-embeds every chunk), or configure the model the index "
                                                          "was built with ([embedding] model / RIPPLE_EMBEDDING_MODEL)"))
    return checks


def _model_id(config: Config) -> str | None:
    """The ``model_id`` the configured embedder records with its vectors (``None``: unknown)."""
    if config.embedding_model:
        return f"fastembed:{config.embedding_model}"
    try:
        return f"{BUNDLED_MODEL}@{bundled_model_digest()}"
    except EmbedderError:
        return None  # the model check says what is wrong


def _count_checks(where: str, counts: Mapping[str, Any], db: Path | None = None) -> list[Check]:
    chunks, embedded = int(counts["chunks"]), int(counts["embedded"])
    checks = [Check("search", OK, f"{where}, {_n(chunks, 'chunk')}, {embedded:,} embedded")]
    if embedded < chunks:
        missing = chunks - embedded
        fix = f"run `ripple embed --db {shlex.quote(str(db))}`" if db is not None else "run `ripple embed`"
        checks.append(Check("search", WARN, f"{_n(missing, 'chunk')} {'has' if missing == 1 else 'have'} no embedding "
                                            "yet: search finds them by BM25 alone", fix))
    return checks


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def _model_check(config: Config) -> Check:
    if config.embedding_model:
        try:
            with _quiet_fastembed():
                embedder = Embedder(config.embedding_model)
        except EmbedderError as exc:
            return Check("model", FAIL, str(exc))
        return Check("model", OK, f"{embedder.model_id}: loads offline, {embedder.dim}-d")
    sums = BUNDLED_MODEL_DIR / "SHA256SUMS"
    fix = "reinstall ripplegraph (pip install --force-reinstall ripplegraph), or rebuild the model with " \
          "tools/build_embedding_model.py"
    try:
        lines = [line for line in sums.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError:
        return Check("model", FAIL, f"bundled model: {sums} is missing", fix)
    except UnicodeDecodeError:
        return Check("model", FAIL, f"bundled model: {sums} is damaged (not text)", fix)
    entries = [line.split("  ", 1) for line in lines]
    bad = [line for line, entry in zip(lines, entries) if len(entry) != 2 or len(entry[0]) != 64
           or Path(entry[1]).name != entry[1]]
    if bad or not entries:
        what = f"line {bad[0]!r} is not '<sha256>  <file name>'" if bad else "it lists no file"
        return Check("model", FAIL, f"bundled model: {sums} is damaged ({what})", fix)
    for digest, name in entries:
        path = BUNDLED_MODEL_DIR / name
        if not path.is_file():
            return Check("model", FAIL, f"bundled model: {name} is missing from {BUNDLED_MODEL_DIR}", fix)
        h = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        if h.hexdigest() != digest:
            return Check("model", FAIL, f"bundled model: {name} does not match its SHA256SUMS entry (damaged file)", fix)
    return Check("model", OK, f"bundled {BUNDLED_MODEL_DIR.name}: {len(entries)} files, checksums ok")
