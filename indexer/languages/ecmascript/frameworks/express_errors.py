"""Express error handlers a factory returns (JavaScript and TypeScript): ``app.use(errorHandler())``.

Express tells error-handling middleware by its arity: a function of four parameters, ``(err, req, res,
next)`` (Express guide, "Error handling": "error-handling middleware always takes four arguments").
Applications often build it in a factory, ``function errorHandler(opts) { return (err, req, res, next)
=> {...} }`` or ``export const errorHandler = () => (err, req, res, next) => ...``, and register the
factory's result, ``app.use(errorHandler())``: the factory itself has no four parameters, so the
registration looked like ordinary middleware (which runs only for what is registered after it) where
Express runs the returned handler for the errors of everything registered before it
(:func:`indexer.frameworks.wrap_order.runs_on_errors`).

So a function written inline and returned by a named function (a ``return`` of it, or an arrow's
expression body), with four parameters the first of which names an error (``err``, ``error``, ``e``,
``ex``, ``exception``, with or without a leading ``_``), becomes a definition of its own named
``error_handler`` (:meth:`JsFile.inline_function`; ``#2`` ... when several) and a name the factory
returns (:attr:`indexer.model.Definition.returned_refs`): a call of the factory yields it, the
registration wraps with it and runs on errors. The calls in its body are its own (they were the
factory's). A returned function of other parameters is left as it was.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import FUNCTION_NODES, js_file, unwrap

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

_ERROR = re.compile(r"^_?(err|error|e|ex|exc|exception)$", re.IGNORECASE)
_INLINE = frozenset({"arrow_function", "function_expression"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Make each error handler a function of the file returns inline a definition the function returns."""
    jf = js_file(root, src, out)
    for caps in jf.matches("express_errors"):
        fn = unwrap(caps["fn"][0]) or caps["fn"][0]
        if fn.type not in _INLINE or _params(jf, fn) is None:
            continue
        owner = _function_of(fn)
        factory = jf.function_definition(owner) if owner is not None else None
        if factory is None:
            continue
        qualname = jf.inline_function(fn, "error_handler")
        name = qualname.rpartition(".")[2] if qualname.startswith(factory.qualname + ".") else None
        if name is not None and name not in factory.returned_refs:
            factory.returned_refs.append(name)


def _params(jf, fn: Node) -> list[str] | None:
    """The four parameter names of ``fn`` when the first names an error, else ``None``."""
    params = fn.child_by_field_name("parameters")
    if params is None:
        return None
    names = [jf.text(p.child_by_field_name("pattern") or p) for p in params.named_children if p.type != "comment"]
    return names if len(names) == 4 and _ERROR.match(names[0]) else None


def _function_of(fn: Node) -> Node | None:
    """The function whose result ``fn`` is: the function around the ``return`` holding it, or the arrow
    whose expression body it is; ``None`` at module level."""
    n = fn.parent
    while n is not None and n.type == "parenthesized_expression":
        n = n.parent
    if n is not None and n.type == "arrow_function":
        return n
    while n is not None and n.type not in FUNCTION_NODES:
        n = n.parent
    return n
