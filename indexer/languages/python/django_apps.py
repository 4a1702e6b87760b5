"""Django app labels, as the resolver reads them: which class a model reference
``"app_label.ModelName"`` names (``ForeignKey("wagtailimages.Image")``, ``AUTH_USER_MODEL =
"accounts.Member"``).

Django gives each installed app a label: its ``AppConfig``'s ``label`` when the config sets one,
else the last part of the app's dotted ``name`` (``django.apps.config.AppConfig.__init__``;
https://docs.djangoproject.com/en/5.2/ref/applications/#django.apps.AppConfig.label). A model
belongs to the app whose package holds its module, the innermost one when apps nest
(``django.apps.registry.Apps.get_containing_app_config``). So here:

* the repository's app configs with their own label are the classes setting ``label`` in their body
  to a string constant (``C.label``; one not literal text, an f-string, is an unknown label: the app
  keeps its package apart but answers to no label), found by
  :meth:`~indexer.resolve.language.Lookup.constant_files` as ``.label``, that extend the library's
  ``AppConfig`` in a file importing Django; each one's package is its literal ``name`` (its own, else
  the nearest repository ancestor's), else the package of the module declaring it
  (``wagtail/images/apps.py``: ``wagtail.images``);
* ``"L.M"`` names the classes ``M`` in the package of a config labelled ``L`` (a package matched on
  whole dotted parts of a module key, so a source-root prefix such as ``src.`` does not hide it)
  outside any package nested in it that has a config of its own (``wagtail`` labelled
  ``wagtailcore`` does not reach ``wagtail.images``'s models); when no config is labelled ``L``,
  Django's default: the classes ``M`` of a module whose key holds a package ``L`` that no config
  relabels (``wagtail.images`` labelled ``wagtailimages`` is not the app ``images``);
* a class whose ``Meta`` sets ``app_label`` (its own, the ``Meta`` it extends, an abstract base's:
  :func:`model_options`) is of that app only, and preferred;
* among those, a class of a module whose key has a part starting with ``models`` first, then path order;
  none when configs of two packages set one label (Django refuses to start: labels must be unique).

Configs of a library are not seen: a reference to an app label only a library sets stays unknown.
Reads go through :class:`~indexer.resolve.language.Lookup` (``("n", "python", "=.label")`` for the
configs, the ``=.name`` group of each config's file for its package, class names and ancestry), so
an edit of an ``apps.py`` re-resolves what a label lookup gave.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from indexer.model import base_type
from indexer.resolve.multimap import entries, every
from indexer.resolve.values import ClassV

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["LabelledApp", "app_configs", "app_model", "django_file", "extends_django", "imported_path", "is_model",
           "model_options", "package_within"]

_LABEL = "label"
_NAME = "name"
_CONFIG_BASE = ("AppConfig",)
_LIBRARIES = ("django", "rest_framework")
_DJANGO_MODELS = "django.db.models"
_DJANGO_MODEL = _DJANGO_MODELS + ".Model"
_MODELS_MODEL = ".models.Model"
_DJANGO, _DJANGO_APPS = "django.", "django.contrib."
"""Django's own models are those of its contrib apps (``django.forms.models`` holds forms)."""
_NOT_MODELS = ("Manager", "QuerySet", "Field", "Descriptor", "Lookup", "Transform", "Expression", "Index",
               "Constraint", "Form", "FormSet", "Metaclass")
"""Name endings of the classes of a library's ``models`` module that are no models (``BaseUserManager``)."""
_MODELS_MODULE = "models"
_OPTIONS = ("db_table", "app_label", "default_manager_name")
"""The ``Meta`` options read: a model's table name depends on the first two."""
_META = "Meta"
_ABSTRACT = "abstract"


class LabelledApp(NamedTuple):
    """An app of the repository whose ``AppConfig`` class sets its own label."""

    label: str | None
    """The app label (``wagtailimages``); ``None`` when the config computes it (``label = f"{X}images"``):
    the app is not its package's default label, and names no other either."""
    package: str
    """The app's dotted package (``wagtail.images``)."""


def app_model(r: Lookup, label: str, name: str) -> ClassV | None:
    """The class ``name`` of the app labelled ``label`` (module docstring): a :class:`ClassV` of the
    repository, ``None`` when no class matches. Memoised per (label, name) for the repository."""
    v = r.memoised((0, label, name, "django app model"), lambda: _app_model(r, label, name))
    return v if isinstance(v, ClassV) else None


