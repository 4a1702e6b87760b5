"""Configuration: which backends hold the graph and the chunks, where they run and how to reach them.

Sources, highest precedence first (each key comes from the first source that sets it; tables merge
key by key, so a workspace file that sets only ``[search] url`` keeps the user's ``api_key``):

1. environment variables (:data:`ENVIRONMENT`; an empty variable counts as unset);
2. ``$RIPPLE_CONFIG``: a TOML file named explicitly, by an absolute path (a relative one would name a
   file inside whichever repository a command runs in, and is refused);
3. ``<workspace>/.ripple/config.toml``: the nearest such file in the workspace folder or a parent
   (found as the index is, like git finds ``.git``), unless another user owns it (ignored with a
   warning, as git's ``safe.directory``: name it with ``$RIPPLE_CONFIG`` to use it);
4. ``$XDG_CONFIG_HOME/ripple/config.toml`` (default ``~/.config/ripple/config.toml``): the user's
   defaults;
5. built-in defaults: the embedded store for both graph and search (one SQLite file per workspace).

Workspace trust (a cloned repository must not choose where your code and credentials go): a
workspace file's *endpoint* keys (:data:`ENDPOINT_KEYS`: the backends, the graph's URI, products and
database, the search URL, index prefix and CA bundle, the embedded index file) and *credential* keys
(:data:`CREDENTIAL_KEYS`) apply only when the workspace folder (the folder holding ``.ripple/``) is
listed, or lies inside a folder listed, in ``[trust] workspaces`` of the user's file or of
``$RIPPLE_CONFIG`` (``ripple trust PATH`` adds one; ``/`` and the home folder are refused: they would
trust every repository cloned below them). Otherwise they are ignored with a warning that
names the file and the keys (``ripple doctor`` shows it); the other keys (``dialect``,
``max_concurrency``, ``replicas``, ``[embedding] model``, a model already in the local cache, and
``[http.services]``, names used in reports) still apply: they change no destination. ``[trust]`` in a
workspace file is ignored with a warning.

Credentials go only to an endpoint set in the same source: ``graph.user`` / ``graph.password`` apply
to ``graph.uri`` when both come from the same file (or both from the environment) or the URI is the
built-in default, and to the ``[graph.products]`` URIs when that table comes from the same source;
``search.api_key`` / ``user`` / ``password`` likewise to ``search.url``. A credential that would
reach an endpoint of another source is dropped with a warning (set it beside the endpoint). A
password written in a URI (``bolt://user:pw@host``) is part of that endpoint.

The file (every key optional)::

    [graph]
    backend = "memgraph"              # embedded | memgraph
    uri = "bolt://127.0.0.1:7687"     # the Memgraph of products not listed below
    user = "ripple"
    password = "..."
    database = "memgraph"
    dialect = "auto"                  # memgraph | neo4j | auto (asks the server)
    max_concurrency = 16              # Bolt requests in flight (1 to 1,024)

    [graph.products]                  # one Memgraph per product
    petclinic = "bolt://memgraph-petclinic:7687"

    [search]
    backend = "elasticsearch"         # embedded | elasticsearch
    url = "http://127.0.0.1:9200"     # or several nodes: "http://es1:9200,http://es2:9200"
    api_key = "..."                   # or user + password
    index_prefix = "ripple"           # indices: <prefix>-chunks.<content>.<product>, ...
    replicas = 0
    ca_certs = "/etc/ripple/ca.pem"
    models = ["minilm", "mpnet"]      # an ensemble: rank with each model's kNN list + BM25 (default: the index's model)

    [embedded]
    db = ".ripple/index.db"           # the embedded index file (relative to the workspace)
    ann_threshold = 200000            # approximate vector search from this many embedded chunks (0: never)
    ann_connectivity = 16             # the ANN graph's edges per vector (HNSW M; a change rebuilds the index)
    ann_expansion_add = 64            # candidates kept while building the ANN graph (a change rebuilds it)
    ann_expansion_search = 2048       # candidates a query's graph search keeps (recall vs CPU; no rebuild)
    ann_candidates = 64               # of those, how many are re-ranked by their exact float32 vectors
    ann_dtype = "i8"                  # i8 | f16 | f32: the ANN index's vectors (a change rebuilds it)

    [embedding]
    model = "BAAI/bge-small-en-v1.5"  # a 384-d fastembed model in the local cache; default: bundled
    models_dir = "/srv/ripple/models" # locally built models (`ripple models build`); default: ~/.cache/ripplegraph/models

    [http.services]                   # HTTP client URL prefix / host -> service (repository) name
    "http://localhost:8081" = "customers-service"
    "/api/customer" = "customers-service"   # a gateway prefix, cut off before matching paths

    [api]
    key = "..."                       # the bearer token of `ripple api` (required off loopback); or
                                      # $RIPPLE_API_KEY; ignored in a workspace file that is not trusted

    [server]                          # the language server (`ripple serve`) and `ripple watch`
    index_workspace = true            # index and watch the open folders into the stores; false: read
                                      # only (a central indexer owns the index)
    memory_budget = 320               # MiB: above it, folders unchanged for `release_after` seconds give
                                      # their resolver state back, least recently changed first; their
                                      # next change rebuilds it from the records on disk (0: never)
    release_after = 60                # seconds without a change before a folder may give it back

    [docs]
    folders = ["wiki-export"]         # repository folders read as documentation even when gitignored

    [trust]                           # only in the user's file or $RIPPLE_CONFIG
    workspaces = ["/home/me/src/shop"]      # workspaces (and folders below) whose .ripple/config.toml may
                                            # choose servers, credentials and the index file

The file is TOML in UTF-8 (a byte-order mark is ignored), at most 1 MiB. An unknown table or key, a
value of the wrong type, an empty string, a number out of range or an unknown backend raises
:class:`ConfigError` naming the file (or variable) and the key: a typo never silently falls back to a
default. A workspace file that is not trusted came with the repository, not from the user: a table or
key of it that is unknown or of the wrong type (or the whole file, when it is no UTF-8 TOML) is left
out with a warning instead, so a repository cannot stop every command run inside it. A file holding a password that other users can read adds a warning (``ripple doctor`` shows
it).
"""

