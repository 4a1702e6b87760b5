"""API gateway routes, as the indexer records them and impact analysis reads them (part of the store
contracts: the vocabulary both sides share, like :func:`stores.contracts.endpoint_id`).

A :class:`GatewayRoute` is one Spring Cloud Gateway route: the service its ``uri`` names
(``lb://customers-service``), its ``Path`` predicates (Spring's ``PathPattern`` syntax), its ``Method``
predicate, and its path-changing filters in the order written. :meth:`GatewayRoute.forward` says
which path the service receives for a request path the gateway got (``/api/customer/owners/3`` with
``Path=/api/customer/**`` and ``StripPrefix=2``: ``/owners/3``). The indexer keeps a repository's
routes in its registry entry (``props[GATEWAY_ROUTES_PROP]``, :func:`routes_to_json`); impact analysis
reads them back (:func:`routes_from_json`) to find the endpoint a request path reaches through the
gateway.

Filters applied (Spring Cloud Gateway's reference, "GatewayFilter Factories"): ``StripPrefix=n``
(drops the first ``n`` segments), ``PrefixPath=/p`` (prepends ``/p``), ``RewritePath=regexp,
replacement`` (a Java regular expression; ``(?<name>...)`` groups, ``$\\{name}`` / ``${name}`` / ``$1``
in the replacement), ``SetPath=/template/{name}`` (the ``Path`` predicate's ``{name}`` variables
substituted). Other filters (headers, retries, circuit breakers) leave the path alone. A route whose
``RewritePath`` does not compile, or whose regular expression runs past :data:`REWRITE_TIMEOUT` on a path
(a pattern a repository wrote may backtrack exponentially), forwards nothing; the pattern is then not tried
again in this process.

nginx (:mod:`indexer.frameworks.nginx_config`) writes its ``location`` blocks into the same model: a
``Path`` pattern starting with ``~`` is a regular expression searched in the path (``~*``: ignoring
case; nginx's regular-expression locations, and the exact and prefix ones as anchored expressions), and
two filters follow nginx's rules (its ``ngx_http_proxy_module`` and ``ngx_http_rewrite_module``
references): ``ReplacePrefix=prefix,uri`` (``proxy_pass`` with a URI: the matched prefix replaced by
it) and ``Rewrite=regex,replacement`` (``rewrite ... break``: the whole path replaced by the
replacement, ``$1``-``$9`` / ``$name`` captures and ``$uri`` expanded, when the expression matches;
unchanged otherwise; nothing forwarded for a redirect or another variable). A route whose ``service``
is ``""`` takes the path and forwards it nowhere (a location nginx serves itself, or whose upstream is
not a service of the repository).
"""

from __future__ import annotations

import fnmatch
import functools
import re

import regex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["GATEWAY_ROUTES_PROP", "GatewayRoute", "RouteTable", "count", "route_table", "routes_from_json",
           "routes_to_json"]

GATEWAY_ROUTES_PROP = "gateway_routes"
"""Key of a registry entry's ``props`` holding the repository's gateway routes (:func:`routes_to_json`)."""

REWRITE_TIMEOUT = 0.05
"""Seconds one ``RewritePath`` substitution may take (the ``regex`` library's ``timeout``)."""

_TIMED_OUT: set[str] = set()
"""``RewritePath`` patterns that ran past :data:`REWRITE_TIMEOUT` once: never applied again."""

PATH_FILTERS = frozenset({"StripPrefix", "PrefixPath", "RewritePath", "SetPath"})
"""The gateway filters that change the path a service receives (the others are not kept)."""

_COUNT = re.compile(r"[0-9]{1,9}")

_JAVA_GROUP = re.compile(r"\(\?<([A-Za-z][A-Za-z0-9]*)>")
_JAVA_REF = re.compile(r"\$\{([A-Za-z][A-Za-z0-9]*)\}|\$(\d+)")
_NGINX_REF = re.compile(r"\$(?:(\d)|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_VARIABLE = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)(?::[^}]*)?\}$")


@dataclass(frozen=True, slots=True)
class GatewayRoute:
    """One gateway route. ``service``: the host of its ``uri`` (``customers-service``); ``paths``: its
    ``Path`` predicate patterns (``/api/customer/**``; none: the route matches no path here);
    ``methods``: its ``Method`` predicate (upper case; empty: any); ``filters``: its path-changing
    filters in order, each ``(name, *args)`` (``("StripPrefix", "2")``); ``scope``: the
    repository-relative folder whose clients the gateway serves (``""``: the whole repository; an nginx
    configuration serves the application of the nearest folder above it holding a compose file)."""

    service: str
    paths: tuple[str, ...]
    methods: tuple[str, ...] = ()
    filters: tuple[tuple[str, ...], ...] = ()
    scope: str = ""

    def serves(self, path: str | None) -> bool:
        """Whether a client in the file at the repository-relative ``path`` is behind this gateway
        (``None``: a request with no client file, which every route may take)."""
        return not self.scope or path is None or path.startswith(self.scope + "/")

    def forward(self, method: str, path: str) -> str | None:
        """The path the service receives for the request ``method`` ``path`` (``/api/customer/owners/3``
        -> ``/owners/3``), ``None`` when no ``Path`` predicate matches it, the method is not one of
        :attr:`methods`, or a filter cannot be applied. A segment of ``path`` written ``{}`` (a path
        parameter) matches only a pattern's variable or wildcard segment."""
        if self.methods and method.upper() not in self.methods and method != "*":
            return None
        variables = next((v for v in (_match(p, path) for p in self.paths) if v is not None), None)
        if variables is None:
            return None
        for name, *args in self.filters:
            out = _apply(name, args, path, variables)
            if out is None:
                return None
            path = out
        return path