def app_configs(r: Lookup) -> list[LabelledApp]:
    """The repository's app configs that set a ``label`` (module docstring), in path order, then source
    order; each read recorded. A label the extractor kept as a constant but not as literal text
    (an f-string, a name joined in) is ``None``: Django's label is not the default there either."""
    out: list[LabelledApp] = []
    for fc in r.constant_files("python", "." + _LABEL):
        for k in fc.ex.constants:
            owner, _, attr = k.qualname.rpartition(".")
            if attr != _LABEL or not owner:
                continue
            label = _literal(k.value.parts)
            cls = entries(fc.by_qualname, owner)
            if label == "" or not cls or not cls[-1].is_type or not extends_django(r, cls[-1], _CONFIG_BASE):
                continue
            out.append(LabelledApp(label, _package(r, cls[-1])))
    return out


def model_options(r: Lookup, c: Def) -> dict[str, str]:
    """The literal ``db_table`` / ``app_label`` / ``default_manager_name`` options of the model class ``c``, as Django reads its
    ``Meta`` (``ModelBase.__new__`` and ``Options.contribute_to_class``, Django 5.2): its own ``class
    Meta`` with what that inherits as a Python class (``class Meta(Base.Meta)``), else the ``Meta`` its
    class inherits, which only an abstract model (Django keeps its ``Meta``) or a class that is no
    model holds (a concrete model's ``Meta`` is consumed); ``{}`` when none is set. Reads recorded."""
    return _options(r, c, 0)


def _options(r: Lookup, c: Def, depth: int) -> dict[str, str]:
    if depth > 8:  # a cycle of Meta bases
        return {}
    if _meta_class(c, r) is not None:
        return _declared(r, c, depth)
    for b in r.mro(c)[1:]:
        if _meta_class(b, r) is not None and (_abstract(b, r) or not is_model(r, b)):
            return _declared(r, b, depth)
    return {}


def _declared(r: Lookup, c: Def, depth: int) -> dict[str, str]:
    """The options of ``c``'s own ``class Meta``: its literal ones over those of the ``Meta`` classes
    it extends (``class Meta(Base.Meta)``, in base order)."""
    if depth > 8:  # a cycle of Meta bases
        return {}
    meta = _meta_class(c, r)
    out: dict[str, str] = {}
    for text in reversed(meta.heads.bases if meta is not None else []):
        head, _, last = text.rpartition(".")
        if last != "Meta" or not head:
            continue
        v = r.resolve_expr(c.file, c.parent, head)
        if isinstance(v, ClassV) and v.c is not c:
            out.update(_declared(r, v.c, depth + 1) if _meta_class(v.c, r) is not None else _options(r, v.c, depth + 1))
    prefix = f"{c.qualname}.Meta."
    for option in _OPTIONS:
        r.use(("name", c.file.path, "=." + option))
    for k in c.file.ex.constants:
        if k.qualname.startswith(prefix) and k.qualname[len(prefix):] in _OPTIONS \
                and all(kind == "lit" for kind, _ in k.value.parts):
            out[k.qualname[len(prefix):]] = "".join(text for _, text in k.value.parts)
    return out


def _meta_class(c: Def, r: Lookup) -> Def | None:
    r.use(("name", c.file.path, _META))
    found = [m for m in entries(c.file.by_qualname, f"{c.qualname}.{_META}") if m.is_type]
    return found[-1] if found else None


def _abstract(c: Def, r: Lookup) -> bool:
    r.use(("name", c.file.path, _ABSTRACT))
    return any(t.framework == "django" and t.entity == c.qualname and t.kind == _ABSTRACT for t in c.file.ex.tables)


def imported_path(fc: FileCtx, text: str) -> str | None:
    """The dotted path the base text ``text`` names through an absolute import of ``fc``
    (``models.X`` after ``from taggit import models``: ``taggit.models.X``); ``None`` otherwise."""
    head, _, rest = text.partition(".")
    imps = entries(fc.imports, head) if head else ()
    if not imps or imps[-1].level:
        return None
    imp = imps[-1]
    path = f"{imp.module}.{imp.name}" if imp.name else imp.module
    return f"{path}.{rest}" if rest else path


