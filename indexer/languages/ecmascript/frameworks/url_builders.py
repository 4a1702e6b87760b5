"""Functions and methods of the application that build a string from their parameters: URL builders.

Fact (:class:`~indexer.model.UrlBuilder`), from ``indexer/languages/ecmascript/queries/url_builders.scm``: a
function, method or arrow function every ``return`` of which (in its own body, not in nested functions) returns a
template literal, a ``+`` concatenation, a string or one of its parameters, at least one of them naming a
parameter: JHipster's ``ApplicationConfigService.getEndpointFor(api, microservice?)``, whose returns are
```${this.endpointPrefix}services/${microservice}/${api}``` and ```${this.endpointPrefix}${api}```, or
``const url = (p) => `${BASE}/${p}```. A call of it written in a URL (a
:func:`~indexer.string_templates.call_ref` piece, :meth:`indexer.languages.ecmascript.frameworks.common.JsFile.template`)
is folded by the linker (:mod:`indexer.frameworks.built_urls`). A function returning anything else on some path
(``return new URL(p, base).toString()``, a call, a conditional expression) is no builder, and neither is one with
more than :data:`MAX_RETURNS` returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import returned_values
from indexer.languages.ecmascript.frameworks.common import FUNCTION_NODES, js_file, unwrap
from indexer.model import FileExtraction, Template, UrlBuilder, is_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.languages.ecmascript.frameworks.common import JsFile

__all__ = ["LANGUAGES", "MAX_RETURNS", "detect"]

LANGUAGES = ("javascript", "typescript")

MAX_RETURNS = 4
"""The most ``return`` statements a builder has (each is one way its value is built)."""

_NESTED = FUNCTION_NODES | {"class_body"}
"""Node types of definitions nested in a body, whose returns are their own."""

_BUILT = frozenset({"template_string", "binary_expression", "string"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's URL builders to ``out.url_builders``."""
    if b"return" not in src.data and b"=>" not in src.data:
        return
    jf = js_file(root, src, out)
    seen: set[int] = set()
    for caps in jf.matches("url_builders"):
        fn = _function_of(caps["built_return"][0])
        if fn is None or fn.id in seen:
            continue
        seen.add(fn.id)
        built = _builder(jf, fn)
        if built is not None:
            out.url_builders.append(built)


def _function_of(node: Node) -> Node | None:
    n = node.parent
    for _ in range(64):
        if n is None:
            return None
        if n.type in FUNCTION_NODES:
            return n
        n = n.parent
    return None


def _builder(jf: JsFile, fn: Node) -> UrlBuilder | None:
    d = jf.function_definition(fn)
    if d is None:
        return None
    params = tuple(p.name for p in d.params)
    body = fn.child_by_field_name("body")
    if body is None or not params:
        return None
    values = [body] if body.type != "statement_block" else returned_values(body, "return_statement", _NESTED)
    if values is None or not values or len(values) > MAX_RETURNS:
        return None
    names = frozenset(params)
    returns: list[Template] = []
    for v in values:
        inner = unwrap(v) or v
        if inner.type not in _BUILT and not (inner.type == "identifier" and jf.text(inner) in names):
            return None
        t = jf.template(inner)
        if any(k == "ref" and is_call_ref(x) for k, x in t.parts):
            return None
        returns.append(t)
    if not any(k == "ref" and x in names for t in returns for k, x in t.parts):
        return None
    return UrlBuilder(d.qualname, params, tuple(returns))

