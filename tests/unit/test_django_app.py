"""Django / DRF application code: ``request.user`` is the project's user model
(indexer/languages/python/django_models.py), one-to-one fields give reverse accessors
(frameworks/django_relations.py), DRF routers expose their viewsets' actions
(frameworks/drf_routers.py + indexer/frameworks/viewsets.py) and classes used as values are
references (frameworks/class_uses.py). Exact edges, and what must not be linked."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.resolve.repository import RepositoryResolver, resolve_repository
from tests.resolution_harness import edges, resolve_fixture, split_fixture

APP = """
# --- path: shop/__init__.py ---
# --- path: shop/settings.py ---
AUTH_USER_MODEL = "accounts.Member"
# --- path: accounts/__init__.py ---
# --- path: accounts/models.py ---
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models


class User(models.Model):
    def greet(self):
        pass


class Member(AbstractUser):
    def greet(self):
        pass
# --- path: django/__init__.py ---
# --- path: django/contrib/__init__.py ---
# --- path: django/contrib/auth/__init__.py ---
# --- path: django/contrib/auth/models.py ---
class User:
    def greet(self):
        pass
# --- path: profiles/__init__.py ---
# --- path: profiles/models.py ---
from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField("accounts.Member", on_delete=models.CASCADE)

    def follow(self, other):
        pass


class Badge(models.Model):
    owner = models.OneToOneField(settings.AUTH_USER_MODEL, related_name="badge", on_delete=models.CASCADE)

    def shine(self):
        pass


class Hidden(models.Model):
    owner = models.OneToOneField("accounts.Member", related_name="+", on_delete=models.CASCADE)

    def secret(self):
        pass


class Note(models.Model):
    author = models.ForeignKey("accounts.Member", related_name="note", on_delete=models.CASCADE)

    def pin(self):
        pass
# --- path: profiles/views.py ---
from django.contrib.auth import get_user_model
from rest_framework.views import APIView


User = get_user_model()


def follow_view(request, pk):
    request.user.profile.follow(pk)
    request.user.greet()
    request.user.badge.shine()
    request.user.hidden.secret()
    request.user.note.pin()


def lookup(pk):
    User.objects.get(pk=pk).greet()


class FollowView(APIView):
    def post(self, request):
        me = self.request.user.profile
        me.follow(1)
"""


def _calls_from(result, prefix: str) -> list[str]:
    return [e for e in edges(result) if e.startswith(prefix)]


def test_request_user_is_the_settings_user_model_with_its_reverse_one_to_one_accessors():
    result = resolve_fixture(APP)
    # the setting's Member, not the decoy accounts.User nor django's auth.User; related_name="+"
    # hides an accessor and a ForeignKey's reverse is a manager, not an instance: nothing
    assert _calls_from(result, "profiles/views.") == [
        "profiles/views.FollowView.post(1) -> profiles/models.Profile.follow(1) [inferred]",
        "profiles/views.follow_view(2) -> accounts/models.Member.greet(0) [inferred]",
        "profiles/views.follow_view(2) -> profiles/models.Badge.shine(0) [inferred]",
        "profiles/views.follow_view(2) -> profiles/models.Profile.follow(1) [inferred]",
        "profiles/views.lookup(1) -> accounts/models.Member.greet(0) [inferred]",
    ]


def test_without_the_setting_request_user_is_django_auth_user():
    result = resolve_fixture(APP.replace('AUTH_USER_MODEL = "accounts.Member"', 'DEBUG = True'))
    # Badge points at the (now default) user model; Profile's target is still accounts.Member, so an
    # auth.User has no `profile` (that call, like those through `hidden` and `note`, is left to the
    # name fallback)
    assert [e for e in _calls_from(result, "profiles/views.") if not e.endswith("[name]")] == [
        "profiles/views.follow_view(2) -> django/contrib/auth/models.User.greet(0) [inferred]",
        "profiles/views.follow_view(2) -> profiles/models.Badge.shine(0) [inferred]",
        "profiles/views.lookup(1) -> django/contrib/auth/models.User.greet(0) [inferred]",
    ]


def test_a_user_model_outside_the_repository_is_external_not_a_name_match():
    result = resolve_fixture("""
