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

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.model import NARROWED, CallSite, drop_generics
from indexer.resolve.multimap import entries, every
from indexer.resolve.values import ClassV, Def, InstV

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

__all__ = ["by_argument_types", "none_applicable"]

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


def none_applicable(r: Resolver, fc: FileCtx, cs: CallSite, defs: list[Def]) -> bool:
    """Whether no overload of ``defs`` (callables of one name) can take ``cs``'s arguments: each
    certainly does not, by arity (a variadic one takes any count from its fixed parameters on) or by
    an argument of a known type its parameter cannot take (a lambda where a ``String`` is declared,
    JLS 15.12.2.1-4). ``False`` when ``defs`` is empty, the arity is unknown, or the language
    compares no types."""
    assignable = getattr(fc.rules, "value_assignable", None)
    if not defs or cs.arity < 0 or assignable is None:
        return False
    n = cs.arity
    by_count = [d for d in defs if d.shape.min_arity <= n and (d.shape.max_arity is None or n <= d.shape.max_arity)]
    if not by_count:
        return True
    if not cs.arg_types or len(cs.arg_types) != n:
        return False
    args = [_argument(r, fc, cs, text) for text in cs.arg_types]
    return all(_applicable(r, d, args, assignable, True) is False for d in by_count)


def _choice(r: Resolver, defs: list[Def], args: list[str | Def | None],
            assignable: Callable[[str, str, bool], bool | None]) -> list[Def]:
    """:func:`by_argument_types` once the arguments' types are known. The phases of JLS 15.12.2: a
    method applicable by strict (phase 1), then loose invocation (phase 2) without a variable arity
    parameter is chosen before one that needs it (phase 3: ``random(count, 0, 0, false, false, null,
    random())`` is ``random(int, int, int, boolean, boolean, char[], Random)``, not ``random(int,
    char...)``), when one without it certainly applies (every argument's type known to fit: an
    argument of unknown type may need the variadic one, ``isTrue(b, "%s", field.getName())`` with
    ``isTrue(boolean, String, long)`` beside ``isTrue(boolean, String, Object...)``); else every
    candidate is weighed as before (a variadic method handed an array applies in phase 1, which the
    argument types here do not tell apart)."""
    fixed_arity = [d for d in defs if not any(p.variadic is not None for p in d.d.params)]
    for candidates, loose in ((fixed_arity, False), (fixed_arity, True), (defs, False), (defs, True)):
        fits = [(d, _applicable(r, d, args, assignable, loose)) for d in candidates]
        fitting = [d for d, f in fits if f is not False]
        if fitting and (candidates is defs or any(f is True for _, f in fits)):
            break
    else:
        return defs
    if len(fitting) > 1 and all(a is not None for a in args):
        exact = [d for d in fitting if _exact(r, d, args)]
        if exact:
            return exact
        if all(f is True for _, f in fits if f is not False):  # each certainly applicable: the most specific
            return _most_specific(r, fitting, assignable)
    return fitting


def _argument(r: Resolver, fc: FileCtx, cs: CallSite, text: str) -> str | Def | None:
    """An argument's type: a value type's simple name (``int``, ``String``, ``null``, or a library
    class's), an array's (``byte[]``), a class of the repository, a function's (``->2``: a lambda of
    two parameters, ``::``: a method reference), or ``None`` (unknown). ``text`` is one of
    :attr:`~indexer.model.CallSite.arg_types`' forms (the Java extractor's ``arguments.py`` lists them)."""
    head = text[:1]
    if head in ("+", "%", "?"):
        operands = [_argument(r, fc, cs, o) for o in text[1:].split("^" if head == "?" else "|")]
        if head == "?" and len(operands) == 2:  # `c ? a : b` of one class of the repository, or of it and null
            a, b = operands if operands[1] != "null" else operands[::-1]
            if isinstance(b, Def) and (a is b or a == "null"):
                return b
        combine = getattr(fc.rules, "combined_type", None)
        return combine(head, [o if isinstance(o, str) or o is None else "" for o in operands]) if combine else None
    if head == "[":  # an element of an array: its element type, resolved in the caller's scope
        inner = text[1:]
        array = _declared(r, fc, cs, inner[1:]) if inner[:1] == "=" else _argument(r, fc, cs, inner)
        element = drop_generics(array).replace(" ", "")[:-2] if isinstance(array, str) and array.rstrip().endswith("]") else ""
        indexed = getattr(fc.rules, "indexed_element", None)  # optional: a collection indexed like an array
        if not element and indexed is not None and isinstance(array, str):
            element = indexed(array) or ""  # Apex `List<Contact> xs`: `xs[0]` is a Contact
        return _type(r, fc, cs.caller, element) if element else None
    if text.startswith("->") or text == "::":
        return text
    if head == "@":
        return _expression(r, fc, cs, text[1:])
    if head == "&":  # a call as the argument, with its own arguments' forms
        try:
            return _call_argument(r, fc, cs, json.loads(text[1:]))
        except ValueError:
            return None
    if head == "=":
        text = _declared(r, fc, cs, text[1:])
    if not text or text == "var":
        return None
    return _type(r, fc, cs.caller, text)


