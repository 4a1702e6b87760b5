"""nginx as an API gateway: the ``location`` blocks of a repository's nginx configuration as
:class:`~stores.gateway.GatewayRoute` s, so that a front end's relative URL (``/api/cart/add/1``) that
nginx forwards (``location /api/cart/ { proxy_pass http://cart:8080/; }``) links to the handler of
the service it reaches (``GET /add/{}`` of ``cart``).

Files read (:func:`is_nginx_config`), in the folders :func:`indexer.frameworks.services.walk_folders`
walks: by name, ``nginx.conf`` and ``*.conf``, also with a template suffix (``nginx.conf.template``,
``default.conf.tmpl``, ``*.conf.tpl``); by location, a file without a suffix, with a template suffix
or ``.nginx`` directly in a folder named as nginx's own are (``nginx/``, ``conf.d/``,
``sites-available/``, ``sites-enabled/``, ``snippets/``, ...: ``sites-available/app``), read only when its first
:data:`SNIFF_BYTES` open a ``server``, ``location``, ``upstream`` or ``http`` block (so a Dockerfile
or a script there is not parsed). Each regular, inside the root and at most :data:`MAX_FILE_BYTES`
(:func:`indexer.fsguard.read_regular`), without NUL bytes, parsed by nginx's own configuration parser
for Python, ``crossplane`` (nginxinc, Apache-2.0), one file at a time.

``include`` directives are followed here, not by crossplane (whose ``single=False`` opens what an
absolute include names on the machine running the index, ``/etc/nginx/mime.types``, and whatever a
glob or symbolic link reaches): an include's pattern is looked for in the repository, relative to the
including file's folder, then to the folder of the file the reading started from (nginx's prefix,
where its ``nginx.conf`` is); an absolute one (``/etc/nginx/conf.d/*.conf``, which a Dockerfile
copies the repository's folder to) by its trailing components, the longest that names files there
(``conf.d/*.conf``), also below a folder above nginx's prefix (``/etc/nginx/includes/app.inc`` read from
``nginx/sites-available/default``: ``nginx/includes/app.inc``). Globs match one path component each (``*.conf``, ``sites-enabled/*``). The
directives of the files included replace the ``include`` in its block, at most :data:`MAX_INCLUDE_DEPTH`
deep, a file never inside itself; a file another one includes is read through it only (its routes
belong to the ``server`` it is included in, once). A file skipped is logged with its reason
(``too_large``, ``not_regular``, ``symlink_outside``, ``binary``, ``unparsed``; ``too_many_included`` for
a file whose includes, put in, would pass :data:`MAX_EXPANDED` directives: the rest are left out). At most
:data:`MAX_ROUTES` routes are kept.

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
import fnmatch
import glob
import logging
import os
import posixpath
import re
import shlex
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import crossplane
from crossplane.errors import NgxParserBaseException

from indexer.frameworks.services import ServiceMap, is_compose_file, walk_folders
from indexer.fsguard import SkipFile, read_inside
from stores.gateway import GatewayRoute

__all__ = ["MAX_EXPANDED", "MAX_FILE_BYTES", "MAX_INCLUDE_DEPTH", "MAX_INCLUDED", "MAX_ROUTES", "NGINX_FOLDERS", "SNIFF_BYTES",
           "TEMPLATE_SUFFIXES", "NginxRoutes", "by_name", "dockerfile_env", "is_nginx_config", "load_nginx_routes",
           "include_names",
           "routes_of_config", "sniffed"]

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
SNIFF_BYTES = 64_000
"""How much of a file found by location only (:func:`is_nginx_config`) is searched for a block."""
MAX_INCLUDE_DEPTH = 8
"""``include`` levels followed (nginx itself has no limit; a deeper one is left as it is written)."""
MAX_INCLUDED = 200
"""Files one ``include`` pattern may bring in."""
MAX_EXPANDED = 100_000
"""Directives one configuration file may hold with its includes put in (:meth:`_Reader.expanded`; a
real ``nginx.conf`` with ``mime.types`` and its sites holds hundreds)."""

NGINX_FOLDERS = frozenset({"nginx", "conf.d", "sites-available", "sites-enabled", "snippets", "nginx-conf",
                           "nginx.d", "vhosts", "vhost.d", "servers", "http.d", "stream.d", "templates"})
"""Folder names of nginx's own layout (``/etc/nginx/conf.d``, Debian's ``sites-available``, the image's
``/etc/nginx/templates``): a file without a suffix there may be a configuration (its content decides)."""
TEMPLATE_SUFFIXES = (".template", ".tmpl", ".tpl")
"""Suffixes a configuration is filled from (``envsubst``: the nginx image's ``.template``, other tools'
``.tmpl`` / ``.tpl``); its ``${VAR}`` are read from the container's environment."""
_NGINX_SUFFIXES = (".conf", ".nginx", ".vhost")
_SNIFF = re.compile(rb"(?:^|[;{}\n])[ \t]*(?:server|location|upstream|http)\b[^;{}\n]*\{")

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
    inputs: frozenset[str] = frozenset()
    """Every repository file the routes were read from: the configurations and the files their
    ``include`` directives named (read, skipped or found to be no configuration)."""
    patterns: tuple[str, ...] = ()
    """The repository-relative paths an ``include`` was looked for at (``nginx/conf.d/*.conf``,
    ``snippets/api.inc``; globs match one component each, :func:`include_names`): a file added there
    would be read."""


