"""Django admin sites: the routes ``AdminSite.get_urls()`` and ``ModelAdmin.get_urls()`` build at run time, read from
the registrations and sites a file writes at module level.

Django's rules (``django/contrib/admin/sites.py`` ``AdminSite.get_urls`` / ``urls``, ``options.py``
``ModelAdmin.get_urls``, Django 5.2), reproduced here:

* a site's own routes: ``""`` (``index``), ``login/``, ``logout/``, ``password_change/``, ``password_change/done/``,
  ``autocomplete/`` (``autocomplete_view``), ``jsi18n/`` (``i18n_javascript``),
  ``r/<path:content_type_id>/<path:object_id>/`` (``view_on_site``: ``contenttypes.views.shortcut``) and
  ``<app_label>/`` (``app_list``: ``app_index``, a regex of the registered app labels there);
* per registered model, under ``<app_label>/<model_name>/``: ``""`` (``<app>_<model>_changelist``,
  ``changelist_view``), ``add/`` (``_add``, ``add_view``), ``<path:object_id>/history/`` (``_history``),
  ``<path:object_id>/delete/`` (``_delete``), ``<path:object_id>/change/`` (``_change``) and
  ``<path:object_id>/`` (no name: a ``RedirectView`` to the change page);
* ``site.urls`` is ``(patterns, "admin", site.name)``: the names are under the site's ``name`` (``"admin"`` by
  default); every method accepts any HTTP method.

What is read (module level only, which is where Django runs them, and the ``if`` / ``try`` / ``with`` blocks there: an ``admin.py`` is imported by
``admin.autodiscover()``; any other module only when something imports it, which is not followed, so a
registration in a module nothing imports is read all the same):

* a site: ``X = C(...)`` where ``C`` is ``AdminSite`` (imported from ``django.contrib.admin``), ends with
  ``AdminSite``, or is a class of the file deriving from one -> a :class:`~indexer.model.Router` ``X.urls``
  (framework ``django``, ``namespace`` its ``name=``, else ``"admin"``) and its own routes (handlers ``X.index``...);
  ``path("admin/", X.urls)`` mounts it (:mod:`.django_urls`). Django's own ``admin.site`` (``django.contrib.admin.site``)
  is the router :data:`~indexer.model.DJANGO_ADMIN_SITE`; its own routes are those of the URLconf mounting it
  (:func:`site_routes`);
* a registration: ``S.register(M, A)`` / ``S.register([M1, M2])`` / ``S.register(M, admin_class=A)`` where ``S``
  is ``admin.site``, a site of the file, or any name ending in ``site`` (another module's site), and
  ``@admin.register(M1, M2, site=S)`` on a class -> the model routes above, router ``S.urls``, handlers
  ``A.changelist_view``... (:attr:`~indexer.model.Route.inherited`: the class when it does not define the method
  and Django is not indexed; without ``A``, Django's ``ModelAdmin`` as the file imports it). ``A``'s literal
  ``get_urls`` entries, its own or a base class's of the file (``path("x/", self.admin_site.admin_view(self.v),
  name="n")``), or those of django.contrib.auth's ``UserAdmin`` it is or derives from (``<id>/password/``,
  ``auth_user_password_change``), come first, under the model's prefix; each of its ``actions`` (a method's name or a function) is a ``POST`` on the changelist, which runs it;
* the model: ``app_label`` is a class of the file's ``Meta.app_label``, else the app holding its module (the
  package before its ``models`` module or package, else the module's last package; a class of the file: the file's
  folder), ``model_name`` the class name in lower case. A model the file cannot place (not imported, not a class
  of the file) is skipped.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import Args, ImportTable, compact, ref_text, string_value
from indexer.model import DJANGO_ADMIN_SITE, FileExtraction, Route, Router, Template

__all__ = ["LANGUAGES", "detect", "is_default_site", "site_routes"]

LANGUAGES = ("python",)

_FRAMEWORK = "django"
_DEFAULT_SITES = frozenset({"django.contrib.admin.site", "django.contrib.admin.sites.site"})
_REGISTER = frozenset({"django.contrib.admin.register", "django.contrib.admin.decorators.register"})
_SITE_VIEWS = (("", "index", "index"), ("login/", "login", "login"), ("logout/", "logout", "logout"),
               ("password_change/", "password_change", "password_change"),
               ("password_change/done/", "password_change_done", "password_change_done"),
               ("autocomplete/", "autocomplete_view", "autocomplete"), ("jsi18n/", "i18n_javascript", "jsi18n"),
               ("<app_label>/", "app_index", "app_list"))
_VIEW_ON_SITE = ("r/<path:content_type_id>/<path:object_id>/", "django.contrib.contenttypes.views.shortcut")
_MODEL_VIEWS = (("", "changelist_view", "changelist"), ("add/", "add_view", "add"),
                ("<path:object_id>/history/", "history_view", "history"),
                ("<path:object_id>/delete/", "delete_view", "delete"),
                ("<path:object_id>/change/", "change_view", "change"))
_LIBRARY_URLS = {"django.contrib.auth.admin.UserAdmin": (("<id>/password/", "user_change_password",
                                                             "auth_user_password_change"),)}
"""The ``get_urls`` entries a library's ModelAdmin adds before ``ModelAdmin``'s (``django/contrib/auth/admin.py``
5.2.8: the password form, its name written whole, whatever the model), used when the registered class is that
ModelAdmin or derives from it through classes of the file that do not override ``get_urls``."""
_REDIRECT = ("<path:object_id>/", "django.views.generic.base.RedirectView.as_view()")
_BLOCKS = frozenset({"if_statement", "try_statement", "with_statement"})
_CLAUSES = ("elif_clause", "else_clause", "except_clause", "finally_clause")
_MAX_BLOCKS = 4
_PACKAGES = ("models", "admin")  # a module package an app splits its models / admin into


def is_default_site(imports: ImportTable, text: str) -> bool:
    """Whether the expression ``text`` (``admin.site``, ``site`` after ``from django.contrib.admin import site``)
    names Django's default admin site."""
    return imports.qualify(text) in _DEFAULT_SITES


