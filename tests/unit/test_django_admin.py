"""Django admin routes (indexer/languages/python/frameworks/django_admin.py, indexer/frameworks/admin_sites.py): the
routes ``AdminSite.get_urls()`` / ``ModelAdmin.get_urls()`` build at run time, from the registrations (call,
list, decorator, custom site with ``name=``) and the URLconf mounting the site; ``reverse("admin:...")`` links to
them; a model never registered and a site never mounted have none.

Every fixture is extracted by the real detectors and resolved as one repository; the assertions are the exact
EXPOSES, CALLS_HTTP and UNLINKED edges.
"""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import split_fixture
from tests.unit.test_route_names import _calls, _resolve

APP = """
# --- path: proj/__init__.py ---
# --- path: proj/urls.py ---
from django.contrib import admin
from django.urls import path
from office.sites import office_site

urlpatterns = [
    path("admin/", admin.site.urls),
    path("office/", office_site.urls),
]
# --- path: shop/__init__.py ---
# --- path: shop/models.py ---
from django.db import models

class Book(models.Model):
    title = models.CharField(max_length=10)

class Author(models.Model):
    pass

class Note(models.Model):
    pass
# --- path: shop/admin.py ---
from django.contrib import admin
from django.urls import path
from .models import Book, Author

def mark_sold(modeladmin, request, queryset):
    queryset.update(sold=True)

class StatsAdmin(admin.ModelAdmin):
    def get_urls(self):
        return [path("stats/", self.admin_site.admin_view(self.stats), name="shop_book_stats")] + super().get_urls()


class BookAdmin(StatsAdmin):
    actions = [mark_sold, "discount"]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, extra_context)

    def discount(self, request, queryset):
        return None

    def stats(self, request):
        return None

admin.site.register(Book, BookAdmin)
admin.site.register([Author])
# --- path: office/__init__.py ---
# --- path: office/sites.py ---
from django.contrib.admin import AdminSite

class OfficeSite(AdminSite):
    site_header = "Office"

office_site = OfficeSite(name="office")
# --- path: office/admin.py ---
from django.contrib import admin
from shop.models import Book
from office.sites import office_site

@admin.register(Book, site=office_site)
class OfficeBookAdmin(admin.ModelAdmin):
    def save_model(self, request, obj, form, change):
        return None
# --- path: office/spare.py ---
from django.contrib import admin
from shop.models import Note

spare_site = admin.AdminSite(name="spare")
spare_site.register(Note)
# --- path: shop/tests.py ---
from django.test import TestCase
from django.urls import reverse

class T(TestCase):
    def test_a(self):
        self.client.get(reverse("admin:shop_book_changelist"))
        self.client.post(reverse("admin:shop_book_change", args=(1,)))
        self.client.get(reverse("admin:shop_author_add"))
        self.client.get(reverse("office:shop_book_delete", args=(1,)))
        self.client.get(reverse("office:index"))
        self.client.get(reverse("admin:login"))
        self.client.get(reverse("admin:shop_note_changelist"))
        self.client.get(reverse("admin:shop_book_stats"))
        self.client.get(reverse("spare:shop_note_changelist"))
"""


def _exposes(result, repo: str = "t") -> set[tuple[str, str]]:
    return {(e.src.removeprefix(f"{repo}:"), e.dst.removeprefix("endpoint:"))
            for f in result.files for e in f.edges if e.kind == "EXPOSES"}


