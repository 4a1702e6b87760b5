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

:func:`fts_query` turns a query into a safe SQLite FTS5 ``MATCH`` expression (every analysed token
double-quoted, OR-joined). Every token the analyzer emits consists of ``[a-z0-9_$./:-]`` only, so an
FTS5 ``unicode61`` tokenizer with ``tokenchars`` ``_$./:-`` (see :data:`FTS_TOKENCHARS`) keeps each one
a single FTS token.

The analyzer is pure Python with compiled regular expressions and a bounded per-token cache: source
code repeats its identifiers, so most tokens are expanded once per process.
"""

from __future__ import annotations

import re

__all__ = ["analyze", "analyze_joined", "fts_query", "FTS_TOKENCHARS", "TOKEN_PATTERN", "PART_PATTERN"]

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

_CACHE: dict[str, tuple[str, ...]] = {}
_CACHE_MAX = 500_000


def _expand(token: str) -> tuple[str, ...]:
    """The lowercased token followed by its parts (split first, lowercased after)."""
    parts: list[str] = []
    for segment in _SEGMENT_SPLIT_RE.split(token):
        if segment:
            parts.extend(_CASE_PART_RE.findall(segment))
    lowered = token.lower()
    if len(parts) == 1 and parts[0].lower() == lowered:
        result: tuple[str, ...] = (lowered,)
    else:
        result = (lowered, *(p.lower() for p in parts))
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[token] = result
    return result


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


def analyze_joined(text: str) -> str:
    """``" ".join(analyze(text))``: the form stored in an FTS5 column."""
    return " ".join(analyze(text))


def fts_query(text: str) -> str:
    """A safe FTS5 ``MATCH`` expression for ``text``: its distinct analysed tokens, each double-quoted,
    joined by ``OR`` (``'"owner" OR "repository"'``); ``""`` when there are no tokens.

    The expression is always passed to SQLite as a bound parameter, never interpolated into SQL.
    """
    tokens = dict.fromkeys(analyze(text))
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in tokens)
