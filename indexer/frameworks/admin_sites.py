"""Django admin routes in the framework linker: the default site's one router per repository, and the handlers of
routes whose method a ``ModelAdmin`` / ``AdminSite`` inherits from Django (:attr:`indexer.model.Route.inherited`).

The routes themselves are the Python detector's (:mod:`indexer.languages.python.frameworks.django_admin`): the
registrations of every file on Django's ``admin.site`` and the URLconfs mounting ``admin.site.urls`` name the router
:data:`~indexer.model.DJANGO_ADMIN_SITE`, which is one object per process, so one router of the repository
(:func:`admin_site_key`), not a name of each file.
"""

from __future__ import annotations

from typing import Any

from indexer.model import DJANGO_ADMIN_SITE, Route
from indexer.resolve.context import FileCtx
from indexer.resolve.values import ClassV, InstV
from indexer.symbols import file_id

__all__ = ["InheritedHandlers", "admin_site_key"]

_AS_VIEW = ".as_view()"


def admin_site_key(fc: FileCtx, expr: str | None) -> tuple[str, str] | None:
    """The router key of Django's default admin site for an expression of ``fc`` naming it
    (:data:`~indexer.model.DJANGO_ADMIN_SITE`): one per repository; ``None`` for any other expression."""
    return (f"{fc.repo}:", DJANGO_ADMIN_SITE) if expr == DJANGO_ADMIN_SITE else None


class InheritedHandlers:
    """Mixin of the framework linker (which provides ``r`` and ``view_class``): :meth:`inherited_handlers`."""

    r: Any
    view_class: Any

    def inherited_handlers(self, fc: FileCtx, route: Route) -> list[tuple[str, list[str]]]:
        """The handler of an :attr:`~indexer.model.Route.inherited` route whose ``handler_ref`` ``X.m`` resolved to
        nothing (``m`` inherited from a library not indexed): ``X``'s class (an instance's class; also the view class,
        the receiver of its methods), else the route's file (``X`` a library object: Django's ``ModelAdmin``,
        ``admin.site``, ``RedirectView``), as ``[(node id, methods)]``."""
        head = (route.handler_ref or "").removesuffix(_AS_VIEW).rpartition(".")[0]
        v = self.r.resolve_expr(fc, route.scope, head) if head else None
        if isinstance(v, (ClassV, InstV)) and v.c.file.repo == fc.repo:
            self.view_class = v.c
            return [(v.c.id, route.methods)]
        return [(file_id(fc.repo, fc.path), route.methods)]

    def inherited_receiver(self, fc: FileCtx, route: Route) -> None:
        """Set ``view_class`` to the class of ``X`` of an inherited route's ``X.m`` resolved to a method (what that
        method runs on: ``BookAdmin``'s ``changelist_view`` inherited from Django's ``ModelAdmin``)."""
        head = (route.handler_ref or "").rpartition(".")[0]
        v = self.r.resolve_expr(fc, route.scope, head) if head and not head.endswith(")") else None
        if isinstance(v, (ClassV, InstV)) and v.c.file.repo == fc.repo:
            self.view_class = v.c