from __future__ import annotations

import logging
import os
import stat
import posixpath
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stores.embedder import EmbedderError
from stores.errors import StoreError
from stores.local_models import parse_model_names
from stores.vector_index import ANN_THRESHOLD, DTYPES, PARAM_RANGES, AnnParams

log = logging.getLogger(__name__)

__all__ = [
    "doc_folders_of",
    "ConfigError",
    "doc_folder_paths",
    "GraphConfig",
    "SearchConfig",
    "Config",
    "ENVIRONMENT",
    "CONFIG_ENV",
    "GRAPH_BACKENDS",
    "SEARCH_BACKENDS",
    "ENDPOINT_KEYS",
    "CREDENTIAL_KEYS",
    "load_config",
    "find_workspace_file",
    "user_config_file",
    "trust_workspace",
]

CONFIG_ENV = "RIPPLE_CONFIG"
"""Environment variable naming a configuration file (above the workspace and user files)."""
GRAPH_BACKENDS = ("embedded", "memgraph")
SEARCH_BACKENDS = ("embedded", "elasticsearch")
DIALECTS = ("memgraph", "neo4j", "auto")
MAX_CONCURRENCY = 1024
"""Most Bolt requests in flight (each may hold a thread and a connection)."""
MAX_REPLICAS = 100
MAX_ANN_THRESHOLD = 1 << 40
MAX_FILE_BYTES = 1 << 20
"""A configuration file larger than this is refused (it is not a configuration file)."""

ENVIRONMENT: dict[str, str] = {
    "RIPPLE_GRAPH_BACKEND": "graph.backend",
    "RIPPLE_MEMGRAPH_URI": "graph.uri",
    "RIPPLE_MEMGRAPH_USER": "graph.user",
    "RIPPLE_MEMGRAPH_PASSWORD": "graph.password",
    "RIPPLE_MEMGRAPH_DATABASE": "graph.database",
    "RIPPLE_MEMGRAPH_DIALECT": "graph.dialect",
    "RIPPLE_MEMGRAPH_CONCURRENCY": "graph.max_concurrency",
    "RIPPLE_SEARCH_BACKEND": "search.backend",
    "RIPPLE_ES_URL": "search.url",
    "RIPPLE_ES_API_KEY": "search.api_key",
    "RIPPLE_ES_USER": "search.user",
    "RIPPLE_ES_PASSWORD": "search.password",
    "RIPPLE_ES_INDEX_PREFIX": "search.index_prefix",
    "RIPPLE_ES_REPLICAS": "search.replicas",
    "RIPPLE_ES_CA_CERTS": "search.ca_certs",
    "RIPPLE_DB": "embedded.db",
    "RIPPLE_ANN_THRESHOLD": "embedded.ann_threshold",
    "RIPPLE_ANN_EXPANSION_SEARCH": "embedded.ann_expansion_search",
    "RIPPLE_EMBEDDING_MODEL": "embedding.model",
    "RIPPLE_MODELS_DIR": "embedding.models_dir",
    "RIPPLE_SEARCH_MODELS": "search.models",
    "RIPPLE_API_KEY": "api.key",
    "RIPPLE_SERVER_INDEX_WORKSPACE": "server.index_workspace",
    "RIPPLE_SERVER_MEMORY_BUDGET": "server.memory_budget",
    "RIPPLE_SERVER_RELEASE_AFTER": "server.release_after",
}
"""Environment variable -> configuration key."""

SERVER_MEMORY_BUDGET_MIB = 320
"""``[server] memory_budget``'s default: :data:`indexer.state_budget.DEFAULT_STATE_BUDGET_MIB`."""
SERVER_RELEASE_AFTER_S = 60
"""``[server] release_after``'s default: :data:`indexer.state_budget.IDLE_S`."""
MAX_SERVER_BUDGET_MIB = 1 << 22
MAX_RELEASE_AFTER_S = 7 * 24 * 3600

