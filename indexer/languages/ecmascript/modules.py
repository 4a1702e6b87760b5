"""The ECMAScript module system (JavaScript and TypeScript share it) and scoping rules, as the
resolver core (:mod:`indexer.resolve`) uses them.

A file's module key is its path without the suffix; ``dir/index`` is also ``dir``. An import
specifier is relative to the importing file (``./x``, ``./x.js`` naming ``x.ts``); a bare specifier is
a package (external). A module's member ``n`` is an explicit export (``export { a as n }``, re-exports
from another module), an exported declaration, a star re-export, then any top-level name (CommonJS).
A bare call may be a method of the enclosing classes (implicit ``this``); a function assigned to a
property (``res.send = function () {}``) can be a method call's target in the name fallback.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from indexer.languages.base import AngleBracketGenerics
from indexer.languages.ecmascript.elements import query_call
from indexer.languages.ecmascript.frameworks.apollo import APOLLO_CONTEXT, APOLLO_DATA_SOURCES, APOLLO_SERVER
from indexer.languages.ecmascript.frameworks.aura import AURA_HELPER, AURA_SPECIFIER
from indexer.languages.ecmascript.refs import box_value, query_read
from indexer.languages.ecmascript.returned_objects import RETURNED
from indexer.languages.ecmascript.syntax import array_element, map_value, tuple_items
from indexer.model import Binding, FileExtraction, Import
from indexer.resolve.context import FileCtx, default_export, shared_parts
from indexer.resolve.language import ImportTarget, Lookup, ModuleSystemDefaults
from indexer.resolve.multimap import entries
from indexer.resolve.values import EXTERNAL, InstV, ModuleV, ObjV, Value
from indexer.symbols import module_path

__all__ = ["APEX_SPECIFIER", "MODULE_SYSTEM", "EcmaScriptModuleSystem", "apex_method", "reexported", "resolve_specifier"]

_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".vue")


def resolve_specifier(r: Lookup, fc: FileCtx, spec: str) -> str | None:
    """Module key named by a JS/TS import specifier from ``fc``, or ``None`` (a package outside the
    repository). A bare specifier naming a path alias or a package of the repository (``@/lib/x``,
    ``@acme/core``, ``zod/v4``: :class:`indexer.frameworks.js_modules.JsModules`, the namespace's
    module configuration) is the first of its candidate files some file holds."""
    if not spec.startswith("."):
        packages = r.module_config("ecmascript")
        candidates = getattr(packages, "candidates", None)
        if candidates is None:
            return None
        for path in candidates(spec, fc.path):
            key = _existing(r, path)
            if key is not None:
                return key
        return None
    return _existing(r, posixpath.normpath(posixpath.join(posixpath.dirname(fc.path), spec)))


MAX_REEXPORT_HOPS = 8
"""How many barrel modules :func:`reexported` follows for one import (``index.ts`` re-exporting a
re-export...); a cycle of ``export * from`` stops there too."""


def reexported(r: Lookup, files: list[FileCtx], name: str | None) -> ImportTarget:
    """What an import of ``name`` (``"default"``, a member, ``None``: the module) from the module of
    ``files`` names for the framework linker, following re-exports: a barrel module (``index.ts``
    with ``export { default } from "./stars"``, ``export { a as b } from "./m"``, ``export * as ns
    from "./m"``, or ``export * from "./m"`` when the module has no ``name`` of its own) gives way to
    the module it re-exports from, at most :data:`MAX_REEXPORT_HOPS` times (ECMAScript's
    ResolveExport, ECMA-262 16.2.1.6.3, for the explicit and star forms). The result's ``member`` is
    the local name a default export exports (``export default api`` -> ``api``), else ``name``; a
    ``default`` declared in place (``export default function f``) or not found is ``None``."""
    for _ in range(MAX_REEXPORT_HOPS):
        if name is None:
            return ImportTarget(files, None)
        nxt: tuple[list[FileCtx], str | None] | None = None
        for fc in files:
            r.use(("name", fc.path, name))
            own = any(ex.exported == name and ex.module is None for ex in fc.ex.exports) or \
                (name != "default" and bool(entries(fc.top, name)))
            if own:
                break
            ex = next((e for e in fc.ex.exports if e.exported == name and e.module is not None), None)
            if ex is None and name != "default":
                r.use(("name", fc.path, "*"))
                for key in _star_targets(r, fc):
                    there = r.module_files("ecmascript", key)
                    if any(name in _export_names(r, t) and (entries(t.top, name) or any(e.exported == name for e in t.ex.exports))
                           for t in there):
                        nxt = (there, name)
                        break
            elif ex is not None:
                key = resolve_specifier(r, fc, ex.module or "")
                nxt = (r.module_files("ecmascript", key), ex.name) if key is not None else None
            if nxt is not None:
                break
        if nxt is None or not nxt[0]:
            break
        files, name = nxt
    return ImportTarget(files, default_export(files) if name == "default" else name)


def _existing(r: Lookup, target: str) -> str | None:
    """The module key of repository-relative ``target`` (a suffix as written, ``./x.js`` naming
    ``x.ts``, or none), or ``None`` when no file holds it."""
    if r.has_module("ecmascript", target):
        return target
    for suffix in _SUFFIXES:
        if target.endswith(suffix):
            if r.has_module("ecmascript", target[: -len(suffix)]):
                return target[: -len(suffix)]
    return None


APEX_SPECIFIER = "@salesforce/apex/"
"""The module specifier prefix under which the Lightning Web Components compiler serves Apex methods."""
APEX_NAMESPACE, APEX_ORG_KEY = "apex", "org"
"""Where the Apex module system (``indexer.languages.apex.modules``) keeps the org's classes."""
AURA_NAMESPACE, SERVER_ACTIONS = "aura", "c"
"""Where the Aura markup module system (``indexer.languages.aura.modules``) answers a bundle's server
actions provider ``c`` (the bundle folder is the module key)."""


