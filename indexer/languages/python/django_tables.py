"""Django's table names, as Django derives them (``django/db/models/base.py`` ``ModelBase.__new__``
and ``django/db/models/options.py`` ``Options.contribute_to_class``, Django 5.2):

* a model's options are its own ``class Meta``'s attributes, with those its ``Meta`` inherits as a
  Python class (``class Meta(Base.Meta)``); a model declaring no ``Meta`` takes the ``Meta`` its
  class inherits, which only an abstract model (Django keeps its ``Meta``, ``abstract`` reset) or a
  class that is no model holds: a concrete model's ``Meta`` is consumed, not inherited;
* its table is ``Meta.db_table``, else ``<app_label>_<model name lower-cased>``; its app label is
  ``Meta.app_label``, else the label of the app containing its module
  (``Apps.get_containing_app_config``): here the innermost repository ``AppConfig`` setting a
  literal ``label`` whose package holds the module
  (:func:`~indexer.languages.python.django_apps.app_configs`: ``wagtail.images`` is
  ``wagtailimages``), unless the package holding the module's ``models`` module or ``migrations``
  package lies deeper inside it (an app of its own, labelled by default); else Django's default label,
  the last part of that package (``shop/models/order.py`` and ``shop/migrations/0001_initial.py``:
  ``shop``);
* a migration's ``CreateModel`` / ``AddField`` names the table of its app's model the same way (no
  ``db_table`` option: ``<app_label>_<name>``);
* a ``ManyToManyField`` without ``db_table`` or ``through`` creates ``<model table>_<field>``
  (``ManyToManyField._get_m2m_db_table``).

Names are not truncated: ``truncate_name`` shortens them to the database's identifier length
(PostgreSQL 63, MySQL 64, Oracle 30; SQLite and the base backend none), which the code does not say.
Every read goes through :class:`~indexer.resolve.language.Lookup` (the configs' label and name
constants, class ancestry), so the linker's recorded declarations are redone when an ``apps.py`` or a
base model changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.python.django_apps import app_configs, django_file, imported_path, model_options, package_within
from indexer.model import base_type
from indexer.resolve.values import ClassV

if TYPE_CHECKING:
    from indexer.model import TableDef
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["table_name", "containing_label", "library_model"]

_DJANGO_MODELS = "django.db.models"
_DJANGO_MODEL = _DJANGO_MODELS + ".Model"
_MODELS_MODEL = ".models.Model"
_DJANGO, _DJANGO_APPS = "django.", "django.contrib."
"""Django's own models are those of its contrib apps (``django.forms.models`` holds forms)."""
_NOT_MODELS = ("Manager", "QuerySet", "Field", "Descriptor", "Lookup", "Transform", "Expression", "Index",
               "Constraint", "Form", "FormSet", "Metaclass")
"""Name endings of the classes of a library's ``models`` module that are no models (``BaseUserManager``)."""
_APP_MODULES = ("models", "migrations")
"""Module or package names whose holder is an app (Django imports ``<app>.models``; ``makemigrations``
writes ``<app>/migrations``)."""


def table_name(r: Lookup, fc: FileCtx, td: TableDef) -> str | None:
    """The table Django gives the definition ``td`` of ``fc`` whose name follows its rule
    (``td.model`` set: a model class, a migration's model, a many-to-many field's join table), as the
    module docstring says; ``None`` for any other definition, or when no app label is known (a model
    at the repository root: ``td.name`` stands)."""
    if td.model is None:
        return None
    if td.framework == "django-m2m":
        model_qualname, _, field = (td.entity or "").rpartition(".")
        for m in fc.ex.tables:
            if m.framework == "django" and m.entity == model_qualname:
                return f"{table_name(r, fc, m) or m.name}_{field}"
        return None
    if td.framework == "django-migration":
        label = containing_label(r, fc)
        return f"{label}_{td.model.lower()}" if label else None
    if td.framework != "django" or td.entity is None:
        return None
    rd = fc.def_at(td.entity, td.line)
    if rd is None:
        return None
    options = model_options(r, rd)
    if "db_table" in options:
        return options["db_table"]
    label = options.get("app_label") or containing_label(r, fc)
    return f"{label}_{td.model.lower()}" if label else None


def library_model(r: Lookup, c: Def) -> bool:
    """Whether the class ``c`` is a Django model by its ancestry: it, or a repository ancestor, in a
    file importing Django, extends Django's ``Model`` as imported from ``django.db.models`` or a Django
    module re-exporting it (``django.contrib.gis.db.models``; a class of the repository when indexing
    Django itself), or a class of no repository module imported from a
    library's ``models`` module (``from django.contrib.auth.models import AbstractBaseUser``, ``from
    modelcluster.models import ClusterableModel``, ``from taggit.models import TaggedItemBase``:
    Django loads an app's models from ``<app>.models``, an installed library's app being its top
    package, so ``ninja.params.models`` is none; of Django's own, its contrib apps'), other
    than a class named as a manager, queryset, field or form is (:data:`_NOT_MODELS`:
    ``BaseUserManager``, ``django.forms.models.ModelFormMetaclass``). A class declaring ``Meta.abstract`` whose ancestry
    reaches no model (a graphene ``ObjectType`` base) is none."""
    for a in r.mro(c):
        if not django_file(a.file):
            continue
        for text in a.d.bases:
            dotted = imported_path(a.file, base_type(text) or "")
            if dotted is None:
                continue
            if dotted == _DJANGO_MODEL or dotted.startswith(_DJANGO) and dotted.endswith(_MODELS_MODEL):
                return True  # Django's Model, as django.db.models or a module re-exporting it (GeoDjango's) has it
            if not a.external_base:
                continue
            module, _, name = dotted.rpartition(".")
            if module.rpartition(".")[2] == _APP_MODULES[0] and not name.endswith(_NOT_MODELS) \
                    and (module.count(".") == 1 and not module.startswith(_DJANGO) or module.startswith(_DJANGO_APPS)) \
                    and not isinstance(r.resolve_expr(a.file, a.parent, base_type(text) or ""), ClassV):
                return True
    return False


def containing_label(r: Lookup, fc: FileCtx) -> str | None:
    """The label of the app containing the module of ``fc`` (module docstring): the innermost
    repository config setting a label whose package holds it, unless the package holding its
    ``models`` / ``migrations`` lies deeper; else that package's last name; ``None`` for a module at
    the repository root."""
    parts = fc.module_key.split(".")
    held = [i for i, p in enumerate(parts) if p in _APP_MODULES and (i == 0 or parts[i - 1] not in _APP_MODULES)]
    if held:
        parts = parts[:held[-1]]
    elif fc.path.rpartition("/")[2] != "__init__.py":
        parts = parts[:-1]  # a module's package (a package's own `__init__`: the package)
    package = ".".join(parts)
    best = None
    for app in app_configs(r):
        rest = package_within(package, app.package) if package else None
        if rest is None or (held and rest):
            continue  # not holding the module, or an app nested in it holds its models
        if best is None or len(app.package) > len(best.package):
            best = app
    if best is not None:
        return best.label
    return package.rpartition(".")[2] or None