def site_routes(site: str, router: str, line: int, col: int) -> list[Route]:
    """The routes ``AdminSite.get_urls()`` gives every site (module docstring), on ``router``, handled by the
    methods of ``site`` (the site's expression as written where it is declared or mounted), at ``line``/``col``."""
    out = [Route(_FRAMEWORK, ["*"], Template.of(path), None, line, col, f"{site}.{view}", router, name=name,
                 inherited=True) for path, view, name in _SITE_VIEWS]
    out.append(Route(_FRAMEWORK, ["*"], Template.of(_VIEW_ON_SITE[0]), None, line, col, _VIEW_ON_SITE[1], router,
                     name="view_on_site", inherited=True))
    return out


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the admin sites (routers and their own routes) and the model routes of the admin registrations of
    one parsed Python file to ``out`` (module docstring)."""
    data = src.data
    if b"admin" not in data or (b"register" not in data and b"Site" not in data):
        return
    _File(root, src, out).run()


class _File:
    """One file's module-level classes, sites and registrations."""

    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root, self.src, self.out = root, src, out
        self.imports = ImportTable.of(out)
        self.classes: dict[str, Node] = {}  # module-level class name -> its class_definition
        self.sites: dict[str, str] = {}  # module-level site variable -> its router expression

    def run(self) -> None:
        statements = []
        for statement in _module_statements(self.root):
            node = statement.named_children[0] if statement.type == "expression_statement" \
                and statement.named_child_count else statement
            definition = node.child_by_field_name("definition") if node.type == "decorated_definition" else node
            if definition is not None and definition.type == "class_definition":
                self.classes[self.src.text(definition.child_by_field_name("name"))] = definition
            statements.append(node)
        site_classes = self._site_classes()
        for node in statements:
            if node.type == "assignment":
                self._site(node, site_classes)
        for node in statements:
            if node.type == "call":
                self._register_call(node)
            elif node.type == "decorated_definition":
                self._register_decorator(node)

    # -- sites ----------------------------------------------------------------------------------

    def _bases(self, cls: Node) -> list[str]:
        supers = cls.child_by_field_name("superclasses")
        return [compact(self.src, b) for b in supers.named_children if b.type in ("identifier", "attribute")] \
            if supers is not None else []

    def _site_classes(self) -> set[str]:
        """The file's classes deriving (in the file) from a class whose name ends with ``AdminSite``."""
        found: set[str] = set()
        for _ in range(len(self.classes) + 1):
            more = {name for name, cls in self.classes.items()
                    if any(b.rpartition(".")[2].endswith("AdminSite") or b in found for b in self._bases(cls))}
            if more <= found:
                break
            found |= more
        return found

    def _site(self, node: Node, site_classes: set[str]) -> None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier" or right.type != "call":
            return
        callee = compact(self.src, right.child_by_field_name("function"))
        if not (callee.rpartition(".")[2].endswith("AdminSite") or callee in site_classes):
            return
        name = self.src.text(left)
        router = f"{name}.urls"
        self.sites[name] = router
        site_name = string_value(self.src, Args.of(self.src, right.child_by_field_name("arguments")).get(-1, "name"))
        line, col = self.src.line(left), self.src.col(left)
        self.out.routers.append(Router(_FRAMEWORK, router, Template(), line, site_name or "admin",
                                       app_namespace="admin" if site_name and site_name != "admin" else None))
        routes = self._own_urls(self.classes.get(callee), name, "", router, line, col)
        self.out.routes.extend(routes + site_routes(name, router, line, col))

    def _site_router(self, text: str) -> str | None:
        """The router a registration on the site expression ``text`` hangs on, ``None``: no admin site."""
        if is_default_site(self.imports, text):
            return DJANGO_ADMIN_SITE
        if text in self.sites:
            return self.sites[text]
        return f"{text}.urls" if text.rpartition(".")[2].lower().endswith("site") else None

    # -- registrations --------------------------------------------------------------------------

    def _register_call(self, call: Node) -> None:
        callee = call.child_by_field_name("function")
        if callee is None or callee.type != "attribute" or self.src.text(callee.child_by_field_name("attribute")) != "register":
            return
        router = self._site_router(compact(self.src, callee.child_by_field_name("object")))
        args = Args.of(self.src, call.child_by_field_name("arguments"))
        models = args.get(0, "model_or_iterable")
        if router is None or models is None:
            return
        admin = args.get(1, "admin_class")
        admin_ref = ref_text(self.src, admin) if admin is not None and admin.type in ("identifier", "attribute") else None
        at = callee.child_by_field_name("attribute")
        for model in (models.named_children if models.type in ("list", "tuple") else [models]):
            self._registration(model, admin_ref, router, at)

    def _register_decorator(self, node: Node) -> None:
        definition = node.child_by_field_name("definition")
        if definition is None or definition.type != "class_definition":
            return
        for decorator in node.named_children:
            call = decorator.named_children[0] if decorator.type == "decorator" and decorator.named_child_count else None
            if call is None or call.type != "call":
                continue
            callee = compact(self.src, call.child_by_field_name("function"))
            if self.imports.qualify(callee) not in _REGISTER:
                continue
            args = Args.of(self.src, call.child_by_field_name("arguments"))
            site = args.keywords.get("site")
            router = self._site_router(compact(self.src, site)) if site is not None else DJANGO_ADMIN_SITE
            if router is None:
                continue
            name = self.src.text(definition.child_by_field_name("name"))
            for model in args.positional:
                self._registration(model, name, router, call.child_by_field_name("function"))

    def _registration(self, model: Node, admin: str | None, router: str, at: Node) -> None:
        """The routes of one model registered on ``router`` with the ModelAdmin ``admin`` (``None``: Django's)."""
        if model.type not in ("identifier", "attribute"):
            return
        text = compact(self.src, model)
        app = self._app_label(text)
        if app is None:
            return
        base = f"{app}/{text.rpartition('.')[2].lower()}/"
        prefix = f"{app}_{text.rpartition('.')[2].lower()}"
        line, col = self.src.line(at), self.src.col(at)
        owner = admin or self._model_admin()
        routes = self._own_urls(self._defining("get_urls", admin), admin, base, router, line, col)
        if not routes and owner:  # `site.register(User, UserAdmin)` of django.contrib.auth: its get_urls is Django's
            routes = [Route(_FRAMEWORK, ["*"], Template.of(base + tail), None, line, col, f"{owner}.{view}", router,
                            name=name, inherited=True) for tail, view, name in _LIBRARY_URLS.get(self._library_admin(admin), ())]
        for tail, view, suffix in _MODEL_VIEWS:
            routes.append(Route(_FRAMEWORK, ["*"], Template.of(base + tail), None, line, col,
                                f"{owner}.{view}" if owner else None, router, name=f"{prefix}_{suffix}", inherited=True))
        routes.append(Route(_FRAMEWORK, ["*"], Template.of(base + _REDIRECT[0]), None, line, col, _REDIRECT[1], router,
                            inherited=True))
        for action in self._actions(self.classes.get(admin or "")):
            ref = f"{admin}.{action}" if action.isidentifier() and admin else action.removeprefix("=")
            routes.append(Route(_FRAMEWORK, ["POST"], Template.of(base), None, line, col, ref, router,
                                name=f"{prefix}_changelist", inherited=True))
        self.out.routes.extend(routes)

    def _defining(self, method: str, name: str | None) -> Node | None:
        """The class of the file, ``name`` or the nearest of its bases written in the file, that defines ``method``."""
        for _ in range(8):
            cls = self.classes.get(name or "")
            if cls is None:
                return None
            if any(m.type == "function_definition" and self.src.text(m.child_by_field_name("name")) == method
                   for m in _body(cls)):
                return cls
            name = next((b for b in self._bases(cls) if b in self.classes), None)
        return None

    def _library_admin(self, name: str | None) -> str:
        """The qualified name of the ModelAdmin of a library that ``name`` is or derives from through classes of the
        file (``UserAdmin`` imported from ``django.contrib.auth.admin``, or ``class MyUserAdmin(UserAdmin)``); ``""``:
        none (a class of the file all the way up, or not known)."""
        for _ in range(8):
            if not name:
                return ""
            cls = self.classes.get(name)
            if cls is None:
                return self.imports.qualify(name) or ""
            name = next(iter(self._bases(cls)), None)
        return ""

    def _model_admin(self) -> str | None:
        """How the file names Django's ``ModelAdmin`` (``admin.ModelAdmin``), ``None``: it does not."""
        for local, imp in self.imports.by_local.items():
            if imp.level:
                continue
            full = imp.module if imp.name is None else f"{imp.module}.{imp.name}"
            if full == "django.contrib.admin":
                return f"{local}.ModelAdmin"
            if full in ("django.contrib.admin.ModelAdmin", "django.contrib.admin.options.ModelAdmin"):
                return local
        return None

    def _app_label(self, text: str) -> str | None:
        """The ``app_label`` of the model class ``text`` names (module docstring), ``None``: not known."""
        cls = self.classes.get(text)
        if cls is not None:
            return self._meta_app_label(cls) or _app_of(self._folder())
        head, _, rest = text.partition(".")
        imp = self.imports.by_local.get(head)
        if imp is None:
            return None
        module = [p for p in imp.module.split(".") if p]
        if imp.level:
            folder = self._folder()
            module = folder[:len(folder) - (imp.level - 1)] + module if imp.level - 1 <= len(folder) else module
        if imp.name is not None:
            module.append(imp.name)
        module += [p for p in rest.split(".") if p]
        return _app_of(module[:-1])

    def _folder(self) -> list[str]:
        return [p for p in self.out.path.replace("\\", "/").split("/")[:-1] if p]

    def _meta_app_label(self, cls: Node) -> str | None:
        for meta in _body(cls):
            if meta.type == "class_definition" and self.src.text(meta.child_by_field_name("name")) == "Meta":
                for left, right in self._assignments(meta):
                    if left == "app_label":
                        return string_value(self.src, right)
        return None

    def _assignments(self, cls: Node) -> list[tuple[str, Node]]:
        out = []
        for statement in _body(cls):
            node = statement.named_children[0] if statement.type == "expression_statement" \
                and statement.named_child_count else statement
            if node.type == "assignment":
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                if left is not None and right is not None and left.type == "identifier":
                    out.append((self.src.text(left), right))
        return out

    def _actions(self, cls: Node | None) -> list[str]:
        """A ModelAdmin class's ``actions``: a string is a method's name, a name or attribute (``=f``) a function."""
        if cls is None:
            return []
        found: list[str] = []
        for left, right in self._assignments(cls):
            if left == "actions" and right.type in ("list", "tuple"):
                found = []
                for item in right.named_children:
                    value = string_value(self.src, item)
                    if value is not None:
                        found.append(value)
                    elif item.type in ("identifier", "attribute"):
                        found.append("=" + compact(self.src, item))
        return found

    def _own_urls(self, cls: Node | None, owner: str | None, base: str, router: str, line: int, col: int) -> list[Route]:
        """The literal ``path("x/", ..., name="n")`` entries of the ``get_urls`` a class of the file overrides,
        under ``base``: the view ``self.v`` (also wrapped: ``self.admin_site.admin_view(self.v)``, ``wrap(self.v)``)
        is ``owner.v``."""
        method = next((m for m in _body(cls) if m.type == "function_definition"
                       and self.src.text(m.child_by_field_name("name")) == "get_urls"), None) if cls is not None else None
        if method is None or owner is None:
            return []
        out: list[Route] = []
        stack = [method.child_by_field_name("body")]
        while stack:
            node = stack.pop()
            if node is None:
                continue
            if node.type == "call" and compact(self.src, node.child_by_field_name("function")).rpartition(".")[2] \
                    in ("path", "re_path"):
                args = Args.of(self.src, node.child_by_field_name("arguments"))
                path, view = string_value(self.src, args.get(0, "route")), _self_view(self.src, args.get(1, "view"))
                if path is not None and view is not None:
                    out.append(Route(_FRAMEWORK, ["*"], Template.of(base + path), None, self.src.line(node),
                                     self.src.col(node), f"{owner}.{view}", router,
                                     name=string_value(self.src, args.keywords.get("name")), inherited=True))
                continue
            stack.extend(reversed(node.named_children))
        return out


