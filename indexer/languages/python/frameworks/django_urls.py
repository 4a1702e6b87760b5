"""Django URL configurations: ``path()`` / ``re_path()`` / ``url()`` routes and ``include()`` mounts.

A module is a URL configuration when it assigns ``urlpatterns`` at module level. Its module-level
statements that fill a list (``NAME = [...]``, ``NAME += [...]``, ``NAME.append(...)``,
``NAME.extend(...)``; rules in ``indexer/languages/python/queries/django_urls.scm``) are read as pattern lists:

* ``path("owners/<int:pk>/", views.owner_detail, name=...)``, ``re_path(r"^x/(?P<pk>\\d+)/$", v)``,
  ``url(...)`` -> :class:`~indexer.model.Route` (framework ``django``, methods ``["*"]``, handler
  ``None``, ``handler_ref`` the view expression normalised: ``views.owner_detail``, ``fn``,
  ``OwnerView.as_view()``; an old-style dotted string view is its value; a lambda has none),
  ``router`` the list's name;
* ``path("api/", include("shop.urls"))`` -> :class:`~indexer.model.Mount` (``child`` ``None``,
  ``child_module`` ``"shop.urls"``); ``include(extra_patterns)`` / ``include(router.urls)`` /
  ``path("admin/", admin.site.urls)`` -> a Mount whose ``child`` is that expression; an
  ``include((patterns, "app"))`` tuple reads its first element, ``include(*obj.urls)`` the unpacked
  expression; ``include([...])`` of an inline list yields that list's routes with the prefix
  prepended, on the enclosing list;
* ``path("admin/", admin.site.urls)`` of Django's default admin site: a Mount of
  :data:`~indexer.model.DJANGO_ADMIN_SITE` (namespace ``admin``) and the site's own routes
  (:mod:`.django_admin`, which reads the sites and registrations);
* a name or attribute placed directly in a pattern list (``urlpatterns += router.urls``,
  ``[*extra, path(...)]``) -> a Mount with an empty prefix;
* one :class:`~indexer.model.Router` (empty prefix) per pattern list: ``urlpatterns`` always, any
  other module-level list only when it holds a ``path()`` / ``re_path()`` / ``url()`` call.

A list comprehension contributes its element pattern. Calls wrapping patterns (``i18n_patterns(...)``, ``format_suffix_patterns([...])``) are looked
through; their own prefix (a language code) is not known statically and is not recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from indexer.languages.python.frameworks.django_admin import is_default_site, site_routes
from indexer.languages.python.frameworks.common import (Args, ImportTable, compact, join, ref_text, scope_of,
                                                        string_value, template)
from indexer.languages.base import SourceText, query, run_query
from indexer.model import DJANGO_ADMIN_SITE, FileExtraction, Mount, Route, Router, Template, WrapperRef

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_FRAMEWORK = "django"
_ROUTE_CALLS = frozenset({"path", "re_path", "url"})
_MAX_DEPTH = 32


@dataclass(slots=True)
class _List:
    """Facts found in the statements filling one module-level list."""

    line: int
    has_patterns: bool = False
    facts: list[tuple[int, Route | Mount]] = field(default_factory=list)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the Django routes, mounts and pattern-list routers of one parsed Python file to ``out``."""
    if b"urlpatterns" not in src.data:
        return
    lists: dict[str, _List] = {}
    imports = ImportTable.of(out)
    for _, caps in run_query(query("python", "python/queries", "django_urls"), root):
        statement = caps["assign"][0]
        if scope_of(statement, src) is not None:
            continue
        name = src.text(caps["name"][0])
        target = lists.setdefault(name, _List(src.line(statement)))
        _Walker(src, name, target, imports).walk(caps["value"][0], Template(), 0)
    if "urlpatterns" not in lists:
        return
    facts: list[tuple[int, Route | Mount]] = []
    app_name = _app_name(root, src)
    for name, found in lists.items():
        if name == "urlpatterns" or found.has_patterns:
            out.routers.append(Router(_FRAMEWORK, name, Template(), found.line, app_name if name == "urlpatterns" else None))
            facts.extend(found.facts)
    facts.sort(key=lambda f: f[0])
    for _, fact in facts:
        (out.routes if isinstance(fact, Route) else out.mounts).append(fact)


