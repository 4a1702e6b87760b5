"""Arguments kept in an attribute and called through it: ``class B: def __init__(self, a):
self.a = a`` and ``def run(self): self.a.ping()``, or the attribute called itself, ``self.a()``. Which
class or function ``a`` is depends on the caller that builds the ``B`` (or calls the method that
stores it, a setter ``def on(self, cb): self.cb = cb``): ``B(A())`` makes ``B.run`` call ``A.ping``,
``B(handler)`` makes a ``self.a()`` in ``B.run`` call ``handler``. The resolver models it as it does a
function handed to a parameter it calls (:mod:`indexer.resolve.callbacks`, parameter binding at the
call site, one level deep): at a call bound to the storing method, an argument bound to ``a`` that
is an instance of a repository class gives ``B.run`` a CALLS edge to that class's ``ping`` (a
function: an edge to the function, for ``self.a()``), ``inferred``, owned by the calling file, at
the file's first such argument (one row per caller, callee and file however often the file builds a
``B``).

This module reads the storing side's table from the class's file (:func:`held_arguments`): per
method of the class, its parameters kept in an attribute the class's methods call or call members
of. Kept only when every binding of the attribute in the class is such a parameter (``self.a = a``
in a method of the class; no annotation, no other assignment: any other says what it holds), each
parameter has no declared type (a typed one binds those calls already) and is neither variadic nor
re-bound in its method, and the call's receiver is the attribute itself (``self.a.ping()``, not
``self.a.b.ping()``; or ``self.a()``) in a method of that class or a function nested in one (a nested
class has its own ``self``). The same binding gives a function the protocol calls it makes on a parameter
(:func:`protocol_parameters`: ``def total(items): for x in items`` called ``total(Cart())`` calls
``Cart.__iter__``). Held attributes: languages whose constructor is a named method (``constructor_name``: Python
``__init__``, ECMAScript ``constructor``) and whose methods write attributes through a receiver
(``instance_prefix``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from indexer.resolve.multimap import entries

if TYPE_CHECKING:
    from indexer.model import CallSite
    from indexer.resolve.context import FileCtx
    from indexer.resolve.values import Def

__all__ = ["HeldCall", "function_type", "held_arguments", "kept_parameters", "protocol_parameters"]

_FUNCTION_TYPE = re.compile(r"\bCallable\b|=>")
"""A declared type that says "a function" and names none: Python's ``Callable[[int], str]`` (also
``Optional[Callable[...]]``, ``collections.abc.Callable``), TypeScript's ``(x: number) => void``."""


def function_type(text: str) -> bool:
    """Whether the declared type ``text`` is a function type naming no function (:data:`_FUNCTION_TYPE`):
    a parameter so typed is kept like an untyped one, since its type binds no call."""
    return bool(_FUNCTION_TYPE.search(text))


HeldCall = tuple[str, int, "CallSite"]
"""A call through a held attribute: the caller's qualname, its rank among the definitions of that
qualname (:func:`~indexer.resolve.multimap.entries`), and the call site (``self.a.ping()``)."""


