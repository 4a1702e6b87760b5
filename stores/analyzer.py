"""The code-aware analyzer every search backend indexes and queries with.

:func:`analyze` turns text (source code, a query, a name, an FQN) into search tokens:

* a *token* is a run of ``[A-Za-z0-9_$]`` characters, possibly joined by the connectors ``.``, ``/``,
  ``-`` and ``:`` (``django.db.models``, ``src/app/owner-service.ts``, ``std::vector``); a connector
  must sit between two word characters, so ``foo.bar()`` gives ``foo.bar`` and ``a->b`` gives ``a``,
  ``b``;
* each token is emitted lowercased, followed by its *parts* in order: the token split on the connectors,
  on ``_`` and ``$``, and on case changes (``parseURLPath`` -> ``parse``, ``url``, ``path``;
  ``HTTPServerError`` -> ``http``, ``server``, ``error``). The case split happens before lowercasing.
  Digits stay attached to the letters before them (``utf8Decode`` -> ``utf8``, ``decode``;
  ``HTTP2Server`` -> ``http2``, ``server``); a leading run of digits is its own part;
* a token that is a single part (``owner``, ``Owner``) is emitted once; no token is ever empty.

:func:`query_terms` is what a search looks up: the distinct analysed tokens of the query without the
words of :data:`STOP_WORDS` written as words of their own ("the", "of", "given"; a part of an identifier
such as the ``in`` of ``differenceInDays`` stays), all of them when nothing else remains. Indexes keep
every token: the stop words are dropped on the query side only, so no index changes with them.

:func:`fts_query` turns a query into a safe SQLite FTS5 ``MATCH`` expression (every query term
double-quoted, OR-joined). Every token the analyzer emits consists of ``[a-z0-9_$./:-]`` only, so an
FTS5 ``unicode61`` tokenizer with ``tokenchars`` ``_$./:-`` (see :data:`FTS_TOKENCHARS`) keeps each one
a single FTS token.

The analyzer is pure Python with compiled regular expressions and a bounded per-token cache: source
code repeats its identifiers, so most tokens are expanded once per process.
"""

from __future__ import annotations

import re

__all__ = ["analyze", "analyze_joined", "fts_query", "query_terms", "FTS_TOKENCHARS", "TOKEN_PATTERN", "PART_PATTERN",
           "STOP_WORDS"]

#: Non-alphanumeric characters an FTS5 ``unicode61`` tokenizer must treat as token characters so that
#: analysed tokens (``django.db.models``, ``snake_case``, ``$scope``, ``a:b``, ``owner-service``)
#: stay single tokens.
FTS_TOKENCHARS = "_$./:-"

_TOKEN_RE = re.compile(r"[A-Za-z0-9_$]+(?:[./:\-]+[A-Za-z0-9_$]+)*")
_SEGMENT_SPLIT_RE = re.compile(r"[./:\-_$]+")
# Case parts of one separator-free segment, in order of preference:
#   an acronym followed by a capitalised word (HTTPServer -> HTTP | Server, HTTP2Server -> HTTP2 | ...),
#   a (capitalised) lowercase word with trailing digits (parse, Path, utf8),
#   an all-caps run with trailing digits (URL, ID, HTTP2),
#   a run of digits (404, the 2 of 2fa).
_CASE_PART_RE = re.compile(r"[A-Z]+[0-9]*(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+")

TOKEN_PATTERN = _TOKEN_RE.pattern
"""The token regular expression (also valid Java: the Elasticsearch mapping's pattern tokenizer uses it)."""
PART_PATTERN = _CASE_PART_RE.pattern
"""The case-part regular expression; applied to a whole token it finds the same parts as splitting on the
connectors first, since no alternative matches a connector (the Elasticsearch mapping's
``pattern_capture`` filter uses it)."""

STOP_WORDS = frozenset(
    # Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (Elasticsearch's _english_) ...
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these they"
    " this to was will with"
    # ... and the filler of documentation sentences ("the given date", "the specified number of days")
    " given specified provided each any all from when whether which its been being has have using used".split()
)
"""Words a query drops when written as words of their own (:func:`query_terms`): Lucene's English stop words
plus the filler of documentation sentences; chosen by measurement (docs/search-quality.md, "The lexical
side")."""

