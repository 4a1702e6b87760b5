"""Types of the language's ambient library: a declared type the repository never declares nor imports.

TypeScript programs see the declarations of their ``lib`` files (``lib.dom.d.ts``, ``lib.es2015.*.d.ts``)
and of ``@types/*`` packages (``@types/node``'s ``NodeJS`` namespace, ``Buffer``) without importing them:
``function pipe(s: NodeJS.ReadableStream) { s.destroy() }``, ``(el: HTMLElement) => el.remove()``,
``(r: Response) => r.json()`` name types no file of the repository declares. Such a value is the
library's (``EXTERNAL``): its methods are the library type's, so a call on it is not matched by name to a
repository method of the same name (koa's test stub ``Readable.destroy``, an app's ``Response.json``).

A type text counts only when it is a plain (dotted) name: no type arguments (``Promise<User>``,
``Partial<User>``, ``ReadonlyArray<User>`` carry a repository type the resolver reads elsewhere), no
union, array or type operator; its head is bound by nothing in scope (no import, no local class, no
binding, no type parameter of a definition around it); and no type, class or function of the
repository bears its head or its last name (a type declared in a global ``.d.ts`` of the repository, an
ambient ``declare namespace`` of its own). A module system opts in with ``ambient_types_external``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.resolve.multimap import entries

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

__all__ = ["ambient_type"]

_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


def ambient_type(r: Resolver, fc: FileCtx, scope: str | None, text: str | None) -> bool:
    """Whether the declared type text ``text`` (in ``scope`` of ``fc``, which the resolver could not
    resolve) names a type of the ambient library (see the module docstring); the reads are recorded."""
    if not text or not getattr(fc.rules, "ambient_types_external", False):
        return False
    t = text.strip()
    if not _DOTTED.fullmatch(t):
        return False
    head, _, _ = t.partition(".")
    last = t.rpartition(".")[2]
    if head in fc.imports or r.resolve_expr(fc, scope, head) is not None or _type_parameter(fc, scope, head):
        return False
    ns = fc.rules.namespace
    return not any(r.types_named(ns, n) or r.callable_named(fc, n) for n in {head, last})


def _type_parameter(fc: FileCtx, scope: str | None, name: str) -> bool:
    """Whether a definition around ``scope`` (itself or one enclosing it) declares the type parameter
    ``name`` (``class Box<T> { item: T }``: the module system's optional ``type_parameters`` hook over
    each definition's header)."""
    hook = getattr(fc.rules, "type_parameters", None)
    s = scope
    while hook is not None and s is not None:
        if any(name in hook(d.d) for d in entries(fc.by_qualname, s)):
            return True
        s = fc.parent_scope(s)
    return False