class RouteTable:
    """Routes in order, indexed by the literal segments their ``Path`` patterns start with, so that the
    first route forwarding a request path (:meth:`first`) is looked for among the routes that can match
    it only: those whose patterns' literal leading segments (up to the first ``*``, ``?``, ``{`` or ``[``)
    are the path's leading segments. A pattern such a segment compares against a path segment as text
    (:func:`_match`, case kept; a path's unknown piece matches none), so no route left out could match.
    Trying every route cost ``routes x client URLs`` pattern matches in the link step (10,000 routes,
    200 URLs: 92 s at load 66)."""

    __slots__ = ("routes", "_root")

    def __init__(self, routes: Iterable[GatewayRoute]) -> None:
        self.routes: tuple[GatewayRoute, ...] = tuple(routes)
        self._root: _Trie = ({}, [])
        for i, route in enumerate(self.routes):
            for pattern in route.paths:
                node = self._root
                for seg in (s for s in pattern.strip().split("/") if s):
                    if any(c in seg for c in "*?{["):
                        break
                    node = node[0].setdefault(seg, ({}, []))
                node[1].append(i)

    def candidates(self, path: str) -> list[GatewayRoute]:
        """The routes that may forward ``path``, in their order."""
        found: set[int] = set()
        node = self._root
        found.update(node[1])
        for seg in (s for s in path.split("?", 1)[0].split("/") if s):
            nxt = node[0].get(seg)
            if nxt is None:
                break
            node = nxt
            found.update(node[1])
        return [self.routes[i] for i in sorted(found)]

    def first(self, method: str, path: str, client: str | None = None) -> tuple[GatewayRoute, str] | None:
        """The first route forwarding the request ``method`` ``path`` and the path it forwards
        (:meth:`GatewayRoute.forward`), ``None`` when none does. ``client``: the repository-relative path
        of the file making the request; routes that do not serve it (:meth:`GatewayRoute.serves`) are
        passed over."""
        for route in self.candidates(path):
            if not route.serves(client):
                continue
            forwarded = route.forward(method, path)
            if forwarded is not None:
                return route, forwarded
        return None


_Trie = tuple[dict[str, "_Trie"], list[int]]
_LAST_TABLE: list[Any] = [None, None]
"""The routes :func:`route_table` was last given (held, so that its identity stays theirs) and their table."""


def route_table(routes: Sequence[GatewayRoute]) -> RouteTable:
    """The :class:`RouteTable` of ``routes``, built once for the same sequence object (the link step asks
    for every client URL with the repository's one tuple of routes)."""
    if _LAST_TABLE[0] is not routes:
        _LAST_TABLE[:] = [routes, RouteTable(routes)]
    return _LAST_TABLE[1]


def count(text: str) -> int | None:
    """The non-negative integer ``text`` writes in ASCII decimal digits (surrounding blanks allowed), at
    most 9 of them; ``None`` otherwise. A configuration's ``StripPrefix=²`` or a 5,000-digit number is no
    count (``str.isdigit`` accepts ``²``, which ``int`` refuses; ``int`` refuses more than 4,300 digits):
    ``int`` on them raised out of the link step and ended the index."""
    text = text.strip()
    return int(text) if _COUNT.fullmatch(text) else None


def _match(pattern: str, path: str) -> dict[str, str] | None:
    """The ``{name}`` variables of ``pattern`` bound by ``path`` when it matches (``**`` / ``{*name}``
    as the last segment: zero or more segments; ``*``, ``?`` and ``{name}``: within one segment)."""
    if pattern.startswith("~"):
        return _search(pattern, path.split("?", 1)[0])
    want = [s for s in pattern.strip().split("/") if s]
    have = [s for s in path.split("?", 1)[0].split("/") if s]
    out: dict[str, str] = {}
    for i, seg in enumerate(want):
        if seg == "**" or seg.startswith("{*"):
            if i != len(want) - 1:
                return None
            if seg.startswith("{*"):
                out[seg[2:-1]] = "/" + "/".join(have[i:])
            return out
        if i >= len(have):
            return None
        got = have[i]
        var = _VARIABLE.match(seg)
        if var is not None:
            out[var.group(1)] = got
        elif "{}" in got or "\x00" in got:
            if seg not in ("*",):
                return None
        elif not fnmatch.fnmatchcase(got, re.sub(r"\{[^}]*\}", "*", seg).replace("[", "[[]")):
            return None
    return out if len(have) == len(want) else None


