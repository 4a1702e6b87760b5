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

from bisect import bisect_right
from typing import TYPE_CHECKING

from indexer.model import NARROWED
from indexer.resolve.dotted import calls_off, split_dotted
from indexer.resolve.member_flow import in_method_before, method_starts, per_attribute
from indexer.resolve.values import ClassV, InstV

if TYPE_CHECKING:
    from indexer.model import Binding
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver
    from indexer.resolve.values import Def, Value

__all__ = ["MAX_ALIAS_DEPTH", "MAX_VALUES", "either_values", "methods_last"]

MAX_VALUES = 8
"""Values of one union read (as many as :data:`indexer.languages.ecmascript.operands.MAX_OPERANDS`)."""
MAX_ALIAS_DEPTH = 100
"""Aliases followed from a name to the union it holds (``v = u``, ``w = c ? v : x``, ...)."""
_EITHER_HOWS = frozenset({"constructed", "alias"})


def _deciding(fc: FileCtx, scope: str | None, name: str, line: int) -> list[Binding] | None:
    """The bindings of ``name`` that decide its value at ``line`` of ``scope``: in the innermost scope
    (``scope`` or one enclosing it) binding it, those written on one line, the last before ``line`` in
    ``scope`` itself, the last in an enclosing one; ``None`` when no scope binds it."""
    s = scope
    while True:
        bindings = [b for b in fc.bindings.get((s, name), ()) if b.how != NARROWED]
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


def _member_group(r: Resolver, fc: FileCtx, scope: str | None, member: str,
                  line: int) -> tuple[list[Binding] | None, FileCtx]:
    """The bindings of ``member`` (``self.pager``) in the nearest class of the MRO of the class enclosing
    ``scope`` that binds it, with that class's file: those written on one line (an attribute assigned
    once, ``self.pager = pager or SystemPager()``), or, when several methods assign it, each method's
    last line (its statements' order decides within it: ``self.x = A(); self.x = B()`` is ``B``; a
    branch join written on the statement's last line, ``if c: self.x = A() else: self.x = B()``, is
    both), together: which method ran last is not known (an attribute's value is any of the values its
    class's methods leave, as a flow-insensitive points-to analysis takes a field); ``(None, fc)`` when
    no class binds it. Inside a method assigning it before ``line``, the last of those assignments
    decides (:func:`indexer.resolve.member_flow.in_method_before`: ``self.x = A(); self.x = B();
    self.x.m()`` is ``B``)."""
    cls = r.enclosing_class(fc, scope)
    for c in r.mro(cls) if cls is not None else ():
        r.use(("name", c.file.path, member))
        bindings = c.file.bindings.get((c.qualname, member))
        if bindings:
            here = in_method_before(c, bindings, scope, line) if c is cls else None
            if here is not None:
                return here, c.file
            return methods_last(c, bindings), c.file  # one line: all of them
    return None, fc


def methods_last(c: Def, bindings: list[Binding]) -> list[Binding]:
    """Of ``bindings`` (of one attribute, in class ``c``'s scope), those on each method's last line
    binding it (a binding outside any method counts as one more method), in their order: what the
    attribute may hold once any method ran (:func:`_member_group`). A method binding it otherwise
    than ``constructed`` / ``alias`` keeps all its bindings (no join of its branches is written for
    those: Django's ``Lookup.set_source_expressions`` sets ``self.lhs`` in both branches of an ``if``). An attribute with a declared
    type (``self._body: Optional[bytes] = None``) keeps all: the declaration decides, as before."""
    return per_attribute(c, bindings, "methods-last", lambda: _methods_last(c, bindings)) if bindings else bindings


def _methods_last(c: Def, bindings: list[Binding]) -> list[Binding]:
    """:func:`methods_last`, built (kept per attribute: a read of each of N methods scanned N bindings)."""
    if len({b.line for b in bindings}) == 1 or any(b.how == "declared" for b in bindings):
        return bindings
    starts = method_starts(c)  # once per class: members_of builds the table per read
    last: dict[int, int] = {}  # a method's first line -> its last line binding the attribute
    joinable: dict[int, bool] = {}  # whether a join of its branches was written (constructed / alias only)
    for b in bindings:
        i = bisect_right(starts, b.line)
        owner = starts[i - 1] if i else 0
        last[owner] = max(last.get(owner, 0), b.line)
        joinable[owner] = joinable.get(owner, True) and b.how in _EITHER_HOWS
    owners = [starts[i - 1] if (i := bisect_right(starts, b.line)) else 0 for b in bindings]
    return [b for b, o in zip(bindings, owners) if not joinable[o] or b.line == last[o]]


def either_values(r: Resolver, fc: FileCtx, scope: str | None, text: str, line: int) -> list[Value] | None:
    """The values the expression ``text`` (a callee or receiver, ``t``, ``t.repo``, ``t().x``) may have
    at ``line`` of ``scope`` when its head name holds one of several values (see the module docstring):
    each operand's value, followed through the rest of ``text``, in operand order, unknown ones and
    repeats left out, at most :data:`MAX_VALUES`; ``None`` when the head holds no union or fewer than two
    of its values are known (the caller binds the call as usual).

    A name aliasing a union holds it too (``const v = u; v.run()``), and an operand aliasing a union
    adds all its values (``const w = c ? u : new C()``): Andersen's rule ``x = y`` takes every value of
    ``y``. Each (file, scope, name, line) is expanded once per call (a chain of aliases, or unions of
    unions sharing operands, ``u2 = c ? u1 : u0``, stay linear), at most :data:`MAX_ALIAS_DEPTH` deep."""
    out = _values(r, fc, scope, text, line, set(), 0)
    if out is None:
        tested = _tested(r, fc, scope, text, line)  # `isinstance(x, (A, B))` of a name holding no union
        if len(tested) < 2:
            return None
        plain = r.resolve_expr_at(fc, scope, text, line, narrowing=False)
        out = [plain] if isinstance(plain, InstV) else [InstV(t.c, "inferred") for t in tested]
    narrowed = _narrowed(r, fc, scope, text, line, out)
    if narrowed is not None:
        return narrowed or None
    return out if len(out) >= 2 else None