def test_registrations_sites_and_names() -> None:
    result = _resolve(APP)
    exposes = _exposes(result)
    # admin.site.register(Book, BookAdmin): its get_urls entry (of its base StatsAdmin) first, its overridden changelist_view, the other views
    # inherited from Django's ModelAdmin (not indexed: the class), the redirect (the registering file), its actions
    assert {(s, d) for s, d in exposes if "/admin/shop/book" in d} == {
        ("shop/admin.BookAdmin.stats(1)", "* /admin/shop/book/stats"),
        ("shop/admin.BookAdmin.changelist_view(2)", "* /admin/shop/book"),
        ("shop/admin.BookAdmin", "* /admin/shop/book/add"),
        ("shop/admin.BookAdmin", "* /admin/shop/book/{}/history"),
        ("shop/admin.BookAdmin", "* /admin/shop/book/{}/delete"),
        ("shop/admin.BookAdmin", "* /admin/shop/book/{}/change"),
        ("shop/admin.py", "* /admin/shop/book/{}"),
        ("shop/admin.mark_sold(3)", "POST /admin/shop/book"),
        ("shop/admin.BookAdmin.discount(2)", "POST /admin/shop/book"),
    }
    # admin.site.register([Author]): Django's ModelAdmin, not indexed -> the registering file
    assert {(s, d) for s, d in exposes if "/admin/shop/author" in d} == {
        ("shop/admin.py", f"* /admin/shop/author{tail}") for tail in ("", "/add", "/{}/history", "/{}/delete",
                                                                       "/{}/change", "/{}")}
    # the default site's own routes: the URLconf mounting it (admin.site is Django's)
    assert {(s, d) for s, d in exposes if s == "proj/urls.py"} == {
        ("proj/urls.py", f"* /admin{tail}") for tail in ("", "/login", "/logout", "/password_change",
                                                          "/password_change/done", "/autocomplete", "/jsi18n", "/{}",
                                                          "/r/{}/{}")}
    # @admin.register(Book, site=office_site), the site a class of the repository deriving from AdminSite; its
    # save_model is run by Django's changelist (list_editable), add and change views (MODEL_ADMIN_HOOKS)
    assert {(s, d) for s, d in exposes if d.startswith("* /office/shop")} == {
        ("office/admin.OfficeBookAdmin", f"* /office/shop/book{tail}")
        for tail in ("", "/add", "/{}/history", "/{}/delete", "/{}/change")} | {
        ("office/admin.OfficeBookAdmin.save_model(4)", f"* /office/shop/book{tail}") for tail in ("", "/add", "/{}/change")
    } | {("office/admin.py", "* /office/shop/book/{}")}
    assert ("office/sites.OfficeSite", "* /office/login") in exposes
    # a model never registered on a site, a site never mounted (spare_site): no route
    assert not [d for _, d in exposes if "/note" in d or "spare" in d]

    calls = [(line, kind, target, props.get("route_name") or props.get("call"))
             for _, line, _, kind, target, props in _calls(result) if _ == "shop/tests.T.test_a(0)"]
    assert calls == [
        (6, "CALLS_HTTP", "endpoint:* /admin/shop/book", "admin:shop_book_changelist"),
        (7, "CALLS_HTTP", "endpoint:* /admin/shop/book/{}/change", "admin:shop_book_change"),
        (8, "CALLS_HTTP", "endpoint:* /admin/shop/author/add", "admin:shop_author_add"),
        (9, "CALLS_HTTP", "endpoint:* /office/shop/book/{}/delete", "office:shop_book_delete"),
        (10, "CALLS_HTTP", "endpoint:* /office", "office:index"),
        (11, "CALLS_HTTP", "endpoint:* /admin/login", "admin:login"),
        (12, "UNLINKED", "unlinked:route_name", 'GET reverse("admin:shop_note_changelist")'),
        (13, "CALLS_HTTP", "endpoint:* /admin/shop/book/stats", "admin:shop_book_stats"),
        (14, "UNLINKED", "unlinked:route_name", 'GET reverse("spare:shop_note_changelist")'),
    ]


DJANGO = """
# --- path: django/__init__.py ---
# --- path: django/contrib/__init__.py ---
# --- path: django/contrib/admin/__init__.py ---
from django.contrib.admin.options import ModelAdmin
from django.contrib.admin.sites import AdminSite, site
from django.contrib.admin.decorators import register
# --- path: django/contrib/admin/decorators.py ---
def register(*models, site=None):
    return lambda cls: cls
# --- path: django/contrib/admin/options.py ---
class ModelAdmin:
    def changelist_view(self, request, extra_context=None):
        return self.get_queryset(request)

    def get_queryset(self, request):
        return None

    def add_view(self, request):
        return None

    def change_view(self, request, object_id):
        return None

    def delete_view(self, request, object_id):
        return None

    def history_view(self, request, object_id):
        return None
# --- path: django/contrib/admin/sites.py ---
class AdminSite:
    def __init__(self, name="admin"):
        self.name = name

    def index(self, request):
        return None

    def login(self, request):
        return None

site = AdminSite()
# --- path: proj/__init__.py ---
# --- path: proj/urls.py ---
from django.contrib import admin
from django.urls import path

urlpatterns = [path("admin/", admin.site.urls)]
# --- path: shop/__init__.py ---
# --- path: shop/models.py ---
class Book:
    pass

class Note:
    pass

class Tag:
    class Meta:
        app_label = "labels"
# --- path: shop/admin.py ---
from django.contrib import admin
from .models import Book, Note

@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    def get_queryset(self, request):
        return None

admin.site.register(Note)
"""


