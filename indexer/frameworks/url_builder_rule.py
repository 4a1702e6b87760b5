"""The rule a function must follow to be a URL builder (:class:`~indexer.model.UrlBuilder`), shared by the Java,
Kotlin, Go and C# detectors (each language reads its own syntax: ``<lang>/frameworks/url_builders.py``), and the
``call:`` piece those languages write for a call in a URL.

A builder is a function or method every ``return`` of which (in its own body: :func:`returned_values` skips nested
functions, lambdas and classes) is a string built from its parameters (a literal, a concatenation, an interpolated
string, a format call whose format is a literal), at least one naming a parameter, at most :data:`MAX_RETURNS` of
them (:func:`builder_from`); acc65b's rule for TypeScript and Python (session 65). A call of it in a URL
(:func:`call_piece`) is folded by the linker (:mod:`indexer.frameworks.built_urls`), one level deep.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import Template, UrlBuilder, call_ref, is_call_ref

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from tree_sitter import Node

__all__ = ["MAX_CALL_ARGUMENTS", "MAX_RETURNS", "MAX_WALK", "builder_from", "call_piece", "returned_values"]

MAX_RETURNS = 4
"""The most ``return`` statements a builder has (each is one way its value is built)."""

MAX_WALK = 5_000
"""Nodes of one function's body walked for its returns; a bigger body is no builder."""

MAX_CALL_ARGUMENTS = 6
"""The most arguments of a call in a URL kept as a call (:func:`call_piece`); more: a hole."""


def returned_values(
    body: Node, return_type: str, nested: Collection[str], stop: Collection[str] = ()
) -> list[Node] | None:
    """The value nodes of the ``return_type`` statements of ``body`` outside nested definitions (``nested``: node
    types of functions, lambdas, classes), in source order; ``None`` when a return has no value, the body holds a
    node of a ``stop`` type outside nested definitions (Python's ``yield``: a generator builds no string) or has more
    than :data:`MAX_WALK` nodes. The value is the return's first named child that is no comment."""
    out: list[Node] = []
    stack = [body]
    walked = 0
    while stack:
        n = stack.pop()
        walked += 1
        if walked > MAX_WALK or n.type in stop:
            return None
        if n is not body and n.type in nested:
            continue
        if n.type == return_type:
            value = next((c for c in n.named_children if "comment" not in c.type), None)
            if value is None:
                return None
            out.append(value)
            continue
        stack.extend(reversed(n.named_children))
    return out


def builder_from(qualname: str, params: Sequence[str], returns: Sequence[Template | None]) -> UrlBuilder | None:
    """The :class:`~indexer.model.UrlBuilder` ``qualname`` is, given its parameter names in order and the template
    of each of its returns (``None``: a return that builds no string: a call, a conditional, an object), parameters
    named as ``ref`` pieces; ``None`` when it has no parameter, no return or more than :data:`MAX_RETURNS`, one
    return is ``None`` or holds a call (one level), or no return names a parameter."""
    if not params or not returns or len(returns) > MAX_RETURNS or any(t is None for t in returns):
        return None
    names = frozenset(params)
    kept = tuple(t for t in returns if t is not None)
    if any(k == "ref" and is_call_ref(x) for t in kept for k, x in t.parts):
        return None
    if not any(k == "ref" and x in names for t in kept for k, x in t.parts):
        return None
    return UrlBuilder(qualname, tuple(params), kept)


def call_piece(callee: str, args: Sequence[Template | None], text: str) -> tuple[str, str]:
    """A call in a URL: a ``ref`` to it (:func:`~indexer.string_templates.call_ref`) when ``callee`` is a plain or
    dotted name, it passes 1 to :data:`MAX_CALL_ARGUMENTS` arguments (each a template, ``None`` for one that is no
    string), at least one a template and none holding a call (one level); else a ``hole`` of ``text``."""
    parts = callee.split(".")
    if not callee or not all(p.isidentifier() for p in parts) or not 1 <= len(args) <= MAX_CALL_ARGUMENTS:
        return ("hole", text)
    if all(a is None for a in args):
        return ("hole", text)
    if any(k == "ref" and is_call_ref(x) for a in args if a is not None for k, x in a.parts):
        return ("hole", text)
    return ("ref", call_ref(callee, args))
