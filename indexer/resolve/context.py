"""One file as the resolver sees it: its extraction, lookup tables and interface digests.

:class:`FileCtx` indexes a :class:`~indexer.model.FileExtraction` for lookups (top-level names,
qualnames, imports, bindings per scope, lexical nesting) and digests what other files can read of it
(:attr:`FileCtx.interface`, per name :attr:`FileCtx.names`), which incremental updates compare.
Language-neutral: what differs by language is in ``FileCtx.rules`` (the language's
:class:`~indexer.resolve.language.ModuleSystem`).
"""

from __future__ import annotations

import contextlib
import hashlib
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from indexer.compact import compact_extraction
from indexer.heap import declared_lazily
from indexer.model import CALLABLE_KINDS, TYPE_KINDS, CallSite, Definition, FileExtraction, Import, Param
from indexer.parked import ParkedList, UnpackedLists
from indexer.resolve.import_table import ImportList, ImportTable, import_table
from indexer.resolve.parked_imports import ParkedImports, park_imports
from indexer.resolve.bindings import REGISTERS, ScopedBindings
from indexer.resolve.def_heads import HeadColumn, heads_column
from indexer.resolve.multimap import EMPTY_TABLE, MultiMap, entries, freeze, group
from indexer.resolve.held_arguments import HeldCall, held_arguments, protocol_parameters
from indexer.resolve.qualnames import QualnameIndex
from indexer.resolve.values import Def
from indexer.symbols import defines_suffix, definition_tails, id_prefix

if TYPE_CHECKING:
    from indexer.resolve.language import ModuleSystem

__all__ = ["FileCtx", "TopLevel", "REGISTERS", "MAX_NAMESAKES", "MAX_OVERLOADS", "line_column", "namesakes", "overload_candidates", "overloads_cut", "decorator_name", "default_export", "spans", "shared_parts"]


_NO_OWNERS: frozenset[str] = frozenset()

_NO_PARENTS: Mapping[str, str | None] = MappingProxyType({})
_NO_PARAM_CALLS: Mapping[str, dict[str, tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]]] = MappingProxyType({})
"""The lexical parents of a file none of whose definitions' differs from the default (most), and the
parameter calls of a file calling no parameter (most): one shared read-only empty mapping each
(:attr:`FileCtx.lexical_parent`, :attr:`FileCtx.param_calls`), not a 64-byte dict per file."""
_NO_HELD_CALLS: Mapping[str, dict[str, tuple[HeldCall, ...]]] = MappingProxyType({})
"""What :attr:`FileCtx.held_arguments` and :attr:`FileCtx.protocol_parameters` are for a file with none
(most): one shared read-only mapping, not an empty dict each."""

_SCAN_LIMIT = 8
"""Definitions of one qualname :meth:`FileCtx.def_at` scans; more are looked up by line."""

MAX_NAMESAKES = 64
"""Definitions of one qualname in one file that a lookup holds at most: the last ones in source order.
A file may define one name many times where the language lets a later definition coexist with the
earlier ones (Python definitions under ``if`` / ``try`` or decorated, JavaScript class members or
property assignments, a generated or hostile file repeating one method thousands of times). Every
call binding the name reaches each one held and walks each one's overrides, so without a bound the
work and the CALLS edges grow with the square of the copies (700 copies of a method calling itself:
490,000 edges). What is lost: calls no longer reach the earlier copies beyond the last 64 (those keep
their nodes and their own calls). 64 is above the overloads of one name real classes declare (Java's
``Arrays.fill`` has 18, Apache Commons' ``ArrayUtils`` about 30; Django and Home Assistant at most 3
definitions of one qualname in a file), so real code binds as before. Replaced definitions
(:attr:`indexer.model.Definition.shadowed`) are not held at all."""


MAX_OVERLOADS = 256
"""Definitions of one qualname in one file that a language choosing overloads by signature (the
module system's ``overloads_by_signature``: Java) compares with a call before :data:`MAX_NAMESAKES`
applies (:func:`overload_candidates`): the last ones in source order. The choice by arity and
argument types comes first, so that a call of one of javaparser's visitors' 100-odd ``visit``
overloads reaches the one its arguments select, not one of the last 64; the overloads chosen are
then cut to :data:`MAX_NAMESAKES`, so the CALLS edges and the override walks stay bounded as before.
What this bound holds is the work of comparing, linear in the copies per call: a hostile file
repeating one method 5,000 times, each copy calling it, compares 256 per call, not 5,000 (main
8.2 s, this 8.7 s on a loaded 2-core machine: the same 320,000 edges). 256 is above the overloads of
one name real classes declare (javaparser's ``GenericVisitor``: 100-odd ``visit``)."""


def overload_candidates(c: Def, name: str) -> list[Def]:
    """The definitions named ``name`` that class ``c`` declares, in source order (overloads share
    their qualname), those no later definition replaces, at most the last :data:`MAX_OVERLOADS`:
    what a call chooses among by signature before :func:`namesakes`' bound applies."""
    kept = [rd for rd in entries(c.file.by_qualname, f"{c.qualname}.{name}") if not rd.shape.shadowed]
    return kept[-MAX_OVERLOADS:] if len(kept) > MAX_OVERLOADS else kept