def apex_method(r: Lookup, specifier: str) -> Value:
    """The Apex method an ``@salesforce/apex/[namespace.]Class.method`` import names: the class
    looked up in the org (case-insensitively, as Apex does), then its member; external when the
    repository does not declare it. ``@salesforce/apex`` alone (the ``refreshApex`` helpers) and
    malformed specifiers are external."""
    parts = specifier[len(APEX_SPECIFIER):].split(".")
    if len(parts) < 2 or not all(p.isidentifier() for p in parts):
        return EXTERNAL
    cls = r.module_member(APEX_NAMESPACE, APEX_ORG_KEY, parts[-2])
    if cls is None:
        return EXTERNAL
    member = r.attr(cls, parts[-1])
    return EXTERNAL if member is None else member


class EcmaScriptModuleSystem(AngleBracketGenerics, ModuleSystemDefaults):
    """JavaScript's and TypeScript's :class:`~indexer.resolve.language.ModuleSystem`."""

    languages = frozenset({"typescript", "javascript", "vue"})
    namespace = "ecmascript"
    primitives = frozenset({"string", "number", "bigint", "boolean", "any", "unknown", "never", "undefined",
                            "null", "object", "symbol", "void"})
    library_primitives = frozenset({"string", "number", "boolean", "symbol", "bigint"})
    """A parameter declared with one of these (``name: string``, ``index: number``, ``ids: string[]``, ``ok: boolean |
    undefined``) holds the language's own value: a call on it (``name.replace()``, ``ids.filter()``) is never matched by
    name to a repository method (ECMA-262 6.1); ``any`` / ``unknown`` / ``object`` say nothing and keep the name match."""
    ambient_types_external = True
    """A declared type no file declares nor imports (``NodeJS.ReadableStream``, ``HTMLElement``) is one of
    the ``lib`` / ``@types`` declarations the compiler sees: its value is the library's (an optional
    attribute of a module system, :mod:`indexer.resolve.ambient`)."""
    constructor_name = "constructor"
    instance_prefix = "this."
    implicit_this = True
    property_functions = True
    closed_objects = RETURNED
    """The last qualname segment of a plain object that has exactly the properties written in its
    literal: the object a function returns (``F.return``, :mod:`indexer.languages.ecmascript.returned_objects`),
    made anew by each call, so a call of a property it lacks is no function of the repository matched
    by name (an optional attribute of a module system, :mod:`indexer.resolve.calls`)."""
    handed_down = frozenset({"props", "this.props"})
    """Receivers holding what the module rendering the calling one hands it (React's component
    ``props`` / ``this.props``): a factory's member (``mapDispatchToProps.return.onClickTag``) is a name
    candidate for ``props.onClickTag()`` in a module the factory's module imports (it renders
    ``<Tags onClickTag={...}/>``), an optional attribute of a module system (:mod:`indexer.resolve.calls`)."""
    invoking_members = frozenset({"call", "apply"})
    """Members of a function that call it (``Base.call(this, x)``, ``fn.apply(ctx, args)``; the first
    argument is ``this``), an optional attribute of a module system (:mod:`indexer.resolve.calls`,
    :mod:`indexer.resolve.callbacks`)."""
    getter_modifiers = frozenset({"get"})
    """Methods an attribute read runs (``get x()`` accessors), an optional attribute of a module
    system (:mod:`indexer.resolve.reads`)."""
    subclass_members = True
    """A method may call on ``this`` what only subclasses provide (a JavaScript base class's hook, a
    mixin): an optional attribute of a module system
    (:meth:`indexer.resolve.hierarchy.ClassHierarchy.provided_below`)."""
    container_element = staticmethod(array_element)
    """The element type of an array type (``User[]``, ``Array<User>``, ``Promise<User[]>``; read by the
    resolver's ``typed_value``, an optional attribute of a module system): a name declared or a
    function returning one is an array of the element class (:class:`~indexer.resolve.values.QueryV`)."""
    query_call = staticmethod(query_call)
    """What an array's or a map's method returns (:func:`indexer.languages.ecmascript.elements.query_call`)."""
    @staticmethod
    def map_value(type_text: str | None) -> tuple[str, str] | None:
        """The value type of a map type (``Map<string, User>``, ``Record<string, User>``; the resolver's
        ``typed_value``, :func:`indexer.languages.ecmascript.syntax.map_value`) or of a ref, a map of
        one property (``Ref<User>``: :func:`indexer.languages.ecmascript.refs.box_value`)."""
        return box_value(type_text) or map_value(type_text)

    query_read = staticmethod(query_read)
    """A ref's property (``form.value``: :func:`indexer.languages.ecmascript.refs.query_read`)."""
    tuple_items = staticmethod(tuple_items)
    """The item types of a tuple type (``[User, boolean]``; :func:`indexer.languages.ecmascript.syntax.tuple_items`)."""

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The path without its suffix."""
        return module_path(ex.path)

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The module key, and ``dir`` for ``dir/index``."""
        keys = [fc.module_key]
        if posixpath.basename(fc.module_key) == "index":
            keys.append(posixpath.dirname(fc.module_key))
        return keys

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """A relative specifier's module (namespace import) or member; a package is external. A
        Lightning Web Component's ``@salesforce/apex/Class.method`` (:func:`apex_method`) is that
        Apex method when the repository declares it; an Aura bundle's ``c`` (:data:`AURA_SPECIFIER`,
        :mod:`indexer.languages.ecmascript.frameworks.aura`) is the Apex controller class the bundle's
        markup names (the ``aura`` namespace's member ``c`` of the bundle folder), external when none does;
        its helper (:data:`AURA_HELPER`) the ``aura`` namespace's module ``<folder>#helper`` (the bundle's
        helper functions, then those of the component it extends)."""
        if imp.module.startswith(APEX_SPECIFIER):
            return apex_method(r, imp.module)
        if imp.module.startswith(AURA_SPECIFIER):  # an Aura bundle's server actions: its Apex controller
            return r.module_member(AURA_NAMESPACE, imp.module[len(AURA_SPECIFIER):], SERVER_ACTIONS) or EXTERNAL
        if imp.module.startswith(AURA_HELPER):  # an Aura bundle's helper, or the helper it inherits
            return ModuleV(AURA_NAMESPACE, imp.module[len(AURA_HELPER):] + "#helper")
        key = resolve_specifier(r, fc, imp.module)
        if key is None:
            return EXTERNAL
        if imp.name is None:
            return ModuleV("ecmascript", key)
        return r.module_member("ecmascript", key, imp.name)

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """Explicit exports, exported declarations, star re-exports, then any top-level name; then a
        member of the module's default export when that is an object or an instance (what
        ``require(m)`` gives for ``module.exports = F()`` / ``module.exports = new X()``)."""
        for fc in r.module_files("ecmascript", key):
            r.use(("name", fc.path, name))
            r.use(("name", fc.path, "*"))
            for ex in fc.ex.exports:
                if ex.exported != name:
                    continue
                if ex.module is not None:
                    target = resolve_specifier(r, fc, ex.module)
                    if target is None:
                        return EXTERNAL
                    return ModuleV("ecmascript", target) if ex.name is None else r.module_member("ecmascript", target, ex.name)
                if ex.local is not None:
                    return r.resolve_name(fc, None, ex.local)
            for rd in fc.defs:
                if rd.parent is None and rd.d.exported and (
                    rd.name == name or (name == "default" and "default" in rd.d.modifiers)
                ):
                    return r.def_value(rd)
            for target in _star_targets(r, fc):
                if _may_export(r, target, name):
                    v = r.module_member("ecmascript", target, name)
                    if v is not None:
                        return v
            if name != "default":
                defs = entries(fc.top, name)
                if defs:
                    return r.def_value(defs[-1])
        if name != "default":  # CommonJS `module.exports = F()` / `new X()`: `require(m).get` is the value's
            value = r.module_member("ecmascript", key, "default")
            if isinstance(value, ObjV | InstV):
                return r.attr(value, name)
        return None

    def injected_binding(self, r: Lookup, fc: FileCtx, b: Binding) -> Value:
        """The value of an ``injected`` binding: Apollo Server's context (``b.type`` ``APOLLO_CONTEXT``) or
        its ``dataSources`` (``APOLLO_DATA_SOURCES``) handed to a resolver of ``fc``
        (:mod:`indexer.languages.ecmascript.frameworks.apollo`): the object the repository's
        ``ApolloServer`` options build, of the server file nearest ``fc`` (most shared leading folders,
        then path order: ``final/server`` and ``start/server`` each keep their own); ``None`` when no
        server of the repository records one, or for another ``b.type``."""
        if b.type not in (APOLLO_CONTEXT, APOLLO_DATA_SOURCES):
            return None
        servers = [(sfc, sb) for sfc, sb in r.registration_bindings(fc.rules.namespace, APOLLO_SERVER) if sb.type == b.type]
        if not servers:
            return None
        sfc, sb = max(servers, key=lambda x: shared_parts(x[0].path, fc.path))  # max keeps the first of a tie
        return ObjV(sfc.path, sb.type)

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """Nothing beyond scopes and named imports."""
        return None

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """The module's files and the member (``default``: the name exported as default)."""
        key = resolve_specifier(r, fc, imp.module)
        if key is None:
            return ImportTarget()
        files = r.module_files(fc.lang, key)
        return reexported(r, files, imp.name)


