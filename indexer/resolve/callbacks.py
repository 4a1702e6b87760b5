"""Functions handed to a function that calls them through its parameter (higher-order code).

``def run(cb): cb()`` and, elsewhere, ``run(handler)``: at run time ``run`` calls ``handler``. The
resolver models it the way call-graph builders for dynamic languages do (parameter binding at the
call site, one level deep): at each call site whose targets include a function whose body calls
one of its parameters directly (:attr:`~indexer.resolve.context.FileCtx.param_calls`), every
argument written as a name or as a call of one (:attr:`~indexer.model.CallSite.handed`: what the
call returns) that is bound to that parameter (by position or keyword) and evaluates to a function
of the repository gives a CALLS edge from the called function to the handed one, ``inferred``. A
parameter called by a function nested in the called one (a closure: ``def dec(f): def inner():
f()``) gives the edge from that nested function. A decorator is called with the decorated
definition (``@dec``: ``dec(f)``; under stacked decorators, with the wrapper the one below returns,
:meth:`~indexer.resolve.interpreter.Resolver.decorated_value`). The edge belongs to the file of the
call site that hands the function over (its position is the argument's), so it is redone whenever
that file is.

One level further: the called function calling the handed one with functions as arguments (``def
apply(f, g): f(g)``) hands those on, and the handed function's own parameter calls link them.

A function called through one of the language's ``invoking_members`` (JS ``f.call(ctx, a)``) takes
``a`` as its first parameter; ``f.apply(ctx, args)`` hands nothing known.

Objects handed to the library: a module system may name library calls that run an object they are
handed (``handoff_calls``: Java ``new Thread(task)``, ``executor.submit(job)``); such a call, bound
outside the repository, gives its caller a CALLS edge to the object's ``run()`` / ``call()`` when the
argument's class is known (:func:`handed_runs`), ``inferred``. Functions handed to the library: a
module system may name library calls that call a function handed at an argument
(``library_callbacks``: Python ``map(f, xs)``, ``sorted(xs, key=f)``); such a call, bound outside the
repository or not at all, gives its caller a CALLS edge to that function (:func:`library_callbacks`),
``inferred``.

Instances handed to a constructor that keeps them in an attribute its class's methods call
members of (``B(A())``, ``self.a = a``, ``self.a.ping()``): :func:`held_calls` links those methods to
the instance's class's members, at the argument (:mod:`indexer.resolve.held_arguments`).

Bounded on purpose: a parameter handed on to another function (``def outer(cb): run(cb)``) is not
followed beyond that one level, and a parameter re-bound in the body (``cb = wrap(cb)``) counts as
not called.
Language-neutral; a language with an explicit receiver parameter (Python ``self``, recognised by
its ``class_receiver`` rule) shifts positions for a method called through its class.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from indexer.model import CallSite, NamedArgument
from indexer.resolve.held_arguments import HeldCall, kept_parameters
from indexer.resolve.multimap import entries
from indexer.resolve.values import ClassV, Def, FuncV, InstV, Value

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

__all__ = ["handed_calls", "handed_runs", "held_calls", "held_values", "library_callbacks"]

_NOT_BOUND = ("staticmethod", "classmethod")
"""Decorators under which a method called through its class takes no explicit receiver argument."""


def handed_calls(r: Resolver, fc: FileCtx, cs: CallSite, targets: list[tuple[Def, str]]
                 ) -> list[tuple[Def, Def, NamedArgument]]:
    """``(called function, handed function, argument)`` for each function ``cs`` (a call site of
    ``fc`` bound to ``targets``) hands to a parameter its target calls; empty when none. Reads are
    recorded through ``r`` like any resolution."""
    if not cs.handed:
        return []
    out: list[tuple[Def, Def, NamedArgument]] = []
    for target, _ in targets:
        if not target.is_callable:
            continue
        tf = target.file
        r.use(("name", tf.path, target.name))
        called = tf.param_calls.get(target.qualname)
        if not called:
            continue
        shift = 0 if cs.via == "result" else _receiver_shift(r, fc, cs, target)
        if cs.receiver is not None and target.name != cs.name and cs.name in getattr(fc.rules, "invoking_members", ()):
            if cs.name != "call":  # `f.apply(ctx, args)`: the arguments are an array's elements
                continue
            shift = 1  # `f.call(ctx, a)`: `a` is the first parameter
        bound = {name: arg for arg in cs.handed if (name := _parameter(target, arg.key, shift)) is not None}
        for name, arg in bound.items():
            calls = called.get(name)
            if not calls:
                continue
            v = _handed_value(r, fc, cs, arg)
            if isinstance(v, FuncV) and v.f.is_callable and v.f is not target:
                out += [(caller, v.f, arg) for caller in _callers(r, target, calls, v.f) if caller is not v.f]
                out += _handed_on(r, fc, cs, target, v.f, calls, bound, arg)
    return out


def held_calls(r: Resolver, fc: FileCtx, cs: CallSite, targets: list[tuple[Def, str]]
               ) -> list[tuple[Def, Def, NamedArgument]]:
    """``(caller, callee, argument)`` for each call through an attribute that ``cs`` (a call site of
    ``fc`` bound to ``targets``) fills by handing a value to a method that keeps it there
    (:mod:`indexer.resolve.held_arguments`: ``B(A())`` with ``self.a = a`` and ``self.a.ping()`` in
    ``B.run``: ``(B.run, A.ping, A())``; ``b.on(handler)`` with ``self.cb = cb`` and ``self.cb()``
    in ``B.fire``: ``(B.fire, handler, handler)``; an instance called so: the language's
    ``call_method``, Python ``__call__``), and for
    each protocol call a called function makes on the parameter it is handed (``def total(items):
    for x in items``, ``total(Cart())``: ``(total, Cart.__iter__, Cart())``); a call that binds
    already where it is written (the attribute's class known there) is left to that binding. The
    argument is where ``fc`` makes the call happen: the row is ``fc``'s, so its position is in ``fc``
    (:func:`indexer.resolve.output.file_output` keeps the file's first argument per caller and
    callee: one row a pair and file, where one row per argument gave ``ModelAdmin.get_action ->
    AdminSite.get_action`` 198 rows on Django, acc59). Empty when none. Reads are recorded through
    ``r``."""
    if not cs.handed:
        return []
    out: list[tuple[Def, Def, NamedArgument]] = []
    for target, _ in targets:
        tf = target.file
        if not target.is_callable:
            continue
        r.use(("name", tf.path, target.name))
        held = tf.protocol_parameters.get(target.qualname, {})
        kept = tf.held_arguments.get(target.qualname, {})  # a parameter may be both iterated and kept
        held = {p: held.get(p, ()) + kept.get(p, ()) for p in {**held, **kept}} if held and kept else held or kept
        if not held:
            continue
        me = getattr(tf.rules, "instance_prefix", "")[:-1]  # `self.cb()`: the held value itself is called
        shift = _receiver_shift(r, fc, cs, target)  # `B.__init__(self, a)`: past the receiver
        for arg in cs.handed:
            name = _parameter(target, arg.key, shift)
            calls = held.get(name) if name is not None else None
            if not calls:
                continue
            v = _handed_value(r, fc, cs, arg)
            if isinstance(v, FuncV):
                if not v.f.is_callable or v.f is target:
                    continue
            elif not isinstance(v, InstV) or _class_attribute(r, fc, cs, arg):
                continue
            # one answer per file, storing method, parameter and value: a file building many `B(handler)`
            # (or calling a setter many times) reads the class's held calls once, not once a call each
            vkey = ("f", v.f.id) if isinstance(v, FuncV) else ("i", v.c.id, v.how, getattr(v, "concrete", None))
            key = (id(fc), tf.path, target.qualname, name, vkey, "held calls")
            found = r.memoised(key, lambda calls=calls, v=v, arg=arg, tf=tf, me=me, target=target:
                               _held_pairs(r, tf, target, calls, v, arg, cs, me))  # type: ignore[arg-type, misc]
            out += found or ()  # type: ignore[arg-type]
    return out


def _held_pairs(r: Resolver, tf: FileCtx, target: Def, calls: tuple[HeldCall, ...], v: Value, arg: NamedArgument,
                cs: CallSite, me: str) -> tuple[tuple[Def, Def, NamedArgument], ...]:
    """For :func:`held_calls`: ``(caller, callee, arg)`` for each held call of ``tf`` (``calls``, the
    table of the storing method ``target``) that the value ``v`` handed at ``arg`` of ``cs`` makes run;
    a held call that binds where it is written is left out (whether it does is asked once per call
    site). The table's read is recorded here too, so the memoised answer is replayed with it."""
    r.use(("name", tf.path, target.name))
    out: list[tuple[Def, Def, NamedArgument]] = []
    for q, rank, site in calls:
        itself = site.via is None and site.receiver == me
        if isinstance(v, FuncV) and not itself:
            continue  # `self.cb.x()` on a function: nothing of the repository
        defs = entries(tf.by_qualname, q)
        caller = defs[rank] if rank < len(defs) else None
        if caller is None:
            continue
        bound = r.memoised((id(tf), q, rank, site.line, site.col, site.name, "held binds"),
                           lambda site=site: r.calls.bind_call(tf, site))  # type: ignore[arg-type, misc]
        if bound and (isinstance(bound, list) or not itself):
            continue  # a `Callable[...]`-typed attribute called binds outside: still the argument
        if isinstance(v, FuncV):
            out.append((caller, v.f, arg))
        elif isinstance(v, InstV):
            method = getattr(tf.rules, "call_method", None) if itself else site.name
            if method:
                out += [(caller, m, arg) for m, _ in r.calls.run_targets(v, method, cs, site.arity)]
    return tuple(out)


def held_values(r: Resolver, fc: FileCtx, cs: CallSite, receiver: tuple[Def, bool] | None) -> list[tuple[Def, str]]:
    """What ``cs`` runs, a call ``x.cb(...)`` of ``fc`` that binds nothing where it is written, whose
    receiver ``x`` (a plain name, not ``self``) is an instance of the repository class ``receiver``
    (the binder's ``(class, through self)``), when ``cb`` is an attribute that class (or the first
    ancestor binding it) keeps from a parameter of its methods
    (:func:`indexer.resolve.held_arguments.kept_parameters`: ``self.cb = cb`` in ``__init__`` or a
    setter): the functions (an instance: its ``call_method``) that ``fc``'s calls storing into ``x``
    hand that parameter, ``inferred``. The stores read are those of the scope binding ``x``: the
    constructor call of ``x``'s last ``x = B(...)`` before ``cs`` and the calls of a storing method
    on ``x`` after it, up to ``cs``'s line (in another scope than ``cs``'s, all of them); between
    those flow-insensitive (a store in a branch counts). Empty when none; reads recorded through ``r``."""
    recv, prefix = cs.receiver, getattr(fc.rules, "instance_prefix", "")
    if receiver is None or receiver[1] or cs.via is not None or recv is None or not recv.isidentifier() or not prefix:
        return []
    attribute, kept = prefix + cs.name, ()
    for c in r.classes.mro(receiver[0]):
        r.use(("name", c.file.path, cs.name))  # `self.cb` is a binding of `cb` (FileCtx.names)
        if (c.qualname, attribute) in c.file.bindings:
            kept = kept_parameters(c.file, c.qualname, attribute)
            break
    if not kept:
        return []
    storing = {q: frozenset(p for m, p in kept if m == q) for q, _ in kept}
    scope = cs.caller if (cs.caller, recv) in fc.bindings else None
    built = [b.line for b in fc.bindings.get((scope, recv), ()) if b.how == "constructed"]
    if scope is not None or cs.caller is None:  # the scope of the call itself: stores up to its line
        starts, end = (max((line for line in built if line <= cs.line), default=0),), cs.line
    else:  # `x` is the module's: every store of the module
        starts, end = tuple(built) or (0,), 1 << 30
    key = (id(fc), scope, recv, cs.name, receiver[0].id, starts, "held stores")
    found = r.memoised(key, lambda: _held_stores(r, fc, scope, recv, starts, storing, c.file, cs.name))  # type: ignore[arg-type, return-value]
    if not found:
        return []
    lines, values = found  # type: ignore[misc]
    i = bisect_right(lines, end)
    return list(values[i - 1]) if i else []


def _held_stores(r: Resolver, fc: FileCtx, scope: str | None, recv: str, starts: tuple[int, ...],
                 storing: dict[str, frozenset[str]], owner: FileCtx, attribute: str
                 ) -> tuple[list[int], list[tuple[tuple[Def, str], ...]]]:
    """For :func:`held_values`: the stores of ``fc``'s ``scope`` into the instance ``recv`` from the
    first line of ``starts`` on (the constructor calls on the lines ``starts``, where ``recv = C(...)``
    is written, and calls on ``recv``), each bound to a method of ``owner`` in ``storing`` (method
    qualname -> the parameters it keeps), as ``(lines, values)``: the stores' lines in order and, at
    each, the union of what the stores so far hand (functions, an instance's ``call_method``,
    ``inferred``). One pass over the file's calls per instance and scope, so that ``n`` calls through
    ``recv`` after ``n`` stores cost a bisection each, not ``n`` bindings. The read of ``owner``'s
    ``attribute`` (``self.<attribute>`` is a binding of that name) is recorded here too."""
    r.use(("name", owner.path, attribute))
    first = min(starts)
    sites = sorted((site for site in fc.call_sites()
                    if site.caller == scope and site.handed and site.via is None and site.line >= first
                    and (site.receiver == recv or (site.receiver is None and site.line in starts))),
                   key=lambda site: (site.line, site.col))
    lines: list[int] = []
    values: list[tuple[tuple[Def, str], ...]] = []
    acc: dict[tuple[Def, str], None] = {}
    method = getattr(fc.rules, "call_method", None)
    for site in sites:
        targets = r.calls.bind_call(fc, site)
        for target, _ in targets if isinstance(targets, list) else ():
            params = storing.get(target.qualname)
            if not params or target.file is not owner:
                continue
            shift = _receiver_shift(r, fc, site, target)
            for arg in site.handed:
                if _parameter(target, arg.key, shift) not in params:
                    continue
                v = _handed_value(r, fc, site, arg)
                if isinstance(v, FuncV) and v.f.is_callable:
                    acc[(v.f, "inferred")] = None
                elif isinstance(v, InstV) and method:
                    acc.update(((m, "inferred"), None) for m, _ in r.calls.run_targets(v, method, site, -1))
        lines.append(site.line)
        values.append(tuple(acc))
    return lines, values


def _class_attribute(r: Resolver, fc: FileCtx, cs: CallSite, arg: NamedArgument) -> bool:
    """Whether ``arg`` reads on an instance an attribute its class (or an ancestor) assigns a call
    in its body (``t.num`` with ``class Thing(Model): num = models.IntegerField()``): what such a
    read gives is the class attribute only without a metaclass or descriptor replacing it (Django's,
    SQLAlchemy's, attrs' fields give the column's value), so it hands no known instance."""
    head, dot, name = arg.text.rpartition(".")
    if not dot or "(" in name or head in ("self", "cls", "this"):
        return False
    owner = r.resolve_expr_at(fc, cs.caller, head, arg.line)
    if not isinstance(owner, InstV):
        return False
    for c in r.classes.mro(owner.c):
        if any(b.how == "constructed" for b in c.file.bindings.get((c.qualname, name)) or ()):
            return True
    return False


def _parameter(target: Def, key: str, shift: int) -> str | None:
    """The name of ``target``'s parameter an argument ``key`` (a position or a keyword) binds, or
    ``None`` (out of range, variadic, or after a ``*args`` that takes it)."""
    if not key.isdigit():
        return key
    params = target.d.params
    i = int(key) - shift
    if not 0 <= i < len(params) or any(p.variadic is not None for p in params[:i + 1]):
        return None
    return params[i].name


def _handed_on(r: Resolver, fc: FileCtx, cs: CallSite, target: Def, handed: Def,
               calls: tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...],
               bound: dict[str, NamedArgument], arg: NamedArgument) -> list[tuple[Def, Def, NamedArgument]]:
    """One level further: ``target`` calls the function ``handed`` (its parameter, bound at ``cs``
    by ``arg``) with functions as arguments (``def apply(f, g): f(g)``; ``calls``: the calls of
    that parameter), which ``handed`` runs when it calls its own parameter in turn: ``(caller in
    handed, function, arg)``. An argument naming a parameter of ``target`` is what ``cs`` binds to
    it (``bound``), any other is resolved where the call is written."""
    out: list[tuple[Def, Def, NamedArgument]] = []
    own = handed.file.param_calls.get(handed.qualname)
    if not own:
        return out
    r.use(("name", handed.file.path, handed.name))
    params = {p.name for p in target.d.params if p.variadic is None}
    for q, _, passed in calls:
        for key, text in passed:
            name = _parameter(handed, key, 0)
            then = own.get(name) if name is not None else None
            if not then:
                continue
            if text in params:
                outer = bound.get(text)
                v = _handed_value(r, fc, cs, outer) if outer is not None else None
            else:
                v = r.resolve_expr(target.file, q, text)
            if isinstance(v, FuncV) and v.f.is_callable and v.f is not handed:
                out += [(caller, v.f, arg) for caller in _callers(r, handed, then, v.f) if caller is not v.f]
    return out


