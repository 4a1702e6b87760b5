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

__all__ = ["MODEL_ADMIN_HOOKS", "InheritedHandlers", "admin_site_key"]

_AS_VIEW = ".as_view()"
_FORM = ("changeform_view", "get_object", "get_queryset", "get_form", "get_fields", "get_fieldsets", "get_exclude",
         "get_readonly_fields", "get_prepopulated_fields", "get_changeform_initial_data", "get_inlines",
         "get_inline_instances", "get_formsets_with_inlines", "get_formset_kwargs", "get_inline_formsets", "save_form",
         "save_model", "save_related", "save_formset", "construct_change_message", "log_addition", "log_change",
         "render_change_form", "response_add", "response_change", "response_post_save_add", "response_post_save_change",
         "has_add_permission", "has_change_permission", "has_delete_permission", "has_view_permission",
         "has_view_or_change_permission", "get_view_on_site_url", "message_user", "to_field_allowed")
MODEL_ADMIN_HOOKS: dict[str, tuple[str, ...]] = {
    "changelist_view": ("get_queryset", "get_changelist", "get_changelist_instance", "get_changelist_form",
                        "get_changelist_formset", "get_list_display", "get_list_display_links", "get_list_filter",
                        "get_list_select_related", "get_search_fields", "get_search_results", "get_sortable_by",
                        "get_ordering", "get_paginator", "lookup_allowed", "get_actions", "get_action",
                        "get_action_choices", "response_action", "save_form", "save_model", "save_related",
                        "save_formset", "log_change", "construct_change_message", "has_add_permission",
                        "has_change_permission", "has_view_permission", "has_view_or_change_permission",
                        "message_user"),
    "add_view": _FORM,
    "change_view": _FORM,
    "delete_view": ("get_object", "get_queryset", "get_deleted_objects", "delete_model", "log_deletion", "log_deletions",
                    "render_delete_form", "response_delete", "has_change_permission", "has_delete_permission",
                    "message_user", "to_field_allowed"),
    "history_view": ("get_object", "get_queryset", "get_paginator", "has_change_permission", "has_view_permission",
                     "has_view_or_change_permission", "message_user"),
}
"""The ``ModelAdmin`` methods each admin view of Django runs on its ``ModelAdmin``: the closure of its ``self.m(...)``
calls in ``django/contrib/admin/options.py`` (``BaseModelAdmin`` / ``ModelAdmin``, Django 5.2.8), plus what
``ChangeList`` calls back (``get_search_results``, ``lookup_allowed``, ``get_paginator``). When Django is not in the
index, a registration's class overriding one of them handles that view too (the call through Django is not seen)."""


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
        head, _, view = (route.handler_ref or "").removesuffix(_AS_VIEW).rpartition(".")
        v = self.r.resolve_expr(fc, route.scope, head) if head else None
        if isinstance(v, (ClassV, InstV)) and v.c.file.repo == fc.repo:
            self.view_class = v.c
            return [(v.c.id, route.methods), *self.hooks(v.c, view, route.methods)]
        return [(file_id(fc.repo, fc.path), route.methods)]

    def hooks(self, c: Any, view: str, methods: list[str]) -> list[tuple[str, list[str]]]:
        """``(node id, methods)`` of the methods of ``c`` (its own or its repository bases') that Django's admin view
        ``view`` runs (:data:`MODEL_ADMIN_HOOKS`), when Django's ``ModelAdmin`` is not among ``c``'s repository
        ancestors (with it indexed, the calls are followed)."""
        names = MODEL_ADMIN_HOOKS.get(view, ())
        lineage = self.r.mro(c) if names else []
        if not names or any(k.qualname.rpartition(".")[2] == "ModelAdmin" for k in lineage):
            return []
        out: list[tuple[str, list[str]]] = []
        for name in names:
            found, _ = self.r.lookup(c, name)
            out.extend((m.id, methods) for m in found if m.is_callable and m.file.repo == self.r.repo)
        return out

    def inherited_receiver(self, fc: FileCtx, route: Route) -> None:
        """Set ``view_class`` to the class of ``X`` of an inherited route's ``X.m`` resolved to a method (what that
        method runs on: ``BookAdmin``'s ``changelist_view`` inherited from Django's ``ModelAdmin``)."""
        head = (route.handler_ref or "").rpartition(".")[0]
        v = self.r.resolve_expr(fc, route.scope, head) if head and not head.endswith(")") else None
        if isinstance(v, (ClassV, InstV)) and v.c.file.repo == fc.repo:
            self.view_class = v.c

    def overridden_view_hooks(self, fc: FileCtx, route: Route, methods: list[str]) -> list[tuple[str, list[str]]]:
        """:meth:`hooks` of an inherited route whose view the registration's class overrides (``changelist_view``
        calling ``super()``, which goes into Django)."""
        if self.view_class is None:
            return []
        return self.hooks(self.view_class, (route.handler_ref or "").rpartition(".")[2], methods)
