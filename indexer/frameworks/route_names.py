"""Requests whose URL is built from a route's name: ``self.client.get(reverse("shop:detail", args=(1,)))``,
``client.get(url_for("bp.show", id=1))``, ``client.get(app.url_path_for("user", id=1))``, linked to the route of
that name as if its path were written (:attr:`indexer.model.HttpCall.route_name`, read by
:mod:`indexer.languages.python.frameworks.url_names`).

A route's full name is the namespaces of the mounts leading to its router, outermost first, then its own name
(:attr:`indexer.model.Route.name`), joined by the family's separator:

* ``django`` (Django and DRF ``reverse``): ``:``. A DRF router's registration with ``basename=`` names its
  routes ``<basename>-list``, ``<basename>-detail`` and ``<basename>-<action>``; without ``basename=``, DRF's
  default, the viewset's ``queryset`` model name in lower case (:meth:`RouteNameLinks.drf_basename`). A mount's
  namespace is its ``include(..., namespace=)`` or the
  app name of an ``include((patterns, "app"))`` tuple (:attr:`indexer.model.Mount.namespace`), else the included
  URLconf's ``app_name`` (:attr:`indexer.model.Router.namespace`); an include with neither adds nothing (Django
  puts its names beside the including URLconf's). ``reverse("name")`` without a namespace reaches only routes
  whose chain has none, as in Django. Application namespaces are kept beside the instance ones, as a fallback: a
  name no instance namespace gives is looked up with each namespace read as an application namespace (an
  ``AdminSite(name="widget-admin")``'s routes as ``admin:...``, the app name of an ``include((patterns, "app"),
  namespace="x")`` tuple, an included URLconf's ``app_name`` under ``namespace=``): Django's ``reverse`` resolves
  an application namespace to its default instance (the instance namespace equal to it, which the instance
  table already holds) else to one deployed instance (``django/urls/base.py``, ``reverse``). Several deployed
  instances of that application leave the name ambiguous (which one Django picks depends on the order of
  ``urlpatterns``, the last deployed, which is not followed), and a test's ``ROOT_URLCONF`` is not applied to
  the fallback.
* ``flask`` (``url_for``): ``.``, each blueprint's name (or its ``register_blueprint(..., name=)``): a nested
  blueprint's view is ``parent.child.view``; an app's own views have no namespace. A blueprint registered where
  the linker cannot see it keeps its own name. A relative name (``url_for(".show")``) is under the blueprint of
  the calling file, as Flask puts it under the current request's blueprint (``flask.helpers.url_for``); a file
  declaring no blueprint drops the dot, as Flask does outside one; blueprints of the file giving it several
  full names leave it ambiguous when their paths differ.
* ``starlette`` (Starlette and FastAPI ``url_for`` / ``url_path_for``): ``:``, a ``Mount(..., name="x")``'s name;
  a mount without one adds nothing (Starlette looks through it).

The table holds the routes the linker exposed (a route whose view resolves to nothing has no endpoint, so no
name), each full name with its full paths (normalised: ``<int:pk>`` is ``{}``, as in endpoint ids). A name the repository does not give any route is
``unlinked_route_name`` (candidates: the nearest names); a name several paths carry (Django's same name in two
URLconfs without namespaces, one name on ``a/`` and ``a/<int:page>/``) links when the number of path values the
call gives (:attr:`~indexer.model.HttpCall.route_name`'s third item) leaves one path, or when the Django test making
the call sets ``ROOT_URLCONF`` (its fourth item) to a URLconf of the repository above some of those paths (the paths
as seen from that URLconf: prefixes and namespaces below it; :meth:`RouteNameLinks._name_roots`; a test class of a
base class of another module decorated so inherits its URLconf), else it is
``unlinked_route_name_ambiguous`` (candidates: the paths); which of them Django would build depends on run-time
values (and on the order of URLconfs the settings choose), so none is guessed. Names are looked up in the calling
repository only: ``reverse`` builds URLs of its own process's URLconf, never another repository's.

A redirect built from a name (``redirect("shop:detail")``, ``HttpResponseRedirect(reverse(...))``) is no client
call and gets no edge: the browser makes the next request, not the view (the view's ``reverse`` call stays a
CALLS edge to the library).
"""

from __future__ import annotations

