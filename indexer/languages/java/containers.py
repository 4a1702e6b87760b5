"""Java's library containers of a repository class: ``List<Owner>``, ``Optional<Owner>``,
``Stream<Owner>``, ``Map<String, Owner>``, what a Spring Data repository hands back.

The extractor reads them to type the parameters of the lambdas a container hands its elements
(``owners.forEach(o -> ...)``); the module system to give the resolver, for a value declared or
returned as one, a :class:`~indexer.resolve.values.QueryV` of the element class, whose method calls
(:func:`query_call`) give an element (``opt.get()``, ``list.get(0)``, ``map.get(k)``,
``repo.findById(id).orElseThrow()``), the same container (``list.stream().filter(...)``) or the
library's value. Type arguments come from the type text as written (generics are kept in binding
and return type texts); a wildcard ``? extends T`` is ``T``, ``?`` alone unknown.
"""

from __future__ import annotations

from indexer.languages.base import type_args
from indexer.resolve.values import QueryV, Value, container_call

__all__ = ["ELEMENT_METHODS", "KEEP_STEPS", "MAPS", "SEQUENCES", "element_type", "element_types", "query_call",
           "type_args"]

ELEMENT_METHODS = frozenset({
    "forEach", "forEachOrdered", "map", "mapToInt", "mapToLong", "mapToDouble", "mapToObj", "flatMap",
    "filter", "anyMatch", "allMatch", "noneMatch", "peek", "ifPresent", "ifPresentOrElse", "removeIf",
    "takeWhile", "dropWhile",
})
"""Methods handing a lambda the elements of their receiver (a collection, stream, map or ``Optional``)."""
SEQUENCES = frozenset({
    "List", "ArrayList", "LinkedList", "Set", "HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableSet",
    "Collection", "Iterable", "Stream", "Queue", "Deque", "ArrayDeque", "PriorityQueue", "Optional",
    "CopyOnWriteArrayList", "Vector", "Iterator", "ListIterator", "Page", "Slice",
})
"""Library containers of one element type (``Page`` / ``Slice``: Spring Data's pages)."""
MAPS = frozenset({"Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap", "NavigableMap", "ConcurrentHashMap",
                  "ConcurrentMap"})
"""Library maps: a key type, then the element (value) type."""
KEEP_STEPS = frozenset({"stream()", "parallelStream()", "filter()", "sorted()", "distinct()", "peek()", "limit()",
                        "skip()", "unordered()", "sequential()", "parallel()", "takeWhile()", "dropWhile()"})
"""Steps (as receiver text segments) that keep a sequence's element type."""

_ONE = frozenset({
    "get", "orElse", "orElseThrow", "orElseGet", "getFirst", "getLast", "next", "previous", "poll", "pollFirst",
    "pollLast", "peek", "peekFirst", "peekLast", "pop", "element", "first", "last", "floor", "ceiling", "higher",
    "lower", "remove", "removeFirst", "removeLast", "getOrDefault", "put", "putIfAbsent", "computeIfAbsent",
    "computeIfPresent", "compute", "merge", "replace", "set",
})
"""Methods of a container returning one element (``Optional.get``, ``List.get(i)``, ``Map.get(k)``,
``Deque.pop``, ``Map.put``'s previous value)."""
_SAME = frozenset({
    "stream", "parallelStream", "filter", "sorted", "distinct", "peek", "limit", "skip", "unordered", "sequential",
    "parallel", "takeWhile", "dropWhile", "findFirst", "findAny", "min", "max", "iterator", "listIterator",
    "subList", "reversed", "values", "toList", "headSet", "tailSet", "subSet", "descendingSet", "descendingIterator",
    "getContent", "or",
})
"""Methods of a container returning a container of the same elements (``stream()``, ``filter(...)``,
``findFirst()`` an ``Optional`` of one, ``Map.values()``, ``Page.getContent()``). ``peek`` is both a
``Stream`` step and a ``Deque`` read: the step is taken when the call has an argument, which the
value model does not see, so a ``peek`` is an element (rare on streams)."""


def _argument(text: str) -> str | None:
    text = text.removeprefix("? extends ").strip()
    return None if not text or text.startswith("?") else text


def element_types(ttext: str, steps: list[str], params: int) -> list[str] | None:
    """The types a lambda with ``params`` parameters receives from a receiver of declared type
    ``ttext`` followed by ``steps`` (``["stream()", "filter()"]``): a sequence's element, a map's
    key and value (``values()`` / ``keySet()`` steps take one of them); ``None`` when unknown."""
    outer, args = type_args(ttext)
    elems: list[str] | None = None
    if outer in SEQUENCES and len(args) == 1:
        elems = args
    elif outer in MAPS and len(args) == 2:
        elems = args
    for step in steps:
        if elems is None:
            return None
        if outer in MAPS and len(elems) == 2 and step in ("values()", "keySet()"):
            elems, outer = ([elems[1]] if step == "values()" else [elems[0]]), "Collection"
        elif len(elems) == 1 and step in KEEP_STEPS:
            continue
        else:
            return None
    if elems is None or len(elems) != params:
        return None
    out = [_argument(e) for e in elems]
    return None if None in out else out  # type: ignore[return-value]


def element_type(text: str) -> str | None:
    """The element type text of a library container type text (``Optional<Owner>`` -> ``Owner``,
    ``Map<String, Owner>`` -> ``Owner``), ``None`` for any other type (the module system's optional
    ``container_element``, read by the resolver for declared and returned types); an array's
    (``Owner[]`` -> ``Owner``: an element of ``owners[i]``)."""
    t = text.strip()
    if t.endswith("[]") and not t.endswith("[][]") and "<" not in t:
        element = t[:-2].strip()
        return element if element.replace(".", "").replace("_", "").isalnum() else None
    outer, args = type_args(t)
    if outer in SEQUENCES and len(args) == 1:
        return _argument(args[0])
    if outer in MAPS and len(args) == 2:
        return _argument(args[1])
    return None


def query_call(v: QueryV) -> Value:
    """What calling the container method ``v.method`` on a container of ``v.c``'s instances returns:
    an instance of ``v.c`` for a one-element read (:data:`_ONE`), the same container for a step
    (:data:`_SAME`), else the library's value (``size()``, ``isEmpty()``, ``map(...)``)."""
    return container_call(v, _ONE, _SAME)
