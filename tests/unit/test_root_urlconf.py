"""A Django test's ``ROOT_URLCONF`` (``@override_settings`` of the class or method, ``with override_settings(...)`` /
``with self.settings(...)``, a base class's in the same module) chooses which root URLconf a ``reverse("name")`` inside it is built from
(indexer/languages/python/frameworks/url_names.py ``root_urlconf``, indexer/frameworks/route_names.py): a name two
root URLconfs include links to the chosen one's path; without one it stays ambiguous.
"""

from __future__ import annotations

from tests.unit.test_route_names import _calls, _resolve

FIXTURE = """
# --- path: root_a/__init__.py ---
# --- path: root_a/urls.py ---
from django.urls import include, path

urlpatterns = [path("a/", include("shared.urls"))]
# --- path: root_b/__init__.py ---
# --- path: root_b/urls.py ---
from django.urls import include, path

urlpatterns = [path("b/", include("shared.urls")), path("c/", include("shared.urls", namespace="cee"))]
# --- path: shared/__init__.py ---
# --- path: shared/views.py ---
def login(request):
    return None
# --- path: shared/urls.py ---
from django.urls import path
from shared import views

urlpatterns = [path("login/", views.login, name="login")]
# --- path: shared/tests.py ---
from django.test import TestCase, override_settings
from django.urls import reverse


@override_settings(ROOT_URLCONF="root_a.urls")
class A(TestCase):
    def test_class(self):
        self.client.get(reverse("login"))

    @override_settings(ROOT_URLCONF="root_b.urls")
    def test_method(self):
        self.client.get(reverse("cee:login"))
        self.client.get(reverse("login"))

    def test_with(self):
        with self.settings(ROOT_URLCONF="root_b.urls"):
            self.client.get(reverse("login"))
        with override_settings(ROOT_URLCONF="shared.urls"):
            self.client.get(reverse("login"))


class Plain(TestCase):
    def test_none(self):
        self.client.get(reverse("cee:login"))
        self.client.get(reverse("login"))

    @override_settings(ROOT_URLCONF="elsewhere.urls")
    def test_unknown(self):
        self.client.get(reverse("login"))


class Sub(A):
    def test_inherited(self):
        self.client.get(reverse("login"))


class SubSub(Sub, Plain):
    def test_inherited(self):
        self.client.get(reverse("login"))
# --- path: shared/base.py ---
from django.test import TestCase, override_settings


@override_settings(USE_TZ=True, ROOT_URLCONF="root_b.urls")
class BBaseTestCase(TestCase):
    pass
# --- path: shared/test_other.py ---
from django.urls import reverse
from shared.base import BBaseTestCase


class Other(BBaseTestCase):
    def test_base_of_another_module(self):
        self.client.get(reverse("login"))


class Mixed(Plain if False else BBaseTestCase):
    def test_not_a_name(self):
        self.client.get(reverse("login"))
"""


def test_root_urlconf_chooses_the_path() -> None:
    result = _resolve(FIXTURE)
    # a base class of another module (the linker reads its decorators through the resolved class's MRO)
    assert [(line, kind, target) for path, line, _, kind, target, _ in _calls(result) if path == "shared/test_other.py"] \
        == [(7, "CALLS_HTTP", "endpoint:* /b/login"), (12, "UNLINKED", "unlinked:route_name_ambiguous")]
    calls = [(line, caller.rpartition(".")[2], kind, target)
             for path, line, caller, kind, target, _ in _calls(result) if path == "shared/tests.py"]
    assert calls == [
        (8, "test_class(0)", "CALLS_HTTP", "endpoint:* /a/login"),  # the class's URLconf
        (12, "test_method(0)", "CALLS_HTTP", "endpoint:* /c/login"),
        (13, "test_method(0)", "CALLS_HTTP", "endpoint:* /b/login"),  # the method's, nearer than the class's
        (17, "test_with(0)", "CALLS_HTTP", "endpoint:* /b/login"),  # with self.settings(...)
        # shared.urls as the root would serve /login/, which no root URLconf of the repository serves: as without
        (19, "test_with(0)", "UNLINKED", "unlinked:route_name_ambiguous"),
        (24, "test_none(0)", "CALLS_HTTP", "endpoint:* /c/login"),  # one path: no URLconf needed
        (25, "test_none(0)", "UNLINKED", "unlinked:route_name_ambiguous"),  # /a/login or /b/login
        (29, "test_unknown(0)", "UNLINKED", "unlinked:route_name_ambiguous"),  # a URLconf the index does not hold
        (34, "test_inherited(0)", "CALLS_HTTP", "endpoint:* /a/login"),  # Sub(A): A's decorator, inherited
        (39, "test_inherited(0)", "CALLS_HTTP", "endpoint:* /a/login"),  # through Sub, its first base
    ]
