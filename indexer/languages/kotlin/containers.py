"""Kotlin's library containers of a repository class: ``List<Owner>``, ``MutableList<Owner>``,
``Set<Owner>``, ``Sequence<Owner>``, ``Array<Owner>``, ``Map<String, Owner>`` (and their nesting,
``Map<String, List<Owner>>``).

The extractor keeps such a type's arguments in the type texts of parameters, properties and return
types (:func:`kept_type`; every other type text drops its generics); the module system gives the
resolver, for a value declared or returned as one, a :class:`~indexer.resolve.values.QueryV` of the
element class, whose calls (:func:`query_call`) are the standard library's: a one-element read
(``first()``, ``single()``, ``get(i)``, ``elementAt(i)``, ``random()``) gives an element, a step
(``filter { }``, ``sortedBy { }``, ``toList()``, ``asSequence()``) the same container, anything else the
library's value (``size``, ``map { }``, ``count()``). A map (:func:`map_value`) is iterated by
``Map.Entry`` items (``for ((k, v) in m)``, ``e.key`` / ``e.value``: :data:`PAIR_NAMES`); ``m[k]``,
``getValue(k)``, ``getOrPut(k) { }`` give a value, ``m.values`` a sequence of them (:func:`query_read`).
"""

from __future__ import annotations

import re

from indexer.languages.base import type_args
from indexer.resolve.values import MAX_NESTING, PAIRS, QueryV, Value, container_call

__all__ = ["ELEMENT_LAMBDAS", "MAPS", "PAIR_NAMES", "SEQUENCES", "element_type", "kept_type", "map_value",
           "query_call", "query_read"]

SEQUENCES = frozenset({
    "List", "MutableList", "ArrayList", "Set", "MutableSet", "HashSet", "LinkedHashSet", "SortedSet", "TreeSet",
    "Collection", "MutableCollection", "Iterable", "MutableIterable", "Sequence", "Array", "ArrayDeque", "Iterator",
    "Flow", "Optional", "Page", "Slice", "Stream",
})
"""Library containers of one element type (``Flow``: kotlinx.coroutines; ``Optional`` / ``Page`` /
``Stream``: what Java libraries such as Spring Data hand Kotlin code)."""
MAPS = frozenset({"Map", "MutableMap", "HashMap", "LinkedHashMap", "SortedMap", "TreeMap", "ConcurrentHashMap"})
"""Library maps: a key type, then the value type."""
PAIR_NAMES = ("key", "value")
"""The members of the ``Map.Entry`` items a map hands out (the module system's ``pair_names``)."""
ELEMENT_LAMBDAS = frozenset({
    "forEach", "forEachIndexed", "onEach", "map", "mapNotNull", "flatMap", "filter", "filterNot", "first",
    "firstOrNull", "last", "lastOrNull", "single", "singleOrNull", "find", "findLast", "any", "all", "none",
    "count", "sumOf", "maxByOrNull", "minByOrNull", "maxBy", "minBy", "sortedBy", "sortedByDescending", "groupBy",
    "associateBy", "associateWith", "partition", "takeWhile", "dropWhile", "removeIf", "removeAll", "retainAll",
    "ifPresent", "collect",
})
"""Functions handing a one-parameter lambda (``it`` or a named parameter) the elements of their
receiver (a map's: its entries)."""

