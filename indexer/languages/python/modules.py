"""Python's module system and scoping rules, as the resolver core (:mod:`indexer.resolve`) uses them.

Modules are dotted names: a file's package chain is the run of parent folders holding an
``__init__.py`` (a folder without one inside a package continues it, PEP 420), so module keys depend
on the whole file set (:func:`python_module_keys`). Imports are absolute or relative by level;
``from pkg import sub`` may name a submodule; ``import *`` brings a module's names. A class body's
names are not visible from its methods; ``cls`` is the class or a subclass; builtins are external.
"""

from __future__ import annotations

import builtins
import posixpath
import re
import sys
from collections.abc import Iterable, Mapping

from indexer.languages.python.django_models import class_query, manager_bases, opaque_return, query_member, related_value, \
    reverse_member, unreached_manager_method
from indexer.languages.python.django_models import query_call as django_query_call
from indexer.languages.base import declared_type_parameters, split_top_level
from indexer.languages.python.implied import element_types
from indexer.languages.python.pytest_fixtures import injected, visible_fixture
from indexer.languages.python.django_models import framework_receiver as django_receiver
from indexer.languages.python.django_tables import library_model, table_name
from indexer.model import Definition, FileExtraction, Import, base_type, unwrapped
from indexer.resolve.context import FileCtx, shared_parts
from indexer.resolve.language import ImportTarget, Lookup
from indexer.resolve.multimap import entries, every
from indexer.resolve.values import BUILTIN, EXTERNAL, MAP, PAIRS, ClassV, Def, InstV, ModuleV, QueryV, Value, container_call, element
from indexer.symbols import module_path

__all__ = ["MODULE_SYSTEM", "PythonModuleSystem", "absolute_module", "python_module_keys"]

_BUILTINS = frozenset(dir(builtins))
_RECORDS = ("TypedDict", "NamedTuple")
"""Library bases whose subclasses' items are their annotated fields (:meth:`PythonModuleSystem.record_item`)."""


def _record_kind(r: Lookup, cls: Def) -> tuple[str, Def] | None:
    """Which of :data:`_RECORDS` ``cls`` (or an ancestor) extends, if any (``typing.TypedDict`` too),
    and the class of its MRO that extends it."""
    for c in r.mro(cls):
        for b in c.heads.bases if c.external_base else ():
            name = (base_type(b) or "").rpartition(".")[2]
            if name in _RECORDS:
                return name, c
    return None


def _tuple_fields(c: Def) -> tuple[str, ...]:
    """The fields of the ``NamedTuple`` class ``c`` in declaration order: its annotated class-body names
    but ``ClassVar`` ones (``KIND = "pair"`` and ``n: ClassVar[int]`` are class attributes, no items);
    a subclass of it adds none."""
    fields = [rd for rd in every(c.members) if rd.kind == "field" and rd.d.field_type
              and rd.d.field_type.strip("\"'").partition("[")[0].rpartition(".")[2] != "ClassVar"]
    return tuple(dict.fromkeys(rd.name for rd in sorted(fields, key=lambda rd: rd.line)))
_BUILTIN_TYPES = frozenset({"str", "bytes", "bytearray", "int", "float", "complex", "bool", "list", "dict", "set",
                            "frozenset", "tuple", "range", "memoryview", "slice"})
"""Builtin classes whose instances are the language's own objects: ``set()`` is :data:`BUILTIN` when
the file binds no such name (its methods are no repository's; what they hand back is unknown)."""
_BUILTIN_BASES = frozenset(n for n, v in vars(builtins).items()
                           if isinstance(v, type) and (issubclass(v, BaseException) or v is object))
"""Builtin classes an application's classes derive and call up to by name (``Exception.__init__(self,
msg)``, ``object.__setattr__(self, k, v)``): :data:`BUILTIN` too, so such a call is the language's,
never a call site left unbound that might call a repository's ``__init__``."""


def python_module_keys(paths: Iterable[str]) -> dict[str, str]:
    """``{path: dotted module}`` for Python files: a file's package chain is the run of parent
    directories holding an ``__init__.py``, and of folders without one between such directories
    (namespace subpackages, PEP 420); ``pkg/__init__.py`` is module ``pkg``.

    A ``src/`` folder is a source root: the folders below it are packages even without an
    ``__init__.py`` (namespace packages under a ``src/`` layout keep their package path).

    >>> python_module_keys(["a/__init__.py", "a/b.py", "tests/t.py"])["a/b.py"]
    'a.b'
    >>> python_module_keys(["svc/src/shop/orders/api.py"])["svc/src/shop/orders/api.py"]
    'shop.orders.api'
    >>> python_module_keys(["d/__init__.py", "d/feedback/incident/__init__.py", "d/feedback/incident/views.py"])[
    ...     "d/feedback/incident/views.py"]
    'd.feedback.incident.views'
    """
    paths = list(paths)
    regular = {posixpath.dirname(p) for p in paths if posixpath.basename(p) in ("__init__.py", "__init__.pyi")}
    # A folder without __init__.py inside a package is a namespace subpackage (PEP 420), as
    # flask/sansio/ is: it continues the chain, for the files in it and for the regular packages
    # below it (Netflix dispatch: dispatch/feedback/ has none, dispatch/feedback/incident/ has one;
    # `from dispatch.feedback.incident.views import router`). A top-level folder without one does not.
    packages = set(regular)
    for d in {posixpath.dirname(p) for p in paths}:
        chain = []
        while d:
            if d in regular:
                packages.update(chain)
                chain = []
            else:
                chain.append(d)
            d = posixpath.dirname(d)
        # no package above: below a `src/` root every folder is a (namespace) package
        for i, folder in enumerate(chain):
            if posixpath.basename(folder) == "src":
                packages.update(chain[:i])
                break
    keys = {}
    for p in paths:
        directory, base = posixpath.split(module_path(p))
        parts = [] if base == "__init__" else [base]
        while directory and directory in packages:
            directory, name = posixpath.split(directory)
            parts.append(name)
        keys[p] = ".".join(reversed(parts))
    return keys


