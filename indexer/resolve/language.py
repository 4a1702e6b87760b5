"""The interface between the language-neutral resolver core and each language.

A language folder (``indexer/languages/<language>/modules.py``) implements :class:`ModuleSystem`:
how the language's files are keyed as modules, how an import, an export or a qualified name
resolves, and the few scoping rules in which languages differ (Python hides a class body's names
from its methods; Java and TypeScript call through an implicit ``this``). The core
(:mod:`indexer.resolve.interpreter`) evaluates names, expressions, receivers and inheritance for
every language alike and calls the file's ``ModuleSystem`` (``FileCtx.rules``) at exactly those
points. A module system works through :class:`Lookup`, the resolver's public surface, so every
lookup it makes is memoised and recorded for incremental updates like the core's own.

The registry (:func:`indexer.languages.module_systems`) maps each language name to its module system;
the core never imports a language folder. :class:`ModuleSystemDefaults` holds the plain answers a
module system overrides where its language differs; two bases derived from it serve families of
languages: :class:`UnboundModuleSystem`
(schema languages that bind nothing) and :class:`JvmModuleSystem` (the package namespace Java and
Kotlin share, so their files call each other: the JVM section below says how).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from indexer.model import Binding, CallSite, FileExtraction, Import
from indexer.resolve.multimap import entries
from indexer.resolve.values import EXTERNAL, ClassV, Def, InstV, ModuleV, Token, Value
from indexer.symbols import module_path

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.tracking import MemoKey

__all__ = ["ImportTarget", "JVM_NAMESPACE", "JvmModuleSystem", "Lookup", "ModuleSystem", "ModuleSystemDefaults", "UnboundModuleSystem",
           "facade_name", "jvm_path", "package_path"]


@dataclass(frozen=True, slots=True)
class ImportTarget:
    """What an import names, as the framework linker follows it to constants and routers: the
    ``files`` of a module and the ``member`` imported from them (``None``: the module itself); or,
    when ``of_class`` (a Java static import), the class ``owner`` whose static members it names."""

    files: Sequence[FileCtx] = ()
    member: str | None = None
    of_class: bool = False
    owner: Def | None = None


class Lookup(Protocol):
    """The resolver as a module system and the framework linker see it. Every method records what
    it read (see :class:`indexer.resolve.tracking.DependencyTracker`) unless it says otherwise."""

    repo: str

    def use(self, token: Token) -> None:
        """Record that the computation under way read ``token``."""
        ...

    def module_files(self, lang: str, key: str) -> list[FileCtx]:
        """The files holding module ``key`` of ``lang``'s namespace (path order; empty: none)."""
        ...

    def has_module(self, ns: str, key: str) -> bool:
        """Whether some file holds module ``key`` of namespace ``ns``."""
        ...

    def module_holders(self, lang: str, key: str, name: str, members: bool = False) -> Sequence[FileCtx]:
        """The files of module ``key`` of ``lang``'s namespace defining ``name`` at top level
        (``members``: as a member), in path order; a superset of those a lookup finds it in."""
        ...

    def has_package(self, ns: str, key: str) -> bool:
        """Whether ``key`` is a package (a dotted prefix of some module key) of namespace ``ns``."""
        ...

    def is_package(self, ns: str, key: str) -> bool:
        """:meth:`has_package` without recording the read (the caller records what it uses)."""
        ...

    def module_member(self, lang: str, key: str, name: str) -> Value:
        """The value module ``key`` exports under ``name`` (memoised; ``None`` on an import cycle)."""
        ...

    def resolve_import(self, fc: FileCtx, imp: Import) -> Value:
        """The value an import of ``fc`` binds."""
        ...

    def resolve_name(self, fc: FileCtx, scope: str | None, name: str) -> Value:
        """The value ``name`` has in scope ``scope`` (a qualname; ``None``: top level) of ``fc``."""
        ...

    def resolve_expr(self, fc: FileCtx, scope: str | None, text: str) -> Value:
        """The value of a dotted expression text (``a.b().c``) in ``scope`` of ``fc``."""
        ...

    def def_value(self, rd: Def) -> Value:
        """The value a definition stands for (a class, a function, a typed field's instance)."""
        ...

    def binding_value(self, fc: FileCtx, bindings: list[Binding]) -> Value:
        """The value of a name from its bindings in one scope."""
        ...

    def attr(self, v: Value, name: str) -> Value:
        """Member ``name`` of a value (module member, class or instance attribute, inherited)."""
        ...

    def module_config(self, ns: str) -> object | None:
        """What the module system of namespace ``ns`` was given of the repository's configuration
        (``indexer.frameworks.link_options.LinkOptions.module_configs``), or ``None``. Not recorded:
        a change of it rebinds every file."""
        ...

    def lookup(self, c: Def, name: str) -> tuple[list[Def], bool]:
        """Members ``name`` of the first class in ``c``'s MRO having any, and whether inherited."""
        ...

    def call_targets(self, fc: FileCtx, cs: CallSite) -> list[tuple[Def, str]]:
        """The definitions the call site ``cs`` (read as written in ``fc``) binds to, each with its
        resolution, as the core binds a file's own calls; empty when it binds none or a library's."""
        ...

    def mro(self, c: Def) -> list[Def]:
        """``c`` and its ancestors in the repository, each once, in C3 order."""
        ...

    def types_named(self, ns: str, name: str) -> list[Def]:
        """The classes of namespace ``ns`` whose short name is ``name``, in path order."""
        ...

    def constant_files(self, ns: str, name: str) -> list[FileCtx]:
        """The files of namespace ``ns`` setting the module-level string constant ``name``, in path order."""
        ...

    def reverse_members(self, ns: str, name: str) -> list[tuple[Def, str]]:
        """The classes whose ``reverse`` bindings give another class's instances attribute ``name``,
        each with the binding's type text (the other class, as written)."""
        ...

    def memoised(self, key: MemoKey, compute: Callable[[], Value]) -> Value:
        """``compute()`` once per ``key`` (``(id(fc), ...)`` for an answer about file ``fc``,
        ``(0, ...)`` for one about the repository), what it read recorded and replayed as every
        lookup's; ``None`` for a key met again while it is being computed (a cycle)."""
        ...

    def registered(self, ns: str, decorator: str) -> list[Def]:
        """The functions of namespace ``ns`` decorated by an attribute or name ``decorator``
        (``user_loader`` for ``@login.user_loader``) or handed to a call standing for it
        (``login.user_loader(load_user)``), in path order, each once."""
        ...

    def registrations(self, ns: str, decorator: str) -> list[tuple[Def, FileCtx, str]]:
        """:meth:`registered` with, for each registration, the file that makes it and the decorator
        text as written there (``login.user_loader``)."""
        ...

    def registration_bindings(self, ns: str, name: str) -> list[tuple[FileCtx, Binding]]:
        """The ``registers`` bindings named ``@name`` of namespace ``ns`` with their files, in path order."""
        ...

    def call_result(self, v: Value, how: str) -> Value:
        """The value calling ``v`` yields (an instance of a class, a function's inferred return)."""
        ...

    def returned_values(self, f: Def) -> list[Value]:
        """The functions and classes ``f`` returns uncalled (its ``returned_refs`` resolved in its body)."""
        ...

    def yielded(self, f: Def) -> Value:
        """What the generator ``f`` yields when its ``yield`` statements hand out one name of the
        repository (memoised; ``None`` otherwise)."""
        ...