# --- path: shop/models.py ---
class Account:
    def deactivate(self):
        pass
# --- path: shop/views.py ---
from django.http import HttpRequest


def close(request: HttpRequest):
    request.user.deactivate()


def plain(request):
    request.user.deactivate()
""")
    # request.user is django.contrib.auth's User, a library class: no name match to Account
    assert _calls_from(result, "shop/views.") == []


def test_a_request_that_is_not_the_http_request_is_left_alone():
    result = resolve_fixture(APP + """
# --- path: profiles/other.py ---
from django.db import models


class Guest:
    def greet(self):
        pass


class Req:
    def __init__(self):
        self.user = Guest()


def build(pk):
    request = Req()
    request.user.greet()


def typed(request: Req):
    request.user.greet()


def serializer_like(self):
    request = self.context.get("request")
    request.user.greet()
# --- path: profiles/plain.py ---
def no_django(request):
    request.user.profile.follow(1)
""")
    # a local or a parameter typed as a class of the repository keeps its type; a serializer's
    # context request is the HTTP request
    assert _calls_from(result, "profiles/other.") == [
        "profiles/other.Req.__init__(0) -> profiles/other.Guest [exact]",
        "profiles/other.build(1) -> profiles/other.Guest.greet(0) [inferred]",
        "profiles/other.build(1) -> profiles/other.Req.__init__(0) [exact]",
        "profiles/other.serializer_like(1) -> accounts/models.Member.greet(0) [inferred]",
        "profiles/other.typed(1) -> profiles/other.Guest.greet(0) [inferred]",
    ]
    # a file importing neither Django nor DRF: request.user is not typed (only the name fallback)
    assert _calls_from(result, "profiles/plain.") == [
        "profiles/plain.no_django(1) -> profiles/models.Profile.follow(1) [name]",
    ]


def test_changing_the_setting_rebinds_like_a_fresh_resolve():
    extract = _extract
    live = RepositoryResolver("t")
    live.update(extract(APP))
    paths = sorted(live.files)
    before = edges(live.resolve(paths))
    changed = APP.replace('AUTH_USER_MODEL = "accounts.Member"', 'AUTH_USER_MODEL = "accounts.User"')
    live.update([x for x in extract(changed) if x[0].path == "shop/settings.py"])
    after = edges(live.resolve(paths))
    fresh = resolve_repository("t", extract(changed))
    assert after == edges(fresh) != before
    assert "profiles/views.follow_view(2) -> accounts/models.User.greet(0) [inferred]" in after


ROUTED = """
# --- path: api/__init__.py ---
# --- path: api/views.py ---
from rest_framework import mixins, viewsets, generics
from rest_framework.decorators import action


class ArticleViewSet(mixins.CreateModelMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                     viewsets.GenericViewSet):
    def create(self, request):
        pass

    def update(self, request, slug):
        pass

    @action(detail=True, methods=["post"], url_path="favorite")
    def favorite(self, request, pk=None):
        pass

    @favorite.mapping.delete
    def unfavorite(self, request, pk=None):
        pass

    @action(detail=False)
    def feed(self, request):
        pass

    def helper(self):
        pass


class TagViewSet(viewsets.ModelViewSet):
    def destroy(self, request, pk=None):
        pass


class ReadOnly(viewsets.ReadOnlyModelViewSet):
    pass


class Comments(generics.ListCreateAPIView):
    def create(self, request):
        pass


class Profile(generics.RetrieveAPIView):
    def get(self, request):
        pass
# --- path: api/urls.py ---
from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from .views import ArticleViewSet, Comments, Profile, ReadOnly, TagViewSet

router = DefaultRouter(trailing_slash=False)
router.register(r"articles", ArticleViewSet)
router.register(r"tags", TagViewSet, basename="tag")

other = SimpleRouter()
other.register("ro", ReadOnly)


def not_a_route(admin):
    admin.register("x", ArticleViewSet)