def _tested(r: Resolver, fc: FileCtx, scope: str | None, text: str, line: int) -> list[ClassV]:
    """The repository classes a type test guarding ``text`` (a name, ``self.x``) at ``line`` of
    ``scope`` tests (the innermost test holding there; a tuple's several), in order; empty when none
    holds or none of its classes is the repository's."""
    segments = split_dotted(text)
    prefix = fc.rules.instance_prefix
    if len(segments) == 1:
        name = calls_off(segments[0])[0]
    elif len(segments) == 2 and prefix and segments[0] == prefix[:-1] and segments[1].isidentifier():
        name = prefix + segments[1]
    else:
        return []
    held = [b for b in fc.bindings.get((scope, name), ()) if b.how == NARROWED and b.line <= line <= b.end] \
        if name else []
    if not held:
        return []
    inner = max((b.line, -b.end) for b in held)
    out: list[ClassV] = []
    found: set[int] = set()  # a set, not a scan of out: `isinstance(x, (A0, ..., A1999))` (brk53)
    for b in held:
        if (b.line, -b.end) == inner:
            t = r.resolve_type(fc, b.scope, b.type)
            if isinstance(t, ClassV) and id(t.c) not in found:
                found.add(id(t.c))
                out.append(t)
    return out


def _narrowed(r: Resolver, fc: FileCtx, scope: str | None, text: str, line: int, values: list[Value]) -> list[Value] | None:
    """``values`` where a type test guards ``text`` (its head name, or ``self.x``) at ``line`` (a
    :data:`~indexer.model.NARROWED` binding holding there, the innermost; a tuple's classes together):
    an instance of a class tested or of a subclass stays, one of a base class becomes an instance of
    each class tested below it (``inferred``), any other goes (it is no instance of those classes);
    ``None`` when no test holds or no class tested is a repository class."""
    tested = _tested(r, fc, scope, text, line)
    if not tested:
        return None
    # Each class's MRO read once, and per class the tested classes below it (whose MRO holds it): a
    # value meets only the tests its MRO or that index names, not every test (a tuple of 2,000
    # classes with a value per class was 4 M MRO walks, 133 s; brk53). Same output, same order.
    at = {id(t.c): i for i, t in enumerate(tested)}  # the classes tested are distinct (_tested)
    below: dict[int, list[int]] = {}
    for i, t in enumerate(tested):
        for c in r.mro(t.c):
            below.setdefault(id(c), []).append(i)
    out: list[Value] = []
    kept_ids: set[Value] = set()
    for v in values:
        if not isinstance(v, InstV):
            continue
        above = {at[id(c)] for c in r.mro(v.c) if id(c) in at}  # tests v's class or a base of it passes
        for i in sorted(above.union(below.get(id(v.c), ()))):
            kept: Value = v if i in above else InstV(tested[i].c, "inferred")
            if kept not in kept_ids:
                kept_ids.add(kept)
                out.append(kept)
    return out


def _values(r: Resolver, fc: FileCtx, scope: str | None, text: str, line: int,
            seen: set[tuple[str, str | None, str, int]], depth: int) -> list[Value] | None:
    """:func:`either_values` without its two-value floor (an aliased union of one known value still
    adds it); ``seen`` the heads expanded so far, ``depth`` the aliases followed to get here."""
    segments = split_dotted(text)
    if not segments:
        return None
    prefix = fc.rules.instance_prefix
    if prefix and len(segments) > 1 and segments[0] == prefix[:-1]:  # `self.pager.show()`: the member's
        name, calls = calls_off(segments[1])
        group, fc = _member_group(r, fc, scope, prefix + name, line)
        segments = segments[1:]
    else:
        name, calls = calls_off(segments[0])
        if not name.isidentifier():
            return None
        r.use(("name", fc.path, name))
        group = _deciding(fc, scope, name, line)
    if not group or any(b.how not in _EITHER_HOWS for b in group):
        return None
    key = (fc.path, group[0].scope, group[0].name, group[0].line)
    if key in seen or depth > MAX_ALIAS_DEPTH:
        return None
    seen.add(key)
    rest = "".join("()" for _ in range(calls)) + "".join("." + s for s in segments[1:])
    if len(group) == 1:  # `const v = u`: v holds u's union, if u holds one
        b = group[0]
        return _values(r, fc, b.scope, b.type + rest, b.line, seen, depth + 1) \
            if b.how == "alias" and not calls else None
    if len({(b.how, b.type) for b in group}) < 2:
        return None
    out: list[Value] = []
    for b in group[:MAX_VALUES]:
        inner = _values(r, fc, b.scope, b.type + rest, b.line, seen, depth + 1) if b.how == "alias" and not calls \
            else None
        if inner is None:
            v = r.binding_value(fc, [b])
            for _ in range(calls):
                v = r.call_result(v, "inferred")
            v = r.follow(v, segments[1:]) if v is not None else None
            inner = [v] if v is not None else []
        out.extend(v for v in inner if v not in out)
        if len(out) >= MAX_VALUES:
            return out[:MAX_VALUES]
    return out