def is_nginx_config(path: str) -> bool:
    """Whether the file at ``path`` (repository-relative POSIX, or a bare name) may be nginx
    configuration (module docstring): by name ``nginx.conf``, ``*.conf``, either with a
    :data:`TEMPLATE_SUFFIXES` suffix (``nginx.conf.template``, ``default.conf.tmpl``); by location a
    file with no suffix, a template suffix or ``.nginx`` / ``.vhost`` directly in a :data:`NGINX_FOLDERS`
    folder (``sites-available/app``, ``nginx/default``; not ``nginx/contrib/README``), whose content
    :func:`sniffed` must then show."""
    folders, _, name = path.rpartition("/")
    stem = _untemplated(name)
    if stem.endswith(".conf"):
        return True
    if folders.rpartition("/")[2] not in NGINX_FOLDERS:
        return False  # its own folder only: not every file below an `nginx/` folder (a vendored nginx's sources)
    return "." not in stem.lstrip(".") or stem.endswith(_NGINX_SUFFIXES) or stem != name


def by_name(path: str) -> bool:
    """Whether ``path`` is read as nginx configuration for its name alone (``*.conf``, also as a
    template), with no look at its content."""
    return _untemplated(path.rpartition("/")[2]).endswith(".conf")


def sniffed(data: bytes) -> bool:
    """Whether the first :data:`SNIFF_BYTES` of ``data`` open a ``server``, ``location``,
    ``upstream`` or ``http`` block at the start of a line or after another directive.

    >>> sniffed(b"server {\\n  listen 80;\\n}"), sniffed(b"# a script\\necho server {"), sniffed(b"FROM nginx")
    (True, False, False)
    """
    return _SNIFF.search(data[:SNIFF_BYTES]) is not None


