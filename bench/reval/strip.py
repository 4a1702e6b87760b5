"""Doc removal and doc-sentence queries: Python docstrings (:mod:`ast`), Javadoc and JSDoc (``/** */``).

The evaluation indexes a copy of each corpus whose chunks carry no documentation, and asks for each
documented function with the first sentence of its documentation. This module does both halves:

* :func:`strip_docstrings` cuts every docstring of every definition in a Python chunk text;
  :func:`strip_doc_comments` cuts every ``/** ... */`` comment from a Java / TypeScript / JavaScript
  chunk text (a small scanner skips string literals and ``//`` / ``/* */`` comments, so ``"/**"`` in a
  string is kept). Lines left holding nothing but the removed text are cut; other lines keep their text.
* :func:`doc_comment_before` finds the ``/** */`` comment that ends right before a definition (only
  whitespace between), and :func:`first_sentence` turns a docstring or doc comment into a query: the
  first sentence of its description (Javadoc's rule: up to the first ``.`` followed by whitespace, and
  never past the first blank line), inline tags and HTML reduced to their text.
"""

from __future__ import annotations

import ast
import html
import re
import textwrap
from dataclasses import dataclass

__all__ = ["Stripped", "strip_docstrings", "doc_comment_spans", "strip_doc_comments", "doc_comment_before",
           "doc_comment_text", "first_sentence", "C_LIKE"]

C_LIKE = frozenset({"java", "typescript", "javascript", "tsx", "jsx"})
"""Languages whose documentation is a ``/** */`` comment before the definition."""

_DEF_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _docstring_node(node: ast.AST) -> ast.Expr | None:
    body = getattr(node, "body", None)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[0]
    return None


@dataclass(frozen=True, slots=True)
class Stripped:
    """A chunk text without its documentation; ``doc`` is the raw documentation of the chunk's own
    definition (a Python docstring, or a ``/** */`` comment's text), ``None`` when it has none or it
    could not be cut cleanly."""

    text: str
    doc: str | None


def strip_docstrings(text: str) -> Stripped:
    """Remove every docstring of every def / class in ``text`` (a Python chunk: one definition,
    possibly indented, possibly capped). Lines holding only the docstring are cut; a docstring sharing
    a line with other code (``def f(): "doc"``) stays, and then ``doc`` is ``None``. Unparsable text is
    kept as is (``doc`` ``None``)."""
    source = textwrap.dedent(text)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return Stripped(text, None)
    lines = text.split("\n")
    src_lines = source.split("\n")
    cut: set[int] = set()  # 0-based line numbers
    own_doc: str | None = None
    top = next((n for n in tree.body if isinstance(n, _DEF_TYPES)), None)
    for node in ast.walk(tree):
        if not isinstance(node, _DEF_TYPES):
            continue
        expr = _docstring_node(node)
        if expr is None or expr.end_lineno is None:
            continue
        first, last = expr.lineno - 1, expr.end_lineno - 1
        alone = (src_lines[first][: expr.col_offset].strip() == ""
                 and src_lines[last][expr.end_col_offset:].strip() in ("", ";"))
        if not alone:
            continue
        cut.update(range(first, last + 1))
        if node is top:
            own_doc = ast.get_docstring(node)
    kept = [line for i, line in enumerate(lines) if i not in cut]
    return Stripped("\n".join(kept), own_doc)


