"""FastAPI class-based views, as the framework linker (:mod:`indexer.frameworks.link`) wraps their routes.

fastapi-utils' and fastapi-restful's ``@cbv(router)`` (and the copies applications keep of it: mealie's
``@controller(router)``, ``mealie/routes/_base/controller.py``) turn a class whose methods are routes of
``router`` (``@router.get("/x") def get_all(self): ...``) into views: FastAPI builds the class for every
request (``self = Depends(cls)``), and the rewritten ``__init__`` takes every annotated, public,
non-``ClassVar`` class attribute (``typing.get_type_hints(cls)``, so the attributes of the base classes
too, a subclass's replacing its base's) as a keyword parameter whose default is the attribute's value.
So ``user: User = Depends(get_current_user)`` in a base class runs ``get_current_user`` for each route
of each view deriving from it, and ``self.user`` is what it returns (typed by the annotation, as any
class attribute). Source: fastapi-utils ``fastapi_utils/cbv.py`` (``_init_cbv``,
``_update_cbv_route_endpoint_signature``).

The rule here: a FastAPI route whose handler is a method ``C.m`` of a class ``C`` decorated by a call
handed the route's router (``@cbv(router)``, ``@controller(router)``, ``@cbv(router=router)``: the
decorator is no matter, the router handed to it is what makes the class a view of that router) is
wrapped (``WRAPS``, kind ``dependency``, scope ``route``) by

* the ``Depends(f)`` / ``Security(f)`` of each annotated class attribute of ``C``'s lineage in the
  repository, nearest class first, one per name (``BaseAdminController.user`` replaces
  ``BaseUserController.user``); ``Depends()`` with no argument depends on the annotated class; names
  starting with ``_`` and ``ClassVar[...]`` annotations are skipped, as ``_init_cbv`` skips them, and
  an attribute without annotation is none (``get_type_hints`` does not list it);
* the class's ``__init__`` of the repository (its own or inherited), which the rewritten one calls.

The attributes are the FastAPI detector's Wrappers on the declaring class (``router`` the class's
qualname; :mod:`indexer.languages.python.frameworks.fastapi`): framework facts, so editing one links
again. What the dependency is, is resolved as a route's own ``Depends`` is, in the file and scope of the
class that declares the attribute (a base class in another file: the route's file then depends on it).
The linker's router-wide pass reads those Wrappers too and finds no router the class builds: nothing.
"""

from __future__ import annotations

import ast
from typing import Any

from indexer.model import Route
from indexer.resolve.context import FileCtx
from indexer.resolve.multimap import every
from indexer.resolve.values import Def

__all__ = ["ClassViewLinks", "view_decorated"]



def view_decorated(decorators: list[str], router: str) -> bool:
    """Whether one of ``decorators`` (the texts of a class's decorators, without ``@``) is a call handed
    ``router`` (the route's router as written) as its first argument or as ``router=``."""
    for text in decorators:
        try:
            node = ast.parse(text.strip(), mode="eval").body
        except SyntaxError:
            continue
        if not isinstance(node, ast.Call):
            continue
        handed = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "router")]
        if any(ast.unparse(a) == router for a in handed):
            return True
    return False


class ClassViewLinks:
    """Mixin of the framework linker for class-based views (module docstring)."""

    r: Any

    def class_view_wraps(self, fc: FileCtx, route: Route, linked: Any) -> None:
        """WRAPS from what a class-based view's attributes depend on (and its ``__init__``) to the
        endpoints ``linked`` of ``route`` of ``fc``; nothing for any other route."""
        if route.framework != "fastapi" or route.handler is None or route.router is None:
            return
        owner = route.handler.rpartition(".")[0]
        view = fc.def_at(owner, route.line) if owner else None
        if view is None or not view.is_type or not view.heads.decorators or not view_decorated(view.heads.decorators,
                                                                                            route.router):
            return
        memo = self.__dict__.setdefault("_view_dependencies", {})  # per view: its routes share the answer
        found = memo.get(view.id)
        if found is None:
            found = memo[view.id] = self.view_dependencies(view)
        for klass, scope, expr in found:
            if klass.file is not fc:
                self.r.use(("file", klass.file.path, ""))  # the base class's attributes
            srcs = self._wrapper_callables(klass.file, scope, expr, kind="dependency")
            if not srcs:
                self.result.outcomes["unlinked_wrapper"] += 1
                continue
            self._wraps(fc, srcs, [linked], route.line, route.col, framework=route.framework, kind="dependency",
                        scope="route")
        inits = self._members(view, "__init__")
        if inits:
            self._wraps(fc, [m.id for m in inits], [linked], route.line, route.col, framework=route.framework,
                        kind="dependency", scope="route")

    def view_dependencies(self, view: Def) -> list[tuple[Def, str | None, str]]:
        """``(declaring class, scope to resolve in, dependency expression)`` of each dependency class
        attribute of the class-based view ``view``'s repository lineage, one per attribute name,
        nearest class first (module docstring): the Wrappers the FastAPI detector puts on a class for
        its annotated ``Depends`` attributes (``router`` the class's qualname, at a line of the field)."""
        seen: set[str] = set()
        out: list[tuple[Def, str | None, str]] = []
        for klass in self.r.mro(view):
            if klass.file.repo != self.r.repo or klass.file.lang != "python":
                continue
            wrappers = self._dependency_wrappers(klass.file).get(klass.qualname, ())
            for member in every(klass.members):
                if member.kind != "field" or member.name in seen:
                    continue
                seen.add(member.name)
                annotation = member.d.field_type
                if member.name.startswith("_") or not annotation or annotation.startswith(("ClassVar", "typing.ClassVar")):
                    continue
                w = next((w for w in wrappers if member.line <= w.line <= member.d.end_line), None)
                expr = (w.owner or w.owner_ref) if w is not None else None
                if expr:
                    out.append((klass, klass.parent, expr))
        return out

    def _dependency_wrappers(self, file: FileCtx) -> dict[str, list[Any]]:
        """``{class qualname: [Wrapper]}``: the FastAPI dependency Wrappers of ``file``, grouped once
        per file and resolve (a file of N views each a lineage of N classes read its N Wrappers N^2
        times: 800 views in a ring of classes, 17.6 s of 21 s)."""
        memo = self.__dict__.setdefault("_dependency_wrappers_by_file", {})
        found = memo.get((file.repo, file.path))
        if found is None:
            found = memo[(file.repo, file.path)] = {}
            for w in file.ex.wrappers:
                if w.framework == "fastapi" and w.kind == "dependency":
                    found.setdefault(w.router, []).append(w)
        return found
