"""The code-aware analyzer: exact token lists."""

from __future__ import annotations

import time

import pytest

from stores.analyzer import FTS_TOKENCHARS, analyze, analyze_joined, fts_query


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


def test_fts_query_quotes_and_dedupes():
    assert fts_query("owner repository") == '"owner" OR "repository"'
    assert fts_query("ownerRepo owner") == '"ownerrepo" OR "owner" OR "repo"'
    assert fts_query('x" OR NOT "y') == '"x" OR "or" OR "not" OR "y"'
    assert fts_query("") == ""
    assert fts_query("(*)") == ""


def test_fast_on_long_text():
    text = "def getQuerySet(self, request):\n    return self.model._default_manager.filter(pk=request.user_id)\n"
    text = text * 2000  # ~190 KB
    start = time.perf_counter()
    tokens = analyze(text)
    assert time.perf_counter() - start < 0.5
    assert len(tokens) == 2000 * len(analyze(text[: len(text) // 2000]))
