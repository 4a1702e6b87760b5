"""A name bound to one of several values at once: ``const t = c ? a : b``, ``s = cached ?? new S()``,
``x = a || b``. The extractor writes one :class:`~indexer.model.Binding` per operand naming a value, all on
the assignment's line (:mod:`indexer.languages.ecmascript.operands`); at run time the name holds one of
them, which one the analysis cannot tell, so a call through the name may run any of them (the union of
the operands' values, as a points-to analysis takes it for a conditional: Andersen's rule for ``x = a``
applied to each operand). :func:`either_values` gives that union where it exists; the call binder
(:class:`indexer.resolve.calls.CallBinder`) binds the call once per value and keeps every target, each
``inferred`` (one of several possible values). Elsewhere (a value read for a type, a member's class) the
resolver's tiers still pick one binding (:meth:`indexer.resolve.interpreter.Resolver.binding_value`).

What makes a union: the bindings of the name's head that decide at the call (in the call's own scope,
those on the last line written before it; in an enclosing scope, those on its last line; for a member of
the instance, ``self.pager`` / ``this.repo``, its class's bindings of it, written once) are two or more,
on one line, every one ``constructed`` or ``alias`` (a declared type on that line decides alone), and two
or more of them have a value. Anything else is no union (``None``): the call binds as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.resolve.dotted import calls_off, split_dotted

if TYPE_CHECKING:
    from indexer.model import Binding
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver
    from indexer.resolve.values import Value

__all__ = ["MAX_VALUES", "either_values"]

MAX_VALUES = 8
"""Values of one union read (as many as :data:`indexer.languages.ecmascript.operands.MAX_OPERANDS`)."""
_EITHER_HOWS = frozenset({"constructed", "alias"})


def _deciding(fc: FileCtx, scope: str | None, name: str, line: int) -> list[Binding] | None:
    """The bindings of ``name`` that decide its value at ``line`` of ``scope``: in the innermost scope
    (``scope`` or one enclosing it) binding it, those written on one line, the last before ``line`` in
    ``scope`` itself, the last in an enclosing one; ``None`` when no scope binds it."""
    s = scope
    while True:
        bindings = fc.bindings.get((s, name))
        if bindings:
            if s == scope:
                bindings = [b for b in bindings if b.line < line] or [b for b in bindings if b.line <= line]
                if not bindings:
                    return None
            last = max(b.line for b in bindings)
            return [b for b in bindings if b.line == last]
        if s is None:
            return None
        s = fc.parent_scope(s)


def _member_group(r: Resolver, fc: FileCtx, scope: str | None, member: str) -> tuple[list[Binding] | None, FileCtx]:
    """The bindings of ``member`` (``self.pager``) in the nearest class of the MRO of the class enclosing
    ``scope`` that binds it, with that class's file, when all are written on one line (an attribute
    assigned once, ``self.pager = pager or SystemPager()``); ``(None, fc)`` otherwise."""
    cls = r.enclosing_class(fc, scope)
    for c in r.mro(cls) if cls is not None else ():
        r.use(("name", c.file.path, member))
        bindings = c.file.bindings.get((c.qualname, member))
        if bindings:
            return (bindings if len({b.line for b in bindings}) == 1 else None), c.file
    return None, fc


def either_values(r: Resolver, fc: FileCtx, scope: str | None, text: str, line: int) -> list[Value] | None:
    """The values the expression ``text`` (a callee or receiver, ``t``, ``t.repo``, ``t().x``) may have
    at ``line`` of ``scope`` when its head name holds one of several values (see the module docstring):
    each operand's value, followed through the rest of ``text``, in operand order, unknown ones and
    repeats left out, at most :data:`MAX_VALUES`; ``None`` when the head holds no union or fewer than two
    of its values are known (the caller binds the call as usual)."""
    segments = split_dotted(text)
    if not segments:
        return None
    prefix = fc.rules.instance_prefix
    if prefix and len(segments) > 1 and segments[0] == prefix[:-1]:  # `self.pager.show()`: the member's
        name, calls = calls_off(segments[1])
        group, fc = _member_group(r, fc, scope, prefix + name)
        segments = segments[1:]
    else:
        name, calls = calls_off(segments[0])
        if not name.isidentifier():
            return None
        r.use(("name", fc.path, name))
        group = _deciding(fc, scope, name, line)
    if not group or len(group) < 2 or any(b.how not in _EITHER_HOWS for b in group):
        return None
    if len({(b.how, b.type) for b in group}) < 2:
        return None
    out: list[Value] = []
    for b in group[:MAX_VALUES]:
        v = r.binding_value(fc, [b])
        for _ in range(calls):
            v = r.call_result(v, "inferred")
        v = r.follow(v, segments[1:]) if v is not None else None
        if v is not None and v not in out:
            out.append(v)
    return out if len(out) >= 2 else None
