"""Which two routers a :class:`~indexer.model.Mount` joins, as keys of the framework linker.

A router key is ``(file path, name)``: the name a module-level router goes by (``router``, ``bp``,
``urlpatterns``) or, for a router a function receives as a parameter (Go ``func
addUserRoutes(rg *gin.RouterGroup)``), ``<function qualname>#<parameter position>``. The mounted
router (the child) is found from what the mount names:

* ``child_module``: a module named by a string (Django ``include("shop.urls")``): its ``urlpatterns``;
* ``argument``: ``child`` is the function a router is handed to (``addUserRoutes(v1)``,
  ``routes.Register(api)``, ``s.routes(r)``), resolved like a callee from the mount's scope; the child
  is that function's parameter router, in the function's file (``argument`` -1: the router the
  function returns, ``<qualname>#return``: chi ``r.Mount("/users", users.Routes())``, Express
  ``app.use("/api", routes())``). A CommonJS module called (``const users = require("./users");
  users(app)``, ``require("./routes")(app)``) is its ``module.exports`` function;
* otherwise ``child`` is an expression naming a router (``items.router``), located through names and
  imports (the linker's ``locate``). In a pytest test, a parent or child naming no module-level object
  is the test's own (``<test>#<name>``: :mod:`indexer.frameworks.test_apps`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from indexer.frameworks.test_apps import owned_by_test, scoped_key
from indexer.model import Import, Mount
from indexer.resolve.context import FileCtx
from indexer.resolve.values import FuncV, ModuleV

__all__ = ["RouterKey", "mount_ends", "wrapped_routers"]

RouterKey = tuple[str, str]
"""``(file path, router name)``."""

_REQUIRE = re.compile(r"""^require\(\s*["'`]([^"'`]+)["'`]\s*\)$""")

Locate = Callable[[FileCtx, "str | None", str], "tuple[FileCtx, str] | None"]


def mount_ends(r, fc: FileCtx, m: Mount, scope: str | None, locate: Locate,
               scope_at: Callable[[FileCtx, int, int], str | None] | None = None) -> tuple[RouterKey, RouterKey | None]:
    """``(parent, child)`` router keys of mount ``m`` written in ``fc`` (``scope``: the qualname of
    the definition around it, ``None`` at top level); ``child`` is ``None`` when what the mount names
    is not a router of the repository (a library function, a module with no ``urlpatterns``).

    ``r`` is the repository resolver (:class:`indexer.resolve.repository.Resolver`: ``resolve_expr``
    for a callee, the module system for ``child_module``); ``locate`` finds the file and name a
    router expression means. A parent named by a handed-on router is already a key of ``fc``; any
    other parent expression is located like a child, or stays a name of ``fc``; ``scope_at``: the
    qualname of the definition around a position of a file (given: a name of the pytest test around the
    mount is that test's, never located: :mod:`indexer.frameworks.test_apps`)."""
    if m.argument is not None:
        parent: RouterKey = (fc.path, m.parent)
        required = _REQUIRE.match(m.child) if m.child else None
        if required is not None:  # `require("./routes")(app)`: the module's value
            v = r.resolve_import(fc, Import("", required.group(1), None))
        else:
            v = r.resolve_expr(fc, scope, m.child) if m.child else None
        if isinstance(v, ModuleV):  # a CommonJS module called: `module.exports = (app) => {...}`
            v = r.module_member(v.ns, v.key, "default")
        if not isinstance(v, FuncV) or v.f.file.repo != fc.repo:
            return parent, None
        return parent, (v.f.file.path, f"{v.f.qualname}#{m.argument if m.argument >= 0 else 'return'}")

    def owned(expr: str) -> bool:  # a name of the pytest test around the mount
        at = scope_at
        return at is not None and owned_by_test(fc, scope, expr, lambda n: at(fc, n, 0))

    found = None if owned(m.parent) else locate(fc, None, m.parent)
    parent = (found[0].path, found[1]) if found else scoped_key(fc.lang, fc.path, scope, m.parent) or (fc.path, m.parent)
    if m.child_module is not None:
        files = fc.rules.module_by_name(r, fc, m.child_module)
        return parent, ((files[0].path, "urlpatterns") if files else None)
    if m.child is None:
        return parent, None
    found = None if owned(m.child) else locate(fc, None, m.child)
    return parent, ((found[0].path, found[1]) if found else scoped_key(fc.lang, fc.path, scope, m.child))


def wrapped_routers(children: Mapping[RouterKey, Sequence[RouterKey]], same: Mapping[RouterKey, Sequence[RouterKey]],
                    key: RouterKey, depth: int) -> set[RouterKey]:
    """The routers whose routes a wrapper registered on router ``key`` runs for: the router objects
    ``key`` is (itself, and for a function's parameter every router handed to it as it is, ``same``:
    child -> parents, transitively: Express ``app.use(mw)`` in ``module.exports = (app) => {...}``
    runs for every route of that ``app``), and every router mounted into those (``children``: parent
    -> children), transitively, at most ``depth`` levels each way."""
    roots = {key}
    level = [key]
    for _ in range(depth):
        level = list(dict.fromkeys(p for k in level for p in same.get(k, ()) if p not in roots))
        if not level:
            break
        roots.update(level)
    out = set(roots)
    level = list(roots)
    for _ in range(depth):
        level = list(dict.fromkeys(c for k in level for c in children.get(k, ()) if c not in out))  # once
        # each: routers mounted along many paths (a diamond of mounts) are listed once per level, not per path
        if not level:
            break
        out.update(level)
    return out
