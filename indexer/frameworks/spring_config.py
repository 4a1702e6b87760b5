"""Spring configuration: flat properties from ``application*.yml`` / ``.properties``, and ``${...}``
placeholders resolved against them. The linker (:mod:`indexer.frameworks.link`) fills URLs and topics
with these; nothing here is a detector.

:func:`load_properties` reads every ``application*.yml`` / ``.yaml`` / ``.properties`` and
``bootstrap*`` file under a repository (not under build output, VCS or virtualenv folders:
:data:`SKIP_DIRS`) into one ``{dotted.key: value}`` map: YAML through PyYAML (nested maps joined with
``.``, lists as ``key[0]``, booleans ``true`` / ``false``, null ``""``, timestamps kept as written,
as Spring Boot reads them), ``.properties`` through ``javaproperties`` (the full
``java.util.Properties`` syntax). Multi-document files (YAML ``---``, properties ``#---`` / ``!---``)
are read document by document.

Which value wins when several documents set a key (the profiles active at run time are not known):

1. default documents of ``application*`` files;
2. default documents of ``bootstrap*`` files (Spring Cloud's bootstrap context ranks below);
3. profile-specific documents: a file ``application-<profile>.*`` / ``bootstrap-<profile>.*`` or a
   document setting ``spring.config.activate.on-profile`` / ``spring.profiles``: they only fill keys
   no default document sets;
4. anything under a ``test`` / ``tests`` directory (test resources), last.

Within one rank a later file in path order wins, ``.properties`` over ``.yml`` in the same folder
(as Spring has it), a later document of a file over an earlier one. A file that cannot be read or
parsed is skipped (what parsed before a YAML error is kept).

:func:`resolve_placeholders` replaces ``${a.b}`` and ``${a.b:default}`` as Spring's
``PropertyPlaceholderHelper`` does: nested placeholders in keys and defaults, values resolved
recursively, a cycle or an unknown key without default left as written.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Collection, Iterator, Mapping
from itertools import islice
from pathlib import Path

import javaproperties
import yaml

from indexer.fsguard import SkipFile, inside_root, read_inside
from stores.gateway import PATH_FILTERS, GatewayRoute, count

__all__ = [
    "CONFIG_SUFFIXES", "SKIP_DIRS", "config_files", "is_served_config", "load_properties", "load_module_properties",
    "resolve_placeholders", "gateway_routes", "gateway_route_list", "discovery_routes", "spel_concat",
]

log = logging.getLogger(__name__)
_WARNED: set[tuple[str, str]] = set()

CONFIG_SUFFIXES = (".yml", ".yaml", ".properties")
SKIP_DIRS = frozenset({"build", "target", "node_modules", ".git", ".gradle", ".venv", "venv", ".tox", "__pycache__"})
MAX_FILE_BYTES = 2_000_000
MAX_KEYS = 50_000  # per document: bounds alias expansion ("billion laughs")
MAX_NODES = 200_000  # per document: nodes visited while flattening, keys written or not
MAX_KEY_CHARS = 1_000  # the longest flat key kept: a key spells its parents (aliased long keys: N squared)
MAX_DEPTH = 32  # placeholder nesting followed
MAX_RESOLVED = 10_000  # characters a resolved text may grow to (``a: ${b}${b}``, ``b: ${c}${c}``, ...)
MAX_STEPS = 10_000  # placeholders one resolution looks at (``a: ${b:${b}}``, ``b: ${c:${c}}``, ...)
_PROFILE_KEYS = ("spring.config.activate.on-profile", "spring.profiles")
_PROPS_SEPARATOR = re.compile(r"^[#!]---[ \t]*$", re.M)
_TEST_DIRS = frozenset({"test", "tests"})


class _Loader(yaml.SafeLoader):
    """Safe YAML without the timestamp resolver: ``2024-01-01`` stays the text Spring sees."""


_Loader.yaml_implicit_resolvers = {
    first: [r for r in resolvers if r[0] != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_FastLoader: type | None = None
if hasattr(yaml, "CSafeLoader"):  # libyaml's parser, the same safe constructor and resolvers

    class _FastLoader(yaml.CSafeLoader):  # type: ignore[no-redef]
        """:class:`_Loader` on libyaml's parser (about ten times faster)."""

    _FastLoader.yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers


