"""The arguments of a Java call that may hand the callee an object it runs (``new Thread(task)``,
``executor.submit(this.job)``, ``pool.execute(new Task())``): :attr:`indexer.model.CallSite.handed`,
read by the resolver's hand-off rules (:mod:`indexer.resolve.callbacks`,
``JavaModuleSystem.handoff_calls``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import NamedArgument, drop_generics

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["handed_arguments"]

_WS = re.compile(r"\s+")
_NAME = re.compile(r"(?:this\.)?[A-Za-z_$][\w$]*")


def handed_arguments(src: SourceText, args: Node | None) -> tuple[NamedArgument, ...]:
    """The arguments written as a name, ``this.field`` or ``new T(...)`` (as ``new T()``, the form
    receivers take; an anonymous class is none), keyed by position. Reads the list's children (one
    level, no walk)."""
    if args is None or args.type != "argument_list":
        return ()
    out: list[NamedArgument] = []
    position = -1
    for child in args.named_children:
        if child.type in ("line_comment", "block_comment"):
            continue
        position += 1
        if child.type in ("identifier", "field_access"):
            text = _WS.sub("", src.text(child))
            if not _NAME.fullmatch(text):
                continue
        elif child.type == "object_creation_expression" and not any(c.type == "class_body" for c in child.children):
            t = child.child_by_field_name("type")
            if t is None:
                continue
            text = f"new {drop_generics(_WS.sub('', src.text(t)))}()"
        else:
            continue
        out.append(NamedArgument(str(position), text, src.line(child), src.col(child)))
    return tuple(out)
