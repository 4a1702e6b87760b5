"""Java's module system and scoping rules, as the resolver core (:mod:`indexer.resolve`) uses them.

A file's module key is its package (the folder path, dotted, when it declares none); every dotted
prefix is a package. An import names a type (``a.b.C``, nested ``a.b.C.D``) or a package (``a.b.*``);
``import static`` names a class's member. A name bound nowhere else is a type of the file's own
package or of a wildcard import; a dotted name may be fully qualified. A bare call may be a method of
the enclosing classes (implicit ``this``); ``super(...)`` / ``this(...)`` call constructors.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping

from indexer.model import FileExtraction, Import
from indexer.resolve.context import FileCtx
from indexer.resolve.language import ImportTarget, Lookup
from indexer.resolve.values import EXTERNAL, ClassV, InstV, ModuleV, Value

__all__ = ["MODULE_SYSTEM", "JavaModuleSystem", "java_path"]


def java_path(r: Lookup, dotted: str) -> Value:
    """A dotted Java name: the longest package prefix, then a chain of (nested) types."""
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        pkg = ".".join(parts[:i])
        if r.has_package("java", pkg):
            v: Value = ModuleV("java", pkg)
            for part in parts[i:]:
                v = r.attr(v, part)
                if v is None:
                    return None
            return v
    return None


class JavaModuleSystem:
    """Java's :class:`~indexer.resolve.language.ModuleSystem`."""

    languages = frozenset({"java"})
    namespace = "java"
    dotted_packages = True
    layout_suffixes: tuple[str, ...] = ()
    primitives = frozenset({"int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var",
                            "Object", "String", "Integer", "Long", "Boolean", "Double", "List", "Map", "Set",
                            "Optional"})
    constructor_name = None
    construction_hooks: tuple[str, ...] = ()
    call_method: str | None = None
    deferred_calls: frozenset[str] = frozenset()
    instance_prefix = "this."
    class_body_hidden = False
    class_receiver = None
    implicit_this = True
    property_functions = False
    open_types = False
    runtime_calls = {"start": ("Thread", "run")}
    """Calls the runtime turns into a call of a repository method (read by the core's call binder,
    an optional attribute of a module system): ``x.start()`` with no arguments, when ``x``'s class
    extends ``Thread`` (as written in a class of its repository hierarchy) and the repository declares
    no ``start``, runs its ``run()``."""

    def is_builtin(self, name: str) -> bool:
        """Java has no builtin functions."""
        return False

    def layout_keys(self, paths: Iterable[str]) -> Mapping[str, str]:
        """Java's module keys do not depend on the file set."""
        return {}

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The declared package, else the folder path dotted."""
        return ex.package if ex.package is not None else posixpath.dirname(ex.path).replace("/", ".")

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The file's package."""
        return [fc.module_key]

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """A package (``a.b.*``) or a type, nested types included."""
        if imp.name is None:
            return ModuleV("java", imp.module) if r.has_package("java", imp.module) else EXTERNAL
        v = java_path(r, f"{imp.module}.{imp.name}")
        return EXTERNAL if v is None else v

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """A top-level type of the package, else its subpackage ``key.name``."""
        files = r.module_files("java", key)
        for fc in files:
            r.use(("name", fc.path, name))
            for rd in fc.top.get(name, ()):
                return ClassV(rd)
        sub = f"{key}.{name}"
        if r.has_package("java", sub):
            return ModuleV("java", sub)
        return None

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """A type of the file's own package, else of a wildcard import (a package or a class)."""
        v = r.module_member("java", fc.module_key, name)
        if v is not None:
            return v
        for imp in fc.star_imports:
            if r.has_package("java", imp.module):
                v = r.module_member("java", imp.module, name)
            else:
                v = r.attr(java_path(r, imp.module), name)
            if v is not None:
                return v
        return None

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """A fully qualified name (:func:`java_path`)."""
        return java_path(r, dotted)

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """The class whose member an import names (``import static a.Paths.OWNERS``)."""
        v = java_path(r, imp.module) if imp.name else None
        return ImportTarget(of_class=True, owner=v.c if isinstance(v, ClassV | InstV) else None)

    def module_by_name(self, r: Lookup, fc: FileCtx, name: str) -> list[FileCtx]:
        """Java has no modules named by strings."""
        return []


MODULE_SYSTEM = JavaModuleSystem()
