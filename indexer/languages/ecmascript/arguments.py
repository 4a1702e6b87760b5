"""The arguments of a JavaScript / TypeScript call written as a name or a member chain of names
(``run(handler)``, ``emitter.on("x", this.onX)``): :attr:`indexer.model.CallSite.handed`, what the
resolver follows when the callee calls its parameter (:mod:`indexer.resolve.callbacks`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.model import NamedArgument

__all__ = ["handed_arguments"]

_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


def handed_arguments(src: SourceText, args: Node | None, own_this: Callable[[], bool]) -> tuple[NamedArgument, ...]:
    """The arguments of the argument list ``args`` written as an identifier or a member chain of
    identifiers (``this.onDone`` included, unless ``own_this()`` says the call's ``this`` is not
    the enclosing class's: a plain ``function`` callback), keyed by position; ``this`` alone,
    ``undefined`` and spreads are none. Reads the list's children (one level, no walk)."""
    if args is None:
        return ()
    out: list[NamedArgument] = []
    position = -1
    for child in args.named_children:
        if child.type == "comment":
            continue
        position += 1
        if child.type not in ("identifier", "member_expression"):
            continue
        text = src.text(child)
        if text in ("undefined", "this") or not _DOTTED.fullmatch(text):
            continue
        if text.startswith("this.") and not own_this():
            continue
        out.append(NamedArgument(str(position), text, src.line(child), src.col(child)))
    return tuple(out)