def _app_name(root: Node, src: SourceText) -> str | None:
    """The module-level ``app_name = "shop"`` of a URLconf (the last one), the namespace its
    ``urlpatterns`` names are under when included without ``namespace=``; ``None``: none written."""
    found = None
    if b"app_name" not in src.data:
        return None
    for statement in root.named_children:
        node = statement.named_children[0] if statement.type == "expression_statement" and statement.named_child_count \
            else statement
        if node is None or node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and left.type == "identifier" and src.text(left) == "app_name":
            found = string_value(src, right) if right is not None else None
    return found


def _is_as_view(src: SourceText, node: Node) -> bool:
    """Whether ``node`` is a call ``X.as_view(...)``."""
    callee = node.child_by_field_name("function") if node.type == "call" else None
    return callee is not None and callee.type == "attribute" and src.text(callee.child_by_field_name("attribute")) == "as_view"


def _callee_name(src: SourceText, call: Node) -> str:
    """Short name of a call's callee (``path`` for ``path(...)`` and ``urls.path(...)``), or ``""``."""
    callee = call.child_by_field_name("function")
    if callee is None:
        return ""
    if callee.type == "attribute":
        callee = callee.child_by_field_name("attribute")
    return src.text(callee) if callee is not None and callee.type == "identifier" else ""


