"""Workspace-symbol matching (:func:`stores.contracts.symbol_match_rank`, ``best_symbol_names``,
``SymbolNameIndex``): exact > exact ignoring case > prefix > part match > abbreviation > subsequence,
on names taken from Django and Flask; negative cases; the fast rankings equal ranking every name and
sorting."""

from __future__ import annotations

import random

import pytest

from stores.contracts import SymbolNameIndex, best_symbol_names, query_parts, symbol_match_rank


def rank(query: str, name: str) -> int | None:
    return symbol_match_rank(query, query_parts(query), name)


@pytest.mark.parametrize(("query", "name", "expected"), [
    ("make_response", "make_response", 0),
    ("MakeResponse", "make_response", 1),
    ("make_resp", "make_response", 2),
    ("ma res", "make_response", 3),
    ("MaRe", "make_response", 3),
    ("mkresp", "make_response", 4),              # mk in make, resp in response
    ("mkmig", "makemigrations", 4),
    ("gtnm", "get_name", 4),
    ("OwnCon", "OwnerController", 3),
    ("mkresp", "mark_expected_failures_and_skips", 5),  # letters in order, scattered
    ("mkresp", "remake_spouse", None),           # first letter must start the name
    ("mkresp", "make_reporter", None),           # no s after the r: not a subsequence
    ("mkresp", "test_makemigrations_empty_no_app_specified", None),
    ("Con", "OwnerController", None),
    ("ctrl", "OwnerController", None),
    ("gtnm", "get_username", 5),                 # g,t from get; n, m inside username: no part starts with n
])
def test_ranks(query, name, expected):
    assert rank(query, name) == expected


def test_fuzzy_matches_rank_after_every_part_match_and_shorter_first():
    names = ["make_response", "mark_expected_failures_and_skips", "make_reporter", "makeResp", "remake_spouse",
             "mk_resp_factory"]
    pairs = [(n, None) for n in names]
    assert best_symbol_names("mkresp", query_parts("mkresp"), pairs, 10) == [
        (2, 15, "mk_resp_factory"), (4, 8, "makeResp"), (4, 13, "make_response"),
        (5, 32, "mark_expected_failures_and_skips")]
    assert best_symbol_names("mkresp", query_parts("mkresp"), pairs, 2) == [(2, 15, "mk_resp_factory"), (4, 8, "makeResp")]
    assert best_symbol_names("mkresp", query_parts("mkresp"), pairs, 0) == []


def test_fast_ranking_equals_ranking_every_name():
    rnd = random.Random(3)
    words = ["make", "response", "get", "name", "test", "migrate", "mark", "skip", "reset", "set", "path", "url"]
    names = sorted({"_".join(rnd.choice(words) for _ in range(rnd.randint(1, 4))) for _ in range(600)})
    for query in ["mkresp", "gtnm", "tstmg", "ms", "m", "mkre", "TeMi", "test", "sp", "urlpath", "xyz"]:
        parts = query_parts(query)
        brute = sorted((r, len(n), n) for n in names if (r := symbol_match_rank(query, parts, n)) is not None)
        for limit in (1, 5, 40, 1000):
            assert best_symbol_names(query, parts, [(n, None) for n in names], limit) == brute[:limit], (query, limit)


def test_name_index_ranks_as_ranking_every_name():
    """SymbolNameIndex (regular expressions over a bucket's text, stopping at ``limit``) gives the
    brute-force list for every query shape: prefixes, humps, abbreviations, subsequences, several
    parts, digits, case, names that differ only by case or separators, and no match at all."""
    rnd = random.Random(5)
    words = ["make", "response", "get", "name", "test", "migrate", "mark", "skip", "reset", "set", "path", "url",
             "Http", "HTTP", "server", "2", "v1", "x"]
    names = {"_".join(rnd.choice(words) for _ in range(rnd.randint(1, 4))) for _ in range(700)}
    names |= {"".join(w.capitalize() for w in rnd.sample(words, rnd.randint(1, 3))) for _ in range(250)}
    names |= {"__init__", "make_response", "makeResponse", "MakeResponse", "make__response", "_", "Über", "mk",
              "make_get_path_get"}
    index = SymbolNameIndex(sorted(names) + ["make_response"])  # a duplicate is indexed once
    assert len(index) == len(names) - 1  # "_" has no part ("Über" has one: "ber")
    queries = ["mkresp", "gtnm", "tstmg", "ms", "m", "mkre", "TeMi", "test", "sp", "urlpath", "xyz", "make_response",
               "MakeResponse", "makeresponse", "ma re", "MaRe", "HTTPServer", "hs", "h2", "v1", "s2x", "init", "ber",
               "gnt", "mrmrmr", "getnamegetname", "p u", "x x x x", "ma ge pa", "MaGePa"]
    queries += ["".join(rnd.choice("aegikmnprstuvx12") for _ in range(rnd.randint(1, 6))) for _ in range(120)]
    # several parts, a word's prefix each: a part that comes twice in a name must match at its first place
    queries += [" ".join(rnd.choice(words)[:rnd.randint(1, 3)] for _ in range(rnd.randint(2, 4))) for _ in range(80)]
    for query in queries:
        parts = query_parts(query)
        brute = sorted((r, len(n), n) for n in names if (r := symbol_match_rank(query, parts, n)) is not None)
        for limit in (1, 3, 40, 100, 5000):
            assert index.best(query, parts, limit) == brute[:limit], (query, limit)
    assert index.best("mkresp", query_parts("mkresp"), 0) == []
    assert SymbolNameIndex([]).best("a", ["a"], 10) == []
