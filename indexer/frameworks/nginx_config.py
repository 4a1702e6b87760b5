"""nginx as an API gateway: the ``location`` blocks of a repository's nginx configuration as
:class:`~stores.gateway.GatewayRoute` s, so that a front end's relative URL (``/api/cart/add/1``) that
nginx forwards (``location /api/cart/ { proxy_pass http://cart:8080/; }``) links to the handler of
the service it reaches (``GET /add/{}`` of ``cart``).

Files read: ``nginx.conf``, ``*.conf`` and ``*.conf.template`` in the folders
:func:`indexer.frameworks.services.walk_folders` walks, each regular, inside the root and at most
:data:`MAX_FILE_BYTES` (:func:`indexer.fsguard.read_regular`), without NUL bytes, parsed by nginx's own
configuration parser for Python, ``crossplane`` (nginxinc, Apache-2.0), without following ``include``.
A file skipped is logged with its reason (``too_large``, ``not_regular``, ``symlink_outside``,
``binary``, ``unparsed``). At most :data:`MAX_ROUTES` routes are kept.

What a ``location`` becomes (nginx's ``ngx_http_core_module`` and ``ngx_http_proxy_module``
references): exact (``=``), prefix (none, ``^~``) and regular-expression (``~``, ``~*``) matches, as
anchored expressions of the model (``~(?:^/api/cart/)``: the group keeps the pattern's first ``/``
segment from reading as a literal one to code that indexes ``Path`` patterns by their literal leading
segments), in nginx's order of precedence: exact ones, then ``^~`` prefixes longest first (each
without the paths of the longer ordinary prefixes starting with it, which nginx would choose and then
try the expressions for), then expressions as written, then the other prefixes longest first.
``proxy_pass`` with a URI part replaces the matched prefix (``ReplacePrefix``); without one the path is passed as it is; in an expression location its URI is
made of the captures (``Rewrite``). ``rewrite ... break`` in the location becomes a ``Rewrite`` filter,
and a ``proxy_pass`` URI is then ignored (nginx passes the rewritten URI); a ``rewrite`` with another
flag, ``return``, a location without ``proxy_pass`` or whose host is not a service of the repository
(an external host, a host still holding a variable) takes the path to no service (``service=""``).

The host of ``proxy_pass`` names the service: an ``upstream`` block of that name stands for its first
``server``; the host is then looked up in the repository's service map (a compose service, its
aliases). ``${VAR}`` in a ``*.template`` (the nginx image fills it with ``envsubst``) is read from the
environment of the image built from the file's folder or the nearest folder above holding a
``Dockerfile``: its last stage's ``ENV`` and the compose ``environment`` of the service built there
(:attr:`indexer.frameworks.services.ServiceMap.environments`, which wins); a variable with no value
stays unknown. So does a file a compose service mounts into a container filling it with ``envsubst``
(:attr:`indexer.frameworks.services.ServiceMap.filled`: that service's environment). A configuration's routes serve the clients of one application
(:attr:`~stores.gateway.GatewayRoute.scope`): the nearest folder at or above it holding a compose
file (the whole repository when there is none), so that in a repository of several applications one
application's nginx does not take another's relative URLs.
"""

from __future__ import annotations

import bisect
import dataclasses
import logging
import os
import re
import shlex
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import crossplane
from crossplane.errors import NgxParserBaseException

from indexer.frameworks.services import ServiceMap, is_compose_file, walk_folders
from indexer.fsguard import SkipFile, read_regular
from stores.gateway import GatewayRoute

__all__ = ["MAX_FILE_BYTES", "MAX_ROUTES", "NginxRoutes", "dockerfile_env", "is_nginx_config", "load_nginx_routes",
           "routes_of_config"]

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 500_000
"""Cap (bytes) on one nginx configuration file; a larger one is skipped (``too_large``)."""
MAX_ROUTES = 2_000
"""Routes kept for a repository, in the order read."""
MAX_FILES = 500
"""Configuration files parsed at most."""
MAX_LOOKAHEAD = 256
"""Most longer ordinary prefixes one ``^~`` location's pattern leaves out; a ``^~`` location that more
start with forwards nothing (its paths then link to no service rather than to the wrong one)."""

