"""Generic functions and methods: what a call gives when the callee's return type is a type
parameter of the callee itself, bound by the arguments of that call.

``def first(xs: Sequence[T]) -> T``, ``def get(self, cls: type[T]) -> T``, TypeScript ``function
first<T>(xs: T[]): T``, Java ``static <T> T first(List<T> xs)`` / ``<T> T getBean(Class<T> c)``:
``first(users).save()`` calls ``User.save`` when ``users`` holds ``User`` instances, and
``container.get(UserService).run()`` calls ``UserService.run``. This is the inference a type
checker makes for a call of a generic function (PEP 484 "Generics", the TypeScript handbook's
"Generics", JLS 18 "Type Inference") reduced to what the resolver's values can carry: one type
parameter bound by one argument.

The rule, for a call of a repository function ``f`` whose return type text is ``T``, a
container of ``T`` (the module system's ``container_element``), a map of ``T`` (``map_value``) or
the class ``T`` itself (``type_token`` / ``class_of``), where ``T`` names no class visible where ``f``
is written and is no type parameter of ``f``'s class (those the receiver binds:
:mod:`indexer.resolve.generics`): the first parameter of ``f`` whose declared type is

- ``T`` itself (``x: T``), handed an instance of a repository class ``C``,
- a container of ``T`` (``Sequence[T]``, ``T[]``, ``List<T>``), handed a container of ``C``,
- the class ``T`` (``type[T]``, ``Class<T>``, ``Type<T>``), handed the class ``C``,

binds ``T`` to ``C``; the call gives an instance of ``C`` (``inferred``), a container of ``C`` or
the class ``C`` accordingly. A parameter handed something else binds nothing, nor does an argument
that is no (dotted) name (the call site's :attr:`~indexer.model.CallSite.handed`).

A function returning its own parameter as it was handed (Python ``def register(f): ...; return
f``, :attr:`~indexer.model.Definition.returned_param`) is the unannotated ``def register(f: T) -> T``:
its call gives the value of the argument bound to that parameter (a function or an instance
``inferred``, a class), whatever it is: ``register(handler)()`` calls ``handler``, ``check(user).save()``
``User.save``.

The arguments are those of the call site the extractor recorded for the call itself: the receiver
``first()`` of ``first(users).save()`` is the site of callee ``first`` in the same function nearest
before the outer call; the value of ``u = first(users)`` (a ``constructed`` binding) the site nearest
at or after the binding's line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import NamedArgument, base_type
from indexer.resolve.dotted import split_dotted
from indexer.resolve.generics import type_parameters
from indexer.resolve.multimap import entries
from indexer.resolve.values import EXTERNAL, ClassV, FuncV, InstV, QueryV, Value

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver
    from indexer.resolve.values import Def

__all__ = ["generic_binding", "generic_call", "generic_receiver"]

_CLASS = "class"
_INSTANCE = "instance"


def generic_receiver(r: Resolver, fc: FileCtx, scope: str | None, text: str, line: int, col: int) -> Value:
    """The value of the receiver text ``text`` (of a call at ``line``, ``col`` in ``scope`` of
    ``fc``) when one of its calls is of a generic function (see the module docstring), what follows
    that call read on its result (``first().profile``, ``n.findFirst().get()``); ``None`` when none
    is. The call's arguments are those of its own call site nearest before the outer call."""
    return _through_calls(r, fc, scope, text, (line, col), after=False)


def generic_binding(r: Resolver, fc: FileCtx, scope: str | None, callee: str, line: int) -> Value:
    """The value of a name assigned a call of ``callee`` (a ``constructed`` binding at ``line`` in
    ``scope`` of ``fc``: ``u = first(users)``, ``var m = n.findFirst(M.class).get()``) when one of
    the calls is of a generic function; ``None`` otherwise. The call's arguments are those of its
    call site nearest at or after ``line``."""
    return _through_calls(r, fc, scope, callee + "()", (line, 0), after=True)


MAX_CALLS = 8
"""Calls of one expression tried as the generic one, the last first (``a().b().c()``: three)."""


