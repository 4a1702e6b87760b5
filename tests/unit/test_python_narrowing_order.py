"""The order of the narrowed bindings (indexer/languages/python/narrowing.py): the ``if`` / ``assert``
/ ``match`` statements come from the query ``narrowing`` (the extractor's shared walk), not from a walk
in Python over every node, and are read in the order that walk met them: an outer statement before
those inside it, otherwise the later statement first. Exact bindings in order, inside the shared pass
and without it; negatives: a conditional expression, a ``while`` test and a comprehension's ``if``
narrow nothing."""

from __future__ import annotations

from indexer.languages.base import SourceText, parser, shared_pass
from indexer.languages.python.extractor import SHARED_QUERIES, PythonExtractor
from indexer.languages.python.narrowing import isinstance_narrowings
from indexer.model import NARROWED

SRC = b'''\
def f(a, b, c, d, e):
    if isinstance(a, A):
        a.m()
        if isinstance(b, B):
            b.m()
    assert isinstance(c, C)
    c.m()
    match d:
        case D():
            d.m()
    if not isinstance(e, E):
        raise TypeError(e)
    e.m()
    g = a if isinstance(a, X) else None
    while isinstance(b, Y):
        b = b.next
    h = [q for q in a if isinstance(q, Z)]
    return g, h


def k(p):
    if isinstance(p, P):
        return p.m()
'''

EXPECTED = [  # (scope, name, type, first line, last line), in the order written
    ("k", "p", "P", 23, 23),
    ("f", "e", "E", 13, 18),
    ("f", "d", "D", 10, 10),
    ("f", "c", "C", 7, 18),
    ("f", "a", "A", 3, 5),
    ("f", "b", "B", 5, 5),
]


def _narrowings(shared: bool) -> list[tuple[str | None, str, str, int, int]]:
    root = parser("python").parse(SRC).root_node
    src = SourceText(SRC)
    scope = lambda at: "k" if at >= SRC.index(b"def k") else "f"  # noqa: E731
    if shared:
        with shared_pass("python", "python/queries", SHARED_QUERIES, root):
            found = isinstance_narrowings(root, src.text, scope)
    else:
        found = isinstance_narrowings(root, src.text, scope)
    assert all(b.how == NARROWED for b in found)
    return [(b.scope, b.name, b.type, b.line, b.end) for b in found]


def test_narrowings_in_the_walks_order_inside_the_shared_pass() -> None:
    assert _narrowings(shared=True) == EXPECTED


def test_narrowings_alone_match_the_shared_pass() -> None:
    assert _narrowings(shared=False) == EXPECTED


def test_expressions_and_loops_narrow_nothing() -> None:
    names = {(scope, name, typ) for scope, name, typ, _, _ in _narrowings(shared=True)}
    assert not names & {("f", "a", "X"), ("f", "b", "Y"), ("f", "q", "Z")}


def test_the_extraction_writes_them_in_that_order() -> None:
    out = PythonExtractor().extract("m.py", SRC)
    got = [(b.scope, b.name, b.type, b.line, b.end) for b in out.bindings if b.how == NARROWED]
    assert got == [("k", "p", "P", 23, 23), ("f", "e", "E", 13, 18), ("f", "d", "D", 10, 10),
                   ("f", "c", "C", 7, 18), ("f", "a", "A", 3, 5), ("f", "b", "B", 5, 5)]