def namespace_aliases(path: str, module_key: str) -> list[str]:
    """The other dotted name of a Python file whose own folder is no package (``module_key`` has no
    package part: it is the file's stem): run from the repository root (on ``sys.path``), each of
    its folders is a namespace package (PEP 420), and ``app/models.py`` is also ``app.models``
    (``from app.models import Post`` in a Flask or FastAPI application whose ``app/`` has no
    ``__init__.py``). Only the root's reading: a folder further down on ``sys.path`` would make a
    folder's name (NetBox's ``scripts/packaging/``) shadow a library's. Nothing for a file at the
    root, a package's ``__init__``, a file inside a regular package, or when a folder on the way
    is no identifier or is a ``src/`` source root (:func:`python_module_keys`), and nothing under a
    top folder named like a standard library module (``json/``, ``email/``, ``logging/``:
    :data:`sys.stdlib_module_names`): Python finds the library's module or regular package before
    any namespace portion of that name, wherever it is on ``sys.path``, so ``from json import
    encoder`` is the library's whatever ``json/encoder.py`` the repository holds.

    >>> namespace_aliases("a/b/m.py", "m")
    ['a.b.m']
    >>> namespace_aliases("pkg/m.py", "pkg.m"), namespace_aliases("m.py", "m"), namespace_aliases("svc/src/m.py", "m")
    ([], [], [])
    >>> namespace_aliases("json/encoder.py", "encoder"), namespace_aliases("email/utils/m.py", "m")
    ([], [])
    """
    if "." in module_key or "/" not in path:
        return []
    folders, base = posixpath.split(module_path(path))
    if base != module_key:  # a package's __init__ (the key is its folder's)
        return []
    parts = folders.split("/")
    if parts[0] in sys.stdlib_module_names or any(p == "src" or not p.isidentifier() for p in parts):
        return []
    return [".".join([*parts, base])]


def absolute_module(fc: FileCtx, imp: Import) -> str | None:
    """The dotted module a Python import names from ``fc`` (relative levels applied), ``None`` when
    a relative import climbs above the top package."""
    if imp.level == 0:
        return imp.module
    parts = fc.module_key.split(".") if fc.module_key else []
    is_package = posixpath.basename(fc.path).startswith("__init__.")
    drop = imp.level - (1 if is_package else 0)
    if drop > len(parts):
        return None
    base = parts[: len(parts) - drop] if drop else parts
    return ".".join([*base, *([imp.module] if imp.module else [])])


LOADER_PROXIES: dict[tuple[str, str], tuple[str, ...]] = {
    ("flask_login", "current_user"): ("user_loader",),
    ("flask_login.utils", "current_user"): ("user_loader",),
    ("flask_jwt_extended", "current_user"): ("user_lookup_loader", "user_loader_callback_loader"),
}
"""Library proxies that stand for what a function of the application returns, by the decorator that
registers it (or the call standing for it, ``jwt.user_loader_callback_loader(f)``: a ``registers``
binding): Flask-Login's ``current_user`` is what the ``@login_manager.user_loader`` function
returns (``return db.session.get(User, int(id))``: a ``User``), Flask-JWT-Extended's what its
``@jwt.user_lookup_loader`` (4.x) or ``@jwt.user_loader_callback_loader`` (3.x) returns."""


def _star_member(r: Lookup, fc: FileCtx, name: str) -> Value:
    """What ``fc``'s ``from m import *`` statements bring under ``name`` (the last whose module holds
    it, in statement order: a later star import re-binds the name, as ``from .base import *`` then
    ``from .local import *`` overrides the base's), else ``None``."""
    for imp in reversed(fc.star_imports):
        target = absolute_module(fc, imp)
        if target and r.has_package("python", target):
            v = r.module_member("python", target, name)
            if v is not None:
                return v
    return None


def proxied(r: Lookup, fc: FileCtx, decorators: tuple[str, ...]) -> Value:
    """What a proxy of :data:`LOADER_PROXIES` stands for in ``fc``: the result of calling the
    function registered with one of ``decorators`` (the nearest to ``fc`` when several services of
    a monorepo register one), or :data:`EXTERNAL` when the repository registers none, its result is
    unknown, or equally near loaders return different things.

    Cost: memoised per file (every scope naming the proxy asks) and, for the loaders' results, per
    set of nearest loader files, so a file of ``n`` loaders and ``n`` views calls ``n`` loaders
    once, not ``n`` times each (brk43: 2,000 of each took 98 s); a file naming a proxy compares
    its path with each loader's file once."""
    key = " ".join(decorators)
    return r.memoised((id(fc), None, key, "proxied"), lambda: _nearest_loaders(r, fc, decorators, key))


