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
``fn``. Position: the field's key. A type's entry may name an object of the file (``{ Query, Mutation }``,
``Query: queryResolvers``). A map assembled from other files is read where its parts are written
(:func:`_exported_maps`): in a resolvers file, an exported object named after a type (``export const User =
{...}``) and the module's exports of a file named after a type (``resolvers/Query.js``: ``module.exports = { feed
}``) whose entries are all functions are that type's resolvers, and so are the exported functions of an ES module
named after a type that exports no object (``export function feed(...)`` in ``resolvers/Query.ts``).

Data sources (Apollo Server 2 / 3 ``dataSources: () => ({ launchAPI: new LaunchAPI() })``, Apollo Server 4
``context: async () => ({ dataSources: { launchAPI: new LaunchAPI({ cache }) } })``, also as
``startStandaloneServer(server, { context })`` / ``expressMiddleware(server, { context })``; an option
written inline or as a file-level name): the server's file records the object as ``object`` bindings
``APOLLO_DATA_SOURCES`` (each key bound ``constructed`` to the class its ``new`` names) and
``APOLLO_CONTEXT`` (its ``dataSources`` that object), announced by ``registers`` bindings
``@APOLLO_SERVER``. A resolver's third parameter (the context; the second of Apollo Federation's
``__resolveReference`` and of ``__resolveType``: ``ctx``, or ``{ dataSources }`` / ``{ dataSources: ds }``
destructured; also of a file-level function the map names, ``Query: { me }``) is bound ``injected`` to them, which the
module system reads as the object of the server file nearest the resolver
(:meth:`indexer.languages.ecmascript.modules.EcmaScriptModuleSystem.injected_binding`), so
``dataSources.launchAPI.getAllLaunches()`` calls ``LaunchAPI.getAllLaunches``. A context parameter named
with a type (``ctx: Ctx``) keeps its type (bound ``declared`` too, read first); a key the server does not construct stays unresolved.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import FUNCTION_TYPES, JsFile, js_file, unwrap
from indexer.languages.ecmascript.syntax import bindable
from indexer.model import Binding, FileExtraction, Route, Template
from indexer.resolve.context import REGISTERS
from stores.contracts import graphql_operation

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["APOLLO_CONTEXT", "APOLLO_DATA_SOURCES", "APOLLO_SERVER", "LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
FRAMEWORK = "apollo"
_PACKAGES = re.compile(r"^(@apollo/server|apollo-server(-[\w-]+)?|graphql-yoga|@graphql-tools/[\w-]+|graphql-tools|mercurius|graphql)$")
_RESOLVERS_NAME = re.compile(r"resolvers$", re.I)
_RESOLVERS_PATH = re.compile(r"(^|/)resolvers?(/|\.|$)", re.I)
_TYPE_NAME = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
"""A GraphQL type's name as resolver files name it (``Query``, ``User``; GraphQL's convention: capitalised)."""
APOLLO_SERVER = "apolloServer"
"""The name (after ``@``) of the ``registers`` bindings announcing a file's Apollo Server objects."""
APOLLO_DATA_SOURCES = "ApolloServer$dataSources"
"""The qualname of the data-source object a server file records (no JavaScript code can name it)."""
APOLLO_CONTEXT = "ApolloServer$context"
"""The qualname of the context object a server file records: its ``dataSources`` is :data:`APOLLO_DATA_SOURCES`."""
_CONTEXT_ARG = 2  # resolvers are called (parent, args, context, info)
_CONTEXT_ARG_OF = {"__resolveReference": 1, "__resolveType": 1, "__isTypeOf": 1}
"""The resolvers called (object, context, info): Apollo Federation's reference resolver, abstract types'."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per resolver of the file's resolver maps."""
    by_path = bool(_RESOLVERS_PATH.search(out.path))
    jf = js_file(root, src, out)
    matches = jf.matches("apollo")
    if not matches and not by_path:
        return
    sources: dict[str, tuple[str, int]] = {}
    for caps in matches:
        if "options" in caps:
            _server_options(jf, caps["options"][0], sources)
    _record_sources(out, sources)
    imported = any(_PACKAGES.match(i.module) for i in out.imports)
    seen: set[int] = set()
    for caps in matches:
        if "map" not in caps:
            continue
        m = caps["map"][0]
        if m.id in seen:
            continue
        seen.add(m.id)
        if imported or by_path or _named_resolvers(jf, m):
            _resolver_map(jf, m)
    if by_path:
        _exported_maps(jf, seen)


def _exported_maps(jf: JsFile, seen: set[int]) -> None:
    """The resolvers a resolvers file exports for a resolver map written in another file: an exported object named
    after a type (``export const Query = {...}``, ``exports.User = {...}``), or the module's exports
    (``module.exports = {...}`` / ``export default {...}``) of a file named after a type (``resolvers/Query.js``
    exporting ``{ feed, post }``: howtographql's layout); every entry a function. Module exports holding types
    (``module.exports = { Query, Mutation }``, each an object of the file) are a resolver map. Objects in ``seen``
    (maps read already) are skipped."""
    stem = jf.out.path.rsplit("/", 1)[-1].split(".", 1)[0]
    whole = False  # the module's exports were read as one object
    for name, value in _exports(jf):
        obj = _value(jf, value)
        if obj is None or obj.type != "object" or obj.id in seen:
            continue
        seen.add(obj.id)
        whole = whole or name is None
        if name is None and _holds_types(jf, obj):
            _resolver_map(jf, obj)
            continue
        type_name = name if name is not None else stem
        if _TYPE_NAME.match(type_name) and _all_functions(jf, obj):
            _type_fields(jf, type_name, obj)
    if not whole and _TYPE_NAME.match(stem):
        _exported_functions(jf, stem)


def _exported_functions(jf: JsFile, type_name: str) -> None:
    """ES modules' form of a resolvers file named after a type (``resolvers/Query.ts`` with ``export async function
    feed(parent, args, ctx)`` / ``export const info = () => ...``, imported as ``import * as Query``): each exported
    function is a resolver of ``type_name``, with the context binding."""
    op = graphql_operation(type_name)
    for stmt in jf.root.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else None
        if decl is None:
            continue
        found: list[tuple[Node, Node]] = []  # (name node, function node)
        if decl.type in ("function_declaration", "generator_function_declaration"):
            name = decl.child_by_field_name("name")
            if name is not None:
                found.append((name, decl))
        elif decl.type in ("lexical_declaration", "variable_declaration"):
            for d in decl.named_children:
                name = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                value = unwrap(d.child_by_field_name("value")) if name is not None else None
                if name is not None and value is not None and value.type in FUNCTION_TYPES:
                    found.append((name, value))
        for name, fn in found:
            field = jf.text(name)
            own = jf.definition_named(name)
            handler = own.qualname if own is not None and own.kind in ("function", "method") else None
            if handler is None:
                continue
            _context_parameter(jf, fn, handler, _CONTEXT_ARG_OF.get(field, _CONTEXT_ARG))
            line, col = jf.pos(name)
            jf.out.routes.append(Route(FRAMEWORK, [op], Template.of(f"{type_name}.{field}"), handler, line, col))


def _exports(jf: JsFile) -> list[tuple[str | None, Node]]:
    """``(exported name, value)`` of each program-level export of a value: ``export const X = v`` (each
    declarator), ``exports.X = v`` / ``module.exports.X = v``; ``(None, v)`` for ``export default v`` and
    ``module.exports = v``."""
    out: list[tuple[str | None, Node]] = []
    for stmt in jf.root.named_children:
        if stmt.type == "export_statement":
            decl = stmt.child_by_field_name("declaration")
            if decl is not None and decl.type in ("lexical_declaration", "variable_declaration"):
                for d in decl.named_children:
                    value = d.child_by_field_name("value") if d.type == "variable_declarator" else None
                    if value is not None:
                        out.append((jf.text(d.child_by_field_name("name")), value))
            value = stmt.child_by_field_name("value")
            if value is not None and decl is None:
                out.append((None, value))
        elif stmt.type == "expression_statement" and stmt.named_children \
                and stmt.named_children[0].type == "assignment_expression":
            a = stmt.named_children[0]
            left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
            target = jf.text(left) if left is not None else ""
            if right is None:
                continue
            if target == "module.exports":
                out.append((None, right))
            elif target.startswith(("exports.", "module.exports.")) and target.count(".") == target.startswith("m") + 1:
                out.append((target.rsplit(".", 1)[-1], right))
    return out


def _holds_types(jf: JsFile, obj: Node) -> bool:
    """Whether an object literal's entries name types whose values are objects of the file (a resolver map)."""
    for e in obj.named_children:
        if e.type == "shorthand_property_identifier":
            name, value = jf.text(e), _value(jf, e)
        elif e.type == "pair":
            name, value = _key(jf, e.child_by_field_name("key")) or "", _value(jf, e.child_by_field_name("value"))
        else:
            continue
        if _TYPE_NAME.match(name) and value is not None and value.type == "object":
            return True
    return False


def _all_functions(jf: JsFile, obj: Node) -> bool:
    """Whether every entry of a non-empty object literal is a function: inline, a method, a function of the
    file named (``{ feed }``, ``{ feed: listLinks }``), or a subscription's ``{ subscribe }``."""
    entries = [e for e in obj.named_children if e.type != "comment"]
    if not entries:
        return False
    scope = jf.code_scope(obj)
    for e in entries:
        if e.type == "method_definition":
            continue
        if e.type == "shorthand_property_identifier":
            held = _value(jf, e)
            if jf.local_callable(jf.text(e), scope) is None and not (
                    held is not None and held.type == "object" and "subscribe" in jf.object_pairs(held)):
                return False
            continue
        value = unwrap(e.child_by_field_name("value")) if e.type == "pair" else None
        if value is None:
            return False
        if value.type == "object" and "subscribe" in jf.object_pairs(value):
            continue
        if value.type not in FUNCTION_TYPES and not (value.type == "identifier"
                                                     and jf.local_callable(jf.text(value), scope) is not None):
            return False
    return True


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
        if entry.type == "pair":
            type_name = _key(jf, entry.child_by_field_name("key"))
            fields = _value(jf, entry.child_by_field_name("value"))  # `Query: {...}`, `Query: queryResolvers` of the file
        elif entry.type == "shorthand_property_identifier":  # `{ Query, Mutation }`, each an object of the file
            type_name, fields = jf.text(entry), _value(jf, entry)
        else:
            continue
        if not type_name or fields is None or fields.type != "object":
            continue
        _type_fields(jf, type_name, fields)


def _type_fields(jf: JsFile, type_name: str, fields: Node) -> None:
    """A route per resolver of the object literal ``fields``, the field map of GraphQL type ``type_name``."""
    op = graphql_operation(type_name)
    for f in fields.named_children:
        if f.type == "pair":
            key, value = f.child_by_field_name("key"), unwrap(f.child_by_field_name("value"))
        elif f.type == "method_definition":
            key, value = f.child_by_field_name("name"), f
        elif f.type == "shorthand_property_identifier":
            held = _value(jf, f)  # `{ newLink }` with `const newLink = { subscribe: fn, resolve }` in the file
            key, value = f, held if held is not None and held.type == "object" else f
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
            own = jf.definition_named(key) if f.type == "pair" else None  # `const User = { links: () => ... }`
            handler = own.qualname if own is not None and own.kind in ("function", "method") \
                else jf.inline_function(value, path)
            ref = None
            if handler is not None:
                _context_parameter(jf, value, handler, _CONTEXT_ARG_OF.get(field, _CONTEXT_ARG))
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
        if handler is not None and value.type not in FUNCTION_TYPES and value.type != "method_definition":
            fn = _top_function(jf, handler)
            if fn is not None:  # `Query: { me }` with `async function me(_, __, { dataSources })` in the file
                _context_parameter(jf, fn, handler, _CONTEXT_ARG_OF.get(field, _CONTEXT_ARG))
        line, col = jf.pos(key)
        jf.out.routes.append(Route(FRAMEWORK, [op], Template.of(path), handler, line, col, ref))


def _top_function(jf: JsFile, qualname: str) -> Node | None:
    """The node of the file-level function ``qualname`` (a declaration, or a ``const`` holding an
    arrow / function expression), or ``None`` (a nested one, a method, another file's)."""
    if "." in qualname:
        return None
    for stmt in jf.root.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if decl is not None and decl.type in ("function_declaration", "generator_function_declaration") \
                and jf.text(decl.child_by_field_name("name")) == qualname:
            return decl
    found = [v for v in (unwrap(v) for v in jf.module_values(qualname)) if v is not None]
    return found[-1] if found and found[-1].type in FUNCTION_TYPES else None


def _context_parameter(jf: JsFile, fn: Node, handler: str, index: int) -> None:
    """Bind the context parameter (number ``index`` from 0: the third, the second of
    ``__resolveReference``) of the inline resolver ``fn`` (qualname
    ``handler``) ``injected``: a name to :data:`APOLLO_CONTEXT`; ``{ dataSources }`` or
    ``{ dataSources: ds }`` to :data:`APOLLO_DATA_SOURCES`. A TypeScript parameter named and typed
    (``ctx: Ctx``) is also bound ``declared`` to its type, which the resolver reads first (an inline
    function's parameters get no binding from the extractor); a typed pattern (``{ dataSources }: Ctx``)
    binds no name to a type, so the server's object serves."""
    params = fn.child_by_field_name("parameters")
    args = [p for p in params.named_children if p.type != "comment"] if params is not None else []
    if len(args) <= index:
        return
    p = args[index]
    declared = None
    if p.type in ("required_parameter", "optional_parameter"):
        annotation = p.child_by_field_name("type")
        declared = bindable(jf.text(annotation.named_children[0]) if annotation and annotation.named_children else None)
        p = p.child_by_field_name("pattern")
    if p is not None and p.type == "assignment_pattern":
        p = p.child_by_field_name("left")
    if p is None:
        return
    line = jf.pos(p)[0]
    if p.type == "identifier":
        if declared:  # `ctx: Ctx`, as the extractor binds a declared function's parameter: read first
            jf.out.bindings.append(Binding(handler, jf.text(p), declared, "declared", line))
        jf.out.bindings.append(Binding(handler, jf.text(p), APOLLO_CONTEXT, "injected", line))
        return
    if p.type != "object_pattern":
        return
    for f in p.named_children:
        if f.type == "shorthand_property_identifier_pattern" and jf.text(f) == "dataSources":
            jf.out.bindings.append(Binding(handler, "dataSources", APOLLO_DATA_SOURCES, "injected", line))
        elif f.type == "pair_pattern" and _key(jf, f.child_by_field_name("key")) == "dataSources":
            v = f.child_by_field_name("value")
            if v is not None and v.type == "identifier":
                jf.out.bindings.append(Binding(handler, jf.text(v), APOLLO_DATA_SOURCES, "injected", line))


def _server_options(jf: JsFile, options: Node, sources: dict[str, tuple[str, int]]) -> None:
    """Add to ``sources`` (key -> (class text, line)) the data sources the server options object
    ``options`` builds: its ``dataSources`` function's returned object, and the ``dataSources``
    object of what its ``context`` function returns."""
    pairs = jf.object_pairs(options)
    built = _returned_object(jf, pairs.get("dataSources"))
    if built is not None:
        _constructed(jf, built, sources)
    context = _returned_object(jf, pairs.get("context"))
    if context is not None:
        ds = _value(jf, jf.object_pairs(context).get("dataSources"))
        if ds is not None and ds.type == "object":
            _constructed(jf, ds, sources)


def _value(jf: JsFile, node: Node | None) -> Node | None:
    """``node`` unwrapped, or the initialiser of the file-level or local name it is."""
    node = unwrap(node)
    if node is not None and node.type in ("identifier", "shorthand_property_identifier"):
        local = jf.local_value(node) if node.type == "identifier" else None
        if local is None:
            found = [v for v in jf.module_values(jf.text(node)) if v is not None]
            local = found[-1] if found else None
        return unwrap(local)
    return node


def _returned_object(jf: JsFile, node: Node | None) -> Node | None:
    """The object literal the function ``node`` (inline or named) returns: an arrow's body, else the
    last ``return {...}`` of its body outside nested functions; ``None`` otherwise."""
    fn = _value(jf, node)
    if fn is None or fn.type not in FUNCTION_TYPES:
        return None
    body = unwrap(fn.child_by_field_name("body"))
    if body is None:
        return None
    if body.type == "object":
        return body
    found: Node | None = None
    stack = [body] if body.type == "statement_block" else []
    while stack:
        n = stack.pop()
        for c in n.named_children:
            if c.type == "return_statement":
                r = unwrap(c.named_children[0]) if c.named_children else None
                if r is not None and r.type == "object" and (found is None or c.start_byte > found.start_byte):
                    found = r
            elif c.type not in FUNCTION_TYPES and c.type not in ("class_declaration", "class", "method_definition"):
                stack.append(c)
    return found


def _constructed(jf: JsFile, obj: Node, sources: dict[str, tuple[str, int]]) -> None:
    """Each ``key: new C(...)`` of the object literal ``obj`` into ``sources`` as ``key -> (C, line)``."""
    for key, v in jf.object_pairs(obj).items():
        v = _value(jf, v)
        if v is not None and v.type == "new_expression":
            ctor = v.child_by_field_name("constructor")
            if ctor is not None and ctor.type in ("identifier", "member_expression"):
                sources.setdefault(key, (jf.text(ctor), jf.pos(v)[0]))


def _record_sources(out: FileExtraction, sources: dict[str, tuple[str, int]]) -> None:
    """The bindings that record ``sources`` as the file's Apollo data-source and context objects."""
    if not sources:
        return
    add = out.bindings.append
    for obj in (APOLLO_DATA_SOURCES, APOLLO_CONTEXT):
        add(Binding(None, "@" + APOLLO_SERVER, obj, REGISTERS))
        add(Binding(None, obj, obj, "object"))
    add(Binding(APOLLO_CONTEXT, "dataSources", APOLLO_DATA_SOURCES, "alias"))
    for key, (cls, line) in sources.items():
        add(Binding(APOLLO_DATA_SOURCES, key, cls, "constructed", line))