import heapq
import re
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from indexer.frameworks.clients import HOLE
from indexer.frameworks.paths import join_paths, unglue_holes
from indexer.frameworks.unlinked import MAX_CANDIDATES, nearest
from indexer.model import DRF_ROUTE
from indexer.resolve.values import ClassV
from stores.contracts import normalise_path

if TYPE_CHECKING:
    from indexer.frameworks.route_links import LinkedRoute
    from indexer.model import HttpCall, Route
    from indexer.resolve.context import FileCtx

__all__ = ["FAMILIES", "RouteNameLinks", "SEPARATORS"]

FAMILIES = {"django": "django", "drf": "django", "flask": "flask", "starlette": "starlette", "fastapi": "starlette"}
"""The naming rule (:attr:`~indexer.model.HttpCall.route_name`'s family) of each route framework's names."""
SEPARATORS = {"django": ":", "flask": ".", "starlette": ":"}
"""What joins a family's namespaces and name."""
_PK = "{pk}"  # a DRF detail route's path below its prefix (indexer.frameworks.viewsets)
_BUILDERS = {"django": "reverse", "flask": "url_for", "starlette": "url_for"}
_MAX_CHAINS = 64
_MAX_DEPTH = 8
_ROOT_URLCONF = re.compile(r"""ROOT_URLCONF\s*=\s*["']([\w.]+)["']""")


