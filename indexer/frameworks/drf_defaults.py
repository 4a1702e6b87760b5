"""Django REST framework's default authentication and permission classes, as the framework linker
(:mod:`indexer.frameworks.link`) applies them.

DRF runs, for every request to an ``APIView`` (viewsets and generic views are ones; so is a function
view under ``@api_view``), ``authenticate(request)`` of each of the view's ``authentication_classes``
and ``has_permission(request, view)`` of each of its ``permission_classes``. A view that does not set
them (in its class body or a base class of the repository; ``@authentication_classes([...])`` /
``@permission_classes([...])`` on a function view) gets the ``REST_FRAMEWORK`` setting's
``DEFAULT_AUTHENTICATION_CLASSES`` / ``DEFAULT_PERMISSION_CLASSES`` (DRF's ``api_settings``; the
settings detector makes them :class:`~indexer.model.Wrapper` records of framework
:data:`~indexer.model.DRF_AUTHENTICATION` / :data:`~indexer.model.DRF_PERMISSION`).

So each default class of the repository wraps (``WRAPS``, kind ``guard``, scope ``app``) through its
``authenticate`` / ``has_permission`` (its own or inherited from a class of the repository) every
endpoint of a DRF view of the same application (the settings file's module folder, as Django
middleware) that keeps the default. ``has_object_permission`` runs only when the view checks an
object (``get_object()``), so it is not counted. A library class (``rest_framework.permissions.
IsAuthenticated``) is no code of the repository: nothing.

A route's view is the class its handler names (``ArticleViewSet`` registered on a router, ``View.as_view()``
routed by a URLconf) when it is a DRF view: registered on a DRF router, or a class whose bases (its
own or its repository ancestors') name one of :data:`DRF_VIEW_BASES`; or a function decorated with
``api_view``.
"""

from __future__ import annotations

import re
from typing import Any

from indexer.model import DRF_AUTHENTICATION, DRF_PERMISSION, DRF_ROUTE, Import, Route, Wrapper
from indexer.resolve.context import FileCtx
from indexer.resolve.values import ClassV, Def, FuncV

__all__ = ["DRF_DEFAULTS", "DRF_VIEW_BASES", "DrfDefaultLinks"]

DRF_DEFAULTS: dict[str, tuple[str, str]] = {
    DRF_AUTHENTICATION: ("authentication_classes", "authenticate"),
    DRF_PERMISSION: ("permission_classes", "has_permission"),
}
"""Per Wrapper framework: the view attribute (and function view decorator) that overrides the default,
and the method of the default class that DRF runs per request."""

DRF_VIEW_BASES = frozenset({
    "APIView", "GenericAPIView", "ViewSet", "GenericViewSet", "ModelViewSet", "ReadOnlyModelViewSet",
    "ViewSetMixin", "CreateAPIView", "ListAPIView", "RetrieveAPIView", "DestroyAPIView", "UpdateAPIView",
    "ListCreateAPIView", "RetrieveUpdateAPIView", "RetrieveDestroyAPIView", "RetrieveUpdateDestroyAPIView",
})  # fmt: skip
"""The DRF classes (by the last name a base list spells) whose subclasses are DRF views."""

_AS_VIEW = re.compile(r"\.as_view\(.*\)$", re.S)


class DrfDefaultLinks:
    """Mixin of the framework linker for the ``REST_FRAMEWORK`` default classes (module docstring)."""

    r: Any

    def drf_view(self, fc: FileCtx, route: Route) -> Def | None:
        """The DRF view (class, or ``@api_view`` function) a Python route of ``fc`` is handled by;
        ``None`` for any other route."""
        if fc.lang != "python" or route.handler_ref is None:
            return None
        v = self.r.resolve_expr(fc, route.scope, _AS_VIEW.sub("", route.handler_ref))
        if isinstance(v, ClassV) and v.c.file.repo == self.r.repo:
            if route.framework == DRF_ROUTE or any(
                    text.split("[", 1)[0].strip().rpartition(".")[2] in DRF_VIEW_BASES
                    for k in self.r.mro(v.c) for text in k.heads.bases):
                return v.c
        if isinstance(v, FuncV) and v.f.file.repo == self.r.repo and any(
                _callee(text) == "api_view" for text in v.f.heads.decorators):
            return v.f
        return None

    def drf_default_guards(self, fc: FileCtx, w: Wrapper) -> tuple[list[str], str]:
        """``(ids of the methods that run, overriding attribute)`` for a default-class Wrapper ``w``
        of ``fc``'s settings: the class's ``authenticate`` / ``has_permission`` (empty when the
        dotted path names no class of the repository, or the class has no such method)."""
        attribute, method = DRF_DEFAULTS[w.framework]
        module, _, name = (w.owner_ref or "").rpartition(".")
        v = self.r.resolve_import(fc, Import(name, module, name)) if module else None
        if not isinstance(v, ClassV) or v.c.file.repo != self.r.repo:
            return [], attribute
        found, _ = self.r.lookup(v.c, method)
        return [m.id for m in found if m.is_callable and m.file.repo == self.r.repo], attribute

    def keeps_drf_default(self, view: Def, attribute: str) -> bool:
        """Whether the DRF view ``view`` runs the default classes of ``attribute``
        (``authentication_classes`` / ``permission_classes``): it sets none of its own."""
        if view.is_callable:  # an @api_view function: @permission_classes([...]) overrides
            return not any(_callee(text) == attribute for text in view.heads.decorators)
        found, _ = self.r.lookup(view, attribute)
        return not any(m.file.repo == self.r.repo for m in found)


def _callee(decorator: str) -> str:
    """The last name a decorator's text calls or names (``api_view(["GET"])`` -> ``api_view``)."""
    return decorator.split("(", 1)[0].strip().rpartition(".")[2]