def config_files(repo_root: Path, exclude: Collection[Path] = ()) -> list[Path]:
    """The Spring configuration files under ``repo_root`` (sorted; build output and VCS folders
    skipped, and the folders ``exclude`` names; a file that is a symbolic link out of the root is
    left out, as discovery leaves it out: :func:`indexer.fsguard.inside_root`)."""
    found: list[Path] = []
    skip = {Path(p) for p in exclude}
    real_root = os.path.realpath(repo_root)
    for folder, dirs, files in os.walk(repo_root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and Path(folder) / d not in skip)
        for name in files:
            if name.startswith(("application", "bootstrap")) and name.endswith(CONFIG_SUFFIXES):
                path = Path(folder) / name
                if inside_root(real_root, path):
                    found.append(path)
    return sorted(found)


def _scalar(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _flatten(value: object, prefix: str, out: dict[str, str]) -> None:
    """Spring's flat keys of a YAML document (``a.b[0].c``) into ``out``: at most :data:`MAX_KEYS`
    keys, and at most :data:`MAX_NODES` nodes visited, so that aliases of empty lists or maps (which
    write no key) cannot make the walk exponential ("billion laughs" of ``[[],[],...]``); a key longer than
    :data:`MAX_KEY_CHARS` is not written nor walked below (each key spells its parents' names: a 20 KB key aliased
    as the key of 60 nested maps made 720 MB of keys from a 21 KB file)."""
    stack: list[tuple[object, str]] = [(value, prefix)]
    visits = 0
    while stack and len(out) < MAX_KEYS and visits < MAX_NODES:
        value, prefix = stack.pop()
        visits += 1
        if len(prefix) > MAX_KEY_CHARS:
            continue
        room = MAX_NODES - visits - len(stack)  # children beyond it could never be visited
        if isinstance(value, dict):
            items = [(v, _child_key(prefix, _scalar(k))) for k, v in islice(value.items(), max(room, 0))]
            stack.extend(reversed(items))  # document order: the first key is written first
        elif isinstance(value, list):
            stack.extend(reversed([(v, f"{prefix}[{i}]") for i, v in islice(enumerate(value), max(room, 0))]))
        elif prefix:
            out[prefix] = _scalar(value)


def _child_key(prefix: str, key: str) -> str:
    return key if not prefix else (prefix + key if key.startswith("[") else f"{prefix}.{key}")


def _yaml_documents(text: str) -> Iterator[dict[str, str]]:
    try:
        loader = _FastLoader or _Loader
        for doc in yaml.load_all(text, Loader=loader):  # noqa: S506 - SafeLoader / CSafeLoader subclasses
            if isinstance(doc, dict):
                flat: dict[str, str] = {}
                _flatten(doc, "", flat)
                yield flat
    except (yaml.YAMLError, ValueError, RecursionError):
        return


def _properties_documents(text: str) -> Iterator[dict[str, str]]:
    for chunk in _PROPS_SEPARATOR.split(text):
        try:
            yield dict(javaproperties.loads(chunk))
        except (ValueError, javaproperties.InvalidUEscapeError):
            continue


def _documents(path: Path, root: str) -> list[dict[str, str]]:
    def warn_once(skip: SkipFile) -> None:
        if skip.reason != "unreadable" and (str(path), skip.reason) not in _WARNED:
            _WARNED.add((str(path), skip.reason))  # configuration is read several times per run
            log.warning("%s ignored: %s", path, skip)

    # A FIFO or /dev/zero is never read, nor a link swapped to lead out of the root since it was listed.
    data = read_inside(path, MAX_FILE_BYTES, root, on_skip=warn_once)
    if data is None:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if path.suffix == ".properties":
        return list(_properties_documents(text))
    return list(_yaml_documents(text))


def load_properties(repo_root: Path, exclude: Collection[Path] = ()) -> dict[str, str]:
    """The repository's Spring configuration as one flat ``{dotted.key: value}`` map (precedence rules
    in the module docstring), leaving out the folders ``exclude`` names (other modules). Never raises
    on unreadable or malformed files."""
    root = Path(repo_root)
    real_root = os.path.realpath(root)
    ranked: list[tuple[tuple[int, str, int, str, int], dict[str, str]]] = []
    for path in config_files(root, exclude):
        stem = path.name.rsplit(".", 1)[0]
        named_profile = "-" in stem
        under_test = any(part in _TEST_DIRS for part in path.relative_to(root).parts[:-1])
        ext_rank = 1 if path.suffix == ".properties" else 0
        for index, doc in enumerate(_documents(path, real_root)):
            if under_test:
                rank = 4
            elif named_profile or any(k in doc for k in _PROFILE_KEYS):
                rank = 3
            else:
                rank = 1 if stem.startswith("application") else 2
            ranked.append(((-rank, str(path.parent), ext_rank, path.name, index), doc))
    props: dict[str, str] = {}
    for _, doc in sorted(ranked, key=lambda r: r[0]):
        props.update(doc)
    return props


def load_module_properties(repo_root: Path) -> dict[str, dict[str, str]]:
    """Per module of a multi-module repository (several services in one tree), that module's
    configuration: ``{module_dir: properties}`` with ``module_dir`` repository-relative and POSIX
    (``""`` for the root). A module's folder is the one holding ``src/main/resources`` (Maven /
    Gradle layout) or, failing that, the folder of the configuration file (the one above it for a
    ``config`` folder, which Spring Boot reads as the application's own). Each map is
    :func:`load_properties` of that folder without the modules nested in it (a root module's
    configuration is not that of the services below it). A module that takes its configuration from
    a Spring Cloud Config Server of the repository (a ``spring.cloud.config.*`` client key or
    ``spring.config.import=configserver:``, and a ``spring.application.name``) gets, over its own,
    what the server's ``native`` search locations serve it (:func:`_served_properties`: piggymetrics'
    ``config/src/main/resources/shared/account-service.yml`` sets ``server.servlet.context-path:
    /accounts`` for ``account-service``). Never raises on unreadable or malformed files."""
    root = Path(repo_root)
    modules: set[str] = set()
    for path in config_files(root):
        rel = path.relative_to(root).as_posix()
        head, sep, _ = rel.partition("src/main/resources/")
        if sep:
            modules.add(head.rstrip("/"))
        elif not any(part in _TEST_DIRS for part in path.relative_to(root).parts[:-1]):
            folder = path.parent
            if folder.name == "config" and folder != root:  # ./config/application.yml: Spring reads it too
                folder = folder.parent
            modules.add(folder.relative_to(root).as_posix().removeprefix("."))
    out: dict[str, dict[str, str]] = {}
    for m in sorted(modules):
        nested = [root / n for n in modules if n != m and (not m or n.startswith(m + "/"))]
        out[m] = load_properties(root / m if m else root, nested)
    locations = [(m, loc) for m, props in sorted(out.items()) for loc in _search_locations(root, m, props)]
    if locations:
        read: dict[Path, list[dict[str, str]]] = {}  # each served file parsed once, whatever the clients
        for m, props in out.items():
            app = props.get("spring.application.name", "")
            if app and _config_client(props) and all(m != server for server, _ in locations):
                served = _served_properties(root, [loc for _, loc in locations], app, read)
                if served:
                    out[m] = {**props, **served}
    return out


def is_served_config(rel: str) -> bool:
    """Whether the repository-relative ``rel`` may be a file a Spring Cloud Config Server of the
    repository serves (:func:`load_module_properties`): a ``.yml`` / ``.yaml`` / ``.properties`` file
    under a module's resources (``config/src/main/resources/shared/account-service.yml``), whatever
    its name. A watcher re-reads the configuration when one changes."""
    return rel.endswith(CONFIG_SUFFIXES) and "/resources/" in "/" + rel


_NATIVE_DEFAULTS = "classpath:/,classpath:/config,file:./,file:./config"
"""Spring Cloud Config Server's default ``spring.cloud.config.server.native.search-locations``."""


def _search_locations(root: Path, module: str, props: Mapping[str, str]) -> list[str]:
    """The folders (repository-relative, POSIX, may hold ``{application}``) a Spring Cloud Config
    Server module serves from its ``native`` backend: ``spring.cloud.config.server.native.search-locations``
    (comma separated; Spring's defaults when the ``native`` profile is active without it), a
    ``classpath:`` location under the module's ``src/main/resources``, a relative ``file:`` one under
    the module's folder. Absolute ``file:`` locations and those with ``{profile}`` / ``{label}`` are
    left out (outside the repository, or chosen at run time)."""
    written = props.get("spring.cloud.config.server.native.search-locations", "")
    if not written:
        active = {p.strip() for p in props.get("spring.profiles.active", "").split(",")}
        if "native" not in active or not any(k.startswith("spring.cloud.config.server.") for k in props):
            return []
        written = _NATIVE_DEFAULTS
    base = Path(module) if module else Path()
    out: list[str] = []
    for loc in (p.strip() for p in written.split(",")):
        if "{profile}" in loc or "{label}" in loc or "${" in loc:
            continue
        if loc.startswith("classpath:"):
            rel = base / "src/main/resources" / loc.removeprefix("classpath:").lstrip("/")
        elif loc.startswith("file:") and not loc.removeprefix("file:").startswith("/"):
            rel = base / loc.removeprefix("file:")
        else:
            continue
        folder = os.path.normpath(rel.as_posix())
        if folder == ".." or folder.startswith("../") or not (root / folder.replace("{application}", "")).resolve().is_relative_to(root.resolve()):
            continue
        out.append("" if folder == "." else folder)
    return out


def _config_client(props: Mapping[str, str]) -> bool:
    """Whether an application's configuration says it takes its configuration from a config server
    (``spring.cloud.config.uri`` or any other client key; ``spring.config.import`` of ``configserver:``)."""
    if "configserver:" in props.get("spring.config.import", ""):
        return True
    return any(k.startswith("spring.cloud.config.") and not k.startswith("spring.cloud.config.server.")
               for k in props)


def _served_properties(root: Path, locations: list[str], app: str,
                       read: dict[Path, list[dict[str, str]]] | None = None) -> dict[str, str]:
    """What the config servers' ``locations`` serve the application ``app``: its files ``<app>.*`` over
    the shared ``application.*``, each of a profile (``<app>-<profile>.*``, ``application-<profile>.*``)
    only filling keys no default file sets, as :func:`load_properties` ranks them. ``{}`` when none.
    ``read``: the documents of the files parsed already (by path), filled in: a shared ``application.yml``
    is parsed once for all the clients (60 services and a 1.7 MB shared file took 130 s, 2 s a client).
    An application name leading out of the location (``{application}`` given ``../../x``) serves nothing."""
    real_root = os.path.realpath(root)
    ranked: list[tuple[tuple[int, int, str, int], dict[str, str]]] = []
    memo: dict[Path, list[dict[str, str]]] = {} if read is None else read
    for loc in locations:
        if "{application}" in loc and (app in (".", "..") or "/" in app or "\\" in app):
            continue
        folder = root / loc.replace("{application}", app)
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            stem, _, suffix = name.rpartition(".")
            if "." + suffix not in CONFIG_SUFFIXES:
                continue
            if stem not in (app, "application") and not stem.startswith((app + "-", "application-")):
                continue
            path = folder / name
            if path not in memo:
                memo[path] = _documents(path, real_root)
            for index, doc in enumerate(memo[path]):
                if stem in (app, "application"):
                    rank = 3 if any(k in doc for k in _PROFILE_KEYS) else (1 if stem == app else 2)
                elif stem.startswith((app + "-", "application-")):
                    rank = 4
                else:
                    continue
                ranked.append(((-rank, 1 if suffix == "properties" else 0, name, index), doc))
    props: dict[str, str] = {}
    for _, doc in sorted(ranked, key=lambda r: r[0]):
        props.update(doc)
    return props


_GATEWAY_ROUTE = re.compile(r"^spring\.cloud\.gateway(?:\.server\.(?:webflux|webmvc))?\.routes\[([0-9]{1,9})\]\.(.+)$")


def gateway_routes(props: Mapping[str, str]) -> dict[str, str]:
    """Spring Cloud Gateway routes of one application's configuration as a service map for HTTP
    linking: ``{"/api/customer": "customers-service"}`` for a route with ``uri: lb://customers-service``,
    ``predicates: [Path=/api/customer/**]`` and ``filters: [StripPrefix=2]``.

    Only routes whose ``StripPrefix`` removes exactly the path predicate's fixed prefix are kept (the
    map's contract is "cut this prefix off, the rest is the service's path"); routes with other
    filters (``RewritePath``, no strip) are left out. Shortcut (``Path=...``) and fully expanded
    (``name: Path`` + ``args``) forms are both read."""
    routes: dict[str, dict[str, str]] = {}
    for key, value in props.items():
        m = _GATEWAY_ROUTE.match(key) if key.startswith("spring.cloud.gateway") else None
        if m:
            routes.setdefault(m.group(1), {})[m.group(2)] = value
    out: dict[str, str] = {}
    for route in routes.values():
        uri = route.get("uri", "")
        service = uri.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0] if "://" in uri else ""
        paths = [v.split("=", 1)[1] for k, v in route.items() if k.startswith("predicates[") and v.startswith("Path=")]
        paths += [v for k, v in route.items() if k.startswith("predicates[") and ".args." in k
                  and route.get(k.split(".args.", 1)[0] + ".name") == "Path"]
        strips = [v.split("=", 1)[1] for k, v in route.items() if k.startswith("filters[") and v.startswith("StripPrefix=")]
        for pattern in (p.strip() for ps in paths for p in ps.split(",")):
            prefix = pattern.removesuffix("/**").rstrip("/")
            if not service or not prefix or "*" in prefix or "{" in prefix:
                continue
            segments = len([seg for seg in prefix.split("/") if seg])
            if strips and count(strips[0]) == segments:
                out[prefix] = service
    return out


