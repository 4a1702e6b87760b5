"""Django REST framework routers: ``DefaultRouter`` / ``SimpleRouter`` objects and their
``register()`` calls (rules in ``indexer/languages/python/queries/drf_routers.scm``).

* a module-level ``router = DefaultRouter(...)`` (``SimpleRouter``, ``routers.DefaultRouter``, any
  callee named ``...SimpleRouter`` / ``...DefaultRouter``, as drf-extensions' and drf-nested-routers'
  are) -> a :class:`~indexer.model.Router` named ``router.urls`` (framework :data:`~indexer.model.DRF_ROUTE`): what
  ``include(router.urls)`` / ``urlpatterns += router.urls`` mount (:mod:`.django_urls`). A nested
  router, ``NestedSimpleRouter(parent, r"articles", lookup="article")``, has the prefix
  ``articles/{article_pk}`` (its routes are mounted where its own ``urls`` are included);
* ``router.register(r"articles", ArticleViewSet, basename=...)`` -> a :class:`~indexer.model.Route`
  (framework :data:`~indexer.model.DRF_ROUTE`, methods ``["*"]``, path the prefix, ``handler_ref`` the viewset
  expression, router ``router.urls``, ``name`` the ``basename`` given: the linker names the routes
  ``<basename>-list`` / ``-detail`` / ``-<action>``, :mod:`indexer.frameworks.route_names`). The linker
  (:mod:`indexer.frameworks.viewsets`) turns it
  into the routes the viewset's actions make: ``list`` / ``create`` on ``prefix/``, ``retrieve`` /
  ``update`` / ``partial_update`` / ``destroy`` on ``prefix/{pk}/``, ``@action`` methods below them,
  each only when the class has that action (its own method or a mixin it lists).

A module-level name built by any other class (``router = NetBoxRouter()``) is reported as a router
too when this file calls its ``register(prefix, viewset)``: one file cannot tell whether that class
derives from DRF's router, so the linker keeps it only when it does
(:mod:`indexer.frameworks.router_classes`). A router assigned inside a function, and a ``register``
call on a name that is not a router of this file, are skipped (a Celery or admin ``register`` is no
route).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, ref_text, scope_of, string_value, template
from indexer.model import DRF_ROUTE, FileExtraction, Route, Router, Template

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_ROUTER_SUFFIXES = ("SimpleRouter", "DefaultRouter")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the DRF routers and viewset registrations of one parsed Python file to ``out``."""
    if b"Router" not in src.data or b".register" not in src.data:
        return
    routers: set[str] = set()
    candidates: dict[str, Node] = {}  # built by another class: a router if registered on (docstring)
    registrations: list[tuple[str, Node]] = []
    for _, caps in run_query(query("python", "python/queries", "drf_routers"), root):
        name = src.text(caps["name"][0])
        if "router" in caps:
            statement = caps["router"][0]
            callee = caps["callee"][0]
            last = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
            kind = src.text(last) if last is not None else ""
            if scope_of(statement, src) is not None:
                continue
            if not kind.endswith(_ROUTER_SUFFIXES):
                candidates.setdefault(name, statement)
                continue
            routers.add(name)
            prefix = Template()
            if kind.startswith("Nested"):
                args = Args.of(src, caps["args"][0])
                lookup = string_value(src, args.get(2, "lookup"))
                prefix = template(src, args.get(1, "parent_prefix"))
                if lookup:
                    prefix = Template.merged((*prefix.parts, ("lit", f"/{{{lookup}_pk}}")))
            out.routers.append(Router(DRF_ROUTE, f"{name}.urls", prefix, src.line(statement)))
        else:
            registrations.append((name, caps["register"][0]))
    for name, call in registrations:
        if (name not in routers and name not in candidates) or scope_of(call, src) is not None:
            continue
        args = Args.of(src, call.child_by_field_name("arguments"))
        prefix, viewset = args.get(0, "prefix"), args.get(1, "viewset")
        if prefix is None or viewset is None or viewset.type not in ("identifier", "attribute"):
            continue
        if name not in routers:
            routers.add(name)
            out.routers.append(Router(DRF_ROUTE, f"{name}.urls", Template(), src.line(candidates[name])))
        at = call.child_by_field_name("function").child_by_field_name("attribute")
        out.routes.append(Route(DRF_ROUTE, ["*"], template(src, prefix), None, src.line(at), src.col(at),
                                ref_text(src, viewset), f"{name}.urls",
                                name=string_value(src, args.get(2, "basename") or args.keywords.get("base_name"))))

