"""Which two routers a :class:`~indexer.model.Mount` joins, as keys of the framework linker.

A router key is ``(file path, name)``: the name a module-level router goes by (``router``, ``bp``,
``urlpatterns``) or, for a router a function receives as a parameter (Go ``func
addUserRoutes(rg *gin.RouterGroup)``), ``<function qualname>#<parameter position>``. The mounted
router (the child) is found from what the mount names:

* ``child_module``: a module named by a string (Django ``include("shop.urls")``): its ``urlpatterns``;
* ``argument``: ``child`` is the function a router is handed to (``addUserRoutes(v1)``,
  ``routes.Register(api)``, ``s.routes(r)``), resolved like a callee from the mount's scope; the child
  is that function's parameter router, in the function's file (``argument`` -1: the router the
  function returns, ``<qualname>#return``: chi ``r.Mount("/users", users.Routes())``);
* otherwise ``child`` is an expression naming a router (``items.router``), located through names and
  imports (the linker's ``locate``).
"""

from __future__ import annotations

from collections.abc import Callable

from indexer.model import Mount
from indexer.resolve.context import FileCtx
from indexer.resolve.values import FuncV

__all__ = ["RouterKey", "mount_ends"]

RouterKey = tuple[str, str]
"""``(file path, router name)``."""

Locate = Callable[[FileCtx, "str | None", str], "tuple[FileCtx, str] | None"]


def mount_ends(r, fc: FileCtx, m: Mount, scope: str | None, locate: Locate) -> tuple[RouterKey, RouterKey | None]:
    """``(parent, child)`` router keys of mount ``m`` written in ``fc`` (``scope``: the qualname of
    the definition around it, ``None`` at top level); ``child`` is ``None`` when what the mount names
    is not a router of the repository (a library function, a module with no ``urlpatterns``).

    ``r`` is the repository resolver (:class:`indexer.resolve.repository.Resolver`: ``resolve_expr``
    for a callee, the module system for ``child_module``); ``locate`` finds the file and name a
    router expression means. A parent named by a handed-on router is already a key of ``fc``; any
    other parent expression is located like a child, or stays a name of ``fc``."""
    if m.argument is not None:
        parent: RouterKey = (fc.path, m.parent)
        v = r.resolve_expr(fc, scope, m.child) if m.child else None
        if not isinstance(v, FuncV) or v.f.file.repo != fc.repo:
            return parent, None
        return parent, (v.f.file.path, f"{v.f.qualname}#{m.argument if m.argument >= 0 else 'return'}")
    found = locate(fc, None, m.parent)
    parent = (found[0].path, found[1]) if found else (fc.path, m.parent)
    if m.child_module is not None:
        files = fc.rules.module_by_name(r, fc, m.child_module)
        return parent, ((files[0].path, "urlpatterns") if files else None)
    if m.child is None:
        return parent, None
    found = locate(fc, None, m.child)
    return parent, ((found[0].path, found[1]) if found else None)
