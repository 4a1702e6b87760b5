"""Python blocks nested past the language's own limit, cut so the rest of the file parses.

CPython refuses more than :data:`MAX_INDENT` levels of indentation ("too many levels of
indentation", ``MAXINDENT`` in CPython's ``Parser/tokenizer.h``), and tree-sitter-python's scanner
keeps its indentation stack in the 1,024-byte state a tree-sitter scanner may serialise: past about
510 levels the whole file parses as one ERROR node, so a file of 600 nested ``if`` lost its
functions (their calls went to the module) and one of 2,000 lost everything (the ERROR node is too
wide to query: :data:`indexer.languages.base.MAX_ERROR_CHILDREN`). :func:`cut_deep_blocks` blanks
the lines nested deeper than CPython accepts, keeping every byte offset and line number, so the
code within the limit is extracted as written and the file is indexed in part (``too_deep``).
"""

from __future__ import annotations

import io
import re
import tokenize

__all__ = ["MAX_INDENT", "cut_deep_blocks", "deep_runs"]

MAX_INDENT = 99
"""Indentation levels CPython 3.11 accepts (its tokenizer's ``MAXINDENT`` is 100, level 0 included)."""


def deep_runs(source: bytes, limit: int = MAX_INDENT) -> list[tuple[int, int]] | None:
    """The runs of logical lines starting deeper than ``limit`` indentation levels, as 0-based row
    ranges ``(first, end)`` (end exclusive; rows split at ``\\n`` as :func:`tokenize.tokenize` reads
    them; the blank and comment lines between two deep lines of a run are inside it). ``None`` when
    the tokenizer fails (an unclosed bracket or string, a dedent to no outer level): nothing is cut.
    A line ``limit + 1`` levels deep starts with at least ``limit + 1`` blanks (each level adds one at
    least), so a file with no such line is answered ``[]`` without tokenizing it (a Python 2 file or
    any other syntax error took a full tokenizer pass: 5 s for 1 MB on a loaded machine)."""
    if not re.search(rb"^[ \t\f]{%d}" % (limit + 1), source, re.MULTILINE):
        return []
    runs: list[tuple[int, int]] = []
    depth, start, in_run = 0, None, False
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            kind = tok.type
            if kind == tokenize.INDENT:
                depth += 1
            elif kind == tokenize.DEDENT:
                depth -= 1
            elif kind in (tokenize.NL, tokenize.COMMENT, tokenize.ENCODING, tokenize.ENDMARKER):
                continue
            elif kind == tokenize.NEWLINE:
                if start is not None and depth > limit:
                    if in_run:
                        runs[-1] = (runs[-1][0], tok.end[0])
                    else:
                        runs.append((start - 1, tok.end[0]))
                    in_run = True
                elif start is not None:
                    in_run = False
                start = None
            elif start is None:
                start = tok.start[0]
    except (tokenize.TokenError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    return runs


def cut_deep_blocks(source: bytes, limit: int = MAX_INDENT) -> bytes | None:
    """``source`` with every run of lines nested deeper than ``limit`` levels blanked (spaces, the
    line ends kept: same length, same byte offsets and rows), its first line standing as the
    statement ``0`` at its own indentation (level ``limit + 1``), so the block holding the run still
    has a body (tree-sitter reads it; CPython's ``ast`` refuses it as it refused the original, so
    code valid for CPython is never cut); ``None``
    when nothing is that deep or the tokenizer fails (see :func:`deep_runs`). Cost: one tokenizer
    pass over the file (call it only when the parse failed)."""
    runs = deep_runs(source, limit)
    if not runs:
        return None
    lines = io.BytesIO(source).readlines()
    for first, end in runs:
        for row in range(first, min(end, len(lines))):
            line = lines[row]
            body = line.rstrip(b"\r\n")
            ending = line[len(body):]
            if row == first:
                indent = len(body) - len(body.lstrip(b" \t\f"))
                lines[row] = body[:indent] + b"0" + b" " * (len(body) - indent - 1) + ending
            else:
                lines[row] = b" " * len(body) + ending
    return b"".join(lines)
