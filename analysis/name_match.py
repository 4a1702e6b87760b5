"""Query-name agreement: a natural-language query that uses a definition's own words ranks it higher.

A developer (or a doc sentence) describing a function tends to use the words of its name: "Swaps two
elements in the given array" is ``ArrayUtils.swap``, "Parses an action string" is ``actions.parse``,
"Get the day of the month of the given date" is ``getDate``. BM25 sees those words, but weighs them
against every body that repeats them, misses the inflected forms ("Swaps" is not ``swap``) and says
nothing to the dense list; after fusion, the implementation often sits below the helpers and siblings
that share the query's other words. This module scores how well a candidate's *own* identifier and
signature agree with the query, as a factor >= 1 on its fused score (:func:`name_factor`, applied by
:func:`analysis.ranking.rerank` to text queries only: an identifier query has its exact definitions
first already).

Both sides are compared as Snowball English stems (:func:`stem`, ``py_rust_stemmers``) of analysed
words (:func:`stores.analyzer.analyze`, identifiers split into their parts): the query's terms less its
stop words (:func:`stores.analyzer.query_terms`) against

* the definition's *name parts* (``getWidgetById`` -> ``get``, ``widget``, ``by``, ``id``; a one-part
  name is its own part): ``name`` weighs the share of the name's parts the query holds, ``query`` the
  share of the query's words the name holds (so a name that says more of the query wins over a
  one-word name that every sibling shares);
* the words of its *parameter list* (from the node's ``signature`` property, names and types:
  ``swap(final Object[] array, ...)``, ``on_key(self, event: events.Key)``) that are not name parts:
  ``signature`` weighs the share of those the query's other words hold, which tells overloads apart
  ("Converts a Boolean to an int" is ``toInteger(Boolean, int, int, int)``, not ``toInteger(boolean)``).

Only definitions (methods, functions, classes) get a factor; file sections, docs, config and SQL chunks
keep theirs at 1. The weights (:data:`DEFAULT_NAME_MATCH`) were chosen by measurement
(docs/search-quality.md, "Query-name agreement").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from py_rust_stemmers import SnowballStemmer

from stores.analyzer import analyze, query_terms
from stores.contracts import Chunk, Node

__all__ = ["NameMatch", "DEFAULT_NAME_MATCH", "NO_NAME_MATCH", "stem", "query_stems", "name_parts",
           "signature_words", "name_factor"]

_STEMMER = SnowballStemmer("english")
_CACHE: dict[str, str] = {}
_CACHE_MAX = 200_000

SIGNATURE_NOISE = frozenset({"final", "self", "cls", "this", "const", "readonly", "var", "val", "let"})
"""Parameter-list words that say nothing about a definition (modifiers, receivers)."""


@dataclass(frozen=True, slots=True)
class NameMatch:
    """Weights of the query-name agreement (:func:`name_factor`): ``name`` on the share of the
    definition's name parts found in the query, ``query`` on the share of the query's terms found in
    the name, ``signature`` on the share of the parameter-list words (not name parts) found among the
    query's other terms. All ``0``: off. Raises :class:`ValueError` for a negative weight."""

    name: float = 0.5
    query: float = 0.3
    signature: float = 0.2

    def __post_init__(self) -> None:
        for field in ("name", "query", "signature"):
            value = getattr(self, field)
            if not value >= 0.0:
                raise ValueError(f"name-match weight {field} must be >= 0, not {value!r}")


DEFAULT_NAME_MATCH = NameMatch()
"""The weights search ranks with (docs/search-quality.md, "Query-name agreement")."""

NO_NAME_MATCH = NameMatch(0.0, 0.0, 0.0)
"""Query-name agreement off (every factor 1)."""


def stem(word: str) -> str:
    """The Snowball English stem of a lowercased ``word`` (``swaps`` -> ``swap``, ``parses`` ->
    ``pars``, ``parse`` -> ``pars``); cached. Never raises for any ``str``."""
    found = _CACHE.get(word)
    if found is None:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        found = _CACHE[word] = _STEMMER.stem_word(word)
    return found


def query_stems(query: str) -> frozenset[str]:
    """The stems of ``query``'s search terms (:func:`stores.analyzer.query_terms`: stop words dropped,
    identifiers split): ``"Swaps two elements in the given array"`` -> ``{swap, two, element, array}``."""
    return frozenset(stem(t) for t in query_terms(query))


@lru_cache(maxsize=65_536)
def name_parts(name: str) -> frozenset[str]:
    """The stems of an identifier's parts (``getWidgetById`` -> ``{get, widget, by, id}``,
    ``__init__`` -> ``{init}``, ``swap`` -> ``{swap}``); empty for a name with no word characters.
    Cached (names repeat across queries)."""
    tokens = analyze(name)
    return frozenset(stem(t) for t in (tokens[1:] if len(tokens) > 1 else tokens))


@lru_cache(maxsize=65_536)
def signature_words(signature: str) -> frozenset[str]:
    """The stems of the words of a signature's parameter list (between its first ``(`` and last
    ``)``), less :data:`SIGNATURE_NOISE`: ``swap(final Object[] array, int offset1)`` ->
    ``{object, array, int, offset1}``; empty without a parameter list. Cached."""
    start, end = signature.find("("), signature.rfind(")")
    if start < 0 or end <= start:
        return frozenset()
    return frozenset(stem(w) for w in analyze(signature[start + 1:end]) if w not in SIGNATURE_NOISE)


def name_factor(chunk: Chunk, node: Node, terms: frozenset[str], definition: bool,
                weights: NameMatch = DEFAULT_NAME_MATCH) -> float:
    """The factor (>= 1) on the fused score of ``chunk`` (standing for ``node``) for a query whose
    :func:`query_stems` are ``terms``: ``1 + name * |P & Q| / |P| + query * |P & Q| / |Q| +
    signature * |S & R| / |S|`` with ``P`` the :func:`name_parts` of the chunk's name, ``Q`` the terms,
    ``S`` the :func:`signature_words` of the node's ``signature`` property less ``P``, ``R`` the terms
    less ``P``. ``1.0`` when ``definition`` is false (a file section, doc, config or SQL chunk) or
    there are no terms."""
    if not definition or not terms:
        return 1.0
    parts = name_parts(chunk.name)
    shared = len(parts & terms)
    bonus = 0.0
    if parts and shared:
        bonus += weights.name * shared / len(parts) + weights.query * shared / len(terms)
    if weights.signature:
        params = signature_words(str(node.props.get("signature") or "")) - parts
        rest = terms - parts
        if params and rest:
            bonus += weights.signature * len(params & rest) / len(params)
    return 1.0 + bonus
