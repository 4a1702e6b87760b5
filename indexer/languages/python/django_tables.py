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

from indexer.languages.python.django_apps import app_configs, is_model, model_options, package_within

if TYPE_CHECKING:
    from indexer.model import TableDef
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup

__all__ = ["table_name", "containing_label", "library_model"]

library_model = is_model
"""The linker's ``library_model`` hook: whether a class is a Django model by its ancestry
(:func:`~indexer.languages.python.django_apps.is_model`)."""

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
