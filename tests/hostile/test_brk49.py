"""brk49's hostile inputs: what broke is tested here with the exact records or edges expected and
what must not be linked (the inputs, sizes and times are in docs/benchmarks.md, "brk49")."""

from __future__ import annotations

from indexer.languages.python.extractor import EXTRACTOR as PY
from indexer.languages.python.indentation import MAX_INDENT, cut_deep_blocks, deep_runs
from tests.resolution_harness import edges, resolve_fixture


def _nested_ifs(n: int, indent: str) -> str:
    """``before`` and ``after`` call ``helper``; ``deep`` nests ``n`` ``if helper():`` blocks (line
    6 + i holds the i-th), the innermost body one more ``helper()`` (line 6 + n)."""
    body = "".join(indent * (1 + i) + "if helper():\n" for i in range(n)) + indent * (1 + n) + "helper()\n"
    return "def helper():\n    return 1\ndef before():\n    helper()\ndef deep():\n" + body + "def after():\n    helper()\n"


def _check_cut(n: int, indent: str) -> None:
    text = _nested_ifs(n, indent).encode()
    out = PY.extract("m.py", text)
    assert out.partial == "too_deep"
    assert out.errors == []
    assert [d.qualname for d in out.definitions] == ["helper", "before", "deep", "after"]
    sites = sorted((c.caller, c.line) for c in out.calls)
    # the blocks at levels 1..99 keep their calls; level 100's line stands as `0`, deeper ones are blank
    assert sites == sorted([("before", 4), ("after", 8 + n)] + [("deep", 6 + i) for i in range(MAX_INDENT)])
    assert next(d for d in out.definitions if d.qualname == "after").start_line == 7 + n


def test_python_blocks_nested_past_the_parser_keep_the_rest_of_the_file():
    """600 nested ``if`` (past tree-sitter-python's ~510 levels): the file parsed as one ERROR node,
    ``deep`` was no function and its calls were the module's."""
    _check_cut(600, " ")


def test_python_blocks_nested_2000_deep_keep_the_code_within_the_limit():
    """1,000 tab-indented ``if helper():`` (an ERROR node of more than 4,096 tokens): the whole file
    was cut (``syntax_errors``), none of its definitions or calls kept, ``before`` and ``after``
    included."""
    _check_cut(1000, "\t")


def test_python_nested_past_the_limit_resolves_within_it():
    got = edges(resolve_fixture("# --- path: m.py ---\n" + _nested_ifs(700, " ")))
    assert got == ["m.after(0) -> m.helper(0) [exact]", "m.before(0) -> m.helper(0) [exact]",
                   "m.deep(0) -> m.helper(0) [exact]"]


def test_a_file_within_the_limit_or_broken_otherwise_is_not_cut():
    assert cut_deep_blocks(_nested_ifs(MAX_INDENT - 1, " ").encode()) is None
    assert cut_deep_blocks(b"def f(:\n    g()\n") is None  # a syntax error, nothing deep
    assert cut_deep_blocks(b"x = (\n") is None  # the tokenizer fails: nothing cut
    out = PY.extract("m.py", _nested_ifs(MAX_INDENT - 1, " ").encode())
    assert out.partial is None
    assert len([c for c in out.calls if c.caller == "deep"]) == MAX_INDENT


def test_deep_runs_read_logical_lines_not_indented_text():
    """A string or bracket continued on deeply indented lines is one logical line at its own level;
    the comment and blank lines inside a deep run go with it; the byte length and rows stay."""
    src = (b"def f():\n"
           b"    s = '''\n" + b" " * 40 + b"text'''\n"
           b"    if a:\n        if b:\n            g(1,\n" + b" " * 50 + b"2)\n\n            # note\n"
           b"            h()\n    k()\n")
    assert deep_runs(src, 2) == [(5, 10)]
    cut = cut_deep_blocks(src, 2)
    assert cut is not None and len(cut) == len(src)
    lines = cut.split(b"\n")
    assert lines[4] == b"        if b:"
    assert lines[5] == b"            0" + b" " * 3
    assert lines[6:10] == [b" " * 52, b"", b" " * 18, b" " * 15]
    assert lines[10] == b"    k()"
