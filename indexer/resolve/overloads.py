"""Choosing among overloads of one name and arity by the types of a call's arguments
(:attr:`indexer.model.CallSite.arg_types`), as the language's compiler would (Java: JLS 15.12.2).

An argument's type is what its text says: a literal's type, ``new X()``'s class, the type a name
(local, parameter, field) is declared with in the caller's scopes; anything else is unknown and fits
every parameter. A parameter's type is its declared text. Two types are compared through the module
system's optional ``value_assignable`` (the language's primitives, boxes and strings) and, for the
repository's classes, through the class hierarchy (a subclass fits its ancestors' parameters). A
type neither side knows (a library class, a type variable) fits. An array (``byte[]``: its
element's simple name) is compared through the module system's optional ``array_assignable``. Phases as in Java: the overloads
applicable without boxing, else with it; among several, those whose parameters equal every argument's
type when all are known. When no overload fits, all are kept (a resolver's miss must not lose a call).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.model import NARROWED, CallSite, drop_generics
from indexer.resolve.multimap import entries
from indexer.resolve.values import ClassV, Def

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

__all__ = ["by_argument_types"]

_UNKNOWN = ""


def by_argument_types(r: Resolver, fc: FileCtx, cs: CallSite, defs: list[Def]) -> list[Def]:
    """The overloads in ``defs`` (callables of one name whose arity fits ``cs``) that ``cs``'s
    argument types select; ``defs`` itself when there is one, when no argument's type is known, when
    the language compares no types, or when none fits."""
    assignable = getattr(fc.rules, "value_assignable", None)
    if len(defs) <= 1 or not cs.arg_types or assignable is None:
        return defs
    args = [_argument(r, fc, cs, text) for text in cs.arg_types]
    if all(a is None for a in args):
        return defs
    # Memoised per candidate set and argument types: a name called many times with the same types
    # compares them with its overloads once (brk43: 250 overloads called 5,000 times).
    # (The memo holds the chosen overloads alive, so no new object takes their ids: a choice made
    # among overloads since replaced is no subset of ``defs`` and is made again.)
    ids = [id(d) for d in defs]
    key = (id(fc), " ".join(map(str, ids)), " ".join(str(id(a)) if isinstance(a, Def) else str(a) for a in args),
           "overload choice")
    chosen = r.memoised(key, lambda: _choice(r, defs, args, assignable))  # type: ignore[arg-type, return-value]
    if not isinstance(chosen, list) or not {id(d) for d in chosen} <= set(ids):
        return _choice(r, defs, args, assignable)
    return chosen


def _choice(r: Resolver, defs: list[Def], args: list[str | Def | None],
            assignable: Callable[[str, str, bool], bool | None]) -> list[Def]:
    """:func:`by_argument_types` once the arguments' types are known."""
    for loose in (False, True):
        fitting = [d for d in defs if _applicable(r, d, args, assignable, loose)]
        if fitting:
            break
    else:
        return defs
    if len(fitting) > 1 and all(a is not None for a in args):
        exact = [d for d in fitting if _exact(r, d, args)]
        fitting = exact or fitting
    return fitting


def _argument(r: Resolver, fc: FileCtx, cs: CallSite, text: str) -> str | Def | None:
    """An argument's type: a value type's simple name (``int``, ``String``, ``null``, or a library
    class's), an array's (``byte[]``), a class of the repository, or ``None`` (unknown)."""
    if text.startswith("="):
        text = _declared(r, fc, cs, text[1:])
    if not text or text == "var":
        return None
    return _type(r, fc, cs.caller, text)


def _type(r: Resolver, fc: FileCtx, scope: str | None, text: str) -> str | Def | None:
    """A type text's class of the repository, else its simple name (an array's: its element's simple
    name and its brackets, ``byte[]``, ``Owner[][]``); ``None``: a type variable, varargs."""
    text = drop_generics(text).replace("final ", "").strip()
    if not text or "..." in text:
        return None
    if text.endswith("]"):
        element = text.replace(" ", "").rstrip("[]")
        return element.rpartition(".")[2] + "[]" * text.count("[")
    simple = text.rpartition(".")[2]
    if simple in fc.rules.primitives or simple in getattr(fc.rules, "value_types", ()) or simple == "null":
        return simple
    t = r.resolve_type(fc, scope, text)
    if isinstance(t, ClassV):
        return t.c
    return None if len(simple) <= 2 and simple.isupper() else simple  # `T`, `ID`: a type variable


