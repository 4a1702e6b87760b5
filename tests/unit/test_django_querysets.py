"""Django managers and querysets as values (indexer/resolve/values.QueryV, the Python module system's
hooks in indexer/languages/python/django_models.py): a queryset kept in a variable, refined by query
steps, iterated by a loop or a comprehension, or ended by a one-row call yields the model's instances;
a foreign key or one-to-one field read on an instance is the related model's instance. Calls on the
queryset itself stay the library's, and nothing unrelated is linked to a model."""

from __future__ import annotations

from indexer.languages.python.extractor import EXTRACTOR
from tests.resolution_harness import edges, resolve_fixture

MODELS = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from django.db import models


class ProfileManager(models.Manager["Profile"]):
    def for_user(self, user):
        return self.get(user=user)


class Profile(models.Model):
    name = models.CharField(max_length=10)
    objects = ProfileManager()

    def send_report(self):
        return 1


class Project(models.Model):
    name = models.CharField(max_length=10)

    def team_emails(self):
        return []


class Check(models.Model):
    project = models.ForeignKey(Project, models.CASCADE)

    def to_dict(self):
        return {}


class Flip(models.Model):
    owner = models.ForeignKey("Check", models.CASCADE)

    def to_dict(self):
        return {}


class Channel(models.Model):
    project = models.ForeignKey(Project, models.CASCADE, related_name="channels")
    checks = models.ManyToManyField(Check)
    hidden = models.ForeignKey(Check, models.CASCADE, related_name="+")

    def notify(self):
        pass
"""


def calls_of(fixture: str, prefix: str = "app/jobs.") -> list[str]:
    return [e for e in edges(resolve_fixture(MODELS + fixture)) if e.startswith(prefix)]


def test_a_queryset_in_a_variable_refined_and_ended_yields_the_model():
    assert calls_of("""
# --- path: app/jobs.py ---
from app.models import Profile, Check


def b():
    q = Profile.objects.filter(name="x")
    p = q.first()
    p.send_report()


def c():
    q = Profile.objects.filter(name="x")
    q = q.exclude(name="y").order_by("name")
    profile = q.last()
    profile.send_report()


def d():
    q = Check.objects.select_related("project").filter(id=1).order_by("-id")
    q.get(id=2).to_dict()
    q.all().distinct().latest("id").to_dict()
""") == [
        "app/jobs.b(0) -> app/models.Profile.send_report(0) [inferred]",
        "app/jobs.c(0) -> app/models.Profile.send_report(0) [inferred]",
        "app/jobs.d(0) -> app/models.Check.to_dict(0) [inferred]",
    ]


def test_iterating_a_queryset_in_a_loop_or_comprehension_yields_the_model():
    assert calls_of("""
# --- path: app/jobs.py ---
from app.models import Check, Flip


def i():
    q = Check.objects.filter(id=1)
    for check in q:
        check.to_dict()


def j():
    q = Check.objects.filter(id=1)
    return [c.to_dict() for c in q]


def k():
    return [c.to_dict() for c in Check.objects.filter(id=1)]


def m():
    flips = Flip.objects.filter(owner=1).order_by("-id")
    flips = flips.filter(id=2)
    return {f.id: f.to_dict() for f in flips}
""") == [
        "app/jobs.i(0) -> app/models.Check.to_dict(0) [inferred]",
        "app/jobs.j(0) -> app/models.Check.to_dict(0) [inferred]",
        "app/jobs.k(0) -> app/models.Check.to_dict(0) [inferred]",
        "app/jobs.m(0) -> app/models.Flip.to_dict(0) [inferred]",
    ]


def test_a_foreign_key_read_on_an_instance_is_the_related_model():
    assert calls_of("""
# --- path: app/jobs.py ---
from app.models import Check, Flip


def f(flip: Flip):
    check = flip.owner
    check.to_dict()
    flip.owner.project.team_emails()


def h():
    Flip.objects.get(id=1).owner.to_dict()
""") == [
        "app/jobs.f(1) -> app/models.Check.to_dict(0) [inferred]",
        "app/jobs.f(1) -> app/models.Project.team_emails(0) [inferred]",
        "app/jobs.h(0) -> app/models.Check.to_dict(0) [inferred]",
    ]


def test_a_custom_manager_keeps_its_own_methods_and_the_model():
    assert calls_of("""
# --- path: app/jobs.py ---
from app.models import Profile