_ENVSUBST = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_FROM = re.compile(r"^[ \t]*FROM[ \t]", re.I | re.M)
_ENV = re.compile(r"^[ \t]*ENV[ \t]+(.*)$", re.I | re.M)
_PROXY_URL = re.compile(r"^(?:https?|grpcs?)://([^/]+)(.*)$", re.I)
_CAPTURE = re.compile(r"\$(?:\d|\{?[A-Za-z_])")


@dataclass(frozen=True, slots=True)
class NginxRoutes:
    """What :func:`load_nginx_routes` read: ``routes`` in nginx's order, ``skipped`` as
    ``(repository-relative path, reason)``."""

    routes: tuple[GatewayRoute, ...] = ()
    skipped: tuple[tuple[str, str], ...] = field(default_factory=tuple)


def is_nginx_config(name: str) -> bool:
    """Whether a file of this name is read as nginx configuration (``nginx.conf``, ``*.conf``,
    ``*.conf.template``)."""
    return name.endswith((".conf", ".conf.template"))


def dockerfile_env(text: str) -> dict[str, str]:
    """The ``ENV`` variables of a Dockerfile's last stage (after its last ``FROM``), both forms
    (``ENV A=1 B=2`` and ``ENV A 1``), continuation lines joined; a value naming another variable
    (``$PATH``) is left out.

    >>> dockerfile_env("FROM a\\nENV X=1\\nFROM b\\nENV A=1 \\\\\\n    B=two\\nENV C three words")
    {'A': '1', 'B': 'two', 'C': 'three words'}
    """
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    last = list(_FROM.finditer(text))
    if last:
        text = text[last[-1].end():]
    out: dict[str, str] = {}
    for m in _ENV.finditer(text):
        try:
            words = shlex.split(m.group(1), comments=False, posix=True)
        except ValueError:
            continue
        if not words:
            continue
        pairs = [tuple(w.split("=", 1)) for w in words] if "=" in words[0] else [(words[0], " ".join(words[1:]))]
        for pair in pairs:
            if len(pair) == 2 and "$" not in pair[1] and pair[0]:
                out[pair[0]] = pair[1]
    return out


def load_nginx_routes(root: str, found: ServiceMap, services: Mapping[str, str]) -> NginxRoutes:
    """The gateway routes of every nginx configuration file of the repository at ``root`` (module
    docstring), files in walking order. ``found``: the repository's service units (their names are
    services, their compose environments fill templates); ``services``: further host -> service names
    (aliases, the user's map). Never raises on a file."""
    real = os.path.realpath(root)
    names = {u.name for u in found.units.values() if u.name} | set(found.hosts.values())
    hosts = {**{n: n for n in names}, **found.hosts, **services}
    routes: list[GatewayRoute] = []
    skipped: list[tuple[str, str]] = []
    seen = 0
    projects: list[str] = []  # folders holding a compose file, outer ones first (the walk is top-down)
    for folder, files in walk_folders(real):
        if any(is_compose_file(n) for n in files):
            projects.append(folder)
        scope = max((p for p in projects if not p or folder == p or folder.startswith(p + "/")), key=len, default="")
        for name in files:
            if not is_nginx_config(name) or len(routes) >= MAX_ROUTES:
                continue
            seen += 1
            if seen > MAX_FILES:
                skipped.append((_join(folder, name), "too_many"))
                continue
            rel = _join(folder, name)
            env = found.filled.get(rel) if rel in found.filled else (
                _environment(real, folder, found) if name.endswith(".template") else None)
            parsed = _parse(real, rel, env)
            if isinstance(parsed, str):
                skipped.append((rel, parsed))
                log.info("nginx configuration %s skipped: %s", rel, parsed)
                continue
            routes.extend(dataclasses.replace(r, scope=scope)
                          for r in routes_of_config(parsed, hosts)[: MAX_ROUTES - len(routes)])
    return NginxRoutes(tuple(routes), tuple(skipped))


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _parse(real: str, rel: str, env: Mapping[str, str] | None) -> list[dict[str, object]] | str:
    """The directives of the file (crossplane's ``config[0]["parsed"]``), or the reason it is skipped;
    ``env``: a template's variables, each ``${NAME}`` / ``$NAME`` of them replaced before parsing (as
    ``envsubst`` given the names of the defined variables does; others, nginx's ``$uri``, are left as written);
    a template whose filled text would be longer than :data:`MAX_FILE_BYTES` characters is ``too_large``."""
    try:
        data = read_regular(os.path.join(real, rel), MAX_FILE_BYTES, real)
    except SkipFile as exc:
        return exc.reason
    if b"\x00" in data:
        return "binary"
    if env:
        text = data.decode("utf-8", "replace")
        grown = sum(len(env[name]) - len(m.group(0)) for m in _ENVSUBST.finditer(text)
                    if (name := m.group(1) or m.group(2)) in env)
        if len(text) + grown > MAX_FILE_BYTES:
            return "too_large"  # filled, it would pass the cap: 1,000 `$X` of a 500 KB value are 500 MB
        text = _ENVSUBST.sub(lambda m: env.get(m.group(1) or m.group(2), m.group(0)), text)
        data = text.encode("utf-8")
    with tempfile.TemporaryDirectory(prefix="ripple-nginx-") as tmp:
        path = os.path.join(tmp, "nginx.conf")
        with open(path, "wb") as f:
            f.write(data)
        try:
            payload = crossplane.parse(path, single=True, check_ctx=False, check_args=False, catch_errors=True)
        except (NgxParserBaseException, UnicodeError, RecursionError, ValueError):
            return "unparsed"
    if payload.get("status") != "ok" or not payload.get("config"):
        return "unparsed"
    parsed = payload["config"][0].get("parsed")
    return parsed if isinstance(parsed, list) else "unparsed"