class ModuleSystem(Protocol):
    """What a language plugs into the resolver core (one instance per language folder, its
    ``MODULE_SYSTEM``). Attributes are read on hot paths: keep them plain values."""

    languages: frozenset[str]
    """The ripplegraph language names it serves (``typescript`` and ``javascript`` share one)."""
    namespace: str
    """The module namespace its files share (``ecmascript`` for TypeScript and JavaScript)."""
    dotted_packages: bool
    """Module keys are dotted names and every dotted prefix is a package (Python, Java); definition
    nodes then carry the module key as ``props["module"]``."""
    layout_suffixes: tuple[str, ...]
    """Suffixes of the files whose coming or going changes other files' module keys (Python:
    ``__init__.py`` decides packages): :meth:`layout_keys` is then computed again."""
    primitives: frozenset[str]
    """Type names that never name a repository class. The core treats the union over all languages
    as such, in every language."""
    constructor_name: str | None
    """The name of a class's constructor method (``__init__``, ``constructor``); ``None``: the class's
    own name (Java)."""
    construction_hooks: tuple[str, ...]
    """Methods that instantiating a class runs besides its constructor, when the class or an
    ancestor defines them (Python ``__new__``, a dataclass's ``__post_init__``)."""
    call_method: str | None
    """The method calling an instance runs (Python ``__call__``); ``None``: instances are not callable."""
    deferred_calls: frozenset[str]
    """Methods of a decorated function that run it, later or in place (Celery tasks' ``f.delay(...)`` /
    ``f.apply_async(...)``, ``f.apply(...)`` / ``f.run(...)``): a call of one binds to the function itself,
    ``inferred``."""
    instance_prefix: str
    """How a method writes an attribute of its instance in a binding's name (``self.``, ``this.``)."""
    class_body_hidden: bool
    """A class body's names are not visible from the functions nested in it (Python)."""
    scoped_imports: bool
    """An import written in a function's body binds the name in that function's scope, before the
    file's top-level definitions (Python's function-local ``from m import f``)."""
    class_receiver: str | None
    """The receiver name that means "this class or a subclass" inside a class (Python ``cls``)."""
    implicit_this: bool
    """A bare call may be a method of the enclosing classes (``this.`` implied), and ``super(...)`` /
    ``this(...)`` are constructor calls (Java, TypeScript, JavaScript)."""
    property_functions: bool
    """A function assigned to an object's property (``res.send = function () {}``) can be a method
    call's target in the name fallback (JavaScript, TypeScript)."""
    open_types: bool
    """A type's methods may be declared in any file of its module (Go: a package's files): member
    lookup then reads the definitions ``Type.name`` of the module's other files too."""

    def is_builtin(self, name: str) -> bool:
        """Whether an unbound bare name is a builtin of the language (its call is external)."""
        ...

    def layout_keys(self, paths: Iterable[str]) -> Mapping[str, str]:
        """``{path: module key}`` for this language's ``paths`` when keys depend on the file set
        (see :attr:`layout_suffixes`); ``{}`` otherwise."""
        ...

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The module key of a file (``layout``: the last :meth:`layout_keys`)."""
        ...

    def module_keys(self, fc: FileCtx) -> list[str]:
        """Every key under which other files find ``fc`` (its module key first; a JS ``dir/index``
        file is also ``dir``)."""
        ...

    def package_keys(self, fc: FileCtx) -> list[str]:
        """With :attr:`dotted_packages`: the keys of ``fc`` whose every dotted prefix is a package
        (its module key first; a Python file of a namespace folder has more, a Kotlin facade class
        or C#'s global usings none)."""
        ...

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """The value an import of ``fc`` binds (``EXTERNAL``: outside the repository)."""
        ...

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """The value module ``key`` exports under ``name`` (following re-exports), or ``None``.
        Called once per ``(key, name)`` (the core memoises it)."""
        ...

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """A name bound in no enclosing scope and by no named import: the language's other sources
        (Java's own package and ``.*`` imports, Python's ``import *``), or ``None``."""
        ...

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """A dotted name whose head is not bound, read as a fully qualified name (Java
        ``java.util.List``, ``com.acme.Paths.OWNERS``), or ``None``."""
        ...

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """What ``imp`` names for the framework linker (module files and member, or a class)."""
        ...

    def module_by_name(self, r: Lookup, fc: FileCtx, name: str) -> list[FileCtx]:
        """The files of the module a string names (Django ``include("shop.urls")``); ``[]`` when
        the language has no such thing."""
        ...


class ModuleSystemDefaults:
    """The plain answers of a :class:`ModuleSystem`, for a language folder's module system to derive
    from and override where its language differs: no dotted packages, no layout-dependent keys, no
    built-in functions, the class's own name as constructor, no implicit ``this``, closed types; one
    module key per file, which is also its package key; no module named by a string, no fully
    qualified names, imports naming nothing for the linker. ``languages``, ``namespace``,
    :meth:`~ModuleSystem.module_key`, :meth:`~ModuleSystem.resolve_import`,
    :meth:`~ModuleSystem.module_member` and :meth:`~ModuleSystem.resolve_unbound` are each
    language's own."""

    languages: frozenset[str] = frozenset()
    namespace = ""
    dotted_packages = False
    layout_suffixes: tuple[str, ...] = ()
    primitives: frozenset[str] = frozenset()
    constructor_name: str | None = None
    construction_hooks: tuple[str, ...] = ()
    call_method: str | None = None
    deferred_calls: frozenset[str] = frozenset()
    instance_prefix = ""
    class_body_hidden = False
    scoped_imports = False
    class_receiver: str | None = None
    implicit_this = False
    property_functions = False
    open_types = False

    def is_builtin(self, name: str) -> bool:
        """No built-in functions."""
        return False

    def layout_keys(self, paths: Iterable[str]) -> Mapping[str, str]:
        """Module keys do not depend on the file set: ``{}``."""
        return {}

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The file's one module key."""
        return [fc.module_key]

    def package_keys(self, fc: FileCtx) -> list[str]:
        """The module key (read only where ``dotted_packages`` is true)."""
        return [fc.module_key]

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """No fully qualified names: ``None``."""
        return None

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """Imports name nothing the linker follows: an empty :class:`ImportTarget`."""
        return ImportTarget()

    def module_by_name(self, r: Lookup, fc: FileCtx, name: str) -> list[FileCtx]:
        """No module is named by a string: ``[]``."""
        return []


class UnboundModuleSystem(ModuleSystemDefaults):
    """A :class:`ModuleSystem` for files that import and call nothing the resolver could bind (schema
    languages: GraphQL schema files, ``.proto`` files): their definitions serve search and symbols,
    their facts the linker; a file's module key is its path without suffix. A subclass sets
    ``languages``, ``namespace`` and ``primitives`` (the language's built-in type names)."""

    def is_builtin(self, name: str) -> bool:
        """The language's built-in type names (:attr:`primitives`)."""
        return name in self.primitives

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The path without its suffix."""
        return module_path(ex.path)

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """Nothing is bound by an import."""
        return None

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """Nothing is reached through a module."""
        return None

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """Nothing beyond the file's own names."""
        return None


# -- the JVM languages' shared package namespace ------------------------------------------------------
# Java and Kotlin share the module namespace ``java``: a file's module key is its package (the folder
# path, dotted, when it declares none), every dotted prefix is a package. The core keeps one module
# system per namespace for ``module_member``, so that method is the same for both languages (defined
# here) and sees both languages' top-level declarations: types, and Kotlin's top-level functions and
# properties. A Kotlin file holding top-level functions or properties is also the module
# ``<package>.<Stem>Kt`` (the facade class the Kotlin compiler generates, which Java code names:
# ``UtilsKt.slugify(x)``); :func:`facade_name` names it. What differs between the languages (imports,
# built-ins, facade keys) stays in each folder's subclass.

JVM_NAMESPACE = "java"
"""The module namespace of every JVM language (the name Java had alone before Kotlin came)."""


def facade_name(path: str) -> str:
    """The JVM class holding a Kotlin file's top-level functions: ``src/a/string_utils.kt`` ->
    ``String_utilsKt`` (the file name without suffix, first letter upper-cased, plus ``Kt``)."""
    stem = posixpath.basename(path).rsplit(".", 1)[0]
    return (stem[:1].upper() + stem[1:] + "Kt") if stem else "Kt"


def package_path(r: Lookup, namespace: str, dotted: str) -> Value:
    """A dotted name in a namespace of dotted packages (JVM packages, C# namespaces): the longest
    prefix that is a package of ``namespace``, then a chain of attributes on it (nested types, a
    Kotlin facade). ``None`` when no prefix is a package or a link of the chain is not found."""
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        pkg = ".".join(parts[:i])
        if r.has_package(namespace, pkg):
            v: Value = ModuleV(namespace, pkg)
            for part in parts[i:]:
                v = r.attr(v, part)
                if v is None:
                    return None
            return v
    return None


def jvm_path(r: Lookup, dotted: str) -> Value:
    """A dotted JVM name: the longest package prefix, then a chain of (nested) types or a facade
    (:func:`package_path` in :data:`JVM_NAMESPACE`)."""
    return package_path(r, JVM_NAMESPACE, dotted)


class JvmModuleSystem(ModuleSystemDefaults):
    """What Java and Kotlin share of a :class:`~indexer.resolve.language.ModuleSystem`; each
    language folder subclasses it (``languages``, ``primitives``, imports, unbound names)."""

    namespace = JVM_NAMESPACE
    dotted_packages = True
    instance_prefix = "this."
    implicit_this = True
    extension_functions = True
    """Functions of the namespace may extend a type (Kotlin ``fun Order.label()``, also on a Java
    class): read by the core's call binder, an optional attribute of a module system."""

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The declared package, else the folder path dotted."""
        return ex.package if ex.package is not None else posixpath.dirname(ex.path).replace("/", ".")

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """A package (``a.b.*``) or a member (a type, nested types included, or a top-level function)."""
        if imp.name is None:
            return ModuleV(JVM_NAMESPACE, imp.module) if r.has_package(JVM_NAMESPACE, imp.module) else EXTERNAL
        v = jvm_path(r, f"{imp.module}.{imp.name}")
        return EXTERNAL if v is None else v

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """A top-level declaration of the package (a type; a Kotlin function or property), else the
        Kotlin facade class ``key.name`` (its top-level declarations), else the subpackage."""
        for fc in r.module_holders(JVM_NAMESPACE, key, name):  # not every file of the package (session 63)
            r.use(("name", fc.path, name))
            for rd in entries(fc.top, name):
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