def a(user):
    Profile.objects.for_user(user)
    Profile.objects.filter(name="x").first().send_report()
    for p in Profile.objects.all():
        p.send_report()
""") == [
        "app/jobs.a(1) -> app/models.Profile.send_report(0) [inferred]",
        "app/jobs.a(1) -> app/models.ProfileManager.for_user(1) [inferred]",
    ]


def test_unrelated_first_and_filter_calls_bind_to_no_model():
    # `.first()` / `.filter()` on objects that are no Django querysets, a class with `objects` that is
    # no model, a field read on the model class (the library's descriptor), a queryset's own
    # methods (the library's) and a method the model lacks: nothing links to a model
    assert calls_of("""
# --- path: app/jobs.py ---
from app.models import Check, Flip


class Registry:
    objects = None


class Rows:
    def first(self):
        return None


def n(rows, items: list[str], registry: Registry):
    r = rows.filter(x=1).first()
    r.to_dict()
    s = Rows().first()
    s.to_dict()
    for x in items:
        x.to_dict()
    t = Registry.objects.filter(id=1).first()
    t.send_report()
    Flip.owner.to_dict()
    q = Check.objects.filter(id=1)
    q.update(id=2)
    q.first().send_report()
    [c.send_report() for c in q]
""") == [  # `rows...first()`: an unknown receiver, matched by name as before
        "app/jobs.n(3) -> app/jobs.Rows [exact]",
        "app/jobs.n(3) -> app/jobs.Rows.first(0) [exact]",
        "app/jobs.n(3) -> app/jobs.Rows.first(0) [name]",
    ]


def test_a_queryset_of_a_model_of_another_library_is_left_alone():
    # a model whose base is no Django's (no file of it imports django): `objects` is no queryset value
    fixture = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from peewee import Model


class Entry(Model):
    def publish(self):
        pass
# --- path: app/jobs.py ---
from app.models import Entry


def p():
    q = Entry.objects.filter(id=1)
    q.first().publish()
    for e in q:
        e.publish()
"""
    # (`e.publish()` on an unknown receiver is still matched by name, as any such call)
    assert [e for e in edges(resolve_fixture(fixture)) if e.startswith("app/jobs.") and not e.endswith("[name]")] == []


def test_the_extractor_binds_loop_variables_chains_and_relation_fields():
    ex = EXTRACTOR.extract("app/m.py", b"""
from django.db import models

class Flip(models.Model):
    owner = models.ForeignKey("Check", models.CASCADE)

def f(q, items: list[int]):
    flips = Flip.objects.filter(owner=1).order_by("-id")
    for a in q:
        pass
    [b for b in flips.all()]
    for c in items:
        pass
    for d in q[1:]:
        pass
""")
    assert sorted((b.scope, b.name, b.type, b.how) for b in ex.bindings if b.name != "items") == [
        ("Flip", "owner", "'Check'", "related"),
        ("Flip", "owner", "models.ForeignKey", "constructed"),
        ("Flip", "~flip_set", "*'Check'", "reverse"),
        ("f", "a", "q", "element"),
        ("f", "b", "flips.all()", "element"),
        ("f", "c", "int", "declared"),
        ("f", "flips", "Flip.objects.filter().order_by", "constructed"),
    ]


def test_the_many_side_of_a_relation_is_a_queryset_of_the_model():
    assert calls_of("""
# --- path: app/jobs.py ---
from app.models import Channel, Check, Project


def r(project: Project, check: Check, channel: Channel):
    for c in project.check_set.all():
        c.to_dict()
    project.channels.filter(id=1).first().notify()
    for ch in check.channel_set.all():
        ch.notify()
    [k.to_dict() for k in channel.checks.all()]
    check.flip_set.last().to_dict()


def s(project: Project, check: Check):
    # a queryset's own methods are the library's; `related_name="+"` hides the accessor
    check.channel_set.notify()
    check.hidden.notify()
    project.check_set.to_dict()
    check.channel_set.filter(id=1).to_dict()
""") == [
        "app/jobs.r(3) -> app/models.Channel.notify(0) [inferred]",
        "app/jobs.r(3) -> app/models.Check.to_dict(0) [inferred]",
        "app/jobs.r(3) -> app/models.Flip.to_dict(0) [inferred]",
    ]


