"""Client templates through layers of wrappers: which functions send an HTTP request whose URL (and
method) their callers choose.

A *client template* is a function whose HTTP request's URL names one of its own parameters
(``request(path)`` calling ``fetch(BASE + path)``). Application clients wrap that in layers: outline's
``ApiClient.post(path, data)`` calls ``this.deduplicate(path, "POST", data)``, which calls
``this.fetch(path, method, data)``, which builds the URL from ``path`` and sends ``{ method }``; an Angular
or Vue service's ``get(slug)`` calls ``ApiService.get("articles", slug)``, which calls
``http.get(`${resource}/${slug}`)``. :func:`chain_templates` follows such calls: a call inside a function
``F`` handing ``F``'s parameters to a template ``G`` (a :class:`~indexer.model.UrlArgCall` whose arguments
name ``F``'s parameters) makes ``F`` a template too, whose URL is ``G``'s with each of ``G``'s parameters
replaced by the argument given there (a literal piece stays, a parameter of ``F`` becomes ``F``'s, any
other name is rendered where it is written), and whose method is ``G``'s, or, when ``G``'s method is a
parameter (:attr:`~indexer.model.HttpCall.method_param`), the literal ``F`` passes there (``"POST"``) or
``F``'s own parameter (for ``fetch(input, init)``, the ``method`` of the object ``F`` passes as ``init``). Up to :data:`MAX_LAYERS` layers, :data:`MAX_PER_FUNCTION` templates a function.

A call that only hands its own parameters on as the URL (``this.fetch(path, method)``) is a layer, not a
request of its own: :func:`forwards` tells the linker not to link it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from indexer.model import HttpCall, Template, UrlArgCall

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from stores.contracts import Edge, Node

__all__ = ["MAX_LAYERS", "MAX_PER_FUNCTION", "Layer", "argument", "chain_templates", "drop_unserved_alternatives", "forwards", "given", "support",
           "layer_of", "plausible", "request_of"]

MAX_LAYERS = 6
"""Layers followed above a request (outline's client: ``post`` -> ``deduplicate`` -> ``fetch``: 2)."""
MAX_PER_FUNCTION = 8
"""Templates kept per function (each a different URL or method)."""

HOLE = "\x00"

Key = tuple[str, str]
Render = Callable[["FileCtx", "str | None", Template], str]
Resolve = Callable[["FileCtx", UrlArgCall], "Key | None"]


@dataclass(frozen=True, slots=True)
class Layer:
    """One client template of a function: ``pieces`` its URL, each ``("param", name)`` (the function's
    parameter ``name``) or ``("text", rendered)`` (``\\x00`` for an unknown piece); ``method`` upper case
    or ``"*"``, ``method_param`` the parameter giving the method (then ``method`` is ``"*"``); ``names``
    the function's parameters in order; ``call`` the HTTP request at the bottom, ``file`` its file."""

    pieces: tuple[tuple[str, str], ...]
    method: str
    method_param: str | None
    names: tuple[str, ...]
    call: HttpCall
    file: FileCtx
    defaults: tuple[tuple[str, str], ...] = ()
    """``(name, text)``: what a parameter holds when a call leaves it out (``slug = ""``)."""
    fields: tuple[tuple[str, int, str], ...] = ()
    """``(local, index, key)`` of each name a destructured parameter binds (``({ url, method }) => ...``:
    ``("url", 0, "url")``): a URL or method piece naming ``local`` is the property ``key`` of the object
    literal a call passes at ``index`` (:attr:`~indexer.model.UrlArgCall.fields`)."""


def argument(use: UrlArgCall, layer: Layer, name: str) -> tuple[bool, Template | None]:
    """``(passed, value)`` of ``layer``'s parameter (or destructured name) ``name`` at the call ``use``:
    the argument in its place, or the property of the object literal passed in the destructured
    parameter's place (an object literal without that property passes nothing there: the default
    applies; any other argument passes an unknown value, ``None``)."""
    if name in layer.names:
        i = layer.names.index(name)
        return (True, use.args[i]) if i < len(use.args) else (False, None)
    for local, i, key in layer.fields:
        if local == name:
            props = {k: t for j, k, t in use.fields if j == i}
            if props:
                return (True, props[key]) if key in props else (False, None)
            return (i < len(use.args), None)
    return False, None


def drop_unserved_alternatives(nodes: dict[str, list[Node]], edges: dict[str, list[Edge]]) -> int:
    """Keep, in place, of the ``CALLS_HTTP`` edges of one call site (same source, line and column) those
    the server confirms best: the URL of a call was built in several ways (``let url; if (abs) url =
    path; else url = base + path``, ``a || b``, ``c ? a : b``, a wrapper's branches) and the routes say
    which one they serve (:func:`support`: an endpoint a route exposes, one whose unknown pieces match
    a route's path, one under a first segment some route uses). A call site no alternative of which
    has any support keeps them all (an external API). Endpoint nodes no edge of their file points to
    any more go too. Returns how many edges were dropped."""
    exposed = {e.dst for file_edges in edges.values() for e in file_edges if e.kind == "EXPOSES"}
    routes: dict[str, list[str]] = defaultdict(list)  # method -> exposed paths
    for eid in exposed:
        method, _, route = eid.removeprefix("endpoint:").partition(" ")
        routes[method].append(route)
    firsts = {r.lstrip("/").split("/", 1)[0] for paths in routes.values() for r in paths} - {"", "{}"}
    dropped = 0
    for path, file_edges in edges.items():
        best: dict[tuple[str, int, int], int] = {}
        score: dict[str, int] = {}
        for e in file_edges:
            if e.kind == "CALLS_HTTP" and "via" in e.props:  # a template's alternatives only (not a GraphQL POST's)
                own = str(e.props.get("url", "")).startswith("/")  # a path of the page's own server
                key = (e.dst, own)
                if key not in score:
                    score[key] = support(e.dst, exposed, routes, firsts if own else set(), own)
                site = (e.src, e.line, e.col)
                best[site] = max(best.get(site, 0), score[key])
        if not any(best.values()):
            continue
        kept = [e for e in file_edges if e.kind != "CALLS_HTTP" or "via" not in e.props
                or score[(e.dst, str(e.props.get("url", "")).startswith("/"))] >= best[(e.src, e.line, e.col)]]
        if len(kept) != len(file_edges):
            dropped += len(file_edges) - len(kept)
            edges[path] = kept
            used = {e.dst for e in kept} | {e.src for e in kept}
            nodes[path] = [n for n in nodes.get(path, ()) if n.label != "Endpoint" or n.id in used]
    return dropped


def support(endpoint_id: str, exposed: set[str], routes: dict[str, list[str]], firsts: set[str],
            own: bool = True) -> int:
    """How far the routes confirm a client endpoint: 3 a route exposes it (and its path names
    something: a route of unknown pieces only, ``/{}``, serves any URL); for a URL on the page's own
    server (``own``: a path, ``/api/...``; not ``{}/api/...`` of an unknown host) 2 its unknown pieces
    match a route's path (``/api/{}.info`` and ``/api/shares.info``), 1 its first segment is one some
    route of ``firsts`` starts with (``/api/documents.starred`` when routes live under ``/api``); else 0."""
    if not _named(endpoint_id):
        return 0
    if endpoint_id in exposed:
        return 3
    method, _, path = endpoint_id.removeprefix("endpoint:").partition(" ")
    if own and "{}" in path:
        pattern = re.compile("[^/]+".join(re.escape(p) for p in path.split("{}")))
        if any(pattern.fullmatch(r) for r in routes.get(method, ())):
            return 2
    first = path.lstrip("/").split("/", 1)[0]
    return 1 if first in firsts else 0


def _named(endpoint_id: str) -> bool:
    """Whether an endpoint's path names something (``/api/stars.create``, ``/users/{}``): a route of
    unknown pieces only (``GET /{}``) serves any URL, no evidence of which one a call sends."""
    return any(seg not in ("", "{}") for seg in endpoint_id.split(" ", 1)[-1].split("/"))


def layer_of(fc: FileCtx, call: HttpCall, names: list[str], render: Render,
             fields: tuple[tuple[str, int, str], ...] = ()) -> Layer:
    """The template of the function sending ``call``, whose parameters are ``names`` and whose
    destructured parameters bind ``fields`` (:attr:`Layer.fields`; a name of the URL that is one of
    them is a parameter piece; any other piece is rendered in ``fc``)."""
    bound = {*names, *(local for local, _, _ in fields)}
    pieces: list[tuple[str, str]] = []
    for kind, text in call.url.parts:
        if kind == "ref" and text in bound:
            pieces.append(("param", text))
        else:
            pieces.append(("text", render(fc, call.caller, Template(((kind, text),)))))
    head = (call.method_param or "").split(".", 1)[0]
    mp = call.method_param if call.method == "*" and head in bound else None
    return Layer(tuple(pieces), call.method, mp, tuple(names), call, fc, call.defaults, fields)


_NOT_HTTP = re.compile(r"^(?:data|blob|file|mailto|javascript|about|tel):", re.IGNORECASE)
MAX_SEGMENT = 200
"""A first path segment this long is data (a base64 image handed to a loader), no route."""


def plausible(url: str) -> bool:
    """Whether a URL a wrapper call renders can name an HTTP route: not empty, no ``data:`` / ``blob:`` /
    ``file:`` / ``mailto:`` ... URL, and a first path segment shorter than :data:`MAX_SEGMENT`."""
    if not url.strip(HOLE) or _NOT_HTTP.match(url):
        return False
    rest = url.split("//", 1)[1] if "://" in url[:12] else url
    first = rest.lstrip("/").split("/", 1)[0].split("?", 1)[0]
    return len(first) < MAX_SEGMENT


def given(use: UrlArgCall, layer: Layer) -> bool:
    """Whether ``use`` passes anything in one of ``layer``'s URL parameters' places (``requestResource(url)``
    passing nothing where the URL names ``type``: the template keeps its own request), or, for a template
    whose URL is fixed and whose method is a parameter (Go's ``send(method)`` calling
    ``http.NewRequest(method, "http://svc/ping", nil)``), a method in that place."""
    if any(argument(use, layer, name)[1] is not None for name in _url_params(layer)):
        return True
    return not _url_params(layer) and _method_arg(use, layer) is not None


def _url_params(layer: Layer) -> list[str]:
    return list(dict.fromkeys(t for k, t in layer.pieces if k == "param"))


def forwards(use: UrlArgCall, layer: Layer, own: Iterable[str]) -> bool:
    """Whether ``use`` (a call of ``layer``'s function) hands the calling function's parameters ``own``
    on as the URL: an argument in a URL parameter's place names one of them, and none writes path text
    of its own (``path``, ``base + path``, ``${path}?${query}``; not ``"articles"`` nor ``users/${id}``).
    Such a call is a layer of a longer chain, no request whose path it knows."""
    own = set(own)
    if not _url_params(layer):  # a fixed URL: a layer when it hands its own parameter on as the method
        m = _method_arg(use, layer)
        return m is not None and len(m.parts) == 1 and m.parts[0][0] == "ref" and m.parts[0][1] in own
    given = [a for name in _url_params(layer) if (a := argument(use, layer, name)[1]) is not None]
    if not any(k == "ref" and t in own for a in given for k, t in a.parts):  # type: ignore[union-attr]
        return False
    # a piece of path text written here (`"articles"`, `users/${id}`) is a request of this call's own;
    # a base, a separator or a query (`${base}${path}?${q}`) around the parameter is not
    return not any(k == "lit" and any(ch.isalpha() for ch in t.split("?", 1)[0])
                   for a in given for k, t in a.parts)  # type: ignore[union-attr]


def request_of(use: UrlArgCall, layer: Layer, fc: FileCtx, render: Render) -> tuple[str, str]:
    """``(method, rendered URL)`` of ``use``, a call of ``layer``'s function: each parameter piece is the
    argument in its place rendered in ``fc`` (the parameter's literal default when left out, else
    ``\\x00`` when not given or not a string); the method the
    layer's, or the literal argument in the method parameter's place (``"*"`` when it is none)."""
    out: list[str] = []
    for kind, text in layer.pieces:
        if kind == "param":
            passed, arg = argument(use, layer, text)
            if not passed:
                out.append(dict(layer.defaults).get(text, HOLE))  # left out: the parameter's default
            else:
                out.append(HOLE if arg is None else render(fc, use.caller, arg))
        else:
            out.append(text)
    return _method(use, layer), "".join(out)


def _method_arg(use: UrlArgCall, layer: Layer) -> Template | None:
    """What ``use`` passes as ``layer``'s method: the argument in the method parameter's place, or for
    ``init.method`` the ``method`` of the object literal there (``UrlArgCall.methods``)."""
    if layer.method_param is None:
        return None
    head, _, prop = layer.method_param.partition(".")
    if head not in layer.names:  # a destructured name: `({ url, method }) => fetch(url, { method })`
        return argument(use, layer, head)[1]
    i = layer.names.index(head)
    if prop:
        return next((t for j, t in use.methods if j == i), None)
    return use.args[i] if i < len(use.args) else None


def _method(use: UrlArgCall, layer: Layer) -> str:
    """The method of ``use``: the layer's, else the literal passed as its method parameter, else, when
    the call leaves that parameter out, the parameter's literal default (``request({ url })`` of
    ``({ url, method = "POST" }) => fetch(url, { method })`` is a ``POST``); ``"*"`` when none is known."""
    if layer.method_param is None:
        return layer.method
    arg = _method_arg(use, layer)
    lit = arg.literal() if arg is not None else None
    if arg is None and not _method_passed(use, layer):
        lit = dict(layer.defaults).get(layer.method_param)
    return lit.strip().upper() if lit and lit.strip().isalpha() else "*"


def _method_passed(use: UrlArgCall, layer: Layer) -> bool:
    """Whether ``use`` gives anything in the place of ``layer``'s method parameter (a plain or
    destructured name; ``init.method`` counts as given)."""
    head, _, prop = (layer.method_param or "").partition(".")
    if prop:
        return True
    if head in layer.names:
        return layer.names.index(head) < len(use.args)
    return argument(use, layer, head)[0]


def _derived(use: UrlArgCall, layer: Layer, fc: FileCtx, own: tuple[str, ...], render: Render) -> Layer | None:
    """The template of the function making ``use`` (whose parameters are ``own``) through ``layer``."""
    pieces: list[tuple[str, str]] = []
    for kind, text in layer.pieces:
        if kind != "param":
            pieces.append((kind, text))
            continue
        passed, arg = argument(use, layer, text)
        if arg is None:
            pieces.append(("text", HOLE if passed else dict(layer.defaults).get(text, HOLE)))
            continue
        for k, t in arg.parts:
            if k == "ref" and t in own:
                pieces.append(("param", t))
            else:
                pieces.append(("text", render(fc, use.caller, Template(((k, t),)))))
    method, mp = layer.method, None
    if layer.method_param is not None:
        arg = _method_arg(use, layer)
        if arg is not None and len(arg.parts) == 1 and arg.parts[0][0] == "ref" and arg.parts[0][1] in own:
            method, mp = "*", arg.parts[0][1]
        else:
            method = _method(use, layer)
    if mp is None and not any(k == "param" for k, _ in pieces):
        return None  # the URL and method are fixed here: this call is a request of its own, not a layer
    return Layer(tuple(pieces), method, mp, own, layer.call, layer.file)


def chain_templates(ctxs: Iterable[FileCtx], base: dict[Key, list[Layer]], resolve: Resolve,
                    render: Render) -> dict[Key, list[Layer]]:
    """Every client template, ``base`` (functions sending a request themselves) and the functions
    calling a template with their own parameters in its URL or method places, layer by layer (at most
    :data:`MAX_LAYERS` rounds; :data:`MAX_PER_FUNCTION` a function). ``resolve`` gives the ``(path,
    qualname)`` of a call's callee in the repository (``None``: none); keys are ``(path, qualname)``."""
    out: dict[Key, list[Layer]] = defaultdict(list)
    for key, layers in base.items():
        out[key].extend(layers)
    candidates: list[tuple[FileCtx, UrlArgCall, Key, tuple[str, ...]]] = []
    for fc in ctxs:
        for use in fc.ex.url_arg_calls:
            if use.caller is None:
                continue
            rd = fc.def_at(use.caller, use.line)
            if rd is None or not rd.is_callable:
                continue
            own = tuple(p.name for p in rd.d.params)
            if not any(a is not None and any(k == "ref" and t in own for k, t in a.parts)
                       for a in (*use.args, *(v for _, _, v in use.fields))):
                continue
            candidates.append((fc, use, (fc.path, rd.qualname), own))
    callee: dict[int, Key | None] = {}
    fresh = dict(out)
    for _ in range(MAX_LAYERS):
        added: dict[Key, list[Layer]] = defaultdict(list)
        for fc, use, key, own in candidates:
            if id(use) not in callee:
                callee[id(use)] = resolve(fc, use)
            target = callee[id(use)]
            if target is None or target == key or target not in fresh:
                continue
            for layer in fresh[target]:
                d = _derived(use, layer, fc, own, render)
                if d is not None and d not in out[key] and len(out[key]) < MAX_PER_FUNCTION:
                    out[key].append(d)
                    added[key].append(d)
        if not added:
            break
        fresh = added
    return out
