"""An exact max-score cut for SQLite FTS5's ``bm25()``: the same top ``k``, fewer rows scored.

FTS5 scores every row that matches any term of an OR query (``bm25()`` reads the row's instances and
its column sizes: a few microseconds a row), whatever the ``LIMIT``; at 100,000 chunks a query's terms
match 20,000-60,000 rows. Matching alone is about 20 times cheaper than scoring. This module decides,
before the scoring query runs, which matching rows *could* reach the top ``k`` and lets the caller score
only those, with the unchanged query (same phrases in the same order, so the scores are the same
doubles), restricted to them.

The bound. FTS5's BM25 (``fts5_aux.c``) adds, for each query phrase ``t``,
``IDF(t) * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl))`` with ``k1 = 1.2``, ``b = 0.75``,
``IDF(t) = log((N - n(t) + 0.5) / (n(t) + 0.5))`` (``1e-6`` when not positive), ``N`` the rows of
the table and ``n(t)`` the rows containing ``t``. Whatever ``f`` (the column-weighted frequency) and
``D``, a term adds less than ``IDF(t) * (k1 + 1)`` (:func:`term_bound`), and a term a row lacks adds
0. A row's score is therefore below the sum of the bounds of the terms it contains.

The cut (Turtle and Flood's max-score, per row):

1. a lower bound ``theta`` of the ``k``-th best score, from cheap probes (:func:`probe_expressions`):
   the OR of the rarest terms (few postings) and the AND of the rarest ``j`` terms for the largest
   ``j``; when those find fewer than ``k`` rows, ANDs without the rarest term (:func:`fallback_probes`,
   run one at a time until ``k`` rows are seen). A probe's score for a row counts only the probe's terms, each adding what it adds in the full
   query, so it is at most the row's full score; ``k`` distinct rows with probe scores ``>= s`` prove
   the ``k``-th best full score is ``>= s`` (:func:`kth_best`);
2. the rows whose terms' bounds can sum to ``theta`` (:func:`candidate_expression`, an FTS5 expression
   of ANDs and ORs over the terms): every row outside scores below ``theta``, so below ``k`` rows that
   score at least ``theta``, and the top ``k`` (ties broken by any fixed key) lie inside;
3. the full query restricted to those rows.

``theta`` is lowered by a relative ``1e-9`` before use, so the floating-point order of the additions
(FTS5 sums the phrases in query order; the probes sum fewer) cannot exclude a row that ties. When the
probes find fewer than ``k`` rows, or the candidates would be every matching row, the caller runs the
plain query. Pure functions, no SQL here: :meth:`stores.embedded.EmbeddedStore.bm25` runs the queries.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["K1", "B", "SAFETY", "term_bound", "fts_row_count", "by_rarity", "probe_expressions",
           "fallback_probes", "kth_best", "candidate_expression", "phrase"]

K1 = 1.2
"""FTS5's ``bm25()`` k1 (``fts5_aux.c``)."""
B = 0.75
"""FTS5's ``bm25()`` b."""
SAFETY = 1e-9
"""Relative margin taken off the ``k``-th best score before rows are excluded (rounding)."""
_MAX_NODES = 64  # term occurrences in a candidate expression; past it, the coarser per-term cut


def term_bound(docs: int, rows: int) -> float:
    """The most one term found in ``docs`` of ``rows`` rows can add to an FTS5 BM25 score:
    FTS5's IDF (``1e-6`` when not positive) times ``k1 + 1``. ``docs`` and ``rows`` are counts
    (``0 <= docs``); the result is positive."""
    idf = math.log((rows - docs + 0.5) / (docs + 0.5))
    return (idf if idf > 0 else 1e-6) * (K1 + 1)


