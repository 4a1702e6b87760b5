"""Kotlin's module system and scoping rules, as the resolver core (:mod:`indexer.resolve`) uses them.

Kotlin shares Java's package namespace (:class:`indexer.resolve.language.JvmModuleSystem`): a file's
module key is its package, a Kotlin type is found by Java code and a Java type by Kotlin code. A file
with top-level functions or properties is also the module of its facade class ``<Stem>Kt``
(:func:`~indexer.resolve.language.facade_name`), which Java callers name. Imports name a type, a
top-level function or a package (``a.b.*``); ``import a.B as C`` binds ``C``. A name bound nowhere
else is a declaration of the file's own package or of a wildcard import; the standard library's
functions (``println``, ``listOf``, scope functions) are built-ins. A bare call may be a method of the
enclosing classes (implicit ``this``). Companion-object members are members of their class
(``A.create()``); an extension function is bound only on a receiver of its type
(:attr:`indexer.model.Definition.receiver_type`, read by the core's call binder).
"""

from __future__ import annotations

from indexer.languages.base import AngleBracketGenerics
from indexer.languages.kotlin.containers import PAIR_NAMES, element_type, map_value, query_call, query_read
from indexer.resolve.context import FileCtx
from indexer.resolve.language import JvmModuleSystem, facade_name

__all__ = ["MODULE_SYSTEM", "KotlinModuleSystem"]

_BUILTINS = frozenset({
    "println", "print", "readLine", "listOf", "listOfNotNull", "mutableListOf", "arrayListOf", "mapOf",
    "mutableMapOf", "hashMapOf", "linkedMapOf", "setOf", "mutableSetOf", "hashSetOf", "arrayOf", "emptyList",
    "emptyMap", "emptySet", "emptyArray", "sequenceOf", "require", "requireNotNull", "check", "checkNotNull",
    "error", "TODO", "run", "let", "apply", "also", "with", "takeIf", "takeUnless", "repeat", "lazy",
    "synchronized", "maxOf", "minOf", "buildString", "buildList", "buildMap", "to", "runCatching", "assert",
    "intArrayOf", "charArrayOf", "byteArrayOf", "Pair", "Triple", "Regex", "StringBuilder",
})


class KotlinModuleSystem(AngleBracketGenerics, JvmModuleSystem):
    """Kotlin's :class:`~indexer.resolve.language.ModuleSystem`."""

    languages = frozenset({"kotlin"})
    primitives = frozenset({"Int", "Long", "Short", "Byte", "Char", "Boolean", "Float", "Double", "Unit", "Any",
                            "Nothing", "String", "List", "Map", "Set"})

    container_element = staticmethod(element_type)
    """The element type text of a library container type (``List<Owner>`` -> ``Owner``; read by the
    resolver's ``typed_value``: :func:`indexer.languages.kotlin.containers.element_type`)."""
    map_value = staticmethod(map_value)
    """The value type of a library map (``Map<String, Owner>``: :func:`indexer.languages.kotlin.containers.map_value`)."""
    query_call = staticmethod(query_call)
    """What a standard-library call on such a container returns (:func:`indexer.languages.kotlin.containers.query_call`)."""
    query_read = staticmethod(query_read)
    """A container's property (a map's ``values``: :func:`indexer.languages.kotlin.containers.query_read`)."""
    pair_names = PAIR_NAMES
    """The members of the ``Map.Entry`` items a map hands out (``e.key``, ``e.value``)."""

    def is_builtin(self, name: str) -> bool:
        """Functions of the Kotlin standard library that need no import."""
        return name in _BUILTINS

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The package, and the facade class ``<package>.<Stem>Kt`` when the file declares top-level
        functions or properties."""
        keys = [fc.module_key]
        if any(d.parent is None and d.kind in ("function", "field") for d in fc.ex.definitions):
            keys.append(f"{fc.module_key}.{facade_name(fc.path)}" if fc.module_key else facade_name(fc.path))
        return keys


MODULE_SYSTEM = KotlinModuleSystem()