def overloads_cut(c: Def, name: str) -> bool:
    """Whether class ``c`` declares more definitions named ``name`` than :data:`MAX_OVERLOADS`, so
    that :func:`overload_candidates` left some out of the choice."""
    return sum(1 for rd in entries(c.file.by_qualname, f"{c.qualname}.{name}") if not rd.shape.shadowed) > MAX_OVERLOADS


def namesakes(defs: Sequence[Def]) -> list[Def]:
    """What a lookup holds of ``defs`` (in source order, of one qualname in one file): those no later
    definition replaces, at most the last :data:`MAX_NAMESAKES` of them."""
    kept = [rd for rd in defs if not rd.shape.shadowed]
    return kept[-MAX_NAMESAKES:] if len(kept) > MAX_NAMESAKES else kept


def decorator_name(text: str) -> str:
    """The name a decorator text goes by: its last dotted part before its arguments
    (``login.user_loader`` -> ``user_loader``; ``app.route('/x')`` -> ``route``)."""
    return text.split("(", 1)[0].rpartition(".")[2].strip()


def shared_parts(a: str, b: str) -> int:
    """How many leading parts the ``/``-separated paths ``a`` and ``b`` share: how near two files are
    (each service of a monorepo its own settings, loader or guard callback)."""
    n = 0
    for x, y in zip(a.split("/"), b.split("/")):
        if x != y:
            break
        n += 1
    return n


class TopLevel(Mapping[str, "Def | tuple[Def, ...]"]):
    """A file's top-level definitions per name as a :data:`~indexer.resolve.multimap.MultiMap` (read
    with :func:`~indexer.resolve.multimap.entries`), answered out of its
    :class:`~indexer.resolve.qualnames.QualnameIndex` instead of a table of its own: under each name
    the definitions of that name without a parent, those no later definition replaces, at most the
    last :data:`MAX_NAMESAKES` (:func:`namesakes`): exactly what the table :class:`FileCtx` built
    held, in the same order (names in the order of their first top-level definition in ``defs``, the
    file's definitions in source order). A table per file was about 270 bytes of the 45-package
    generated monorepo's 7 KB a context (docs/benchmarks.md, session 53). Never changed."""

    __slots__ = ("_index", "_defs")

    def __init__(self, index: QualnameIndex, defs: Sequence[Def]) -> None:
        self._index = index
        self._defs = defs

    def get(self, name: str, default: object = None) -> Def | tuple[Def, ...] | None:  # type: ignore[override]
        """The one top-level definition held under ``name``, a tuple of its several in source
        order, or ``default`` when none."""
        defs = self._index.members(None, name) if type(name) is str else ()
        if len(defs) == 1:
            return default if defs[0].shape.shadowed else defs[0]  # type: ignore[return-value]
        kept = namesakes(defs) if defs else ()
        if not kept:
            return default  # type: ignore[return-value]
        return kept[0] if len(kept) == 1 else tuple(kept)

    def __getitem__(self, name: str) -> Def | tuple[Def, ...]:
        v = self.get(name)
        if v is None:
            raise KeyError(name)
        return v

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[str]:
        for name in dict.fromkeys(rd.name for rd in self._defs if rd.parent is None):
            if self.get(name) is not None:
                yield name

    def __len__(self) -> int:
        return sum(1 for _ in self)