_ONE = frozenset({
    "first", "firstOrNull", "last", "lastOrNull", "single", "singleOrNull", "get", "getOrNull", "getOrElse",
    "elementAt", "elementAtOrNull", "elementAtOrElse", "random", "randomOrNull", "find", "findLast",
    "maxByOrNull", "minByOrNull", "maxBy", "minBy", "maxWithOrNull", "minWithOrNull", "removeAt", "removeFirst",
    "removeLast", "removeFirstOrNull", "removeLastOrNull", "next", "orElseThrow", "orElse", "orElseGet",
    "firstOrThrow", "toNullable",
})
"""One-element reads (``Optional.get`` is ``get``)."""
_SAME = frozenset({
    "filter", "filterNot", "filterNotNull", "sortedBy", "sortedByDescending", "sorted", "sortedDescending",
    "sortedWith", "reversed", "distinct", "distinctBy", "take", "takeLast", "takeWhile", "drop", "dropLast",
    "dropWhile", "toList", "toMutableList", "toSet", "toMutableSet", "toHashSet", "toSortedSet", "asSequence",
    "asIterable", "asReversed", "shuffled", "subList", "slice", "onEach", "iterator", "plus", "minus", "toTypedArray",
    "asFlow", "toCollection", "stream", "getContent", "ifEmpty", "orEmpty", "requireNoNulls",
})
"""Steps keeping the elements."""
_MAP_ONE = frozenset({"get", "getValue", "getOrDefault", "getOrElse", "getOrPut", "remove", "put", "putIfAbsent"})
"""A map's reads of one value."""
_NAME = re.compile(r"[\w.]+")


def _argument(text: str) -> str | None:
    """A type argument without variance and nullability (``out Owner?`` -> ``Owner``); ``None``
    for a star projection."""
    t = text.strip().removeprefix("out ").removeprefix("in ").strip().rstrip("?")
    return None if not t or t == "*" else t


def _named(text: str, levels: int) -> bool:
    """Whether ``text`` is a plain (dotted) type name or, up to ``levels`` deep, a container or map
    of one (``List<Owner>``)."""
    if _NAME.fullmatch(text):
        return True
    return levels > 0 and (element_type(text, levels - 1) is not None or map_value(text, levels - 1) is not None)


def element_type(text: str, levels: int = MAX_NESTING) -> str | None:
    """The element type text of a library container type text (``List<Owner>`` -> ``Owner``,
    ``MutableList<List<Owner>>`` -> ``List<Owner>``), ``None`` for any other type, a map, or an
    element that is no plain type name nor, up to ``levels`` deep, a container of one (the module
    system's optional ``container_element``)."""
    outer, args = type_args(re.sub(r"\s+", " ", text).strip().rstrip("?"))
    if outer not in SEQUENCES or len(args) != 1:
        return None
    element = _argument(args[0])
    return element if element is not None and _named(element, levels) else None


def map_value(text: str, levels: int = MAX_NESTING) -> tuple[str, str] | None:
    """The value type of a library map type text and how iterating it goes: ``Map<String, Owner>``
    -> (``Owner``, :data:`~indexer.resolve.values.PAIRS`: ``Map.Entry`` items); ``None`` for any other
    type (the module system's optional ``map_value``)."""
    outer, args = type_args(re.sub(r"\s+", " ", text).strip().rstrip("?"))
    if outer not in MAPS or len(args) != 2:
        return None
    value = _argument(args[1])
    return (value, PAIRS) if value is not None and _named(value, levels) else None


def kept_type(text: str) -> str | None:
    """A library container or map type text kept as written, whitespace, variance and the outer
    ``?`` dropped (``MutableList<out Owner>?`` -> ``MutableList<Owner>``) when its element is a named
    type or a container of one; ``None`` otherwise (the caller drops the generics)."""
    t = re.sub(r"\s+", " ", text).strip().rstrip("?")
    if element_type(t) is None and map_value(t) is None:
        return None
    return re.sub(r"\s+", "", re.sub(r"\b(?:out|in)\s+", "", t))


def query_call(v: QueryV) -> Value:
    """What calling ``v.method`` on a container of ``v.c``'s instances returns: an element for a
    one-element read, the same container for a step, else the library's value; on a map (``v.view``)
    a value for ``get`` / ``getValue`` / ``getOrPut`` and the like."""
    return container_call(v, _ONE, _SAME, _MAP_ONE, {})


def query_read(v: QueryV, name: str) -> Value:
    """A container's property (the module system's optional ``query_read``): a map's ``values``, a
    sequence of them; ``None`` (read on as a method) otherwise."""
    return QueryV(v.c, inner=v.inner) if v.view and name == "values" else None