def test_django_indexed_its_model_admin_handles_inherited_views() -> None:
    """With Django in the index, an inherited view is Django's own method, run on the registration's class (the
    receiver), and a registration without a class is Django's ModelAdmin; the site's views are AdminSite's (the
    class when it lacks one). Django's own ``site = AdminSite()`` is a site no URLconf mounts by that name."""
    result = _resolve(DJANGO)
    edges = {(e.src.removeprefix("t:"), e.dst.removeprefix("endpoint:"), dict(e.props).get("recv"))
             for f in result.files for e in f.edges if e.kind == "EXPOSES"}
    options = "django/contrib/admin/options.ModelAdmin"
    assert {e for e in edges if "/shop/book" in e[1]} == {
        (f"{options}.changelist_view(2)", "* /admin/shop/book", "shop/admin.BookAdmin"),
        (f"{options}.add_view(1)", "* /admin/shop/book/add", "shop/admin.BookAdmin"),
        (f"{options}.history_view(2)", "* /admin/shop/book/{}/history", "shop/admin.BookAdmin"),
        (f"{options}.delete_view(2)", "* /admin/shop/book/{}/delete", "shop/admin.BookAdmin"),
        (f"{options}.change_view(2)", "* /admin/shop/book/{}/change", "shop/admin.BookAdmin"),
        ("shop/admin.py", "* /admin/shop/book/{}", None),
    }
    assert (f"{options}.changelist_view(2)", "* /admin/shop/note", None) in edges
    sites = "django/contrib/admin/sites.AdminSite"
    assert {e for e in edges if e[1] in ("* /admin", "* /admin/login", "* /admin/logout")} == {
        (f"{sites}.index(1)", "* /admin", None), (f"{sites}.login(1)", "* /admin/login", None),
        (sites, "* /admin/logout", None)}
    assert not [e for e in edges if "/tag" in e[1] or "/labels" in e[1]]  # never registered
    assert len([e for e in edges if e[1].startswith("* /admin")]) == 9 + 12  # no second copy from sites.py's `site`


LABELS = """
# --- path: accounts/__init__.py ---
# --- path: accounts/admin/__init__.py ---
from django.contrib import admin
from django.contrib.auth.models import User
from accounts import models
from ..billing.models import Invoice

class Local(models.Base):
    class Meta:
        app_label = "ledger"

class UserAdmin(admin.ModelAdmin):
    pass

admin.site.register(User, admin_class=UserAdmin)
admin.site.register((models.Profile, Local))
admin.site.register(Invoice)
admin.site.register(apps.get_model("x", "Y"))
router.register(Local)
"""


def test_app_labels_and_model_names() -> None:
    """``app_label``: the package before the model's ``models`` module (absolute, relative, a module imported as a
    name), a class of the file's ``Meta.app_label``; ``model_name``: the class name in lower case. A model the file
    cannot place (built by a call) and a ``register`` on no site (``router``) give nothing."""
    path = "accounts/admin/__init__.py"
    source = split_fixture(LABELS)[path]
    ex = extractor_for_path(path).extract(path, source.encode())  # type: ignore[union-attr]
    names = sorted(r.name for r in ex.routes if r.name and r.name.endswith("_changelist"))
    assert names == ["accounts_profile_changelist", "auth_user_changelist", "billing_invoice_changelist",
                     "ledger_local_changelist"]
    user = [(r.path.parts, r.handler_ref, r.router) for r in ex.routes if r.name == "auth_user_change"]
    assert user == [((("lit", "auth/user/<path:object_id>/change/"),), "UserAdmin.change_view",
                     "django.contrib.admin.site.urls")]
    assert {r.handler_ref for r in ex.routes if r.name == "ledger_local_add"} == {"admin.ModelAdmin.add_view"}


BLOCKS = '''\
from django.contrib import admin
from .models import A, B, C, D
if x:
    @admin.register(A)
    class AA(admin.ModelAdmin):
        pass
    if y:
        admin.site.register(B)
    else:
        admin.site.register(C)
try:
    admin.site.register(D)
except Exception:
    pass
def later():
    admin.site.register(E)
'''


def test_registrations_in_module_level_blocks() -> None:
    """Registrations in the ``if`` / ``try`` blocks run at import are read (both branches: which runs depends on the
    settings); one in a function is not (it runs only when something calls it)."""
    ex = extractor_for_path("shop/admin.py").extract("shop/admin.py", BLOCKS.encode())  # type: ignore[union-attr]
    assert sorted({(r.name, r.line) for r in ex.routes if r.name and r.name.endswith("changelist")}) == [
        ("shop_a_changelist", 4), ("shop_b_changelist", 8), ("shop_c_changelist", 10), ("shop_d_changelist", 12)]


