"""Django's table names (indexer/languages/python/django_tables.py, the linker's ``table_name`` hook):
``<app_label>_<model>`` with the label of the app's ``AppConfig``, ``Meta.app_label`` and
``Meta.db_table`` read from the model's own ``Meta``, the ``Meta`` it extends (``class Meta(Base.Meta)``)
or the ``Meta`` an abstract base holds (not a concrete parent's), a models package nested in a
labelled app being an app of its own, migrations and many-to-many join tables named alike, a model
class without fields still a table. An edit of ``apps.py`` or of a base model's ``Meta`` renames the
tables like a fresh resolve. Exact edges, and what must not be declared."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.resolve.repository import RepositoryResolver, resolve_repository
from tests.resolution_harness import edges, resolve_fixture, split_fixture

APP = """
# --- path: cms/__init__.py ---
# --- path: cms/apps.py ---
from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "cms"
    label = "cmscore"
# --- path: cms/models.py ---
from django.db import models


class Page(models.Model):
    tags = models.ManyToManyField("Tag")
    links = models.ManyToManyField("Tag", db_table="page_links")


class Tag(models.Model):
    name = models.CharField(max_length=9)


class Shared(models.Model):
    class Meta:
        abstract = True
        app_label = "shared"


class Bare(Shared):
    pass


class Extended(Shared):
    title = models.CharField(max_length=9)

    class Meta(Shared.Meta):
        verbose_name = "extended"


class OwnMeta(Shared):
    title = models.CharField(max_length=9)

    class Meta:
        verbose_name = "own"


class Named(models.Model):
    class Meta:
        db_table = "named_tbl"


class SubNamed(Named):
    extra = models.CharField(max_length=9)


class PagePreview(Page):
    class Meta:
        proxy = True


class Form:
    title = "not a model"


def build():
    class Local(models.Model):
        class Meta:
            db_table = "local_tbl"


def touch():
    Page(title="x").save()
    PagePreview().save()
    Bare().save()
    Extended().save()
    OwnMeta().save()
    SubNamed().save()
    Form().save()
# --- path: cms/migrations/__init__.py ---
# --- path: cms/migrations/0001_initial.py ---
from django.db import migrations, models


class Migration(migrations.Migration):
    operations = [
        migrations.CreateModel(name="Page", fields=[("id", models.AutoField(primary_key=True))]),
        migrations.CreateModel(name="Named", fields=[], options={"db_table": "named_tbl"}),
        migrations.AddField(model_name="page", name="title", field=models.CharField(max_length=9)),
    ]
# --- path: cms/gallery/__init__.py ---
# --- path: cms/gallery/models/__init__.py ---
from django.db import models


class Picture(models.Model):
    pass
# --- path: cms/gallery/models/models.py ---
from django.db import models


class Frame(models.Model):
    pass
# --- path: cms/blocks.py ---
from django.db import models


class Block(models.Model):
    pass
