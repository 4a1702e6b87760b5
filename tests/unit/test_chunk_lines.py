"""The chunker's line texts (:class:`indexer.chunking._Lines`): one slice of the file's joined lines,
the same text the line-by-line join gave, cut after the line that passes the cap, and long
(minified) lines cut by columns."""

import random

from indexer.chunking import MAX_CHUNK_CHARS, _Lines


def _reference(lines, start, end, start_col=0, end_col=None):
    """The former line-by-line join (session 55's ``_lines_text``)."""
    out, size = [], 0
    for i in range(max(start, 0), min(end, len(lines))):
        line = lines[i]
        if len(line) > MAX_CHUNK_CHARS:
            line = line[start_col if i == start else 0 : end_col if i == end - 1 and end_col is not None else None]
        out.append(line)
        size += len(line) + 1
        if size - 1 > MAX_CHUNK_CHARS:
            break
    return "\n".join(out)


def test_slices_whole_lines():
    t = _Lines(["a = 1", "def f():", "    return 2", ""])
    assert t.text(1, 3) == "def f():\n    return 2"
    assert t.text(0, 4) == "a = 1\ndef f():\n    return 2\n"
    assert t.text(3, 4) == ""
    assert t.text(2, 2) == ""  # an empty run
    assert t.text(-1, 1) == "a = 1"  # clamped to the file
    assert t.text(2, 99) == "    return 2\n"
    assert t.text(5, 9) == ""  # past the end: nothing, not the last line
    assert t.text(1, 2) is t.lines[1]  # one line: that line's own string, as "\n".join gives it


def test_stops_after_the_line_that_passes_the_cap():
    lines = ["x" * 999] * 20  # 1,000 characters a line with its newline
    t = _Lines(lines)
    text = t.text(0, 20)
    assert text == "\n".join(lines[:7])  # 6 lines are 5,999 characters, the 7th passes 6,000
    assert len(text) == 6_999
    assert t.text(13, 20) == "\n".join(lines[13:20])  # 6,999 characters: the whole run, 7 lines
    assert t.text(0, 6) == "\n".join(lines[:6])  # not cut: 5,999 characters


def test_long_line_cut_by_columns():
    long = "a" * 3_000 + "def g(): pass" + "b" * 4_000
    t = _Lines(["import x", long, "y = 2"])
    assert t.text(1, 2, 3_000, 3_013) == "def g(): pass"
    assert t.text(1, 3, 3_000, 5) == "def g(): pass" + "b" * 4_000 + "\ny = 2"  # end_col is the last line's only
    assert t.text(0, 1) == "import x"  # the long line outside the run changes nothing


def test_same_as_the_line_by_line_join():
    rng = random.Random(56)
    for _ in range(300):
        lines = [rng.choice("ab \t") * rng.choice((0, 1, 40, 700, 2_500, 6_001, 9_000)) for _ in range(rng.randint(0, 30))]
        t = _Lines(lines)
        for _ in range(20):
            start, end = rng.randint(-2, len(lines) + 2), rng.randint(-2, len(lines) + 3)
            start_col, end_col = rng.randint(0, 7_000), rng.choice((None, rng.randint(0, 9_000)))
            assert t.text(start, end, start_col, end_col) == _reference(lines, start, end, start_col, end_col)