def _environment(real: str, folder: str, found: ServiceMap) -> dict[str, str]:
    """The variables of the container a template in ``folder`` is filled in: the nearest folder at or
    above it holding a ``Dockerfile`` (its ``ENV``), overridden by that folder's compose environment."""
    here = folder
    while True:
        rel = _join(here, "Dockerfile")
        try:
            text = read_regular(os.path.join(real, rel), MAX_FILE_BYTES, real).decode("utf-8", "replace")
        except SkipFile:
            text = None
        if text is not None:
            return {**dockerfile_env(text), **found.environments.get(here, {})}
        if not here:
            return dict(found.environments.get(folder, {}))
        here = here.rpartition("/")[0]


def routes_of_config(parsed: Sequence[Mapping[str, object]], hosts: Mapping[str, str]) -> list[GatewayRoute]:
    """Routes of one parsed configuration (crossplane's directive list): every ``server`` block's
    locations (a file holding ``location`` blocks outside any ``server`` counts as one), in nginx's
    order of precedence (module docstring). ``hosts``: host -> service."""
    upstreams = {str(d["args"][0]): _upstream_host(d) for d in _walk(parsed) if d.get("directive") == "upstream" and d.get("args")}
    servers = [d.get("block") or [] for d in _walk(parsed) if d.get("directive") == "server" and "block" in d]
    if not servers and any(d.get("directive") == "location" for d in parsed):
        servers = [parsed]
    out: list[GatewayRoute] = []
    for block in servers:
        out.extend(_server_routes(block, upstreams, hosts))  # type: ignore[arg-type]
    return out


def _walk(parsed: Sequence[Mapping[str, object]]) -> Iterator[Mapping[str, object]]:
    for d in parsed:
        yield d
        if d.get("directive") != "server" and isinstance(d.get("block"), list):
            yield from _walk(d["block"])  # type: ignore[arg-type]


def _upstream_host(upstream: Mapping[str, object]) -> str | None:
    for d in upstream.get("block") or []:  # type: ignore[union-attr]
        if d.get("directive") == "server" and d.get("args"):
            return str(d["args"][0]).rsplit(":", 1)[0] if not str(d["args"][0]).startswith("unix:") else None
    return None


def _locations(block: Sequence[Mapping[str, object]]) -> Iterator[Mapping[str, object]]:
    for d in block:
        if d.get("directive") == "location":
            yield d
            yield from _locations(d.get("block") or [])  # type: ignore[arg-type]