"""

DECLARES = sorted([
    "cms/blocks.Block -> table:t:.cmscore_block",
    "cms/gallery/models/__init__.Picture -> table:t:.gallery_picture",
    "cms/gallery/models/models.Frame -> table:t:.gallery_frame",
    "cms/migrations/0001_initial.py -> table:t:.cmscore_page",
    "cms/migrations/0001_initial.py -> table:t:.named_tbl",
    "cms/models.Bare -> table:t:.shared_bare",
    "cms/models.build.Local -> table:t:.local_tbl",
    "cms/models.Extended -> table:t:.shared_extended",
    "cms/models.Named -> table:t:.named_tbl",
    "cms/models.OwnMeta -> table:t:.cmscore_ownmeta",
    "cms/models.Page -> table:t:.cmscore_page",
    "cms/models.SubNamed -> table:t:.cmscore_subnamed",
    "cms/models.Tag -> table:t:.cmscore_tag",
    "cms/models.py -> table:t:.cmscore_page_tags",
    "cms/models.py -> table:t:.page_links",
])


def test_tables_follow_the_app_label_and_the_meta_django_reads():
    # cmscore: the config's label (cms/blocks.py too: the app holds it); shared: Meta.app_label of an
    # abstract base, read by a model with no Meta (Bare) and one extending it (Extended), not by one
    # with a Meta of its own (OwnMeta); named_tbl: db_table, not inherited from a concrete parent
    # (SubNamed, whose save writes its parent's named_tbl too); cms.gallery holds its own models
    # package: its default label; the proxy and the plain class declare nothing; the migration and
    # the join table follow the label; a model a function defines keeps its own db_table
    result = resolve_fixture(APP)
    assert edges(result, "DECLARES") == DECLARES
    assert edges(result, "WRITES") == [
        "cms/models.touch(0) -> table:t:.cmscore_ownmeta",
        "cms/models.touch(0) -> table:t:.cmscore_page",
        "cms/models.touch(0) -> table:t:.cmscore_subnamed",
        "cms/models.touch(0) -> table:t:.named_tbl",
        "cms/models.touch(0) -> table:t:.shared_bare",
        "cms/models.touch(0) -> table:t:.shared_extended",
    ]


def test_without_a_config_the_default_label_is_the_package():
    result = resolve_fixture(APP.replace('    label = "cmscore"\n', ""))
    assert edges(result, "DECLARES") == sorted(e.replace("cmscore_", "cms_") for e in DECLARES)


def test_meta_app_label_of_the_model_itself_wins_over_the_config():
    fixture = APP.replace('class Tag(models.Model):\n    name = models.CharField(max_length=9)\n',
                          'class Tag(models.Model):\n    name = models.CharField(max_length=9)\n\n'
                          '    class Meta:\n        app_label = "labels"\n')
    assert "cms/models.Tag -> table:t:.labels_tag" in edges(resolve_fixture(fixture), "DECLARES")


def _extract(fixture: str):
    out = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        out.append((extractor_for_path(path).extract(path, data), str(hash(source)), len(data)))
    return out


def _edit(path: str, old: str, new: str) -> list[str]:
    """Resolve APP, edit ``path``, resolve again incrementally: the DECLARES edges, checked equal to
    a fresh resolve of the edited tree and different from before."""
    live = RepositoryResolver("t")
    live.update(_extract(APP))
    paths = sorted(live.files)
    before = edges(live.resolve(paths), "DECLARES")
    changed = APP.replace(old, new)
    live.update([x for x in _extract(changed) if x[0].path == path])
    after = edges(live.resolve(paths), "DECLARES")
    assert after == edges(resolve_repository("t", _extract(changed)), "DECLARES") != before
    return after


def test_editing_the_config_label_renames_the_tables_like_a_fresh_resolve():
    assert _edit("cms/apps.py", 'label = "cmscore"', 'label = "site"') == sorted(
        e.replace("cmscore_", "site_") for e in DECLARES)


def test_editing_the_abstract_base_meta_renames_its_children_like_a_fresh_resolve():
    assert _edit("cms/models.py", 'app_label = "shared"', 'db_table = "one_table"') == sorted([
        "cms/blocks.Block -> table:t:.cmscore_block",
        "cms/gallery/models/__init__.Picture -> table:t:.gallery_picture",
    "cms/gallery/models/models.Frame -> table:t:.gallery_frame",
        "cms/migrations/0001_initial.py -> table:t:.cmscore_page",
        "cms/migrations/0001_initial.py -> table:t:.named_tbl",
        "cms/models.Bare -> table:t:.one_table",
        "cms/models.build.Local -> table:t:.local_tbl",
        "cms/models.Extended -> table:t:.one_table",
        "cms/models.Named -> table:t:.named_tbl",
        "cms/models.OwnMeta -> table:t:.cmscore_ownmeta",
        "cms/models.Page -> table:t:.cmscore_page",
        "cms/models.SubNamed -> table:t:.cmscore_subnamed",
        "cms/models.Tag -> table:t:.cmscore_tag",
        "cms/models.py -> table:t:.cmscore_page_tags",
        "cms/models.py -> table:t:.page_links",
    ])


LIBRARY = """
# --- path: accounts/__init__.py ---
# --- path: accounts/models.py ---
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager
from django.db import models
from django.forms.models import ModelFormMetaclass
from ninja.params.models import BodyModel
from modelcluster.models import ClusterableModel
from pydantic import BaseModel


class User(AbstractBaseUser):
    email = models.EmailField()


class Advert(ClusterableModel):
    pass


class StaffUser(User):
    pass


class Settings(BaseModel):
    debug: bool = False