def _declared(r: Resolver, fc: FileCtx, cs: CallSite, name: str) -> str:
    """The type ``name`` is declared (or constructed) with in the nearest scope around ``cs`` that
    binds it before the call, the last such binding (a language choosing overloads by argument types
    declares a name before its use); ``""`` when none is."""
    r.use(("name", fc.path, name))
    s = cs.caller
    while True:
        # the compiler's type, not a test's; declared before the call (overloads share a scope's
        # qualname: a namesake parameter of a later overload is none of this one's)
        before = [b for b in fc.bindings.get((s, name), ()) if b.how != NARROWED and b.line <= cs.line]
        if before:
            b = before[-1]
            if b.how not in ("declared", "constructed"):
                return _UNKNOWN
            return f"{b.type}[]" if s is not None and _variadic(fc, s, name, cs.line) else b.type
        if s is None:
            return _UNKNOWN
        s = fc.parent_scope(s)


def _variadic(fc: FileCtx, scope: str, name: str, line: int) -> bool:
    """Whether ``name`` is a variadic parameter of the callable ``scope`` whose lines hold ``line``
    (overloads share a qualname; Java's ``Owner... owners`` is bound with its element's type: an
    array here)."""
    return any(p.name == name and p.variadic is not None
               for rd in entries(fc.by_qualname, scope) if rd.is_callable and rd.d.start_line <= line <= rd.d.end_line
               for p in rd.d.params)


def _parameter_types(r: Resolver, d: Def) -> tuple[str | Def | None, ...]:
    """``d``'s parameter types (``None``: unknown or variadic, and every one after a variadic one),
    memoised per overload: every call of the name compares its arguments with them (brk43: 250
    overloads called 5,000 times resolved 2.6 million parameter types, 26 s)."""
    key = (id(d.file), d.qualname, f"{d.d.start_line}:{d.d.start_col}", "parameter types")
    return r.memoised(key, lambda: _resolved_parameter_types(r, d)) or ()  # type: ignore[return-value]


def _resolved_parameter_types(r: Resolver, d: Def) -> tuple[str | Def | None, ...]:
    """:func:`_parameter_types` computed."""
    r.use(("name", d.file.path, d.name))
    out: list[str | Def | None] = []
    variadic = False
    for p in d.d.params:
        variadic = variadic or p.variadic is not None
        out.append(None if variadic or not p.type else _type(r, d.file, d.parent, p.type))
    return tuple(out)


def _applicable(r: Resolver, d: Def, args: list[str | Def | None], assignable: Callable[[str, str, bool], bool | None],
                loose: bool) -> bool:
    """Whether every argument of a known type may be passed to ``d``'s parameter at its position."""
    params = _parameter_types(r, d)
    for i, a in enumerate(args):
        p = params[i] if i < len(params) else None
        if a is None or p is None:
            continue
        if _is_array(a) or _is_array(p):
            fits = getattr(d.file.rules, "array_assignable", None)
            if fits is not None and not fits(a if isinstance(a, str) else "", p if isinstance(p, str) else ""):
                return False
            continue
        if isinstance(a, Def) or isinstance(p, Def):
            if isinstance(a, Def) and isinstance(p, Def):
                if not any(c is p for c in r.classes.mro(a)):
                    return False
            elif isinstance(p, Def):
                if a != "null":  # a value type or a library class is no repository class
                    return False
            elif p in getattr(d.file.rules, "value_types", ()):
                return False  # a repository class passed where a value type is declared
            continue
        if assignable(a, p, loose) is False:
            return False
    return True


def _exact(r: Resolver, d: Def, args: list[str | Def | None]) -> bool:
    """Whether ``d``'s parameters are each exactly its argument's type."""
    params = _parameter_types(r, d)
    return len(params) >= len(args) and all(a is p or a == p for a, p in zip(args, params, strict=False))


def _is_array(t: str | Def | None) -> bool:
    return isinstance(t, str) and t.endswith("[]")