# key -> (type, default); "products" is a table of strings.
_SCHEMA: dict[str, dict[str, tuple[type, Any]]] = {
    "graph": {
        "backend": (str, "embedded"), "uri": (str, "bolt://127.0.0.1:7687"), "products": (dict, {}),
        "user": (str, None), "password": (str, None), "database": (str, None), "dialect": (str, "auto"),
        "max_concurrency": (int, 16),
    },
    "search": {
        "backend": (str, "embedded"), "url": (str, "http://127.0.0.1:9200"), "api_key": (str, None),
        "user": (str, None), "password": (str, None), "index_prefix": (str, "ripple"), "replicas": (int, 0),
        "ca_certs": (str, None), "models": (list, []),
    },
    "embedded": {"db": (str, None), "ann_threshold": (int, ANN_THRESHOLD),
                 **{f"ann_{name}": (int, getattr(AnnParams(), name)) for name in PARAM_RANGES},
                 "ann_dtype": (str, AnnParams().dtype)},
    "embedding": {"model": (str, None), "models_dir": (str, None)},
    "http": {"services": (dict, {})},
    "api": {"key": (str, None)},
    "server": {"index_workspace": (bool, True), "memory_budget": (int, SERVER_MEMORY_BUDGET_MIB),
               "release_after": (int, SERVER_RELEASE_AFTER_S)},
    "trust": {"workspaces": (list, [])},
    "docs": {"folders": (tuple, ())},
}
_SECRETS = {"graph.password", "search.password", "search.api_key", "api.key"}
ENDPOINT_KEYS = ("graph.backend", "graph.uri", "graph.products", "graph.database", "search.backend", "search.url",
                 "search.index_prefix", "search.ca_certs", "embedded.db", "embedding.models_dir")
"""Keys that choose where code, index data or credentials go: a workspace file sets them only when trusted."""
CREDENTIAL_KEYS = ("graph.user", "graph.password", "search.api_key", "search.user", "search.password", "api.key")
"""Keys sent to a server (they apply only to an endpoint set in the same source), and the key clients of
``ripple api`` must send (a cloned repository's file must not choose who may read the index)."""
_TRUST_KEY = "trust.workspaces"


class ConfigError(StoreError):
    """The configuration cannot be used; the message names the file or variable, the key and the fix."""


@dataclass(frozen=True, slots=True)
class GraphConfig:
    """Where the graph lives: ``backend`` is ``embedded`` or ``memgraph``; for Memgraph, ``uri`` (or
    the product's entry in ``products``), credentials, ``database``, ``dialect`` and the bound on
    requests in flight."""

    backend: str = "embedded"
    uri: str = "bolt://127.0.0.1:7687"
    products: Mapping[str, str] = field(default_factory=dict)
    user: str | None = None
    password: str | None = None
    database: str | None = None
    dialect: str = "auto"
    max_concurrency: int = 16
    products_user: str | None = None
    products_password: str | None = None

    def uri_for(self, product: str | None) -> str:
        """The Bolt URI of ``product``'s graph: its ``[graph.products]`` entry, else ``uri``."""
        if product is not None and product in self.products:
            return self.products[product]
        return self.uri

    def credentials_for(self, product: str | None) -> tuple[str | None, str | None]:
        """``(user, password)`` for :meth:`uri_for` ``(product)``: ``user`` / ``password`` go to ``uri``,
        ``products_user`` / ``products_password`` to the ``[graph.products]`` URIs (each set only when
        it came from the same source as that endpoint; see the module docstring)."""
        if product is not None and product in self.products:
            return self.products_user, self.products_password
        return self.user, self.password


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Where the chunks live: ``backend`` is ``embedded`` or ``elasticsearch``; for Elasticsearch,
    ``url``, credentials (``api_key``, or ``user`` + ``password``), the index prefix, the replica
    count of new indices and a CA bundle for TLS."""

    backend: str = "embedded"
    url: str = "http://127.0.0.1:9200"
    api_key: str | None = None
    user: str | None = None
    password: str | None = None
    index_prefix: str = "ripple"
    replicas: int = 0
    ca_certs: str | None = None
    models: tuple[str, ...] = ()
    """``[search] models`` (``$RIPPLE_SEARCH_MODELS``, comma-separated): the embedding models an
    ensemble search ranks with (:data:`stores.local_models.LOCAL_MODELS` names; ``()``: the index's one
    model, as before); ``ripple index`` / ``ripple embed`` embed for each."""


@dataclass(frozen=True, slots=True)
class Config:
    """The merged configuration. ``db`` is the embedded index file when one is configured (``None``:
    the default, ``<workspace>/.ripple/index.db``, found as ``ripple`` finds it); ``embedding_model``
    a fastembed model name (``None``: the bundled model); ``http_services`` the ``[http.services]``
    map (client URL prefix or host -> service name, also the service name -> repository map of
    blast-radius reports). ``files`` are the configuration files read,
    highest precedence first; ``origin`` maps every key that is not a default (``"search.url"``) to
    where it came from (a file path, or ``$RIPPLE_ES_URL``); ``warnings`` say what is risky or was
    ignored. ``workspace`` is the workspace file read (``None``: none), ``workspace_trusted`` whether
    its endpoint and credential keys applied, ``ignored`` the keys of it that did not (untrusted)."""

    graph: GraphConfig = field(default_factory=GraphConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    db: Path | None = None
    embedding_model: str | None = None
    files: tuple[Path, ...] = ()
    origin: Mapping[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    http_services: Mapping[str, str] = field(default_factory=dict)
    workspace: Path | None = None
    workspace_trusted: bool = False
    ignored: tuple[str, ...] = ()
    api_key: str | None = None
    """The bearer token clients of ``ripple api`` send (``[api] key`` or ``$RIPPLE_API_KEY``)."""
    index_workspace: bool = True
    """``[server] index_workspace``: whether ``ripple serve`` indexes (and watches) the editor's workspace
    folders into the configured stores (``true``), or only reads them (``false``: a central indexer
    owns the index). ``$RIPPLE_SERVER_INDEX_WORKSPACE`` (true / false / 1 / 0)."""
    models_dir: Path | None = None
    """``[embedding] models_dir``: the folder of locally built models (``ripple models build``); ``None``:
    ``$RIPPLE_MODELS_DIR`` or the user's cache folder (:func:`stores.local_models.models_dir`)."""
    ann_threshold: int = ANN_THRESHOLD
    """Embedded chunks from which the embedded store searches vectors approximately (``[embedded]
    ann_threshold`` or ``$RIPPLE_ANN_THRESHOLD``; 0: always exact; :mod:`stores.vector_index`)."""
    ann_params: AnnParams = field(default_factory=AnnParams)
    """How the approximate search is built and searched (``[embedded] ann_connectivity``,
    ``ann_expansion_add``, ``ann_expansion_search`` or ``$RIPPLE_ANN_EXPANSION_SEARCH``,
    ``ann_candidates``, ``ann_dtype``; :class:`stores.vector_index.AnnParams`)."""
    memory_budget: int = SERVER_MEMORY_BUDGET_MIB
    """``[server] memory_budget`` (or ``$RIPPLE_SERVER_MEMORY_BUDGET``): the resident set (MiB) above which
    the language server's idle folders give their resolver state back (:mod:`indexer.state_budget`;
    0: never)."""
    release_after: int = SERVER_RELEASE_AFTER_S
    """``[server] release_after``: seconds a folder must have been unchanged before it may give its state back."""
    doc_folders: tuple[str, ...] = ()
    """``[docs] folders``: repository-relative folders (a wiki export) whose Markdown, AsciiDoc and
    reStructuredText files are indexed as ``doc`` chunks even when ``.gitignore`` or the pruned folder
    names would leave them out (:func:`doc_folder_paths`)."""

    def source_of(self, key: str) -> str:
        """Where ``key`` (``"graph.uri"``) was set: a file, ``$VARIABLE``, or ``default``."""
        return self.origin.get(key, "default")