class RouteNameLinks:
    """Mixin of the framework linker (which provides ``ctxs``, ``mounts``, ``mount_names``, ``routers``, ``result``,
    ``_own``, ``link_url``, ``unlinked`` and ``_owner_id``): the route-name table, filled as routes are linked
    (:meth:`name_route`), and the links of the requests naming a route (:meth:`route_name_call`)."""

    mounts: Any
    mount_names: dict[tuple[tuple[str, str], tuple[str, str], str], str]
    mount_apps: dict[tuple[tuple[str, str], tuple[str, str], str], str]
    result: Any

    _names: dict[tuple[str, str], dict[str, None]] | None = None
    _app_names: dict[tuple[str, str], dict[str, None]] | None = None  # Django's application namespaces (fallback)
    _name_chains: dict[tuple[str, str], list[tuple[str, tuple[str, ...], tuple[str, ...]]]] | None = None
    _router_names: dict[tuple[str, str], str] | None = None
    _router_apps: dict[tuple[str, str], str] | None = None
    _rooted: dict[tuple[str, str], dict[str, None]] | None = None  # (Django name, root URLconf file) -> its paths
    _ups: dict[tuple[str, str], list[tuple[tuple[str, str], str, tuple[str, ...]]]] | None = None
    _named: dict[tuple[str, str, str], _Paths] | None = None  # (table, key...) -> its paths, read for the calls

    def name_route(self, route: Route, router: tuple[str, str] | None, bases: list[str], own: str,
                   linked: LinkedRoute, handlers: list) -> None:
        """Record the full names of ``route`` (linked as ``linked``, its router's key ``router``, its full
        prefixes ``bases``, its own path ``own``, its ``handlers`` as the linker resolved them: ``(node id,
        methods[, path below the route's own])``) with the full path each names."""
        family = FAMILIES.get(route.framework)
        basename = route.name or (self.drf_basename(linked.view) if route.framework == DRF_ROUTE else None)
        if family is None or not basename or not linked.endpoints:
            return
        if self._names is None:
            self._names, self._app_names = defaultdict(dict), defaultdict(dict)
        served = {full for _, _, full in linked.endpoints}
        chains = self._chains_of(router) if router is not None else [("", (), ())]
        separator = SEPARATORS[family]
        named = _drf_names(basename, handlers) if route.framework == DRF_ROUTE else [("", basename)]
        for base in bases:
            spaces = [(ns, app) for prefix, ns, app in chains if prefix == base] or [(ns, app) for _, ns, app in chains]
            for tail, name in named:
                full = join_paths(join_paths(base, own), tail).replace(HOLE, "{}")
                if full not in served:
                    continue
                for ns, app in dict.fromkeys(spaces):
                    self._names[(family, separator.join((*ns, name)))][normalise_path(full)] = None
                    if app != ns:
                        self._app_names[(family, separator.join((*app, name)))][normalise_path(full)] = None  # type: ignore[index]
        self._named = None  # (a name's paths changed: read again)
        if family == "django" and router is not None:  # each root URLconf above it (a test's ROOT_URLCONF)
            self._name_roots(router, own, named, served)

    def _name_roots(self, router: tuple[str, str], own: str, named: list[tuple[str, str]], served: set[str]) -> None:
        """Record the names a Django route has as seen from each URLconf above its router (``urlpatterns`` of a module
        its mount chain passes), should that one be the ``ROOT_URLCONF``: the prefixes and namespaces below it."""
        if self._rooted is None:
            self._rooted = defaultdict(dict)
        for (path, key), prefix, ns in self._ups_of(router):
            if key != "urlpatterns":
                continue
            for tail, name in named:
                full = join_paths(join_paths(prefix, own), tail).replace(HOLE, "{}")
                if full in served:
                    self._rooted[(":".join((*ns, name)), path)][normalise_path(full)] = None
        self._named = None

    def _ups_of(self, key: tuple[str, str]) -> list[tuple[tuple[str, str], str, tuple[str, ...]]]:
        """``(router above, prefix from it, namespaces from it)`` of ``key`` itself (its own prefix, no namespace: a
        root URLconf's ``app_name`` names nothing) and of each router its mount chains pass, nearest first."""
        if self._ups is None:
            self._ups = {}
        found = self._ups.get(key)
        if found is None:
            found = self._ups[key] = self._up(key, frozenset())
        return found

    def _up(self, key: tuple[str, str], seen: frozenset[tuple[str, str]]
            ) -> list[tuple[tuple[str, str], str, tuple[str, ...]]]:
        own = self._own(key)  # type: ignore[attr-defined]
        out: list[tuple[tuple[str, str], str, tuple[str, ...]]] = [(key, own, ())]
        if len(seen) >= _MAX_DEPTH:
            return out
        inner = seen | {key}
        for parent, prefix, framework in self.mounts.get(key, ()):
            if parent in inner:
                continue
            ns = self.mount_names.get((key, parent, prefix)) or self._namespace(key)
            tail = join_paths(unglue_holes(prefix, glued_to_next=framework == "django"), own)
            for above, pp, pns in self._up(parent, inner):
                out.append((above, join_paths(pp, tail), (*pns, ns) if ns else pns))
                if len(out) >= _MAX_CHAINS:
                    return out
        return out

    def drf_basename(self, view: Any) -> str | None:
        """The basename DRF gives a viewset registered without ``basename=``: its ``queryset``'s model's name in lower
        case (``router.get_default_basename``: ``queryset.model._meta.object_name.lower()``), ``queryset`` the class
        attribute of ``view`` or of its nearest repository base that sets one (``queryset = Article.objects.all()``:
        ``article``, the first capitalised name of the expression); ``None``: none set (DRF then requires a
        basename)."""
        for k in self.r.mro(view) if view is not None else ():  # type: ignore[attr-defined]
            self.r.use(("file", k.file.path, ""))  # type: ignore[attr-defined]  # (its bindings: relinked on edits)
            for b in k.file.ex.bindings:
                if b.scope == k.qualname and b.name == "queryset" and b.type:
                    model = next((p for p in b.type.split(".") if p[:1].isupper()), None)
                    return model.lower() if model else None
        return None

    def _inherited_urlconf(self, fc: FileCtx, caller: str | None) -> str:
        """The ``ROOT_URLCONF`` a test class inherits from a base class of another module decorated
        ``@override_settings(ROOT_URLCONF=...)`` (Django's class decorator holds for subclasses; a base of the same
        module is read at extraction: :func:`~indexer.languages.python.frameworks.url_names.root_urlconf`); the class
        is the first part of ``caller``'s qualname, its bases in MRO order; ``""``: none."""
        head = (caller or "").partition(".")[0]
        v = self.r.resolve_expr(fc, None, head) if head else None  # type: ignore[attr-defined]
        if not isinstance(v, ClassV):
            return ""
        for k in self.r.mro(v.c)[1:]:  # type: ignore[attr-defined]
            self.r.use(("file", k.file.path, ""))  # type: ignore[attr-defined]  # (its decorators: relinked on edits)
            found = _urlconf_of(k.heads.decorators)
            if found:
                return found
        return ""

    def _namespace(self, key: tuple[str, str]) -> str | None:
        """The namespace a router's own declaration gives (a URLconf's ``app_name``, a blueprint's name)."""
        if self._router_names is None:
            self._router_names = {(fc.path, r.name): r.namespace for fc in self.ctxs  # type: ignore[attr-defined]
                                  for r in fc.ex.routers if r.namespace}
        return self._router_names.get(key)

    def _app_namespace(self, key: tuple[str, str]) -> str | None:
        """The application namespace a router's own declaration gives when it is not its namespace (an
        ``AdminSite(name="x")``: ``admin``); ``None``: its namespace is also its application namespace."""
        if self._router_apps is None:
            self._router_apps = {(fc.path, r.name): r.app_namespace for fc in self.ctxs  # type: ignore[attr-defined]
                                 for r in fc.ex.routers if r.app_namespace}
        return self._router_apps.get(key)

    def _chains_of(self, key: tuple[str, str]) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
        """``(full prefix, instance namespaces, application namespaces)`` of each chain of mounts leading to the
        router ``key``, prefixes as the linker's :meth:`~indexer.frameworks.link._Linker.prefixes` computes them."""
        if self._name_chains is None:
            self._name_chains = {}
        found = self._name_chains.get(key)
        if found is None:
            found = self._name_chains[key] = self._walk(key, frozenset())
        return found

    def _walk(self, key: tuple[str, str], seen: frozenset[tuple[str, str]]
              ) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
        own = self._own(key)  # type: ignore[attr-defined]
        own_ns = self._namespace(key)
        own_app = self._app_namespace(key) or own_ns
        mounts = self.mounts.get(key)
        alone = [(own, (own_ns,) if own_ns else (), (own_app,) if own_app else ())]
        if not mounts or len(seen) >= _MAX_DEPTH:
            return alone
        out: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
        inner = seen | {key}
        for parent, prefix, framework in mounts:
            if parent in inner:
                continue
            ns = self.mount_names.get((key, parent, prefix)) or own_ns
            app = self.mount_apps.get((key, parent, prefix)) or own_app or ns  # namespace= keeps the app_name
            prefix = unglue_holes(prefix, glued_to_next=framework == "django")
            tail = prefix if (framework == "flask" and prefix) else join_paths(prefix, own)
            for pp, pns, papps in self._walk(parent, inner):
                out.append((join_paths(pp, tail), (*pns, ns) if ns else pns, (*papps, app) if app else papps))
                if len(out) >= _MAX_CHAINS:
                    return out
        return out or alone

    def route_name_call(self, fc: FileCtx, call: HttpCall) -> None:
        """The CALLS_HTTP edge of a request whose URL names a route (``call.route_name``), to the path of the
        route of that name, or its ``UNLINKED`` edge (see the module docstring)."""
        assert call.route_name is not None
        family, name, given, urlconf = call.route_name
        if family == "flask" and name.startswith("."):
            full = self._relative_names(fc, name)
            named = _Paths.of(list(dict.fromkeys(p for n in full for p in self._paths("names", family, n).all)))
            name = full[0] if len(full) == 1 else name
        else:
            named = self._paths("names", family, name)
        if not named.all and family == "django":  # no instance namespace gives it: application namespaces
            named = self._paths("apps", family, name)
        if not urlconf and family == "django" and len(named.all) > 1:
            urlconf = self._inherited_urlconf(fc, call.caller)
        if urlconf and family == "django":  # the test's ROOT_URLCONF: the paths it reverses the name to, if any
            files = fc.rules.module_by_name(self.r, fc, urlconf)  # type: ignore[attr-defined]
            rooted = self._paths("rooted", name, files[0].path) if files else None
            named = rooted if rooted is not None and rooted.all else named  # (none: not held, or not above the name)
        paths = named.all
        if len(paths) > 1 and given >= 0 and len(named.by_holes.get(given, ())) == 1:
            paths = named.by_holes[given]
        method = "GET" if call.method == "*" else call.method
        shown = f'{method} {_BUILDERS[family]}("{call.route_name[1]}")'
        if len(paths) != 1:
            reason = "unlinked_route_name_ambiguous" if paths else "unlinked_route_name"
            self.unlinked(fc, self._owner_id(fc, call.caller, call.line), call.line, call.col,  # type: ignore[attr-defined]
                          reason, shown, call.framework, named.first if paths else nearest(name, self._family_names(family)))
            return
        self.link_url(fc, call.caller, call.line, call.col, call.framework, call.method,  # type: ignore[attr-defined]
                      paths[0].replace("{}", HOLE), route_name=name)

    def _relative_names(self, fc: FileCtx, name: str) -> list[str]:
        """The full names a relative Flask ``url_for(".view")`` written in ``fc`` has: under each full name of
        each blueprint the file declares (its mount chains' namespaces), sorted; without one, the name without
        its dot."""
        routers = [r.name for r in fc.ex.routers if r.framework == "flask" and r.namespace]
        if not routers:
            return [name[1:]]
        return sorted({".".join((*ns, name[1:])) for r in routers for _, ns, _ in self._chains_of((fc.path, r))})

    def _paths(self, table: str, a: str, b: str) -> _Paths:
        """The paths of ``(a, b)`` in the names table (``"names"``: ``(family, full name)``) or the Django root
        URLconfs' (``"rooted"``: ``(name, URLconf file)``), read once for all the calls naming them: a name
        100,000 routes carry was listed, counted and sorted again for each of 4,000 calls (not done in 600 s)."""
        if self._named is None:
            self._named = {}
        found = self._named.get((table, a, b))
        if found is None:
            source = {"names": self._names, "apps": self._app_names}.get(table, self._rooted)
            found = self._named[(table, a, b)] = _Paths.of(list((source or {}).get((a, b), ())))
        return found

    def _family_names(self, family: str) -> list[str]:
        """Every full name of ``family`` (for the nearest to an unknown one), listed once per table state."""
        if self._named is None:
            self._named = {}
        found = self._named.get(("family", family, ""))
        if found is None:
            found = self._named[("family", family, "")] = _Paths.of(
                [n for f, n in (self._names or {}) if f == family])
        return found.all