def test_a_querysets_rows_copied_into_a_list_stay_the_models():
    assert calls_of("""
# --- path: app/jobs.py ---
from app.models import Check, Flip


def t(limit):
    q = Check.objects.filter(id=1).order_by("-id")
    checks = list(q[:limit])
    [c.to_dict() for c in checks]
    for f in sorted(Flip.objects.all(), key=str):
        f.to_dict()


def u(rows):
    items = list(rows)
    items.append(1)
    [c.to_dict() for c in items]
""") == [
        "app/jobs.t(1) -> app/models.Check.to_dict(0) [inferred]",
        "app/jobs.t(1) -> app/models.Flip.to_dict(0) [inferred]",
    ]


AS_MANAGER = """
# --- path: app/__init__.py ---
# --- path: app/querysets.py ---
from django.db.models import QuerySet


class RestrictedQuerySet(QuerySet):
    def restrict(self, user, action="view"):
        if user is None:
            return self.none()
        return self


class Plain(dict):
    def restrict(self, user, action="view"):
        return self
# --- path: app/models.py ---
from django.db import models

from app.querysets import Plain, RestrictedQuerySet


class BaseModel(models.Model):
    objects = RestrictedQuerySet.as_manager()

    class Meta:
        abstract = True


class Site(BaseModel):
    def label(self):
        return ""


class Tag(models.Model):
    objects = Plain.as_manager()

    def label(self):
        return ""


class Note(models.Model):
    def label(self):
        return ""
# --- path: app/tables.py ---
class Table:
    def order_by(self, field):
        return field
# --- path: app/jobs.py ---
from app.models import Note, Site, Tag


def visible(user):
    Site.objects.restrict(user, "view")
    Site.objects.get(id=1).label()


def stepped(user):
    Site.objects.filter(id=1).restrict(user)


def chained(user):
    Site.objects.restrict(user).filter(id=1).order_by("name")


def others(user):
    Tag.objects.restrict(user)
    Note.objects.restrict(user)
"""


def test_a_manager_made_by_as_manager_on_an_abstract_base_has_the_queryset_class_methods():
    # NetBox's shape: `objects = RestrictedQuerySet.as_manager()` on the abstract BaseModel, called as
    # `Site.objects.restrict(...)` and after a query step. Negatives: `Plain.as_manager()` (no QuerySet)
    # and a model without such a manager (`Note.objects.restrict`: Django's manager has no `restrict`)
    # bind nothing to RestrictedQuerySet.restrict; what `restrict` returns (self, self.none(), ...) is a
    # library queryset, so `.order_by(...)` after it is not matched by name to Table.order_by
    assert [e for e in edges(resolve_fixture(AS_MANAGER)) if e.startswith("app/jobs.")] == [
        "app/jobs.chained(1) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
        "app/jobs.stepped(1) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
        "app/jobs.visible(1) -> app/models.Site.label(0) [inferred]",
        "app/jobs.visible(1) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
    ]


FROM_QUERYSET = """
# --- path: app/__init__.py ---
# --- path: app/querysets.py ---
from django.db.models import QuerySet


class TreeQuerySet(QuerySet):
    def ancestors(self, node):
        return self.filter(parent=node)


class Plain(dict):
    def ancestors(self, node):
        return node
# --- path: app/managers.py ---
from django.db import models

from app.querysets import Plain, TreeQuerySet


class TreeManager(models.Manager.from_queryset(TreeQuerySet)):
    def rebuild(self):
        return 1


# --- path: app/builders.py ---
from app.querysets import Plain


class Builder:
    @classmethod
    def from_queryset(cls, other):
        return cls


class PlainManager(Builder.from_queryset(Plain)):
    pass
# --- path: app/models.py ---
from django.db import models

from app.builders import PlainManager
from app.managers import TreeManager
from app.querysets import Plain, TreeQuerySet


class Region(models.Model):
    objects = TreeManager()

    def label(self):
        return ""


class Location(models.Model):
    objects = models.Manager.from_queryset(TreeQuerySet)()

    def label(self):
        return ""


class Tag:
    objects = PlainManager()


class Note(models.Model):
    objects = models.Manager.from_queryset(Plain)()
# --- path: app/jobs.py ---
from app.models import Location, Note, Region, Tag


def tree(node):
    Region.objects.ancestors(node)
    Region.objects.rebuild()



def flat(node):
    Location.objects.ancestors(node)
    Location.objects.get(id=1).label()


def others(node):
    Tag.objects.ancestors(node)
    Note.objects.ancestors(node)
"""


