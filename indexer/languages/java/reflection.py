"""Reflective uses of classes and methods named by string literals, which the JVM resolves by name
at run time: each becomes a call site the resolver binds when the named class or method is in the
repository (and binds nothing otherwise).

* ``Class.forName("a.b.C")``: a reference to class ``C`` (``via="class"``: loading it runs its
  static initialiser; bound to the class node, not to a constructor).
* ``X.class.getMethod("m", ...)`` / ``getDeclaredMethod``, also on ``Class.forName("a.b.X")``: a call
  of ``X.m`` (arity unknown), at the string literal.
* ``....getDeclaredConstructor(A.class, B.class).newInstance(a, b)`` / ``getConstructor``, and the
  older ``....newInstance()`` straight on the class: a ``new X`` with as many arguments as parameter
  types were named, at ``newInstance``.
* Method handles: ``lookup.findStatic(X.class, "m", type)`` / ``findVirtual`` / ``findSpecial``, on
  any receiver (``MethodHandles.lookup()``, a ``Lookup`` variable): a call of ``X.m`` (arity
  unknown), at the string literal, bound through values only (``via="reflect"``: a library class
  binds nothing, never a namesake); ``lookup.findConstructor(X.class, type)``: a ``new X`` of
  unknown arity, at ``findConstructor``. The handle runs where ``invoke`` / ``invokeExact`` is
  called; the edge sits at the look-up, which names the target. A ``findVirtual`` handle invoked on
  a subclass's instance runs its override: not followed (no dispatch from the look-up).

A name not written as a literal (``Class.forName(name)``) is nothing: no guess. The sites are
``via`` ``"class"`` / ``"reflect"`` (:attr:`indexer.model.CallSite.via`): they count only when they
bind, never by name (a JDBC driver loaded by name is a library's class).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["Found", "reflected_calls"]

Found = tuple["Node", str, "str | None", "Node | None", bool, "str | None"]
"""A call site before positions are read: (node at its position, callee name, receiver text,
argument list or ``None`` for unknown arity, whether it is a ``new``, ``via``)."""

_METHODS = frozenset({"getMethod", "getDeclaredMethod"})
_HANDLES = frozenset({"findStatic", "findVirtual", "findSpecial"})
_CONSTRUCTORS = frozenset({"getConstructor", "getDeclaredConstructor"})
_CLASS = frozenset({"Class", "java.lang.Class"})
_QUALIFIED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_WS = re.compile(r"\s+")


def _literal(src: SourceText, args: Node | None) -> tuple[Node, str] | None:
    """The first argument when it is a string literal naming a (dotted) Java name, with its text."""
    if args is None or not args.named_children:
        return None
    return _name_literal(src, args.named_children[0])


def _name_literal(src: SourceText, node: Node) -> tuple[Node, str] | None:
    """``node`` and its text when it is a string literal naming a (dotted) Java name."""
    if node.type != "string_literal":
        return None
    text = src.text(node)
    value = text[1:-1] if len(text) >= 2 else ""
    return (node, value) if _QUALIFIED.fullmatch(value) else None


def _for_name(src: SourceText, node: Node) -> tuple[Node, str] | None:
    """``Class.forName("a.b.C")`` (``node`` a method invocation): the literal and the name."""
    if node.type != "method_invocation":
        return None
    name, obj = node.child_by_field_name("name"), node.child_by_field_name("object")
    if name is None or obj is None or src.text(name) != "forName" or _WS.sub("", src.text(obj)) not in _CLASS:
        return None
    return _literal(src, node.child_by_field_name("arguments"))


def _named_class(src: SourceText, node: Node | None) -> str | None:
    """The class an expression names as a ``Class`` value: ``X.class`` -> ``X``,
    ``Class.forName("a.b.X")`` -> ``a.b.X``; ``None`` for anything else."""
    if node is None:
        return None
    if node.type == "class_literal":
        text = _WS.sub("", src.text(node)).removesuffix(".class")
        return text if _QUALIFIED.fullmatch(text) else None
    found = _for_name(src, node)
    return found[1] if found else None


def reflected_calls(src: SourceText, call: Node) -> list[Found]:
    """The reflective call sites method invocation ``call`` makes (see the module docstring)."""
    name_node, receiver, args = (call.child_by_field_name(f) for f in ("name", "object", "arguments"))
    if name_node is None:
        return []
    name = src.text(name_node)
    if name == "forName":
        found = _for_name(src, call)
        if found is None:
            return []
        pkg, _, simple = found[1].rpartition(".")
        return [(found[0], simple, pkg or None, None, False, "class")]
    if name in _METHODS:
        cls = _named_class(src, receiver)
        member = _literal(src, args)
        if cls is None or member is None or "." in member[1]:
            return []
        # on a class literal as before; on `Class.forName(...)`, bound through values only
        via = None if receiver is not None and receiver.type == "class_literal" else "reflect"
        return [(member[0], member[1], cls, None, False, via)]
    if name in _HANDLES or name == "findConstructor":
        named = args.named_children if args is not None else []
        cls = _named_class(src, named[0]) if named and named[0].type == "class_literal" else None
        if cls is None:
            return []
        if name == "findConstructor":
            pkg, _, simple = cls.rpartition(".")
            return [(name_node, simple, pkg or None, None, True, "reflect")]
        member = _name_literal(src, named[1]) if len(named) > 1 else None
        if member is None or "." in member[1]:
            return []
        return [(member[0], member[1], cls, None, False, "reflect")]
    if name == "newInstance" and receiver is not None:
        ctor_args: Node | None = args
        target = receiver
        if receiver.type == "method_invocation":
            inner = receiver.child_by_field_name("name")
            if inner is not None and src.text(inner) in _CONSTRUCTORS:
                target = receiver.child_by_field_name("object")
                ctor_args = receiver.child_by_field_name("arguments")
        cls = _named_class(src, target)
        if cls is None:
            return []
        pkg, _, simple = cls.rpartition(".")
        return [(name_node, simple, pkg or None, ctor_args, True, "reflect")]
    return []