def _through_calls(r: Resolver, fc: FileCtx, scope: str | None, text: str, at: tuple[int, int], after: bool) -> Value:
    """:func:`generic_call` of the last call of ``text`` that is one, followed by the rest of the
    text (attributes and calls; a subscript after it is not read); ``None`` when no call is."""
    end = len(text)
    for _ in range(MAX_CALLS):
        i = text.rfind("()", 0, end)
        if i <= 0:
            return None
        end = i
        rest = text[i + 2:]
        if rest and (not rest.startswith(".") or "[" in rest):
            continue
        v = generic_call(r, fc, scope, text[:i], at, after)
        if v is not None:
            return r.follow(v, split_dotted(rest[1:])) if rest else v
    return None


def generic_call(r: Resolver, fc: FileCtx, scope: str | None, callee: str, at: tuple[int, int], after: bool) -> Value:
    """What calling the callee text ``callee`` in ``scope`` of ``fc`` gives when it is a generic
    function of the repository whose type parameter the call's arguments bind (see the module
    docstring); the call is the site of that callee nearest before ``at`` (``after``: at or after
    it). ``None`` when the callee is no such function or no argument binds its parameter."""
    target = r.resolve_expr(fc, scope, callee)
    if not isinstance(target, FuncV) or not target.f.is_callable:
        return None
    f = target.f
    if f.d.returned_param and not f.d.return_type:  # `x = register(x)` reads x: once per call, no cycle
        return r.memoised((id(fc), scope, callee, at, after, "returned argument"),
                          lambda: _returned_argument(r, fc, scope, callee, f, at, after))
    shape = _shape(f.file.rules, f.d.return_type)
    if shape is None or not any((s := _shape(f.file.rules, p.type)) and s[0] == shape[0] for p in f.d.params) \
            or not _own_parameter(r, f, shape[0]):
        return None
    args, arity = _arguments(r, fc, scope, callee, at, after)
    if not args:
        return None
    c = _bound(r, fc, scope, f, shape[0], args, arity)
    if c is None:
        return None
    view = shape[1]
    if view == _INSTANCE:
        return InstV(c, "inferred")
    return ClassV(c, dynamic=True) if view == _CLASS else QueryV(c, view=view)


def _returned_argument(r: Resolver, fc: FileCtx, scope: str | None, callee: str, f: Def, at: tuple[int, int],
                       after: bool) -> Value:
    """What a call of ``f``, a function returning its parameter ``f.d.returned_param`` as it was handed
    (``def register(f): ...; return f``), gives: the value of the argument the call site of ``callee``
    nearest ``at`` binds to it (by position or keyword), a function or an instance ``inferred``, a class
    as it is; ``None`` when no argument written as a (dotted) name or a call of one binds it, or when
    ``f`` is a method called through its class (``C.m(obj, x)``: positions shift past the receiver)."""
    name = f.d.returned_param
    receiver, dot, _ = callee.rpartition(".")
    if dot and f.kind == "method" and isinstance(r.resolve_expr(fc, scope, receiver), ClassV) \
            and not any(m in ("staticmethod", "classmethod") for m in f.d.modifiers):
        return None
    args, _ = _arguments(r, fc, scope, callee, at, after)
    index = next((i for i, p in enumerate(f.d.params) if p.name == name), None)
    if index is None or any(p.variadic is not None for p in f.d.params[:index]):
        return None
    arg = next((a for a in args if a.key in (str(index), name)), None)
    if arg is None or arg.text.startswith(NamedArgument.DECORATED):
        return None
    v = r.resolve_expr_at(fc, scope, arg.text, arg.line)
    if isinstance(v, FuncV):
        return FuncV(v.f, "inferred")
    if isinstance(v, InstV):
        return InstV(v.c, "inferred", v.concrete, v.args)
    return v if isinstance(v, ClassV) else None