def user_config_file(env: Mapping[str, str]) -> Path | None:
    """``$XDG_CONFIG_HOME/ripple/config.toml``, else ``~/.config/ripple/config.toml``; ``None`` when
    the user has no home folder (no ``$HOME`` and no password entry, as in a container run under an
    arbitrary uid)."""
    base = env.get("XDG_CONFIG_HOME")
    if not base:
        try:
            home = env.get("HOME") or str(Path.home())
        except RuntimeError:  # "Could not determine home directory"
            return None
        base = str(Path(home) / ".config")
    return Path(base) / "ripple" / "config.toml"


def find_workspace_file(start: Path) -> Path | None:
    """The nearest ``.ripple/config.toml`` in ``start`` or a parent folder, or ``None``."""
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / ".ripple" / "config.toml"
        if candidate.is_file():
            return candidate
    return None


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read configuration file {path}: {exc.strerror or exc}") from exc
    if len(data) > MAX_FILE_BYTES:
        raise ConfigError(f"{path} is larger than {MAX_FILE_BYTES:,} bytes, too large for a configuration file: "
                          "is it the right file?")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (Windows editors write one) is not content
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text (byte {exc.start} is 0x{data[exc.start]:02x}); a configuration "
                          "file is TOML saved as UTF-8: fix the file or remove it") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}; fix the file or remove it") from exc
    except RecursionError:  # tomllib parses nested arrays and inline tables recursively
        raise ConfigError(f"{path} nests arrays or inline tables too deep to read; fix the file or remove it") from None