def _call_argument(r: Resolver, fc: FileCtx, cs: CallSite, call: object) -> str | Def | None:
    """The type of a call written as an argument, from its ``&`` form read as JSON (``[receiver
    text, [forms]]``, a form being a string or such a list): :func:`_expression` with the forms."""
    if not (isinstance(call, list) and len(call) == 2 and isinstance(call[0], str) and isinstance(call[1], list)):
        return None
    return _expression(r, fc, cs, call[0], call[1])


def _expression(r: Resolver, fc: FileCtx, cs: CallSite, text: str, forms: list | None = None) -> str | Def | None:
    """The type of ``this``, a call's result or a field read written as a receiver text (``a.b().c``,
    ``m()``): the enclosing class; the declared type of the field, or the return type every method of
    that name declares (overloads returning different types: unknown, unless the call's own
    arguments' ``forms`` are given and choose among the overloads of their arity as
    :func:`by_argument_types` does, JLS 15.12.2: ``max(max(a, b), c)`` with ``int`` ``a`` and ``b``
    is ``max(int, int)``'s ``int``), in the class of what precedes
    it (:meth:`~indexer.resolve.interpreter.Resolver.resolve_expr_at`: a bare ``m()`` in the enclosing
    classes); on a library value (``String``, ``Integer``), what the module system's optional
    ``member_type`` says (``name.length()`` -> ``int``, ``Integer.valueOf()`` -> ``Integer``, and
    ``toString()`` / ``hashCode()`` / ``equals()`` of any object); ``None`` otherwise."""
    if text == "this":
        return r.enclosing_class(fc, cs.caller)
    prefix, _, last = text.rpartition(".")
    called = last.endswith("()")
    name = last[:-2] if called else last
    if not name.isidentifier() and not name.replace("$", "_").isidentifier():
        return None
    member_type = getattr(fc.rules, "member_type", None)
    owners: list[Def] = []
    if not prefix:
        if not called:
            return None
        cls = r.enclosing_class(fc, cs.caller)
        while cls is not None and not owners:
            if any(m.is_callable for m in r.lookup(cls, name)[0]):
                owners = [cls]
            else:
                cls = r.enclosing_class(fc, cls.parent)
    else:
        v = r.resolve_expr_at(fc, cs.caller, prefix, cs.line, narrowing=False)
        if isinstance(v, InstV | ClassV):
            owners = [v.c]
        elif member_type is not None:  # a library value: a name declared with its type, or its class
            owner = _declared(r, fc, cs, prefix) if "." not in prefix and "(" not in prefix else ""
            static = not owner and prefix[:1].isupper() and prefix.isidentifier()  # `Integer.valueOf()`
            found = member_type(_type_name(owner or prefix) if owner or static else "", last, static)
            return found or None
    if not owners:
        return member_type("", last, False) if member_type is not None else None
    members = [m for m in r.lookup(owners[0], name)[0] if (m.is_callable and m.kind != "constructor") == called]
    if called and forms is not None and len(members) > 1:
        members = _chosen_by(r, fc, cs, members, forms)
    texts = {drop_generics(m.d.return_type if called else m.d.field_type or "").replace(" ", "") for m in members}
    if len(texts) != 1 or not members:
        return member_type("", last, False) if member_type is not None and not members else None
    m = members[0]
    return _type(r, m.file, m.parent, next(iter(texts)))


def _chosen_by(r: Resolver, fc: FileCtx, cs: CallSite, members: list[Def], forms: list) -> list[Def]:
    """The overloads of ``members`` a call with arguments of ``forms`` (:attr:`CallSite.arg_types`'
    forms, or ``&`` forms' lists for calls) selects: those of its arity, chosen by :func:`_choice` when any argument's type is known;
    ``members`` when none is of its arity (a resolver's miss keeps every return type, so unknown)."""
    n = len(forms)
    fitting = [m for m in members if m.shape.min_arity <= n and (m.shape.max_arity is None or n <= m.shape.max_arity)]
    if not fitting:
        return members
    assignable = getattr(fc.rules, "value_assignable", None)
    args = [_call_argument(r, fc, cs, f) if isinstance(f, list) else _argument(r, fc, cs, f) if f and isinstance(f, str)
            else None for f in forms]
    if len(fitting) == 1 or assignable is None or all(a is None for a in args):
        return fitting
    return _choice(r, fitting, args, assignable)