def fts_row_count(averages: bytes) -> int:
    """``N``, the row count FTS5's BM25 uses, from the table's averages record (``%_data`` row 1: a
    SQLite varint of the row count, then one per column of token totals). Raises ``ValueError`` for an
    empty or truncated record."""
    value = 0
    for i, byte in enumerate(averages[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    raise ValueError("truncated FTS5 averages record")


def phrase(term: str) -> str:
    """``term`` as an FTS5 phrase (double-quoted, inner quotes doubled)."""
    return '"' + term.replace('"', '""') + '"'


def by_rarity(terms: Iterable[str], docs: Mapping[str, int]) -> list[str]:
    """``terms`` rarest first (fewest documents, then the term), i.e. by falling :func:`term_bound`."""
    return sorted(terms, key=lambda t: (docs.get(t, 0), t))


def probe_expressions(rare_first: Sequence[str], docs: Mapping[str, int], budget: int,
                      ands: int = 3) -> list[str]:
    """FTS5 expressions whose BM25 scores are lower bounds of the full query's (see the module
    docstring), cheapest first: the OR of the rarest terms whose documents sum to at most ``budget``
    (none when the rarest alone exceeds it), then the AND of the rarest ``j`` terms for up to ``ands``
    values of ``j`` from all terms down, each longer than the OR's term list (a shorter AND adds
    nothing the OR does not bound better). ``rare_first`` from :func:`by_rarity`; ``[]`` for no terms
    and when all the terms fit the budget (the query itself is then as cheap as a probe)."""
    out: list[str] = []
    head: list[str] = []
    total = 0
    for term in rare_first:
        if total + docs.get(term, 0) > budget:
            break
        head.append(term)
        total += docs.get(term, 0)
    if len(head) == len(rare_first):
        return []  # the query itself scores no more rows than such a probe would
    if head:
        out.append(" OR ".join(phrase(t) for t in head))
    for j in range(len(rare_first), max(len(head), len(rare_first) - ands), -1):
        if j > 1:
            out.append(" AND ".join(phrase(t) for t in rare_first[:j]))
    return out


def fallback_probes(rare_first: Sequence[str]) -> list[str]:
    """More probes for when those of :func:`probe_expressions` find fewer than ``k`` rows: the ANDs of
    the terms less the rarest one, from all of them down to the two rarest left
    (``rare_first[1:j]``, ``j`` falling), cheapest-to-run first in the order they bound best.

    The typical case is an identifier query (``get_path_param_id``): its whole-name token is in a
    row or two, so every probe holding it finds fewer than ``k`` rows, and the plain query would score
    every row of its common parts (``get``, ``path``, ``id``: tens of thousands). The rows holding
    several of the parts are few and score high, which gives ``theta``. Each is a probe in the sense
    of the module docstring (its terms are the query's; its score is a lower bound of the full one).
    ``[]`` for fewer than three terms (no AND of two or more terms without the rarest)."""
    rest = list(rare_first[1:])
    return [" AND ".join(phrase(t) for t in rest[:j]) for j in range(len(rest), 1, -1)]


def kth_best(scored: Iterable[tuple[object, float]], k: int) -> float | None:
    """The ``k``-th largest of the best score seen per row over ``scored`` (``(row, score)`` pairs, a
    row may repeat), or ``None`` when fewer than ``k`` distinct rows were seen (``k >= 1``)."""
    best: dict[object, float] = {}
    for row, score in scored:
        if score > best.get(row, -math.inf):
            best[row] = score
    if len(best) < k:
        return None
    return sorted(best.values(), reverse=True)[k - 1]


def candidate_expression(rare_first: Sequence[str], bounds: Sequence[float], theta: float) -> str | None:
    """An FTS5 expression matching every row whose terms' ``bounds`` (``bounds[i]`` for
    ``rare_first[i]``, falling) can sum to ``theta`` (> 0) or more, i.e. every row that may score
    ``theta``; it may match a few more. ``None`` when that is every row matching any term (no cut).

    Built as ``t0 AND (rows that reach theta - b0 with the later terms) OR (rows that reach theta
    without t0)``; past ``_MAX_NODES`` term occurrences, the per-term cut instead: the OR of the
    rarest terms whose remaining terms' bounds sum to ``theta`` or more."""
    n = len(rare_first)
    suffix = [0.0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + bounds[i]
    if all(b >= theta for b in bounds):
        return None
    nodes = 0

    def reach(i: int, need: float) -> str | None:
        # rows reaching `need` with terms i..; "" = every row, None = no row
        nonlocal nodes
        if need <= 0:
            return ""
        if suffix[i] < need:
            return None
        nodes += 1
        if nodes > _MAX_NODES:
            raise OverflowError
        rest = reach(i + 1, need - bounds[i])
        with_term = None if rest is None else phrase(rare_first[i]) if rest == "" else (
            f"{phrase(rare_first[i])} AND ({rest})")
        without = reach(i + 1, need)
        parts = [p for p in (with_term, without) if p is not None]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else f"({parts[0]}) OR ({parts[1]})"

    try:
        expr = reach(0, theta)
    except OverflowError:
        essential = [t for i, t in enumerate(rare_first) if suffix[i] >= theta]
        if len(essential) == n:
            return None
        return " OR ".join(phrase(t) for t in essential)
    return expr
