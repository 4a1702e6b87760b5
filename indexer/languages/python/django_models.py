"""Django's implicit types, as the resolver reads them: the user model behind ``request.user``, the
class ``get_user_model()`` returns, and the reverse accessor a one-to-one field gives its target.

* The user model: the module-level string constant ``AUTH_USER_MODEL = "app_label.Model"`` of the
  repository (the settings file nearest to the file asking, when several set it), read as the class
  ``Model`` of the app labelled ``app_label`` (:func:`indexer.languages.python.django_apps.app_model`:
  an ``AppConfig``'s ``label``, else Django's default, the app package's last name:
  ``conduit.apps.authentication`` is ``authentication``); without the
  setting, ``django.contrib.auth.models.User`` when the repository holds it (Django itself), else a
  library class (:data:`~indexer.resolve.values.EXTERNAL`).
* ``request.user`` is an instance of it where ``request`` is the request: a parameter named
  ``request`` without a type or typed with a request class (:data:`REQUEST_TYPES`) of the function
  (or of a function enclosing it), a local bound from a DRF serializer's ``self.context``; and
  ``self.request.user`` in a class whose ``request`` attribute comes from a library base (a
  class-based view, a DRF view or viewset). Only in files importing ``django`` or ``rest_framework``.
  A ``request`` bound to a class of the repository (``request = Req()``) is left alone.
* ``get_user_model()`` (imported from ``django.contrib.auth``) is the user model class.
* ``self.instance`` in a ``ModelForm`` or DRF ``ModelSerializer`` subclass (a library base of that
  name) is an instance of the model its nearest ``class Meta: model = M`` names, unless the class
  assigns ``instance`` itself.
* ``OneToOneField(Target, related_name="profile")`` in class ``Profile`` (the detector
  :mod:`indexer.languages.python.frameworks.django_models` records it as a ``reverse`` binding): an
  instance of ``Target`` (or a subclass) has attribute ``profile``, an instance of ``Profile``;
  without ``related_name`` the accessor is the class name in lower case. The target is written as a
  class expression, ``"self"``, ``"app_label.Model"``, ``"Model"`` (same app) or
  ``settings.AUTH_USER_MODEL``.

* ``M.objects`` (or ``_default_manager`` / ``_base_manager``) of a model ``M`` (a class whose
  ancestor extends Django's ``models.Model`` from outside the repository, in a file importing Django)
  that declares no such attribute itself is a :class:`~indexer.resolve.values.QueryV` of ``M``: its
  query steps (``filter``, ``exclude``, ``order_by``, ``all``...: :data:`QUERY_STEPS`) are queries of
  ``M`` again, its one-row calls (``get``, ``first``, ``last``, ``latest``, ``create``...:
  :data:`ONE_ROW`) an instance of ``M``, iterating it yields instances of ``M``, anything else is
  the library's.
* ``owner = models.ForeignKey(Check, ...)`` (or ``OneToOneField``) in model ``Flip`` (the detector
  records it as a ``related`` binding): ``flip.owner`` is an instance of ``Check``.

Every read goes through :class:`~indexer.resolve.language.Lookup`, so incremental updates redo what
depends on a changed setting, model or field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.python.django_apps import app_model, django_file, extends_django, imported_path, model_options
from indexer.model import base_type
from indexer.resolve.context import shared_parts
from indexer.resolve.multimap import entries
from indexer.resolve.values import EXTERNAL, ClassV, Def, FuncV, InstV, ModuleV, QueryV, Value

if TYPE_CHECKING:
    from indexer.model import Binding
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup

__all__ = ["REQUEST_TYPES", "QUERY_STEPS", "ONE_ROW", "class_query", "manager_bases", "framework_receiver", "model_reference",
           "opaque_return", "query_call", "query_member", "related_query", "related_value", "reverse_member",
           "unreached_manager_method", "user_model"]

REQUEST_TYPES = frozenset({"HttpRequest", "Request", "WSGIRequest", "ASGIRequest", "AuthenticatedHttpRequest"})
"""Annotations of a ``request`` parameter that mean Django's or DRF's request."""

QUERY_STEPS = frozenset({
    "all", "filter", "exclude", "order_by", "select_related", "prefetch_related", "annotate", "alias", "distinct",
    "using", "only", "defer", "reverse", "none", "complex_filter", "select_for_update", "extra", "union",
    "intersection", "difference", "get_queryset",
})
"""Methods of a Django manager or queryset that return a queryset of the same model."""

ONE_ROW = frozenset({"get", "first", "last", "earliest", "latest", "create"})
"""Methods of a Django manager or queryset that return one instance of its model (or ``None``)."""

_MANAGERS = frozenset({"objects", "_default_manager", "_base_manager"})
_MODEL_EDITORS = ("ModelForm", "ModelSerializer")  # library bases whose ``self.instance`` is ``Meta.model``
_MANY = "*"  # a relation to many (the detector's MANY): a queryset, not an instance
_SETTING = "AUTH_USER_MODEL"
_FALLBACK_MODULE = "django.contrib.auth.models"
_CONTEXT = "self.context"  # a DRF serializer's context: ``request = self.context.get("request")``


def user_model(r: Lookup, fc: FileCtx) -> Value:
    """The user model class for code of ``fc``: a :class:`ClassV` of the repository, ``EXTERNAL``
    (Django's own ``auth.User``, not in the repository) or ``None`` (a setting naming no class of it)."""
    files = r.constant_files("python", _SETTING)
    if files:
        best = max(shared_parts(fc.path, s.path) for s in files)
        for settings in files:
            if shared_parts(fc.path, settings.path) != best:
                continue
            r.use(("name", settings.path, _SETTING))
            value = _constant(settings, _SETTING)
            if value is not None and value.count(".") == 1:
                label, _, name = value.partition(".")
                return app_model(r, label, name) or None
    for c in r.types_named("python", "User"):
        if c.file.module_key == _FALLBACK_MODULE:
            return ClassV(c)
    return EXTERNAL


def model_reference(r: Lookup, model: Def, text: str) -> Value:
    """The class a relation field of ``model`` names by ``text``: a quoted string (``'self'``,
    ``'app_label.Model'``, ``'Model'``: of the model's own package, else the repository's only
    module-level class of that name) or an expression written in ``model``'s module
    (``User``, ``models.User``, ``settings.AUTH_USER_MODEL``)."""
    fc = model.file
    if text.startswith("'"):
        value = text.strip("'")
        if value == "self":
            return ClassV(model)
        label, _, name = value.rpartition(".")
        if label:
            return app_model(r, label, name)
        named = r.types_named("python", name)
        for c in named:  # the same app: the model's own package
            if c.file.module_key.rpartition(".")[0] == fc.module_key.rpartition(".")[0]:
                return ClassV(c)
        # SQLAlchemy's registry is the application's: `relationship("User")` names the one
        # module-level class so named (a class a test function defines is none)
        top = [c for c in named if c.qualname == name]
        return ClassV(top[0]) if len(top) == 1 else None
    if text.rpartition(".")[2] == _SETTING:
        return user_model(r, fc)
    v = r.resolve_expr(fc, None, text)
    return v if isinstance(v, ClassV) else None


def framework_receiver(r: Lookup, fc: FileCtx, scope: str | None, segments: list[str],
                       head: Value) -> tuple[Value, int] | None:
    """The value of the first segments of a dotted expression when Django gives them one the code
    does not spell (``request.user``, ``self.request.user``, ``get_user_model()``), with how many
    segments it stands for; ``None``: nothing special. ``head``: the first segment's own value."""
    first = segments[0]
    if first == "get_user_model()":
        if (head is None or head is EXTERNAL) and _imported(fc, "get_user_model", "django.contrib.auth"):
            return user_model(r, fc), 1
        return None
    if len(segments) < 2:
        return None
    if first == "request" and segments[1] == "user":
        if (head is None or head is EXTERNAL) and django_file(fc) and _is_request(fc, scope):
            return _instance(user_model(r, fc)), 2
    elif first == "self" and segments[1:3] == ["request", "user"]:
        if isinstance(head, InstV) and django_file(fc) and r.attr(head, "request") is EXTERNAL:
            return _instance(user_model(r, fc)), 3
    elif first == "self" and segments[1] == "instance":
        if isinstance(head, InstV) and django_file(fc) and r.attr(head, "instance") is EXTERNAL:
            model = _meta_model(r, head.c)
            return (InstV(model, "inferred"), 2) if model is not None else None
    return None


def _meta_model(r: Lookup, cls: Def) -> Def | None:
    """The model a Django ``ModelForm`` or a DRF ``ModelSerializer`` subclass ``cls`` edits: the class
    its nearest ``class Meta: model = M`` names (``cls``'s own, else an ancestor's), when ``cls``
    extends the library's ``ModelForm`` / ``ModelSerializer`` (``self.instance`` of such a form or
    serializer is that model's instance, Django's ``BaseModelForm.__init__`` / DRF's
    ``BaseSerializer.__init__``); ``None`` otherwise."""
    if not extends_django(r, cls, _MODEL_EDITORS):
        return None
    for c in r.mro(cls):
        declared = c.file.bindings.get((f"{c.qualname}.Meta", "model"))
        if declared:
            v = r.resolve_expr(c.file, c.qualname, declared[-1].type)
            return v.c if isinstance(v, ClassV) and extends_django(r, v.c, ("Model",)) else None
    return None


def reverse_member(r: Lookup, cls: Def, name: str) -> Value:
    """Attribute ``name`` of an instance of ``cls`` given by a relation field of another model
    pointing at ``cls`` or one of its bases: an instance of that model (a one-to-one field), a
    queryset of it (a foreign key or many-to-many field: its type text starts with ``*``; a model of
    a library Django only, as for ``M.objects``); ``None``: none does."""
    found = r.reverse_members("python", name)
    if not found:
        return None
    ancestors = r.mro(cls)
    for model, text in found:
        target = model_reference(r, model, text.removeprefix(_MANY))
        if isinstance(target, ClassV) and any(a is target.c for a in ancestors):
            if not text.startswith(_MANY):
                return InstV(model, "inferred")
            return related_query(r, model) if extends_django(r, model, ("Model",)) else None
    return None


def related_query(r: Lookup, model: Def) -> QueryV:
    """The related manager of a relation to many instances of ``model`` (the reverse side of a
    foreign key, either side of a many-to-many field): a :class:`QueryV` of ``model`` whose manager is
    ``model``'s default manager's. Django builds a related manager as a subclass of the related
    model's ``_default_manager.__class__`` (``create_reverse_many_to_one_manager`` /
    ``create_forward_many_to_many_manager`` in ``django/db/models/fields/related_descriptors.py``),
    so ``site.devices.restrict(user)`` is the method ``restrict`` of ``Device.objects``' queryset
    class. The default manager is read as ``model.objects`` (:func:`class_query`: a manager class of
    the repository, or a ``Qs.as_manager()`` / ``M.from_queryset(Qs)()``); Django's rule, the first
    manager the model (or an abstract base) declares, differs only for a model that declares another
    manager before ``objects``. Without a repository manager, a queryset of ``model`` whose methods
    are the library's."""
    v = r.attr(ClassV(model), "_default_manager")
    return QueryV(model, manager=v.manager) if isinstance(v, QueryV) and v.c is model and not v.method else QueryV(model)


def unreached_manager_method(r: Lookup, receiver: str, rd: Def) -> bool:
    """Whether the method ``rd``, the only repository method of its name and arity, cannot be what a
    call on the unknown receiver text ``receiver`` runs: ``rd`` belongs to a Django manager or
    queryset class of the repository (extending the library's ``Manager`` / ``QuerySet``), the
    receiver's last part names the related manager of a relation to many (a reverse accessor,
    ``order.discounts`` of ``OrderLineDiscount.order = ForeignKey(Order, related_name="discounts")``),
    and the default manager of no model with a relation so named has ``rd``
    (:func:`related_query`): ``order.discounts.create(...)`` is Django's ``create``, not saleor's
    ``AppTokenManager.create`` of another model. ``False`` when the receiver names no such accessor
    (``model.objects``, a plain name) or one of those related managers has ``rd``
    (``app.tokens.create(...)``, ``AppToken.objects = AppTokenManager()``)."""
    accessor = receiver.rpartition(".")[2]
    owners = entries(rd.file.by_qualname, rd.parent) if rd.parent and accessor.isidentifier() else ()
    if not owners or owners[-1].kind != "class" or not extends_django(r, owners[-1], ("Manager", "QuerySet")):
        return False
    models = [m for m, text in r.reverse_members("python", accessor) if text.startswith(_MANY) and extends_django(r, m, ("Model",))]
    if not models:
        return False
    for model in models:
        manager = related_query(r, model).manager
        if manager is not None and any(a is owners[-1] for a in r.mro(manager.c)):
            return False
    return True


def _instance(v: Value) -> Value:
    return InstV(v.c, "inferred") if isinstance(v, ClassV) else v


def _constant(fc: FileCtx, name: str) -> str | None:
    for c in fc.ex.constants:
        if c.qualname == name and all(kind == "lit" for kind, _ in c.value.parts):
            return "".join(text for _, text in c.value.parts)
    return None


def _imported(fc: FileCtx, name: str, module: str) -> bool:
    imps = entries(fc.imports, name)
    return bool(imps) and imps[-1].level == 0 and imps[-1].module == module and imps[-1].name == name


def _is_request(fc: FileCtx, scope: str | None) -> bool:
    """Whether ``request`` in ``scope`` is the request: a parameter of it or of an enclosing function
    (untyped or typed as a request), or bound in it from a serializer's ``self.context``."""
    s = scope
    while s is not None:
        local = fc.bindings.get((s, "request"))
        for rd in entries(fc.by_qualname, s):
            if rd.is_callable:
                for p in rd.d.params:
                    if p.name == "request" and p.variadic is None:
                        return p.type is None or p.type.rpartition(".")[2] in REQUEST_TYPES
        if local:
            return all(b.type.startswith(_CONTEXT) for b in local)
        s = fc.parent_scope(s)
    return False



def class_query(r: Lookup, cls: Def, name: str, found: Value) -> Value:
    """Attribute ``name`` of the class ``cls``, ``found`` the value the resolver core gave it: for a
    manager of a Django model (an ancestor extends the library's ``Model`` in a file importing Django)
    a :class:`QueryV` of ``cls``, else ``found``. The managers, as Django makes them
    (``ModelBase._prepare``, ``Options.managers`` / ``default_manager``, Django 5.2):

    * a class attribute of the model or an ancestor constructed from a manager or queryset class
      extending the library's (``people = ProfileManager()``, ``objects =
      RestrictedQuerySet.as_manager()``: its own methods stay its) or from a library class whose name
      ends with ``Manager`` (``people = models.Manager()``: the library's methods);
    * ``objects`` when the model declares it as such, or when no class of its ancestry declares a
      manager (Django adds ``objects`` then; a model whose managers have other names and whose
      library bases are Django's ``Model`` only has none: ``found`` stays);
    * ``_default_manager``: the manager ``Meta.default_manager_name`` names, else the first declared
      (the model's own before its ancestors', in source order), else ``objects``;
      ``_base_manager``: a plain manager of the model."""
    if name not in _MANAGERS:
        if not (isinstance(found, InstV) or found is EXTERNAL) or not _declares(r, cls, name):
            return found
        manager = _manager(r, cls, name, found)
        return QueryV(cls, manager=manager or None) if manager is not False and extends_django(r, cls, ("Model",)) else found
    if name == "_default_manager" and found is EXTERNAL and extends_django(r, cls, ("Model",)):
        default = default_manager(r, cls) or "objects"
        return class_query(r, cls, default, r.attr(ClassV(cls), default))
    if name == "objects" and found is EXTERNAL and not _declares(r, cls, name) and _other_managers_only(r, cls):
        return found  # `people = models.Manager()`: no `objects`
    manager = found if isinstance(found, InstV) else _queryset_manager(r, cls, name)
    if found is not EXTERNAL and (manager is None or not extends_django(r, manager.c, ("Manager", "QuerySet"))):
        return found
    return QueryV(cls, manager=manager) if extends_django(r, cls, ("Model",)) else found


def _declares(r: Lookup, cls: Def, name: str) -> bool:
    """Whether ``cls`` or an ancestor binds ``name`` in its class body (reads recorded)."""
    for c in r.mro(cls):
        r.use(("name", c.file.path, name))
        if c.file.bindings.get((c.qualname, name)):
            return True
    return False


def _manager(r: Lookup, cls: Def, name: str, found: Value) -> InstV | None | bool:
    """The manager class attribute ``name`` of ``cls`` (``found``: its value) stands for: an instance of
    a repository manager or queryset class, ``None`` for a library manager (``models.Manager()``),
    ``False`` when ``name`` is no manager."""
    if isinstance(found, InstV):
        return found if extends_django(r, found.c, ("Manager", "QuerySet")) and not _field(r, found.c) else False
    built = _queryset_manager(r, cls, name)
    if built is not None:
        return built
    for c in r.mro(cls):
        declared = c.file.bindings.get((c.qualname, name))
        if declared:
            b = declared[-1]
            path = imported_path(c.file, b.type) if b.how == "constructed" else None
            return None if path in _LIBRARY_MANAGERS else False
    return False


def _field(r: Lookup, c: Def) -> bool:
    """Whether the class ``c`` is a model field named like a manager: it or an ancestor is named
    ``...Field`` or extends a library class so named, or a library relation field named as a manager
    (:data:`_FIELD_MANAGERS`: NetBox's ``NetBoxTaggableManagerField(TaggableManager)``)."""
    for a in r.mro(c):
        if a.name.endswith(_FIELD) or any((base_type(b) or "").rpartition(".")[2].endswith(_FIELD_MANAGERS + (_FIELD,))
                                          for b in a.heads.bases):
            return True
    return False


_FIELD = "Field"
_FIELD_MANAGERS = ("TaggableManager",)
"""Library relation fields named as managers (django-taggit's ``TaggableManager``)."""
_LIBRARY_MANAGERS = frozenset({"django.db.models.Manager", "django.db.models.manager.Manager"})
"""Django's own manager class, as imported (``models.Manager()``); a library's other ``*Manager`` may be
no manager at all (taggit's ``TaggableManager`` is a relation field)."""


def declared_managers(r: Lookup, cls: Def) -> tuple[str, ...]:
    """The names of the managers ``cls`` and its ancestors declare in their class bodies (:func:`class_query`),
    in Django's order: the nearest class's first, each class's in source order; a name once. Memoised
    per class."""
    v = r.memoised((id(cls.file), cls.qualname, "django managers"), lambda: _declared_managers(r, cls))
    return v if isinstance(v, tuple) else ()


def _declared_managers(r: Lookup, cls: Def) -> tuple[str, ...]:
    out: list[str] = []
    for c in r.mro(cls):
        r.use(("file", c.file.path, ""))  # which names its class bodies bind, and in what order
        fields = sorted((d.d.name_line, d.name) for d in c.file.defs if d.parent == c.qualname and d.kind == "field")
        for _, name in fields:
            declared = c.file.bindings.get((c.qualname, name))
            if name in out or not declared:
                continue
            if _manager(r, cls, name, r.binding_value(c.file, declared)) is not False:
                out.append(name)
    return tuple(out)


def default_manager(r: Lookup, cls: Def) -> str | None:
    """The name of the default manager of the model ``cls``: its ``Meta.default_manager_name``, else the
    first of :func:`declared_managers`; ``None`` when it declares none (Django's ``objects``)."""
    named = model_options(r, cls).get("default_manager_name")
    if named:
        return named
    managers = declared_managers(r, cls)
    return managers[0] if managers else None


def _other_managers_only(r: Lookup, cls: Def) -> bool:
    """Whether the model ``cls`` declares managers, none named ``objects``, and its ancestry extends
    no library class but Django's ``Model`` (whose own managers are unknown here)."""
    for c in r.mro(cls):
        if c.external_base and any((base_type(b) or "").rpartition(".")[2] != "Model" for b in c.heads.bases
                                   if not isinstance(r.resolve_expr(c.file, c.parent, base_type(b) or ""), ClassV)):
            return False
    return bool(declared_managers(r, cls))


def _queryset_manager(r: Lookup, cls: Def, name: str) -> InstV | None:
    """The manager ``name`` of the model ``cls`` as an instance of the repository queryset class it is
    built from, ``objects = Qs.as_manager()`` (Django's ``QuerySet.as_manager``: a manager whose methods
    are ``Qs``'s; NetBox's ``BaseModel.objects = RestrictedQuerySet.as_manager()`` on the abstract base
    of every model), or ``objects = M.from_queryset(Qs)()`` (``BaseManager.from_queryset``: a manager
    class with ``Qs``'s methods, made and instantiated at once; ``M``'s own methods, when ``M`` is a
    repository manager, are not reached through it). Declared on ``cls`` or the nearest ancestor declaring ``name``; ``None`` for any
    other declaration, or when ``Qs`` is no repository class extending the library's ``QuerySet``."""
    for c in r.mro(cls):
        declared = c.file.bindings.get((c.qualname, name))
        if not declared:
            continue
        b = declared[-1]
        fc = c.file
        head = b.type.removesuffix(".as_manager") if b.how == "constructed" else ""
        if b.how == "constructed" and b.type.endswith(_FROM_QUERYSET + "()"):
            head = _from_queryset_argument(fc, c.qualname, b) or ""  # objects = M.from_queryset(Qs)(): Qs's methods
        elif head and head == b.type:  # objects = StockManager(), StockManager = M.from_queryset(Qs) in a module
            alias = _module_binding(r, fc, head)
            head = ""
            if alias is not None and alias[1].how == "constructed" and alias[1].type.endswith(_FROM_QUERYSET):
                fc, bound = alias
                head = _from_queryset_argument(fc, None, bound) or ""
        if not head or head == b.type:
            return None
        v = r.resolve_expr(fc, None, head)
        return InstV(v.c, "inferred") if isinstance(v, ClassV) and extends_django(r, v.c, ("QuerySet",)) else None
    return None


_FROM_QUERYSET = ".from_queryset"


def _from_queryset_argument(fc: FileCtx, scope: str | None, b: Binding) -> str | None:
    """The queryset class text of the binding ``b`` in ``scope`` of ``fc`` (``objects =
    M.from_queryset(Qs)()`` in a class, ``StockManager = M.from_queryset(Qs)`` in a module: the binding
    keeps ``M.from_queryset()`` or ``M.from_queryset``; the call site on its line hands ``Qs``)."""
    for call in fc.ex.calls:
        if (call.caller == scope and call.line == b.line and call.name == "from_queryset"
                and call.via is None and call.handed and call.handed[0].key == "0"):
            return call.handed[0].text
    return None


def _module_binding(r: Lookup, fc: FileCtx, text: str) -> tuple[FileCtx, Binding] | None:
    """The module-level binding the name or dotted name ``text`` of ``fc`` refers to, with its file:
    a binding of ``fc``'s own module, of the module an import names (``from .managers import
    StockManager``), or of the module a dotted head names (``managers.ProductVariantManager``);
    ``None`` for anything else (a class, a function, an unknown name). Reads are recorded."""
    head, _, name = text.rpartition(".")
    files: list[FileCtx] = []
    if head:
        module = r.resolve_expr(fc, None, head)
        if isinstance(module, ModuleV):
            files = r.module_files(module.ns, module.key)
    elif fc.bindings.get((None, name)):
        files = [fc]
    else:
        imps = entries(fc.imports, name)
        target = fc.rules.import_target(r, fc, imps[-1]) if imps and imps[-1].name else None
        if target is not None and target.member:
            files, name = list(target.files), target.member
    for f in files:
        r.use(("name", f.path, name))
        bound = f.bindings.get((None, name))
        if bound and not entries(f.top, name):
            return f, bound[-1]
    return None


def manager_bases(c: Def, text: str) -> tuple[str, ...]:
    """The base texts one written base ``text`` of class ``c`` stands for: in a file importing Django,
    ``M.from_queryset(Qs)`` (Django's
    ``BaseManager.from_queryset``, https://docs.djangoproject.com/en/5.2/topics/db/managers/#from-queryset:
    a new subclass of ``M`` given the methods of ``Qs`` that ``M`` lacks) is ``(M, Qs)``, so a class
    extending it (NetBox's ``TreeManager(Manager.from_queryset(TreeQuerySet))``) has ``M``'s methods,
    then ``Qs``'s; any other text is itself."""
    head, sep, rest = text.partition(_FROM_QUERYSET + "(")
    if not sep or not head or not rest.endswith(")") or not django_file(c.file):
        return (text,)
    arg = rest[:-1].strip()
    if not arg or not all(p.isidentifier() for p in arg.split(".")):
        return (text,)
    return head.strip(), arg


def opaque_return(r: Lookup, f: Def) -> Value:
    """What calling ``f``, whose return the resolver cannot read (no annotation, returns of several
    shapes: ``return self`` / ``return self.none()`` / ``return self.filter(...)``), yields: for a method
    of a repository queryset class (extending the library's ``QuerySet``), a queryset of that class
    (an instance of it, ``inferred``: Django's queryset methods return clones of their own class, and
    :func:`query_member` narrows it to its receiver's), so a chain after it
    (``Site.objects.restrict(u).filter(...).order_by("x")``) stays a queryset; for one of a manager
    class (``Manager``), the library's value (its querysets are another class's, unknown here);
    ``None`` (unknown) for any other function."""
    owners = entries(f.file.by_qualname, f.parent) if f.parent else ()
    if not owners or owners[-1].kind != "class":
        return None
    if extends_django(r, owners[-1], ("QuerySet",)):
        return InstV(owners[-1], "inferred")
    return EXTERNAL if extends_django(r, owners[-1], ("Manager",)) else None


def query_member(r: Lookup, receiver: InstV | QueryV, name: str, method: Value, result: Value) -> Value:
    """What calling member ``name`` (``method`` its value, ``result`` what its body gives) of a Django
    queryset yields, where it is more than ``result`` (``None``: no opinion). Django's ``QuerySet``
    methods return a clone of the receiver's own class (``QuerySet._chain``:
    https://docs.djangoproject.com/en/5.2/ref/models/querysets/#methods-that-return-new-querysets), so:

    * on an instance of a repository queryset class (``self`` in ``class PostQuerySet(QuerySet)``), a
      library query step (:data:`QUERY_STEPS`: ``self.filter(...)``) is an instance of that class, and
      one of its own methods returning an instance of a class it extends (``restrict`` of a base,
      ``return self``) an instance of the receiver's class;
    * on a model's manager or queryset built from such a class (``M.objects``, ``objects =
      PostQuerySet.as_manager()``), one of that class's methods returning an instance of it or of a
      class it extends (``M.objects.published()``) is a queryset of ``M`` again, whose later steps
      and one-row calls (``.first()``) are ``M``'s; so is its override of a library query step
      (:data:`QUERY_STEPS`) whose return the resolver cannot read (wagtail's
      ``SpecificQuerySetMixin.prefetch_related`` returns ``super().prefetch_related(...)``'s clone:
      an override keeps the overridden method's contract).

    Only in files importing Django (:func:`~indexer.languages.python.django_apps.extends_django`); a one-row call on a bare queryset instance is
    unknown (the model is not)."""
    if isinstance(receiver, QueryV):
        manager = receiver.manager
        if manager is None or receiver.method or not isinstance(method, FuncV):
            return None
        if name in QUERY_STEPS and (result is None or result is EXTERNAL):
            return QueryV(receiver.c, manager=manager)  # an override of a query step (a mixin's `prefetch_related`)
        if (not isinstance(result, InstV) or not any(a is result.c for a in r.mro(manager.c))
                or not extends_django(r, result.c, ("QuerySet",))):
            return None
        return QueryV(receiver.c, manager=manager)
    if method is EXTERNAL and name in QUERY_STEPS:
        return InstV(receiver.c, "inferred") if extends_django(r, receiver.c, ("QuerySet",)) else None
    if (isinstance(method, FuncV) and isinstance(result, InstV) and result.c is not receiver.c
            and any(a is result.c for a in r.mro(receiver.c)[1:]) and extends_django(r, result.c, ("QuerySet",))):
        return InstV(receiver.c, "inferred")
    return None


def query_call(v: QueryV) -> Value:
    """What calling the Django manager / queryset method ``v.method`` returns: a queryset of the same
    model (:data:`QUERY_STEPS`), an instance of it (:data:`ONE_ROW`), else the library's value."""
    if v.method in QUERY_STEPS:
        return QueryV(v.c, manager=v.manager)
    if v.method in ONE_ROW:
        return InstV(v.c, "inferred")
    return EXTERNAL


def related_value(r: Lookup, fc: FileCtx, b: Binding) -> Value:
    """The value of the relation field ``b`` (a ``related`` binding of model ``b.scope``: a
    ``ForeignKey`` / ``OneToOneField`` to the class ``b.type`` names) read on an instance: an
    instance of the related model, ``EXTERNAL`` for a library's (Django's own user model), ``None``
    when it names no class (the field's own binding decides)."""
    models = entries(fc.by_qualname, b.scope) if b.scope else ()
    if not models:
        return None
    target = model_reference(r, models[0], b.type.removeprefix(_MANY))
    if isinstance(target, ClassV):
        if not b.type.startswith(_MANY):
            return InstV(target.c, "inferred")
        return related_query(r, target.c) if extends_django(r, target.c, ("Model",)) else None
    return EXTERNAL if target is EXTERNAL else None