class _Paths:
    """The paths one name reaches: ``all`` (in the table's order), ``by_holes`` (the number of ``{}`` values a
    path takes -> its paths: which one a call giving that many values means) and ``first``, the
    :data:`~indexer.frameworks.unlinked.MAX_CANDIDATES` first in sorted order (an ambiguous call's candidates)."""

    __slots__ = ("all", "by_holes", "first")

    def __init__(self, paths: list[str], by_holes: dict[int, list[str]], first: list[str]) -> None:
        self.all, self.by_holes, self.first = paths, by_holes, first

    @classmethod
    def of(cls, paths: list[str]) -> _Paths:
        """Index ``paths``."""
        by_holes: dict[int, list[str]] = defaultdict(list)
        for p in paths:
            by_holes[p.count("{}")].append(p)
        return cls(paths, dict(by_holes), heapq.nsmallest(MAX_CANDIDATES, paths))


def _urlconf_of(decorators: list[str]) -> str:
    """The ``ROOT_URLCONF`` an ``@override_settings(ROOT_URLCONF="x.urls")`` among ``decorators`` sets, else ``""``."""
    for text in decorators:
        if "override_settings" in text:
            found = _ROOT_URLCONF.search(text)
            if found:
                return found.group(1)
    return ""


def _drf_names(basename: str, handlers: list) -> list[tuple[str, str]]:
    """``(path below the registration's prefix, name)`` of each route a DRF router makes for a viewset registered
    with ``basename``, as DRF names them: ``<basename>-list`` (the prefix itself), ``<basename>-detail``
    (``{pk}``), and an ``@action``'s ``<basename>-<method name, _ as ->`` (``handlers``: the linker's
    ``(node id, methods, path)`` of each, :meth:`~indexer.frameworks.viewsets.ViewSetLinks.viewset_handlers`)."""
    out: dict[tuple[str, str], None] = {}
    for handler, _, *tail in handlers:
        path = tail[0] if tail else ""
        if path == "":
            suffix = "list"
        elif path == _PK:
            suffix = "detail"
        else:  # the action method's name (a node id ends `Class.method(arity)`)
            suffix = handler.rpartition("(")[0].rpartition(".")[2].replace("_", "-")
        out[(path, f"{basename}-{suffix}")] = None
    return list(out)
