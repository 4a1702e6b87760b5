"""``split_dotted`` (indexer.resolve.dotted): a receiver's dotted text into segments, exactly, on
its plain-split fast path (no parentheses, no ``?``) and on the character walk."""

from __future__ import annotations

import pytest

from indexer.resolve.dotted import split_dotted


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("", []),
        (".", []),
        ("a", ["a"]),
        ("self.model.objects", ["self", "model", "objects"]),
        ("a..b.", ["a", "b"]),  # empty segments dropped
        (".a", ["a"]),
        ("a.b().c", ["a", "b()", "c"]),
        ("a(x.y).b", ["a()", "b"]),  # arguments dropped, their dots with them
        ("f(g(1).h).k", ["f()", "k"]),
        ("a?.b", ["a", "b"]),  # optional chaining
        ("a)b.c", ["ab", "c"]),  # an unbalanced ")" is dropped
        ("(a.b", ["()"]),  # an unclosed "(" swallows the rest
    ],
)
def test_split_dotted(text, segments):
    assert split_dotted(text) == segments
