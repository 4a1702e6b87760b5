"""Django REST framework's ``REST_FRAMEWORK`` default authentication and permission classes
(indexer/languages/python/frameworks/django_settings.py -> indexer/frameworks/drf_defaults.py): their
``authenticate`` / ``has_permission`` wrap every DRF view's endpoints unless the view sets its own
``authentication_classes`` / ``permission_classes``; plain Django views and library classes get
nothing. Exact WRAPS edges and what must not be linked."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.python import EXTRACTOR
from indexer.model import DRF_AUTHENTICATION, DRF_PERMISSION, Wrapper
from indexer.resolve.repository import RepositoryResolver, resolve_repository
from tests.resolution_harness import edges, resolve_fixture, split_fixture

APP = """
# --- path: shop/__init__.py ---
# --- path: shop/settings.py ---
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": (
        "shop.auth.TokenAuth",
        "rest_framework.authentication.SessionAuthentication",
    ),
    "DEFAULT_PERMISSION_CLASSES": ["shop.auth.IsMember"],
    "PAGE_SIZE": 20,
}
# --- path: shop/auth.py ---
from rest_framework import authentication, permissions


class TokenAuth(authentication.BaseAuthentication):
    def authenticate(self, request):
        return None


class OtherAuth(authentication.BaseAuthentication):
    def authenticate(self, request):
        return None


class BaseMember(permissions.BasePermission):
    def has_permission(self, request, view):
        return True


class IsMember(BaseMember):
    def has_object_permission(self, request, view, obj):
        return True
# --- path: shop/views.py ---
from django.http import HttpResponse
from django.views import View
from rest_framework import generics, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from .auth import OtherAuth


class ArticleViewSet(viewsets.ReadOnlyModelViewSet):
    pass


class OpenView(APIView):
    permission_classes = (AllowAny,)

    def get(self, request):
        pass


class OwnAuth(generics.ListAPIView):
    authentication_classes = [OtherAuth]


class Locked(APIView):
    permission_classes = []


class LockedChild(Locked):
    def post(self, request):
        pass


@api_view(["GET"])
def ping(request):
    pass


@api_view(["GET"])
@permission_classes([AllowAny])
def open_ping(request):
    pass


def plain(request):
    return HttpResponse("")


class Page(View):
    def get(self, request):
        pass
# --- path: shop/urls.py ---
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter()
router.register("articles", views.ArticleViewSet)