def _compiled(expression: str, flags: int = 0) -> Any:
    """The compiled expression, ``None`` when it does not compile or once ran past :data:`REWRITE_TIMEOUT`."""
    if expression in _TIMED_OUT:
        return None
    return _compile(expression, flags)


@functools.lru_cache(maxsize=4096)
def _compile(expression: str, flags: int) -> Any:
    """``regex.compile``, kept for the routes' expressions (the library's own cache holds 500: a
    configuration of more locations would compile each one again for every client URL)."""
    try:
        return regex.compile(expression, flags)
    except (regex.error, RecursionError, ValueError):
        return None


def _search(pattern: str, path: str) -> dict[str, str] | None:
    """Variables of the regular-expression pattern ``~expr`` / ``~*expr`` searched in ``path``: its
    named groups, and its numbered ones as ``"1"``, ``"2"``...; ``None`` when it does not match."""
    caseless = pattern.startswith("~*")
    return _groups(pattern[2:] if caseless else pattern[1:], caseless, path)


def _groups(expression: str, caseless: bool, path: str) -> dict[str, str] | None:
    compiled = _compiled(expression, regex.IGNORECASE if caseless else 0)
    if compiled is None:
        return None
    try:
        m = compiled.search(path, timeout=REWRITE_TIMEOUT)
    except TimeoutError:
        _TIMED_OUT.add(expression)
        return None
    if m is None:
        return None
    out = {str(i): g or "" for i, g in enumerate(m.groups(), 1)}
    out.update({k: v or "" for k, v in m.groupdict().items()})
    return out


def _nginx_rewrite(args: Sequence[str], path: str) -> str | None:
    """nginx's ``rewrite regex replacement``: the expanded replacement when ``regex`` matches ``path``,
    ``path`` when it does not, ``None`` for a redirect (an absolute replacement) or an unknown variable."""
    if len(args) < 2:
        return None
    found = _groups(args[0], False, path)
    if found is None:
        return path if _compiled(args[0]) is not None else None
    values = {**found, "uri": path, "document_uri": path}
    unknown: list[str] = []

    def expand(m: re.Match[str]) -> str:
        key = m.group(1) or m.group(2) or m.group(3)
        if key not in values:
            unknown.append(key)
            return ""
        return values[key]

    out = _NGINX_REF.sub(expand, args[1]).split("?", 1)[0]
    if unknown or not out.startswith("/"):
        return None
    return out


def _apply(name: str, args: Sequence[str], path: str, variables: Mapping[str, str]) -> str | None:
    arg = args[0].strip() if args else ""
    if name == "StripPrefix":
        n = count(arg)
        if n is None:
            return None
        segments = [s for s in path.split("/") if s]
        return "/" + "/".join(segments[n:])
    if name == "PrefixPath":
        return arg.rstrip("/") + path if arg.startswith("/") else None
    if name == "SetPath":
        return re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: variables.get(m.group(1), m.group(0)), arg) or None
    if name == "ReplacePrefix":
        if len(args) < 2 or not path.startswith(args[0]):
            return None
        return args[1] + path[len(args[0]):]
    if name == "Rewrite":
        return _nginx_rewrite(args, path)
    if name == "RewritePath":
        if len(args) < 2:
            return None
        if arg in _TIMED_OUT:
            return None
        try:
            pattern = regex.compile(_JAVA_GROUP.sub(r"(?P<\1>", arg))
        except (regex.error, RecursionError):
            return None
        text = args[1].strip().replace("$\\{", "${")  # YAML's escape of Spring's placeholder
        replacement = _JAVA_REF.sub(lambda m: f"\\g<{m.group(1) or m.group(2)}>", text.replace("\\", "\\\\"))
        try:
            return pattern.sub(replacement, path, timeout=REWRITE_TIMEOUT)
        except TimeoutError:
            _TIMED_OUT.add(arg)
            return None
        except (regex.error, IndexError):
            return None
    return path


def routes_to_json(routes: Iterable[GatewayRoute]) -> list[dict[str, Any]]:
    """The routes as JSON values (for a registry entry's ``props``), in order."""
    return [{"service": r.service, "paths": list(r.paths), "methods": list(r.methods),
             "filters": [list(f) for f in r.filters], **({"scope": r.scope} if r.scope else {})} for r in routes]


def routes_from_json(value: object) -> list[GatewayRoute]:
    """The routes :func:`routes_to_json` wrote; entries of another shape are skipped."""
    out: list[GatewayRoute] = []
    for v in value if isinstance(value, list) else []:
        if not isinstance(v, dict) or not isinstance(v.get("service"), str):
            continue
        try:
            out.append(GatewayRoute(v["service"], tuple(str(p) for p in v.get("paths") or ()),
                                    tuple(str(m) for m in v.get("methods") or ()),
                                    tuple(tuple(str(a) for a in f) for f in v.get("filters") or () if f),
                                    str(v.get("scope") or "")))
        except TypeError:
            continue
    return out