_ARG_NAMES = {"StripPrefix": ("parts",), "PrefixPath": ("prefix",), "RewritePath": ("regexp", "replacement"),
              "SetPath": ("template",), "Path": ("patterns", "pattern"), "Method": ("methods",)}
"""The ``args`` keys of a fully expanded predicate or filter (``name: RewritePath`` + ``args.regexp``), in
the order of the shortcut form's arguments (``RewritePath=regexp, replacement``)."""


def _route_items(route: Mapping[str, str], kind: str) -> list[tuple[str, list[str]]]:
    """The ``predicates`` or ``filters`` of one route as ``(name, args)``, in order: the shortcut form
    (``StripPrefix=2``, ``RewritePath=/a/(?<s>.*), /$\\{s}``: arguments split at commas, a
    ``RewritePath``'s at its last) and the expanded form (``name:`` + ``args:``)."""
    items: dict[int, tuple[str, list[str]]] = {}
    for key, value in route.items():
        m = re.match(rf"^{kind}\[([0-9]{{1,9}})\](?:\.(.+))?$", key)
        if m is None:
            continue
        i, rest = int(m.group(1)), m.group(2)
        if rest is None and "=" in value:
            name, _, text = value.partition("=")
            name = name.strip()
            args = text.rsplit(",", 1) if name == "RewritePath" else text.split(",")
            items[i] = (name, [a.strip() for a in args])
        elif rest == "name":
            keys = _ARG_NAMES.get(value.strip(), ())
            prefix = f"{kind}[{i}].args."
            args = [route[prefix + k] for k in keys if prefix + k in route]
            listed = sorted((k for k in route if k.startswith(prefix) and "[" in k[len(prefix):]),
                            key=lambda k: count(re.sub(r"[^0-9]", "", k[len(prefix):])) or 0)
            items[i] = (value.strip(), args or [route[k] for k in listed])
    return [items[i] for i in sorted(items)]