def _handed_value(r: Resolver, fc: FileCtx, cs: CallSite, arg: NamedArgument) -> Value:
    """The value ``arg`` of ``cs`` hands over: the decorated definition for a decorator's
    (:attr:`~indexer.model.NamedArgument.DECORATED`), else the argument's expression resolved at its line."""
    if arg.text.startswith(NamedArgument.DECORATED):
        rd = fc.def_at(cs.caller, cs.line)
        if rd is None:
            return None
        below = int(arg.text[len(NamedArgument.DECORATED):] or 0)
        decorators = rd.heads.decorators
        return r.decorated_value(rd, decorators[len(decorators) - below:] if below else [])
    return r.resolve_expr_at(fc, cs.caller, arg.text, arg.line)


def _callers(r: Resolver, target: Def, calls: tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...],
             handed: Def) -> list[Def]:
    """The callables that call a parameter of ``target`` handed ``handed``: ``target`` itself, and
    the functions nested in it (``calls``: qualname and rank among its namesakes,
    :attr:`~indexer.resolve.context.FileCtx.param_calls`), those written inside its span. Of
    namesakes written as an ``async def`` and a ``def`` (``if iscoroutinefunction(f): async def
    wrapper(): await f() else: def wrapper(): f()``), or as a ``def`` and an assignment
    (``wrapper = f`` for a coroutine function), only those of ``handed``'s kind. Reads are
    recorded through ``r``."""
    out: list[Def] = []
    tf = target.file
    end = None
    for q, rank in dict.fromkeys((q, rank) for q, rank, _ in calls):
        if q != target.qualname:
            r.use(("name", tf.path, q.rpartition(".")[2]))
        defs = entries(tf.by_qualname, q)
        rd = defs[rank] if rank < len(defs) else None
        if rd is target:
            out.append(target)
        elif rd is not None and rd.is_callable and q != target.qualname:
            end = target.d.end_line if end is None else end
            if target.line <= rd.line <= end:
                out.append(rd)
    if len(out) > 1 or (out and out[0] is not target):
        wanted = "async" in handed.d.modifiers
        kinds = {(rd.qualname, "async" in rd.d.modifiers) for rd in out}
        split = {q for q, a in kinds if (q, not a) in kinds}  # both kinds of one qualname
        split |= {rd.qualname for rd in out if rd is not target and rd.parent is not None
                  and (rd.parent, rd.name) in tf.bindings}  # `wrapper = f` on the other path
        out = [rd for rd in out if rd.qualname not in split or ("async" in rd.d.modifiers) == wanted]
    return out