def _nearest_loaders(r: Lookup, fc: FileCtx, decorators: tuple[str, ...], key: str) -> Value:
    """:func:`proxied` for ``fc``: the agreed result of the loaders nearest to it."""
    paths = {rd.file.path for decorator in decorators for rd in r.registered("python", decorator)}
    if not paths:
        return EXTERNAL
    near = {p: shared_parts(fc.path, p) for p in paths}
    best = max(near.values())
    nearest = tuple(sorted(p for p, k in near.items() if k == best))
    return r.memoised((0, "\n".join(nearest), key, "loaders"), lambda: _agreed_result(r, decorators, nearest))


def _agreed_result(r: Lookup, decorators: tuple[str, ...], paths: tuple[str, ...]) -> Value:
    """The result of calling the loaders of ``decorators`` in the files ``paths``, when they agree,
    else :data:`EXTERNAL`."""
    values = [r.call_result(r.def_value(rd), "inferred")
              for decorator in decorators for rd in r.registered("python", decorator) if rd.file.path in paths]
    if not values:
        return EXTERNAL
    # Equally near loaders that disagree (two services' logins, the importer in neither): no answer.
    first = values[0]
    same = all(v == first or isinstance(v, InstV) and isinstance(first, InstV) and v.c is first.c for v in values)
    return first if same and first is not None else EXTERNAL


_JWT_CALLBACKS = ("user_lookup_loader", "token_in_blocklist_loader", "user_loader_callback_loader",
                  "token_in_blacklist_loader")
"""Flask-JWT-Extended's callbacks a guard runs: 4.x ``user_lookup_loader`` / ``token_in_blocklist_loader``,
3.x ``user_loader_callback_loader`` / ``token_in_blacklist_loader``."""


def model_class(r: Lookup, fc: FileCtx, segments: list[str], head: Value) -> tuple[Value, int] | None:
    """Flask-SQLAlchemy's ``X.Model`` in ``fc`` when, where ``X`` is defined (followed through the
    repository's imports), ``X = SQLAlchemy(model_class=C)`` bound ``X.Model`` to ``C`` (an ``alias``
    binding, :mod:`indexer.languages.python.frameworks.sqlalchemy_bindings`): the class ``C``, standing
    for the first two segments; ``None`` otherwise (``head``, ``X``'s own value, is the library's)."""
    if len(segments) < 2 or segments[1] != "Model" or segments[0].endswith("()") or head is not EXTERNAL:
        return None
    origin, name = fc, segments[0]
    for _ in range(8):
        r.use(("name", origin.path, f"{name}.Model"))
        bound = origin.bindings.get((None, f"{name}.Model"))
        if bound:
            v = r.binding_value(origin, bound, instance=False)
            return (v, 2) if isinstance(v, ClassV) else None
        imps = entries(origin.imports, name)
        if not imps:
            return None
        target = origin.rules.import_target(r, origin, imps[-1])
        if target.member is None or not target.files:
            return None
        origin, name = target.files[0], target.member
    return None


def framework_receiver(r: Lookup, fc: FileCtx, scope: str | None, segments: list[str],
                       head: Value) -> tuple[Value, int] | None:
    """The optional hook of the resolver core: Flask-SQLAlchemy's ``db.Model`` (:func:`model_class`),
    then Django's ``request.user`` / ``get_user_model()``
    (:func:`indexer.languages.python.django_models.framework_receiver`)."""
    return model_class(r, fc, segments, head) or django_receiver(r, fc, scope, segments, head)


def nearest(path: str, files: list[FileCtx]) -> FileCtx:
    """The file of ``files`` sharing the longest folder prefix with ``path`` (the first on a tie)."""
    return max(files, key=lambda fc: shared_parts(path, fc.path))  # max keeps the first of equal keys


def container_element(text: str) -> str | None:
    """The element type of an annotated sequence: ``list[User]`` / ``Sequence[User]`` /
    ``Iterator[User]`` / ``tuple[User, ...]`` / ``QuerySet[User]`` -> ``User`` (what iterating it
    yields, :func:`indexer.languages.python.implied.element_types`), also through transparent
    wrappers and ``| None`` (``Mapped[list["User"]]``, ``Optional[list[User]]``, ``list[User] | None``;
    :func:`indexer.typetext.unwrapped`); an element that is itself a subscripted type as written
    (``list[list[User]]``, ``list[type[User]]``: the resolver nests, ``QueryV.inner``); ``None`` for any
    other type, an element that is neither, and a mapping (iterating ``dict[int, User]`` hands out keys, its ``get`` a
    value). The resolver's values of such names and returns are
    :class:`~indexer.resolve.values.QueryV` of the element class: iterating one yields an instance;
    its calls are read by :func:`~indexer.languages.python.django_models.query_call`."""
    t = unwrapped(text)  # Mapped[list[User]]: a transparent wrapper's first argument
    if element_types(t, "values"):  # a mapping
        return None
    types = element_types(t)
    element = present(types[0]) if len(types) == 1 else ""
    return element if _ELEMENT.fullmatch(element) or _SUBSCRIPTED.fullmatch(element) else None


