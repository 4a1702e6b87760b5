"""C#'s library containers of a repository class: ``List<Order>``, ``IEnumerable<Order>``, Entity
Framework's ``DbSet<Order>`` and ``IQueryable<Order>`` (a dictionary is none: ``foreach`` over one
hands out ``KeyValuePair`` items, not its values).

The extractor keeps such a type's element in the type texts of fields, properties, return types and
declared names (:func:`kept_type`; every other type text drops its generics,
:func:`indexer.languages.csharp.extractor.type_text`); the module system gives the resolver, for a
value declared or returned as one, a :class:`~indexer.resolve.values.QueryV` of the element class,
whose method calls (:func:`query_call`) are LINQ's and the collections': a one-element read
(``FindAsync``, ``FirstOrDefault``, ``Single``) gives an instance, a
query step (``Where``, ``Include``, ``OrderBy``, ``ToListAsync``) the same container, anything else
the library's value (``Count()``, ``Select(...)``, ``Any()``).
"""

from __future__ import annotations

import re

from indexer.resolve.values import MAX_NESTING, PAIRS, QueryV, Value, container_call

__all__ = ["MAPS", "PAIR_NAMES", "SEQUENCES", "TUPLES", "element_type", "kept_type", "map_value", "query_call",
           "query_read", "tuple_items", "tuple_names", "tuple_type"]

SEQUENCES = frozenset({
    "List", "IList", "IReadOnlyList", "ICollection", "IReadOnlyCollection", "IEnumerable", "Collection",
    "ObservableCollection", "HashSet", "ISet", "SortedSet", "LinkedList", "Queue", "Stack", "ImmutableList",
    "ImmutableArray", "DbSet", "IQueryable", "IOrderedQueryable", "IOrderedEnumerable", "IAsyncEnumerable",
    "ConcurrentBag", "ConcurrentQueue", "BlockingCollection",
})
"""Library containers of one element type (``DbSet`` / ``IQueryable``: Entity Framework's sets and queries)."""

_ONE = frozenset({
    "First", "FirstOrDefault", "Single", "SingleOrDefault", "Last", "LastOrDefault", "ElementAt",
    "ElementAtOrDefault", "Find", "FindAsync", "FirstAsync", "FirstOrDefaultAsync", "SingleAsync",
    "SingleOrDefaultAsync", "LastAsync", "LastOrDefaultAsync", "ElementAtAsync", "ElementAtOrDefaultAsync",
    "FindLast", "MinBy", "MaxBy", "Dequeue", "Peek", "Pop",
})
"""LINQ's and the collections' one-element reads (``FindAsync`` is Entity Framework's by key)."""
_SAME = frozenset({
    "Where", "OrderBy", "OrderByDescending", "ThenBy", "ThenByDescending", "Include", "ThenInclude",
    "AsNoTracking", "AsNoTrackingWithIdentityResolution", "AsTracking", "AsQueryable", "AsEnumerable",
    "AsAsyncEnumerable", "AsSplitQuery", "AsSingleQuery", "IgnoreQueryFilters", "ToList", "ToListAsync", "ToArray",
    "ToArrayAsync", "ToHashSet", "ToHashSetAsync", "Skip", "Take", "SkipWhile", "TakeWhile", "Distinct", "Reverse",
    "Concat", "Union", "Intersect", "Except", "DefaultIfEmpty", "FindAll", "GetRange", "TagWith",
})
"""Steps keeping the elements (a query of the same rows, a list of them)."""
MAPS = frozenset({"Dictionary", "IDictionary", "IReadOnlyDictionary", "ConcurrentDictionary", "SortedDictionary",
                  "SortedList", "ImmutableDictionary", "IImmutableDictionary", "FrozenDictionary"})
"""Library maps: a key type, then the value type; ``foreach`` hands out ``KeyValuePair`` items."""
PAIR_NAMES = ("Key", "Value")
"""The members of a ``KeyValuePair`` a map's ``foreach`` hands out (the module system's ``pair_names``)."""
_MAP_ONE = frozenset({"GetValueOrDefault", "GetOrAdd", "AddOrUpdate"})
"""A map's reads of one value (``GetOrAdd`` / ``AddOrUpdate``: ``ConcurrentDictionary``'s)."""
_GENERIC = re.compile(r"^(?:[\w.]+\.)?(\w+)<(.*)>\??$")
_ARRAY = re.compile(r"^([\w.]+)\??\[\]\??$")


