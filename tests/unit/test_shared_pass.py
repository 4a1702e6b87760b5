"""One walk of a Python tree for the queries every file runs (``indexer.languages.base.shared_pass``):
each query's matches are exactly those of its own run, and the extraction is the same with and
without the shared walk."""

from __future__ import annotations

import contextlib
import pickle
from pathlib import Path

import pytest
from tree_sitter import QueryCursor

import indexer.languages.base as base
import indexer.languages.python.extractor as python_extractor
from indexer.languages.base import extraction_budget, parser, query, run_query, shared_pass
from indexer.languages.python.extractor import SHARED_QUERIES, PythonExtractor

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

SOURCE = b'''\
import os
from typing import Optional
from django.db import models
from .helpers import clean as _clean, load


class Author(models.Model):
    """An author."""
    name: str = models.CharField(max_length=50)
    books = models.ManyToManyField("Book")

    @property
    def label(self) -> Optional[str]:
        return _clean(self.name).upper()

    @classmethod
    def create(cls, name: str = "x", *args, **kw) -> "Author":
        a, (b, c) = load(name), os.path.split(name)
        for x in [Book(t) for t in args]:
            x.save()
        with open(name) as fh:
            data = fh.read()
        self_ref = cls(name=name)
        self_ref.name = data
        return self_ref


def outer():
    def inner(y=len("a")):
        return Author.objects.filter(name=y).first()
    return inner


class Book(models.Model):
    author = models.ForeignKey(Author, on_delete=models.CASCADE)
    handlers = {"a": outer, "b": Author.create}
    print(Author, Book)
'''


def _plain(matches) -> list[tuple[int, list[tuple[str, list[tuple[int, int, str]]]]]]:
    """Matches as comparable values: pattern index, and per capture name its nodes' span and type."""
    return [(p, sorted((name, [(n.start_byte, n.end_byte, n.type) for n in nodes]) for name, nodes in caps.items()))
            for p, caps in matches]


class _CountingCursor:
    """A query cursor counting how many were made (each is one walk of the tree)."""

    made = 0
    overflow = False

    def __init__(self, *args, **kwargs) -> None:
        self.cursor = QueryCursor(*args, **kwargs)
        _CountingCursor.made += 1

    def __getattr__(self, name: str):
        if name == "did_exceed_match_limit" and self.overflow:
            return True
        return getattr(self.cursor, name)


def test_each_query_gets_exactly_its_own_matches_from_one_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    root = parser("python").parse(SOURCE).root_node
    alone = {name: _plain(run_query(query("python", "python/queries", name), root)) for name in SHARED_QUERIES}
    assert all(alone[name] for name in ("definitions", "calls", "imports", "assignments", "class_uses"))
    monkeypatch.setattr(base, "QueryCursor", _CountingCursor)
    _CountingCursor.made = 0
    with shared_pass("python", "python/queries", SHARED_QUERIES, root):
        assert _CountingCursor.made == 1  # the one walk
        shared = {name: _plain(run_query(query("python", "python/queries", name), root)) for name in SHARED_QUERIES}
        assert _CountingCursor.made == 1  # every query served from it
        # A second run of a query over the same tree runs it again (its matches were handed out).
        again = _plain(run_query(query("python", "python/queries", "calls"), root))
        assert _CountingCursor.made == 2
        # A query over a subtree, or one not in the pass, runs on its own.
        body = root.children[4]
        assert body.type == "class_definition"
        sub = _plain(run_query(query("python", "python/queries", "calls"), body))
        other = _plain(run_query(query("python", "python/queries", "django_urls"), root))
        assert _CountingCursor.made == 4
    assert shared == alone
    assert again == alone["calls"]
    assert sub == [m for m in alone["calls"] if body.start_byte <= m[1][0][1][0][0] < body.end_byte] and sub
    assert other == _plain(run_query(query("python", "python/queries", "django_urls"), root))
    # Outside the block every run is its own walk again.
    _CountingCursor.made = 0
    list(run_query(query("python", "python/queries", "calls"), root))
    assert _CountingCursor.made == 1