def _untemplated(name: str) -> str:
    for suffix in TEMPLATE_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


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
    docstring), files in walking order, each with the files it includes. ``found``: the repository's
    service units (their names are services, their compose environments fill templates); ``services``:
    further host -> service names (aliases, the user's map). Never raises on a file."""
    real = os.path.realpath(root)
    names = {u.name for u in found.units.values() if u.name} | set(found.hosts.values())
    hosts = {**{n: n for n in names}, **found.hosts, **services}
    reader = _Reader(real, found)
    projects: list[str] = []  # folders holding a compose file, outer ones first (the walk is top-down)
    candidates: list[tuple[str, str]] = []  # (path, scope)
    for folder, files in walk_folders(real):
        reader.listing[folder] = files
        if any(is_compose_file(n) for n in files):
            projects.append(folder)
        scope = max((p for p in projects if not p or folder == p or folder.startswith(p + "/")), key=len, default="")
        candidates.extend((_join(folder, n), scope) for n in files if is_nginx_config(_join(folder, n)))
    parsed: dict[str, list[dict[str, object]]] = {}
    for rel, _ in candidates:
        one = reader.parse(rel, sniff=not by_name(rel))
        if one is not None:
            parsed[rel] = one
    included: set[str] = set()
    for rel, one in parsed.items():  # which files another one includes: read through it only
        included.update(p for p in reader.reached(one, rel, rel) if p != rel)
    routes: list[GatewayRoute] = []
    for rel, scope in candidates:
        if rel not in parsed or rel in included or len(routes) >= MAX_ROUTES:
            continue
        tree = reader.expanded(parsed[rel], rel, rel, (rel,))
        routes.extend(dataclasses.replace(r, scope=scope)
                      for r in routes_of_config(tree, hosts)[: MAX_ROUTES - len(routes)])
    inputs = frozenset(parsed) | included | frozenset(reader.read)
    return NginxRoutes(tuple(routes), tuple(reader.skipped), inputs, tuple(sorted(reader.tried)))


def include_names(pattern: str, rel: str) -> bool:
    """Whether the repository file ``rel`` is one an include looked for at ``pattern`` (one of
    :attr:`NginxRoutes.patterns`) names: as many components, each matching (``fnmatch``, case-sensitive,
    as the reading does).

    >>> include_names("nginx/conf.d/*.conf", "nginx/conf.d/api.conf"), include_names("nginx/*.inc", "nginx/a/b.inc")
    (True, False)
    """
    want, have = pattern.split("/"), rel.split("/")
    return len(want) == len(have) and all(fnmatch.fnmatchcase(h, w) for w, h in zip(want, have, strict=True))


class _Reader:
    """Reads, parses (once each) and expands the nginx configuration files of one repository."""

    def __init__(self, real: str, found: ServiceMap) -> None:
        self.real = real
        self.found = found
        self.listing: dict[str, list[str]] = {}  # folder -> file names, as walk_folders gave them
        self.skipped: list[tuple[str, str]] = []
        self._parsed: dict[str, list[dict[str, object]] | None] = {}
        self._patterns: dict[tuple[str, str, str], list[str]] = {}
        self.read: set[str] = set()  # every file parse() was asked for (a snippet of no block included)
        self.tried: set[str] = set()  # the repository-relative paths includes were looked for at

    def parse(self, rel: str, sniff: bool = False) -> list[dict[str, object]] | None:
        """The directives of the file at ``rel`` (filled when it is a template), ``None`` when skipped
        (the reason recorded) or, with ``sniff``, when its content shows no block (not recorded)."""
        if rel in self._parsed:
            return self._parsed[rel]
        self.read.add(rel)
        if len(self._parsed) >= MAX_FILES:
            self.skipped.append((rel, "too_many"))
            return None
        folder, _, name = rel.rpartition("/")
        env = self.found.filled.get(rel) if rel in self.found.filled else (
            _environment(self.real, folder, self.found) if name.endswith(TEMPLATE_SUFFIXES) else None)
        out = _parse(self.real, rel, env, sniff)
        if out == "not_nginx":
            return None  # not kept: an include naming it reads it all the same (a snippet of directives)
        if isinstance(out, str):
            self.skipped.append((rel, out))
            log.info("nginx configuration %s skipped: %s", rel, out)
            out = None
        self._parsed[rel] = out
        return out

    def reached(self, tree: Sequence[Mapping[str, object]], rel: str, start: str) -> set[str]:
        """The repository files the ``include`` directives of ``tree`` (the file ``rel``, read from
        ``start``) name, at any depth of blocks, and those they include in turn, as :meth:`expanded`
        reaches them: level by level, at most :data:`MAX_INCLUDE_DEPTH` levels, each file's includes
        read once (a file is reached by its shortest chain of includes, which never holds a file twice;
        files that include each other cost their number of includes, not every chain through them)."""
        out: set[str] = set()
        seen = {rel}
        level = [(tree, rel)]
        for _ in range(MAX_INCLUDE_DEPTH):
            following: list[tuple[Sequence[Mapping[str, object]], str]] = []
            for one, at in level:
                for path in self._includes(one, at, start):
                    out.add(path)
                    if path not in seen:
                        seen.add(path)
                        inner = self.parse(path)
                        if inner is not None:
                            following.append((inner, path))
            level = following
        return out

    def _includes(self, tree: Sequence[Mapping[str, object]], rel: str, start: str) -> Iterator[str]:
        """The files each ``include`` of ``tree`` (the file ``rel``, read from ``start``) names, at any
        depth of blocks, in order."""
        for d in tree:
            if d.get("directive") == "include" and d.get("args"):
                yield from self.resolve(str(d["args"][0]), rel, start)  # type: ignore[index]
            elif isinstance(d.get("block"), list):
                yield from self._includes(d["block"], rel, start)  # type: ignore[arg-type]

    def resolve(self, pattern: str, rel: str, start: str) -> list[str]:
        """The repository files ``include pattern`` of the file ``rel`` names (module docstring):
        relative to ``rel``'s folder, then to ``start``'s (nginx's prefix); an absolute pattern by its
        longest trailing components naming files there. Sorted, at most :data:`MAX_INCLUDED`."""
        key = (pattern, rel.rpartition("/")[0], start.rpartition("/")[0])
        hit = self._patterns.get(key)
        if hit is not None:
            return hit
        parts = [p for p in pattern.split("/") if p not in ("", ".")]
        absolute = pattern.startswith("/")
        tails = [parts[i:] for i in range(len(parts))] if absolute else [parts]
        bases = [key[1], key[2]]
        if absolute:  # and the folders above nginx's prefix: the repository's `nginx/` stands for /etc/nginx
            up = key[2]
            while up:
                up = up.rpartition("/")[0]
                bases.append(up)
        out: list[str] = []
        for tail in tails:
            for base in dict.fromkeys(bases):
                at = posixpath.normpath(posixpath.join(base, *tail)) if tail else ""
                if at and at != ".." and not at.startswith("../"):
                    self.tried.add(at)  # a file added there is read by the next run: see NginxRoutes.patterns
                out = self._match(base.split("/") if base else [], tail)
                if out:
                    break
            if out:
                break
        self._patterns[key] = out = out[:MAX_INCLUDED]
        return out

    def _match(self, base: list[str], tail: list[str]) -> list[str]:
        """Files under the folder ``base`` whose path below it matches ``tail`` component by
        component (``..`` goes up, never above the root), sorted."""
        here = list(base)
        for i, part in enumerate(tail[:-1]):
            if part == "..":
                if not here:
                    return []
                here.pop()
                continue
            if glob.has_magic(part):
                folder = "/".join(here)
                subs = sorted({f[len(folder) + 1 if folder else 0:].split("/", 1)[0] for f in self.listing
                               if f.startswith(folder + "/" if folder else "") and f != folder})
                return sorted(p for sub in subs if fnmatch.fnmatchcase(sub, part)
                              for p in self._match([*here, sub], tail[i + 1:]))
            here.append(part)
        folder = "/".join(here)
        files = self.listing.get(folder, [])
        last = tail[-1] if tail else ""
        return sorted(_join(folder, n) for n in files if fnmatch.fnmatchcase(n, last)) if glob.has_magic(last) else \
            ([_join(folder, last)] if last in files else [])

    def expanded(self, tree: Sequence[Mapping[str, object]], rel: str, start: str,
                 stack: tuple[str, ...], budget: list[int] | None = None) -> list[dict[str, object]]:
        """``tree`` (the file ``rel``, read from ``start``) with each ``include`` replaced by the
        directives of the files it names, themselves expanded; ``stack``: the files being expanded
        (a file is never expanded inside itself), at most :data:`MAX_INCLUDE_DEPTH` deep. At most about
        :data:`MAX_EXPANDED` directives in all (``budget``: those left, shared by the nested calls): files
        that include each other, or several levels of globs, multiply (ten files each including
        ``*.conf`` are 6 million chains 8 deep); once it is spent an ``include`` is left out, and
        ``start`` is recorded once as skipped ``too_many_included``."""
        budget = [MAX_EXPANDED] if budget is None else budget
        out: list[dict[str, object]] = []
        for d in tree:
            if d.get("directive") == "include" and d.get("args") and len(stack) <= MAX_INCLUDE_DEPTH:
                for path in self.resolve(str(d["args"][0]), rel, start):  # type: ignore[index]
                    inner = self.parse(path) if path not in stack else None
                    if inner is None:
                        continue
                    if budget[0] <= 0:
                        if (start, "too_many_included") not in self.skipped:
                            self.skipped.append((start, "too_many_included"))
                            log.info("nginx configuration %s: includes left out past %d directives", start,
                                     MAX_EXPANDED)
                        break
                    out.extend(self.expanded(inner, path, start, (*stack, path), budget))
            elif isinstance(d.get("block"), list):
                budget[0] -= 1
                out.append({**d, "block": self.expanded(d["block"], rel, start, stack, budget)})  # type: ignore[arg-type]
            else:
                budget[0] -= 1
                out.append(dict(d))
        return out


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _parse(real: str, rel: str, env: Mapping[str, str] | None, sniff: bool = False) -> list[dict[str, object]] | str:
    """The directives of the file (crossplane's ``config[0]["parsed"]``), or the reason it is skipped
    (``not_nginx``: ``sniff`` asked for and :func:`sniffed` false); ``env``: a template's variables,
    each ``${NAME}`` / ``$NAME`` of them replaced before parsing (as ``envsubst`` given the names of the
    defined variables does; others, nginx's ``$uri``, are left as written); a template whose filled text
    would be longer than :data:`MAX_FILE_BYTES` characters is ``too_large``."""
    skips: list[SkipFile] = []
    data = read_inside(os.path.join(real, rel), MAX_FILE_BYTES, real, on_skip=skips.append)
    if data is None:
        return skips[0].reason
    if b"\x00" in data:
        return "binary"
    if sniff and not sniffed(data):
        return "not_nginx"
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


def _unsaid(skip: SkipFile) -> None:
    """A ``Dockerfile`` looked for above a template and not read: none there is the common case."""


def _environment(real: str, folder: str, found: ServiceMap) -> dict[str, str]:
    """The variables of the container a template in ``folder`` is filled in: the nearest folder at or
    above it holding a ``Dockerfile`` (its ``ENV``), overridden by that folder's compose environment."""
    here = folder
    while True:
        rel = _join(here, "Dockerfile")
        data = read_inside(os.path.join(real, rel), MAX_FILE_BYTES, real, on_skip=_unsaid)
        if data is not None:
            return {**dockerfile_env(data.decode("utf-8", "replace")), **found.environments.get(here, {})}
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
    named: set[tuple[bool, str]] = set()  # (exact, uri) of the exact and prefix locations read
    for loc in _locations(block):
        args = [str(a) for a in loc.get("args") or []]  # type: ignore[union-attr]
        modifier, uri = (args[0], args[1]) if len(args) == 2 else ("", args[0] if args else "")
        if not uri or uri.startswith("@"):
            continue  # a named location is reached by error_page / try_files, not by a path
        if modifier in ("", "^~", "="):
            if (modifier == "=", uri) in named:
                continue  # nginx refuses the configuration (`duplicate location`); the first one is kept
            named.add((modifier == "=", uri))
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