def test_a_manager_made_by_from_queryset_has_the_queryset_class_methods():
    # NetBox's `TreeManager(Manager.from_queryset(TreeQuerySet))` and Django's documented
    # `objects = Manager.from_queryset(Qs)()`, exact edges. Negatives: a `from_queryset` base in a file
    # not importing Django (some other library's method of that name) and `objects =
    # Manager.from_queryset(Plain)()` of a class that is no QuerySet bind nothing to Plain.ancestors
    assert [e for e in edges(resolve_fixture(FROM_QUERYSET)) if e.startswith("app/jobs.")] == [
        "app/jobs.flat(1) -> app/models.Location.label(0) [inferred]",
        "app/jobs.flat(1) -> app/querysets.TreeQuerySet.ancestors(1) [inferred]",
        "app/jobs.tree(1) -> app/managers.TreeManager.rebuild(0) [inferred]",
        "app/jobs.tree(1) -> app/querysets.TreeQuerySet.ancestors(1) [inferred]",
    ]


QUERYSET_METHODS = """
# --- path: app/__init__.py ---
# --- path: app/querysets.py ---
from django.db.models import QuerySet


class RestrictedQuerySet(QuerySet):
    def restrict(self, user, action="view"):
        if user is None:
            return self.none()
        return self


class ChangeQuerySet(RestrictedQuerySet):
    def valid_models(self):
        ids = set()
        return self.filter(type_id__in=ids)

    def recent(self):
        return self.valid_models().order_by("-time")
# --- path: app/tables.py ---
class Table:
    def order_by(self, field):
        return field

    def restrict(self, user):
        return user
# --- path: app/models.py ---
from django.db import models

from app.querysets import ChangeQuerySet


class Change(models.Model):
    objects = ChangeQuerySet.as_manager()

    def label(self):
        return ""


class Note(models.Model):
    def label(self):
        return ""
# --- path: app/jobs.py ---
from app.models import Change, Note


def listed(user):
    Change.objects.valid_models().restrict(user, "view")


def newest(user):
    Change.objects.restrict(user).valid_models().first().label()


def steps():
    Change.objects.recent().restrict(None)


def counted(user):
    Change.objects.valid_models().count().restrict(user)
    Note.objects.valid_models().restrict(user)
"""


def test_a_queryset_classs_own_methods_return_querysets_of_the_receiver():
    # NetBox's `ObjectChange.objects.valid_models().restrict(request.user, "view")`: `valid_models`
    # returns `self.filter(...)`, a clone of its own class (Django's `QuerySet._chain`), so `restrict`
    # after it is RestrictedQuerySet's, and through the model's manager the rows stay Change's
    # (`.first().label()`). Negatives: `count()` is no query step (`restrict` after it is nobody's,
    # not Table.restrict by name); `Note` has Django's own manager, with no `valid_models`
    assert [e for e in edges(resolve_fixture(QUERYSET_METHODS)) if e.startswith(("app/jobs.", "app/querysets."))] == [
        "app/jobs.counted(1) -> app/querysets.ChangeQuerySet.valid_models(0) [inferred]",
        "app/jobs.listed(1) -> app/querysets.ChangeQuerySet.valid_models(0) [inferred]",
        "app/jobs.listed(1) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
        "app/jobs.newest(1) -> app/models.Change.label(0) [inferred]",
        "app/jobs.newest(1) -> app/querysets.ChangeQuerySet.valid_models(0) [inferred]",
        "app/jobs.newest(1) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
        "app/jobs.steps(0) -> app/querysets.ChangeQuerySet.recent(0) [inferred]",
        "app/jobs.steps(0) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
        "app/querysets.ChangeQuerySet.recent(0) -> app/querysets.ChangeQuerySet.valid_models(0) [exact]",
    ]