def test_the_cut_tree_of_a_budget_is_shared_the_same_way() -> None:
    nested = b"def f():\n" + b"".join(b"    " * i + b"if g(%d):\n" % i for i in range(1, 40)) + b"    " * 40 + b"h()\n"
    root = parser("python").parse(SOURCE + nested).root_node
    with extraction_budget(60, max_depth=30) as budget:
        alone = {name: _plain(run_query(query("python", "python/queries", name), root)) for name in SHARED_QUERIES}
    assert budget.partial == "too_deep"
    with extraction_budget(60, max_depth=30) as budget:
        with shared_pass("python", "python/queries", SHARED_QUERIES, root):
            shared = {name: _plain(run_query(query("python", "python/queries", name), root)) for name in SHARED_QUERIES}
    assert budget.partial == "too_deep"
    assert shared == alone
    called = [m for m in alone["calls"] if any(name == "callee" for name, _ in m[1])]
    assert len(called) < SOURCE.count(b"(") + 40  # the calls below depth 30 were left out


def test_a_spent_budget_or_a_dropped_match_shares_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    root = parser("python").parse(SOURCE).root_node
    with extraction_budget(-1) as budget:
        with shared_pass("python", "python/queries", SHARED_QUERIES, root):
            assert list(run_query(query("python", "python/queries", "calls"), root)) == []
    assert budget.partial == "time_budget"

    monkeypatch.setattr(base, "QueryCursor", _CountingCursor)
    monkeypatch.setattr(_CountingCursor, "overflow", True)  # each says it went past the match limit
    _CountingCursor.made = 0
    with shared_pass("python", "python/queries", SHARED_QUERIES, root):
        assert _CountingCursor.made == 1
        calls = _plain(run_query(query("python", "python/queries", "calls"), root))
        assert _CountingCursor.made == 2  # nothing was shared: the query ran on its own
    monkeypatch.setattr(base, "QueryCursor", QueryCursor)
    assert calls == _plain(run_query(query("python", "python/queries", "calls"), root))


def test_python_extraction_is_the_same_with_and_without_the_shared_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = {"m.py": SOURCE}
    sources.update({str(p.relative_to(FIXTURES)): p.read_bytes() for p in sorted(FIXTURES.rglob("*.py"))})
    assert len(sources) > 30
    shared = {path: pickle.dumps(PythonExtractor().extract(path, data)) for path, data in sources.items()}
    monkeypatch.setattr(python_extractor, "shared_pass", lambda *args: contextlib.nullcontext())
    alone = {path: pickle.dumps(PythonExtractor().extract(path, data)) for path, data in sources.items()}
    assert shared == alone
    ex = PythonExtractor().extract("m.py", SOURCE)
    assert [d.qualname for d in ex.definitions] == [
        "Author", "Author.name", "Author.books", "Author.label", "Author.create", "outer", "outer.inner", "Book",
        "Book.author", "Book.handlers"]
    assert {(c.receiver or "", c.name, c.via or "") for c in ex.calls} == {
        ("", "Book", ""), ("", "_clean", ""), ("", "cls", ""), ("", "len", ""), ("", "load", ""), ("", "open", ""),
        ("", "print", ""), ("Author.objects", "filter", ""), ("Author.objects.filter()", "first", ""),
        ("_clean()", "upper", ""), ("args", "__iter__", "dunder"), ("args", "__next__", "dunder"), ("fh", "read", ""),
        ("models", "CharField", ""), ("models", "ForeignKey", ""), ("models", "ManyToManyField", ""),
        ("open()", "__enter__", "dunder"), ("open()", "__exit__", "dunder"), ("os.path", "split", ""),
        ("x", "save", "")}
