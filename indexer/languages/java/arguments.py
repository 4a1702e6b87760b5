"""The arguments of a Java call that may hand the callee an object it runs (``new Thread(task)``,
``executor.submit(this.job)``, ``pool.execute(new Task())``): :attr:`indexer.model.CallSite.handed`,
read by the resolver's hand-off rules (:mod:`indexer.resolve.callbacks`,
``JavaModuleSystem.handoff_calls``); and the type each argument is written with, which picks among
overloads of one arity (:attr:`indexer.model.CallSite.arg_types`, :mod:`indexer.resolve.overloads`)."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

from indexer.model import NamedArgument, drop_generics

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["argument_types", "handed_arguments"]

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


_LITERALS = {"string_literal": "String", "text_block": "String", "true": "boolean", "false": "boolean",
             "character_literal": "char", "null_literal": "null"}
_INTEGERS = frozenset({"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
                       "binary_integer_literal"})
_FLOATS = frozenset({"decimal_floating_point_literal", "hex_floating_point_literal"})


def argument_types(src: SourceText, args: Node | None) -> tuple[str, ...]:
    """What each argument's type is as written, by position (:attr:`indexer.model.CallSite.arg_types`):
    a literal's (``"a"`` -> ``String``, ``1`` -> ``int``, ``1L`` -> ``long``, ``1.0`` -> ``double``,
    ``1f`` -> ``float``, ``'c'`` -> ``char``, ``true`` -> ``boolean``, ``null``), ``new X<..>(..)`` and
    ``(X) e`` -> ``X``, a name or ``this.name`` -> ``=name`` (its declared type is looked up by the
    resolver), anything else ``""``; empty when no argument's type is known."""
    if args is None or args.type != "argument_list":
        return ()
    out: list[str] = []
    for child in args.named_children:
        t = child.type
        if t in ("line_comment", "block_comment"):
            continue
        text = ""
        if t in _LITERALS:
            text = _LITERALS[t]
        elif t in _INTEGERS:
            text = "long" if src.text(child)[-1:] in ("l", "L") else "int"
        elif t in _FLOATS:
            text = "float" if src.text(child)[-1:] in ("f", "F") else "double"
        elif t in ("object_creation_expression", "cast_expression"):
            tn = child.child_by_field_name("type")
            text = drop_generics(_WS.sub("", src.text(tn))) if tn is not None else ""
        elif t in ("identifier", "field_access"):
            name = _WS.sub("", src.text(child))
            text = f"={name}" if _NAME.fullmatch(name) else ""
        out.append(text)
    return tuple(sys.intern(a) for a in out) if any(out) else ()
