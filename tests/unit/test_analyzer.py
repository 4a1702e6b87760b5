"""The code-aware analyzer: exact token lists."""

from __future__ import annotations

import time

import pytest

from stores import analyzer
from stores.analyzer import FTS_TOKENCHARS, STOP_WORDS, analyze, analyze_joined, fts_query, query_terms


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # camelCase, with an acronym in the middle
        ("parseURLPath", ["parseurlpath", "parse", "url", "path"]),
        ("findByLastName", ["findbylastname", "find", "by", "last", "name"]),
        ("getX", ["getx", "get", "x"]),
        # PascalCase with acronyms
        ("HTTPServerError", ["httpservererror", "http", "server", "error"]),
        ("OwnerRepository", ["ownerrepository", "owner", "repository"]),
        ("IOError", ["ioerror", "io", "error"]),
        # digits stay with the letters before them
        ("utf8Decode", ["utf8decode", "utf8", "decode"]),
        ("HTTP2Server", ["http2server", "http2", "server"]),
        # snake_case, SCREAMING_SNAKE, dunder
        ("find_by_last_name", ["find_by_last_name", "find", "by", "last", "name"]),
        ("MAX_VALUE", ["max_value", "max", "value"]),
        ("__init__", ["__init__", "init"]),
        ("snake_caseMixed", ["snake_casemixed", "snake", "case", "mixed"]),
        # kebab-case
        ("owner-service", ["owner-service", "owner", "service"]),
        # dotted and path names
        ("django.db.models", ["django.db.models", "django", "db", "models"]),
        ("src/app/owner-service.ts", ["src/app/owner-service.ts", "src", "app", "owner", "service", "ts"]),
        ("std::vector", ["std::vector", "std", "vector"]),
        ("$scope.watch", ["$scope.watch", "scope", "watch"]),
        # a single-part token is emitted once, lowercased
        ("Owner", ["owner"]),
        ("owner", ["owner"]),
        ("404", ["404"]),
        ("_", ["_"]),
        # nothing
        ("", []),
        ("  ()[]{} ;,. -> ", []),
    ],
)
def test_tokens(text, tokens):
    assert analyze(text) == tokens


def test_code_line():
    assert analyze("return self.ownerRepo.findByLastName(last_name)  # TODO") == [
        "return",
        "self.ownerrepo.findbylastname", "self", "owner", "repo", "find", "by", "last", "name",
        "last_name", "last", "name",
        "todo",
    ]


def test_connectors_must_join_word_characters():
    assert analyze("foo.bar() a->b x. .y --flag trailing-") == [
        "foo.bar", "foo", "bar", "a", "b", "x", "y", "flag", "trailing",
    ]


def test_split_happens_before_lowercasing():
    # Lowercasing first would lose every case boundary.
    assert analyze("XMLHttpRequest") == ["xmlhttprequest", "xml", "http", "request"]
    assert "xmlhttprequest" in analyze("XMLHttpRequest")  # the original is kept
    assert analyze("xmlhttprequest") == ["xmlhttprequest"]


def test_no_empty_tokens_and_only_fts_token_characters():
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789" + FTS_TOKENCHARS)
    tokens = analyze("a__b ..c-- $$ x::y:: __ -_- ÄÖÜ naïve //path/to//x.py")
    assert tokens and all(tokens)
    assert all(set(t) <= allowed for t in tokens)


def test_analyze_joined():
    assert analyze_joined("getX y") == "getx get x y"


def test_analyze_joined_is_analyze_joined_by_spaces_cold_warm_and_across_a_cache_clear(monkeypatch):
    """analyze_joined keeps its own per-token cache of joined expansions: the same string as joining
    analyze's tokens, for tokens without parts (``__``, ``$``), repeated tokens, a first (cold) call, a
    second (warm) one, and a call during which the bounded cache fills and is cleared."""
    text = "__ $ a__b getX getX $scope.watch HTTP2Server utf8Decode x::y __init__ 404 2fa ÄÖÜ"
    expected = ("__ $ a__b a b getx get x getx get x $scope.watch scope watch http2server http2 server"
                " utf8decode utf8 decode x::y x y __init__ init 404 2fa 2 fa")
    assert " ".join(analyze(text)) == expected
    monkeypatch.setattr(analyzer, "_JOINED", {})
    assert analyze_joined(text) == expected  # cold
    assert set(analyzer._JOINED) == {"__", "$", "a__b", "getX", "$scope.watch", "HTTP2Server", "utf8Decode",
                                     "x::y", "__init__", "404", "2fa"}
    assert analyze_joined(text) == expected  # warm
    monkeypatch.setattr(analyzer, "_CACHE_MAX", 3)
    monkeypatch.setattr(analyzer, "_JOINED", {"getX": "getx get x"})
    assert analyze_joined(text) == expected  # cleared twice on the way
    assert len(analyzer._JOINED) <= 3
    assert analyze_joined("") == "" and analyze_joined("(*) -> ;") == ""


def test_fts_query_quotes_and_dedupes():
    assert fts_query("owner repository") == '"owner" OR "repository"'
    assert fts_query("ownerRepo owner") == '"ownerrepo" OR "owner" OR "repo"'
    # "or" and "not" are stop words: dropped from the terms (FTS syntax is text either way).
    assert fts_query('x" OR NOT "y') == '"x" OR "y"'
    assert fts_query('"NOT" OR') == '"not" OR "or"'  # nothing else: every token stays
    assert fts_query("") == ""
    assert fts_query("(*)") == ""


def test_fast_on_long_text():
    text = "def getQuerySet(self, request):\n    return self.model._default_manager.filter(pk=request.user_id)\n"
    text = text * 2000  # ~190 KB
    start = time.perf_counter()
    tokens = analyze(text)
    assert time.perf_counter() - start < 0.5
    assert len(tokens) == 2000 * len(analyze(text[: len(text) // 2000]))


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        # a documentation sentence: the stop words and the doc filler go, the content words stay, deduped
        ("Returns the number of days between the given dates.", ["returns", "number", "days", "between", "dates"]),
        ("Add the specified number of days to the given date", ["add", "number", "days", "date"]),
        # any case, as written alone
        ("THE Given Date", ["date"]),
        # a stop word inside an identifier is a part like any other: never dropped
        ("differenceInDays", ["differenceindays", "difference", "in", "days"]),
        ("is_empty of isEmpty", ["is_empty", "is", "empty", "isempty"]),
        ("from_dict", ["from_dict", "from", "dict"]),
        # nothing but stop words: every token stays (a search for "this" still finds something)
        ("the", ["the"]),
        ("This is it", ["this", "is", "it"]),
        ("all", ["all"]),
        # nothing at all
        ("", []),
        ("(*) ...", []),
    ],
)
def test_query_terms(query, terms):
    assert query_terms(query) == terms


def test_stop_words_are_lowercase_words_the_analyzer_emits_alone():
    # Each one is compared with a lowercased token; one the analyzer would split could never match.
    assert len(STOP_WORDS) == 50
    assert all(analyze(w) == [w] for w in STOP_WORDS)
    assert {"the", "of", "given", "specified"} <= STOP_WORDS
    assert not {"get", "set", "return", "returns", "new", "value", "date"} & STOP_WORDS
