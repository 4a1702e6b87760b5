"""The values of the resolver's abstract interpreter, and the definitions they point at.

A name or expression of a file evaluates to one of: a module (:class:`ModuleV`), a class
(:class:`ClassV`), an instance of a class (:class:`InstV`), a function (:class:`FuncV`), an object
whose properties are definitions (:class:`ObjV`), a library query of a class's rows
(:class:`QueryV`: a Django queryset, a library container or map), a fixed tuple of values
(:class:`TupleV`: ``tuple[A, B]``, a map's key-value pair), :data:`EXTERNAL` (known to live outside the
repository), :data:`BUILTIN` (an object of the language's own types: its methods are outside the
repository, what it holds is unknown) or ``None`` (unknown). Every language shares
these; a language's module system (:class:`indexer.resolve.language.ModuleSystem`) builds them.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from dataclasses import dataclass
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from indexer.model import CALLABLE_KINDS, TYPE_KINDS, Definition
from indexer.resolve.def_heads import Heads
from indexer.resolve.multimap import MultiMap

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["EXTERNAL", "External", "BUILTIN", "Builtin", "Def", "Shape", "shape_of", "ModuleV", "ClassV", "InstV", "FuncV", "ObjV", "QueryV", "TupleV", "CLASSES", "MAP", "MAX_NESTING", "PAIRS", "Value", "Token", "Deps", "module_name_token", "container_call", "element", "element_of",
           "nested"]

Token = tuple[str, str, str]
"""What a computation read: ``("name", path, n)`` (name ``n`` of a file), ``("file", path, "")`` (a
whole file), ``("m", namespace, key)`` (a module key), ``("n", namespace, short name)`` (a name
matched by name), ``("mn", namespace, key + "\\n" + short name)`` (which files of a module define a
name: :func:`module_name_token`)."""
Deps = tuple[Token, ...]
"""Everything one computation read (see :class:`indexer.resolve.tracking.DependencyTracker`)."""


def module_name_token(ns: str, key: str, name: str) -> Token:
    """The token of a read of which files of module ``key`` (namespace ``ns``) define ``name``, at
    top level or as a member (:meth:`indexer.resolve.interpreter.Resolver.module_holders`): changed
    whenever a file of that module gains, loses or changes a definition of that short name."""
    return ("mn", ns, f"{key}\n{name}")


class External:
    """A value known to come from outside the repository (an unresolved import, a library type)."""

    def __repr__(self) -> str:
        return "EXTERNAL"


EXTERNAL = External()
"""The one :class:`External` value."""


class Builtin:
    """An object of the language's own types: a literal (``", "``, ``{}``), what a builtin class
    builds (``set()``), a variadic parameter (``*args``, ``**kwargs``). A call of one of its methods
    is external (never matched to a repository method by name); what those methods hand back (an
    element taken out of a container: ``kwargs.get("queryset")``) is unknown, not external."""

    def __repr__(self) -> str:
        return "BUILTIN"


BUILTIN = Builtin()
"""The one :class:`Builtin` value."""


class Shape(NamedTuple):
    """What binding a call reads of a definition besides its names: ``params`` (how many),
    ``min_arity`` / ``max_arity`` (:attr:`indexer.model.Definition.min_arity` / ``max_arity``:
    ``None`` when variadic), ``generated`` (a tool wrote it: ``Definition.generated`` is set),
    ``extension`` (``Definition.receiver_type`` is set), ``shadowed`` (a later definition replaces
    it: ``Definition.shadowed``, no lookup reaches it), ``decorated`` (``Definition.decorators``
    is not empty: a call may run a wrapper first) and ``getter`` (a method carrying one of its
    language's ``getter_modifiers``, :class:`indexer.resolve.language.ModuleSystem`: Python
    ``@property``, ECMAScript ``get x()``; the module tables and reads ask it of every method, and
    held here a parked definition need not be read back for it); ``kind`` (``Definition.kind``,
    interned) and ``tail`` (what the node id adds after the qualname,
    :func:`indexer.symbols.definition_tails`, interned), held here and not in a slot of each
    :class:`Def` (two slots fewer: 96 bytes a Def, not 112; docs/benchmarks.md, session 52). One
    object per distinct value (:func:`shape_of`)."""

    params: int
    min_arity: int
    max_arity: int | None
    generated: bool
    extension: bool
    shadowed: bool = False
    decorated: bool = False
    getter: bool = False
    kind: str = ""
    tail: str = ""


_SHAPES: dict[Shape, Shape] = {}


def shape_of(d: Definition, getter_modifiers: Collection[str] | None = None, tail: str = "") -> Shape:
    """``d``'s :class:`Shape`, the one object of that value (there are few: parameter counts,
    kinds, id tails); ``getter_modifiers``: its language's (:attr:`Shape.getter`; ``None``: it has
    none); ``tail``: what its id adds after its qualname (:attr:`Shape.tail`)."""
    getter = bool(getter_modifiers) and d.kind == "method" and any(m in getter_modifiers for m in d.modifiers)
    shape = Shape(len(d.params), d.min_arity, d.max_arity, d.generated is not None, d.receiver_type is not None, d.shadowed,
                  bool(d.decorators), getter, sys.intern(d.kind), sys.intern(tail))
    return _SHAPES.setdefault(shape, shape)


class _Links(NamedTuple):
    """What the class hierarchy links to a :class:`Def` (see :attr:`Def.bases`,
    :attr:`Def.external_base`, :attr:`Def.subclasses`, :attr:`Def.bases_deps`), and its qualname
    when that is not its parent's and its name (``q``, see :attr:`Def.qualname`; ``None`` almost
    always), in one slot: both are rare, and a slot is 8 bytes of each Def."""

    bases: list[Def] | tuple[Def, ...] | None
    external_base: bool
    subclasses: list[Def] | tuple[()]
    bases_deps: Deps
    q: str | None = None


_UNLINKED = _Links(None, False, (), ())
"""The links of a definition whose bases are not resolved (most: every non-class) and whose qualname
is derived."""
_NO_LINKS = _Links((), False, (), ())
"""The links of a class resolved to no repository base and no subclass, whose qualname is derived."""


def _links(bases: list[Def] | tuple[Def, ...] | None, external_base: bool, subclasses: list[Def] | tuple[()],
           bases_deps: Deps, q: str | None = None) -> _Links:
    """The links of these values: one of the two shared ones when they are theirs."""
    if q is None and not external_base and not subclasses and not bases_deps and (bases is None or bases == ()):
        return _UNLINKED if bases is None else _NO_LINKS
    return _Links(bases, external_base, subclasses, bases_deps, q)


class Def:
    """A definition with its id and the file it lives in. Its members (a class's methods and
    fields, a function's nested or prototype definitions) are not held: :meth:`member` reads those of
    one name out of the file's definitions per qualname, :attr:`members` builds the whole table
    when read (a table per class was 0.6 KB a file of the 10-package generated monorepo and the
    slot 16 bytes a Def in pymalloc's size classes; docs/benchmarks.md, session 51).

    ``name``, ``parent``, ``kind`` and ``shape`` (a :class:`Shape`) come from the
    :class:`~indexer.model.Definition` and are held here: lookups and call binding read them all the
    time, in every file; :attr:`qualname` is built from ``parent`` and ``name`` when read (held, in
    the ``links`` slot, only where it is not ``parent.name``). The rest of the definition is
    :attr:`d`, which the Def holds itself or, once its file's definitions are parked on disk
    (:func:`indexer.parked.park_extraction`), reads back through the file by its position (one slot,
    ``src``, holds either); :attr:`line` is read from the held definition or, parked, from the file's
    column of first lines. What the class hierarchy links to it (``bases``, ``external_base``,
    ``subclasses``, ``bases_deps``) and the rare held qualname are one slot, a shared value for the
    definitions no class links: each slot is 8 bytes for each of the 1.09 million definitions of the
    400 MB generated monorepo (15 slots were 152 bytes a Def, 11 were 120 (128 in pymalloc), 10 were
    112, 8 were 96, 6 are 80; docs/benchmarks.md, sessions 44, 51, 52 and 54)."""

    __slots__ = ("name", "parent", "shape", "src", "file", "links")

    def __init__(self, tail: str, d: Definition, file: FileCtx) -> None:
        self.src: Definition | int = d
        """The definition while this Def holds it, else its position in the file's extraction's
        ``definitions``, read back through :attr:`file` (:meth:`park`)."""
        # one string object per distinct name across files (definitions read back from disk hold
        # their own copies); a top-level qualname is its name
        self.name = sys.intern(d.name)
        self.parent = sys.intern(d.parent) if d.parent is not None else None
        # the qualname is held only when it is not the parent's and the name (see ``qualname``)
        derived = "." not in d.name and d.qualname == (d.name if d.parent is None else f"{d.parent}.{d.name}")
        self.shape = shape_of(d, getattr(file.rules, "getter_modifiers", None), tail)
        """What a call needs to know of it, its kind and its id's tail (:class:`Shape`)."""
        self.file = file
        self.links = _UNLINKED if derived else _Links(None, False, (), (), d.qualname)

    @property
    def qualname(self) -> str:
        """The definition's qualname: built when read from :attr:`parent` and :attr:`name`
        (``parent.name``; the name at top level), or held when it is not that (:attr:`derived`).
        A string per member definition held for the whole run was about 1.3 KB a file of the
        generated monorepos (docs/benchmarks.md, session 52)."""
        q = self.links.q
        if q is not None:
            return q
        p = self.parent
        return self.name if p is None else f"{p}.{self.name}"

    @property
    def kind(self) -> str:
        """Its kind (``Definition.kind``: ``class``, ``method``, ``function``, ``field`` ...), held in
        :attr:`shape`."""
        return self.shape.kind

    @property
    def tail(self) -> str:
        """What the id adds after the file's prefix and the qualname (see :attr:`id`), held in
        :attr:`shape`."""
        return self.shape.tail

    @property
    def derived(self) -> bool:
        """Whether the qualname is the parent's qualname and the name (the name at top level) and
        the name holds no dot: then the qualname names exactly one ``(parent, name)`` pair
        (:class:`indexer.resolve.qualnames.QualnameIndex`)."""
        return self.links.q is None

    @property
    def members(self) -> MultiMap[str, Def]:
        """Its members per name (:meth:`indexer.resolve.context.FileCtx.members_of`), built when
        read: a lookup of one name asks :meth:`member`."""
        return self.file.members_of(self.qualname)

    def member(self, name: str) -> tuple[Def, ...]:
        """Its members named ``name`` in source order (:meth:`indexer.resolve.context.FileCtx.member`)."""
        return self.file.member(self.qualname, name)

    def park(self, index: int) -> None:
        """Stop holding the definition: it is the ``index``-th of the file's extraction's
        ``definitions``, parked on disk, which :attr:`d` reads back through :attr:`file`."""
        self.src = index

    @property
    def held(self) -> Definition | None:
        """The definition, when this Def holds it (``None``: read back through :attr:`file`)."""
        src = self.src
        return None if type(src) is int else src

    @property
    def index(self) -> int | None:
        """The definition's position in its file's extraction's ``definitions`` once parked
        (``None`` while this Def holds it)."""
        src = self.src
        return src if type(src) is int else None

    @property
    def line(self) -> int:
        """The definition's first line (1-based, ``Definition.start_line``): the held definition's,
        or once parked the file's column of first lines (:attr:`indexer.resolve.context.FileCtx.def_lines`)
        at :attr:`index`. Not a slot: a slot is 8 bytes of each Def, and a line above 256 a
        32-byte int object besides (docs/benchmarks.md, session 54)."""
        src = self.src
        if type(src) is not int:
            return src.start_line  # type: ignore[union-attr]
        lines = self.file.def_lines
        return lines[src] if lines is not None else self.file.definition(src).start_line

    @property
    def bases(self) -> list[Def] | tuple[Def, ...] | None:
        """The repository classes it extends (:meth:`indexer.resolve.hierarchy.ClassHierarchy.bases`):
        ``None`` until resolved, a list while being resolved, then a tuple (the empty one shared)."""
        return self.links.bases

    @bases.setter
    def bases(self, value: list[Def] | tuple[Def, ...] | None) -> None:
        lk = self.links
        self.links = _links(value, lk.external_base, lk.subclasses, lk.bases_deps, lk.q)

    @property
    def external_base(self) -> bool:
        """Whether it extends a class from outside the repository."""
        return self.links.external_base

    @external_base.setter
    def external_base(self, value: bool) -> None:
        lk = self.links
        self.links = _links(lk.bases, value, lk.subclasses, lk.bases_deps, lk.q)

    @property
    def subclasses(self) -> list[Def] | tuple[()]:
        """Its direct subclasses: the shared empty tuple until one is linked, then a list (most
        definitions are no class's base: an empty list each was 3.1 MiB for the 58,614 definitions of
        the 10-package generated monorepo, docs/benchmarks.md)."""
        return self.links.subclasses

    @subclasses.setter
    def subclasses(self, value: list[Def] | tuple[()]) -> None:
        lk = self.links
        self.links = _links(lk.bases, lk.external_base, value, lk.bases_deps, lk.q)

    @property
    def bases_deps(self) -> Deps:
        """What resolving ``bases`` read (see ClassHierarchy)."""
        return self.links.bases_deps

    @bases_deps.setter
    def bases_deps(self, value: Deps) -> None:
        lk = self.links
        self.links = _links(lk.bases, lk.external_base, lk.subclasses, value, lk.q)

    def unlink(self) -> None:
        """Forget its bases, subclasses and what resolving the bases read (a full build starts anew)."""
        q = self.links.q
        self.links = _UNLINKED if q is None else _Links(None, False, (), (), q)

    @property
    def d(self) -> Definition:
        """The :class:`~indexer.model.Definition`: held, or read back from the file's parked
        definitions (:meth:`indexer.resolve.context.FileCtx.definition`; raises
        :class:`indexer.parked.ParkedDataError` when they cannot be read)."""
        src = self.src
        return self.file.definition(src) if type(src) is int else src

    @property
    def heads(self) -> Heads | Definition:
        """Its written ``bases``, ``implements`` and ``decorators`` (texts, in source order): the held
        definition itself, or once parked the file's column (:attr:`indexer.resolve.context.FileCtx.def_heads`,
        :class:`~indexer.resolve.def_heads.Heads`), so other files' lookups asking them read no parked
        list back. Read these three here rather than through :attr:`d`; iterate them, do not change them.
        Raises :class:`indexer.parked.ParkedDataError` as :attr:`d` for a parked file without a column."""
        src = self.src
        if type(src) is not int:
            return src  # type: ignore[return-value]
        column = self.file.def_heads
        return column.get(src) if column is not None else self.file.definition(src)

    def take(self, other: Def) -> None:
        """Stand for the definition ``other`` stands for (a later version of the same definition:
        same id, or the same qualname in a file whose interface did not change); the caller points
        :attr:`file` at the file whose extraction ``other`` reads."""
        self.src, self.shape = other.src, other.shape
        self.name, self.parent = other.name, other.parent
        lk, q = self.links, other.links.q
        if lk.q != q:
            self.links = _links(lk.bases, lk.external_base, lk.subclasses, lk.bases_deps, q)

    @property
    def id(self) -> str:
        """The node id (:func:`indexer.symbols.definition_ids`), built when read from the file's id
        prefix, the qualname and :attr:`tail` (interned, shared): one string per definition held
        for the whole run would cost more than the concatenation."""
        return self.file.id_prefix + self.qualname + self.shape.tail

    @property
    def is_type(self) -> bool:
        """Whether this is a class, interface or enum."""
        return self.shape.kind in TYPE_KINDS

    @property
    def is_callable(self) -> bool:
        """Whether this is a method, function or constructor."""
        return self.shape.kind in CALLABLE_KINDS

    def __repr__(self) -> str:
        return f"Def({self.file.path}:{self.qualname}{self.tail}, {self.kind})"


@dataclass(frozen=True, slots=True)
class ModuleV:
    """A module: ``ns`` the module namespace (``python`` | ``java`` | ``ecmascript``), ``key`` its key."""

    ns: str
    key: str


@dataclass(frozen=True, slots=True)
class ClassV:
    """A class; ``dynamic``: ``cls`` in a class, any subclass of ``c`` at run time."""

    c: Def
    dynamic: bool = False


@dataclass(frozen=True, slots=True)
class InstV:
    """An instance of ``c``; ``how`` (``exact`` | ``inferred``) says how its type is known;
    ``concrete``: built by calling the class itself, so its run-time class is ``c`` (no subclass);
    ``args``: the repository classes its declared type binds ``c``'s type parameters to, in order
    (``Stack[User]``: ``(User,)``; ``None`` for an argument that is no repository class;
    :mod:`indexer.resolve.generics`)."""

    c: Def
    how: str
    concrete: bool = False
    args: tuple[Def | None, ...] = ()


@dataclass(frozen=True, slots=True)
class FuncV:
    """A function or method; ``how`` (``exact`` | ``inferred``): ``inferred`` when it is what an
    unannotated function returns (``h = make_handler(); h()``)."""

    f: Def
    how: str = "exact"


@dataclass(frozen=True, slots=True)
class ObjV:
    """A plain object of a file whose properties are definitions of that file and that is no
    definition itself (JavaScript ``const api = { list() {} }``, ``obj.m = function () {}``,
    ``const auth = { required: jwt({ getToken }) }``): ``path`` the file, ``qualname`` the object's,
    the definitions' ``parent`` (:attr:`indexer.resolve.context.FileCtx.owners`). By path, not by
    file context, so that a memoised value outlives a new version of the file."""

    path: str
    qualname: str


@dataclass(frozen=True, slots=True)
class QueryV:
    """A library object standing for rows (elements) of the repository class ``c``: Django's manager
    or queryset of model ``c`` (``M.objects``, ``M.objects.filter(...)``), a Java or C# library
    container of ``c`` (``Optional<Owner>``, ``DbSet<Order>``: the module system's
    ``container_element``). Iterating it yields instances of ``c``;
    ``method``: one of its methods, not yet called (``q.filter``), whose call the class's module system
    reads (:meth:`indexer.resolve.interpreter.Resolver.call_result`: a query step is a query of ``c``
    again, a one-row call an instance of ``c``, anything else the library's). Calls of its methods are
    the library's (external), except those ``manager`` has: the instance of the repository's manager
    or queryset class it comes from (``objects = ProfileManager()``), whose own methods are its.
    ``view``: ``""`` a query or a sequence; :data:`MAP` a map whose values are instances of ``c``
    and whose iteration hands out its keys (Python's ``dict[str, User]``); :data:`PAIRS` a map
    whose iteration hands out key-value pairs (a C# ``Dictionary``, a TypeScript ``Map``, Python's
    ``d.items()``). A subscript or a one-element read of either gives a value.
    ``inner``: the elements are themselves library containers, nested ``len(inner)`` levels deep, each
    with this view (outermost first): ``Map<String, List<Owner>>`` is a map whose values are sequences
    of ``Owner`` (``inner=("",)``); an element read of it (:func:`element`) is the next level's
    container, the innermost's an instance of ``c``. At most :data:`MAX_NESTING` levels are kept."""

    c: Def
    method: str = ""
    manager: InstV | None = None
    view: str = ""
    inner: tuple[str, ...] = ()


MAX_NESTING = 4
"""How many containers nested in a container a value keeps (:attr:`QueryV.inner`): a type nested
deeper (a generated ``List<List<...>>`` 200 deep) is no container of the class; reading it stays
linear in its text."""


def element(v: QueryV) -> Value:
    """One element of the container ``v`` (its method, if any, ignored): the container one level in
    when its elements are containers (:attr:`QueryV.inner`), the class ``v.c`` itself (or a subclass)
    when they are classes (:data:`CLASSES`), else an instance of ``v.c`` (``inferred``)."""
    if v.inner:
        return ClassV(v.c, dynamic=True) if v.inner[0] == CLASSES else QueryV(v.c, view=v.inner[0], inner=v.inner[1:])
    return InstV(v.c, "inferred")


def nested(outer_view: str, v: Value) -> QueryV | None:
    """A container (of view ``outer_view``) whose elements are the container ``v`` (a
    :class:`QueryV` without a method), or ``None`` when ``v`` is no such container or the nesting
    would pass :data:`MAX_NESTING`."""
    if not isinstance(v, QueryV) or v.method or v.manager is not None or len(v.inner) >= MAX_NESTING:
        return None
    return QueryV(v.c, view=outer_view, inner=(v.view, *v.inner))


CLASSES = "classes"
"""The last entry of :attr:`QueryV.inner` when the innermost elements are classes, not instances
(Python's ``dict[str, type[Handler]]``, ``list[type[Handler]]``): an element read there is the class."""
MAP = "map"
""":attr:`QueryV.view` of a map iterated by its keys."""
PAIRS = "pairs"
""":attr:`QueryV.view` of a map (or a map's view) iterated by key-value pairs."""


@dataclass(frozen=True, slots=True)
class TupleV:
    """A fixed tuple of values (a function returning ``tuple[Channel, bool]``, TypeScript
    ``[User, boolean]``; a map's key-value pair): ``items`` one value per position; ``names`` the
    positions' attribute names where the language reads them so (C#'s ``KeyValuePair``: ``Key``,
    ``Value``), else empty; a position may have several (C#'s ``Item1`` and a declared ``order``):
    ``names[i]`` names position ``i % len(items)`` (``""``: none). A subscript by an integer literal or
    an unpacking picks one."""

    items: tuple[Value, ...]
    names: tuple[str, ...] = ()


Value = ModuleV | ClassV | InstV | FuncV | ObjV | QueryV | TupleV | External | None


def container_call(v: QueryV, one: frozenset[str], same: frozenset[str],
                   map_one: frozenset[str] = frozenset(), map_views: Mapping[str, str] | None = None) -> Value:
    """What calling the method ``v.method`` of a library container of ``v.c``'s instances gives (a
    module system's ``query_call`` for its containers): an instance of ``v.c`` for a one-element read
    (``one``: ``get``, ``FirstOrDefault``, ``find``), the same container for a step (``same``:
    ``stream``, ``Where``, ``filter``), else the library's value. On a map (``v.view``), ``map_one``
    are the reads of one value (``get``, ``pop``) and ``map_views`` the views it hands out, method
    -> the view's :attr:`QueryV.view` (Python ``values`` -> ``""``: a sequence of the values,
    ``items`` -> :data:`PAIRS`); nothing else of a map is known."""
    if v.view:
        if v.method in map_one:
            return element(v)
        view = map_views.get(v.method) if map_views is not None else None
        if view is not None:
            return QueryV(v.c, view=view, inner=v.inner)
        return QueryV(v.c, view=v.view, inner=v.inner) if v.method in same else EXTERNAL
    if v.method in one:
        return element(v)
    if v.method in same:
        return QueryV(v.c, view=v.view, inner=v.inner)
    return EXTERNAL


def element_of(v: Value) -> Value:
    """What iterating ``v`` yields, when the value model knows: one element of a query or container
    (:func:`element`: ``for c in Check.objects.filter(...)``, Java's ``repo.findAll().forEach(o ->
    ...)``), a key-value pair of a map iterated by pairs (C#'s ``KeyValuePair``, TypeScript's
    ``[k, v]``; the names are the module system's optional ``pair_names``), one item of a tuple whose
    items are all the same value (``for x in (a, b)``); ``None`` otherwise (a map iterated by its keys)."""
    if isinstance(v, QueryV) and not v.method:
        if v.view == PAIRS:
            return TupleV((None, element(v)), getattr(v.c.file.rules, "pair_names", ()))
        return None if v.view else element(v)
    if isinstance(v, TupleV) and v.items and all(x == v.items[0] for x in v.items):
        return v.items[0]
    return None
