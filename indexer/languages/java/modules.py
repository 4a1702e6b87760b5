"""Java's module system and scoping rules, as the resolver core (:mod:`indexer.resolve`) uses them.

A file's module key is its package (the folder path, dotted, when it declares none); every dotted
prefix is a package. An import names a type (``a.b.C``, nested ``a.b.C.D``) or a package (``a.b.*``);
``import static`` names a class's member. A name bound nowhere else is a type of the file's own
package or of a wildcard import; a dotted name may be fully qualified. A bare call may be a method of
the enclosing classes (implicit ``this``); ``super(...)`` / ``this(...)`` call constructors.

The package namespace is shared with Kotlin (:class:`indexer.resolve.language.JvmModuleSystem` holds the
rules both follow), so Java code sees Kotlin types and Kotlin's facade classes (``UtilsKt``).
"""

from __future__ import annotations

from indexer.languages.base import AngleBracketGenerics
from indexer.languages.java.conversions import (
    VALUE_TYPES,
    array_assignable,
    combined_type,
    functional_assignable,
    member_type,
    value_assignable,
)
from indexer.languages.java.containers import element_type, query_call
from indexer.languages.java.java_lang import JAVA_LANG
from indexer.languages.java.lombok import LOGGER_TYPES
from indexer.resolve.context import FileCtx
from indexer.resolve.language import JvmModuleSystem, Lookup, jvm_path
from indexer.resolve.values import EXTERNAL, Value

__all__ = ["MODULE_SYSTEM", "JavaModuleSystem", "java_path"]

java_path = jvm_path
"""A dotted Java name: the longest package prefix, then a chain of (nested) types (:func:`jvm_path`)."""


class JavaModuleSystem(AngleBracketGenerics, JvmModuleSystem):
    """Java's :class:`~indexer.resolve.language.ModuleSystem`."""

    languages = frozenset({"java"})
    primitives = frozenset({"int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var",
                            "Object", "String", "Integer", "Long", "Boolean", "Double", "List", "Map", "Set",
                            "Optional"}) | LOGGER_TYPES  # Lombok's `log` fields
    handoff_calls = {
        "Thread": ("run",), "submit": ("call", "run"), "execute": ("run",), "schedule": ("call", "run"),
        "scheduleAtFixedRate": ("run",), "scheduleWithFixedDelay": ("run",), "runAsync": ("run",),
        "supplyAsync": ("get",),
        # string conversion inside the JDK (JLS 5.1.11's `toString()`): `String.valueOf(x)`,
        # `Objects.toString(x)`, `sb.append(x)` (StringBuilder / StringBuffer / Writer), `out.println(x)` /
        # `print(x)` (PrintStream / PrintWriter), `String.format(f, x)` (a `%s` of an object)
        "valueOf": ("toString",), "toString": ("toString",), "append": ("toString",), "print": ("toString",),
        "println": ("toString",), "format": ("toString",), "formatted": ("toString",),
    }
    """Library calls that run an object handed to them (read by the core's
    :func:`~indexer.resolve.callbacks.handed_runs`, an optional attribute of a module system):
    ``new Thread(task)``, ``executor.submit(job)``, ``CompletableFuture.runAsync(r)`` run the handed
    object's ``run()`` / ``call()`` / ``get()`` (the first of the names its class has) when its class
    is known and the call itself is the library's (bound outside the repository, or a ``new`` of a
    class the repository does not declare)."""
    runtime_calls = {"start": ("Thread", "run")}
    """Calls the runtime turns into a call of a repository method (read by the core's call binder,
    an optional attribute of a module system): ``x.start()`` with no arguments, when ``x``'s class
    extends ``Thread`` (as written in a class of its repository hierarchy) and the repository declares
    no ``start``, runs its ``run()``."""
    methods_apart = True
    """A bare call names a method, never a variable (read by the core's call binder, an optional
    attribute of a module system; JLS 6.5.7.1): ``output(node)`` beside a local ``StringBuilder output``
    calls the method ``output``."""
    overloads_by_signature = True
    """Methods of one name differ by their parameters (read by the core's call binder, an optional
    attribute of a module system): a name stands for all its overloads, a call for those it fits."""
    value_types = VALUE_TYPES
    """Java's primitives, their boxes and ``String`` (read by :mod:`indexer.resolve.overloads`, an
    optional attribute of a module system): no class of the repository is one of them."""
    value_assignable = staticmethod(value_assignable)
    """Whether a value of one of :attr:`value_types` may be passed to a parameter of a type (optional:
    a module system without it chooses no overload by argument types)."""
    array_assignable = staticmethod(array_assignable)
    """Whether an argument may be passed to a parameter when either is an array (optional: without
    it an array fits every parameter)."""
    combined_type = staticmethod(combined_type)
    """The type of an operator or conditional argument over its operands' types (optional: without
    it such an argument is of unknown type)."""
    member_type = staticmethod(member_type)
    """The type of a library member read or called on a library value (``name.length()``; optional)."""
    container_element = staticmethod(element_type)
    """The element type text of a library container type (``Optional<Owner>`` -> ``Owner``; read by
    the resolver's ``typed_value``, an optional attribute of a module system): a name declared or a
    method returning one is a container of the element class (:class:`~indexer.resolve.values.QueryV`)."""
    query_call = staticmethod(query_call)
    """What a container's method call returns (``opt.get()`` an element, ``list.stream()`` the same
    container, ``size()`` the library's): :func:`indexer.languages.java.containers.query_call`."""
    functional_assignable = staticmethod(functional_assignable)
    """Whether a lambda or method reference argument may be passed to a library parameter type
    (optional: without it one fits every parameter)."""

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """A declaration of the file's own package or of a wildcard import (the JVM languages'
        rule), else ``EXTERNAL`` for a type of ``java.lang`` (:data:`JAVA_LANG`, imported on demand
        by every compilation unit, JLS 7.3: shadowed by the file's package and imports), else ``None``."""
        v = super().resolve_unbound(r, fc, name)
        if v is None and name in JAVA_LANG:
            return EXTERNAL
        return v


MODULE_SYSTEM = JavaModuleSystem()
