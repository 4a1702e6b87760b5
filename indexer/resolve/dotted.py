"""Dotted receiver texts as the resolver's interpreter reads them (:mod:`indexer.resolve.interpreter`):
``a.b().c[0]`` into segments (:func:`split_dotted`), a segment's calls (:func:`calls_off`) and the
subscripts and calls after its name (:func:`subscripts_off`)."""

from __future__ import annotations

__all__ = ["calls_off", "split_dotted", "subscripts_off", "too_long", "MAX_EXPRESSION_LINKS", "TOO_LONG", "SPLIT_MEMO",
           "SPLIT_MEMO_CHARS"]

MAX_EXPRESSION_LINKS = 64
"""Attribute and subscript links the interpreter follows in one expression (:func:`too_long`); past
it the expression has no value. Each subscript of ``n.kids[k].kids[k]...`` is a call site
(``__getitem__``) whose receiver is the chain before it, and each was followed from its head: a
chain of 1,000 attribute-subscript pairs read half a million attributes (61 s to resolve). The extractors cut receivers of attributes
and calls at :data:`indexer.model.MAX_RECEIVER_LINKS` (16) but keep a subscript's text whole."""

TOO_LONG: list[str] = [""] * (MAX_EXPRESSION_LINKS + 1)
"""What :func:`split_dotted` gives for a text of more links than :data:`MAX_EXPRESSION_LINKS` (shared:
not to be changed)."""


def too_long(segments: list[str]) -> bool:
    """Whether segments hold more than :data:`MAX_EXPRESSION_LINKS` links: more segments than that
    (:func:`split_dotted` gives :data:`TOO_LONG` for a text whose attributes and subscripts together
    pass the bound, so a length test is all a hot path pays)."""
    return len(segments) > MAX_EXPRESSION_LINKS


def calls_off(segment: str) -> tuple[str, int]:
    """A segment of :func:`split_dotted` without its calls, and how many: ``f()()`` -> ``("f", 2)``."""
    name = segment
    while name.endswith("()"):
        name = name[:-2]
    return name, (len(segment) - len(name)) // 2


def subscripts_off(segment: str) -> tuple[str, list[str]]:
    """A segment of :func:`split_dotted` cut before its first subscript, and the subscripts and
    calls after it: ``f()[0]()`` -> ``("f()", ["[0]", "()"])``; ``("users", [])`` for ``users``."""
    start = segment.find("[")
    if start <= 0:
        return segment, []
    ops: list[str] = []
    depth, begin = 0, start
    for i in range(start, len(segment)):
        ch = segment[i]
        if ch == "[":
            if depth == 0:
                begin = i
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                ops.append(segment[begin:i + 1])
        elif depth == 0:
            if segment.startswith("()", i):
                ops.append("()")
            elif ch != ")":
                return segment, []  # `a[0]b`: no postfix chain
    return segment[:start], ops


SPLIT_MEMO = 4096
"""Texts :func:`split_dotted` keeps the segments of (a full table starts over): the resolver splits a
call site's receiver where it evaluates it, where it looks for a union or a type test guarding it, and
where it binds the call (Django 5.2.8: 950,000 splits of about 235,000 call sites' texts), one site after
the other, so a small table answers nearly all of them; texts longer than :data:`SPLIT_MEMO_CHARS`
are split each time. At most about 1 MiB."""
SPLIT_MEMO_CHARS = 120
_SPLIT: dict[str, list[str]] = {}


def split_dotted(text: str) -> list[str]:
    """``a.b().c`` -> ``["a", "b()", "c"]``; arguments inside parentheses are dropped (as are ``?``
    and empty segments); a subscript stays on its segment with its text (``a[k.x].b`` -> ``["a[k.x]",
    "b"]``). Past :data:`MAX_EXPRESSION_LINKS` links the scan stops: :data:`TOO_LONG`, which
    :func:`too_long` tells (each call site of a long chain scanned all of it, twice).

    The list returned is shared with later calls of the same text (:data:`SPLIT_MEMO`): callers
    slice it, never change it."""
    got = _SPLIT.get(text)
    if got is not None:
        return got
    out = _split(text)
    if len(text) <= SPLIT_MEMO_CHARS:
        if len(_SPLIT) >= SPLIT_MEMO:
            _SPLIT.clear()
        _SPLIT[text] = out
    return out


def _split(text: str) -> list[str]:
    """:func:`split_dotted` without the memo."""
    if "(" not in text and ")" not in text and "?" not in text and "[" not in text:  # most receivers: a plain split
        return [s for s in text.split(".") if s]
    out: list[str] = []
    depth = 0
    square = 0
    links = 0
    cur: list[str] = []
    for ch in text:
        if square and not depth and ch not in "[]()":
            cur.append(ch)
        elif ch == "[" and not depth:
            square += 1
            cur.append(ch)
            links += 1
            if links > MAX_EXPRESSION_LINKS:
                return TOO_LONG
        elif ch == "]" and not depth:
            square = max(0, square - 1)
            cur.append(ch)
        elif ch == "(":
            if depth == 0:
                cur.append("()")
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif ch == ".":
            out.append("".join(cur))
            cur = []
            links += 1
            if links > MAX_EXPRESSION_LINKS:
                return TOO_LONG
        elif ch == "?":
            continue
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [s for s in out if s]
