"""Shortcuts of the Python extract phase (issue 19 goal 3: its CPU) that must not change what is
extracted: the detectors find a recorded call by a dictionary look-up (:func:`known_calls`) instead
of a descent from the root; a detector's query matched in the shared pass for the files its byte
test picks (:func:`shared_queries`); the attributes found called skipped by ``value_reads``."""

from __future__ import annotations

import pytest

from indexer.languages.base import SourceText, parser
from indexer.languages.python import extractor
from indexer.languages.python.frameworks import shared_queries
from indexer.languages.python.frameworks.common import CallLocator, known_calls

CALLS = (
    "import requests\n"
    "@app.route('/x')\n"           # line 2: a decorator call
    "def view(handlers, k):\n"
    "    a.b.c(1)\n"               # line 4: c at col 8
    "    f()(2)\n"                 # line 5: f() called, what it returns called
    "    (handlers[k])(3)\n"       # line 6: no name: searched in the tree
    "    x = y.z\n"                # line 7: z is read, not called
    "    return requests.get('http://h/p')\n"
)


def _tree(code: str) -> tuple[object, SourceText]:
    tree = parser("python").parse(code.encode())
    return tree, SourceText(code.encode())


def _span(node: object) -> tuple[int, int] | None:
    return None if node is None else (node.start_byte, node.end_byte)  # type: ignore[attr-defined]


def test_the_index_answers_as_the_tree_search_does(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[dict[tuple[int, int], object]] = []
    real = extractor.known_calls

    def spy(src, calls):  # noqa: ANN001, ANN202 - a spy
        given.append(calls)
        return real(src, calls)

    monkeypatch.setattr(extractor, "known_calls", spy)
    out = extractor.EXTRACTOR.extract("app/m.py", CALLS.encode())
    tree, src = _tree(CALLS)
    # exact: the calls of `route`, `c`, `f`, `get`; `(handlers[k])(3)` has no name there
    assert sorted(given[0]) == [(2, 5), (4, 8), (5, 4), (8, 20)]
    search = CallLocator(tree.root_node, src)  # type: ignore[attr-defined]
    assert {p: _span(n) for p, n in given[0].items()} == {p: _span(search.call_at(*p)) for p in given[0]}
    positions = [(c.line, c.col) for c in out.calls] + [(6, 4), (7, 10), (7, 4), (99, 0)]
    searched = [_span(CallLocator(tree.root_node, src).call_at(*p)) for p in positions]  # type: ignore[attr-defined]
    with known_calls(src, given[0]):  # type: ignore[arg-type]
        indexed = [_span(CallLocator(tree.root_node, src).call_at(*p)) for p in positions]  # type: ignore[attr-defined]
    assert indexed == searched
    handlers_call = CALLS.index("(handlers[k])(3)")
    assert searched[-4:] == [(handlers_call, handlers_call + len("(handlers[k])(3)")), None, None, None]


def test_the_index_is_for_its_file_and_its_block_only() -> None:
    tree, src = _tree(CALLS)
    other_tree, other_src = _tree("g(1)\n")
    fake = {(1, 0): tree.root_node}  # a wrong answer, were it read
    with known_calls(src, fake):
        assert CallLocator(other_tree.root_node, other_src).call_at(1, 0).type == "call"  # type: ignore[attr-defined,union-attr]
        assert CallLocator(tree.root_node, src).call_at(1, 0) == tree.root_node  # type: ignore[attr-defined]
    assert CallLocator(tree.root_node, src).call_at(1, 0) is None  # type: ignore[attr-defined]


def test_detectors_offer_their_query_to_the_files_their_bytes_pick() -> None:
    assert shared_queries("python", b"import requests\nrequests.get(u)\n") == ("http_clients",)
    assert shared_queries("python", b"class T(TestCase):\n  def t(self): self.client.get('/x')\n") == ("http_clients",)
    assert shared_queries("python", b"from django.db import models\nf = models.ForeignKey(A)\n") == ("django_relations",)
    assert shared_queries("python", b"import django\nimport requests\nx = models.ManyToManyField(B)\n") == (
        "http_clients", "django_relations")
    assert shared_queries("python", b"import os\nos.path.join(a, b)\n") == ()
    assert shared_queries("python", b"import django\n") == ()  # a library, but no client word


DETECTED = (
    "import requests\n"
    "from django.db import models\n"
    "from django.test import TestCase\n"
    "class A(models.Model):\n"
    "    b = models.ForeignKey('B', on_delete=models.CASCADE, related_name='as_')\n"
    "def fetch():\n"
    "    s = requests.Session()\n"
    "    return s.post('http://h/api', json={})\n"
    "class T(TestCase):\n"
    "    def test_it(self):\n"
    "        self.client.get('/a/')\n"
)


def test_a_shared_query_finds_what_its_own_run_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = extractor.EXTRACTOR.extract("app/m.py", DETECTED.encode())
    monkeypatch.setattr(extractor, "shared_queries", lambda language, data: ())
    alone = extractor.EXTRACTOR.extract("app/m.py", DETECTED.encode())
    assert shared == alone
    assert [(h.framework, h.method, h.caller, h.line) for h in shared.http_calls] == [
        ("requests", "POST", "fetch", 8), ("django-test", "GET", "T.test_it", 11)]
    assert [(b.scope, b.name, b.type, b.how) for b in shared.bindings if b.how in ("related", "reverse")] == [
        ("A", "~as_", "*'B'", "reverse"), ("A", "b", "'B'", "related")]


def test_called_attributes_are_no_value_reads() -> None:
    out = extractor.EXTRACTOR.extract("app/m.py", CALLS.encode())
    assert [(r.name, r.receiver, r.line) for r in out.value_reads] == [("b", "a", 4), ("z", "y", 7)]
    assert not any(r.name in ("c", "get", "route") for r in out.value_reads)
