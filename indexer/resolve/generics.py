"""What a member gives for the receiver it is read on: type parameters of repository classes, bound
by the classes that extend them (below), and a classmethod returning ``cls(...)`` called on a
subclass (:func:`member_result`).

A generic base declares what its methods return through a type parameter (``class Repository
(Generic[ModelT]): def get(self, key) -> Optional[ModelT]``, Java ``abstract class Repo<T, ID> { T
find(ID id) }``, TypeScript ``class BaseService<T> { findOne(): Promise<T> }``, C# ``class Repo<T>
{ T Find(int id) }``), and an application's class binds it in its declaration (``class
UserRepository(Repository[User])``, ``class UserRepo extends Repo<User, Long>``). Called on an
instance of the subclass, such a method gives an instance of the bound class (``repo.get(1)`` is a
``User``), a sequence of them (``-> List[ModelT]``) or a map's values: :func:`generic_result`.

The languages say what a class declares and what its declaration binds, through two optional
hooks of their module systems (:class:`indexer.resolve.language.ModuleSystem`):

- ``type_parameters(d)``: the class's type parameter names in order (Python's ``Generic[...]`` or
  the free names of its generic bases; the angle-bracket list of the other languages);
- ``base_type_arguments(d)``: per generic base, by its last name part, the argument texts written.

The walk from the receiver's class up to the class declaring the method follows the resolved bases
(:meth:`indexer.resolve.hierarchy.ClassHierarchy.bases`), substituting at each step a parameter
passed on (``class Mid(Base[T])``) by what the step below bound it to. Each class is visited once
and the walk stops at :data:`MAX_DEPTH` levels, so a lattice of diamonds costs its classes, not its
paths. What it does not do: arguments nested in another type (``Base[list[T]]``). Generic
functions are :mod:`indexer.resolve.generic_calls`'s; classes extending a library container with
arguments (``class Registry(dict[str, Handler])``), :mod:`indexer.resolve.container_bases`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from indexer.model import base_type
from indexer.resolve.container_bases import container_attribute
from indexer.resolve.multimap import entries
from indexer.resolve.values import EXTERNAL, ClassV, FuncV, InstV, QueryV, Value

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver
    from indexer.resolve.values import Def

__all__ = ["MAX_DEPTH", "declared_instance", "generic_attribute", "generic_result", "member_result", "type_arguments", "type_parameters"]

MAX_DEPTH = 16
"""Levels of bases :func:`type_arguments` walks up from the receiver's class (real hierarchies
bind a generic base one to three levels up)."""

Bound: TypeAlias = "tuple[FileCtx, str | None, str] | Def | None"
"""A type argument: the file and scope its text is written in, and the text; or the repository
class a declared instance's type names (:attr:`~indexer.resolve.values.InstV.args`), ``None`` for
an argument that is none."""


def type_parameters(r: Resolver, c: Def) -> tuple[str, ...]:
    """The type parameters class ``c`` declares, in order, as its module system's optional
    ``type_parameters`` hook names them, less the names that are classes of the repository or the
    language's built-in types where ``c`` is declared (Python's free names in ``class
    UserList(List[User])`` are arguments, not parameters). Empty without the hook."""
    hook = getattr(c.file.rules, "type_parameters", None)
    if hook is None or not c.is_type:
        return ()
    return r.memoised((id(c.file), c.qualname, c.line, "type parameters"), lambda: _type_parameters(r, c, hook)) or ()


def _type_parameters(r: Resolver, c: Def, hook) -> tuple[str, ...]:
    r.use(("name", c.file.path, c.name))  # its declaration: part of the name's digest
    names = hook(c.d)
    if not names:
        return ()
    primitives = c.file.rules.primitives
    return tuple(n for n in names
                 if n not in primitives and not isinstance(r.resolve_type(c.file, c.parent, n), ClassV))


def declared_instance(r: Resolver, fc: FileCtx, scope: str | None, text: str, c: Def, how: str) -> InstV:
    """An instance of ``c`` (``how``) declared with the type text ``text`` in ``scope`` of ``fc``,
    with the repository classes the text's type arguments name when ``c`` declares type parameters
    (``Stack[User]``, ``Repo<User, Long>``: the module system's optional ``type_arguments`` hook)."""
    hook = getattr(fc.rules, "type_arguments", None)
    texts = hook(text) if hook is not None and ("<" in text or "[" in text) else ()
    if not texts or not type_parameters(r, c):
        return InstV(c, how)
    args = []
    for t in texts:
        v = r.resolve_type(fc, scope, t)
        args.append(v.c if isinstance(v, ClassV) else None)
    return InstV(c, how, args=tuple(args)) if any(a is not None for a in args) else InstV(c, how)


def type_arguments(r: Resolver, c: Def, owner: Def, own: dict[str, Bound] | None = None) -> dict[str, Bound] | None:
    """Per type parameter of ``owner`` (``c`` or an ancestor of class ``c``), the type argument
    ``c``'s ancestry binds it to: ``{"ModelT": (file of UserRepository, None, "User")}``, starting
    from ``own`` (what ``c``'s own parameters are bound to: a declared instance's arguments). ``None``
    when ``owner`` is not reached within :data:`MAX_DEPTH` levels; a parameter no declaration binds
    is missing. Depth first through the resolved bases in declaration order, each class once."""
    seen: set[int] = set()
    stack: list[tuple[Def, dict[str, Bound], int]] = [(c, own or {}, 0)]
    while stack:
        x, bound, depth = stack.pop()
        if x is owner:
            return bound
        if depth >= MAX_DEPTH or id(x) in seen:
            continue
        seen.add(id(x))
        written = _base_type_arguments(r, x)
        nxt = []
        for b in r.classes.bases(x):
            args = written.get(b.name, ())
            params = type_parameters(r, b) if args else ()
            nxt.append((b, {p: bound.get(a, (x.file, x.parent, a)) for p, a in zip(params, args)}, depth + 1))
        stack.extend(reversed(nxt))
    return None


def _base_type_arguments(r: Resolver, x: Def) -> dict[str, tuple[str, ...]]:
    """The type arguments class ``x``'s declaration writes for its generic bases (its module system's
    optional ``base_type_arguments`` hook), parsed once per class: a base of a thousand arguments,
    read again for each of a thousand calls, cost 5.7 of 7.4 s (brk48)."""
    hook = getattr(x.file.rules, "base_type_arguments", None)
    if hook is None or not x.is_type:
        return {}
    return r.memoised((id(x.file), x.qualname, str(x.line), "base type arguments"), lambda: hook(x.d)) or {}


def member_result(r: Resolver, receiver: Value, method: Value, result: Value, name: str = "") -> Value:
    """What calling (or reading, for a getter) ``method``, read on ``receiver`` as member ``name``
    (``""``: not known), yields when ``result`` is what its body gives: what the receiver class's
    module system says of a query object's member (its optional ``query_member(r, receiver, name,
    method, result)``, ``None`` for no opinion: Django's queryset classes return querysets of their
    own class); a Python classmethod whose inferred return is its class receiver itself (``return
    cls(...)``, ``return cls.query.get(i)``) called on a subclass (``User.get_by_id(i)``, the method
    a mixin's) builds an instance of that subclass; a member returning its class's type parameter,
    what the receiver binds it to (:func:`generic_result`: ``repo.get(1)`` of a
    ``UserRepository(Repository[User])``); ``result`` otherwise."""
    if isinstance(receiver, InstV | QueryV):
        hook = getattr(receiver.c.file.rules, "query_member", None)
        found = hook(r, receiver, name, method, result) if hook is not None else None
        if found is not None:
            return found
    if (result is None or result is EXTERNAL) and isinstance(method, FuncV):
        return generic_result(r, receiver, method.f) or result
    if not (isinstance(result, InstV) and isinstance(method, FuncV) and isinstance(receiver, ClassV | InstV)):
        return result
    d = method.f.d
    receiver_name = getattr(method.f.file.rules, "class_receiver", None)
    if not receiver_name or d.inferred_return != receiver_name or "classmethod" not in d.modifiers:
        return result
    if receiver.c is result.c or not any(a is result.c for a in r.mro(receiver.c)[1:]):
        return result
    return InstV(receiver.c, "inferred")


def generic_result(r: Resolver, receiver: Value, f: Def) -> Value:
    """What reading or calling member ``f`` on ``receiver`` gives when ``f``'s return (a field's
    type) is a type parameter of the class declaring it, bound by ``receiver``'s class or declared
    type: an instance of the bound class (``inferred``) for the parameter itself (``Optional[T]``,
    ``T | None``, ``T?`` too), a :class:`QueryV` of it for a container of it (``List[T]``; the module
    system's ``container_element``) or a map of it (``map_value``), the class for ``Type[T]``.
    ``None`` when none of that applies (the caller keeps its own answer). The definition is read
    only when its class declares type parameters the receiver may bind."""
    if not isinstance(receiver, InstV | ClassV) or f.parent is None:
        return None
    owner = next((d for d in entries(f.file.by_qualname, f.parent) if d.is_type), None)
    if owner is None or not _may_bind(r, receiver, owner):
        return None
    text = f.d.return_type if f.is_callable else f.d.field_type
    return _substituted(r, receiver, owner, text) if text else None


def generic_attribute(r: Resolver, receiver: Value, name: str) -> Value:
    """What reading attribute ``name`` on ``receiver`` gives when the class declaring it types it by
    one of its type parameters (``self.model: ModelT``; a Java field ``protected T entity``), as
    :func:`generic_result` says; else, for a member of a library container the receiver's class
    extends, the container's (:func:`~indexer.resolve.container_bases.container_attribute`: ``reg.get``
    of ``class Registry(dict[str, Handler])``); ``None`` otherwise. The first class of the receiver's
    MRO declaring the attribute decides; its declarations are read only when it declares type parameters."""
    if not isinstance(receiver, InstV):
        return None
    return _parameter_attribute(r, receiver, name) or container_attribute(r, receiver, name)


def _parameter_attribute(r: Resolver, receiver: InstV, name: str) -> Value:
    for c in r.mro(receiver.c):
        bound = c.file.bindings.get((c.qualname, c.file.rules.instance_prefix + name)) or c.file.bindings.get((c.qualname, name))
        fields = [d for d in entries(c.file.by_qualname, f"{c.qualname}.{name}") if d.kind == "field"]
        if not bound and not fields:
            continue
        if not _may_bind(r, receiver, c):
            return None
        texts = [b.type for b in bound or () if b.how == "declared" and b.type] + [d.d.field_type for d in fields]
        return _substituted(r, receiver, c, texts[0]) if texts and texts[0] else None
    return None


def _may_bind(r: Resolver, receiver: InstV | ClassV, owner: Def) -> bool:
    """Whether ``owner`` declares type parameters that ``receiver`` may bind: through a subclass, or
    through its own declared type's arguments."""
    if owner is receiver.c and not (isinstance(receiver, InstV) and receiver.args):
        return False
    return bool(type_parameters(r, owner))


_CLASS = "class"
""":func:`_substituted`'s view of ``Type[T]``: the bound class itself."""


def _substituted(r: Resolver, receiver: InstV | ClassV, owner: Def, text: str) -> Value:
    """``text``, written in class ``owner``, with ``owner``'s type parameter it names bound as
    ``receiver`` binds it (see :func:`generic_result`); ``None`` when it names none or none is bound."""
    params = type_parameters(r, owner)
    rules = owner.file.rules
    # the class itself (`Type[T]`), a container of it (TypeScript's `T[]` reduces to `T`), a map of it, itself
    of = getattr(rules, "class_of", None)
    k = of(text) if of is not None else None
    element = getattr(rules, "container_element", None)
    e = element(text) if element is not None and not k else None
    mapped = getattr(rules, "map_value", None)
    m = mapped(text) if mapped is not None and not k and not e else None
    view: str | None  # None: the parameter itself; "" a sequence; else a map's view or _CLASS
    param, view = (k, _CLASS) if k else (e, "") if e else (m[0], m[1]) if m else (base_type(text), None)
    if param not in params:
        return None
    own = dict(zip(type_parameters(r, receiver.c), receiver.args)) if isinstance(receiver, InstV) and receiver.args else None
    bound = type_arguments(r, receiver.c, owner, own)
    arg = bound.get(param) if bound else None
    if arg is None:
        return None
    if isinstance(arg, tuple) and view is None:  # the argument as written (`Optional[User]`, a container)
        v = r.typed_value(arg[0], arg[1], arg[2], "inferred")
        return v if v is not None and v is not EXTERNAL else None
    t = r.resolve_type(arg[0], arg[1], arg[2]) if isinstance(arg, tuple) else ClassV(arg)
    if not isinstance(t, ClassV):
        return None
    if view is None:  # a declared instance's argument: a repository class
        return InstV(t.c, "inferred")
    return ClassV(t.c, dynamic=True) if view == _CLASS else QueryV(t.c, view=view)