class _Walker:
    """Reads one pattern-list value; a tree walk over the list structure, since the prefix of a
    pattern is accumulated through the ``include()`` calls around it."""

    def __init__(self, src: SourceText, router: str, target: _List, imports: ImportTable | None = None) -> None:
        self.src = src
        self.router = router
        self.target = target
        self.imports = imports or ImportTable(())
        self.names = ""  # the namespaces of the inline includes being walked (``include(([...], "app"))``): ``app:``

    def walk(self, node: Node, prefix: Template, depth: int) -> None:
        """Facts of a list element or list-valued expression under ``prefix``."""
        if depth > _MAX_DEPTH:
            return
        kind = node.type
        if kind in ("list", "tuple", "expression_list", "parenthesized_expression", "list_splat"):
            for child in node.named_children:
                self.walk(child, prefix, depth + 1)
        elif kind == "list_comprehension":  # [path(f"{n}/", v) for n in names]: its element
            body = node.child_by_field_name("body")
            if body is not None:
                self.walk(body, prefix, depth + 1)
        elif kind == "binary_operator":
            for side in ("left", "right"):
                child = node.child_by_field_name(side)
                if child is not None:
                    self.walk(child, prefix, depth + 1)
        elif kind == "call":
            name = _callee_name(self.src, node)
            if name in _ROUTE_CALLS:
                self.pattern(node, name, prefix, depth)
            else:  # i18n_patterns(...), format_suffix_patterns([...]): look through, at patterns
                # only (a name passed to such a call is an argument, not a pattern list)
                for arg in Args.of(self.src, node.child_by_field_name("arguments")).positional:
                    if arg.type in ("list", "tuple", "call", "binary_operator", "parenthesized_expression"):
                        self.walk(arg, prefix, depth + 1)
        elif kind in ("identifier", "attribute") and self.src.text(node) != self.router:
            self.mount(node, node, prefix, None)

    def pattern(self, call: Node, name: str, prefix: Template, depth: int) -> None:
        """One ``path()`` / ``re_path()`` / ``url()`` call."""
        src = self.src
        self.target.has_patterns = True
        args = Args.of(src, call.child_by_field_name("arguments"))
        route = args.get(0, "route") or args.keywords.get("regex")
        view = args.get(1, "view")
        if route is None or view is None:
            return
        full = join(prefix, template(src, route))
        callee = call.child_by_field_name("function")
        at = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
        if view.type == "call" and _callee_name(src, view) == "include":
            self.include(view, full, depth)
        elif view.type == "tuple":
            self.included(view, view, full, depth)
        elif view.type == "attribute" and src.text(view.child_by_field_name("attribute")) == "urls":
            self.mount(at, view, full, None)
        else:
            view, wrappers = self.unwrapped(view)
            value = string_value(src, view)
            ref = value if value is not None else None if view.type == "lambda" else ref_text(src, view)
            name = string_value(src, args.keywords.get("name"))
            fact = Route(_FRAMEWORK, ["*"], full, None, src.line(at), src.col(at), ref, self.router, wrappers,
                         name=self.names + name if name else None)
            self.target.facts.append((call.start_byte, fact))

    def unwrapped(self, view: Node) -> tuple[Node, list[WrapperRef]]:
        """The view a decorator applied in the pattern wraps, and those decorators, outermost first:
        ``csrf_exempt(GraphQLView.as_view(graphiql=True))`` (graphene-django's documented set-up),
        ``login_required(views.profile)``, ``cache_page(60)(views.home)``. A call with one positional argument
        wraps it when that argument is an ``X.as_view(...)`` call or another such wrapping, or when the callee is
        a name imported from ``django`` (its view decorators) and the argument a name; anything else (a view
        factory ``make_view(Model)``) is the view itself."""
        src, wrappers = self.src, []
        for _ in range(_MAX_DEPTH):
            if view.type != "call" or _is_as_view(src, view):
                break
            args = Args.of(src, view.child_by_field_name("arguments"))
            callee = view.child_by_field_name("function")
            if len(args.positional) != 1 or args.keywords or callee is None:
                break
            inner = args.positional[0]
            head = compact(src, callee).split("(", 1)[0]
            if not (inner.type == "call" and self.unwrapped(inner)[0] is not inner or _is_as_view(src, inner)
                    or inner.type in ("identifier", "attribute") and self.imports.qualify(head).startswith("django.")):
                break
            wrappers.append(WrapperRef("decorator", compact(src, callee)))
            view = inner
        return view, wrappers

    def include(self, call: Node, prefix: Template, depth: int) -> None:
        """``include(arg)`` under ``prefix``."""
        arguments = call.child_by_field_name("arguments")
        arg = Args.of(self.src, arguments).get(0, "arg")
        if arg is None and arguments is not None:  # include(*obj.urls): the unpacked expression
            splat = next((c for c in arguments.named_children if c.type == "list_splat"), None)
            arg = splat.named_children[0] if splat is not None and splat.named_child_count else None
        if arg is not None:
            callee = call.child_by_field_name("function")
            at = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
            namespace = string_value(self.src, Args.of(self.src, arguments).get(1, "namespace"))
            self.included(at, arg, prefix, depth, namespace)

    def included(self, at: Node, arg: Node, prefix: Template, depth: int, namespace: str | None = None,
                 app: str | None = None) -> None:
        """What an include names: a module string, a ``(patterns, app_name)`` tuple, an inline list
        or an expression naming a pattern list; ``namespace``: its ``namespace=`` (else a tuple's app
        name; Django puts the included names under it); ``app``: the tuple's app name when ``namespace=`` differs
        (:attr:`~indexer.model.Mount.app_namespace`)."""
        if depth > _MAX_DEPTH:
            return
        if arg.type == "tuple":
            parts = [c for c in arg.named_children if c.type != "comment"]
            if parts:
                app_name = string_value(self.src, parts[1]) if len(parts) > 1 else None
                self.included(at, parts[0], prefix, depth + 1, namespace or app_name,
                              app_name if namespace and app_name != namespace else None)
            return
        if arg.type == "list":
            outer = self.names
            self.names = f"{outer}{namespace}:" if namespace else outer
            try:
                self.walk(arg, prefix, depth + 1)
            finally:
                self.names = outer
            return
        module = string_value(self.src, arg)
        if module is not None:
            self.mount(at, None, prefix, module, namespace, app)
        elif arg.type != "string":
            self.mount(at, arg, prefix, None, namespace, app)

    def mount(self, at: Node, child: Node | None, prefix: Template, module: str | None,
              namespace: str | None = None, app: str | None = None) -> None:
        """Record a Mount at ``at`` (its callee name) of ``child`` or of ``module``'s urlpatterns, its
        names under ``namespace`` (and the namespaces of the inline includes around it), its application namespace
        ``app`` when it differs."""
        src = self.src
        text = compact(src, child) if child is not None else None
        names = self.names + namespace if namespace else self.names.removesuffix(":") or None
        apps = self.names + app if app else None
        if text is not None and text.endswith(".urls") and is_default_site(self.imports, text[:-5]):
            # Django's admin.site: its own routes are this mount's (indexer.languages.python.frameworks.django_admin)
            self.target.facts.extend((at.start_byte, r) for r in site_routes(text[:-5], DJANGO_ADMIN_SITE,
                                                                               src.line(at), src.col(at)))
            text, names = DJANGO_ADMIN_SITE, self.names + (namespace or "admin")
            apps = self.names + "admin" if namespace and namespace != "admin" else None
        fact = Mount(_FRAMEWORK, self.router, text, prefix, src.line(at), src.col(at), module, namespace=names,
                     app_namespace=apps)
        self.target.facts.append((at.start_byte, fact))
