"""Django managers of other names than ``objects`` (indexer/languages/python/django_models.py
``class_query``, frameworks/orm_tables.py, the table linker): ``people = PersonManager()`` /
``members = Qs.as_manager()`` are queries of their model (their methods, one-row calls an instance,
chains reading and writing its table); ``_default_manager`` is ``Meta.default_manager_name`` or the
first declared manager; a model whose managers all have other names has no ``objects``. Exact edges,
and what must not be linked."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

FIXTURE = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from django.db import models
from taggit.managers import TaggableManager


class PersonManager(models.Manager):
    def adults(self):
        pass


class PersonQuerySet(models.QuerySet):
    def active(self):
        pass


class Person(models.Model):
    people = PersonManager()
    members = PersonQuerySet.as_manager()

    def greet(self):
        pass


class Shop(models.Model):
    everyone = models.Manager()
    staff = PersonManager()

    class Meta:
        default_manager_name = "everyone"


class Settings:
    cache = {}


def go():
    Person.people.adults()
    Person.members.active()
    Person._default_manager.adults()
    Person.people.get(pk=1).greet()
    Person.objects.adults()
    Shop._default_manager.adults()
    Person.people.create(name="x")
    Person.members.filter(age=3).update(age=4)
    Person.greet.filter()
    Settings.cache.get("k")


class TagsField(TaggableManager):
    pass


class Tagged(models.Model):
    labels = TagsField()
    tags = TaggableManager()

    def greet(self):
        pass


def tagged():
    Tagged.objects.get(pk=1).greet()
"""


def _rows(kinds: tuple[str, ...]) -> list[tuple[str, int, str]]:
    result = resolve_fixture(FIXTURE)
    return sorted((e.kind, e.line, e.dst.rpartition(":")[2]) for f in result.files for e in f.edges if e.kind in kinds)


def test_managers_of_other_names_are_queries_of_their_model():
    # 36 people, 37 members (as_manager), 38 _default_manager = people (declared first), 39 a row's
    # method; not 40 (no `objects`: every manager has another name) nor 41 (Shop's default is the
    # library's `everyone`, not `staff`); 61: taggit's
    # TaggableManager (and a repository class extending it) is a relation field, no manager: Tagged
    # keeps `objects`
    assert [r for r in _rows(("CALLS",)) if r[1] > 35] == [
        ("CALLS", 36, "app/models.PersonManager.adults(0)"),
        ("CALLS", 37, "app/models.PersonQuerySet.active(0)"),
        ("CALLS", 38, "app/models.PersonManager.adults(0)"),
        ("CALLS", 39, "app/models.Person.greet(0)"),
        ("CALLS", 53, "app/models.TagsField"),
        ("CALLS", 61, "app/models.Tagged.greet(0)"),
    ]


def test_chains_on_managers_of_other_names_read_and_write_the_model_table():
    # 39 get, 42 create, 43 filter + update; `Person.greet.filter()` (a method) and `Settings.cache.get`
    # (a dict of a plain class) are no managers; 38 / 40 / 41: chains on `objects` / `_default_manager`,
    # read as before
    assert _rows(("READS", "WRITES")) == [
        ("READS", 38, ".app_person"),
        ("READS", 39, ".app_person"),
        ("READS", 40, ".app_person"),
        ("READS", 41, ".app_shop"),
        ("READS", 43, ".app_person"),
        ("READS", 61, ".app_tagged"),
        ("WRITES", 42, ".app_person"),
        ("WRITES", 43, ".app_person"),
    ]


SPLIT = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from django.db import models


class PersonManager(models.Manager):
    def adults(self):
        pass


class Base(models.Model):
    people = PersonManager()

    class Meta:
        abstract = True


class Person(Base):
    pass
# --- path: app/views.py ---
from app.models import Person


def go():
    Person._default_manager.adults()
    Person.objects.adults()
"""


def test_editing_a_base_models_managers_rebinds_its_users_like_a_fresh_resolve():
    # Base declares `objects` before `people`: Person's default manager is then the library's
    # (`_default_manager.adults()` links nothing) and `objects` exists (a query, library methods)
    from indexer.languages import extractor_for_path
    from indexer.resolve.repository import RepositoryResolver, resolve_repository
    from tests.resolution_harness import edges, split_fixture

    def extract(fixture: str):
        return [(extractor_for_path(p).extract(p, s.encode()), str(hash(s)), len(s.encode()))
                for p, s in split_fixture(fixture).items()]

    live = RepositoryResolver("t")
    live.update(extract(SPLIT))
    paths = sorted(live.files)
    before = edges(live.resolve(paths))
    assert "app/views.go(0) -> app/models.PersonManager.adults(0) [inferred]" in before
    changed = SPLIT.replace("    people = PersonManager()\n", "    objects = models.Manager()\n    people = PersonManager()\n")
    changes = live.update([x for x in extract(changed) if x[0].path == "app/models.py"])
    assert "app/views.py" in live.dependents(changes)
    after = edges(live.resolve(paths))
    assert after == edges(resolve_repository("t", extract(changed)))
    assert sorted(set(before) - set(after)) == ["app/views.go(0) -> app/models.PersonManager.adults(0) [inferred]"]