_DEFAULT_FILTERS = re.compile(r"^spring\.cloud\.gateway(?:\.server\.(?:webflux|webmvc))?\.default-filters(\[\d+\](?:\..+)?)$")


def gateway_route_list(props: Mapping[str, str]) -> list[GatewayRoute]:
    """Spring Cloud Gateway routes of one application's configuration
    (``spring.cloud.gateway[.server.webflux|.webmvc].routes``), in order, as
    :class:`~stores.gateway.GatewayRoute` s: the ``uri``'s host as the service (``lb://customers-service``,
    ``http://visits:8080``; a route whose ``uri`` names no host, ``forward:/x``, is left out), its ``Path``
    and ``Method`` predicates and its path-changing filters (:data:`~stores.gateway.PATH_FILTERS`). The
    ``default-filters`` apply to every route: the gateway orders each route's filters by their position
    in their list, a default filter before a route's own of the same position (Spring Cloud Gateway's
    ``RouteDefinitionRouteLocator``: both lists are numbered from 1 and sorted stably, defaults first)."""
    routes: dict[int, dict[str, str]] = {}
    for key, value in props.items():
        m = _GATEWAY_ROUTE.match(key) if key.startswith("spring.cloud.gateway") else None
        if m:
            routes.setdefault(int(m.group(1)), {})[m.group(2)] = value
    defaults = _route_items({"filters" + m.group(1): v for k, v in props.items()
                             if k.startswith("spring.cloud.gateway") and (m := _DEFAULT_FILTERS.match(k))}, "filters")
    out: list[GatewayRoute] = []
    for i in sorted(routes):
        route = routes[i]
        uri = route.get("uri", "")
        service = uri.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0] if "://" in uri else ""
        if not service or "$" in service:
            continue
        predicates = _route_items(route, "predicates")
        paths = tuple(p for name, args in predicates if name == "Path" for p in args if p)
        methods = tuple(m.upper() for name, args in predicates if name == "Method" for m in args if m)
        own = _route_items(route, "filters")
        merged = sorted([(i, 0, item) for i, item in enumerate(defaults)] + [(i, 1, item) for i, item in enumerate(own)],
                        key=lambda t: t[:2])
        filters = tuple((name, *args) for _, _, (name, args) in merged if name in PATH_FILTERS)
        out.append(GatewayRoute(service, paths, methods, filters))
    return out