class FileCtx:
    """One file's extraction with the lookup tables the resolver needs, and its language's rules
    (``rules``: a :class:`~indexer.resolve.language.ModuleSystem`).

    Its attributes are slots: an object of fixed layout, 272 bytes, where the attribute values of
    CPython 3.11's key-sharing dicts took 320 with the object (tracemalloc, 45-package generated
    monorepo, session 62) and turned into a dict of 1.6 KB of its own when a context got an attribute
    another context did not have first (session 61: a ``functools.cached_property``; a context made
    by :meth:`stub` before the full ones could still do it). Every slot but the lookup tables (which
    :meth:`stub` leaves unset) is set by each constructor."""

    __slots__ = ("_interface", "_structure", "_names", "_param_calls", "_held_arguments", "_protocol_parameters",
                 "unpacked", "def_lines", "def_heads", "repo", "rules", "ex", "path", "lang", "module_key", "checksum", "size",
                 "top", "by_qualname", "id_prefix", "defs", "_def_spans", "types", "owners", "_members",
                 "lexical_parent", "imports", "star_imports", "bindings", "__weakref__")

    unpacked: UnpackedLists | None
    """Where :meth:`definition` reads parked definitions back, and where :meth:`call_sites` finds the
    call sites a :meth:`binding` holds (``None``: each read unpickles)."""
    def_lines: array[int] | None
    """Once the definitions are parked, each one's first line by position in the extraction's
    ``definitions`` (:attr:`indexer.resolve.values.Def.line` reads it: 2 bytes a definition in a
    file of fewer than 65,536 lines, else 4 (:func:`line_column`), not a slot and an int object of
    each Def); ``None`` while the extraction holds them."""
    def_heads: HeadColumn | None
    """Once the definitions are parked, the written bases, interfaces and decorators of those writing
    any (:attr:`indexer.resolve.values.Def.heads` reads it: other files' hierarchy, model and decorator
    questions unpickled the whole list otherwise); ``None`` while the extraction holds them."""
    _members: dict[str, MultiMap[str, Def]] | None
    """The members per parent qualname, held only for a file where some definition's qualname is not
    its parent's qualname and its name (see :meth:`members_of`); ``None``: derived from
    :attr:`by_qualname`."""
    _def_spans: dict[str, tuple[list[int], list[int]] | None] | None
    """:meth:`def_at`'s line index per qualname defined more than ``_SCAN_LIMIT`` times (made when
    first asked; dropped whenever the definitions change)."""
    # _interface, _structure, _names, _param_calls, _held_arguments, _protocol_parameters: what the
    # properties of these names computed (indexer.heap.declared_lazily; None: not yet).

    def __init__(self, repo: str, ex: FileExtraction, module_key: str, checksum: str, size: int,
                 rules: ModuleSystem, unpacked: UnpackedLists | None = None) -> None:
        self._unset()
        self.repo = repo
        self.rules = rules
        """The language's module system and scoping rules."""
        self.ex = ex
        self.path = ex.path
        self.lang = ex.language
        self.module_key = module_key
        self.checksum = checksum
        self.size = size
        self.top: MultiMap[str, Def] = {}
        """Top-level definitions per name (read with :func:`~indexer.resolve.multimap.entries`)."""
        self.by_qualname: MultiMap[str, Def] = {}
        """Definitions per qualname (read with :func:`~indexer.resolve.multimap.entries`)."""
        self.id_prefix = id_prefix(repo, ex)  # honours ex.id_path
        """What every definition id of the file starts with (:attr:`~indexer.resolve.values.Def.id`)."""
        parked = isinstance(ex.definitions, ParkedList)
        definitions = ex.definitions.unpack() if parked else ex.definitions
        # exactly as long as it is (a slice copies to size; the comprehension's list grows by about
        # an eighth past its length while it is filled, 8 bytes a slot for the whole run)
        self.defs = [Def(tail, d, self) for d, tail in zip(definitions, definition_tails(ex, definitions))][:]
        self._index_defs()
        if ex.id_path is None and defines_suffix(self.path, self.by_qualname):
            ex.id_path = self.path  # `class py` in a.py: its id would be the File node's
            self.id_prefix = id_prefix(repo, ex)
        lexical: dict[str, str | None] = {}
        for rd, p in zip(self.defs, self._lexical_parents()):  # the last of a qualname decides
            q = rd.qualname
            if p != (q.rpartition(".")[0] or None):
                lexical[q] = p
            else:
                lexical.pop(q, None)
        self.lexical_parent: Mapping[str, str | None] = lexical or _NO_PARENTS
        """The lexical parent of each definition's qualname that differs from the default
        ``qualname.rpartition(".")[0] or None`` (see :meth:`parent_scope`); most do not differ, and
        those files share one empty mapping (a dict each was 64 bytes a file)."""
        table: ImportTable | ParkedImports
        if parked:  # read back from disk when looked up (indexer.resolve.parked_imports)
            table, ex.imports = park_imports(ex.imports, ex.definitions.spill)
        else:
            table = import_table(ex.imports)
            if ex.imports and not isinstance(ex.imports, ImportList):  # held once, packed (indexer.resolve.import_table)
                ex.imports = ImportList(table)
        self.imports: MultiMap[str, Import] = table
        """Imports per local name, star imports aside (read with :func:`~indexer.resolve.multimap.entries`;
        an :class:`~indexer.resolve.import_table.ImportTable`, or when the extraction is parked a
        :class:`~indexer.resolve.parked_imports.ParkedImports` reading it back on demand)."""
        self.star_imports: Sequence[Import] = table.stars
        """The star imports (``local == "*"``) in source order."""
        self.bindings = ScopedBindings(ex.bindings, self.exposed_scopes())
        """Bindings per ``(scope, name)``; those of scopes other files cannot reach are read back
        from disk on demand when the extraction is parked (:mod:`indexer.resolve.bindings`)."""
        if parked or isinstance(ex.calls, ParkedList):  # read back through it (call_sites: a file without definitions too)
            self.unpacked = unpacked
        if parked:  # the Defs hold what lookups read; the rest is read back when asked for
            self.def_lines = line_column([d.start_line for d in definitions])
            self.def_heads = heads_column(definitions)
            for i, rd in enumerate(self.defs):
                rd.park(i)

    def _unset(self) -> None:
        """Set the slots that read ``None`` until set otherwise: the lazily computed values, the
        park's reader and first lines, the members' and line indexes."""
        self._interface = self._structure = self._names = None
        self._param_calls = self._held_arguments = self._protocol_parameters = None
        self.unpacked = self.def_lines = self.def_heads = self._members = self._def_spans = None

    def _index_defs(self) -> None:
        self._def_spans = None
        # per name when every qualname is its parent's and its name (no string per qualname held)
        derived = all(rd.derived for rd in self.defs)
        self.by_qualname = QualnameIndex(self.defs) if derived else freeze(group((rd.qualname, rd) for rd in self.defs))
        # what lookups by name see: replaced definitions left out, the copies of one name bounded
        # derived: read out of by_qualname (TopLevel), no table of its own (about 270 bytes a file)
        self.top = TopLevel(self.by_qualname, self.defs) if derived else \
            freeze(_held(group((rd.name, rd) for rd in self.defs if rd.parent is None)))
        self.types = tuple(rd for rd in self.defs if rd.is_type)
        # most files have no plain object owning definitions: they share one empty set
        self.owners = frozenset(rd.parent for rd in self.defs
                                if rd.parent is not None and rd.parent not in self.by_qualname) or _NO_OWNERS
        """Qualnames that are parents of definitions without being definitions: plain objects whose
        properties are definitions (:class:`~indexer.resolve.values.ObjV`)."""
        # A member's qualname is its parent's and its name (``C.m``) in almost every file: then its
        # members are read out of by_qualname (:meth:`member`) and no table per class is held.
        # Only a file breaking that rule holds the tables, per parent qualname.
        self._members = None
        if not derived:
            children = group((rd.parent, rd) for rd in self.defs if rd.parent is not None)
            self._members = {q: freeze(_held(group((rd.name, rd) for rd in kids)))
                             for q, kids in children.items() if q in self.by_qualname}

    def member(self, qualname: str, name: str) -> tuple[Def, ...]:
        """The members named ``name`` of the definitions of ``qualname`` (a class, a function with
        nested or prototype definitions), in source order: those no later definition replaces, at most
        the last :data:`MAX_NAMESAKES` (:func:`namesakes`); ``()`` when none. What a per-class table
        held; read out of :attr:`by_qualname` under ``qualname.name``, which holds exactly a
        member's definitions when every qualname of the file is its parent's and its name."""
        tables = self._members
        if tables is not None:
            return entries(tables.get(qualname, EMPTY_TABLE), name)
        index = self.by_qualname
        defs = index.members(qualname, name) if isinstance(index, QualnameIndex) else entries(index, f"{qualname}.{name}")
        if len(defs) == 1:
            return () if defs[0].shape.shadowed else defs
        return tuple(namesakes(defs)) if defs else ()

    def members_of(self, qualname: str) -> MultiMap[str, Def]:
        """Every member of the definitions of ``qualname`` per name (read with
        :func:`~indexer.resolve.multimap.entries` and :func:`~indexer.resolve.multimap.every`: names
        in the order of their first definition, each name's as :meth:`member` gives them), built
        when asked from the file's definitions (the shared empty table when there are none); the
        class-level readers iterate it, the lookups by name ask :meth:`member`."""
        tables = self._members
        if tables is not None:
            return tables.get(qualname, EMPTY_TABLE)
        if qualname not in self.by_qualname:
            return EMPTY_TABLE
        kids = [rd for rd in self.defs if rd.parent == qualname]
        return freeze(_held(group((rd.name, rd) for rd in kids))) if kids else EMPTY_TABLE

    def held(self) -> set[int] | None:
        """The ids of the definitions lookups by name may reach (:func:`namesakes` of each qualname),
        or ``None`` when that is every one (no qualname repeated, none replaced: most files)."""
        defs = self.defs
        if len(self.by_qualname) == len(defs) and not any(rd.shape.shadowed for rd in defs):
            return None
        return {id(rd) for group_ in _held(group((rd.qualname, rd) for rd in defs)).values() for rd in group_}

    def release_tables(self) -> None:
        """Drop the tables built from the park (the local bindings, the imports): they hold its
        spill file in the process-wide tables of :mod:`indexer.resolve.bindings` and
        :mod:`indexer.resolve.parked_imports` until used again."""
        self.bindings.release()
        if isinstance(self.imports, ParkedImports):
            self.imports.release()

    def reuse_defs(self, old: FileCtx, names: set[str]) -> list[Def]:
        """Take over ``old``'s :class:`Def` objects for the definitions whose name group is among
        ``names`` (unchanged between the versions: same meaning for every other file), so that what
        the resolver memoised about them stays true; returns ``old``'s Defs not taken over (gone,
        or changed)."""
        olds = dict(_ranked(old.defs))
        kept: set[int] = set()
        for i, (key, rd) in enumerate(_ranked(self.defs)):
            od = olds.get(key)
            if od is not None and od.id == rd.id and rd.name in names:
                od.take(rd)
                od.file = self
                self.defs[i] = od
                kept.add(id(od))
        self._index_defs()
        return [rd for rd in old.defs if id(rd) not in kept]

    def definition(self, index: int) -> Definition:
        """The extraction's definition at ``index``: from memory, or read back from disk (parked:
        :func:`indexer.parked.park_extraction`) through :attr:`unpacked`. Raises
        :class:`~indexer.parked.ParkedDataError` when the parked definitions cannot be read, and
        ``IndexError`` for an index out of range."""
        defs = self.ex.definitions
        if isinstance(defs, ParkedList):
            return (self.unpacked.get(defs) if self.unpacked is not None else defs.unpack())[index]
        return defs[index]

    def exposed_scopes(self) -> set[str | None]:
        """The scopes whose bindings other files' resolution can read: module level (``None``),
        class bodies, the scopes of fields and of functions whose return is inferred or that return
        or yield names (``returned_refs``, ``yielded_refs``, resolved in their own scope: ``wrapper = f`` there makes the name
        no one function, :meth:`indexer.resolve.interpreter.Resolver.only_returned`), and every scope
        lexically enclosing one of those. The bindings of all other scopes (function locals) matter
        to this file's own binding only."""
        exposed: set[str | None] = {None}
        for rd in self.defs:
            if rd.is_type or rd.kind == "field" or (rd.is_callable and (rd.d.inferred_return or rd.d.returned_refs
                                                                       or rd.d.yielded_refs or rd.heads.bases)):
                s: str | None = rd.qualname if rd.kind != "field" else rd.parent
                while s is not None and s not in exposed:
                    exposed.add(s)
                    s = self.parent_scope(s)
        return exposed

    @declared_lazily
    def interface(self) -> str:
        """Digest of everything the resolution of *another* file can read from this one: the
        definitions without their positions, docstrings and bodies, the imports, exports, module key
        and package, the lexical nesting, and the bindings of the scopes other files reach (module
        level, classes, and the scopes enclosing a class or a function whose return is inferred):
        :attr:`structure` plus :attr:`names`. Two versions with the same interface bind every other
        file's references identically."""
        summary = (self.structure, sorted(self.names.items()))
        return hashlib.sha1(repr(summary).encode("utf-8", "surrogatepass")).hexdigest()

    @declared_lazily
    def structure(self) -> str:
        """Digest of what concerns every name of the file: language, module key, package and id
        path (node ids)."""
        summary = (self.lang, self.module_key, self.ex.package, self.ex.id_path)
        return hashlib.sha1(repr(summary).encode("utf-8", "surrogatepass")).hexdigest()

    @declared_lazily
    def names(self) -> dict[str, str]:
        """Per name, a digest of what other files can read under it here: the definitions of that
        short name (top level or member, with the scope lexically enclosing each), imports bound to
        it (``*``: star imports), exports of it
        (``*``: star re-exports; ``default``), bindings of it in the scopes other files reach
        (``self.x`` / ``this.x`` count as ``x``); and under ``@`` + a decorator's name, the file's
        callables carrying it in line order. The resolver records a read of name ``n`` of this
        file as the token ``("name", path, n)``."""
        exposed = self.bindings.exposed
        groups: dict[str, list[tuple[object, ...]]] = defaultdict(list)
        definitions = list(self.ex.definitions)  # a parked list is read back once here
        for d in definitions:
            groups[d.name].append(
                ("def", d.kind, d.qualname, d.parent, self.parent_scope(d.qualname), d.signature,
                 [(p.name, p.type, p.has_default, p.variadic) for p in d.params], d.return_type, d.modifiers,
                 d.decorators, d.bases, d.implements, d.field_type, d.exported, d.inferred_return,
                 d.returned_refs, d.yielded_refs, d.returns_other, d.applies_refs, d.returned_param, sorted(self.param_calls.get(d.qualname, {}).items()), d.shadowed,
                 sorted((p, [(q, rank, cs.name, cs.arity) for q, rank, cs in held]) for p, held in self.held_arguments.get(d.qualname, {}).items()),
                 sorted((p, [(cs.name, cs.arity) for _, _, cs in used]) for p, used in self.protocol_parameters.get(d.qualname, {}).items())))
            if "default" in d.modifiers:
                groups["default"].append(("default", d.qualname))
            if d.parent is not None and d.parent in self.owners:  # a property of a plain object
                groups[d.parent.rpartition(".")[2]].append(("property", d.qualname))
        # Per decorator name (``@verify_token``), its callables in line order, as the resolver's
        # tables hold them (Lookup.registered): which one is last decides what runs (Flask-HTTPAuth),
        # and moving one below another changes no definition's own group.
        for d in sorted((d for d in definitions if d.kind in CALLABLE_KINDS and d.decorators),
                        key=lambda d: d.start_line):
            for name in sorted({decorator_name(text) for text in d.decorators}):
                groups["@" + name].append(("decorated", d.qualname))
        for i in self.ex.imports:
            groups[i.local].append(("import", i.module, i.name, i.level))
        for e in self.ex.exports:
            groups[e.exported].append(("export", e.local, e.module, e.name))
        for b in self.bindings.visible:
            if b.how == REGISTERS:  # read by decorator name, like the decorated callables above
                groups["@" + decorator_name(b.name[1:])].append(("registers", b.scope, b.name, b.type))
            elif b.scope in exposed:
                name = b.name.split(".", 1)[1] if b.name.startswith(("self.", "this.", "cls.")) else b.name
                groups[name].append(("binding", b.scope, b.name, b.type, b.how))
        for c in self.ex.constants:  # module-level string constants (Django's ``AUTH_USER_MODEL``)
            if "." not in c.qualname:
                groups[c.qualname].append(("constant", c.value))
            else:  # a class's (``vendor = "mysql"``), read by attribute name: ``"=." + attribute``
                groups["=." + c.qualname.rpartition(".")[2]].append(("constant", c.qualname, c.value))
        return {n: hashlib.sha1(repr(v).encode("utf-8", "surrogatepass")).hexdigest() for n, v in groups.items()}

    @declared_lazily
    def param_calls(self) -> Mapping[str, dict[str, tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]]]:
        """Per function or method qualname, the parameters called directly (``def run(cb): cb()``)
        and never re-bound, each with the calls of it: the function whose body calls it (the
        function itself, or a function nested in it that calls it as a closure, ``def dec(f): def
        inner(): f()``, with no scope in between binding the name) as its qualname and its rank
        among the definitions of that qualname (``entries(by_qualname, q)``; lines would change with
        every edit above), and the arguments the call hands on (``cb(on_done)``: ``("0",
        "on_done")``, :attr:`indexer.model.CallSite.handed`). A function a caller hands it there runs
        from those (:mod:`indexer.resolve.callbacks`). Variadic parameters are left out. A call
        through one of the language's ``invoking_members`` (JS ``cb.call(ctx, on_done)``, its
        arguments shifted past ``ctx``; ``cb.apply(ctx, args)``, none known) counts as a call of ``cb``.
        A file calling no parameter (most) shares one read-only empty mapping."""
        return self._from_calls()[0]

    def _called_parameters(self, calls: Sequence[CallSite]
                           ) -> Mapping[str, dict[str, tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]]]:
        """:attr:`param_calls` computed from ``calls``, the file's call sites."""
        called: dict[str, dict[str, set[tuple[str, int, tuple[tuple[str, str], ...]]]]] = defaultdict(
            lambda: defaultdict(set))
        params: dict[str, frozenset[str] | None] = {}  # per scope: its parameters (None: no function)
        defs = self.ex.definitions
        if isinstance(defs, ParkedList) and self.unpacked is not None:  # read back through the shared cache
            defs = self.unpacked.get(defs)
        named = {p.name for d in defs for p in d.params}  # no other call can be one
        invoking = getattr(self.rules, "invoking_members", ())
        for cs in calls:
            if cs.via is not None or cs.caller is None:
                continue
            handed = tuple((a.key, a.text) for a in cs.handed)
            if cs.receiver is None:
                name = cs.name
            elif cs.name in invoking:  # JS `cb.call(ctx, x)` hands `x` as the first argument
                name = cs.receiver
                handed = tuple((str(int(k) - 1), t) for k, t in handed if k.isdigit() and k != "0") \
                    if cs.name == "call" else ()
            else:
                continue
            if name not in named:
                continue
            s = cs.caller
            while s is not None:
                if (s, name) in self.bindings or entries(self.by_qualname, f"{s}.{name}"):
                    break  # re-bound, or a function of that name nested here
                own = params.get(s, ())
                if own == ():
                    own = params[s] = self._own_params(s)
                if own is not None and name in own:
                    callers = entries(self.by_qualname, cs.caller)
                    rank = callers.index(self.def_at(cs.caller, cs.line)) if len(callers) > 1 else 0
                    called[s][name].add((cs.caller, rank, handed))
                    break
                s = self.parent_scope(s)
        return {q: {n: tuple(sorted(c)) for n, c in names.items()} for q, names in called.items()} or _NO_PARAM_CALLS

    @declared_lazily
    def held_arguments(self) -> Mapping[str, dict[str, tuple[HeldCall, ...]]]:
        """Per constructor qualname, its parameters kept in an attribute the class's methods call
        members of, with those calls (:func:`indexer.resolve.held_arguments.held_arguments`): a
        class the constructing caller hands there runs them."""
        return self._from_calls()[1]

    @declared_lazily
    def protocol_parameters(self) -> Mapping[str, dict[str, tuple[HeldCall, ...]]]:
        """Per function qualname, its parameters the language's protocol calls run on in its body
        (``for x in items``: :func:`indexer.resolve.held_arguments.protocol_parameters`)."""
        return self._from_calls()[2]

    def _from_calls(self) -> tuple[Mapping[str, dict[str, tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]]],
                                   Mapping[str, dict[str, tuple[HeldCall, ...]]],
                                   Mapping[str, dict[str, tuple[HeldCall, ...]]]]:
        """:attr:`param_calls`, :attr:`held_arguments` and :attr:`protocol_parameters`, each computed
        when not yet, all three from one read of the call sites (:meth:`call_sites`): the callbacks read
        them of the same target files, and a parked file's call sites are unpickled on every read
        outside its binding (Django 5.2.8: 2-3 reads of each target file's call sites became one,
        docs/benchmarks.md, session 67, cpu67b and r67a). An empty value is one shared read-only mapping."""
        called, held, protocol = self._param_calls, self._held_arguments, self._protocol_parameters
        if called is None or held is None or protocol is None:
            calls = self.call_sites()
            if called is None:
                called = self._param_calls = self._called_parameters(calls)
            if held is None:
                held = self._held_arguments = held_arguments(self, calls) or _NO_HELD_CALLS
            if protocol is None:
                protocol = self._protocol_parameters = protocol_parameters(self, calls) or _NO_HELD_CALLS
        return called, held, protocol

    def call_sites(self) -> Sequence[CallSite]:
        """The file's call sites (:attr:`indexer.model.FileExtraction.calls`): parked, the list a
        :meth:`binding` block running now read back, else unpickled for this read (a new list).
        Shared: do not change it. Raises :class:`~indexer.parked.ParkedDataError` when the parked
        call sites cannot be read."""
        calls = self.ex.calls
        if isinstance(calls, ParkedList):
            held = self.unpacked.held(calls) if self.unpacked is not None else None
            return held if held is not None else calls.unpack()
        return calls

    @contextlib.contextmanager
    def binding(self) -> Iterator[None]:
        """While the ``with`` block runs (the file is bound: its output, the resolver's lookups made
        for it), a parked file's call sites are read back once and every :meth:`call_sites` answers
        that list; dropped when the block ends, so no file's call sites outlive its binding (they are
        what its output iterates anyway). Without a reader (:attr:`unpacked` ``None``) or parked call
        sites, nothing is held. Raises :class:`~indexer.parked.ParkedDataError` as :meth:`call_sites`."""
        calls = self.ex.calls
        if isinstance(calls, ParkedList) and calls and self.unpacked is not None:
            with self.unpacked.holding(calls):
                yield
        else:
            yield

    def _own_params(self, scope: str) -> frozenset[str] | None:
        """The names of the non-variadic parameters of the callables named ``scope`` (``None``
        when no callable is: a class body)."""
        defs = [rd for rd in entries(self.by_qualname, scope) if rd.is_callable]
        if not defs:
            return None
        return frozenset(p.name for rd in defs for p in rd.d.params if p.variadic is None)

    def adopt(self, new: FileCtx) -> None:
        """Become ``new`` (a later version of the same file with the same :attr:`interface`) while
        keeping this object and its :class:`Def` objects, which other files' memoised resolutions
        hold: positions, bodies, call sites and framework facts are taken over."""
        self.ex, self.checksum, self.size, self.unpacked = new.ex, new.checksum, new.size, new.unpacked
        self.def_lines = new.def_lines  # the first lines of new.ex's definitions, which the Defs take
        self.def_heads = new.def_heads  # and their written bases and decorators
        # Paired by qualname and rank among its namesakes, not by position: an equal interface keeps
        # the order of same-named definitions only (moving ``def a`` below ``def b`` keeps it), and a
        # Def paired by position would take the other definition's text under its own tail and members.
        olds = dict(_ranked(self.defs))
        defs = []
        for key, nd in _ranked(new.defs):
            rd = olds[key]
            rd.take(nd)
            defs.append(rd)
        self.defs = defs
        self._def_spans = None  # positions moved
        self.types = tuple(rd for rd in defs if rd.is_type)
        self.imports, self.star_imports, self.bindings = new.imports, new.star_imports, new.bindings
        self.lexical_parent = new.lexical_parent
        for key in ("interface", "structure", "names", "param_calls", "held_arguments", "protocol_parameters"):
            setattr(self, key, getattr(new, key))

    def released(self) -> FileCtx:
        """A copy keeping only what a run's write stage and report read once every file is bound:
        ``repo``, ``rules``, ``path``, ``lang``, ``module_key``, ``checksum``, ``size`` and an
        extraction holding only its path, language, package, errors, ``partial`` and ``id_path`` (no
        definitions, imports, bindings, lookups). Nothing can be resolved or chunked through it."""
        ex = self.ex
        return FileCtx.stub(self.repo, self.rules, self.path, self.lang, self.module_key, self.checksum, self.size,
                            package=ex.package, errors=ex.errors, partial=ex.partial, id_path=ex.id_path)

    @staticmethod
    def stub(repo: str, rules: ModuleSystem, path: str, lang: str, module_key: str, checksum: str, size: int, *,
             package: str | None, errors: list[str], partial: str | None, id_path: str | None) -> FileCtx:
        """The context :meth:`released` gives, from its fields: ``repo``, ``rules``, ``path``,
        ``lang``, ``module_key``, ``checksum``, ``size`` and an extraction of ``path`` holding only
        its language, ``package``, ``errors``, ``partial`` and ``id_path``."""
        out = FileCtx.__new__(FileCtx)
        out._unset()
        out.repo, out.rules, out.path, out.lang = repo, rules, path, lang
        out.module_key, out.checksum, out.size = module_key, checksum, size
        # Its empty lists are the one shared empty list: ~27 new empty lists per file made while the
        # extractions are freed would land among them and keep their memory pinned.
        out.ex = compact_extraction(FileExtraction(path, lang, package, errors=errors, partial=partial,
                                                   id_path=id_path))
        return out

    def _lexical_parents(self) -> list[str | None]:
        """For each definition in order, the qualname of the definition whose body holds its text.
        Usually its ``parent``; for a definition named at module level (no ``parent``), the innermost
        callable spanning it, if any (a Vue component's ``setup() { function save() {} }``:
        ``save`` is a module-level name the template calls, whose body sees ``setup``'s
        variables); not for a JS function assigned to a property (``res.send = function
        () {}``, ``View.prototype.lookup = …``), whose owner is ``parent`` but whose body sees the
        names of where it is written: then the innermost callable or type spanning it (of several
        with one span, the last), or ``None``.

        One sweep in text order holding the definitions open at each point (a scan of every
        definition for each was the square of a file assigning ``api.m = function`` 2,000 times)."""
        definitions = [rd.d for rd in self.defs]
        order = sorted(range(len(definitions)), key=lambda i: _start(definitions[i]))
        out: list[str | None] = [None] * len(definitions)
        open_: list[int] = []  # definitions started so far that may still span what comes next
        k = 0
        for i in order:
            d = definitions[i]
            at = _start(d)
            while k < len(order) and _start(definitions[order[k]]) <= at:
                nxt = order[k]
                while open_ and _end(definitions[open_[-1]]) < _start(definitions[nxt]):
                    open_.pop()  # ended before what starts next: spans nothing from here on
                open_.append(nxt)
                k += 1
            around = sorted(j for j in open_ if spans(definitions[j], d))  # in definition order
            if d.parent is None:  # a Vue `setup() { function save() {} }`: named at module level, sees setup's names
                best_fn = None
                for j in around:
                    o = definitions[j]
                    if o.kind in CALLABLE_KINDS and o.qualname != d.qualname and (best_fn is None or spans(best_fn, o)):
                        best_fn = o
                out[i] = best_fn.qualname if best_fn else None
                continue
            if any(definitions[j].qualname == d.parent for j in around):
                out[i] = d.parent
                continue
            best: Definition | None = None
            for j in around:
                o = definitions[j]
                if o.qualname == d.qualname:  # a namesake of one span (`P.m = P.prototype.m = function`)
                    continue  # is no scope of it: taking it looped the scope walk (bluebird's context.js)
                if (o.kind in CALLABLE_KINDS or o.kind in TYPE_KINDS) and (best is None or spans(best, o)):
                    best = o
            out[i] = best.qualname if best else None
        return out

    def parent_scope(self, scope: str | None) -> str | None:
        """The qualname of the scope lexically enclosing ``scope`` (``None`` at top level)."""
        if scope is None:
            return None
        if scope in self.lexical_parent:
            return self.lexical_parent[scope]
        return scope.rpartition(".")[0] or None

    def parameter(self, scope: str, name: str) -> Param | None:
        """The parameter ``name`` of the function ``scope`` (a qualname), or ``None``: at once, reading
        no parked definition back, when no definition of the file has a parameter of that name
        (:meth:`indexer.resolve.def_heads.HeadColumn.has_parameter`)."""
        column = self.def_heads
        if column is not None and not column.has_parameter(name):
            return None
        for rd in entries(self.by_qualname, scope):
            if rd.is_callable:
                for p in rd.d.params:
                    if p.name == name:
                        return p
        return None

    def is_class_scope(self, qualname: str) -> bool:
        """Whether the scope ``qualname`` is a class body."""
        defs = entries(self.by_qualname, qualname)
        return bool(defs) and defs[0].is_type

    def def_at(self, qualname: str | None, line: int) -> Def | None:
        """The definition named ``qualname`` whose span holds ``line`` (the first one otherwise)."""
        if qualname is None:
            return None
        defs = entries(self.by_qualname, qualname)
        if not defs:
            return None
        if len(defs) > 1:
            if len(defs) > _SCAN_LIMIT:
                index = self._line_index(qualname, defs)
                if index is not None:  # the same answer as the scan below, by bisection
                    starts, reach = index
                    i = bisect_right(starts, line) - 1
                    j = bisect_left(reach, line)
                    return defs[j] if j <= i else defs[0]
            for rd in defs:
                if rd.d.start_line <= line <= rd.d.end_line:
                    return rd
        return defs[0]

    def _line_index(self, qualname: str, defs: tuple[Def, ...]) -> tuple[list[int], list[int]] | None:
        """For :meth:`def_at` over the many definitions of one qualname (one per call site of each
        otherwise: the square of the copies): their first lines and the furthest last line reached so
        far, in order; ``None`` when their first lines do not come in order (then it scans)."""
        spans = self._def_spans
        if spans is None:
            spans = self._def_spans = {}
        if qualname not in spans:
            starts = [rd.line for rd in defs]
            reach: list[int] = []
            for rd in defs:
                reach.append(max(rd.d.end_line, reach[-1]) if reach else rd.d.end_line)
            ordered = all(a <= b for a, b in zip(starts, starts[1:]))
            spans[qualname] = (starts, reach) if ordered else None
        return spans[qualname]