def _receiver_shift(r: Resolver, fc: FileCtx, cs: CallSite, target: Def) -> int:
    """1 when ``cs`` calls method ``target`` through its class in a language whose methods take
    their receiver as the first parameter (``Cls.run(obj, handler)``), else 0."""
    if cs.receiver is None or target.kind != "method" or fc.rules.class_receiver is None:
        return 0
    if any(m in _NOT_BOUND for m in target.d.modifiers):
        return 0
    return 1 if isinstance(r.resolve_expr_at(fc, cs.caller, cs.receiver, cs.line), ClassV) else 0


def handed_runs(r: Resolver, fc: FileCtx, cs: CallSite) -> list[tuple[Def, NamedArgument]]:
    """``(method run, argument)`` for each object ``cs`` (a call of ``fc`` bound outside the
    repository) hands to a library call that runs it (the module system's ``handoff_calls``);
    empty when no rule applies or no argument's class is known."""
    rule = getattr(fc.rules, "handoff_calls", {}).get(cs.name)
    if rule is None or not cs.handed:
        return []
    out: list[tuple[Def, NamedArgument]] = []
    for arg in cs.handed:
        v = r.resolve_expr_at(fc, cs.caller, arg.text, arg.line)
        if not isinstance(v, InstV):
            continue
        for name in rule:  # the first name the class has (`submit` of a Callable runs call())
            runs = r.calls.run_targets(v, name, cs)
            if runs:
                out += [(m, arg) for m, _ in runs]
                break
    return out


def library_callbacks(r: Resolver, fc: FileCtx, cs: CallSite) -> list[tuple[Def, NamedArgument]]:
    """``(function called, argument)`` for each function of the repository ``cs`` (a call of ``fc``
    bound outside the repository or not at all) hands to a library call that calls it, at an
    argument the module system's ``library_callbacks`` names for the call's name (``map(f, xs)``:
    ``"0"``; ``sorted(xs, key=f)``: ``"key"``); empty when no rule applies or no such argument is a
    function (a class handed there, ``map(int, xs)``, builds instances: no call of a function)."""
    keys = getattr(fc.rules, "library_callbacks", {}).get(cs.name)
    if keys is None or not cs.handed:
        return []
    out: list[tuple[Def, NamedArgument]] = []
    for arg in cs.handed:
        if arg.key in keys and not arg.text.startswith(NamedArgument.DECORATED):
            v = r.resolve_expr_at(fc, cs.caller, arg.text, arg.line)
            if isinstance(v, FuncV) and v.f.is_callable:
                out.append((v.f, arg))
    return out