APP_NAMESPACES = """
# --- path: proj/__init__.py ---
# --- path: proj/urls.py ---
from django.contrib import admin
from django.urls import include, path
from widgets.widgetadmin import site as widget_site, spare

urlpatterns = [
    path("admin/", admin.site.urls),
    path("w/", widget_site.urls),
    path("spare/", spare.urls),
    path("office/", include(("shop.urls", "shop"), namespace="office")),
    path("blog/", include("blog.urls", namespace="news")),
]
# --- path: widgets/__init__.py ---
# --- path: widgets/models.py ---
from django.db import models

class Car(models.Model):
    pass

class Boat(models.Model):
    pass

class Truck(models.Model):
    pass
# --- path: widgets/admin.py ---
from django.contrib import admin
from widgets.models import Truck

admin.site.register(Truck)
# --- path: widgets/widgetadmin.py ---
from django.contrib import admin
from widgets.models import Boat, Car, Truck

class WidgetAdmin(admin.AdminSite):
    pass

site = WidgetAdmin(name="widget-admin")
site.register(Car)
site.register(Boat)
site.register(Truck)
spare = admin.AdminSite(name="spare-admin")
spare.register(Boat)
# --- path: shop/__init__.py ---
# --- path: shop/views.py ---
def detail(request, pk):
    return None
# --- path: shop/urls.py ---
from django.urls import path
from shop import views

urlpatterns = [path("items/<int:pk>/", views.detail, name="detail")]
# --- path: blog/__init__.py ---
# --- path: blog/views.py ---
def index(request):
    return None
# --- path: blog/urls.py ---
from django.urls import path
from blog import views

app_name = "blog"
urlpatterns = [path("", views.index, name="index")]
# --- path: widgets/tests.py ---
from django.test import TestCase
from django.urls import reverse

class T(TestCase):
    def test_a(self):
        self.client.get(reverse("admin:widgets_car_changelist"))
        self.client.post(reverse("widget-admin:widgets_car_add"))
        self.client.get(reverse("admin:widgets_truck_add"))
        self.client.get(reverse("admin:widgets_boat_add"))
        self.client.get(reverse("admin:widgets_ship_add"))
        self.client.get(reverse("shop:detail", args=(1,)))
        self.client.get(reverse("office:detail", args=(1,)))
        self.client.get(reverse("blog:index"))
        self.client.get(reverse("news:index"))
        self.client.get(reverse("widgets:widgets_car_add"))
"""


def test_application_namespaces_reach_a_deployed_instance() -> None:
    """``reverse("admin:x")`` reaches an ``AdminSite(name="widget-admin")``'s route, ``reverse("shop:x")`` an
    ``include(("shop.urls", "shop"), namespace="office")``'s, ``reverse("blog:x")`` an included URLconf's with
    ``app_name = "blog"`` under ``namespace="news"`` (Django's ``reverse``: an application namespace resolves to its
    default instance, else to a deployed one). The default instance (``admin``, the instance namespace equal to the
    application's) wins when it holds the name; two other deployed instances leave it ambiguous."""
    result = _resolve(APP_NAMESPACES)
    calls = [(line, kind, target, props.get("route_name") or props.get("call"))
             for path, line, _, kind, target, props in _calls(result) if path == "widgets/tests.py"]
    assert calls == [
        (6, "CALLS_HTTP", "endpoint:* /w/widgets/car", "admin:widgets_car_changelist"),  # the app namespace
        (7, "CALLS_HTTP", "endpoint:* /w/widgets/car/add", "widget-admin:widgets_car_add"),  # the instance's own
        (8, "CALLS_HTTP", "endpoint:* /admin/widgets/truck/add", "admin:widgets_truck_add"),  # the default instance
        # Boat on two sites of the application "admin" (widget-admin, spare-admin), none its default: not guessed
        (9, "UNLINKED", "unlinked:route_name_ambiguous", 'GET reverse("admin:widgets_boat_add")'),
        (10, "UNLINKED", "unlinked:route_name", 'GET reverse("admin:widgets_ship_add")'),  # registered nowhere
        (11, "CALLS_HTTP", "endpoint:* /office/items/{}", "shop:detail"),  # the tuple's app name
        (12, "CALLS_HTTP", "endpoint:* /office/items/{}", "office:detail"),
        (13, "CALLS_HTTP", "endpoint:* /blog", "blog:index"),  # the URLconf's app_name under namespace=
        (14, "CALLS_HTTP", "endpoint:* /blog", "news:index"),
        (15, "UNLINKED", "unlinked:route_name", 'GET reverse("widgets:widgets_car_add")'),  # a package, no namespace
    ]
