"""Functions and methods of a Python application that build a string from their parameters: URL builders.

Fact (:class:`~indexer.model.UrlBuilder`), from ``indexer/languages/python/queries/url_builders.scm``: a function or
method every ``return`` of which (in its own body, not in nested functions or classes) returns a string, an f-string,
a ``+`` concatenation, a ``"...".format(...)`` or one of its parameters, at least one of them naming a parameter:
``def api_url(path): return f"{settings.API_BASE}/{path}"``, ``def _url(self, *parts): ...`` not (variadic). A call of
it written in a URL (a :func:`~indexer.model.call_ref` piece,
:func:`indexer.languages.python.frameworks.common.template`) is folded by the linker
(:mod:`indexer.frameworks.built_urls`), as the ECMAScript builders are. A function returning anything else on some
path (``urljoin(base, path)``, a conditional expression, nothing) is no builder, nor one with more than
:data:`MAX_RETURNS` returns. ``self`` / ``cls`` are no parameters (:class:`~indexer.model.Param`).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.frameworks import returned_values
from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import scope_of, template
from indexer.model import FileExtraction, Template, UrlBuilder, is_call_ref

__all__ = ["LANGUAGES", "MAX_RETURNS", "detect"]

LANGUAGES = ("python",)

MAX_RETURNS = 4
"""The most ``return`` statements a builder has (each is one way its value is built)."""

_BUILT = frozenset({"string", "concatenated_string", "binary_operator", "call"})
_NESTED = frozenset({"function_definition", "class_definition", "lambda"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's URL builders to ``out.url_builders``."""
    if b"return" not in src.data:
        return
    defs = {d.qualname: d for d in out.definitions if d.kind in ("function", "method")}
    seen: set[int] = set()
    for _, caps in run_query(query("python", "python/queries", "url_builders"), root):
        ret = caps["built_return"][0].parent
        fn = ret.parent if ret is not None else None
        while fn is not None and fn.type not in _NESTED:
            fn = fn.parent
        if fn is None or fn.type != "function_definition" or fn.id in seen:
            continue
        seen.add(fn.id)
        body = fn.child_by_field_name("body")
        qualname = scope_of(body.named_children[0], src) if body is not None and body.named_children else None
        d = defs.get(qualname or "")
        if d is None or body is None or any(p.variadic for p in d.params):
            continue
        built = _builder(src, d.qualname, tuple(p.name for p in d.params), body)
        if built is not None:
            out.url_builders.append(built)


def _builder(src: SourceText, qualname: str, params: tuple[str, ...], body: Node) -> UrlBuilder | None:
    if not params:
        return None
    values = returned_values(body, "return_statement", _NESTED, stop=("yield",))
    if not values or len(values) > MAX_RETURNS:
        return None
    names = frozenset(params)
    returns: list[Template] = []
    for v in values:
        if v.type not in _BUILT and not (v.type == "identifier" and src.text(v) in names):
            return None
        t = template(src, v)
        if any(k == "ref" and is_call_ref(x) for k, x in t.parts) or (v.type == "call" and not any(
                k == "lit" for k, _ in t.parts)):
            return None  # a call other than "...".format(...): no string built here
        returns.append(t)
    if not any(k == "ref" and x in names for t in returns for k, x in t.parts):
        return None
    return UrlBuilder(qualname, params, tuple(returns))