def _flatten(path: Path, data: Mapping[str, Any], warnings: list[str] | None = None) -> dict[str, Any]:
    """``{"table.key": value}`` of a parsed file, every key and type checked against the schema.
    Raises :class:`ConfigError` at the first problem; with ``warnings`` (a file the user did not write:
    an untrusted workspace's), a table or key that is unknown or of the wrong type is left out and
    the reason appended there instead, so a repository cannot stop every command run inside it."""
    flat: dict[str, Any] = {}
    left_out: list[str] = []
    for table, values in data.items():
        try:
            if table not in _SCHEMA:
                raise ConfigError(f"{path}: unknown table [{_shown(table)}]; known tables: "
                                  f"{', '.join(f'[{t}]' for t in _SCHEMA)}")
            if not isinstance(values, Mapping):
                raise ConfigError(f"{path}: {_shown(table)} must be a table ([{_shown(table)}]), "
                                  f"not a {type(values).__name__}")
        except ConfigError as exc:
            if warnings is None:
                raise
            left_out.append(f"{exc} (left out)")
            continue
        for key, value in values.items():
            try:
                if key not in _SCHEMA[table]:
                    raise ConfigError(f"{path}: unknown key {key!r} in [{table}]; known keys: "
                                      f"{', '.join(_SCHEMA[table])}")
                flat[f"{table}.{key}"] = _checked(f"{path}: {table}.{key}", _SCHEMA[table][key][0], value)
            except ConfigError as exc:
                if warnings is None:
                    raise
                left_out.append(f"{exc} (left out)")
    if warnings is not None:
        warnings.extend(left_out[:MAX_LEFT_OUT_SHOWN])
        if len(left_out) > MAX_LEFT_OUT_SHOWN:
            warnings.append(f"{path}: {len(left_out) - MAX_LEFT_OUT_SHOWN:,} more tables or keys left out")
    return flat


MAX_LEFT_OUT_SHOWN = 10
"""Most "left out" warnings one untrusted workspace file gives (the rest are counted in one line)."""


def _shown(name: str) -> str:
    """A table name from a file as a message shows it: as written when it is printable, else quoted
    with escapes (a newline or ESC from a repository's file must not reach the terminal)."""
    return name if name.isprintable() else repr(name)


_TABLE_EXAMPLES = {"graph.products": 'product = "bolt://host:7687"',
                   "http.services": '"http://localhost:8081" = "customers-service"'}


def _checked(where: str, kind: type, value: Any) -> Any:
    key = where.rsplit(": ", 1)[-1]
    if kind is tuple:
        return doc_folder_paths(where, value)
    if kind is list and key == "search.models":
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ConfigError(f'{where} must be a list of model names (["minilm", "mpnet"]), not {value!r}')
        return [v.strip() for v in value]
    if kind is list:
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() and "\x00" not in v for v in value):
            raise ConfigError(f'{where} must be a list of folder paths (["/home/me/src/shop"]), not {value!r}')
        for v in value:
            if not Path(v).expanduser().is_absolute():
                raise ConfigError(f"{where}: {v!r} is not an absolute path; name each trusted folder in full")
        return list(value)
    if kind is dict:
        if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
            raise ConfigError(f"{where} must be a table of strings ({_TABLE_EXAMPLES[key]})")
        return dict(value)
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, not {value!r}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where} must be an integer, not {value!r}")
        return value
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be a string, not {value!r}")
    if not value.strip() or "\x00" in value:
        raise ConfigError(f"{where} must not be empty or hold a NUL character, not {value!r}; remove the key to use "
                          "the default")
    return value