def _closing(text: str, start: int) -> int:
    """Index of the ``}`` closing the ``${`` at ``start`` (nested ``${...}`` and ``{...}`` counted), or -1."""
    depth = 0
    i = start + 2
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return -1


class _TooLong(Exception):
    """A resolution that grows past :data:`MAX_RESOLVED` characters or :data:`MAX_STEPS` placeholders."""


def _resolve(text: str, props: Mapping[str, str], active: frozenset[str], depth: int, steps: list[int]) -> str:
    if "${" not in text or depth > MAX_DEPTH:
        return text
    size = 0
    out: list[str] = []
    pos = 0
    while True:
        start = text.find("${", pos)
        if start < 0:
            break
        end = _closing(text, start)
        if end < 0:
            break
        out.append(text[pos:start])
        raw = text[start : end + 1]
        steps[0] += 1
        if steps[0] > MAX_STEPS:
            raise _TooLong
        inner = _resolve(text[start + 2 : end], props, active, depth + 1, steps)
        key, value = inner, props.get(inner)
        if value is None and ":" in inner:
            key, default = inner.split(":", 1)
            value = props.get(key, default)
        piece = raw if value is None or key in active else _resolve(value, props, active | {key}, depth + 1, steps)
        size += (start - pos) + len(piece)
        if size > MAX_RESOLVED:
            raise _TooLong
        out.append(piece)
        pos = end + 1
    out.append(text[pos:])
    return "".join(out)