def _type_name(text: str) -> str:
    """A type text's simple name, generics dropped (``java.lang.String`` -> ``String``)."""
    return drop_generics(text).replace(" ", "").rpartition(".")[2]


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
    return None if _type_variable(simple) else simple  # `T`, `ID`: a type variable


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
                loose: bool) -> bool | None:
    """Whether every argument of a known type may be passed to ``d``'s parameter at its position:
    ``False`` when one may not, ``True`` when each one known certainly may (:func:`_fits`), ``None``
    when each may."""
    params = _parameter_types(r, d)
    certain: bool | None = True
    for i, a in enumerate(args):
        p = params[i] if i < len(params) else None
        fits = _fits(r, d.file.rules, a, p, assignable, loose)
        if fits is False:
            return False
        if fits is None:
            certain = None
    return certain


def _fits(r: Resolver, rules: object, a: str | Def | None, p: str | Def | None,
          assignable: Callable[[str, str, bool], bool | None], loose: bool) -> bool | None:
    """Whether a value of type ``a`` may be passed to a parameter of type ``p``: ``True`` certainly,
    ``False`` not, ``None`` perhaps (either unknown, a library class the tables do not know)."""
    if a is None or p is None:
        return None
    if a is p or (isinstance(a, str) and a == p):
        return True
    if _is_function(a):
        if isinstance(p, Def):
            return _functional(r, p, a) and None
        return getattr(rules, "functional_assignable", lambda a, p: None)(a, p)
    if _is_array(a) or _is_array(p):
        fits = getattr(rules, "array_assignable", None)
        if fits is not None and not fits(a if isinstance(a, str) else "", p if isinstance(p, str) else ""):
            return False
        return True if p == "Object" else None
    if isinstance(a, Def) or isinstance(p, Def):
        if isinstance(a, Def) and isinstance(p, Def):
            return any(c is p for c in r.classes.mro(a))
        if isinstance(p, Def):
            return a == "null"  # a value type or a library class is no repository class
        if p in getattr(rules, "value_types", ()):
            return False  # a repository class passed where a value type is declared
        if p == "Object":
            return True
        if not r.classes.has_external_ancestor(a) and not _type_variable(p):
            return False  # a library class is no ancestor of a class all of whose ancestors are known
        return None
    return assignable(a, p, loose)


def _most_specific(r: Resolver, fitting: list[Def], assignable: Callable[[str, str, bool], bool | None]) -> list[Def]:
    """The one of ``fitting`` (overloads each certainly applicable) whose parameters each certainly
    fit the others' (JLS 15.12.2.5: ``tag(String)`` over ``tag(Object)`` for a ``String``,
    ``tag(Cat)`` over ``tag(Pet)`` for a ``Cat``), in a list; ``fitting`` when there is none."""
    def more(d: Def, o: Def) -> bool:
        pd, po = _parameter_types(r, d), _parameter_types(r, o)
        return len(pd) == len(po) and all(_fits(r, d.file.rules, x, y, assignable, False) is True for x, y in zip(pd, po))
    most = [d for d in fitting if all(o is d or more(d, o) for o in fitting)]
    return most if len(most) == 1 else fitting


def _exact(r: Resolver, d: Def, args: list[str | Def | None]) -> bool:
    """Whether ``d``'s parameters are each exactly its argument's type."""
    params = _parameter_types(r, d)
    return len(params) >= len(args) and all(a is p or a == p for a, p in zip(args, params, strict=False))


def _type_variable(t: str) -> bool:
    """Whether a type's simple name may be a type variable's (``T``, ``ID``)."""
    return len(t) <= 2 and t.isupper()


def _is_function(t: str | Def | None) -> bool:
    """Whether ``t`` is a lambda's (``->N``) or a method reference's (``::``) type."""
    return isinstance(t, str) and (t.startswith("->") or t == "::")


def _functional(r: Resolver, p: Def, fn: str) -> bool:
    """Whether a lambda or method reference (``fn``) may be passed to a parameter of the repository
    type ``p``: ``p`` is an interface and, when it declares exactly one abstract method (Java marks
    bodiless interface methods ``abstract``), that one takes as many parameters as a lambda declares.
    An interface declaring none of its own (its method inherited) fits."""
    if p.kind != "interface":
        return False
    if fn == "::":
        return True
    table = p.members
    for name in table:
        r.use(("name", p.file.path, name))
    methods = [m for m in every(table) if m.is_callable and "abstract" in m.d.modifiers and "static" not in m.d.modifiers]
    if len(methods) != 1:
        return True
    shape = methods[0].shape
    n = int(fn[2:])
    return shape.min_arity <= n and (shape.max_arity is None or n <= shape.max_arity)


def _is_array(t: str | Def | None) -> bool:
    return isinstance(t, str) and t.endswith("[]")

