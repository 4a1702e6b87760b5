"""Workspace-symbol matching (:func:`stores.contracts.symbol_match_rank`, ``best_symbol_names``):
exact > exact ignoring case > prefix > part match > abbreviation > subsequence, on names taken from
Django and Flask; negative cases; the fast ranking equals ranking every name and sorting."""

from __future__ import annotations

import random

import pytest

from stores.contracts import best_symbol_names, query_parts, symbol_match_rank


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