class Manager(models.Manager):
    pass


class Accounts(BaseUserManager):
    pass


class FormMeta(ModelFormMetaclass):
    pass


class Body(BodyModel):
    pass


class Profile(models.Model):
    pass


class Card(Profile):
    pass
# --- path: places/__init__.py ---
# --- path: places/models.py ---
from django.contrib.gis.db import models


class Named(models.Model):
    class Meta:
        abstract = True


class City(Named):
    pass
# --- path: accounts/types.py ---
import graphene
from django.db import models

from accounts.models import User


class BaseType(graphene.ObjectType):
    class Meta:
        abstract = True


class UserType(BaseType):
    class Meta:
        model = User
"""


def test_a_class_extending_a_library_model_is_a_table():
    # AbstractBaseUser, ClusterableModel: classes of a library's models module; StaffUser below one;
    # pydantic's BaseModel, django.db.models.Manager, auth's BaseUserManager and the forms' metaclass
    # (django.forms.models) are no models, nor django-ninja's BodyModel (ninja.params.models: no app);
    # Card(Profile): a repository model; City below an abstract GeoDjango model; UserType extends an abstract class that is no model (graphene's)
    assert edges(resolve_fixture(LIBRARY), "DECLARES") == [
        "accounts/models.Advert -> table:t:.accounts_advert",
        "accounts/models.Card -> table:t:.accounts_card",
        "accounts/models.Profile -> table:t:.accounts_profile",
        "accounts/models.StaffUser -> table:t:.accounts_staffuser",
        "accounts/models.User -> table:t:.accounts_user",
        "places/models.City -> table:t:.places_city",
    ]


REFERENCES = """
# --- path: shop/__init__.py ---
# --- path: shop/models.py ---
from django.db import models


class Image(models.Model):
    class Meta:
        app_label = "media"

    def render(self):
        pass


class Logo(models.Model):
    def render(self):
        pass
# --- path: media/__init__.py ---
# --- path: media/models.py ---
from django.db import models


class Logo(models.Model):
    def render(self):
        pass
# --- path: blog/__init__.py ---
# --- path: blog/models.py ---
from django.db import models


class Post(models.Model):
    image = models.ForeignKey("media.Image", models.SET_NULL)
    shop_image = models.ForeignKey("shop.Image", models.SET_NULL)
    logo = models.ForeignKey("media.Logo", models.SET_NULL)


def show(post: Post):
    post.image.render()
    post.shop_image.render()
    post.logo.render()
"""


def test_a_model_reference_reads_meta_app_label():
    # shop.models.Image says app_label = "media": "media.Image" is it, "shop.Image" nothing; "media.Logo"
    # is media's own Logo, never shop's
    assert [e for e in edges(resolve_fixture(REFERENCES)) if e.startswith("blog/models.show")] == [
        "blog/models.show(1) -> media/models.Logo.render(0) [inferred]",
        "blog/models.show(1) -> shop/models.Image.render(0) [inferred]",
    ]
    assert "shop/models.Image -> table:t:.media_image" in edges(resolve_fixture(REFERENCES), "DECLARES")


def test_editing_meta_app_label_rebinds_references_like_a_fresh_resolve():
    live = RepositoryResolver("t")
    live.update(_extract(REFERENCES))
    paths = sorted(live.files)
    before = edges(live.resolve(paths))
    changed = REFERENCES.replace('app_label = "media"', 'app_label = "other"')
    changes = live.update([x for x in _extract(changed) if x[0].path == "shop/models.py"])
    assert "blog/models.py" in live.dependents(changes)
    after = edges(live.resolve(paths))
    assert after == edges(resolve_repository("t", _extract(changed))) != before
    assert [e for e in after if e.startswith("blog/models.show")] == [
        "blog/models.show(1) -> media/models.Logo.render(0) [inferred]"]


INHERITANCE = """
# --- path: places/__init__.py ---
# --- path: places/models.py ---
from django.db import models


class Place(models.Model):
    name = models.CharField(max_length=9)
    tags = models.ManyToManyField("Tag")


class Tag(models.Model):
    label = models.CharField(max_length=9)


class Restaurant(Place):
    menu = models.CharField(max_length=9)


class Pizzeria(Restaurant):
    oven = models.CharField(max_length=9)


