"""Configuration: which backends hold the graph and the chunks, where they run and how to reach them.

Sources, highest precedence first (each key comes from the first source that sets it; tables merge
key by key, so a workspace file that sets only ``[search] url`` keeps the user's ``api_key``):

1. environment variables (:data:`ENVIRONMENT`; an empty variable counts as unset);
2. ``$RIPPLE_CONFIG``: a TOML file named explicitly;
3. ``<workspace>/.ripple/config.toml``: the nearest such file in the workspace folder or a parent
   (found as the index is, like git finds ``.git``), unless another user owns it (ignored with a
   warning, as git's ``safe.directory``: name it with ``$RIPPLE_CONFIG`` to use it);
4. ``$XDG_CONFIG_HOME/ripple/config.toml`` (default ``~/.config/ripple/config.toml``): the user's
   defaults;
5. built-in defaults: the embedded store for both graph and search (one SQLite file per workspace).

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

    [embedded]
    db = ".ripple/index.db"           # the embedded index file (relative to the workspace)

    [embedding]
    model = "BAAI/bge-small-en-v1.5"  # a 384-d fastembed model in the local cache; default: bundled

    [http.services]                   # HTTP client URL prefix / host -> service (repository) name
    "http://localhost:8081" = "customers-service"
    "/api/customer" = "customers-service"   # a gateway prefix, cut off before matching paths

The file is TOML in UTF-8 (a byte-order mark is ignored), at most 1 MiB. An unknown table or key, a
value of the wrong type, an empty string, a number out of range or an unknown backend raises
:class:`ConfigError` naming the file (or variable) and the key: a typo never silently falls back to a
default. A file holding a password that other users can read adds a warning (``ripple doctor`` shows
it).
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stores.errors import StoreError

__all__ = [
    "ConfigError",
    "GraphConfig",
    "SearchConfig",
    "Config",
    "ENVIRONMENT",
    "CONFIG_ENV",
    "GRAPH_BACKENDS",
    "SEARCH_BACKENDS",
    "load_config",
    "find_workspace_file",
    "user_config_file",
]

CONFIG_ENV = "RIPPLE_CONFIG"
"""Environment variable naming a configuration file (above the workspace and user files)."""
GRAPH_BACKENDS = ("embedded", "memgraph")
SEARCH_BACKENDS = ("embedded", "elasticsearch")
DIALECTS = ("memgraph", "neo4j", "auto")
MAX_CONCURRENCY = 1024
"""Most Bolt requests in flight (each may hold a thread and a connection)."""
MAX_REPLICAS = 100
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
    "RIPPLE_EMBEDDING_MODEL": "embedding.model",
}
"""Environment variable -> configuration key."""

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
        "ca_certs": (str, None),
    },
    "embedded": {"db": (str, None)},
    "embedding": {"model": (str, None)},
    "http": {"services": (dict, {})},
}
_SECRETS = {"graph.password", "search.password", "search.api_key"}


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

    def uri_for(self, product: str | None) -> str:
        """The Bolt URI of ``product``'s graph: its ``[graph.products]`` entry, else ``uri``."""
        if product is not None and product in self.products:
            return self.products[product]
        return self.uri


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


