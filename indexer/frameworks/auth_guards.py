"""Authentication guards that run callbacks the application registered with the library.

A route guarded by a library decorator (Flask-Login's ``@login_required``, Flask-HTTPAuth's
``@token_auth.login_required``) runs, on every request, functions of the repository that no code of
the repository calls: the ones registered with the same library by a decorator
(``@login.user_loader``, ``@token_auth.verify_token``), or by a call standing for the decorator
(``jwt.user_loader_callback_loader(f)``: a ``registers`` binding). The guard itself is library code, so its
:class:`~indexer.model.WrapperRef` binds to nothing; :func:`guard_callbacks` names the registered
callbacks instead, and the linker makes them wrap the guarded routes (``WRAPS``, ``match:
inferred``): the blast radius of ``verify_token`` then reaches the endpoints it protects.

The rules come from the file's module system (optional attribute ``guard_callbacks``, a mapping
``(library, guard) -> callback decorator names``; see :mod:`indexer.languages.python.modules`):

* ``guard`` written ``.name`` is a method of an object the application made (``token_auth =
  HTTPTokenAuth()``): the route's decorator is ``H.name`` and the callbacks are the functions
  decorated ``@O.<callback>`` where ``O`` is the same object (both names followed through the
  repository's imports to where they are defined, aliases too: ``basic_auth`` and ``token_auth`` of one
  application, or two services' ``auth``, keep their own callbacks), in a file importing ``library``;
* any other ``guard`` is a function of ``library``, imported by the route's file (``from flask_login
  import login_required``, or ``flask_login.login_required`` through ``import flask_login``): the
  callbacks are the functions decorated ``@X.<callback>`` (or handed to ``X.<callback>(f)``), any
  ``X``, in a file importing ``library`` (for a call, the file making it).

A guard made by a library factory called with names (passport's ``AuthGuard("jwt")`` of NestJS, on
a route, or the base of a guard class: ``class JwtAuthGuard extends AuthGuard("jwt")``) runs the
callables registered under ``<factory>:<name>`` (:func:`factory_callbacks`, :func:`base_callbacks`;
the Nest detector registers a ``PassportStrategy(Strategy, "jwt")`` class's ``validate`` as
``AuthGuard:jwt``). ``AuthGuard()`` with no name runs the default strategy
(``PassportModule.register({ defaultStrategy: "jwt" })``), else the repository's only one.

Of several candidates for one callback, the last (by path and line) of those in the files nearest the
route's (the longest shared folder prefix: each service of a monorepo its own loader) is kept: the
libraries keep the last function registered. The reads go through
:meth:`~indexer.resolve.language.Lookup.registered`, so a callback added, changed or removed
re-links the guarded routes' files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from indexer.resolve.context import FileCtx, shared_parts
from indexer.resolve.language import Lookup
from indexer.resolve.multimap import entries, every
from indexer.resolve.values import Def
from indexer.symbols import ANY_STRATEGY, DEFAULT_STRATEGY

__all__ = ["DEFAULT_STRATEGY", "GUARD_CALLBACK", "base_callbacks", "factory_callbacks", "factory_keys", "guard_callbacks"]

GUARD_CALLBACK = "guard_callback"
"""The WRAPS edges' ``kind``: the report says "through the guard callback ``verify_token``", not "the
decorator", since the decorator written on the route is the library's guard."""


def guard_callbacks(r: Lookup, fc: FileCtx, expr: str, failing: set[str] | None = None) -> list[str]:
    """Ids of the callbacks the guard decorator ``expr`` (a route wrapper of ``fc`` that binds to
    nothing of the repository, written as a callee: ``token_auth.login_required``, ``login_required``)
    runs, sorted; ``[]`` when no rule of ``fc``'s module system applies or nothing is registered.
    Those registered under a name of the module system's ``guard_failure_callbacks`` (Flask-HTTPAuth's
    ``error_handler``, Flask-Login's ``unauthorized_handler``: they run only when the check fails, not
    on every request) are also added to ``failing`` when given."""
    rules: Mapping[tuple[str, str], tuple[str, ...]] = getattr(fc.rules, "guard_callbacks", {})
    if not rules:
        return []
    on_failure: frozenset[str] = getattr(fc.rules, "guard_failure_callbacks", frozenset())
    callee = expr.split("(", 1)[0].strip()
    head, _, last = callee.rpartition(".")
    out: list[Def] = []
    for (library, guard), callbacks in rules.items():
        if guard.startswith("."):
            if not head or "." in head or last != guard[1:]:
                continue
            obj = _origin(r, fc, head)  # the object the guard is a method of
        elif _imported(fc, callee, library, guard):
            obj = None
        else:
            continue
        for cb in callbacks:
            found = [rd for rd, at, text in r.registrations(fc.rules.namespace, cb)
                     if _imports(at, library) and (obj is None or _registered_on(r, at, text, cb) == obj)]
            # the library keeps the last function registered: the last of the nearest files
            kept = _nearest(fc.path, found)[-1:]
            out += kept
            if failing is not None and cb in on_failure:
                failing.update(rd.id for rd in kept)
    return sorted({rd.id for rd in out})


_FACTORY = re.compile(r"^\s*([\w$.]+)\s*\((.*)\)\s*$", re.S)
_NO_NAME = re.compile(r"^\s*([\w$.]+)\s*\(\s*\)\s*$")
_NAME = re.compile(r"""'([^'\\]*)'|"([^"\\]*)"|`([^`\\$]*)`""")


