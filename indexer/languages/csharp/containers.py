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

from indexer.resolve.values import QueryV, Value, container_call

__all__ = ["SEQUENCES", "element_type", "kept_type", "query_call"]

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
_GENERIC = re.compile(r"^(?:[\w.]+\.)?(\w+)<(.*)>\??$")


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


def _element(text: str) -> str | None:
    m = _GENERIC.match(re.sub(r"\s+", "", text).removeprefix("global::"))
    if m is None:
        return None
    args = _args(m.group(2))
    if m.group(1) in SEQUENCES and len(args) == 1:
        element = args[0]
    else:  # a map's iteration hands out KeyValuePairs, not its values: no element
        return None
    element = element.rstrip("?")
    return element if re.fullmatch(r"[\w.]+", element) else None


def kept_type(text: str) -> str | None:
    """``List<Order>`` kept as written (whitespace and ``global::`` dropped) when it is a library
    container (:data:`SEQUENCES`) of one named type; ``None`` otherwise (the caller
    drops the generics)."""
    if _element(text) is None:
        return None
    return re.sub(r"\s+", "", text).removeprefix("global::").rstrip("?")


def element_type(text: str) -> str | None:
    """The element type of a library container type text (``DbSet<Order>`` -> ``Order``); ``None`` for any other type (the module system's optional
    ``container_element``)."""
    return _element(text)


def query_call(v: QueryV) -> Value:
    """What calling ``v.method`` on a container of ``v.c``'s instances returns: an instance of
    ``v.c`` for a one-element read (:data:`_ONE`), the same container for a step (:data:`_SAME`),
    else the library's value."""
    return container_call(v, _ONE, _SAME)
