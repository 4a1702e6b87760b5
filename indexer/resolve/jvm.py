"""The package namespace the JVM languages share (Java and Kotlin): one module system base both
language folders subclass, so a Java file and a Kotlin file of one repository see each other's
types, and calls cross between them (a Kotlin class calling a Java method and back).

The two languages share the module namespace ``java``: a file's module key is its package (the folder
path, dotted, when it declares none), every dotted prefix is a package. The core keeps one module
system per namespace for :meth:`JvmModuleSystem.module_member`, so that method is the same for both
languages (defined here) and sees both languages' top-level declarations: types, and Kotlin's
top-level functions and properties. A Kotlin file holding top-level functions or properties is also
the module ``<package>.<Stem>Kt`` (the facade class ``FileKt`` the Kotlin compiler generates, which
Java code names: ``UtilsKt.slugify(x)``); :func:`facade_name` names it. What differs between the
languages (imports, aliases, implicit names) stays in each folder's subclass.

Language-neutral in the sense the resolver core needs: it knows packages and dotted names, no syntax.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping

from indexer.model import FileExtraction, Import
from indexer.resolve.context import FileCtx
from indexer.resolve.language import ImportTarget, Lookup
from indexer.resolve.values import EXTERNAL, ClassV, InstV, ModuleV, Value

__all__ = ["JVM_NAMESPACE", "JvmModuleSystem", "facade_name", "jvm_path"]

JVM_NAMESPACE = "java"
"""The module namespace of every JVM language (the name Java had alone before Kotlin came)."""


def facade_name(path: str) -> str:
    """The JVM class holding a Kotlin file's top-level functions: ``src/a/string_utils.kt`` ->
    ``String_utilsKt`` (the file name without suffix, first letter upper-cased, plus ``Kt``)."""
    stem = posixpath.basename(path).rsplit(".", 1)[0]
    return (stem[:1].upper() + stem[1:] + "Kt") if stem else "Kt"


def jvm_path(r: Lookup, dotted: str) -> Value:
    """A dotted JVM name: the longest package prefix, then a chain of (nested) types or a facade."""
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        pkg = ".".join(parts[:i])
        if r.has_package(JVM_NAMESPACE, pkg):
            v: Value = ModuleV(JVM_NAMESPACE, pkg)
            for part in parts[i:]:
                v = r.attr(v, part)
                if v is None:
                    return None
            return v
    return None


class JvmModuleSystem:
    """What Java and Kotlin share of a :class:`~indexer.resolve.language.ModuleSystem`; each
    language folder subclasses it (``languages``, ``primitives``, imports, unbound names)."""

    languages: frozenset[str] = frozenset()
    namespace = JVM_NAMESPACE
    dotted_packages = True
    layout_suffixes: tuple[str, ...] = ()
    primitives: frozenset[str] = frozenset()
    constructor_name = None
    construction_hooks: tuple[str, ...] = ()
    call_method: str | None = None
    deferred_calls: frozenset[str] = frozenset()
    instance_prefix = "this."
    class_body_hidden = False
    class_receiver = None
    implicit_this = True
    property_functions = False

    def is_builtin(self, name: str) -> bool:
        """No built-in functions by default."""
        return False

    def layout_keys(self, paths: Iterable[str]) -> Mapping[str, str]:
        """JVM module keys do not depend on the file set."""
        return {}

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The declared package, else the folder path dotted."""
        return ex.package if ex.package is not None else posixpath.dirname(ex.path).replace("/", ".")

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The file's package."""
        return [fc.module_key]

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """A package (``a.b.*``) or a member (a type, nested types included, or a top-level function)."""
        if imp.name is None:
            return ModuleV(JVM_NAMESPACE, imp.module) if r.has_package(JVM_NAMESPACE, imp.module) else EXTERNAL
        v = jvm_path(r, f"{imp.module}.{imp.name}")
        return EXTERNAL if v is None else v

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """A top-level declaration of the package (a type; a Kotlin function or property), else the
        Kotlin facade class ``key.name`` (its top-level declarations), else the subpackage."""
        files = r.module_files(JVM_NAMESPACE, key)
        for fc in files:
            r.use(("name", fc.path, name))
            for rd in fc.top.get(name, ()):
                return r.def_value(rd)
        sub = f"{key}.{name}"
        if r.has_module(JVM_NAMESPACE, sub) and not r.has_package(JVM_NAMESPACE, sub):
            return ModuleV(JVM_NAMESPACE, sub)  # a Kotlin facade (``UtilsKt``)
        if r.has_package(JVM_NAMESPACE, sub):
            return ModuleV(JVM_NAMESPACE, sub)
        return None

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """A declaration of the file's own package, else of a wildcard import (a package or a class)."""
        v = r.module_member(JVM_NAMESPACE, fc.module_key, name)
        if v is not None:
            return v
        for imp in fc.star_imports:
            if r.has_package(JVM_NAMESPACE, imp.module):
                v = r.module_member(JVM_NAMESPACE, imp.module, name)
            else:
                v = r.attr(jvm_path(r, imp.module), name)
            if v is not None:
                return v
        return None

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """A fully qualified name (:func:`jvm_path`)."""
        return jvm_path(r, dotted)

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """The class whose member an import names (``import static a.Paths.OWNERS``)."""
        v = jvm_path(r, imp.module) if imp.name else None
        return ImportTarget(of_class=True, owner=v.c if isinstance(v, ClassV | InstV) else None)

    def module_by_name(self, r: Lookup, fc: FileCtx, name: str) -> list[FileCtx]:
        """JVM languages name no modules by strings."""
        return []
