"""brk49's hostile inputs: what broke is tested here with the exact records or edges expected and
what must not be linked (the inputs, sizes and times are in docs/benchmarks.md, "brk49")."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from indexer.frameworks.scopes import Scopes, ScopeIndex
from indexer.languages.ecmascript.javascript import EXTRACTOR as JS
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


# -- Express / Koa registrations: the linker's scope of a position and the inline middleware --------

def _span(qualname: str, start: tuple[int, int], end: tuple[int, int]) -> SimpleNamespace:
    return SimpleNamespace(qualname=qualname, start_line=start[0], start_col=start[1], end_line=end[0], end_col=end[1])


class _CountedDef:
    """A parked definition (``rd.d``) counting its reads."""

    reads = 0

    def __init__(self, d: SimpleNamespace) -> None:
        self._d = d

    @property
    def d(self) -> SimpleNamespace:
        _CountedDef.reads += 1
        return self._d


def test_the_innermost_scope_of_a_position_is_exact():
    spans = [_span("A", (1, 0), (20, 0)), _span("A.m", (2, 4), (5, 4)), _span("A.m.inner", (3, 8), (4, 8)),
             _span("A.n", (7, 4), (9, 4)), _span("f", (22, 0), (30, 0)), _span("f.g", (22, 0), (23, 0)),
             _span("h", (40, 0), (41, 0))]
    index = ScopeIndex([((s.start_line, s.start_col), (s.end_line, s.end_col), s.qualname) for s in spans])
    assert [index.at(*p) for p in [(1, 0), (2, 4), (3, 9), (4, 8), (4, 9), (6, 0), (8, 0), (10, 0), (20, 0), (20, 1)]] == [
        "A", "A.m", "A.m.inner", "A.m.inner", "A.m", "A", "A.n", "A", "A", None]
    # equal starts: the narrower span is the inner one
    assert [index.at(22, 0), index.at(23, 0), index.at(23, 1), index.at(35, 0), index.at(0, 5)] == ["f.g", "f.g", "f", None, None]


def test_the_scopes_of_a_file_are_read_once_per_link_pass():
    """10,000 ``app.use(function ...)`` lines: each registration's scope scanned every definition of
    the file (185 s of linking at 10,000, 38 s at 5,000); the file's spans are now read once."""
    n = 3000
    defs = [_CountedDef(_span(f"m{i}", (i + 1, 8), (i + 1, 60))) for i in range(n)]
    fc = SimpleNamespace(path="app.js", defs=defs)
    scopes = Scopes()
    _CountedDef.reads = 0
    got = [scopes.at(fc, i + 1, 0) for i in range(n)] + [scopes.at(fc, i + 1, 9) for i in range(n)]
    assert got == [None] * n + [f"m{i}" for i in range(n)]
    assert _CountedDef.reads == n
    fc2 = SimpleNamespace(path="app.js", defs=defs[:1])  # another context of the path: read again
    assert scopes.at(fc2, 2, 9) is None and scopes.at(fc2, 1, 9) == "m0"
    assert _CountedDef.reads == n + 1


_MIDDLEWARE = ("const express = require('express');\nconst app = express();\nfunction helper() { return 1; }\n"
               "app.get('/first', function (q, s) { helper(); });\n")


def _middleware_file(n: int) -> bytes:
    return (_MIDDLEWARE + "app.use(function (q, s, nx) { helper(); nx(); });\n" * n
            + "app.get('/last', function (q, s) { helper(); });\nhelper();\n").encode()


def test_inline_middleware_are_named_and_own_their_calls():
    out = JS.extract("app.js", _middleware_file(3))
    assert [(d.qualname, d.start_line) for d in out.definitions] == [
        ("helper", 3), ("GET /first", 4), ("middleware app.use", 5), ("middleware app.use #2", 6),
        ("middleware app.use #3", 7), ("GET /last", 8)]
    assert sorted(((c.caller or ""), c.name, c.line) for c in out.calls if c.name in ("helper", "nx")) == [
        ("", "helper", 9), ("GET /first", "helper", 4), ("GET /last", "helper", 8),
        ("middleware app.use", "helper", 5), ("middleware app.use", "nx", 5),
        ("middleware app.use #2", "helper", 6), ("middleware app.use #2", "nx", 6),
        ("middleware app.use #3", "helper", 7), ("middleware app.use #3", "nx", 7)]


_GROWTH = """
import gc, sys, time
from indexer.languages.ecmascript.javascript import EXTRACTOR as JS
from tests.hostile.test_brk49 import _middleware_file
gc.disable()
def cpu(n):
    data = _middleware_file(n)
    t = time.process_time()
    out = JS.extract("app.js", data)
    spent = time.process_time() - t
    assert out.definitions[-2].qualname == f"middleware app.use #{n}"
    return spent
cpu(200)  # warm the queries
print(min(cpu(1000) for _ in range(3)), min(cpu(4000) for _ in range(3)))
"""


def test_inline_middleware_extraction_grows_linearly():
    """Each inline function scanned every definition and call of the file and tried every ``#n``
    from 2 up (88 s of extraction at 10,000 lines); CPU time at 4N is now about 4x that at N (was
    about 16x). Measured in a fresh interpreter with the collector off, the least of three runs per
    size: inside CI's long test session (a heap of several hundred MiB) the same pair read 10.6-10.8x
    where a fresh process reads 4-5x, for base68's code and this one alike."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", _GROWTH], cwd=root, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr[-2000:]
    small, large = map(float, done.stdout.split())
    assert large < 9 * small, (small, large)


# -- FastAPI routers built by the application's own classes ------------------------------------------

def _class_diamond(k: int, levels: int, base: str) -> bytes:
    """``Base(base)``, then ``levels`` levels of ``k`` classes, each deriving from all ``k`` of the level
    above; ``router`` is built by the last level's first class and has one route."""
    s, prev = f"from fastapi import APIRouter\n\n\nclass Base({base}):\n    pass\n", ["Base"]
    for lv in range(levels):
        cur = [f"C{lv}_{j}" for j in range(k)]
        s += "".join(f"\n\nclass {c}({', '.join(prev)}):\n    pass\n" for c in cur)
        prev = cur
    return (s + f"\n\nrouter = {prev[0]}(prefix='/x')\n\n\n@router.get('/a')\ndef a():\n    return 1\n").encode()


def test_a_diamond_of_router_classes_is_walked_once_per_class():
    """7 classes a level, each deriving from all 7 above, 9 levels, over a class deriving from nothing
    of FastAPI's: the candidate-router check walked every path of bases (7^8) and the 4 KB file took
    26 s of CPU to extract. Each class is now read once per depth left. Through 7 classes of the
    file (within 8) a router is found; the diamond over ``object`` is no router."""
    out = PY.extract("app/routes.py", _class_diamond(12, 6, "APIRouter"))
    assert [(r.framework, r.name, r.line) for r in out.routers] == [("fastapi", "router", 5 + 6 * 12 * 4 + 3)]
    assert [(r.methods, r.handler, r.router) for r in out.routes] == [(["GET"], "a", "router")]
    t = time.process_time()
    none = PY.extract("app/routes.py", _class_diamond(7, 9, "object"))
    assert none.routers == [] and none.routes == []
    assert time.process_time() - t < 5