def resolve_placeholders(text: str, props: Mapping[str, str]) -> str:
    """``text`` with its ``${key}`` / ``${key:default}`` placeholders replaced from ``props``.

    Placeholders nest (``${a:${b}}``, ``${${env}.url}``); a value is itself resolved; a placeholder
    whose key is unknown and has no default, or that refers back to itself, stays as written. So does
    the whole text when resolving it would make it longer than :data:`MAX_RESOLVED` characters or
    take more than :data:`MAX_STEPS` placeholders (values or defaults that double at each level).

    >>> resolve_placeholders("http://${host:localhost}:${port}/x", {"port": "8080"})
    'http://localhost:8080/x'
    """
    try:
        return _resolve(text, props, frozenset(), 0, [0])
    except _TooLong:
        return text


_LOCATOR = re.compile(r"^spring\.cloud\.gateway(?:\.server\.(?:webflux|webmvc))?\.discovery\.locator\.(.+)$")
_SPEL_TOKEN = re.compile(r"\s*(?:'((?:[^']|'')*)'|(serviceId)(\.toLowerCase\(\)|\.toUpperCase\(\))?|([0-9]{1,9})|(\+))")
_LOCATOR_PREDICATE = ("Path", ["'/'+serviceId+'/**'"])
_LOCATOR_FILTER = ("RewritePath", ["'/' + serviceId + '/?(?<remaining>.*)'", "'/${remaining}'"])
"""The discovery locator's route when none is configured (Spring Cloud Gateway's
``GatewayDiscoveryClientAutoConfiguration.initPredicates`` / ``initFilters``)."""