class PizzeriaView(Pizzeria):
    class Meta:
        proxy = True


class Stamped(models.Model):
    class Meta:
        abstract = True


class Note(Stamped):
    text = models.CharField(max_length=9)


def open_pizzeria():
    Pizzeria(name="x").save()


def open_view():
    PizzeriaView().save()


def count_restaurants():
    return Restaurant.objects.filter(menu="x").count()


def write_note():
    Note().save()


def rename_place():
    Place.objects.filter(name="a").update(name="b")


def rename(p: Pizzeria):
    p.name = "x"
    p.oven = "y"


def tag(r: Restaurant):
    r.tags.add(1)


class Branch(Restaurant):
    pass


def rename_branch(b: Branch):
    b.menu = "x"
"""


def test_a_multi_table_child_reaches_its_concrete_parents_tables():
    # Pizzeria writes its table, then Restaurant's and Place's (Django saves the parents' rows); a
    # proxy of it the same; a query of Restaurant reads Place's too; a child of an abstract model
    # and the root model reach their own table only; Pizzeria's attribute `name` is a column of
    # Place's table (and Branch's `menu`, a child with no column of its own, Restaurant's), and
    # Restaurant's `tags` Place's join table
    result = resolve_fixture(INHERITANCE)
    rows = sorted((e.kind, e.src.rpartition(".")[2], e.dst.rpartition(".")[2], e.props.get("inherited", ""))
                  for f in result.files for e in f.edges if e.kind in ("READS", "WRITES"))
    assert rows == [
        ("READS", "count_restaurants(0)", "places_place", "table:t:.places_restaurant"),
        ("READS", "count_restaurants(0)", "places_restaurant", ""),
        ("READS", "rename_place(0)", "places_place", ""),
        ("WRITES", "open_pizzeria(0)", "places_pizzeria", ""),
        ("WRITES", "open_pizzeria(0)", "places_place", "table:t:.places_pizzeria"),
        ("WRITES", "open_pizzeria(0)", "places_restaurant", "table:t:.places_pizzeria"),
        ("WRITES", "open_view(0)", "places_pizzeria", ""),
        ("WRITES", "open_view(0)", "places_place", "table:t:.places_pizzeria"),
        ("WRITES", "open_view(0)", "places_restaurant", "table:t:.places_pizzeria"),
        ("WRITES", "rename(1)", "places_pizzeria", ""),
        ("WRITES", "rename(1)", "places_place", ""),
        ("WRITES", "rename_branch(1)", "places_restaurant", ""),
        ("WRITES", "rename_place(0)", "places_place", ""),
        ("WRITES", "tag(1)", "places_place_tags", ""),
        ("WRITES", "write_note(0)", "places_note", ""),
    ]
    columns = {(e.src.rpartition(".")[2], e.dst.rpartition(".")[2]): e.props.get("columns")
               for f in result.files for e in f.edges if e.kind == "WRITES"}
    # an attribute of the parent's table is written there; the parent's many-to-many field's join table
    assert columns[("rename(1)", "places_pizzeria")] == ["oven"]
    assert columns[("rename(1)", "places_place")] == ["name"]


OWN_DJANGO = """
# --- path: django/__init__.py ---
# --- path: django/db/__init__.py ---
# --- path: django/db/models/__init__.py ---
class Model:
    pass
# --- path: shop/__init__.py ---
# --- path: shop/models.py ---
from django.db import models


class Rating(models.Model):
    class Meta:
        abstract = True


class Place(models.Model):
    pass


class Restaurant(Place, Rating):
    class Meta(Rating.Meta):
        db_table = "my_restaurant"


class ItalianRestaurant(Restaurant):
    pass
"""


def test_a_concrete_parents_meta_is_not_inherited_when_model_is_a_repository_class():
    # indexing Django itself: `models.Model` is a class of the repository; Restaurant is still a
    # concrete model, whose Meta (db_table) its child does not take (it takes Rating's, abstract)
    assert edges(resolve_fixture(OWN_DJANGO), "DECLARES") == [
        "shop/models.ItalianRestaurant -> table:t:.shop_italianrestaurant",
        "shop/models.Place -> table:t:.shop_place",
        "shop/models.Restaurant -> table:t:.my_restaurant",
    ]
