"""Apollo-style GraphQL resolver maps -> GraphQL :class:`~indexer.model.Route` (framework ``apollo``).

A resolver map is an object literal with a ``Query``, ``Mutation`` or ``Subscription`` key whose value
is an object literal (rule in ``indexer/languages/ecmascript/queries/apollo.scm``), counted only when
the file imports a GraphQL server or schema package (``@apollo/server``, ``apollo-server*``,
``graphql-yoga``, ``@graphql-tools/*``, ``mercurius``, ``graphql``), or the map is bound to a name
ending in ``resolvers`` (any case), or is the value of a ``resolvers:`` property, or the file's path
has a folder or name ``resolvers`` / ``resolver`` (a map exported from ``src/resolvers/owner.ts``).
Every entry of every type of the map is a resolver of ``Type.field`` (``Owner: { pets }`` too,
method ``FIELD``): an inline arrow / function / method shorthand becomes a definition of its own
named ``Type.field`` (owning the calls in its body, :meth:`JsFile.inline_function`); a name or
property chain -> the local function or a ``handler_ref``; a subscription's ``{ subscribe: fn }`` ->
``fn``. Position: the field's key.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import FUNCTION_TYPES, JsFile, js_file, unwrap
from indexer.model import FileExtraction, Route, Template
from stores.contracts import graphql_operation

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
FRAMEWORK = "apollo"
_PACKAGES = re.compile(r"^(@apollo/server|apollo-server(-[\w-]+)?|graphql-yoga|@graphql-tools/[\w-]+|graphql-tools|mercurius|graphql)$")
_RESOLVERS_NAME = re.compile(r"resolvers$", re.I)
_RESOLVERS_PATH = re.compile(r"(^|/)resolvers?(/|\.|$)", re.I)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per resolver of the file's resolver maps."""
    jf = js_file(root, src, out)
    matches = jf.matches("apollo")
    if not matches:
        return
    imported = any(_PACKAGES.match(i.module) for i in out.imports)
    by_path = bool(_RESOLVERS_PATH.search(out.path))
    seen: set[int] = set()
    for caps in matches:
        m = caps["map"][0]
        if m.id in seen:
            continue
        seen.add(m.id)
        if imported or by_path or _named_resolvers(jf, m):
            _resolver_map(jf, m)


def _named_resolvers(jf: JsFile, m: Node) -> bool:
    holder = m.parent
    while holder is not None and holder.type in ("parenthesized_expression", "as_expression", "satisfies_expression"):
        holder = holder.parent
    if holder is None:
        return False
    if holder.type == "variable_declarator":
        name = holder.child_by_field_name("name")
    elif holder.type == "pair":
        name = holder.child_by_field_name("key")
    elif holder.type == "assignment_expression":
        name = holder.child_by_field_name("left")
    else:
        return False
    return name is not None and bool(_RESOLVERS_NAME.search(jf.text(name).rsplit(".", 1)[-1]))


def _key(jf: JsFile, node: Node | None) -> str | None:
    if node is None:
        return None
    return jf.string(node) if node.type == "string" else jf.text(node)


def _resolver_map(jf: JsFile, m: Node) -> None:
    for entry in m.named_children:
        if entry.type != "pair":
            continue
        type_name = _key(jf, entry.child_by_field_name("key"))
        fields = unwrap(entry.child_by_field_name("value"))
        if not type_name or fields is None or fields.type != "object":
            continue
        op = graphql_operation(type_name)
        for f in fields.named_children:
            if f.type == "pair":
                key, value = f.child_by_field_name("key"), unwrap(f.child_by_field_name("value"))
            elif f.type == "method_definition":
                key, value = f.child_by_field_name("name"), f
            elif f.type == "shorthand_property_identifier":
                key, value = f, f
            else:
                continue
            field = _key(jf, key)
            if not field or value is None or key is None:
                continue
            if value.type == "object":  # a subscription: { subscribe: fn, resolve: fn }
                value = unwrap(jf.object_pairs(value).get("subscribe"))
                if value is None:
                    continue
            path = f"{type_name}.{field}"
            if value.type in FUNCTION_TYPES or value.type == "method_definition":
                handler, ref = jf.inline_function(value, path), None
            elif value.type == "shorthand_property_identifier":
                name = jf.text(value)
                handler = jf.local_callable(name, jf.code_scope(value))
                ref = None if handler else name
            else:
                found = jf.handler(value, value, path)
                if found is None:
                    continue
                handler, ref = found
            if handler is None and ref is None:
                continue
            line, col = jf.pos(key)
            jf.out.routes.append(Route(FRAMEWORK, [op], Template.of(path), handler, line, col, ref))
