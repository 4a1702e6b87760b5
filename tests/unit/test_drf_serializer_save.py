"""DRF ``serializer.save()`` calls the serializer class's ``create`` (built without an instance) or
``update`` (given one) (indexer/languages/python/frameworks/drf_serializers.py): exact ``inferred``
CALLS from the function calling ``save``, and what must not be linked."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

APP = """
# --- path: shop/__init__.py ---
# --- path: shop/serializers.py ---
from rest_framework import serializers


class ArticleSerializer(serializers.ModelSerializer):
    def create(self, validated_data):
        return None

    def update(self, instance, validated_data):
        return instance


class CommentSerializer(serializers.Serializer):
    def create(self, validated_data):
        return None


class TagSerializer(serializers.ModelSerializer):
    pass
# --- path: shop/views.py ---
from rest_framework import generics, viewsets
from rest_framework.views import APIView

from . import serializers
from .serializers import ArticleSerializer, CommentSerializer, TagSerializer


class Articles(viewsets.GenericViewSet):
    serializer_class = ArticleSerializer

    def create(self, request):
        serializer = self.serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        serializer.save()

    def update(self, request, pk):
        serializer = self.get_serializer(self.get_object(), data=request.data)
        serializer.save(editor=request.user)

    def perform_create(self, serializer):
        serializer.save(author=self.request.user)

    def perform_update(self, serializer):
        serializer.save()

    def helper(self, serializer):
        serializer.save()


class Comments(APIView):
    def post(self, request):
        serializer = CommentSerializer(data=request.data)
        serializer.save()

    def put(self, request):
        serializer = serializers.ArticleSerializer(instance=None, data=request.data)
        serializer.save()

    def patch(self, request):
        serializer = CommentSerializer(request.user, data=request.data)
        serializer.save()

    def delete(self, request):
        serializer = TagSerializer(data=request.data)
        serializer.save()
        serializer = ArticleSerializer(data=request.data)

    def later(self, request):
        form = make_form()
        form.save()

        def inner():
            serializer.save()
        serializer = ArticleSerializer(data=request.data)
"""


def test_save_reaches_create_or_update_of_the_serializer_it_was_built_from():
    calls = [e for e in edges(resolve_fixture(APP)) if "Serializer." in e]
    assert calls == sorted([
        # self.serializer_class(data=...): the view's class attribute, no instance -> create
        "shop/views.Articles.create(1) -> shop/serializers.ArticleSerializer.create(1) [inferred]",
        # self.get_serializer(instance, ...) -> the view's serializer_class, update
        "shop/views.Articles.update(2) -> shop/serializers.ArticleSerializer.update(2) [inferred]",
        # DRF's mixins hand perform_create / perform_update the view's serializer
        "shop/views.Articles.perform_create(1) -> shop/serializers.ArticleSerializer.create(1) [inferred]",
        "shop/views.Articles.perform_update(1) -> shop/serializers.ArticleSerializer.update(2) [inferred]",
        "shop/views.Comments.post(1) -> shop/serializers.CommentSerializer.create(1) [inferred]",
        # instance= given (as a keyword): update, through a module attribute
        "shop/views.Comments.put(1) -> shop/serializers.ArticleSerializer.update(2) [inferred]",
    ])
    # never: update of a serializer defining none (patch: CommentSerializer has no update); a class
    # defining neither (TagSerializer, in delete); an assignment after the save (delete, later); a
    # parameter of a method that is no perform_* (helper); a save in a nested function (inner)
    assert not any(e.startswith(("shop/views.Comments.patch", "shop/views.Comments.delete",
                                 "shop/views.Comments.later", "shop/views.Articles.helper")) for e in calls)


def test_a_file_that_imports_no_rest_framework_is_left_alone():
    plain = APP.replace("from rest_framework import generics, viewsets\nfrom rest_framework.views import APIView\n",
                        "from django.views import View as APIView\nfrom django import views as viewsets\n")
    assert [e for e in edges(resolve_fixture(plain)) if "Serializer." in e] == []


ROUTES = """
# --- path: api/__init__.py ---
# --- path: api/views.py ---
from rest_framework import generics, mixins, viewsets


class Me(generics.RetrieveUpdateAPIView):
    def update(self, request, *args, **kwargs):
        pass


class Tags(viewsets.ModelViewSet):
    def update(self, request, pk=None):
        pass


class Own(mixins.UpdateModelMixin, viewsets.GenericViewSet):
    def update(self, request, pk=None):
        pass

    def partial_update(self, request, pk=None):
        pass


class Bare(viewsets.GenericViewSet):
    def update(self, request, pk=None):
        pass
# --- path: api/urls.py ---
from django.urls import include, path
from rest_framework.routers import SimpleRouter

from .views import Bare, Me, Own, Tags

router = SimpleRouter()
router.register("tags", Tags)
router.register("own", Own)
router.register("bare", Bare)

urlpatterns = [path("me/", Me.as_view()), path("", include(router.urls))]
"""


def test_a_patch_reaches_the_update_the_librarys_partial_update_calls_back():
    exposes = [e for e in edges(resolve_fixture(ROUTES), "EXPOSES") if "PATCH" in e or "PUT" in e]
    assert exposes == sorted([
        "api/views.Me.update(3) -> endpoint:PUT /me",
        "api/views.Me.update(3) -> endpoint:PATCH /me",  # the library's partial_update -> self.update
        "api/views.Tags.update(2) -> endpoint:PUT /tags/{}",
        "api/views.Tags.update(2) -> endpoint:PATCH /tags/{}",
        "api/views.Own.update(2) -> endpoint:PUT /own/{}",
        "api/views.Own.partial_update(2) -> endpoint:PATCH /own/{}",  # its own partial_update
        "api/views.Bare.update(2) -> endpoint:PUT /bare/{}",  # no mixin: no PATCH at all
    ])