def _module_statements(root: Node) -> list[Node]:
    """The statements run at module level: the module's own and, in order, those of the ``if`` / ``try`` / ``with``
    blocks among them (``if settings.KB_ENABLED: @admin.register(KBItem) ...``), nested to :data:`_MAX_BLOCKS`."""
    out: list[Node] = []
    stack: list[tuple[Node, int]] = [(c, 0) for c in reversed(root.named_children)]
    while stack:
        node, depth = stack.pop()
        if node.type in _BLOCKS and depth < _MAX_BLOCKS:
            blocks = [b for c in node.named_children for b in ([c] if c.type == "block" else
                      [k for k in c.named_children if k.type == "block"] if c.type in _CLAUSES else [])]
            stack.extend((c, depth + 1) for b in reversed(blocks) for c in reversed(b.named_children))
            continue
        out.append(node)
    return out


def _self_view(src: SourceText, node: Node | None) -> str | None:
    """``v`` of a view written ``self.v``, or wrapped once or more in a call of one argument."""
    for _ in range(8):
        if node is None:
            return None
        if node.type == "attribute" and compact(src, node.child_by_field_name("object")) == "self":
            return src.text(node.child_by_field_name("attribute"))
        if node.type != "call":
            return None
        args = Args.of(src, node.child_by_field_name("arguments")).positional
        node = args[0] if args else None
    return None


def _body(cls: Node | None) -> list[Node]:
    body = cls.child_by_field_name("body") if cls is not None else None
    return [(c.child_by_field_name("definition") or c) if c.type == "decorated_definition" else c
            for c in body.named_children] if body is not None else []


def _app_of(module: list[str]) -> str | None:
    """The app label of the module ``module`` (its dotted parts): the package before its last ``models`` part,
    else its last part that is no ``models`` / ``admin`` package."""
    if "models" in module:
        i = len(module) - 1 - module[::-1].index("models")
        return module[i - 1] if i > 0 else None
    while module and module[-1] in _PACKAGES:
        module = module[:-1]
    return module[-1] if module else None
