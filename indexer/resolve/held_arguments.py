"""Constructor arguments kept in an attribute and called through it: ``class B: def __init__(self, a):
self.a = a`` and ``def run(self): self.a.ping()``. Which class ``a`` is depends on the caller that
builds the ``B``: ``B(A())`` makes ``B.run`` call ``A.ping``. The resolver models it as it does a
function handed to a parameter it calls (:mod:`indexer.resolve.callbacks`, parameter binding at the
call site, one level deep): at a call bound to ``B``'s constructor, an argument bound to ``a`` that
is an instance of a repository class gives ``B.run`` a CALLS edge to that class's ``ping``,
``inferred``, owned by the constructing file, at the file's first such argument (one row per
caller, method and file however often the file builds a ``B``).

This module reads the constructing side's table from the class's file (:func:`held_arguments`):
per constructor, its parameters kept in an attribute the class's methods call members of. Kept only
when the attribute has no other binding in the class (one ``self.a = a`` in the constructor, no
annotation, no assignment elsewhere: any other says what it holds, or that it changes), the
parameter has no declared type (a typed one binds those calls already) and is neither variadic nor
re-bound in the constructor, and the call's receiver is the attribute itself (``self.a.ping()``, not
``self.a.b.ping()``) in a method of that class or a function nested in one (a nested class has its
own ``self``). The same binding gives a function the protocol calls it makes on a parameter
(:func:`protocol_parameters`: ``def total(items): for x in items`` called ``total(Cart())`` calls
``Cart.__iter__``). Held attributes: languages whose constructor is a named method (``constructor_name``: Python
``__init__``, ECMAScript ``constructor``) and whose methods write attributes through a receiver
(``instance_prefix``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.resolve.multimap import entries

if TYPE_CHECKING:
    from indexer.model import CallSite
    from indexer.resolve.context import FileCtx

__all__ = ["HeldCall", "held_arguments", "protocol_parameters"]

HeldCall = tuple[str, int, "CallSite"]
"""A call through a held attribute: the caller's qualname, its rank among the definitions of that
qualname (:func:`~indexer.resolve.multimap.entries`), and the call site (``self.a.ping()``)."""


def held_arguments(fc: FileCtx) -> dict[str, dict[str, tuple[HeldCall, ...]]]:
    """Per constructor qualname of ``fc`` (``B.__init__``), per parameter kept in an attribute that the
    class's methods call members of (see the module docstring), those calls in source order; empty
    when the file's language has no named constructor or no call qualifies."""
    rules = fc.rules
    init, prefix = getattr(rules, "constructor_name", None), getattr(rules, "instance_prefix", "")
    if not init or not prefix:
        return {}
    out: dict[str, dict[str, list[HeldCall]]] = {}
    kept: dict[tuple[str, str], tuple[str, str] | None] = {}  # (class, attribute) -> (constructor, parameter)
    for cs in fc.ex.calls:
        recv = cs.receiver
        if cs.via is not None or cs.caller is None or recv is None or not recv.startswith(prefix) \
                or "." in recv[len(prefix):] or "(" in recv or "[" in recv:
            continue
        cls = _enclosing_class(fc, cs.caller)
        if cls is None:
            continue
        key = (cls, recv)
        if key not in kept:
            kept[key] = _kept_parameter(fc, cls, recv, init)
        found = kept[key]
        if found is None:
            continue
        callers = entries(fc.by_qualname, cs.caller)
        rank = callers.index(fc.def_at(cs.caller, cs.line)) if len(callers) > 1 else 0
        out.setdefault(found[0], {}).setdefault(found[1], []).append((cs.caller, rank, cs))
    return {q: {p: tuple(c) for p, c in params.items()} for q, params in out.items()}


def protocol_parameters(fc: FileCtx) -> dict[str, dict[str, tuple[HeldCall, ...]]]:
    """Per function or method qualname of ``fc``, per parameter the language's protocol calls in its
    own body (``CallSite.via == "dunder"``: ``for x in items`` -> ``items.__iter__()`` /
    ``__next__()``, ``with lock`` -> ``__enter__`` / ``__exit__``, ``a + b`` -> ``a.__add__(b)``,
    ``len(c)`` -> ``c.__len__()``), those calls in source order. The same rule as for a held
    attribute: the parameter is untyped, not variadic and never re-bound in that body; a call in a
    nested function is left out. An instance a caller hands there runs them
    (:func:`indexer.resolve.callbacks.held_calls`)."""
    out: dict[str, dict[str, list[HeldCall]]] = {}
    own: dict[str, dict[str, bool]] = {}  # function -> parameter -> kept
    for cs in fc.ex.calls:
        recv, q = cs.receiver, cs.caller
        if cs.via != "dunder" or q is None or recv is None or "." in recv or "(" in recv or "[" in recv:
            continue
        kept = own.get(q)
        if kept is None:
            defs = [rd for rd in entries(fc.by_qualname, q) if rd.is_callable]
            kept = own[q] = {p.name: not p.type and p.variadic is None and (q, p.name) not in fc.bindings
                             for p in defs[0].d.params} if len(defs) == 1 else {}
        if kept.get(recv):
            out.setdefault(q, {}).setdefault(recv, []).append((q, 0, cs))
    return {q: {p: tuple(c) for p, c in params.items()} for q, params in out.items()}


def _enclosing_class(fc: FileCtx, scope: str) -> str | None:
    """The qualname of the class whose method ``scope`` is or is nested in (``None`` when none is:
    a module-level function)."""
    s: str | None = scope
    while s is not None:
        parent = fc.parent_scope(s)
        if parent is not None and fc.is_class_scope(parent):
            return parent if not fc.is_class_scope(s) else None
        s = parent
    return None


def _kept_parameter(fc: FileCtx, cls: str, attribute: str, init: str) -> tuple[str, str] | None:
    """``(constructor qualname, parameter)`` when the attribute (``self.a``) of class ``cls`` is bound
    only by the constructor to one of its untyped, non-variadic parameters never re-bound there."""
    bound = fc.bindings.get((cls, attribute)) or ()
    if len(bound) != 1 or bound[0].how != "alias":
        return None
    b = bound[0]
    q = f"{cls}.{init}"
    ctors = [rd for rd in entries(fc.by_qualname, q) if rd.is_callable]
    if len(ctors) != 1 or not ctors[0].d.start_line <= b.line <= ctors[0].d.end_line:
        return None
    p = next((p for p in ctors[0].d.params if p.name == b.type), None)
    if p is None or p.type or p.variadic is not None or (q, p.name) in fc.bindings:
        return None
    return q, p.name
