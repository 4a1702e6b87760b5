"""A DRF router registration without ``basename=`` names its routes after the viewset's ``queryset`` model, as DRF's
``get_default_basename`` does (indexer/frameworks/route_names.py ``drf_basename``): ``reverse("api:note-list")``
links; a viewset inheriting its ``queryset`` from a repository base is named by it; one with no ``queryset`` has no
name.
"""

from __future__ import annotations

from tests.unit.test_route_names import _calls, _resolve

FIXTURE = """
# --- path: api/__init__.py ---
# --- path: api/models.py ---
class Note:
    pass

class Tag:
    pass
# --- path: api/views.py ---
from rest_framework import viewsets
from api import models


class NoteViewSet(viewsets.ModelViewSet):
    queryset = models.Note.objects.filter(public=True).order_by("-id")


class BaseTagViewSet(viewsets.ModelViewSet):
    queryset = models.Tag.objects.all()


class TagViewSet(BaseTagViewSet):
    pass


class LooseViewSet(viewsets.ViewSet):
    def list(self, request):
        return None
# --- path: api/urls.py ---
from django.urls import include, path
from rest_framework.routers import DefaultRouter
from api import views

app_name = "api"
router = DefaultRouter()
router.register(r"notes", views.NoteViewSet)
router.register(r"tags", views.TagViewSet)
router.register(r"loose", views.LooseViewSet)
router.register(r"named", views.NoteViewSet, basename="named")
urlpatterns = [path("", include(router.urls))]
# --- path: api/tests.py ---
from django.urls import reverse
from rest_framework.test import APITestCase


class T(APITestCase):
    def test_all(self):
        self.client.get(reverse("api:note-list"))
        self.client.delete(reverse("api:note-detail", args=[1]))
        self.client.get(reverse("api:tag-list"))
        self.client.get(reverse("api:named-list"))
        self.client.get(reverse("api:loose-list"))
        self.client.get(reverse("api:looseviewset-list"))
"""


def test_basename_from_the_queryset() -> None:
    calls = [(line, kind, target, props.get("route_name") or props.get("call"))
             for path, line, _, kind, target, props in _calls(_resolve(FIXTURE)) if path == "api/tests.py"]
    assert calls == [
        (7, "CALLS_HTTP", "endpoint:GET /notes", "api:note-list"),
        (8, "CALLS_HTTP", "endpoint:DELETE /notes/{}", "api:note-detail"),
        (9, "CALLS_HTTP", "endpoint:GET /tags", "api:tag-list"),  # the queryset of its base
        (10, "CALLS_HTTP", "endpoint:GET /named", "api:named-list"),  # basename= wins
        (11, "UNLINKED", "unlinked:route_name", 'GET reverse("api:loose-list")'),  # no queryset: no name
        (12, "UNLINKED", "unlinked:route_name", 'GET reverse("api:looseviewset-list")'),
    ]
