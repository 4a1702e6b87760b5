"""Django app labels (indexer/languages/python/django_apps.py): ``ForeignKey("wagtailimages.Image")``
names the model ``Image`` of the app whose ``AppConfig`` sets ``label = "wagtailimages"`` (its
package from the config's ``name``), a nested app with its own config is not the outer app's, and a
package an ``AppConfig`` relabels no longer answers to its default label. An edit of ``apps.py``
re-resolves what the label gave. Exact edges, and what must not be linked."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.resolve.repository import RepositoryResolver, resolve_repository
from tests.resolution_harness import edges, resolve_fixture, split_fixture

APPS = """
# --- path: cms/__init__.py ---
# --- path: cms/apps.py ---
from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "cms"
    label = "cmscore"
# --- path: cms/models.py ---
from django.db import models


class Page(models.Model):
    def render(self):
        pass


class Image(models.Model):
    def get_rendition(self, spec):
        pass
# --- path: cms/images/__init__.py ---
# --- path: cms/images/apps.py ---
from django.apps import AppConfig


class CmsImagesAppConfig(AppConfig):
    name = "cms.images"
    label = "cmsimages"
# --- path: cms/images/models.py ---
from django.db import models


class Image(models.Model):
    def get_rendition(self, spec):
        pass
# --- path: gallery/__init__.py ---
# --- path: gallery/images/__init__.py ---
# --- path: gallery/images/models.py ---
from django.db import models


class Image(models.Model):
    def get_rendition(self, spec):
        pass
# --- path: other/__init__.py ---
# --- path: other/apps.py ---
class NotAConfig:
    name = "gallery.images"
    label = "pictures"
# --- path: blog/__init__.py ---
# --- path: blog/models.py ---
from django.db import models


class EventPage(models.Model):
    feed_image = models.ForeignKey("cmsimages.Image", models.SET_NULL)
    core_image = models.ForeignKey("cmscore.Image", models.SET_NULL)
    plain_image = models.ForeignKey("images.Image", models.SET_NULL)
    parent = models.ForeignKey("cmscore.Page", models.CASCADE)
    lost = models.ForeignKey("pictures.Image", models.SET_NULL)
# --- path: blog/views.py ---
from blog.models import EventPage


def feed(page: EventPage):
    page.feed_image.get_rendition("max-100x100")


def core(page: EventPage):
    page.core_image.get_rendition("max-100x100")


def plain(page: EventPage):
    page.plain_image.get_rendition("max-100x100")


def parent(page: EventPage):
    page.parent.render()


def lost(page: EventPage):
    page.lost.get_rendition("max-100x100")
"""


def _calls_from(result, prefix: str) -> list[str]:
    return [e for e in edges(result) if e.startswith(prefix)]


def _extract(fixture: str):
    out = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        out.append((extractor_for_path(path).extract(path, data), str(hash(source)), len(data)))
    return out


FULL = [
    "blog/views.core(1) -> cms/models.Image.get_rendition(1) [inferred]",
    "blog/views.feed(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
    "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
    "blog/views.plain(1) -> gallery/images/models.Image.get_rendition(1) [inferred]",
]


def test_a_model_reference_names_the_app_its_config_labels():
    # cmsimages: cms.images's config label, not cms's nor gallery's Image; cmscore: cms's, whose
    # models do not include the nested app cms.images's; "images" is the default label of
    # gallery.images only (cms.images is relabelled); "pictures" is set by a class that is no
    # AppConfig: no app, no link for `lost`
    assert _calls_from(resolve_fixture(APPS), "blog/views.") == FULL


def test_a_label_of_a_class_that_is_no_app_config_is_not_used():
    # cms.images relabelled "pictures" too: `lost` is its Image, never gallery's (NotAConfig's name)
    calls = _calls_from(resolve_fixture(APPS.replace('label = "cmsimages"', 'label = "pictures"')), "blog/views.")
    assert calls == [
        "blog/views.core(1) -> cms/models.Image.get_rendition(1) [inferred]",
        "blog/views.lost(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
        "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
        "blog/views.plain(1) -> gallery/images/models.Image.get_rendition(1) [inferred]",
    ]


def test_without_the_config_its_label_names_nothing_and_the_default_label_returns():
    # no cms/images config: "cmsimages" is no app's label (feed links nothing); cms.images is part of
    # cms again (core: its models module first in path order) and answers to "images" by default
    without = APPS.replace("""class CmsImagesAppConfig(AppConfig):
    name = "cms.images"
    label = "cmsimages"
""", "")
    assert _calls_from(resolve_fixture(without), "blog/views.") == [
        "blog/views.core(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
        "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
        "blog/views.plain(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
    ]


def test_a_config_without_name_labels_its_own_package():
    assert _calls_from(resolve_fixture(APPS.replace('    name = "cms.images"\n', "")), "blog/views.") == FULL


def _edit_config(old: str, new: str) -> list[str]:
    """Resolve APPS, edit cms/images/apps.py, re-resolve incrementally; check that blog/views.py is
    a dependent and that the result equals a fresh resolve of the edited tree; its blog/views edges."""
    live = RepositoryResolver("t")
    live.update(_extract(APPS))
    paths = sorted(live.files)
    before = edges(live.resolve(paths))
    changed = APPS.replace(old, new)
    changes = live.update([x for x in _extract(changed) if x[0].path == "cms/images/apps.py"])
    assert "blog/views.py" in live.dependents(changes)
    after = edges(live.resolve(paths))
    assert after == edges(resolve_repository("t", _extract(changed))) != before
    return [e for e in after if e.startswith("blog/views.")]


def test_editing_the_config_label_rebinds_like_a_fresh_resolve():
    assert _edit_config('label = "cmsimages"', 'label = "pictures"') == [
        "blog/views.core(1) -> cms/models.Image.get_rendition(1) [inferred]",
        "blog/views.lost(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
        "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
        "blog/views.plain(1) -> gallery/images/models.Image.get_rendition(1) [inferred]",
    ]


def test_editing_the_config_name_rebinds_like_a_fresh_resolve():
    # cmsimages is now gallery.images (relabelled: not "images" any more); cms.images, no app of its
    # own, is part of cms and the default "images"
    assert _edit_config('name = "cms.images"', 'name = "gallery.images"') == [
        "blog/views.core(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
        "blog/views.feed(1) -> gallery/images/models.Image.get_rendition(1) [inferred]",
        "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
        "blog/views.plain(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
    ]
