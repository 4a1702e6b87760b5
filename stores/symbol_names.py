"""Symbol-name matching for :meth:`stores.contracts.GraphStore.search_symbols`: names and queries cut
into parts at camel humps and separators, each name ranked against a query (exact, ignoring case,
prefix, parts, abbreviation), and :class:`SymbolNameIndex`, the in-memory index a backend without
its own fuzzy search ranks names with. Re-exported by :mod:`stores.contracts`."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Sequence

__all__ = ["symbol_parts", "query_parts", "symbol_match_rank", "best_symbol_names", "SymbolNameIndex"]

_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_QUERY_PART = re.compile(r"[A-Z][a-z]*|[a-z]+|[0-9]+")


def symbol_parts(text: str) -> list[str]:
    """A *name* cut into parts at non-alphanumeric characters and camel humps, case kept:
    ``OwnerController`` -> ``["Owner", "Controller"]``, ``__init__`` -> ``["init"]``,
    ``HTTPServer2`` -> ``["HTTP", "Server", "2"]``."""
    return _PART.findall(text)


def query_parts(query: str) -> list[str]:
    """A workspace-symbol *query* cut into lowercased parts: as :func:`symbol_parts`, except that
    every capital starts a part (``OC`` -> ``["o", "c"]``, ``OwnCon`` -> ``["own", "con"]``,
    ``owner con`` -> ``["owner", "con"]``)."""
    return [p.lower() for p in _QUERY_PART.findall(query)]


def symbol_match_rank(query: str, parts_q: Sequence[str], name: str, parts_n: Sequence[str] | None = None,
                      fuzzy: bool = True) -> int | None:
    """How ``name`` matches a workspace-symbol ``query`` (the rule of
    :meth:`stores.contracts.GraphStore.search_symbols`): 0 exact, 1 exact ignoring case and separators, 2 prefix,
    3 part match, 4 word-start abbreviation, 5 subsequence, ``None`` no match (see the method for
    each; ``fuzzy=False``: 0 to 3 only). ``parts_q`` is :func:`query_parts` of the query and ``parts_n``
    the lowercased :func:`symbol_parts` of the name (computed when ``None``); backends share this
    function so they rank alike."""
    if name == query:
        return 0
    if parts_n is None:
        parts_n = [p.lower() for p in symbol_parts(name)]
    flat_q = "".join(parts_q)
    flat_n = "".join(parts_n)
    if flat_n == flat_q:
        return 1
    if flat_n.startswith(flat_q):
        return 2
    if not parts_n or not parts_q or not flat_n.startswith(flat_q[0]):
        return None
    if parts_n[0].startswith(parts_q[0]) and _part_match(parts_q, parts_n):
        return 3
    if not fuzzy or not _subsequence(flat_q).match(flat_n):  # not a subsequence: the common case, decided in C
        return None
    return 4 if _abbreviates(flat_q, parts_n) else 5


def best_symbol_names(query: str, parts_q: Sequence[str], names: Iterable[tuple[str, Sequence[str] | None]],
                      limit: int) -> list[tuple[int, int, str]]:
    """The ``limit`` best ``(rank, len(name), name)`` of ``names`` (``(name, lowercased parts or
    None)`` pairs) for a workspace-symbol query, best first (the order of
    :meth:`stores.contracts.GraphStore.search_symbols`): the same list as ranking each name with
    :func:`symbol_match_rank` and sorting, computed with less work. The fuzzy ranks (4, 5) are
    looked for only when the exact, prefix and part matches leave room under ``limit``; then the
    names holding the query's letters in order (one regular expression each), shortest first,
    are told abbreviation from subsequence until ``limit`` abbreviations are found (a longer name
    could not be shown)."""
    ranked, missed = [], []
    for name, parts_n in names:
        if parts_n is None:
            parts_n = [p.lower() for p in symbol_parts(name)]
        rank = symbol_match_rank(query, parts_q, name, parts_n, fuzzy=False)
        if rank is None:
            missed.append((name, parts_n))
        else:
            ranked.append((rank, len(name), name))
    room = limit - len(ranked)
    flat_q = "".join(parts_q)
    if room > 0 and flat_q:
        pattern = _subsequence(flat_q)
        fuzzy = sorted((len(name), name, parts_n) for name, parts_n in missed if pattern.match("".join(parts_n)))
        abbreviations = 0
        for size, name, parts_n in fuzzy:
            if abbreviations >= room:  # every later name is no shorter: it could not be shown
                break
            if _abbreviates(flat_q, parts_n):
                abbreviations += 1
                ranked.append((4, size, name))
            else:
                ranked.append((5, size, name))
    ranked.sort()
    return ranked[:limit]


class SymbolNameIndex:
    """The names of an index prepared for workspace-symbol queries: :meth:`best` gives the list
    :func:`best_symbol_names` gives over the same names, with the per-name work done by the regular
    expression engine instead of a Python loop over every name.

    Names are bucketed by their first letter (a match's first letter is the query's) and each
    bucket is sorted by (length, name), the order ranks are tied in; a bucket keeps its names'
    lowercased alphanumeric texts (``makeresponse``) and their parts (``make response``) as two
    texts of one line per name. A query then scans a bucket's text in C with one pattern per rank
    (prefix, part match, subsequence), reads matches in tie order and stops once ``limit`` are
    found; only the names a pattern matched reach Python, and the fuzzy pass runs only when the
    exact, prefix and part matches leave room. Build cost: one pass over the names (cache it)."""

    __slots__ = ("_buckets",)

    def __init__(self, names: Iterable[str]) -> None:
        """Index ``names`` (duplicates kept once; names without a letter or digit are left out)."""
        grouped: dict[str, list[tuple[int, str, list[str]]]] = {}
        for name in dict.fromkeys(names):
            parts = [p.lower() for p in symbol_parts(name)]
            if parts:
                grouped.setdefault(parts[0][0], []).append((len(name), name, parts))
        self._buckets = {key: _NameBucket(sorted(entries)) for key, entries in grouped.items()}

    def __len__(self) -> int:
        return sum(len(b.names) for b in self._buckets.values())

    def best(self, query: str, parts_q: Sequence[str], limit: int) -> list[tuple[int, int, str]]:
        """The ``limit`` best ``(rank, len(name), name)`` for ``query`` (``parts_q``: its
        :func:`query_parts`), best first: equal to :func:`best_symbol_names` over the indexed names."""
        flat_q = "".join(parts_q)
        bucket = self._buckets.get(flat_q[:1])
        if bucket is None or limit <= 0:
            return []
        ranked: list[tuple[int, int, str]] = []
        taken: set[int] = set()

        def take(rank: int, found: Iterable[int], room: int) -> None:
            for i in found:
                if len(taken) >= room:
                    return
                if i not in taken:
                    taken.add(i)
                    ranked.append((rank, len(bucket.names[i]), bucket.names[i]))

        for i in bucket.same_flat.get(flat_q, ()):  # exact, exact ignoring case and separators
            taken.add(i)
            ranked.append((0 if bucket.names[i] == query else 1, len(bucket.names[i]), bucket.names[i]))
        esc = [re.escape(q) for q in parts_q]
        take(2, bucket.lines(bucket.flat_text, bucket.flat_at, f"^{re.escape(flat_q)}."), limit)
        if len(parts_q) > 1 and len(taken) < limit:  # a one-part query's part matches are prefixes
            pattern = f"^{esc[0]}" + "".join(f"(?>[^\\n]*? {q})" for q in esc[1:])  # earliest part each: no backtracking
            take(3, (i for i in bucket.lines(bucket.parts_text, bucket.parts_at, pattern)
                     if not bucket.flat[i].startswith(flat_q)), limit)
        room = limit - len(ranked)
        if room > 0:
            abbreviations = 0
            pattern = "^" + re.escape(flat_q[0]) + "".join(f"[^{re.escape(c)}\\n]*{re.escape(c)}" for c in flat_q[1:])
            for i in bucket.lines(bucket.flat_text, bucket.flat_at, pattern):
                if abbreviations >= room:  # every later name is no shorter: it could not be shown
                    break
                if i in taken:
                    continue
                if _abbreviates(flat_q, bucket.parts[i]):
                    abbreviations += 1
                    ranked.append((4, len(bucket.names[i]), bucket.names[i]))
                else:
                    ranked.append((5, len(bucket.names[i]), bucket.names[i]))
        ranked.sort()
        return ranked[:limit]


class _NameBucket:
    """The names of one first letter, sorted by (length, name), with their texts (see :class:`SymbolNameIndex`)."""

    __slots__ = ("names", "parts", "flat", "same_flat", "flat_text", "flat_at", "parts_text", "parts_at")

    def __init__(self, entries: Sequence[tuple[int, str, list[str]]]) -> None:
        self.names = [name for _, name, _ in entries]
        self.parts = [parts for _, _, parts in entries]
        self.flat = ["".join(parts) for parts in self.parts]
        self.same_flat: dict[str, list[int]] = {}
        for i, flat in enumerate(self.flat):
            self.same_flat.setdefault(flat, []).append(i)
        self.flat_text, self.flat_at = self._text(self.flat)
        self.parts_text, self.parts_at = self._text([" ".join(parts) for parts in self.parts])

    @staticmethod
    def _text(lines: Sequence[str]) -> tuple[str, list[int]]:
        starts, at = [], 0
        for line in lines:
            starts.append(at)
            at += len(line) + 1
        return "\n".join(lines) + "\n", starts

    def lines(self, text: str, starts: Sequence[int], pattern: str) -> Iterable[int]:
        """Indexes of the names whose line of ``text`` matches ``pattern`` (anchored with ``^``), in order."""
        for m in _multiline(pattern).finditer(text):
            yield bisect.bisect_right(starts, m.start()) - 1


@functools.lru_cache(maxsize=256)
def _multiline(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.MULTILINE)


@functools.lru_cache(maxsize=64)
def _subsequence(flat_q: str) -> re.Pattern[str]:
    """A pattern matching a text that starts with ``flat_q[0]`` and holds the rest in order."""
    return re.compile(re.escape(flat_q[0]) + "".join(f"[^{re.escape(c)}]*{re.escape(c)}" for c in flat_q[1:]))


def _part_match(parts_q: Sequence[str], parts_n: Sequence[str]) -> bool:
    """Whether the query's later parts are prefixes of the name's later parts, in order."""
    i = 1
    for q in parts_q[1:]:
        while i < len(parts_n) and not parts_n[i].startswith(q):
            i += 1
        if i == len(parts_n):
            return False
        i += 1
    return True


def _abbreviates(flat_q: str, parts_n: Sequence[str]) -> bool:
    """Whether ``flat_q`` abbreviates the name's parts: cut into pieces, each piece starts at the
    first letter of a part (the first piece at the first part, later ones at later parts, in
    order) and its other letters follow in that part, in order (``mkresp``: ``mk`` in ``make``,
    ``resp`` in ``response``). A search over (query position, part) pairs, each visited once."""
    seen: set[tuple[int, int]] = set()
    stack = [(0, 0)]  # query position, part whose first letter it is to match
    while stack:
        qi, pi = stack.pop()
        if (qi, pi) in seen:
            continue
        seen.add((qi, pi))
        part = parts_n[pi]
        if not part or part[0] != flat_q[qi]:
            continue
        at, qi = 0, qi + 1
        while True:  # after each letter taken in this part, the rest may go on in a later part
            if qi == len(flat_q):
                return True
            stack.extend((qi, later) for later in range(pi + 1, len(parts_n)) if parts_n[later][:1] == flat_q[qi])
            at = part.find(flat_q[qi], at + 1)
            if at < 0:
                break
            qi += 1
    return False