_ELEMENT = re.compile(r"[A-Za-z_][\w.]*")
_OPTIONAL = re.compile(r"(?:typing\.|t\.)?Optional\[(.*)\]", re.S)


def present(text: str) -> str:
    """An element or value type text without its ``None`` alternative, quotes dropped: ``User | None``,
    ``None | User``, ``Optional[User]``, ``"User" | None`` -> ``User``; any other text as it is
    (``User | Team`` stays: no one class). What iterating a ``list[User | None]`` hands out that has
    members is a ``User`` (Netflix dispatch's services return ``list[Incident | None]``)."""
    t = text.strip().strip("\"'")
    if "|" in t:
        parts = [p.strip() for p in split_top_level(t, "|", "[(", "])") if p.strip() not in ("None", "")]
        t = parts[0].strip("\"'") if len(parts) == 1 else t
    m = _OPTIONAL.fullmatch(t)
    return m[1].strip().strip("\"'") if m else t


FUTURE = "future"
"""The :attr:`~indexer.resolve.values.QueryV.view` of a library future of a value (:data:`FUTURES`): not
iterable; :data:`FUTURE_RESULTS` called on it give the value."""
FUTURES = frozenset({"Promise", "Future", "Task"})
"""Library generics standing for one value computed later: ``promise.Promise[T]`` (graphene 2's DataLoaders
return them: ``get_plugin_manager_promise(ctx).get()``), ``concurrent.futures.Future[T]``,
``asyncio.Future[T]`` / ``asyncio.Task[T]``."""
FUTURE_RESULTS = frozenset({"get", "result"})
"""Their methods returning the value: ``Promise.get()`` (the promise package, which blocks until it is
resolved), ``Future.result()`` / ``Task.result()`` (the standard library)."""


def map_value(text: str) -> tuple[str, str] | None:
    """The value type of an annotated mapping and how it iterates: ``dict[str, User]`` /
    ``Mapping[int, User]`` / ``defaultdict[str, User]`` -> (``User``, :data:`~indexer.resolve.values.MAP`:
    iterating hands out keys), through transparent wrappers and ``| None`` as
    :func:`container_element` (a subscripted value as written: ``dict[str, list[User]]``, ``dict[str,
    type[User]]``); a library future (:data:`FUTURES`: ``Promise[User]``) -> (``User``, :data:`FUTURE`);
    ``None`` for any other type or a value that is neither.
    The resolver's value is a :class:`~indexer.resolve.values.QueryV` of the value class whose
    subscript, ``get`` and ``values()`` / ``items()`` (a future's ``get()`` / ``result()``) :func:`query_call` reads."""
    m = _SUBSCRIPTED.fullmatch(present(unwrapped(text)))
    if m and m[1].rpartition(".")[2] in FUTURES:
        args = split_top_level(m[2], ",", "[(", "])")
        value = present(args[0]) if len(args) == 1 else ""
        return (value, FUTURE) if _ELEMENT.fullmatch(value) or _SUBSCRIPTED.fullmatch(value) else None
    types = element_types(unwrapped(text), "values")
    value = present(types[0]) if len(types) == 1 else ""
    return (value, MAP) if _ELEMENT.fullmatch(value) or _SUBSCRIPTED.fullmatch(value) else None


_SUBSCRIPTED = re.compile(r"([A-Za-z_][\w.]*)\[(.*)\]", re.S)
_FREE_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?![\w.\[])")
_GENERIC_MARKERS = frozenset({"Generic", "Protocol"})
_NO_PARAMETERS = frozenset({"Any", "object", "None"})
"""Free names of a generic base's arguments that are never type variables (``Dict[str, Any]``)."""


def _subscripted_bases(d: Definition) -> list[tuple[str, tuple[str, ...]]]:
    """Each base of ``d`` written with a subscript, as (name, arguments): ``Repository[User, int]``
    -> ``("Repository", ("User", "int"))``; forward-reference quotes dropped."""
    out = []
    for text in d.bases:
        m = _SUBSCRIPTED.fullmatch(text.strip().strip("\"'"))
        if m is not None:
            args = tuple(a.strip().strip("\"'") for a in split_top_level(m[2], ",", "[(", "])"))
            out.append((m[1], args))
    return out


def type_parameters(d: Definition) -> tuple[str, ...]:
    """A class's type parameters (PEP 484, PEP 695): those a ``class C[T]`` header declares, else
    the arguments of its ``Generic[...]`` / ``Protocol[...]`` base, else the free names in its generic
    bases' arguments in order of first appearance (``class Stack(List[T])`` -> ``T``). Names that are
    classes or builtins are the resolver's to drop (:func:`indexer.resolve.generics.type_parameters`)."""
    declared = declared_type_parameters(d.signature, d.name, "[", "]")
    if declared:
        return declared
    bases = _subscripted_bases(d)
    for name, args in bases:
        if name.rsplit(".", 1)[-1] in _GENERIC_MARKERS:
            return tuple(a for a in args if a.isidentifier())
    return tuple(dict.fromkeys(m.group(0) for _, args in bases for a in args for m in _FREE_NAME.finditer(a)
                               if m.group(0) not in _NO_PARAMETERS))


