"""The values of the resolver's abstract interpreter, and the definitions they point at.

A name or expression of a file evaluates to one of: a module (:class:`ModuleV`), a class
(:class:`ClassV`), an instance of a class (:class:`InstV`), a function (:class:`FuncV`), an object
whose properties are definitions (:class:`ObjV`),
:data:`EXTERNAL` (known to live outside the repository) or ``None`` (unknown). Every language shares
these; a language's module system (:class:`indexer.resolve.language.ModuleSystem`) builds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from indexer.model import CALLABLE_KINDS, TYPE_KINDS, Definition
from indexer.resolve.multimap import EMPTY_TABLE

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["EXTERNAL", "External", "Def", "ModuleV", "ClassV", "InstV", "FuncV", "ObjV", "Value", "Token", "Deps"]

Token = tuple[str, str, str]
"""What a computation read: ``("name", path, n)`` (name ``n`` of a file), ``("file", path, "")`` (a
whole file), ``("m", namespace, key)`` (a module key), ``("n", namespace, short name)`` (a name
matched by name)."""
Deps = tuple[Token, ...]
"""Everything one computation read (see :class:`indexer.resolve.tracking.DependencyTracker`)."""


class External:
    """A value known to come from outside the repository (an unresolved import, a library type)."""

    def __repr__(self) -> str:
        return "EXTERNAL"


EXTERNAL = External()
"""The one :class:`External` value."""


@dataclass(eq=False, slots=True)
class Def:
    """A definition with its id and the file it lives in; classes carry their members: per name,
    the tuple of them in source order (shared by :meth:`~indexer.resolve.hierarchy.ClassHierarchy.lookup`'s
    answers); a definition without members holds the one shared, read-only empty table."""

    tail: str  # what the id adds after the file's prefix and the qualname (see :attr:`id`)
    d: Definition
    file: FileCtx
    members: Mapping[str, tuple[Def, ...]] = field(default_factory=lambda: EMPTY_TABLE)  # type: ignore[arg-type]
    bases: list[Def] | tuple[Def, ...] | None = None
    """The repository classes it extends (:meth:`indexer.resolve.hierarchy.ClassHierarchy.bases`):
    ``None`` until resolved, a list while being resolved, then a tuple (the empty one shared)."""
    external_base: bool = False
    subclasses: list[Def] | tuple[()] = ()
    """Its direct subclasses: the shared empty tuple until one is linked, then a list (most
    definitions are no class's base: an empty list each was 3.1 MiB for the 58,614 definitions of
    the 10-package generated monorepo, docs/benchmarks.md)."""
    bases_deps: Deps = ()  # what resolving ``bases`` read (see ClassHierarchy)

    @property
    def id(self) -> str:
        """The node id (:func:`indexer.symbols.definition_ids`), built when read from the file's id
        prefix, the qualname and :attr:`tail` (interned, shared): one string per definition held
        for the whole run would cost more than the concatenation."""
        return self.file.id_prefix + self.d.qualname + self.tail

    @property
    def is_type(self) -> bool:
        """Whether this is a class, interface or enum."""
        return self.d.kind in TYPE_KINDS

    @property
    def is_callable(self) -> bool:
        """Whether this is a method, function or constructor."""
        return self.d.kind in CALLABLE_KINDS


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
    ``concrete``: built by calling the class itself, so its run-time class is ``c`` (no subclass)."""

    c: Def
    how: str
    concrete: bool = False


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


Value = ModuleV | ClassV | InstV | FuncV | ObjV | External | None
