"""Stable node identifiers (FQNs) and graph labels for extracted definitions.

The FQN format is the design's ``repo:path/to/module.Class.method(sig)``: the repository name, the
file path without its suffix, the definition's qualname, and for callables a signature part that tells
overloads apart — the erased parameter types in Java (``save(Owner,int)``), the parameter count
elsewhere (``save(2)``). A qualname defined twice in one file (conditional definitions) gets ``#2``,
``#3`` … in source order, so every id is unique per repository and stable while the file is unchanged.

Inline handlers: an anonymous function or lambda passed to a route registration (Express
``router.delete("/x/:id", auth, async (req, res) => {...})``, Flask ``add_url_rule(view_func=lambda:
...)``) is a definition of its own, kind ``function``, named by :func:`handler_name` after the route
as its file writes it (``DELETE /x/:id``; the prefix of a router mounted elsewhere is not part of the
name), nested like any function under the definition whose body holds it (``parent``; ``None`` at
module level). Its qualname is that name under the parent (``setup.GET /x`` inside ``setup``), so
its id is ``repo:src/routes/orders.DELETE /x/:id(2)`` (the parameter count as for every callable). A
second handler of the same name in one file is ``DELETE /x/:id #2``, ``#3`` … in source order. Its
span is the function's, its name position the function's start; it owns the calls in its body.

Other anonymous functions a detector makes definitions of the same way, named after what registers
them: inline middleware ``middleware app.use /api`` (``middleware router.use`` without a path; a
route's own ``middleware GET /x``; Express error middleware ``error_handler app.use``), Fastify hooks
``hook onRequest``, event listeners ``on connection`` (``on <event>``; the event as :func:`path_text`
writes a template), inline Fastify plugins ``plugin /v1``, kafkajs ``eachMessage <topics>`` consumers.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from indexer.model import CALLABLE_KINDS, Definition, FileExtraction, Param, Template, base_type

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["ANY_STRATEGY", "CONFIG_DEFAULT", "CONFIG_KEY", "CONFIG_OPTIONS", "ROUTE_TOKEN_CONVENTION",
           "ROUTE_TOKEN_TRANSFORMER", "DEFAULT_STRATEGY", "LABELS", "file_id", "module_path", "dotted_stems", "defines_suffix", "id_prefix", "definition_tails", "definition_ids", "signature_part", "handler_name", "path_text", "unique_name", "inline_definition", "inline_header"]

DEFAULT_STRATEGY = "PassportModule.defaultStrategy"
"""The :class:`~indexer.model.StringConstant` naming the passport strategy NestJS's ``AuthGuard()`` (no
name) runs: ``PassportModule.register({ defaultStrategy: "jwt" })`` gives it the value ``jwt``."""
ANY_STRATEGY = "AuthGuard:*"
"""The registration key (written ``@AuthGuard:*``) of every passport strategy's ``validate`` of the
repository, beside its own ``AuthGuard:<name>``: ``AuthGuard()`` runs it when no default strategy is
registered and exactly one strategy exists (:func:`indexer.frameworks.auth_guards.factory_callbacks`)."""
CONFIG_DEFAULT = "??"
"""Between a configuration key and the literal a read falls back to when no configuration file sets the key
(``config:Kafka:Topic??orders`` of .NET ``GetValue<string>("Kafka:Topic", "orders")`` /
``configuration["Kafka:Topic"] ?? "orders"``): the linker renders the default when the key has no value."""
ROUTE_TOKEN_CONVENTION = "aspnet:@route-token-convention"
"""The qualname of the constant naming the transformer class a file's ASP.NET ``RouteTokenTransformerConvention``
uses (:mod:`indexer.frameworks.route_tokens`)."""
ROUTE_TOKEN_TRANSFORMER = "aspnet:@route-token-transformer:"
"""The head of the qualname of the constant giving a slugifying route token transformer class's separator
(:mod:`indexer.frameworks.route_tokens`)."""
CONFIG_OPTIONS = "config:@"
"""The start of the key of a .NET options class ``T``: the constant ``config:@T`` is the section prefix bound to it
(``services.Configure<T>(configuration.GetSection("urls"))`` -> ``urls:``), and a template's ``ref`` piece
``config:@T:Name`` a read of its ``Name`` (``IOptions<T>``'s ``settings.Value.Name``), rendered as the configuration
key ``urls:Name`` (:mod:`indexer.languages.csharp.frameworks.options_binding`)."""
CONFIG_KEY = "config:"
"""The start of a :class:`~indexer.model.StringConstant` qualname that is a configuration key, not a
name of the file: NestJS ``registerAs("app", () => ({ apiPrefix: process.env.API_PREFIX || "api" }))``
gives ``config:app.apiPrefix``. A template ``ref`` piece ``config:app.apiPrefix`` (``configService.get(
"app.apiPrefix")``) is that constant in the same service folder (the first by file path)."""

LABELS = {
    "class": "Class",
    "interface": "Interface",
    "enum": "Enum",
    "method": "Method",
    "function": "Function",
    "constructor": "Constructor",
    "field": "Field",
}
"""Extraction kind -> graph node label."""


def file_id(repo: str, path: str) -> str:
    """The id of a File node: ``repo:path`` (path repository-relative, POSIX, with suffix)."""
    return f"{repo}:{path}"


def module_path(path: str) -> str:
    """``pkg/mod.py`` -> ``pkg/mod``; a path without a suffix is returned unchanged."""
    slash = path.rfind("/")
    dot = path.rfind(".")
    return path[:dot] if dot > slash + 1 else path


def dotted_stems(stem: str) -> list[str]:
    """The shorter stems in the same folder that a dotted file name's stem (:func:`module_path`)
    extends: ``pkg/x.Y.Z`` -> ``["pkg/x", "pkg/x.Y"]``; ``[]`` for an undotted name. Ids join a
    stem and a qualname with a dot, so ``x.Y.py``'s ``z`` and ``x.py``'s class ``Y``'s ``z`` would
    share an id: a file whose stem extends another file's stem keeps its suffix in its ids
    (:func:`id_prefix` with ``id_path``)."""
    first = stem.rfind("/") + 2  # a leading dot (``.eslintrc``) extends no stem
    out = []
    dot = stem.find(".", first)
    while dot != -1:
        out.append(stem[:dot])
        dot = stem.find(".", dot + 1)
    return out


def defines_suffix(path: str, qualnames: Iterable[str]) -> bool:
    """Whether ``qualnames`` (a file's definitions' qualnames, any iterable or a mapping keyed by
    them) hold the file's suffix without its dot: ``class py`` in ``a.py`` would have the id
    ``repo:a`` + ``.py``, the File node's (:func:`file_id`). Such a file keeps its suffix in its ids
    (``id_path``)."""
    stem = module_path(path)
    return stem != path and path[len(stem) + 1:] in qualnames


def signature_part(language: str, d: Definition) -> str:
    """The parenthesised part that separates overloads: Java and Kotlin erase each parameter type to
    its simple name (``List<Owner>`` -> ``List``, varargs ``String...`` -> ``String...``), a Kotlin
    extension's receiver type first as the JVM does (``fun Order.label(p: String)`` ->
    ``(Order,String)``); other languages give the parameter count."""
    if language in ("java", "kotlin"):
        types = [d.receiver_type.rsplit(".", 1)[-1]] if d.receiver_type else []
        for p in d.params:
            t = base_type(p.type) or "?"
            t = t.rsplit(".", 1)[-1]
            types.append(t + ("..." if p.variadic else ""))
        return "(" + ",".join(types) + ")"
    return f"({len(d.params)})"


def id_prefix(repo: str, extraction: FileExtraction) -> str:
    """What every definition id of the file starts with: ``repo:module/path.`` (the file's
    ``id_path`` when set, else its path without the suffix)."""
    return f"{repo}:{extraction.id_path or module_path(extraction.path)}."


def definition_tails(extraction: FileExtraction, definitions: Sequence[Definition] | None = None) -> list[str]:
    """For each of ``extraction.definitions`` in order (or of ``definitions``, the same list read
    back already), what its id adds after the file's
    :func:`id_prefix` and its qualname: a callable's :func:`signature_part`, then ``#2``, ``#3`` …
    for the second, third … definition with the same id otherwise (``""`` for most fields and
    classes). Interned: the few distinct tails are shared by every definition, so a resolver can hold
    a tail per definition and build the id when read."""
    language = extraction.language
    seen: dict[str, int] = {}
    out = []
    for d in extraction.definitions if definitions is None else definitions:
        tail = signature_part(language, d) if d.kind in CALLABLE_KINDS else ""
        base = d.qualname + tail
        n = seen.get(base, 0) + 1
        seen[base] = n
        out.append(sys.intern(tail if n == 1 else f"{tail}#{n}"))
    return out


def definition_ids(repo: str, extraction: FileExtraction, definitions: Sequence[Definition] | None = None) -> list[str]:
    """Ids for ``extraction.definitions`` (or ``definitions``, the same list read back already: a
    parked list is read back whole at each iteration, :mod:`indexer.parked`), in the same order."""
    prefix = id_prefix(repo, extraction)
    defs = extraction.definitions if definitions is None else definitions
    return [prefix + d.qualname + tail for d, tail in zip(defs, definition_tails(extraction, defs))]


def handler_name(methods: list[str], path: Template, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """The name of an inline route handler: ``"DELETE /orders/:id"``: the methods joined by ``|``
    (``*`` -> ``ALL``), a space, the path as written (a constant reference as ``{Name}``, an unknown
    value as ``{}``; ``/`` when empty). When that name is in ``taken`` (names already given in the
    same scope of the file) the first free ``"<name> #2"``, ``#3`` … is returned."""
    verbs = "|".join("ALL" if m == "*" else m for m in methods) or "ALL"
    return unique_name(f"{verbs} {path_text(path) or '/'}", taken)