def _from_env(env: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    values: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for var, key in ENVIRONMENT.items():
        raw = env.get(var)
        if not raw:
            continue
        table, name = key.split(".")
        if _SCHEMA[table][name][0] is list:  # a comma-separated list: RIPPLE_SEARCH_MODELS=minilm,mpnet
            values[key] = [v.strip() for v in raw.split(",") if v.strip()]
        elif _SCHEMA[table][name][0] is bool:
            if raw.strip().lower() not in ("true", "false", "1", "0"):
                raise ConfigError(f"${var} must be true or false (or 1 / 0), not {raw[:40]!r}")
            values[key] = raw.strip().lower() in ("true", "1")
        elif _SCHEMA[table][name][0] is int:
            try:
                values[key] = int(raw)
            except ValueError:
                shown = raw if len(raw) <= 40 else raw[:40] + "..."
                raise ConfigError(f"${var} must be an integer, not {shown!r}") from None
        else:
            values[key] = raw
        origin[key] = f"${var}"
    return values, origin


def _readable_by_others(path: Path) -> bool:
    try:
        return bool(path.stat().st_mode & (stat.S_IRGRP | stat.S_IROTH))
    except OSError:
        return False


def _owned_by_us(path: Path) -> bool:
    """Whether ``path`` belongs to this process's user (or to root, who can write anywhere anyway)."""
    if not hasattr(os, "getuid"):
        return True
    try:
        owner = path.stat().st_uid
    except OSError:
        return False
    return owner in (os.getuid(), 0)


def _too_broad_to_trust(folder: Path, env: Mapping[str, str] | None = None) -> str | None:
    """Why trusting ``folder`` would trust far more than a workspace (it is ``/`` or the user's home
    folder, ``$HOME`` of ``env`` or of the process, so every repository ever cloned below it), or ``None``."""
    resolved = folder.expanduser().resolve()
    if resolved == Path(resolved.anchor):
        return "is the file system's root: trusting it would trust every repository on the machine; name the workspace folders"
    homes = {Path(h).resolve() for h in ((env or {}).get("HOME"), os.environ.get("HOME")) if h}
    if resolved in homes:
        return ("is your home folder: trusting it would trust every repository cloned below it; name the workspace "
                "folders")
    return None


def _trusted(folder: Path, trusted: list[str]) -> bool:
    """Whether ``folder`` is one of the ``trusted`` folders or lies inside one."""
    folder = folder.resolve()
    for entry in trusted:
        root = Path(entry).expanduser().resolve()
        if folder == root or root in folder.parents:
            return True
    return False


def load_config(start: Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """The configuration seen from the folder ``start`` (default: the current folder) under the
    environment ``env`` (default: ``os.environ``): sources merged by the precedence of the module
    docstring, a workspace file's endpoint and credential keys only when the workspace is trusted,
    credentials only where their endpoint came from the same source. Raises :class:`ConfigError`."""
    env = os.environ if env is None else env
    start = Path.cwd() if start is None else start
    explicit: Path | None = None
    if env.get(CONFIG_ENV):
        named = Path(env[CONFIG_ENV]).expanduser()
        if not named.is_absolute():
            # A relative name means a file inside whichever folder a command runs in: a repository's own
            # file would then be trusted as the user's.
            raise ConfigError(f"${CONFIG_ENV} must be an absolute path, not {env[CONFIG_ENV]!r} (relative to whichever "
                              "folder a command runs in, it would name a repository's own file)")
        explicit = named
        if not explicit.is_file():
            raise ConfigError(f"${CONFIG_ENV} names {explicit}, which is not a file; fix the variable or unset it")
    warnings: list[str] = []
    workspace = find_workspace_file(start)
    if workspace is not None and not _owned_by_us(workspace):
        # As git's safe.directory: a file another user could plant above the workspace (/tmp/.ripple)
        # would otherwise send this user's source and credentials to a server of their choosing.
        warnings.append(f"{workspace} is ignored: it belongs to another user; name it with ${CONFIG_ENV} "
                        "to use it anyway")
        workspace = None
    if workspace is not None and explicit is not None and workspace.resolve() == explicit.resolve():
        workspace = None  # named explicitly: read once, as the user's own choice
    user = user_config_file(env)
    if user is not None and not user.is_file():
        user = None

    parsed = {path: _flatten(path, _read(path)) for path in (explicit, user) if path is not None}
    trusted_folders = [entry for path in (explicit, user) if path is not None
                       for entry in parsed[path].get(_TRUST_KEY, [])]
    if workspace is not None:
        # The user's own files are strict (a typo never falls back silently); a workspace file that is
        # not trusted comes with the repository: what this version cannot read is left out, with a warning.
        lenient = None if _trusted(workspace.parent.parent, trusted_folders) else warnings
        try:
            parsed[workspace] = _flatten(workspace, _read(workspace), lenient)
        except ConfigError as exc:
            if lenient is None:
                raise
            warnings.append(f"{exc} (the file is ignored)")
            parsed[workspace] = {}
    for path in (explicit, user):
        for entry in parsed[path].get(_TRUST_KEY, []) if path is not None else ():
            broad = _too_broad_to_trust(Path(entry), env)
            if broad:
                raise ConfigError(f"{path}: trust.workspaces: {entry!r} {broad}")
    trusted = False
    ignored: tuple[str, ...] = ()
    if workspace is not None:
        flat = parsed[workspace]
        if _TRUST_KEY in flat:
            warnings.append(f"{workspace}: [trust] is ignored in a workspace file; it is read from your own "
                            f"configuration file only ({user_config_file(env) or '~/.config/ripple/config.toml'})")
            del flat[_TRUST_KEY]
        folder = workspace.parent.parent
        trusted = _trusted(folder, trusted_folders)
        if not trusted:
            ignored = tuple(k for k in (*ENDPOINT_KEYS, *CREDENTIAL_KEYS) if k in flat)
            for key in ignored:
                del flat[key]
            if ignored:
                warnings.append(f"{workspace}: ignored {', '.join(ignored)}: this workspace is not trusted to choose "
                                "where your code and credentials go; if you trust it, run "
                                f"`ripple trust {folder.resolve()}`")

    values, origin = _from_env(env)
    files = [path for path in (explicit, workspace, user) if path is not None]
    for path in files:  # highest precedence first: keep what is already set
        flat = parsed[path]
        for key, value in flat.items():
            if key not in values and key != _TRUST_KEY:
                values[key] = value
                origin[key] = str(path)
        secrets = sorted(k for k in flat if k in _SECRETS)
        if secrets and _readable_by_others(path):
            warnings.append(f"{path} holds {', '.join(secrets)} and other users can read it; run chmod 600 {path}")
    return _build(values, origin, tuple(files), warnings, workspace, trusted, ignored)


def _source(where: str | None) -> str | None:
    """The source an ``origin`` value names: the file, or ``environment`` for every ``$VARIABLE``."""
    return "environment" if where is not None and where.startswith("$") else where


def _applies(origin: Mapping[str, str], credential: str, endpoint: str) -> bool:
    """Whether ``credential`` (set) goes to ``endpoint``: both from one source, or the endpoint is
    the built-in default."""
    return endpoint not in origin or _source(origin[endpoint]) == _source(origin[credential])


def _bind_credentials(values: dict[str, Any], origin: Mapping[str, str], warnings: list[str]) -> dict[str, Any]:
    """Each credential for the endpoints it may reach: ``{"graph.user": ..., "graph.products_user": ...}``,
    a credential of another source than its endpoint left out with a warning (only when the backend
    that would send it is selected)."""
    bound: dict[str, Any] = {}
    graph_used = values.get("graph.backend") == "memgraph"
    search_used = values.get("search.backend") == "elasticsearch"
    for name in ("user", "password"):
        key = f"graph.{name}"
        if key not in values:
            continue
        if _applies(origin, key, "graph.uri"):
            bound[key] = values[key]
        elif graph_used:
            warnings.append(f"{key} from {origin[key]} is not sent to the graph.uri set in {origin['graph.uri']}: a "
                            "credential goes only to an endpoint set in the same file (or both in the environment); "
                            "set it beside the URI")
        if values.get("graph.products"):
            if _source(origin.get("graph.products")) == _source(origin[key]):
                bound[f"graph.products_{name}"] = values[key]
            elif graph_used:
                warnings.append(f"{key} from {origin[key]} is not sent to the [graph.products] URIs set in "
                                f"{origin['graph.products']}: a credential goes only to an endpoint set in the same "
                                "file; put the credentials in the URIs or beside them")
    for name in ("api_key", "user", "password"):
        key = f"search.{name}"
        if key not in values:
            continue
        if _applies(origin, key, "search.url"):
            bound[key] = values[key]
        elif search_used:
            warnings.append(f"{key} from {origin[key]} is not sent to the search.url set in {origin['search.url']}: "
                            "a credential goes only to an endpoint set in the same file (or both in the environment); "
                            "set it beside the URL")
    return bound


def _build(values: dict[str, Any], origin: dict[str, str], files: tuple[Path, ...], warnings: list[str],
           workspace: Path | None, trusted: bool, ignored: tuple[str, ...]) -> Config:
    credentials = _bind_credentials(values, origin, warnings)

    def get(key: str) -> Any:
        table, name = key.split(".")
        return values.get(key, _SCHEMA[table][name][1])

    def refuse(key: str, message: str) -> Any:
        """Raise ``message``, or for a value from a workspace file that is not trusted, warn and use the default."""
        if workspace is None or trusted or origin.get(key) != str(workspace):
            raise ConfigError(message)
        warnings.append(f"{message} (left out)")
        del values[key]
        origin.pop(key)
        return get(key)

    def choice(key: str, allowed: tuple[str, ...]) -> str:
        value = get(key)
        if value not in allowed:
            return refuse(key, f"{origin.get(key, 'default')}: {key} must be one of {', '.join(allowed)}, not {value!r}")
        return value

    def between(key: str, low: int, high: int) -> int:
        value = get(key)
        if not low <= value <= high:
            return refuse(key, f"{origin.get(key, 'default')}: {key} must be between {low} and {high:,}, not {value}")
        return value

    def model_names(key: str) -> tuple[str, ...]:
        """``[search] models`` checked against the known models (:data:`stores.local_models.LOCAL_MODELS`)."""
        try:
            names = parse_model_names(get(key)) if get(key) else ()
        except EmbedderError as exc:
            return tuple(refuse(key, f"{origin.get(key, 'default')}: {key}: {exc}"))
        if names and get("search.backend") != "embedded":  # Elasticsearch keeps one model's vectors only
            return tuple(refuse(key, f"{origin.get(key, 'default')}: {key}: an ensemble search needs the embedded "
                                     f"search index (search.backend = \"embedded\"), not {get('search.backend')}; "
                                     "take search.models out of the configuration"))
        return names

    graph = GraphConfig(
        backend=choice("graph.backend", GRAPH_BACKENDS), uri=get("graph.uri"), products=get("graph.products"),
        user=credentials.get("graph.user"), password=credentials.get("graph.password"), database=get("graph.database"),
        dialect=choice("graph.dialect", DIALECTS), max_concurrency=between("graph.max_concurrency", 1, MAX_CONCURRENCY),
        products_user=credentials.get("graph.products_user"),
        products_password=credentials.get("graph.products_password"),
    )
    search = SearchConfig(
        backend=choice("search.backend", SEARCH_BACKENDS), url=get("search.url"), api_key=credentials.get("search.api_key"),
        user=credentials.get("search.user"), password=credentials.get("search.password"),
        index_prefix=get("search.index_prefix"), replicas=between("search.replicas", 0, MAX_REPLICAS),
        ca_certs=get("search.ca_certs"), models=model_names("search.models"),
    )
    db: Path | None = None
    if values.get("embedded.db"):
        db = Path(values["embedded.db"]).expanduser()
        source = origin.get("embedded.db", "")
        if not db.is_absolute() and not source.startswith("$"):
            # A file's relative path is relative to its workspace (the folder holding .ripple/),
            # or to the file's own folder for a user or explicit file.
            base = Path(source).parent
            if workspace is not None and Path(source) == workspace:
                base = workspace.parent.parent
            db = base / db
    models_dir = Path(values["embedding.models_dir"]).expanduser() if values.get("embedding.models_dir") else None
    if models_dir is not None and not models_dir.is_absolute():
        raise ConfigError(f"{origin['embedding.models_dir']}: embedding.models_dir must be an absolute path, not "
                          f"{values['embedding.models_dir']!r}")
    ann_threshold = between("embedded.ann_threshold", 0, MAX_ANN_THRESHOLD)  # before the warnings are taken
    memory_budget = between("server.memory_budget", 0, MAX_SERVER_BUDGET_MIB)
    release_after = between("server.release_after", 0, MAX_RELEASE_AFTER_S)
    ann_params = AnnParams(**{name: between(f"embedded.ann_{name}", *PARAM_RANGES[name]) for name in PARAM_RANGES},
                           dtype=choice("embedded.ann_dtype", DTYPES))
    return Config(graph, search, db, get("embedding.model"), files, dict(origin), tuple(warnings), get("http.services"),
                  workspace, trusted, ignored, get("api.key"), get("server.index_workspace"),
                  ann_threshold=ann_threshold, doc_folders=get("docs.folders"), models_dir=models_dir,
                  ann_params=ann_params, memory_budget=memory_budget, release_after=release_after)


def doc_folders_of(root: Path) -> tuple[str, ...]:
    """``[docs] folders`` as the configuration seen from repository folder ``root`` says
    (:func:`load_config`; a run over several repositories, the language server and the REST ingest
    read each repository's own setting this way); ``()`` when that configuration cannot be read
    (logged, never raised: the code is indexed all the same)."""
    try:
        return load_config(root).doc_folders
    except ConfigError as exc:
        log.warning("configuration of %s unreadable (%s): no [docs] folders", root, exc)
        return ()


def doc_folder_paths(where: str, value: Any) -> tuple[str, ...]:
    """``[docs] folders`` checked: a list of repository-relative folder paths (POSIX, ``./`` and
    trailing ``/`` dropped), in order, without repeats. Raises :class:`ConfigError` naming ``where``
    for anything else: not a list of non-empty strings, an absolute or ``~`` path, a path that climbs
    out of the repository (``..``), a NUL character (in an untrusted workspace file: left out with a
    warning, like any bad key). Whether each folder exists inside the repository (and no link leads
    out of it) is checked when a repository is indexed (:func:`indexer.discovery.doc_folder_problem`:
    skipped and counted)."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f'{where} must be a list of folders of the repository (["wiki-export"]), not {value!r}')
    out: list[str] = []
    for v in value:
        text = v.strip().replace("\\", "/")
        if "\x00" in text:
            raise ConfigError(f"{where}: {v!r} holds a NUL character")
        if text.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", text):
            raise ConfigError(f"{where}: {v!r} is not inside the repository; name a folder relative to the "
                              "repository's root (a wiki export copied or checked out into it)")
        norm = posixpath.normpath(text)
        if norm == ".." or norm.startswith("../"):
            raise ConfigError(f"{where}: {v!r} leads out of the repository; only folders inside it are indexed")
        if norm == ".":
            raise ConfigError(f"{where}: {v!r} names the whole repository; name the documentation folder in it")
        if {".git", ".ripple"} & set(norm.split("/")):
            raise ConfigError(f"{where}: {v!r} is inside .git or .ripple, which hold no documentation")
        if norm not in out:
            out.append(norm)
    return tuple(out)


def trust_workspace(folder: Path, env: Mapping[str, str] | None = None, remove: bool = False) -> Path:
    """Add ``folder`` (made absolute and resolved) to ``[trust] workspaces`` of the user's configuration
    file, or take it out with ``remove``; the file (mode 0600) and its folder are created when
    missing, and everything else in it is kept as written (tomlkit). Returns the file. Raises
    :class:`ConfigError` when there is no user folder, or the file is not valid configuration or
    cannot be written."""
    import tomlkit  # only here: editing, unlike reading, must keep the user's comments and layout

    env = os.environ if env is None else env
    path = user_config_file(env)
    if path is None:
        raise ConfigError("no user configuration folder ($HOME or $XDG_CONFIG_HOME is not set)")
    entry = str(folder.expanduser().resolve())
    broad = None if remove else _too_broad_to_trust(folder, env)
    if broad:
        raise ConfigError(f"{entry} {broad}")
    text = ""
    if path.is_file():
        _flatten(path, _read(path))  # refuse to edit a file that is not valid configuration
        text = path.read_text(encoding="utf-8-sig")
    doc = tomlkit.parse(text)
    table = doc.get("trust")
    if table is None:
        table = tomlkit.table()
        doc["trust"] = table
    current = [str(v) for v in table.get("workspaces", [])]
    wanted = [v for v in current if str(Path(v).expanduser().resolve()) != entry] if remove else \
        current + ([entry] if entry not in current else [])
    if wanted != current or "workspaces" not in table:
        array = tomlkit.array()
        array.extend(wanted)
        array.multiline(len(wanted) > 1)
        table["workspaces"] = array
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(tomlkit.dumps(doc))
        if path.exists():
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        tmp.replace(path)
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path