def held_arguments(fc: FileCtx, calls: Iterable[CallSite] | None = None) -> dict[str, dict[str, tuple[HeldCall, ...]]]:
    """Per method qualname of ``fc`` (``B.__init__``, a setter ``B.on``), per parameter it keeps in an
    attribute that the class's methods call or call members of (see the module docstring), those
    calls in source order (a call of the attribute itself has the receiver ``self`` / ``this`` and
    the attribute's name); empty when the file's language has no named constructor or no call
    qualifies."""
    rules = fc.rules
    init, prefix = getattr(rules, "constructor_name", None), getattr(rules, "instance_prefix", "")
    if not init or not prefix:
        return {}
    me = prefix[:-1]  # `self` / `this`: `self.cb()` calls the attribute `self.cb` itself
    out: dict[str, dict[str, list[HeldCall]]] = {}
    kept: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}  # (class, attribute) -> ((method, parameter), ...)
    methods: dict[str, list[Def]] = {}
    for cs in fc.ex.calls if calls is None else calls:
        recv = cs.receiver
        if cs.via is not None or cs.caller is None or recv is None:
            continue
        if recv == me:
            attribute = prefix + cs.name
        elif recv.startswith(prefix) and "." not in recv[len(prefix):] and "(" not in recv and "[" not in recv:
            attribute = recv
        else:
            continue
        cls = _enclosing_class(fc, cs.caller)
        if cls is None:
            continue
        key = (cls, attribute)
        if key not in kept:
            kept[key] = kept_parameters(fc, cls, attribute, methods)
        found = kept[key]
        if not found:
            continue
        callers = entries(fc.by_qualname, cs.caller)
        rank = callers.index(fc.def_at(cs.caller, cs.line)) if len(callers) > 1 else 0
        for method, param in found:
            out.setdefault(method, {}).setdefault(param, []).append((cs.caller, rank, cs))
    return {q: {p: tuple(c) for p, c in params.items()} for q, params in out.items()}


def protocol_parameters(fc: FileCtx, calls: Iterable[CallSite] | None = None) -> dict[str, dict[str, tuple[HeldCall, ...]]]:
    """Per function or method qualname of ``fc``, per parameter the language's protocol calls in its
    own body (``CallSite.via == "dunder"``: ``for x in items`` -> ``items.__iter__()`` /
    ``__next__()``, ``with lock`` -> ``__enter__`` / ``__exit__``, ``a + b`` -> ``a.__add__(b)``,
    ``len(c)`` -> ``c.__len__()``), those calls in source order. The same rule as for a held
    attribute: the parameter is untyped, not variadic and never re-bound in that body; a call in a
    nested function is left out. An instance a caller hands there runs them
    (:func:`indexer.resolve.callbacks.held_calls`)."""
    out: dict[str, dict[str, list[HeldCall]]] = {}
    own: dict[str, dict[str, bool]] = {}  # function -> parameter -> kept
    for cs in fc.ex.calls if calls is None else calls:
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


def kept_parameters(fc: FileCtx, cls: str, attribute: str, methods: dict[str, list[Def]] | None = None
                    ) -> tuple[tuple[str, str], ...]:
    """``((method qualname, parameter), ...)`` when every binding of the attribute (``self.a``) of
    class ``cls`` is one of the parameters of the method of ``cls`` it is written in (a constructor
    ``self.a = a``, a setter ``def on(self, cb): self.cb = cb``), each untyped or typed as a function
    (:func:`function_type`: ``cb: Callable[[], None]``, whose type the extractor copies onto the
    attribute; the one parameter of the method with that type), not variadic and never re-bound in
    its method; empty otherwise. ``methods`` caches the callable members of each class."""
    bound = fc.bindings.get((cls, attribute)) or ()
    if not bound or any(b.how != "alias" and not (b.how == "declared" and function_type(b.type)) for b in bound):
        return ()
    methods = {} if methods is None else methods
    own = methods.get(cls)
    if own is None:
        own = methods[cls] = [rd for rd in fc.defs if rd.parent == cls and rd.is_callable]
    out: list[tuple[str, str]] = []
    for b in bound:
        around = [rd for rd in own if rd.d.start_line <= b.line <= rd.d.end_line]
        if len(around) != 1:
            return ()
        q, params = around[0].qualname, around[0].d.params
        if b.how == "alias":
            found = [p for p in params if p.name == b.type and (not p.type or function_type(p.type))]
        else:  # `self.cb = cb` of a `cb: Callable[...]`: the attribute holds the parameter's type
            found = [p for p in params if p.type == b.type]
        if len(found) != 1 or found[0].variadic is not None or any(  # re-bound (its own declaration aside)
                x.how != "declared" or x.type != found[0].type for x in fc.bindings.get((q, found[0].name)) or ()):
            return ()
        out.append((q, found[0].name))
    return tuple(dict.fromkeys(out))