def _star_targets(r: Lookup, fc: FileCtx) -> tuple[str, ...]:
    """The module keys ``fc`` re-exports with ``export * from``, in source order (specifiers naming
    no module of the repository left out); computed once per file (memoised with what resolving the
    specifiers read), not once per name asked of a barrel."""
    def compute() -> tuple[str, ...]:
        keys = (resolve_specifier(r, fc, ex.module) for ex in fc.ex.exports
                if ex.exported == "*" and ex.module is not None)
        return tuple(k for k in keys if k is not None)
    found = r.memoised((id(fc), None, "", "stars:ecmascript"), compute)
    # ``None``: cut, met MAX_MEMO_DEPTH lookups deep (a chain of thousands of barrels): computed here,
    # as it recurses no further (brk55: iterating the ``None`` crashed the run)
    return found if found is not None else compute()  # type: ignore[return-value]


def _export_names(r: Lookup, fc: FileCtx) -> frozenset[str]:
    """Every name :meth:`EcmaScriptModuleSystem.module_member` can find in ``fc`` without following a
    star re-export (explicit exports, top-level declarations, ``default`` when one is declared so),
    plus ``*`` when it has star re-exports: a superset, read to skip the modules of a barrel that
    cannot hold a name. Memoised per file object (an edited file is a new object, its entries dropped)."""
    def compute() -> frozenset[str]:
        names = {ex.exported for ex in fc.ex.exports}
        for rd in fc.defs:
            if rd.parent is None:
                names.add(rd.name)
                if "default" in rd.d.modifiers:
                    names.add("default")
        return frozenset(names)
    found = r.memoised((id(fc), None, "", "exported:ecmascript"), compute)
    return found if found is not None else compute()  # type: ignore[return-value]  # cut: as _star_targets


def _may_export(r: Lookup, key: str, name: str) -> bool:
    """Whether module ``key`` may hold ``name`` (:func:`_export_names` of its files). When it cannot,
    the reads :meth:`EcmaScriptModuleSystem.module_member` would have recorded for that ``None`` (the
    module key, and per file the name and its star re-exports) are recorded here instead, so an update
    adding the name to the module still invalidates whoever asked. Without this check a barrel of
    ``N`` star re-exports asked ``N`` names made about ``N * N / 2`` member lookups, each reading a
    module's exports back from the park (brk52: 1,000 modules, 192 s)."""
    files = r.module_files("ecmascript", key)
    for fc in files:
        r.use(("name", fc.path, name))
        r.use(("name", fc.path, "*"))
    return any(name in names or "*" in names for names in (_export_names(r, fc) for fc in files))


MODULE_SYSTEM = EcmaScriptModuleSystem()