@dataclass(frozen=True, slots=True)
class Config:
    """The merged configuration. ``db`` is the embedded index file when one is configured (``None``:
    the default, ``<workspace>/.ripple/index.db``, found as ``ripple`` finds it); ``embedding_model``
    a fastembed model name (``None``: the bundled model); ``http_services`` the ``[http.services]``
    map (client URL prefix or host -> service name, also the service name -> repository map of
    blast-radius reports). ``files`` are the configuration files read,
    highest precedence first; ``origin`` maps every key that is not a default (``"search.url"``) to
    where it came from (a file path, or ``$RIPPLE_ES_URL``); ``warnings`` say what is risky."""

    graph: GraphConfig = field(default_factory=GraphConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    db: Path | None = None
    embedding_model: str | None = None
    files: tuple[Path, ...] = ()
    origin: Mapping[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    http_services: Mapping[str, str] = field(default_factory=dict)

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


def _flatten(path: Path, data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"table.key": value}`` of a parsed file, every key and type checked against the schema."""
    flat: dict[str, Any] = {}
    for table, values in data.items():
        if table not in _SCHEMA:
            raise ConfigError(f"{path}: unknown table [{table}]; known tables: {', '.join(f'[{t}]' for t in _SCHEMA)}")
        if not isinstance(values, Mapping):
            raise ConfigError(f"{path}: {table} must be a table ([{table}]), not a {type(values).__name__}")
        for key, value in values.items():
            if key not in _SCHEMA[table]:
                raise ConfigError(f"{path}: unknown key {key!r} in [{table}]; known keys: {', '.join(_SCHEMA[table])}")
            flat[f"{table}.{key}"] = _checked(f"{path}: {table}.{key}", _SCHEMA[table][key][0], value)
    return flat


_TABLE_EXAMPLES = {"graph.products": 'product = "bolt://host:7687"',
                   "http.services": '"http://localhost:8081" = "customers-service"'}


def _checked(where: str, kind: type, value: Any) -> Any:
    key = where.rsplit(": ", 1)[-1]
    if kind is dict:
        if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
            raise ConfigError(f"{where} must be a table of strings ({_TABLE_EXAMPLES[key]})")
        return dict(value)
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
        if _SCHEMA[table][name][0] is int:
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


def load_config(start: Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """The configuration seen from the folder ``start`` (default: the current folder) under the
    environment ``env`` (default: ``os.environ``): sources merged by the precedence of the module
    docstring. Raises :class:`ConfigError`."""
    env = os.environ if env is None else env
    start = Path.cwd() if start is None else start
    files: list[Path] = []
    if env.get(CONFIG_ENV):
        # Absolute, so that a relative [embedded] db in it stays where it was when the process changes folder.
        explicit = Path(env[CONFIG_ENV]).expanduser().absolute()
        if not explicit.is_file():
            raise ConfigError(f"${CONFIG_ENV} names {explicit}, which is not a file; fix the variable or unset it")
        files.append(explicit)
    warnings: list[str] = []
    workspace = find_workspace_file(start)
    if workspace is not None and not _owned_by_us(workspace):
        # As git's safe.directory: a file another user could plant above the workspace (/tmp/.ripple)
        # would otherwise send this user's source and credentials to a server of their choosing.
        warnings.append(f"{workspace} is ignored: it belongs to another user; name it with ${CONFIG_ENV} "
                        "to use it anyway")
        workspace = None
    if workspace is not None:
        files.append(workspace)
    user = user_config_file(env)
    if user is not None and user.is_file():
        files.append(user)

    values, origin = _from_env(env)
    for path in files:  # highest precedence first: keep what is already set
        flat = _flatten(path, _read(path))
        for key, value in flat.items():
            if key not in values:
                values[key] = value
                origin[key] = str(path)
        secrets = sorted(k for k in flat if k in _SECRETS)
        if secrets and _readable_by_others(path):
            warnings.append(f"{path} holds {', '.join(secrets)} and other users can read it; run chmod 600 {path}")
    return _build(values, origin, tuple(files), tuple(warnings), workspace)


def _build(values: Mapping[str, Any], origin: Mapping[str, str], files: tuple[Path, ...], warnings: tuple[str, ...],
           workspace: Path | None) -> Config:
    def get(key: str) -> Any:
        table, name = key.split(".")
        return values.get(key, _SCHEMA[table][name][1])

    def choice(key: str, allowed: tuple[str, ...]) -> str:
        value = get(key)
        if value not in allowed:
            raise ConfigError(f"{origin.get(key, 'default')}: {key} must be one of {', '.join(allowed)}, not {value!r}")
        return value

    def between(key: str, low: int, high: int) -> int:
        value = get(key)
        if not low <= value <= high:
            raise ConfigError(f"{origin.get(key, 'default')}: {key} must be between {low} and {high:,}, not {value}")
        return value

    graph = GraphConfig(
        backend=choice("graph.backend", GRAPH_BACKENDS), uri=get("graph.uri"), products=get("graph.products"),
        user=get("graph.user"), password=get("graph.password"), database=get("graph.database"),
        dialect=choice("graph.dialect", DIALECTS), max_concurrency=between("graph.max_concurrency", 1, MAX_CONCURRENCY),
    )
    search = SearchConfig(
        backend=choice("search.backend", SEARCH_BACKENDS), url=get("search.url"), api_key=get("search.api_key"),
        user=get("search.user"), password=get("search.password"), index_prefix=get("search.index_prefix"),
        replicas=between("search.replicas", 0, MAX_REPLICAS), ca_certs=get("search.ca_certs"),
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
    return Config(graph, search, db, get("embedding.model"), files, dict(origin), warnings, get("http.services"))
