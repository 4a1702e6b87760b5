"""Routers an application builds with its own subclass of the framework's router class.

Applications wrap FastAPI's ``APIRouter`` in a class of their own to give every router built by it
the same dependencies (mealie's ``class UserAPIRouter(APIRouter)``, whose ``__init__`` adds
``dependencies=[Depends(get_current_user)]``), then build their routers with it in other files
(``router = UserAPIRouter(prefix="/groups")``). One file cannot tell such a class from any other, so
the detector (:mod:`indexer.languages.python.frameworks.fastapi`) reports a module-level name built
by a class that is not the framework's as a router when the file uses it as one (``@router.get(...)``,
``router.include_router(...)``), and the linker keeps it only when that class is a repository class
deriving, directly or through repository ancestors, from the framework's router class
(:func:`is_router`). The class's bases are matched by the last name they spell (``APIRouter``,
``fastapi.APIRouter``), as :mod:`indexer.frameworks.drf_defaults` matches DRF's view classes.

Django REST framework routers follow the same rule: NetBox builds every API router with
``router = NetBoxRouter()`` (``netbox/api/routers.py``: ``class NetBoxRouter(DefaultRouter)``) and
registers its viewsets on it; nautobot's ``OrderedDefaultRouter`` is the same shape. The detector
(:mod:`indexer.languages.python.frameworks.drf_routers`) reports such a name (keyed ``name.urls``, what
``include(router.urls)`` mounts) when the file calls ``name.register(...)``; the linker keeps it when the
class derives from a class whose last name ends with ``SimpleRouter`` / ``DefaultRouter`` (DRF's own,
drf-nested-routers' ``NestedSimpleRouter``, drf-extensions' ``ExtendedDefaultRouter``).
"""

from __future__ import annotations

from collections.abc import Iterable

from indexer.frameworks.mounts import RouterKey
from indexer.model import DRF_ROUTE, Route, Template
from indexer.resolve.context import FileCtx
from indexer.resolve.language import Lookup
from indexer.resolve.multimap import every
from indexer.resolve.values import ClassV, Def

__all__ = ["ROUTER_CLASSES", "borrowed_router", "is_router", "module_routers"]

ROUTER_CLASSES: dict[str, tuple[str | None, tuple[str, ...], bool]] = {
    "fastapi": ("fastapi", ("APIRouter", "FastAPI"), False),
    DRF_ROUTE: (None, ("SimpleRouter", "DefaultRouter"), True),
}
"""Per router framework: its top-level package (``None``: any package), the classes (last names)
building its routers, and whether a last name merely ending with one of them counts (DRF: the router
classes of drf-nested-routers and drf-extensions are named so). A DRF router is keyed ``name.urls``."""


def _framework_class(framework: str, last: str) -> bool:
    """Whether the last name ``last`` of a base or callee is one of ``framework``'s router classes."""
    _, classes, suffix = ROUTER_CLASSES[framework]
    return last.endswith(classes) if suffix else last in classes


def _qualified(fc: FileCtx, text: str) -> str:
    """``text`` with its head replaced by the absolute import binding it (unchanged otherwise)."""
    head, dot, rest = text.partition(".")
    for imp in every(fc.imports):
        if imp.local == head and not imp.level:
            return (imp.module if imp.name is None else f"{imp.module}.{imp.name}") + dot + rest
    return text


def _last(text: str) -> str:
    """The last name a base or callee text spells (``fastapi.APIRouter`` -> ``APIRouter``)."""
    return text.split("[", 1)[0].split("(", 1)[0].strip().rpartition(".")[2]


def is_router(r: Lookup, fc: FileCtx, name: str, framework: str) -> bool:
    """Whether the module-level ``name`` of ``fc``, reported a router of ``framework`` by its detector,
    is one: built by the framework's own class (``APIRouter(...)``, ``fastapi.FastAPI()``), by a
    repository class deriving from it (module docstring), or not built by a call here at all (the
    detector's rule alone). ``False`` for a name built by any other class. Frameworks not in
    :data:`ROUTER_CLASSES` always ``True``."""
    return _building_classes(r, fc, name, framework) is not None


def _building_classes(r: Lookup, fc: FileCtx, name: str, framework: str) -> list[Def] | None:
    """:func:`is_router`'s answer as ``None`` (no router) or the repository classes whose
    ``__init__`` runs when the router is built (the class called and its repository ancestors;
    empty for the framework's own class)."""
    known = ROUTER_CLASSES.get(framework)
    if known is None:
        return []
    package = known[0]
    if framework == DRF_ROUTE:
        name = name.removesuffix(".urls")
    built = [b.type for b in fc.ex.bindings if b.scope is None and b.name == name and b.how == "constructed"]
    if not built:
        return []
    for text in built:
        qualified = _qualified(fc, text)
        if package in (None, qualified.split(".", 1)[0]) and _framework_class(framework, _last(qualified)):
            return []
        v = r.resolve_expr(fc, None, text)
        if isinstance(v, ClassV):
            lineage = r.mro(v.c)
            if any(_framework_class(framework, _last(base)) for k in lineage for base in k.heads.bases):
                return lineage
    return None


def module_routers(r: Lookup, ctxs: Iterable[FileCtx], same: dict[RouterKey, list[RouterKey]]
                   ) -> tuple[dict[RouterKey, tuple[str, Template]], set[tuple[str, str, str]]]:
    """``({(path, name): (framework, own prefix)}`` of every router the files declare, ``{(path, name,
    framework)}`` of the names a framework's detector reported as routers that :func:`is_router` refuses:
    that framework's routes and mounts on them link nothing)``. A router built by a repository class is
    also, in ``same`` (:func:`indexer.frameworks.mounts.wrapped_routers`' table), each class of that class's
    lineage, keyed ``(class file, class qualname)``: the Wrappers the detector puts on the class (its
    ``super().__init__(dependencies=[...])``) run for that router's routes."""
    routers: dict[RouterKey, tuple[str, Template]] = {}
    refused: set[tuple[str, str, str]] = set()
    for fc in ctxs:
        for rt in fc.ex.routers:
            lineage = _building_classes(r, fc, rt.name, rt.framework)
            if lineage is None:
                refused.add((fc.path, rt.name, rt.framework))
                continue
            routers[(fc.path, rt.name)] = (rt.framework, rt.prefix)
            for c in lineage:
                same[(c.file.path, c.qualname)].append((fc.path, rt.name))
    return routers, refused


def borrowed_router(fc: FileCtx, route: Route) -> bool:
    """Whether ``route`` is a Flask route of a file importing no flask (its receiver imported from the
    repository, :mod:`indexer.languages.python.frameworks.flask`): it counts only when that receiver
    is a Flask application or blueprint some file declares."""
    return route.framework == "flask" and not any(
        imp.module.split(".", 1)[0] == "flask" and not imp.level for imp in every(fc.imports))