def _args(inner: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in inner:
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        depth += (ch == "<") - (ch == ">")
        cur.append(ch)
    out.append("".join(cur))
    return out


def _named(text: str, levels: int) -> bool:
    """Whether ``text`` (whitespace dropped) is a plain (dotted) type name or, up to ``levels``
    containers deep, a library container or map of one (``List<Order>``: nested containers)."""
    if re.fullmatch(r"[\w.]+", text):
        return True
    return levels > 0 and (_element(text, levels - 1) is not None or map_value(text, levels - 1) is not None)


def _element(text: str, levels: int = MAX_NESTING) -> str | None:
    t = re.sub(r"\s+", "", text).removeprefix("global::")
    array = _ARRAY.match(t)
    if array is not None:  # `Order[]`
        return array.group(1)
    m = _GENERIC.match(t)
    if m is None:
        return None
    args = _args(m.group(2))
    if m.group(1) in SEQUENCES and len(args) == 1:
        element = args[0]
    else:  # a map's iteration hands out KeyValuePairs, not its values: no element
        return None
    element = element.rstrip("?")
    return element if _named(element, levels) else None


def map_value(text: str, levels: int = MAX_NESTING) -> tuple[str, str] | None:
    """The value type of a library map type text and how iterating it goes: ``Dictionary<string,
    Order>`` -> (``Order``, :data:`~indexer.resolve.values.PAIRS`: ``KeyValuePair`` items); ``None``
    for any other type or a value that is no plain (dotted) type name nor, up to ``levels`` deep, a
    container of one (``Dictionary<string, List<Order>>`` -> ``List<Order>``; the module system's
    ``map_value``)."""
    m = _GENERIC.match(re.sub(r"\s+", "", text).removeprefix("global::"))
    if m is None or m.group(1) not in MAPS:
        return None
    args = _args(m.group(2))
    value = args[1].rstrip("?") if len(args) == 2 else ""
    return (value, PAIRS) if value and _named(value, levels) else None


def kept_type(text: str) -> str | None:
    """``List<Order>`` / ``Order[]`` / ``Dictionary<string,Order>`` kept as written (whitespace and
    ``global::`` dropped) when it is a library container (:data:`SEQUENCES`), an array or a map
    (:data:`MAPS`) of one named type or of such containers (``Dictionary<string,List<Order>>``, at
    most :data:`~indexer.resolve.values.MAX_NESTING` deep); ``None`` otherwise (the caller drops the
    generics)."""
    if _element(text) is None and map_value(text) is None:
        return None
    return re.sub(r"\s+", "", text).removeprefix("global::").rstrip("?")


def element_type(text: str) -> str | None:
    """The element type of a library container type text (``DbSet<Order>`` -> ``Order``); ``None`` for any other type (the module system's optional
    ``container_element``)."""
    return _element(text)


def query_call(v: QueryV) -> Value:
    """What calling ``v.method`` on a container of ``v.c``'s instances returns: an instance of
    ``v.c`` for a one-element read (:data:`_ONE`), the same container for a step (:data:`_SAME`),
    else the library's value; on a map (``v.view``) a value for ``GetValueOrDefault`` and the like."""
    return container_call(v, _ONE, _SAME, _MAP_ONE, {})


def query_read(v: QueryV, name: str) -> Value:
    """The property ``name`` of a container of ``v.c``'s instances (the module system's optional
    ``query_read``): a map's ``Values``, a sequence of them; ``None`` (a method, read on) otherwise."""
    return QueryV(v.c, inner=v.inner) if v.view and name == "Values" else None


TUPLES = frozenset({"Tuple", "ValueTuple"})
"""The library's generic tuples (``Tuple<Order, Buyer>``), read as the tuple type ``(Order, Buyer)``."""
MAX_TUPLE = 8
"""The most elements a tuple type keeps (``ValueTuple`` nests an eighth and more in ``Rest``)."""
_TUPLE_ELEMENT = re.compile(r"^\s*([\w.]+(?:\s*<[\w.,\s<>?\[\]]*>)?\??)(?:\s+(\w+))?\s*$")


def tuple_type(text: str) -> str | None:
    """A tuple type text (``(Order, Buyer)``, ``(Order order, Buyer buyer)``, ``Tuple<Order, Buyer>``,
    ``ValueTuple<...>``) in the form the resolver reads (:func:`tuple_items`, :func:`tuple_names`):
    ``(Order order,Buyer buyer)``, each element's type (whitespace dropped) and its name if written;
    ``None`` for any other type, a tuple of more than :data:`MAX_TUPLE` elements or an element that is
    no named type nor a container of one."""
    t = text.strip().removeprefix("global::").rstrip("?")
    m = _GENERIC.match(re.sub(r"\s+", "", t))
    if m is not None and m.group(1) in TUPLES:
        parts = _args(m.group(2))
    elif t.startswith("(") and t.endswith(")"):
        parts = _args(t[1:-1])
    else:
        return None
    if not 2 <= len(parts) <= MAX_TUPLE:
        return None
    out = []
    for part in parts:
        e = _TUPLE_ELEMENT.match(part)
        if e is None:
            return None
        etype = re.sub(r"\s+", "", e.group(1)).rstrip("?")
        if not _named(etype, MAX_NESTING):
            return None
        out.append(f"{etype} {e.group(2)}" if e.group(2) else etype)
    return "(" + ",".join(out) + ")"


def _elements(text: str) -> list[str] | None:
    if not (text.startswith("(") and text.endswith(")")):
        return None
    return _args(text[1:-1])


def tuple_items(text: str) -> list[str] | None:
    """The element type texts of a tuple type as :func:`tuple_type` writes it (``(Order o,Buyer)`` ->
    [``Order``, ``Buyer``]), ``None`` for any other text (the module system's ``tuple_items``)."""
    parts = _elements(text)
    return [p.split(" ", 1)[0] for p in parts] if parts and len(parts) >= 2 else None


def tuple_names(text: str) -> tuple[str, ...]:
    """The member names of a tuple type's elements (the module system's optional ``tuple_names``,
    :attr:`indexer.resolve.values.TupleV.names`): ``Item1`` .. ``ItemN``, then each element's
    declared name (``""`` where none): ``(Order o,Buyer)`` -> (``Item1``, ``Item2``, ``o``, ``""``)."""
    parts = _elements(text) or []
    return (*(f"Item{i + 1}" for i in range(len(parts))), *(p.partition(" ")[2] for p in parts))
