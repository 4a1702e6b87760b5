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
``F``'s own parameter. Up to :data:`MAX_LAYERS` layers, :data:`MAX_PER_FUNCTION` templates a function.

A call that only hands its own parameters on as the URL (``this.fetch(path, method)``) is a layer, not a
request of its own: :func:`forwards` tells the linker not to link it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from indexer.model import HttpCall, Template, UrlArgCall

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["MAX_LAYERS", "MAX_PER_FUNCTION", "Layer", "chain_templates", "forwards", "layer_of", "request_of"]

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


def layer_of(fc: FileCtx, call: HttpCall, names: list[str], render: Render) -> Layer:
    """The template of the function sending ``call``, whose parameters are ``names`` (a name of the URL
    that is one of them is a parameter piece; any other piece is rendered in ``fc``)."""
    pieces: list[tuple[str, str]] = []
    for kind, text in call.url.parts:
        if kind == "ref" and text in names:
            pieces.append(("param", text))
        else:
            pieces.append(("text", render(fc, call.caller, Template(((kind, text),)))))
    mp = call.method_param if call.method == "*" and call.method_param in names else None
    return Layer(tuple(pieces), call.method, mp, tuple(names), call, fc)


def _url_params(layer: Layer) -> list[int]:
    return sorted({layer.names.index(t) for k, t in layer.pieces if k == "param"})


def forwards(use: UrlArgCall, layer: Layer, own: Iterable[str]) -> bool:
    """Whether ``use`` (a call of ``layer``'s function) only hands the calling function's parameters
    ``own`` on as the URL: every argument in a URL parameter's place is one of them, whole (``path``).
    Such a call is a layer of a longer chain, no request whose path it knows."""
    own = set(own)
    for i in _url_params(layer):
        arg = use.args[i] if i < len(use.args) else None
        if arg is None or len(arg.parts) != 1 or arg.parts[0][0] != "ref" or arg.parts[0][1] not in own:
            return False
    return True


def request_of(use: UrlArgCall, layer: Layer, fc: FileCtx, render: Render) -> tuple[str, str]:
    """``(method, rendered URL)`` of ``use``, a call of ``layer``'s function: each parameter piece is the
    argument in its place rendered in ``fc`` (``\\x00`` when not given or not a string); the method the
    layer's, or the literal argument in the method parameter's place (``"*"`` when it is none)."""
    out: list[str] = []
    for kind, text in layer.pieces:
        if kind == "param":
            i = layer.names.index(text)
            arg = use.args[i] if i < len(use.args) else None
            out.append(HOLE if arg is None else render(fc, use.caller, arg))
        else:
            out.append(text)
    return _method(use, layer), "".join(out)


def _method(use: UrlArgCall, layer: Layer) -> str:
    if layer.method_param is None:
        return layer.method
    i = layer.names.index(layer.method_param)
    arg = use.args[i] if i < len(use.args) else None
    lit = arg.literal() if arg is not None else None
    return lit.strip().upper() if lit and lit.strip().isalpha() else "*"


def _derived(use: UrlArgCall, layer: Layer, fc: FileCtx, own: tuple[str, ...], render: Render) -> Layer | None:
    """The template of the function making ``use`` (whose parameters are ``own``) through ``layer``."""
    pieces: list[tuple[str, str]] = []
    for kind, text in layer.pieces:
        if kind != "param":
            pieces.append((kind, text))
            continue
        i = layer.names.index(text)
        arg = use.args[i] if i < len(use.args) else None
        if arg is None:
            pieces.append(("text", HOLE))
            continue
        for k, t in arg.parts:
            if k == "ref" and t in own:
                pieces.append(("param", t))
            else:
                pieces.append(("text", render(fc, use.caller, Template(((k, t),)))))
    if not any(k == "param" for k, _ in pieces):
        return None  # the URL is fixed here: this call is a request of its own, not a layer
    method, mp = layer.method, None
    if layer.method_param is not None:
        i = layer.names.index(layer.method_param)
        arg = use.args[i] if i < len(use.args) else None
        if arg is not None and len(arg.parts) == 1 and arg.parts[0][0] == "ref" and arg.parts[0][1] in own:
            method, mp = "*", arg.parts[0][1]
        else:
            method = _method(use, layer)
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
            if not any(a is not None and any(k == "ref" and t in own for k, t in a.parts) for a in use.args):
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