def _shape(rules, text: str | None) -> tuple[str, str] | None:
    """``(name, view)`` of a type text: the class named (``_CLASS``: ``type[T]``), a container's element
    (``""``), a map's value (its view), or the type itself (``_INSTANCE``: ``T``, ``Optional[T]``)."""
    if not text:
        return None
    token = getattr(rules, "type_token", None) or getattr(rules, "class_of", None)
    k = token(text) if token is not None else None
    if k:
        return k, _CLASS
    element = getattr(rules, "container_element", None)
    e = element(text) if element is not None else None
    if e:
        return e, ""
    mapped = getattr(rules, "map_value", None)
    m = mapped(text) if mapped is not None else None
    if m:
        return m[0], m[1]
    t = base_type(text)
    return (t, _INSTANCE) if t else None


def _own_parameter(r: Resolver, f: Def, name: str) -> bool:
    """Whether ``name`` may be a type parameter of ``f`` itself: no primitive of its language, no
    class visible where ``f`` is written, no type parameter of ``f``'s class."""
    if "." in name or name in f.file.rules.primitives:
        return False
    if isinstance(r.resolve_type(f.file, f.qualname, name), ClassV):
        return False
    owner = next((d for d in entries(f.file.by_qualname, f.parent) if d.is_type), None) if f.parent else None
    return owner is None or name not in type_parameters(r, owner)


def _arguments(r: Resolver, fc: FileCtx, scope: str | None, callee: str, at: tuple[int, int],
               after: bool) -> tuple[tuple[NamedArgument, ...], int]:
    """The named arguments and the arity of the call site of ``callee`` in ``scope`` nearest before
    ``at`` (``after``: nearest at or after it); ``((), 0)`` when there is none. The file's sites are indexed
    once per version of the file (:func:`_sites`)."""
    receiver, dot, name = callee.rpartition(".")
    best = None
    for pos, handed, arity in _sites(r, fc).get((scope, receiver if dot else None, name), ()):
        if after and pos >= at and (best is None or pos < best[0]) or not after and pos < at and (best is None or pos > best[0]):
            best = (pos, handed, arity)
    return (best[1], best[2]) if best else ((), 0)


def _sites(r: Resolver, fc: FileCtx) -> dict:
    """Per ``(caller, receiver, name)``, the positions, handed arguments and arities of ``fc``'s call sites
    written as such that hand any, and of calls of a call's result under the name ``name()`` (``f()(x)``:
    ``f()``; memoised per file and checksum)."""
    def index() -> dict:
        out: dict = {}
        for cs in fc.call_sites():
            if cs.handed and cs.via in (None, "result"):  # `f()(x)`: the call of callee `f()`
                name = cs.name if cs.via is None else cs.name + "()"
                out.setdefault((cs.caller, cs.receiver, name), []).append(((cs.line, cs.col), cs.handed, cs.arity))
        return out
    found = r.memoised((id(fc), fc.checksum, "call arguments"), index)
    return found if found is not None else index()  # type: ignore[return-value]  # cut deep in a chain: made here


def _bound(r: Resolver, fc: FileCtx, scope: str | None, f: Def, name: str, args: tuple[NamedArgument, ...],
           arity: int) -> Def | None:
    """The repository class the first parameter of ``f`` typed by ``name`` binds it to, from the
    argument handed it (by position or keyword; a variadic parameter, Java's ``Class<N>... types``, when
    the call hands it exactly one: ``arity``); ``None`` when none does."""
    rules = f.file.rules
    for i, p in enumerate(f.d.params):
        if not p.type or p.variadic and (p.variadic != "*" or arity != i + 1):
            continue
        shape = _shape(rules, p.type)
        if shape is None or shape[0] != name:
            continue
        arg = next((a for a in args if a.key == str(i) or a.key == p.name), None)
        if arg is None:
            continue
        text = arg.text
        literal = getattr(fc.rules, "class_literal", None)  # optional: Java's `User.class`
        named = literal(text) if literal is not None and shape[1] == _CLASS else None
        v = r.resolve_expr(fc, scope, named or text)
        view = shape[1]
        if view == _CLASS and isinstance(v, ClassV) or view == _INSTANCE and isinstance(v, InstV):
            return v.c
        if view not in (_CLASS, _INSTANCE) and isinstance(v, QueryV) and not v.method and not v.inner and v.view == view:
            return v.c
        if v is not None and v is not EXTERNAL:
            return None  # the parameter's argument is another value: no binding from a later one
    return None
