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


def test_split_dotted_memo_answers_again_with_the_same_segments_and_stays_bounded(monkeypatch):
    """A text split before is answered from the memo (the same list, equal to a fresh split); a text
    longer than SPLIT_MEMO_CHARS is split each time and not kept; a full memo starts over."""
    from indexer.resolve import dotted

    monkeypatch.setattr(dotted, "_SPLIT", {})
    first = split_dotted("a.b().c")
    assert first == ["a", "b()", "c"] and split_dotted("a.b().c") is first
    long = "x." * dotted.SPLIT_MEMO_CHARS + "y"
    assert split_dotted(long) == ["x"] * dotted.SPLIT_MEMO_CHARS + ["y"]
    assert long not in dotted._SPLIT
    monkeypatch.setattr(dotted, "SPLIT_MEMO", 2)
    split_dotted("p.q")
    assert set(dotted._SPLIT) == {"a.b().c", "p.q"}
    assert split_dotted("r(s.t)") == ["r()"]
    assert set(dotted._SPLIT) == {"r(s.t)"}  # full: started over