def spel_concat(expr: str, service_id: str) -> str | None:
    """The value of a discovery locator's SpEL argument (``"'/services/'+serviceId.toLowerCase()+'/**'"``):
    quoted literals (``''`` an escaped quote), integers and ``serviceId`` (optionally ``.toLowerCase()`` /
    ``.toUpperCase()``) joined by ``+``; ``None`` for any other expression (a method of another object, a
    conditional: not evaluated)."""
    out: list[str] = []
    pos, want_value = 0, True
    text = expr.strip()
    while pos < len(text):
        m = _SPEL_TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            return None
        pos = m.end()
        if m.group(5):
            if want_value:
                return None
            want_value = True
            continue
        if not want_value:
            return None
        want_value = False
        if m.group(1) is not None:
            out.append(m.group(1).replace("''", "'"))
        elif m.group(2):
            case = m.group(3) or ""
            out.append(service_id.lower() if case.startswith(".toLower") else
                       service_id.upper() if case.startswith(".toUpper") else service_id)
        else:
            out.append(m.group(4))
    return None if want_value else "".join(out)


def discovery_routes(props: Mapping[str, str], services: Mapping[str, str]) -> list[GatewayRoute]:
    """The routes a gateway's discovery locator makes (``spring.cloud.gateway[.server.webflux|.webmvc].discovery.
    locator.enabled: true``): one per registered service, ``services`` mapping each service's name (the
    :class:`~stores.gateway.GatewayRoute` ``service``: its ``spring.application.name``) to its id in the
    registry (Consul's ``service-name``, Eureka's ``appname``, else that name). The id is lower-cased with
    ``lower-case-service-id: true``; otherwise it is taken as written and, when the gateway is a Eureka client
    (an ``eureka.*`` key), also upper-cased (Eureka registers applications upper case), two routes.
    ``predicates`` / ``filters`` configured under the locator replace the default ``Path='/'+serviceId+'/**'``
    and ``RewritePath='/'+serviceId+'/?(?<remaining>.*)', '/${remaining}'``; their arguments are SpEL,
    evaluated by :func:`spel_concat` (a route with an argument it cannot evaluate is left out). The
    ``default-filters`` apply as to configured routes (:func:`gateway_route_list`). Not read:
    ``include-expression`` (every service is taken), ``url-expression``. Empty when the locator is off."""
    locator = {m.group(1): v for k, v in props.items() if k.startswith("spring.cloud.gateway") and (m := _LOCATOR.match(k))}
    if locator.get("enabled", "").strip().lower() != "true" or not services:
        return []
    lower = locator.get("lower-case-service-id", "").strip().lower() == "true"
    eureka = any(k.startswith("eureka.") for k in props)
    predicates = _route_items(locator, "predicates") or [_LOCATOR_PREDICATE]
    own = _route_items(locator, "filters") or [_LOCATOR_FILTER]
    defaults = _route_items({"filters" + m.group(1): v for k, v in props.items()
                             if k.startswith("spring.cloud.gateway") and (m := _DEFAULT_FILTERS.match(k))}, "filters")
    merged = [item for _, _, item in sorted([(i, 0, x) for i, x in enumerate(defaults)] + [(i, 1, x) for i, x in enumerate(own)],
                                            key=lambda t: t[:2])]
    out: list[GatewayRoute] = []
    for service in sorted(services):
        sid = services[service]
        ids = [sid.lower()] if lower else list(dict.fromkeys([sid, sid.upper()] if eureka else [sid]))
        for one in ids:
            paths = [spel_concat(p, one) for name, args in predicates if name == "Path" for p in args if p]
            methods = [spel_concat(m, one) for name, args in predicates if name == "Method" for m in args if m]
            filters: list[tuple[str, ...]] = []
            for name, args in merged:
                if name not in PATH_FILTERS:
                    continue
                values = [spel_concat(a, one) for a in args] if (name, args) in own else args
                if any(v is None for v in values):
                    break
                filters.append((name, *values))  # type: ignore[arg-type]
            else:
                if paths and None not in paths and None not in methods:
                    out.append(GatewayRoute(service, tuple(paths), tuple(m.upper() for m in methods), tuple(filters)))  # type: ignore[union-attr]
    return out