urlpatterns = [
    path("api/", include(router.urls)),
    path("open/", views.OpenView.as_view()),
    path("own/", views.OwnAuth.as_view()),
    path("locked/", views.LockedChild.as_view()),
    path("ping/", views.ping),
    path("open-ping/", views.open_ping),
    path("plain/", views.plain),
    path("page/", views.Page.as_view()),
]
"""


def test_settings_name_the_default_classes():
    out = EXTRACTOR.extract("shop/settings.py", APP.split("# --- path: shop/settings.py ---\n")[1]
                            .split("# --- path")[0].encode())
    assert out.wrappers == [
        Wrapper(DRF_AUTHENTICATION, "guard", None, 3, 8, owner_ref="shop.auth.TokenAuth"),
        Wrapper(DRF_AUTHENTICATION, "guard", None, 4, 8, owner_ref="rest_framework.authentication.SessionAuthentication"),
        Wrapper(DRF_PERMISSION, "guard", None, 6, 35, owner_ref="shop.auth.IsMember"),
    ]
    # inside a function (a test's override) or under another key: nothing
    inner = EXTRACTOR.extract("t.py", b'def f():\n    REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["a.B"]}\n'
                                      b'REST_FRAMEWORK = {"DEFAULT_RENDERER_CLASSES": ["a.B"]}\n')
    assert inner.wrappers == []


def test_default_classes_wrap_the_drf_views_that_keep_them():
    wraps = edges(resolve_fixture(APP), "WRAPS")
    assert wraps == sorted([
        # the viewset on the router and the @api_view function (any method: its verbs are not read) keep
        # both defaults
        "shop/auth.TokenAuth.authenticate(1) -> endpoint:GET /api/articles",
        "shop/auth.TokenAuth.authenticate(1) -> endpoint:GET /api/articles/{}",
        "shop/auth.BaseMember.has_permission(2) -> endpoint:GET /api/articles",
        "shop/auth.BaseMember.has_permission(2) -> endpoint:GET /api/articles/{}",
        "shop/auth.TokenAuth.authenticate(1) -> endpoint:* /ping",
        "shop/auth.BaseMember.has_permission(2) -> endpoint:* /ping",
        # its own permission_classes: authentication only (same for the decorator on a function view,
        # and for a class inheriting the attribute from its repository base)
        "shop/auth.TokenAuth.authenticate(1) -> endpoint:GET /open",
        "shop/auth.TokenAuth.authenticate(1) -> endpoint:* /open-ping",
        "shop/auth.TokenAuth.authenticate(1) -> endpoint:POST /locked",
        # its own authentication_classes: the default permission only
        "shop/auth.BaseMember.has_permission(2) -> endpoint:GET /own",
    ])
    # never: has_object_permission (only get_object() runs it), the library's SessionAuthentication,
    # the plain Django function and class views (/plain, /page), the class that is not a default
    assert not any("has_object_permission" in e or "OtherAuth" in e or "/plain" in e or "/page" in e
                   for e in wraps)


def _extract(fixture: str):
    out = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        out.append((extractor_for_path(path).extract(path, data), str(hash(source)), len(data)))
    return out


def test_a_view_setting_its_own_classes_or_a_changed_setting_relinks_like_a_fresh_resolve():
    live = RepositoryResolver("t")
    live.update(_extract(APP))
    paths = sorted(live.files)
    before = edges(live.resolve(paths), "WRAPS")
    # the viewset now sets its own permission classes: only the authentication default stays
    changed = APP.replace("class ArticleViewSet(viewsets.ReadOnlyModelViewSet):\n    pass",
                          "class ArticleViewSet(viewsets.ReadOnlyModelViewSet):\n    permission_classes = ()")
    live.update([x for x in _extract(changed) if x[0].path == "shop/views.py"])
    after = edges(live.resolve(paths), "WRAPS")
    assert after == edges(resolve_repository("t", _extract(changed)), "WRAPS")
    assert sorted(set(before) - set(after)) == [
        "shop/auth.BaseMember.has_permission(2) -> endpoint:GET /api/articles",
        "shop/auth.BaseMember.has_permission(2) -> endpoint:GET /api/articles/{}",
    ]
    # the setting names another permission class: it wraps instead
    moved = changed.replace('["shop.auth.IsMember"]', '["shop.auth.TokenAuth"]')
    live.update([x for x in _extract(moved) if x[0].path == "shop/settings.py"])
    assert edges(live.resolve(paths), "WRAPS") == edges(resolve_repository("t", _extract(moved)), "WRAPS") == sorted(
        [e for e in after if "has_permission" not in e])  # TokenAuth has no has_permission: nothing


def test_the_setting_as_the_module_leaves_it_names_the_default_classes():
    """A later ``REST_FRAMEWORK = ...`` replaces an earlier one (its classes guard nothing), a splat of
    the earlier dict keeps the keys the new one does not set, a non-literal value leaves none known,
    and a path listed twice (or 20,000 times) is one Wrapper."""
    replaced = EXTRACTOR.extract("s.py", b'REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["a.Old"],\n'
                                         b'  "DEFAULT_AUTHENTICATION_CLASSES": ["a.Auth"]}\n'
                                         b'REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_PERMISSION_CLASSES": ["a.New", "a.New"]}\n')
    assert replaced.wrappers == [
        Wrapper(DRF_PERMISSION, "guard", None, 3, 67, owner_ref="a.New"),
        Wrapper(DRF_AUTHENTICATION, "guard", None, 2, 37, owner_ref="a.Auth"),
    ]
    fresh = EXTRACTOR.extract("s.py", b'REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["a.Old"]}\n'
                                      b'REST_FRAMEWORK = {"DEFAULT_AUTHENTICATION_CLASSES": ["a.Auth"]}\n')
    assert fresh.wrappers == [Wrapper(DRF_AUTHENTICATION, "guard", None, 2, 53, owner_ref="a.Auth")]
    unknown = EXTRACTOR.extract("s.py", b'REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["a.Old"]}\n'
                                        b'REST_FRAMEWORK = dict(DEFAULT_PERMISSION_CLASSES=["a.B"])\n')
    assert unknown.wrappers == []
    not_a_list = EXTRACTOR.extract("s.py", b'REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["a.Old"]}\n'
                                           b'REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_PERMISSION_CLASSES": "a.B"}\n')
    assert not_a_list.wrappers == []
    huge = EXTRACTOR.extract("s.py", ('REST_FRAMEWORK = {"DEFAULT_AUTHENTICATION_CLASSES": ['
                                      + '"a.Auth", ' * 20_000 + ']}\n').encode())
    assert huge.wrappers == [Wrapper(DRF_AUTHENTICATION, "guard", None, 1, 53, owner_ref="a.Auth")]