def doc_comment_spans(text: str) -> list[tuple[int, int]]:
    """``[(start, end)]`` character offsets of every ``/** ... */`` comment in C-like source ``text``
    (``end`` exclusive; ``/**/`` is not one). String literals (``'``, ``"``, Java's triple-quote text blocks,
    template literals) and ``//`` and ``/* */`` comments are skipped; an unterminated ``'`` / ``"``
    string ends at its line's end, an unterminated comment or text block at the text's end."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            end = n if j < 0 else j + 2
            if text.startswith("/**", i) and not text.startswith("/**/", i):
                spans.append((i, end))
            i = end
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            i = n if j < 0 else j + 3
        elif c in "\"'`":
            j = i + 1
            while j < n and text[j] != c and (c == "`" or text[j] != "\n"):
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return spans


def strip_doc_comments(text: str) -> Stripped:
    """``text`` without its ``/** */`` comments (:func:`doc_comment_spans`). A line left with only
    whitespace where a comment was is cut; code sharing a line with a comment stays. ``doc`` is the
    comment that opens the text (only whitespace before it), else ``None``."""
    spans = doc_comment_spans(text)
    if not spans:
        return Stripped(text, None)
    own = text[spans[0][0]:spans[0][1]] if not text[: spans[0][0]].strip() else None
    parts: list[str] = []
    at = 0
    for s, e in spans:
        parts.append(text[at:s])
        parts.append("\x00")
        at = e
    parts.append(text[at:])
    kept = [line.replace("\x00", "") for line in "".join(parts).split("\n")
            if not ("\x00" in line and not line.replace("\x00", "").strip())]
    return Stripped("\n".join(kept), own)


def doc_comment_before(source: str, spans: list[tuple[int, int]], offset: int) -> str | None:
    """The ``/** */`` comment of ``spans`` (from :func:`doc_comment_spans` over ``source``) that ends
    before character ``offset`` with only whitespace between, else ``None``."""
    lo, hi = 0, len(spans)
    while lo < hi:  # the last span ending at or before offset
        mid = (lo + hi) // 2
        if spans[mid][1] <= offset:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return None
    s, e = spans[lo - 1]
    return source[s:e] if not source[e:offset].strip() else None


_INLINE = re.compile(r"\{@(\w+)\s*([^}]*)\}")
_TAG_LINE = re.compile(r"^@(\w+)\s*(.*)$")


def _inline(m: re.Match[str]) -> str:
    tag, body = m.group(1), m.group(2).strip()
    if tag in ("link", "linkplain", "see"):
        ref, _, label = body.partition(" ")
        return label.strip() or ref.replace("#", ".").strip(".")
    return body


def doc_comment_text(comment: str) -> str | None:
    """The description of a ``/** */`` comment: its lines without the ``*`` margin, up to the first
    block tag (``@param`` ...); a comment that opens with tags gives its ``@summary`` or
    ``@description`` text instead (date-fns style). ``None`` for ``{@inheritDoc}`` alone or an empty
    description."""
    body = comment.removeprefix("/**").removesuffix("*/")
    lines = [re.sub(r"^\s*\*? ?", "", line).rstrip() for line in body.split("\n")]
    desc: list[str] = []
    tags: dict[str, list[str]] = {}
    current: list[str] | None = desc
    for line in lines:
        m = _TAG_LINE.match(line.strip())
        if m:
            current = tags.setdefault(m.group(1), []) if m.group(1) in ("summary", "description") else None
            if current is not None:
                current.append(m.group(2))
        elif current is not None:
            current.append(line)
    text = "\n".join(desc).strip() or "\n".join(tags.get("summary") or tags.get("description") or []).strip()
    if not text or text.replace("{@inheritDoc}", "").strip() == "":
        return None
    return text


def first_sentence(doc: str) -> str:
    """The first sentence of a description: its first paragraph (up to a blank line), inline
    ``{@link A#b label}`` / ``{@code x}`` reduced to ``label`` / ``A.b`` / ``x``, HTML tags dropped and
    entities decoded, whitespace collapsed, cut after the first ``.`` / ``?`` / ``!`` that a space or
    the end follows."""
    para: list[str] = []
    for line in doc.strip().split("\n"):
        if not line.strip():
            if para:
                break
            continue
        para.append(line.strip())
    text = _INLINE.sub(_inline, " ".join(para))
    text = html.unescape(re.sub(r"</?[A-Za-z][^>]*>", " ", text))
    text = " ".join(text.split())
    m = re.search(r"[.?!](\s|$)", text)
    return text[: m.start() + 1] if m else text