_CACHE: dict[str, tuple[str, ...]] = {}
_CACHE_MAX = 1 << 16
"""Entries :data:`_CACHE` and :data:`_JOINED` each hold at most (a full table starts over). An entry is
about 250 bytes with its token and expansion: at 500,000 the joined table alone held 50 MiB after
Home Assistant's write (205,000 distinct tokens) and grew to about 120 MiB on larger trees, for the
life of the process; 65,536 entries are at most about 16 MiB each, and the frequent tokens are back
in the table soon after it starts over (docs/benchmarks.md)."""


_JOINED: dict[str, str] = {}
"""Per token, its expansion joined by spaces (what :func:`analyze_joined` emits for it; the index
side, which never needs the tuple of :data:`_CACHE`); bounded like it."""


def _expand(token: str) -> tuple[str, ...]:
    """:func:`_expansion` of ``token``, kept in :data:`_CACHE`."""
    result = _expansion(token)
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[token] = result
    return result


def _expansion(token: str) -> tuple[str, ...]:
    """The lowercased token followed by its parts (split first, lowercased after)."""
    lowered = token.lower()
    # One findall over the whole token finds the parts splitting on the connectors first would
    # (no alternative of the case-part pattern matches a connector, _ or $: see PART_PATTERN).
    parts = _CASE_PART_RE.findall(token)
    if not parts or (len(parts) == 1 and parts[0].lower() == lowered):  # "__" has no part
        result: tuple[str, ...] = (lowered,)
    else:
        result = (lowered, *" ".join(parts).lower().split(" "))
    return result


def _joined(token: str) -> str:
    """``" ".join`` of ``token``'s expansion, computed once per token (bounded cache)."""
    out = " ".join(_expansion(token))
    if len(_JOINED) >= _CACHE_MAX:
        _JOINED.clear()
    _JOINED[token] = out
    return out


def analyze(text: str) -> list[str]:
    """Analyse ``text`` into search tokens (see the module docstring).

    ``analyze("parseURLPath(x)")`` == ``["parseurlpath", "parse", "url", "path", "x"]``. Returns ``[]``
    for empty or all-punctuation text. Never raises for any ``str``.
    """
    out: list[str] = []
    extend = out.extend
    cache_get = _CACHE.get
    for token in _TOKEN_RE.findall(text):
        expanded = cache_get(token)
        if expanded is None:
            expanded = _expand(token)
        extend(expanded)
    return out


def query_terms(text: str) -> list[str]:
    """The distinct terms a search looks up for the query ``text``, in order: :func:`analyze`'s tokens
    less those of the tokens that are :data:`STOP_WORDS` (any case) written alone; when that leaves
    nothing (``"the"``, ``"this is it"``), every distinct token. ``query_terms("the number of days")`` ==
    ``["number", "days"]``; ``query_terms("differenceInDays")`` keeps ``in``. Never raises for any ``str``."""
    kept: list[str] = []
    every: list[str] = []
    cache_get = _CACHE.get
    for token in _TOKEN_RE.findall(text):
        expanded = cache_get(token)
        if expanded is None:
            expanded = _expand(token)
        every.extend(expanded)
        if token.lower() not in STOP_WORDS:
            kept.extend(expanded)
    return list(dict.fromkeys(kept or every))


def analyze_joined(text: str) -> str:
    """``" ".join(analyze(text))``: the form stored in an FTS5 column. Joins each token's cached
    joined expansion, so a chunk costs one regular-expression pass and one join."""
    tokens = _TOKEN_RE.findall(text)
    joined = _JOINED
    try:
        return " ".join([joined[t] for t in tokens])
    except KeyError:  # a token met for the first time (or the cache was just cleared)
        return " ".join([joined.get(t) or _joined(t) for t in tokens])


def fts_query(text: str) -> str:
    """A safe FTS5 ``MATCH`` expression for ``text``: its :func:`query_terms`, each double-quoted,
    joined by ``OR`` (``'"owner" OR "repository"'``); ``""`` when there are no tokens.

    The expression is always passed to SQLite as a bound parameter, never interpolated into SQL.
    """
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in query_terms(text))