def is_model(r: Lookup, c: Def) -> bool:
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
        for text in a.heads.bases:
            dotted = imported_path(a.file, base_type(text) or "")
            if dotted is None:
                continue
            if dotted == _DJANGO_MODEL or dotted.startswith(_DJANGO) and dotted.endswith(_MODELS_MODEL):
                return True  # Django's Model, as django.db.models or a module re-exporting it (GeoDjango's) has it
            if not a.external_base:
                continue
            module, _, name = dotted.rpartition(".")
            if module.rpartition(".")[2] == _MODELS_MODULE and not name.endswith(_NOT_MODELS) \
                    and (module.count(".") == 1 and not module.startswith(_DJANGO) or module.startswith(_DJANGO_APPS)) \
                    and not isinstance(r.resolve_expr(a.file, a.parent, base_type(text) or ""), ClassV):
                return True
    return False


def _app_model(r: Lookup, label: str, name: str) -> ClassV | None:
    classes = r.types_named("python", name)
    if not classes:
        return None
    configs = app_configs(r)
    packages = [c.package for c in configs]
    own = [c.package for c in configs if c.label == label]
    if len(set(own)) > 1:  # two apps of one label: Django refuses to start ("labels aren't unique"); no answer
        return None
    found: list[Def] = []
    declared: list[Def] = []
    for c in classes:
        explicit = model_options(r, c).get("app_label")
        if explicit is not None:  # `class Meta: app_label = "x"`: of app x, and no other
            if explicit == label:
                declared.append(c)
            continue
        key = c.file.module_key
        if own:
            if any(package_within(key, p) is not None and not _nested_app(key, p, packages) for p in own):
                found.append(c)
            continue
        parts = key.split(".")
        for i, part in enumerate(parts):
            # relabelled (`wagtail.images` is `wagtailimages`): not the app `label`
            if part == label and not any(package_within(".".join(parts[:i + 1]), p) == "" for p in packages):
                found.append(c)
                break
    in_models = [c for c in found if ".models" in f".{c.file.module_key}"]
    chosen = declared or in_models or found
    return ClassV(chosen[0]) if chosen else None


def package_within(key: str, package: str) -> str | None:
    """What follows the dotted ``package`` in the module key ``key`` (``""``: the package's own
    module, ``".models"``), matched on whole parts and after any prefix (``src.shop.models`` is
    within ``shop``); ``None`` when ``key`` is not in ``package``."""
    i = f".{key}.".find(f".{package}.")
    return None if i < 0 else key[i + len(package):]


def _nested_app(key: str, package: str, packages: list[str]) -> bool:
    """Whether ``key`` lies in another app's package nested inside ``package``."""
    return any(p != package and package_within(p, package) not in (None, "") and package_within(key, p) is not None
               for p in packages)


def extends_django(r: Lookup, cls: Def, names: tuple[str, ...]) -> bool:
    """Whether ``cls`` or an ancestor of it extends a library class whose name ends with one of
    ``names`` in a file importing Django (:func:`django_file`)."""
    for c in r.mro(cls):
        if c.external_base and django_file(c.file) and any(
                (base_type(b) or "").rpartition(".")[2].endswith(names) for b in c.heads.bases):
            return True
    return False


def django_file(fc: FileCtx) -> bool:
    """Whether ``fc`` imports from Django or Django REST framework."""
    return any(i.level == 0 and (i.module or "").split(".", 1)[0] in _LIBRARIES
               for i in every(fc.imports))


def _package(r: Lookup, cls: Def) -> str:
    """The dotted package of the app config ``cls``: the literal ``name`` it (or its nearest
    repository ancestor setting one) declares, else the package of its module."""
    for c in r.mro(cls):
        r.use(("name", c.file.path, "=." + _NAME))
        for k in c.file.ex.constants:
            if k.qualname == f"{c.qualname}.{_NAME}":
                value = _literal(k.value.parts)
                if value:
                    return value
    key = cls.file.module_key
    return key.rpartition(".")[0] or key


def _literal(parts: tuple[tuple[str, str], ...]) -> str | None:
    """The text of a string constant made only of literal pieces (``Template.parts``), else ``None``."""
    if not all(kind == "lit" for kind, _ in parts):
        return None
    return "".join(text for _, text in parts)