def _server_routes(block: Sequence[Mapping[str, object]], upstreams: Mapping[str, str | None],
                   hosts: Mapping[str, str]) -> list[GatewayRoute]:
    exact: list[GatewayRoute] = []
    stop: list[tuple[str, GatewayRoute]] = []
    regexes: list[GatewayRoute] = []
    prefixes: list[tuple[str, GatewayRoute]] = []
    for loc in _locations(block):
        args = [str(a) for a in loc.get("args") or []]  # type: ignore[union-attr]
        modifier, uri = (args[0], args[1]) if len(args) == 2 else ("", args[0] if args else "")
        if not uri or uri.startswith("@"):
            continue  # a named location is reached by error_page / try_files, not by a path
        if modifier in ("~", "~*"):
            pattern = f"{modifier}(?:{uri})"
        elif modifier in ("", "^~", "="):
            pattern = "~(?:^" + re.escape(uri) + ("$)" if modifier == "=" else ")")
        else:
            continue
        service, filters = _forwarding(loc.get("block") or [], modifier, uri, upstreams, hosts)  # type: ignore[arg-type]
        route = GatewayRoute(service, (pattern,), (), filters)
        if modifier == "=":
            exact.append(route)
        elif modifier == "^~":
            stop.append((uri, route))
        elif modifier in ("~", "~*"):
            regexes.append(route)
        else:
            prefixes.append((uri, route))
    # a ^~ prefix stops the search only when it is the longest prefix matching: the longer ordinary
    # prefixes it starts are left out of its pattern (a negative lookahead), so they come to the expressions
    ordinary = sorted(q for q, _ in prefixes)
    stops = []
    for uri, route in sorted(stop, key=lambda x: -len(x[0])):
        longer = _longer_prefixes(ordinary, uri)
        if len(longer) > MAX_LOOKAHEAD:
            log.info("nginx location ^~ %s forwards nothing here: %d longer prefixes start with it", uri, len(longer))
            route = dataclasses.replace(route, service="", filters=())
        elif longer:
            tails = sorted(re.escape(q[len(uri):]) for q in longer)
            route = dataclasses.replace(route, paths=("~(?:^" + re.escape(uri) + "(?!" + "|".join(tails) + "))",))
        stops.append(route)
    return exact + stops + regexes + [r for _, r in sorted(prefixes, key=lambda x: -len(x[0]))]


def _longer_prefixes(ordinary: Sequence[str], uri: str) -> list[str]:
    """The shortest of the sorted prefixes ``ordinary`` longer than ``uri`` and starting with it (one
    starting with another of them is left out: ``(?!a|ab)`` excludes what ``(?!a)`` does). The
    prefixes starting with ``uri`` are one run of the sorted list, found by bisection: comparing
    every ``^~`` location with every other location took 7.9 s of CPU for one 470 KB file of 10,000
    of each."""
    lo = bisect.bisect_right(ordinary, uri)
    hi = bisect.bisect_left(ordinary, uri + "\U0010ffff", lo)
    out: list[str] = []
    for q in ordinary[lo:hi]:
        if not out or not q.startswith(out[-1]):
            out.append(q)
    return out


def _forwarding(block: Sequence[Mapping[str, object]], modifier: str, uri: str, upstreams: Mapping[str, str | None],
                hosts: Mapping[str, str]) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """``(service, filters)`` of one location's directives; ``("", ())`` when it forwards to no
    service of the repository."""
    rewrites: list[tuple[str, ...]] = []
    target: str | None = None
    for d in block:
        name, args = d.get("directive"), [str(a) for a in d.get("args") or []]  # type: ignore[union-attr]
        if name == "rewrite" and len(args) >= 2:
            if len(args) < 3 or args[2] != "break":
                return "", ()  # last / no flag: another location is searched; redirect / permanent: the client's
            rewrites.append(("Rewrite", args[0], args[1]))
        elif name == "return":
            return "", ()
        elif name == "proxy_pass" and args:
            target = args[0]
    if target is None:
        return "", ()
    m = _PROXY_URL.match(target)
    if m is None:
        return "", ()
    host = m.group(1).rsplit("@", 1)[-1]
    host = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if host in upstreams:
        host = upstreams[host] or ""
    service = hosts.get(host, "") if "$" not in host else ""
    if not service:
        return "", ()
    path = m.group(2)
    if rewrites or not path:
        return service, tuple(rewrites)
    if modifier in ("~", "~*"):
        if not _CAPTURE.search(path):
            return "", ()  # nginx refuses a URI part in an expression location unless it holds variables
        return service, (("Rewrite", ("(?i)" if modifier == "~*" else "") + uri, path),)
    if "$" in path:
        return "", ()
    return service, (("ReplacePrefix", uri, path),)