def path_text(path: Template) -> str:
    """A template as a name shows it: literal text, a constant reference as ``{Name}``, an unknown
    value as ``{}`` (``""`` for an empty template)."""
    return "".join(t if k == "lit" else ("{" + t + "}" if k == "ref" else "{}") for k, t in path.parts)


def unique_name(name: str, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """``name``, or the first of ``"<name> #2"``, ``#3`` … not in ``taken``."""
    n = 1
    out = name
    while out in taken:
        n += 1
        out = f"{name} #{n}"
    return out


def inline_header(src: SourceText, node: Node) -> str:
    """The header of an anonymous function as its inline definition's ``signature`` shows it: the
    source from ``node``'s start to its ``body`` field, whitespace folded to single spaces (``""``
    when the node has no ``body``). A language's separator (Python's ``:``, Java's ``->``) is the
    caller's to strip."""
    body = node.child_by_field_name("body")
    header = src.data[node.start_byte : body.start_byte] if body is not None else b""
    return " ".join(header.decode("utf-8", "replace").split())


def inline_definition(out: FileExtraction, src: SourceText, node: Node, name: str, scope: str | None,
                      params: Sequence[Param] = (), signature: str = "") -> str:
    """Make the anonymous function at ``node`` a definition of its own (the inline handler convention
    of this module's docstring) and return its qualname.

    Appends to ``out.definitions`` a ``function`` named ``name`` made unique among ``scope``'s
    definitions (:func:`unique_name`: ``#2``, ``#3`` …), under ``scope`` (the qualname of the code
    around it, ``None`` at module level), spanning ``node`` (1-based lines, 0-based code-point
    columns), its name position the node's start, with ``params`` and ``signature``. Every call of
    ``out.calls`` that ``scope`` owned and that is written inside the span now belongs to it. Does not
    look for an earlier definition of the same node: callers asked twice check that first."""
    unique = unique_name(name, {d.name for d in out.definitions if d.parent == scope})
    qualname = f"{scope}.{unique}" if scope else unique
    line, col = src.line(node), src.col(node)
    end = (node.end_point[0] + 1, src.end_col(node))
    out.definitions.append(Definition(
        kind="function", name=unique, qualname=qualname, parent=scope, start_line=line, start_col=col,
        end_line=end[0], end_col=end[1], name_line=line, name_col=col, signature=signature, params=list(params)))
    for c in out.calls:
        if c.caller == scope and (line, col) <= (c.line, c.col) < end:
            c.caller = qualname
    return qualname