def base_type_arguments(d: Definition) -> dict[str, tuple[str, ...]]:
    """The type arguments a class's bases are written with, by each base's last name part:
    ``class UserRepository(Repository[User, int])`` -> ``{"Repository": ("User", "int")}``."""
    out: dict[str, tuple[str, ...]] = {}
    for name, args in _subscripted_bases(d):
        out.setdefault(name.rsplit(".", 1)[-1], args)
    return out


_CLASS_OF = re.compile(r"(?:typing\.|t\.)?(?:type|Type)\[\s*[\"']?([A-Za-z_][\w.]*)[\"']?\s*\]")


def class_of(text: str) -> str | None:
    """The class a ``type[X]`` / ``Type[X]`` annotation names (``Optional`` and ``| None`` looked
    through): a value that is ``X`` or a subclass of it, not an instance; ``None`` for any other text."""
    if "ype[" not in text:  # read for every declared type: most name no class
        return None
    t = unwrapped(text).strip().strip("\"'")
    if "|" in t:
        parts = [p.strip() for p in split_top_level(t, "|", "[(", "])") if p.strip() not in ("None", "")]
        t = parts[0] if len(parts) == 1 else ""
    m = _CLASS_OF.fullmatch(t)
    return m[1] if m else None


def type_arguments(text: str) -> tuple[str, ...]:
    """The type arguments of a declared generic type: ``Stack[User]`` / ``"Repository[User, int]"``
    / ``Optional[Stack[User]]`` -> (``User``, ...); empty for any other text."""
    m = _SUBSCRIPTED.fullmatch(unwrapped(text).strip().strip("\"'"))
    return tuple(a.strip().strip("\"'") for a in split_top_level(m[2], ",", "[(", "])")) if m else ()


def tuple_items(text: str) -> list[str] | None:
    """The item types of an annotated fixed tuple: ``tuple[Channel, bool]`` / ``Tuple[A, B]`` ->
    [``Channel``, ``bool``] (``| None`` and ``Optional`` looked through); ``None`` for a
    ``tuple[X, ...]`` (a sequence: :func:`container_element`) and any other type."""
    t = unwrapped(text).strip().strip("\"'")
    parts = [p.strip() for p in split_top_level(t, "|", "[(", "])") if p.strip() not in ("None", "")]
    if len(parts) != 1:
        return None
    head, bracket, rest = parts[0].partition("[")
    if head.strip() in ("Optional", "typing.Optional") and bracket and rest.endswith("]"):
        return tuple_items(rest[:-1])
    if head.strip() not in ("tuple", "Tuple", "typing.Tuple") or not bracket or not rest.endswith("]"):
        return None
    items = [i.strip().strip("\"'") for i in split_top_level(rest[:-1], ",", "[(", "])")]
    return None if not items or "..." in items or "" in items else items



_MAP_ONE = frozenset({"get", "pop", "setdefault"})
"""A Python mapping's reads of one value."""
_MAP_VIEWS = {"values": "", "items": PAIRS, "copy": MAP}
"""A Python mapping's methods handing out its values (a sequence), its items (pairs) or itself."""


PYDANTIC_BUILDERS = frozenset({"model_validate", "model_validate_json", "model_validate_strings", "model_construct",
                               "parse_obj", "parse_raw", "parse_file", "from_orm", "construct"})
"""Class methods pydantic's ``BaseModel`` (so SQLModel's ``SQLModel``) gives every model, each returning an
instance of the class it is called on (pydantic types them ``Self``)."""
_PYDANTIC_BASES = ("BaseModel", "SQLModel")
_PYDANTIC_MODULES = ("pydantic", "sqlmodel")


def class_attribute(r: Lookup, cls: Def, name: str, found: Value) -> Value:
    """Attribute ``name`` of the class ``cls`` (``found``: what the resolver core gave it): a pydantic
    builder (:data:`PYDANTIC_BUILDERS`) the repository does not define, on a class extending pydantic's
    ``BaseModel`` or SQLModel's ``SQLModel`` (a base of that name in a file importing either library),
    is a :class:`QueryV` whose call :func:`query_call` makes an instance of ``cls``
    (``item = Item.model_validate(data)``; ``session.add(item)`` writes its table); else Django's
    rules (:func:`~indexer.languages.python.django_models.class_query`)."""
    if name in PYDANTIC_BUILDERS and found is EXTERNAL and any(
            c.external_base and any((i.module or "").split(".", 1)[0] in _PYDANTIC_MODULES for i in every(c.file.imports))
            and any((unwrapped(b) or "").split("[", 1)[0].rpartition(".")[2] in _PYDANTIC_BASES for b in c.heads.bases)
            for c in r.mro(cls)):
        return QueryV(cls, name)
    return class_query(r, cls, name, found)