RELATED_MANAGERS = """
# --- path: app/__init__.py ---
# --- path: app/querysets.py ---
from django.db.models import QuerySet


class RestrictedQuerySet(QuerySet):
    def restrict(self, user, action="view"):
        return self


class CableQuerySet(QuerySet):
    def connected(self):
        return self.filter(status="connected")
# --- path: app/tables.py ---
class Table:
    def restrict(self, user):
        return user

    def connected(self):
        return self
# --- path: app/models.py ---
from django.db import models

from app.querysets import CableQuerySet, RestrictedQuerySet


class BaseModel(models.Model):
    objects = RestrictedQuerySet.as_manager()

    class Meta:
        abstract = True


class Site(BaseModel):
    def device_names(self, user):
        return [d.label() for d in self.devices.restrict(user)]

    def plain(self, user):
        self.notes.restrict(user)
        self.notes.filter(id=1).first().label()

    def links(self):
        self.cables.connected()
        return self.cables.restrict(None)


class Tag(BaseModel):
    def label(self):
        return ""


class Device(BaseModel):
    site = models.ForeignKey(Site, models.CASCADE, related_name="devices")
    tags = models.ManyToManyField(Tag, related_name="devices")

    def label(self):
        return ""

    def ports(self, user):
        self.interface_set.restrict(user).first().label()
        self.tags.restrict(user)


class Interface(BaseModel):
    device = models.ForeignKey(Device, models.CASCADE)

    def label(self):
        return ""


class Note(models.Model):
    site = models.ForeignKey(Site, models.CASCADE, related_name="notes")

    def label(self):
        return ""


class Cable(models.Model):
    site = models.ForeignKey(Site, models.CASCADE, related_name="cables")
    objects = CableQuerySet.as_manager()
# --- path: app/jobs.py ---
from app.models import Device, Tag


def tagged(tag: Tag, user):
    tag.devices.restrict(user).first().label()


def unrelated(t, user):
    t.restrict(user)
"""


def test_a_related_manager_has_the_related_models_default_manager_methods():
    # Django builds a related manager (`site.devices`, `device.interface_set`, either side of a
    # many-to-many field) from the related model's default manager class, so `self.devices.restrict(u)`
    # in a model method is NetBox's `RestrictedQuerySet.restrict` and its rows stay the related model's.
    # Negatives: `self.notes` (Note has Django's own manager) binds `restrict` to nobody, not to
    # Table.restrict by name; `self.cables` has CableQuerySet's `connected`, not Table.connected, and no
    # `restrict` (Cable's manager is not RestrictedQuerySet's); `t.restrict` of an unknown `t` stays unlinked
    # to the queryset
    assert [e for e in edges(resolve_fixture(RELATED_MANAGERS)) if e.startswith(("app/jobs.", "app/models."))] == [
        "app/jobs.tagged(2) -> app/models.Device.label(0) [inferred]",
        "app/jobs.tagged(2) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
        "app/models.Device.ports(1) -> app/models.Interface.label(0) [inferred]",
        "app/models.Device.ports(1) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
        "app/models.Site.device_names(1) -> app/models.Device.label(0) [inferred]",
        "app/models.Site.device_names(1) -> app/querysets.RestrictedQuerySet.restrict(2) [inferred]",
        "app/models.Site.links(0) -> app/querysets.CableQuerySet.connected(0) [inferred]",
        "app/models.Site.plain(1) -> app/models.Note.label(0) [inferred]",
    ]


UNKNOWN_OWNERS = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from django.db import models


class TokenManager(models.Manager["Token"]):
    def create(self, *, app, name=""):
        return self.model(app=app, name=name)


class App(models.Model):
    pass


class Token(models.Model):
    app = models.ForeignKey(App, models.CASCADE, related_name="tokens")
    objects = TokenManager()


class Order(models.Model):
    pass


class Discount(models.Model):
    order = models.ForeignKey(Order, models.CASCADE, related_name="discounts")


class Line(models.Model):
    order = models.ForeignKey(Order, models.CASCADE, related_name="lines")
    objects = TokenManager()
# --- path: app/lines.py ---
class Lines:
    def append_all(self, items):
        return items
# --- path: app/fixtures.py ---
def discounted(order):
    order.discounts.create(value=1)
    order.discounts.create(name="x")


def tokens(app):
    app.tokens.create(name="Default")


def lines(order, doc):
    order.lines.create(name="x")
    doc.discounts.append_all([])
"""


def test_a_name_match_on_a_related_manager_skips_another_models_manager_method():
    # saleor's shape: `order.discounts.create(...)` on an unknown `order`, where the only repository
    # `create` is TokenManager.create (Token's manager): `discounts` is the related manager of Discount,
    # whose manager is Django's, so the name match is dropped (it stays unresolved). Kept: `app.tokens`
    # and `order.lines` (Token's and Line's managers are TokenManager), and a name match of a method
    # that is no manager's (`doc.discounts.append_all`)
    assert [e for e in edges(resolve_fixture(UNKNOWN_OWNERS)) if e.startswith("app/fixtures.")] == [
        "app/fixtures.lines(2) -> app/lines.Lines.append_all(1) [name]",
        "app/fixtures.lines(2) -> app/models.TokenManager.create(2) [name]",
        "app/fixtures.tokens(1) -> app/models.TokenManager.create(2) [name]",
    ]


MANAGER_ALIASES = """
# --- path: app/__init__.py ---
# --- path: app/managers.py ---
from django.db import models