urlpatterns = [
    path("api/", include(router.urls)),
    path("api/comments/", Comments.as_view()),
    path("api/profile/", Profile.as_view()),
]
urlpatterns += other.urls
"""


def test_a_router_exposes_the_actions_each_viewset_has_under_its_include_prefix():
    result = resolve_fixture(ROUTED)
    assert edges(result, "EXPOSES") == sorted([
        # own create, list/retrieve from the mixins (the class), own update: PUT but no PATCH, no DELETE
        "api/views.ArticleViewSet -> endpoint:GET /api/articles",
        "api/views.ArticleViewSet.create(1) -> endpoint:POST /api/articles",
        "api/views.ArticleViewSet -> endpoint:GET /api/articles/{}",
        "api/views.ArticleViewSet.update(2) -> endpoint:PUT /api/articles/{}",
        "api/views.ArticleViewSet.favorite(2) -> endpoint:POST /api/articles/{}/favorite",
        "api/views.ArticleViewSet.unfavorite(2) -> endpoint:DELETE /api/articles/{}/favorite",
        "api/views.ArticleViewSet.feed(1) -> endpoint:GET /api/articles/feed",
        # ModelViewSet: all six, its own destroy
        "api/views.TagViewSet -> endpoint:GET /api/tags",
        "api/views.TagViewSet -> endpoint:POST /api/tags",
        "api/views.TagViewSet -> endpoint:GET /api/tags/{}",
        "api/views.TagViewSet -> endpoint:PUT /api/tags/{}",
        "api/views.TagViewSet -> endpoint:PATCH /api/tags/{}",
        "api/views.TagViewSet.destroy(2) -> endpoint:DELETE /api/tags/{}",
        # ReadOnlyModelViewSet on a router appended to urlpatterns: list and retrieve only
        "api/views.ReadOnly -> endpoint:GET /ro",
        "api/views.ReadOnly -> endpoint:GET /ro/{}",
        # generic views: the verbs their base answers, through the action method when defined
        "api/views.Comments -> endpoint:GET /api/comments",
        "api/views.Comments.create(1) -> endpoint:POST /api/comments",
        "api/views.Profile.get(1) -> endpoint:GET /api/profile",
    ])


def test_class_uses_as_values_are_references():
    result = resolve_fixture("""
# --- path: app/__init__.py ---
# --- path: app/models.py ---
class User:
    pass


MAX_USERS = 3
# --- path: app/views.py ---
import sqlalchemy as sa
from app import models
from app.models import MAX_USERS, User


class Meta:
    model = User


def find(session, x):
    u = User.objects.get(pk=1)
    isinstance(x, (User, int))
    session.scalar(sa.select(models.User))
    User()
    return MAX_USERS


class Admin(User):
    pass
""")
    assert edges(result, "USES_TYPE") == [
        "app/views.Meta -> app/models.User",
        "app/views.find(2) -> app/models.User",
    ]
    uses = sorted((e.line, e.col) for f in result.files for e in f.edges if e.kind == "USES_TYPE")
    # model = User; User.objects; isinstance's tuple; select(models.User); not User() nor the base list
    assert uses == [(7, 12), (11, 8), (12, 19), (13, 29)]  # 0-based columns, as every edge


def _extract(fixture: str):
    out = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        out.append((extractor_for_path(path).extract(path, data), str(hash(source)), len(data)))
    return out


def test_adding_destroy_to_a_viewset_adds_its_delete_route_like_a_fresh_resolve():
    live = RepositoryResolver("t")
    live.update(_extract(ROUTED))
    paths = sorted(live.files)
    before = edges(live.resolve(paths), "EXPOSES")
    assert not any("DELETE /api/articles/{}" in e and "favorite" not in e for e in before)
    changed = ROUTED.replace("    def helper(self):", "    def destroy(self, request, pk=None):\n        pass\n\n    def helper(self):")
    live.update([x for x in _extract(changed) if x[0].path == "api/views.py"])
    after = edges(live.resolve(paths), "EXPOSES")
    assert after == edges(resolve_repository("t", _extract(changed)), "EXPOSES")
    assert sorted(set(after) - set(before)) == ["api/views.ArticleViewSet.destroy(2) -> endpoint:DELETE /api/articles/{}"]