def line_column(lines: list[int]) -> array[int]:
    """``lines`` (1-based line numbers, none negative) as a packed column: unsigned 16-bit items
    (``"H"``) when every one is below 65,536 (almost every file), else signed 32-bit (``"i"``). Two
    bytes a definition, not four: about 50 bytes a file of 26 definitions in pymalloc's 16-byte
    size classes (the 400 MB generated monorepo's average; docs/benchmarks.md, session 56)."""
    return array("H" if not lines or max(lines) < 65536 else "i", lines)


def _held(table: dict[str, list[Def]]) -> dict[str, list[Def]]:
    """``table`` (name -> definitions of one qualname) with each list cut to its :func:`namesakes`;
    names left with none dropped."""
    out = {}
    for name, defs in table.items():
        kept = defs if len(defs) == 1 and not defs[0].shape.shadowed else namesakes(defs)
        if kept:
            out[name] = kept
    return out


def _ranked(defs: Sequence[Def]) -> Iterator[tuple[tuple[str, int], Def]]:
    """Each of ``defs`` keyed by its qualname and its rank among the definitions of that qualname
    (0, 1, … in order): what pairs two versions of a file's definitions."""
    seen: Counter[str] = Counter()
    for rd in defs:
        yield (rd.qualname, seen[rd.qualname]), rd
        seen[rd.qualname] += 1


def _start(d: Definition) -> tuple[int, int]:
    return d.start_line, d.start_col


def _end(d: Definition) -> tuple[int, int]:
    return d.end_line, d.end_col


def spans(outer: Definition, inner: Definition) -> bool:
    """Whether ``outer``'s text strictly contains ``inner``'s."""
    if outer is inner:
        return False
    return (outer.start_line, outer.start_col) <= (inner.start_line, inner.start_col) and (
        inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)


def default_export(files: Sequence[FileCtx]) -> str | None:
    """The local name the first of ``files`` exporting one exports as ``default`` (``export default
    x``, ``module.exports = x``), or ``None``."""
    for fc in files:
        for ex in fc.ex.exports:
            if ex.exported == "default" and ex.local:
                return ex.local
    return None
