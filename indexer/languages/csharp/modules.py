"""C#'s module system and scoping rules, as the resolver core (:mod:`indexer.resolve`) uses them.

A file's module key is its namespace (``global`` when it declares none); every dotted prefix is a
namespace. ``using A.B;`` brings the types of namespace ``A.B`` into scope (a wildcard import),
``using static A.B.C;`` the members of class ``C``, ``using X = A.B.C;`` binds ``X`` to a type or a
namespace. A name bound nowhere else is a type of the file's own namespace, then of each enclosing
namespace (code in ``A.B.C`` sees ``A.B``'s and ``A``'s types), then of the ``using`` namespaces, then
of the ``global using`` namespaces of the project (a file declaring them, ``GlobalUsings.cs``, is
found under the module key :data:`GLOBAL_USINGS`; its folder is taken as the project's: they hold for
the files under it, as a ``.csproj`` beside it compiles them); a type-like name (capitalised) none of
these declares is a referenced assembly's (external), unless it is named like a type parameter (``T``,
``TContext``: the guidelines' ``T`` prefix; the extraction does not record type parameters). A
bare call may be a method of the enclosing classes (implicit ``this``); ``base(...)`` /
``this(...)`` call constructors. The parts of a partial class live in several files of one namespace:
member lookup reads the namespace's other files (``open_types``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

from indexer.languages.base import AngleBracketGenerics
from indexer.languages.csharp.containers import (PAIR_NAMES, element_type, map_value, query_call, query_read,
                                                 tuple_items, tuple_names)
from indexer.languages.csharp.extractor import GLOBAL_USING
from indexer.model import FileExtraction, Import
from indexer.resolve.context import FileCtx
from indexer.resolve.language import ImportTarget, Lookup, ModuleSystemDefaults, package_path
from indexer.resolve.multimap import entries
from indexer.resolve.values import EXTERNAL, ClassV, InstV, ModuleV, Value

__all__ = ["GLOBAL_NAMESPACE", "GLOBAL_USINGS", "MODULE_SYSTEM", "CSharpModuleSystem", "csharp_path"]

NAMESPACE = "csharp"
GLOBAL_NAMESPACE = "global"
"""The module key of files that declare no namespace."""
_TYPE_PARAMETER = re.compile(r"T(?:[A-Z0-9]\w*)?")
"""A type parameter's name as .NET's naming guidelines write it (``T``, ``TKey``, ``TRequest``)."""

GLOBAL_USINGS = "<global usings>"
"""A second module key of every file declaring ``global using`` directives (no namespace is named so)."""


def csharp_path(r: Lookup, dotted: str) -> Value:
    """A dotted C# name, ``global::`` dropped: the longest namespace prefix, then a chain of (nested)
    types (:func:`indexer.resolve.language.package_path`)."""
    return package_path(r, NAMESPACE, dotted.removeprefix("global::"))


class CSharpModuleSystem(AngleBracketGenerics, ModuleSystemDefaults):
    """C#'s :class:`~indexer.resolve.language.ModuleSystem`."""

    languages = frozenset({"csharp"})
    namespace = NAMESPACE
    dotted_packages = True
    primitives = frozenset({"int", "long", "short", "byte", "char", "bool", "float", "double", "void", "var",
                            "string", "object"})
    """C#'s keyword types that are primitive in the other languages too (the core joins every
    language's set); ``decimal``, ``uint`` and the like name no type of a repository anyway."""
    instance_prefix = "this."
    implicit_this = True
    open_types = True
    extension_functions = True
    """C# extension methods (``static void M(this T x)``) bind on a receiver of their type (read by the
    core's call binder, an optional attribute of a module system)."""
    unbound_types_external = True
    """A capitalised name bound nowhere is a library's type (:meth:`resolve_unbound`); a bare call of
    such a name still tries the enclosing classes' methods first (read by the core's call binder)."""
    container_element = staticmethod(element_type)
    """The element type text of a library container type (``DbSet<Order>`` -> ``Order``; read by the
    resolver's ``typed_value``, an optional attribute of a module system): a name declared or a
    method returning one is a container of the element class (:class:`~indexer.resolve.values.QueryV`)."""
    query_call = staticmethod(query_call)
    """What a LINQ or collection call on such a container returns
    (:func:`indexer.languages.csharp.containers.query_call`)."""
    map_value = staticmethod(map_value)
    """The value type of a library map (``Dictionary<string, Order>``;
    :func:`indexer.languages.csharp.containers.map_value`)."""
    query_read = staticmethod(query_read)
    """A container's property (a map's ``Values``; :func:`indexer.languages.csharp.containers.query_read`)."""
    tuple_items = staticmethod(tuple_items)
    """The element types of a tuple type (``(Order, Buyer)``, ``Tuple<Order, Buyer>``; read by the resolver's
    ``typed_value``: :func:`indexer.languages.csharp.containers.tuple_items`)."""
    tuple_names = staticmethod(tuple_names)
    """The member names of a tuple's elements (``Item1``, a declared ``order``;
    :func:`indexer.languages.csharp.containers.tuple_names`)."""
    pair_names = PAIR_NAMES
    """The members of the ``KeyValuePair`` items a map hands out (``kv.Key``, ``kv.Value``)."""

    def is_builtin(self, name: str) -> bool:
        """C# has no free functions: ``nameof`` is the one built-in callable."""
        return name == "nameof"

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The declared namespace, else ``global``."""
        return ex.package or GLOBAL_NAMESPACE

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The file's namespace, and :data:`GLOBAL_USINGS` when it declares ``global using`` namespaces."""
        if any(imp.level == GLOBAL_USING for imp in fc.star_imports):
            return [fc.module_key, GLOBAL_USINGS]
        return [fc.module_key]

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """A namespace (``using A.B;``) or an alias to a type or namespace."""
        if imp.name is None:
            return ModuleV(NAMESPACE, imp.module) if r.has_package(NAMESPACE, imp.module) else EXTERNAL
        full = f"{imp.module}.{imp.name}" if imp.module else imp.name
        if r.has_package(NAMESPACE, full):
            return ModuleV(NAMESPACE, full)
        v = csharp_path(r, full)
        return EXTERNAL if v is None else v

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """A top-level type of namespace ``key``, else its child namespace ``key.name``."""
        for fc in r.module_holders(NAMESPACE, key, name):  # not every file of the namespace (session 63)
            r.use(("name", fc.path, name))
            for rd in entries(fc.top, name):
                return ClassV(rd)
        sub = f"{key}.{name}"
        if r.has_package(NAMESPACE, sub):
            return ModuleV(NAMESPACE, sub)
        return None

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """A type of the file's namespace or an enclosing one, else of a ``using`` namespace (or the
        members of a ``using static`` class), else a root namespace (``Shop`` of ``Shop.Api.X``)."""
        key = fc.module_key
        while key:
            v = r.module_member(NAMESPACE, key, name)
            if v is not None:
                return v
            key = key.rpartition(".")[0]
        if fc.module_key != GLOBAL_NAMESPACE:
            v = r.module_member(NAMESPACE, GLOBAL_NAMESPACE, name)
            if v is not None:
                return v
        for imp in [*fc.star_imports, *_project_usings(r, fc)]:
            if r.has_package(NAMESPACE, imp.module):
                v = r.module_member(NAMESPACE, imp.module, name)
            else:
                v = r.attr(csharp_path(r, imp.module), name)
            if v is not None:
                return v
        if r.has_package(NAMESPACE, name):
            return ModuleV(NAMESPACE, name)
        if name[:1].isupper() and not _TYPE_PARAMETER.fullmatch(name):
            return EXTERNAL  # C# binds every name when it compiles: a type the repository declares nowhere
            # is a referenced assembly's (`List`, `JsonContent`, `Platform`); a type parameter is not
        return None

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """A fully qualified name (:func:`csharp_path`), also relative to the enclosing namespaces."""
        v = csharp_path(r, dotted)
        key = fc.module_key
        while v is None and key and key != GLOBAL_NAMESPACE:
            v = csharp_path(r, f"{key}.{dotted}")
            key = key.rpartition(".")[0]
        return v

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """The class an alias names (``using X = A.B.C;``), or the files of a namespace."""
        if imp.name is None:
            return ImportTarget(files=r.module_files(NAMESPACE, imp.module))
        v = csharp_path(r, f"{imp.module}.{imp.name}")
        return ImportTarget(of_class=True, owner=v.c if isinstance(v, ClassV | InstV) else None)


def _project_usings(r: Lookup, fc: FileCtx) -> list[Import]:
    """The ``global using`` namespaces of the other files of ``fc``'s project: files under the folder
    of a file declaring them (the reads are recorded)."""
    out: list[Import] = []
    for g in r.module_files(NAMESPACE, GLOBAL_USINGS):
        folder = posixpath.dirname(g.path)
        if g is fc or (folder and not fc.path.startswith(folder + "/")):
            continue
        r.use(("file", g.path, ""))
        out.extend(imp for imp in g.star_imports if imp.level == GLOBAL_USING)
    return out


MODULE_SYSTEM = CSharpModuleSystem()