class VariantQuerySet(models.QuerySet):
    def annotate_quantities(self):
        return self.annotate(n=1)


class Plain:
    def annotate_quantities(self):
        return self


VariantManager = models.Manager.from_queryset(VariantQuerySet)
PlainManager = models.Manager.from_queryset(Plain)
# --- path: app/models.py ---
from django.db import models

from app import managers
from app.managers import VariantManager

StockManager = models.Manager.from_queryset(managers.VariantQuerySet)


class Product(models.Model):
    pass


class Variant(models.Model):
    product = models.ForeignKey(Product, models.CASCADE, related_name="variants")
    objects = managers.VariantManager()

    def label(self):
        return ""


class Stock(models.Model):
    objects = StockManager()


class Imported(models.Model):
    objects = VariantManager()


class Note(models.Model):
    objects = managers.PlainManager()
# --- path: app/jobs.py ---
from app.models import Imported, Note, Product, Stock, Variant


def dotted():
    Variant.objects.annotate_quantities().first().label()


def related(product: Product):
    product.variants.annotate_quantities()


def same_module():
    Stock.objects.annotate_quantities()


def imported():
    Imported.objects.annotate_quantities()


def others():
    Note.objects.annotate_quantities()
"""


def test_a_manager_class_made_by_from_queryset_in_a_module_has_the_queryset_class_methods():
    # saleor's shape: `ProductVariantManager = models.Manager.from_queryset(ProductVariantQueryset)` at
    # module level, then `objects = managers.ProductVariantManager()` (a dotted name), `StockManager()`
    # (the same module) or an imported name; the related manager `product.variants` has it too.
    # Negative: a `from_queryset` of a class that is no QuerySet (`Plain`) gives Note nothing
    assert [e for e in edges(resolve_fixture(MANAGER_ALIASES)) if e.startswith("app/jobs.")] == [
        "app/jobs.dotted(0) -> app/managers.VariantQuerySet.annotate_quantities(0) [inferred]",
        "app/jobs.dotted(0) -> app/models.Variant.label(0) [inferred]",
        "app/jobs.imported(0) -> app/managers.VariantQuerySet.annotate_quantities(0) [inferred]",
        "app/jobs.related(1) -> app/managers.VariantQuerySet.annotate_quantities(0) [inferred]",
        "app/jobs.same_module(0) -> app/managers.VariantQuerySet.annotate_quantities(0) [inferred]",
    ]


STEP_OVERRIDES = """
# --- path: app/__init__.py ---
# --- path: app/querysets.py ---
from django.db import models


class SpecificMixin:
    def prefetch_related(self, *lookups, deep=False):
        clone = super().prefetch_related(*lookups)
        clone._deep = deep
        return clone

    def specific(self):
        return self


class StateQuerySet(SpecificMixin, models.QuerySet):
    def active(self):
        return self.filter(done=False)


StateManager = models.Manager.from_queryset(StateQuerySet)
# --- path: app/models.py ---
from django.db import models

from app.querysets import StateManager


class State(models.Model):
    objects = StateManager()

    def label(self):
        return ""
# --- path: app/tables.py ---
class Table:
    def active(self):
        return self
# --- path: app/jobs.py ---
from app.models import State


def chained():
    State.objects.filter(a=1).prefetch_related("x").active().first().label()


def counted():
    State.objects.prefetch_related("x").count().active()
"""


def test_an_override_of_a_query_step_keeps_the_models_queryset():
    # wagtail's `SpecificQuerySetMixin.prefetch_related` (returns `super()...`'s clone, unreadable here):
    # on `State.objects` it stays a queryset of State, so `.active()` after it is StateQuerySet's and
    # `.first()` a State. Negative: `count()` is no query step, `.active()` after it binds nothing
    assert [e for e in edges(resolve_fixture(STEP_OVERRIDES)) if e.startswith("app/jobs.")] == [
        "app/jobs.chained(0) -> app/models.State.label(0) [inferred]",
        "app/jobs.chained(0) -> app/querysets.SpecificMixin.prefetch_related(2) [inferred]",
        "app/jobs.chained(0) -> app/querysets.StateQuerySet.active(0) [inferred]",
        "app/jobs.counted(0) -> app/querysets.SpecificMixin.prefetch_related(2) [inferred]",
    ]