def query_call(v: QueryV) -> Value:
    """What calling ``v.method`` on a query or container returns: on an annotated mapping
    (``v.view``: ``get`` / ``pop`` a value, ``values()`` a sequence of them, ``items()`` pairs,
    anything else the library's; :func:`~indexer.resolve.values.container_call`), on a library future
    (:data:`FUTURE`) its value for :data:`FUTURE_RESULTS`, else the library's; a pydantic builder of a model class (:func:`class_attribute`) an instance of it, else Django's
    queryset rules (:func:`indexer.languages.python.django_models.query_call`)."""
    if v.view == FUTURE:
        return element(v) if v.method in FUTURE_RESULTS else EXTERNAL
    if v.view:
        return container_call(v, frozenset(), frozenset(), _MAP_ONE, _MAP_VIEWS)
    if v.method in PYDANTIC_BUILDERS and v.manager is None:
        return InstV(v.c, "inferred")
    return django_query_call(v)


class PythonModuleSystem:
    """Python's :class:`~indexer.resolve.language.ModuleSystem`."""

    languages = frozenset({"python"})
    namespace = "python"
    dotted_packages = True
    layout_suffixes = (".py", ".pyi")
    primitives = frozenset({"int", "float", "str", "bytes", "bool", "None", "list", "dict", "set", "tuple",
                            "frozenset", "type", "object"})
    constructor_name = "__init__"
    construction_hooks = ("__new__", "__post_init__")
    call_method = "__call__"
    deferred_calls = frozenset({"delay", "apply_async", "apply", "run"})
    """A Celery task's methods that run its function: later on a worker (``delay``, ``apply_async``) or in
    place (``apply``; ``run``, the function itself, as tests call it: ``create_task.run(1)``)."""
    guard_callbacks = {
        # Flask-HTTPAuth: `@auth.login_required` runs what was registered on that same `auth` object.
        ("flask_httpauth", ".login_required"): ("verify_password", "verify_token", "get_password", "hash_password",
                                                "get_user_roles", "error_handler"),
        # Flask-Login: the guards load the user with the LoginManager's loaders (or call its handlers).
        ("flask_login", "login_required"): ("user_loader", "request_loader", "unauthorized_handler"),
        ("flask_login", "fresh_login_required"): ("user_loader", "request_loader", "unauthorized_handler",
                                                  "needs_refresh_handler"),
        # Flask-JWT-Extended: `@jwt_required()` checks the block list and loads the token's user
        # (4.x names, then 3.x's; 3.x's `@jwt_optional` / `@fresh_jwt_required` /
        # `@jwt_refresh_token_required` load it as well).
        ("flask_jwt_extended", "jwt_required"): _JWT_CALLBACKS,
        ("flask_jwt_extended", "jwt_optional"): _JWT_CALLBACKS,
        ("flask_jwt_extended", "fresh_jwt_required"): _JWT_CALLBACKS,
        ("flask_jwt_extended", "jwt_refresh_token_required"): _JWT_CALLBACKS,
    }
    """Library guards of a route and the application callbacks they run (:mod:`indexer.frameworks.auth_guards`)."""
    guard_failure_callbacks = frozenset({"error_handler", "unauthorized_handler", "needs_refresh_handler"})
    """Of :attr:`guard_callbacks`, those the guard runs only when its check fails (an error handler of
    the routes it guards, not a callback of every request)."""
    library_callbacks = {
        "map": ("0",), "filter": ("0",), "sorted": ("key",), "min": ("key",), "max": ("key",), "sort": ("key",),
        "reduce": ("0",), "starmap": ("0",), "filterfalse": ("0",), "takewhile": ("0",), "dropwhile": ("0",),
        "groupby": ("key",), "nsmallest": ("key",), "nlargest": ("key",),
    }
    """Library calls that call a function handed to them, and the arguments (position or keyword)
    holding it (read by the core's :func:`~indexer.resolve.callbacks.library_callbacks`, an optional
    attribute of a module system): the builtins ``map(f, xs)``, ``filter(f, xs)``, ``sorted(xs,
    key=f)``, ``min`` / ``max(key=f)``, ``list.sort(key=f)``, ``functools.reduce(f, xs)`` and
    itertools' / heapq's of the same kind call ``f`` from the caller (the Python documentation's
    signatures: the function is the first argument, or ``key``). Functions a library runs later for
    the caller (threads, executors, the event loop, background tasks) are the detector
    :mod:`indexer.languages.python.frameworks.deferred_calls`'s, which reads the file's imports."""
    instance_prefix = "self."
    class_body_hidden = True
    scoped_imports = True
    class_receiver = "cls"
    implicit_this = False
    property_functions = False
    top_types = frozenset({"Any", "typing.Any", "t.Any", "object"})
    """Declared types that say nothing of a value (``self._obj: Any = None`` then ``self._obj = make()``:
    the assignment does; an optional attribute of a module system read by ``binding_value``)."""
    getter_modifiers = frozenset({"property"})
    """Methods an attribute read runs (``@property``, ``@cached_property``: the extractor's modifier),
    an optional attribute of a module system (:mod:`indexer.resolve.reads`)."""
    open_types = False
    definitions_in_order = True
    """A name defined twice by ``def`` / ``class`` in one scope is, to code running in that scope's own
    body (a module's or class's statements, a decorator, a function's own statements), the definition
    written last before it: an optional attribute of a module system (:class:`indexer.resolve.calls.CallBinder`)."""
    subclass_members = True
    """A method may call on its own instance what only subclasses provide (a mixin's
    ``self.get_object()``, a template method's hook): an optional attribute of a module system
    (:meth:`indexer.resolve.hierarchy.ClassHierarchy.provided_below`)."""
    framework_receiver = staticmethod(framework_receiver)
    """Optional hook of the resolver core: Flask-SQLAlchemy's ``db.Model``, Django's ``request.user``
    / ``get_user_model()`` (:func:`framework_receiver`)."""
    reverse_member = staticmethod(reverse_member)
    """Optional hook of the resolver core: Django's reverse one-to-one accessors
    (:func:`indexer.languages.python.django_models.reverse_member`)."""
    class_query = staticmethod(class_attribute)
    """Optional hook of the resolver core: Django's ``M.objects``
    (:func:`indexer.languages.python.django_models.class_query`), pydantic's ``M.model_validate``
    (:func:`class_attribute`)."""
    query_call = staticmethod(query_call)
    """Optional hook of the resolver core: what a Django queryset's or an annotated mapping's
    method returns (:func:`query_call`)."""
    opaque_return = staticmethod(opaque_return)
    """Optional hook of the resolver core: what a Django manager's or queryset's own method with an
    unreadable return yields (:func:`indexer.languages.python.django_models.opaque_return`)."""
    query_member = staticmethod(query_member)
    """Optional hook of the resolver core: what a Django queryset's member returns on its receiver
    (:func:`indexer.languages.python.django_models.query_member`)."""
    base_texts = staticmethod(manager_bases)
    """Optional hook of the resolver core: the bases one written base stands for (Django's
    ``M.from_queryset(Qs)``: :func:`indexer.languages.python.django_models.manager_bases`)."""
    map_value = staticmethod(map_value)
    """Optional hook of the resolver core: the value type of an annotated mapping (:func:`map_value`)."""
    tuple_items = staticmethod(tuple_items)
    """Optional hook of the resolver core: the item types of an annotated tuple (:func:`tuple_items`)."""
    container_element = staticmethod(container_element)
    """Optional hook of the resolver core: the element type of an annotated container
    (``list[User]``, ``dict[int, User]``, ``QuerySet[User]``; :func:`container_element`)."""
    injected = staticmethod(injected)
    """Optional hook of the resolver core: what pytest hands a test's untyped parameter, the fixture
    of its name (:func:`indexer.languages.python.pytest_fixtures.injected`)."""
    visible_fixture = staticmethod(visible_fixture)
    """Optional hook of the framework linker: whether pytest hands a test's parameter a fixture, and the
    repository's fixture of that name the test sees (:func:`indexer.languages.python.pytest_fixtures.visible_fixture`;
    :mod:`indexer.frameworks.fixture_clients`)."""
    type_parameters = staticmethod(type_parameters)
    """Optional hook of the resolver core: a class's type parameters (:func:`type_parameters`;
    :mod:`indexer.resolve.generics`)."""
    base_type_arguments = staticmethod(base_type_arguments)
    """Optional hook of the resolver core: the type arguments of a class's generic bases
    (:func:`base_type_arguments`)."""
    class_of = staticmethod(class_of)
    """Optional hook of the resolver core: the class a ``type[X]`` annotation names (:func:`class_of`)."""
    type_arguments = staticmethod(type_arguments)
    """Optional hook of the resolver core: the type arguments of a declared type (:func:`type_arguments`)."""
    related_value = staticmethod(related_value)
    """Optional hook of the resolver core: Django's foreign keys and one-to-one fields
    (:func:`indexer.languages.python.django_models.related_value`)."""
    table_name = staticmethod(table_name)
    """Optional hook of the framework linker: the table a Django model, migration or many-to-many
    field names by Django's rule (:func:`indexer.languages.python.django_tables.table_name`)."""
    library_model = staticmethod(library_model)
    """Optional hook of the framework linker: a Django class that is a model through a library base
    (:func:`indexer.languages.python.django_tables.library_model`)."""
    unreached_member = staticmethod(unreached_manager_method)
    """Optional hook of the resolver core: a method a name match must not give a call on an unknown
    receiver (a Django related manager whose model's manager lacks it:
    :func:`indexer.languages.python.django_models.unreached_manager_method`)."""

    def is_builtin(self, name: str) -> bool:
        """Whether ``name`` is a Python builtin."""
        return name in _BUILTINS

    @staticmethod
    def record_item(r: Lookup, cls: Def, index: str) -> Value:
        """What subscripting an instance of ``cls`` by the literal ``index`` reads when its items are its
        annotated fields: of a ``TypedDict`` a string key names one (``cfg["db"]``: field ``db``), of a
        ``NamedTuple`` an integer picks one in declaration order (``pair()[1]``, and so ``a, b = pair()``);
        ``None`` otherwise (another class, a key that is no literal, no such field)."""
        found = _record_kind(r, cls)
        if found is None:
            return None
        kind, record = found
        if kind == "TypedDict":
            key = index[1:-1] if len(index) > 2 and index[0] == index[-1] and index[0] in "'\"" else ""
            return r.attr(InstV(cls, "inferred"), key) if key.isidentifier() else None
        fields = r.memoised((id(record.file), record.qualname, str(record.line), "tuple fields"),
                            lambda: _tuple_fields(record)) or ()
        i = int(index) if index.lstrip("-").isdigit() else len(fields)
        return r.attr(InstV(cls, "inferred"), fields[i]) if -len(fields) <= i < len(fields) else None

    @staticmethod
    def builtin_type_member(type_name: str, member: str) -> bool:
        """Whether ``type_name`` (``str``, ``builtins.dict``) names a builtin type that has the attribute
        ``member`` (``str.split``), by the running interpreter's own ``builtins``."""
        t = getattr(builtins, type_name.removeprefix("builtins."), None)
        return isinstance(t, type) and hasattr(t, member)

    def layout_keys(self, paths: Iterable[str]) -> Mapping[str, str]:
        """:func:`python_module_keys`."""
        return python_module_keys(paths)

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The dotted module of the file, from the package layout."""
        return layout[ex.path]

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The file's dotted module, then its :func:`namespace_aliases` (a file of a folder without
        ``__init__.py`` is found under both)."""
        return [fc.module_key, *namespace_aliases(fc.path, fc.module_key)]

    def package_keys(self, fc: FileCtx) -> list[str]:
        """:meth:`module_keys`: the folders of an alias are namespace packages."""
        return self.module_keys(fc)

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """``import a.b`` binds a module; ``from a import x`` a member of ``a`` or its submodule ``a.x``."""
        key = absolute_module(fc, imp)
        if key is None:
            return EXTERNAL
        if imp.name is None:
            return ModuleV("python", key) if r.has_package("python", key) else EXTERNAL
        if not r.has_package("python", key):
            loader = LOADER_PROXIES.get((key, imp.name))
            return proxied(r, fc, loader) if loader else EXTERNAL
        files = r.module_files("python", key)
        if len(files) > 1:  # one module in several places (services of a monorepo): the importer's own
            return self.member_of(r, key, imp.name, [nearest(fc.path, files)])
        value = r.module_member("python", key, imp.name)
        # A namespace package (no file of its own, PEP 420) found nothing of that name here: other
        # portions of it, or a library of that name (a regular package wins over a namespace), may
        # hold it. Not a name of the repository left unbound.
        return EXTERNAL if value is None and not files else value

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """A module-level definition, import or binding of the module's file, else its submodule
        ``key.name``, else what its star imports bring. An import of the package's own submodule
        that resolves to nothing (the package's ``__init__`` re-exporting it, ``from . import hdrs as
        hdrs``: the lookup comes back to this package, a cycle) is that submodule."""
        return self.member_of(r, key, name, r.module_files("python", key))

    def member_of(self, r: Lookup, key: str, name: str, files: list[FileCtx]) -> Value:
        """:meth:`module_member` read from ``files`` (those holding module ``key``, the first one
        deciding)."""
        if files:
            fc = files[0]
            r.use(("name", fc.path, name))
            defs = entries(fc.top, name)
            if defs:
                return r.def_value(defs[-1])
            sub = f"{key}.{name}" if key else name
            if name in fc.imports:  # a package importing its own submodule (`from . import hdrs as hdrs`
                # in aiohttp/__init__.py) is the import cycle member_of -> resolve_import -> member_of: the submodule
                v = r.resolve_import(fc, entries(fc.imports, name)[-1])
                return ModuleV("python", sub) if v is None and r.has_package("python", sub) else v
            if (None, name) in fc.bindings:
                return r.binding_value(fc, fc.bindings[(None, name)])
        sub = f"{key}.{name}" if key else name
        if r.has_package("python", sub):
            return ModuleV("python", sub)
        for fc in files:
            r.use(("name", fc.path, "*"))
            v = _star_member(r, fc, name)
            if v is not None:
                return v
        return None

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """What the file's ``import *`` statements bring under ``name``; else, for a
        builtin class (:data:`_BUILTIN_TYPES`, :data:`_BUILTIN_BASES`: :data:`BUILTIN`, whose
        methods are no repository's), ``None`` for anything else."""
        v = _star_member(r, fc, name)
        if v is not None:
            return v
        return BUILTIN if name in _BUILTIN_TYPES or name in _BUILTIN_BASES else None

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """Python has no fully qualified names without an import."""
        return None

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """The module's files and the member (``from shop import urls``: the submodule itself)."""
        key = absolute_module(fc, imp)
        if key is None:
            return ImportTarget()
        if imp.name is not None:
            sub = f"{key}.{imp.name}" if key else imp.name
            if r.is_package("python", sub):
                return ImportTarget(r.module_files("python", sub), None)
        return ImportTarget(r.module_files("python", key), imp.name)

    def module_by_name(self, r: Lookup, fc: FileCtx, name: str) -> list[FileCtx]:
        """The files of the dotted module ``name``."""
        return r.module_files("python", name)


MODULE_SYSTEM = PythonModuleSystem()
