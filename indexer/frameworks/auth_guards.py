"""Authentication guards that run callbacks the application registered with the library.

A route guarded by a library decorator (Flask-Login's ``@login_required``, Flask-HTTPAuth's
``@token_auth.login_required``) runs, on every request, functions of the repository that no code of
the repository calls: the ones registered with the same library by a decorator
(``@login.user_loader``, ``@token_auth.verify_token``). The guard itself is library code, so its
:class:`~indexer.model.WrapperRef` binds to nothing; :func:`guard_callbacks` names the registered
callbacks instead, and the linker makes them wrap the guarded routes (``WRAPS``, ``match:
inferred``): the blast radius of ``verify_token`` then reaches the endpoints it protects.

The rules come from the file's module system (optional attribute ``guard_callbacks``, a mapping
``(library, guard) -> callback decorator names``; see :mod:`indexer.languages.python.modules`):

* ``guard`` written ``.name`` is a method of an object the application made (``token_auth =
  HTTPTokenAuth()``): the route's decorator is ``H.name`` and the callbacks are the functions
  decorated ``@H.<callback>`` with the same head ``H`` (``basic_auth`` and ``token_auth`` of one
  application keep their own callbacks), in a file importing ``library``;
* any other ``guard`` is a function of ``library``, imported by the route's file (``from flask_login
  import login_required``, or ``flask_login.login_required`` through ``import flask_login``): the
  callbacks are the functions decorated ``@X.<callback>``, any ``X``, in a file importing ``library``.

Of several candidates, those in the files nearest the route's (the longest shared folder prefix:
each service of a monorepo its own loader) are kept. The reads go through
:meth:`~indexer.resolve.language.Lookup.registered`, so a callback added, changed or removed
re-links the guarded routes' files.
"""

from __future__ import annotations

from collections.abc import Mapping

from indexer.resolve.context import FileCtx
from indexer.resolve.language import Lookup
from indexer.resolve.values import Def

__all__ = ["guard_callbacks"]


def guard_callbacks(r: Lookup, fc: FileCtx, expr: str) -> list[str]:
    """Ids of the callbacks the guard decorator ``expr`` (a route wrapper of ``fc`` that binds to
    nothing of the repository, written as a callee: ``token_auth.login_required``, ``login_required``)
    runs, sorted; ``[]`` when no rule of ``fc``'s module system applies or nothing is registered."""
    rules: Mapping[tuple[str, str], tuple[str, ...]] = getattr(fc.rules, "guard_callbacks", {})
    if not rules:
        return []
    callee = expr.split("(", 1)[0].strip()
    head, _, last = callee.rpartition(".")
    out: list[Def] = []
    for (library, guard), callbacks in rules.items():
        if guard.startswith("."):
            if not head or last != guard[1:]:
                continue
            wanted = {f"{head}.{cb}" for cb in callbacks}
        elif _imported(fc, callee, library, guard):
            wanted = None
        else:
            continue
        for cb in callbacks:
            found = [rd for rd in r.registered(fc.rules.namespace, cb)
                     if _imports(rd.file, library) and (wanted is None or any(
                         d.split("(", 1)[0].strip() in wanted for d in rd.d.decorators))]
            out += _nearest(fc.path, found)
    return sorted({rd.id for rd in out})


def _imported(fc: FileCtx, callee: str, library: str, name: str) -> bool:
    """Whether ``callee`` as written in ``fc`` is ``library``'s function ``name``: imported by name
    (``from flask_login import login_required``, an alias too) or through the module
    (``flask_login.login_required`` after ``import flask_login``)."""
    head, _, last = callee.rpartition(".")
    if not head:
        return any(_within(imp.module, library) and imp.name == name and imp.level == 0
                   for imp in fc.imports.get(callee, ()))
    return last == name and any(imp.name is None and _within(imp.module, library) and imp.level == 0
                                for imp in fc.imports.get(head, ()))


def _imports(fc: FileCtx, library: str) -> bool:
    """Whether ``fc`` imports anything from ``library`` (or a module below it)."""
    return any(_within(imp.module, library) and imp.level == 0 for imps in fc.imports.values() for imp in imps)


def _within(module: str, library: str) -> bool:
    return module == library or module.startswith(library + ".")


def _nearest(path: str, defs: list[Def]) -> list[Def]:
    """The definitions of ``defs`` in the files sharing the longest folder prefix with ``path``."""
    if not defs:
        return []

    def shared(other: str) -> int:
        n = 0
        for a, b in zip(path.split("/")[:-1], other.split("/")[:-1]):
            if a != b:
                break
            n += 1
        return n

    best = max(shared(rd.file.path) for rd in defs)
    return [rd for rd in defs if shared(rd.file.path) == best]