def factory_keys(expr: str) -> list[str]:
    """The registration keys a guard made by a factory called with names only runs: ``F:name`` per
    name, ``F`` the callee's last part (``AuthGuard("jwt")`` -> ``["AuthGuard:jwt"]``,
    ``AuthGuard(["jwt", "anonymous"])`` -> both); ``[]`` when an argument is anything but a string or
    an array of strings.

    >>> factory_keys("AuthGuard('jwt')"), factory_keys('p.AuthGuard(["a", `b`])'), factory_keys("AuthGuard(x)")
    (['AuthGuard:jwt'], ['AuthGuard:a', 'AuthGuard:b'], [])
    """
    m = _FACTORY.match(expr)
    if m is None:
        return []
    names = [a or b or c for a, b, c in _NAME.findall(m.group(2))]
    if not names or _NAME.sub("", m.group(2)).strip(" \t\n[],"):
        return []
    return [f"{m.group(1).rpartition('.')[2]}:{n}" for n in names if n]


def factory_callbacks(r: Lookup, fc: FileCtx, expr: str, defaults: Mapping[str, str] | None = None) -> list[str]:
    """Ids of the callbacks the guard ``expr`` of ``fc`` (a factory call binding to nothing of the
    repository: passport's ``AuthGuard("jwt")``) runs: for each of its :func:`factory_keys`, the
    callable registered as ``@<key>`` (a ``registers`` binding: NestJS ``class JwtStrategy extends
    PassportStrategy(Strategy, "jwt")`` registers ``JwtStrategy.validate`` as ``AuthGuard:jwt``), the
    last of those in the files nearest ``fc`` (passport keeps the last strategy of a name); sorted.

    ``AuthGuard()`` (no name) runs the default strategy: the value of ``defaults`` (file path ->
    the name its ``PassportModule.register({ defaultStrategy })`` gives, :data:`DEFAULT_STRATEGY`) of
    the file nearest ``fc``; with no default registered, the only strategy of the repository
    (:data:`ANY_STRATEGY`), and nothing when there are several (which one runs is not known)."""
    keys = factory_keys(expr)
    if not keys and _NO_NAME.match(expr):
        factory = _NO_NAME.match(expr).group(1).rpartition(".")[2]  # type: ignore[union-attr]
        near = sorted(defaults or {}, key=lambda path: (-shared_parts(fc.path, path), path))
        if near:
            keys = [f"{factory}:{defaults[near[0]]}"]  # type: ignore[index]
        elif f"{factory}:*" == ANY_STRATEGY:
            found = {rd.id: rd for rd, _, _ in r.registrations(fc.rules.namespace, ANY_STRATEGY)}
            return sorted(found) if len(found) == 1 else []
    out: list[Def] = []
    for key in keys:
        out += _nearest(fc.path, [rd for rd, _, _ in r.registrations(fc.rules.namespace, key)])[-1:]
    return sorted({rd.id for rd in out})


def base_callbacks(r: Lookup, c: Def, defaults: Mapping[str, str] | None = None) -> list[str]:
    """:func:`factory_callbacks` of the bases of class ``c`` and of its ancestors in the repository
    that are such factory calls (``class JwtAuthGuard extends AuthGuard("jwt")``, ``AuthGuard()``
    with ``defaults``): a guard class runs what its library base runs."""
    return sorted({i for a in r.mro(c) for base in a.heads.bases if "(" in base
                   for i in factory_callbacks(r, a.file, base, defaults)})


def _registered_on(r: Lookup, fc: FileCtx, decorator: str, callback: str) -> tuple[str, str] | None:
    """The object ``decorator`` (a decorator text, or a registering call's callee, written in
    ``fc``) registers a function on as ``callback`` (``token_auth.verify_token`` -> where
    ``token_auth`` is defined), ``None`` for another decorator."""
    head, _, last = decorator.split("(", 1)[0].strip().rpartition(".")
    return _origin(r, fc, head) if last == callback and head and "." not in head else None


def _origin(r: Lookup, fc: FileCtx, name: str) -> tuple[str, str]:
    """``(path, name)`` of the module-level name ``name`` of ``fc`` stands for: followed through
    ``from m import name [as alias]`` imports of the repository (at most eight), else this file's own."""
    for _ in range(8):
        imps = entries(fc.imports, name)
        if not imps:
            break
        target = fc.rules.import_target(r, fc, imps[-1])
        if target.member is None or not target.files:
            break  # a module, or a name from outside the repository: this file's binding is the identity
        fc, name = target.files[0], target.member
    return fc.path, name


def _imported(fc: FileCtx, callee: str, library: str, name: str) -> bool:
    """Whether ``callee`` as written in ``fc`` is ``library``'s function ``name``: imported by name
    (``from flask_login import login_required``, an alias too) or through the module
    (``flask_login.login_required`` after ``import flask_login``)."""
    head, _, last = callee.rpartition(".")
    if not head:
        return any(_within(imp.module, library) and imp.name == name and imp.level == 0
                   for imp in entries(fc.imports, callee))
    return last == name and any(imp.name is None and _within(imp.module, library) and imp.level == 0
                                for imp in entries(fc.imports, head))


def _imports(fc: FileCtx, library: str) -> bool:
    """Whether ``fc`` imports anything from ``library`` (or a module below it)."""
    return any(_within(imp.module, library) and imp.level == 0 for imp in every(fc.imports))


def _within(module: str, library: str) -> bool:
    return module == library or module.startswith(library + ".")


def _nearest(path: str, defs: list[Def]) -> list[Def]:
    """The definitions of ``defs`` in the files sharing the longest folder prefix with ``path``, in
    (path, line) order."""
    if not defs:
        return []
    best = max(shared_parts(path, rd.file.path) for rd in defs)
    return sorted((rd for rd in defs if shared_parts(path, rd.file.path) == best),
                  key=lambda rd: (rd.file.path, rd.d.start_line))
