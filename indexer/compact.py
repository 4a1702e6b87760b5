"""Extractions held by the main process, without one empty list object per empty field.

A :class:`~indexer.model.FileExtraction` unpickled from a worker or the extraction cache holds a new
empty ``list`` for every empty list field of itself and of each :class:`~indexer.model.Definition`
(modifiers, decorators, bases, implements, returned references, parameters), 56 bytes each: about
150 per file of the synthetic monorepo (8.6 KiB per file; 61,624 empty lists in 400 files), which the
resolver holds for the whole run. :func:`compact_extraction` points every such field at one shared,
read-only empty list (:data:`EMPTY`) once the extraction is complete (nothing adds to an
extraction's lists after its extractor returned). :data:`EMPTY` equals ``[]``, is a ``list``, reprs,
pickles, copies and deep-copies as a plain empty list, and refuses every change with ``TypeError``
instead of changing every extraction that shares it.

It also makes the text the resolver holds for every definition, import and export cost once per
distinct value rather than once per occurrence (a name, type or module text unpickled from a worker
is a new string object each time: ``self``, ``str``, ``None``, the same module imported by hundreds
of files; Home Assistant's held strings halve): those fields are interned (``sys.intern``), the
signatures too. Equal parameter lists (a :class:`FrozenList` of the same :class:`~indexer.model.Param`
objects), parameters and integers above 256 (positions: a new 28-byte object in every unpickled
definition) are one object across files, through tables of at most :data:`SHARED_LIMIT` entries
(the 10-package synthetic monorepo: 15,190 definitions in 600 files hold 3 distinct parameter lists;
Django 5.2.8: 828 of 12,900), and so are equal imports (same name, module and line: 36% of Django's,
58% of Home Assistant's); a top-level definition's qualname is its name. And a docstring becomes
:data:`ELIDED_DOCSTRING`: the main process reads only whether a definition has one (the
``documented`` node property), the text is in the chunks the worker cut.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from indexer.model import Import, Param

if TYPE_CHECKING:
    from indexer.model import Definition, FileExtraction

__all__ = ["ELIDED_DOCSTRING", "EMPTY", "SHARED_LIMIT", "FrozenEmptyList", "FrozenList", "compact_extraction", "elide_docstrings", "forget_shared"]


class FrozenList(list):  # type: ignore[type-arg]
    """A ``list`` that cannot change, shared by the extractions that hold an equal one (see the
    module docstring): it equals, reprs, pickles and copies (shallow and deep) as a plain list."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("the shared list of a compacted extraction cannot change: assign a new list")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse  # type: ignore[assignment]
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type, tuple[list[Any]]]:
        return (list, (list(self),))

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return copy.deepcopy(list(self), memo)


class FrozenEmptyList(FrozenList):
    """The empty :class:`FrozenList` (see the module docstring)."""

    __slots__ = ()


EMPTY = FrozenEmptyList()
"""The one shared empty list of compacted extractions."""

_EX_FIELDS: dict[type, tuple[str, ...]] = {}


def _list_fields(obj: object) -> tuple[str, ...]:
    """The slot names of ``obj``'s class (dataclasses with slots, as the IR's are)."""
    cls = type(obj)
    names = _EX_FIELDS.get(cls)
    if names is None:
        names = _EX_FIELDS[cls] = tuple(n for c in cls.__mro__ for n in getattr(c, "__slots__", ()))
    return names


ELIDED_DOCSTRING = "\u2026"
"""What a compacted extraction's definitions hold as their docstring when they had one (``…``): the
text is dropped, that there was one is kept."""

_DEF_TEXT = ("kind", "name", "parent", "return_type", "field_type", "inferred_return", "generated",
             "receiver_type", "accessor_of", "signature", "returned_param")
"""Definition fields interned (the signature too: a file's methods repeat the same headers, a
generated or templated tree repeats them across files; the qualname is handled apart)."""
_DEF_LISTS = ("modifiers", "decorators", "bases", "implements", "returned_refs", "yielded_refs")
_DEF_POSITIONS = ("start_line", "start_col", "end_line", "end_col", "name_line", "name_col")
_PARAM_TEXT = ("name", "type")
_IMPORT_TEXT = ("local", "module", "name")
_EXPORT_TEXT = ("exported", "local", "module", "name")

SHARED_LIMIT = 1 << 14
"""Entries each table of shared values (parameters, parameter lists, integers) holds at most: a full
table starts over (what is shared already stays shared; later equal values share anew), so that a
long-lived process holds at most a few MiB of values no extraction uses any more."""

_PARAMS: dict[tuple[Any, ...], tuple[tuple[Any, ...], Param]] = {}
"""Per parameter key, that key (which the parameter lists' keys share) and the shared parameter."""
_PARAM_LISTS: dict[tuple[Any, ...], FrozenList] = {}
_INTS: dict[int, int] = {}
_IMPORTS: dict[tuple[Any, ...], Import] = {}
"""Per ``(local, module, name, level, line)``, the one :class:`~indexer.model.Import` compacted
extractions share: an import repeats across files, mostly at the same line (Django 5.2.8: 36% of its
18,126 imports equal an earlier one, Home Assistant 2024.3.3: 58% of 107,935)."""


def forget_shared() -> int:
    """Empty the tables of shared values (parameters, parameter lists, integers, imports); returns
    how many entries they held. What is shared already stays shared; values compacted later share
    anew, as after a full table (:data:`SHARED_LIMIT`). For a process whose compacted extractions
    were parked on disk since (:func:`indexer.parked.park_extraction`, the resolver's park): the
    tables are then the only holders of most of their values (the 10-package generated monorepo:
    its 16,384 imports' keys, the imports and the table, about 3 MiB at the resolver's contexts
    built; docs/benchmarks.md, session 55)."""
    n = len(_PARAMS) + len(_PARAM_LISTS) + len(_INTS) + len(_IMPORTS)
    for table in (_PARAMS, _PARAM_LISTS, _INTS, _IMPORTS):
        table.clear()
    return n


def _remember(table: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(table) >= SHARED_LIMIT:
        table.clear()
    table[key] = value
    return value


def _shared_int(v: object) -> object:
    """One object per integer value above CPython's small-int cache (a line or column > 256 is a new
    28-byte object in every unpickled definition)."""
    if type(v) is not int or -5 <= v <= 256:
        return v
    return _INTS.get(v) or _remember(_INTS, v, v)


def _shared_params(params: list[Param]) -> list[Param]:
    """The one :class:`FrozenList` of shared :class:`Param` objects (texts interned) equal to
    ``params``, or ``params`` itself when an item is no plain :class:`Param` or a field does not
    hash."""
    try:
        keys = []
        for p in params:
            if type(p) is not Param:
                return params
            k = (p.name, p.type, p.has_default, p.variadic)
            known = _PARAMS.get(k)
            keys.append(known[0] if known is not None else k)  # a list's key holds the parameters' keys
        key = tuple(keys)
        shared = _PARAM_LISTS.get(key)
    except TypeError:  # a field that does not hash: left as it is
        return params
    if shared is None:
        keys, items = [], []
        for k, p in zip(key, params):
            known = _PARAMS.get(k)
            if known is None:  # the table's key holds the interned texts, not the ones unpickled
                _intern_fields(p, _PARAM_TEXT)
                k = (p.name, p.type, p.has_default, p.variadic)
                known = _remember(_PARAMS, k, (k, p))
            keys.append(known[0])
            items.append(known[1])
        shared = _remember(_PARAM_LISTS, tuple(keys), FrozenList(items))
    return shared


def _intern_fields(obj: object, names: tuple[str, ...]) -> None:
    for name in names:
        v = getattr(obj, name, None)
        if type(v) is str:
            setattr(obj, name, sys.intern(v))


def elide_docstrings(definitions: Iterable[Definition]) -> None:
    """Replace each docstring of ``definitions`` by :data:`ELIDED_DOCSTRING` (in place): the main
    process reads only whether a definition has one."""
    for d in definitions:
        if d.docstring:
            d.docstring = ELIDED_DOCSTRING


def _shared_import(imp: Import) -> Import:
    """The one import equal to ``imp`` compacted before (:data:`_IMPORTS`), else ``imp`` itself with
    its texts interned; ``imp`` as it is when it is no plain :class:`~indexer.model.Import`."""
    if type(imp) is not Import:
        return imp
    _intern_fields(imp, _IMPORT_TEXT)
    key = (imp.local, imp.module, imp.name, imp.level, imp.line)
    try:
        known = _IMPORTS.get(key)
    except TypeError:  # a field that does not hash: kept as it is
        return imp
    if known is not None:
        return known
    if type(imp.line) is int and imp.line > 256:
        imp.line = _shared_int(imp.line)
    return _remember(_IMPORTS, key, imp)


def compact_extraction(ex: FileExtraction) -> FileExtraction:
    """Point the empty list fields of ``ex`` and of its definitions at :data:`EMPTY` (in place;
    lists already shared, non-empty and of other types stay), intern the short texts and the
    signatures of its definitions, parameters, imports and exports, share its definitions'
    parameter lists, parameters and positions, and its imports, with every equal one compacted
    before (a :class:`FrozenList`; :data:`SHARED_LIMIT`), point a top-level definition's qualname at its
    (interned) name, and replace each docstring by :data:`ELIDED_DOCSTRING` (see the module
    docstring). Returns ``ex``. Call it only on a complete extraction in the process that resolves
    it: a later ``append`` to such a list raises ``TypeError``, a change to a shared
    :class:`~indexer.model.Param` or :class:`~indexer.model.Import` would change every definition
    or extraction holding it, and the docstrings'
    text is gone."""
    # definitions parked already (indexer.parked) are not held: only their docstrings were elided
    definitions = ex.definitions if isinstance(ex.definitions, list) else ()
    if type(ex.language) is str:  # one string per language, not one per file (55 bytes of each)
        ex.language = sys.intern(ex.language)
    for obj in (ex, *definitions):
        for name in _list_fields(obj):
            v = getattr(obj, name, None)
            if type(v) is list and not v:
                setattr(obj, name, EMPTY)
    for d in definitions:
        _intern_fields(d, _DEF_TEXT)
        if d.qualname == d.name:
            d.qualname = d.name
        for name in _DEF_LISTS:
            items = getattr(d, name)
            if items and type(items) is list:
                items[:] = [sys.intern(x) if type(x) is str else x for x in items]
        if d.end_line > 256 or d.end_col > 256:  # else (almost always) no position is above 256 either
            for name in _DEF_POSITIONS:
                setattr(d, name, _shared_int(getattr(d, name)))
        if d.params and type(d.params) is list:
            d.params = _shared_params(d.params)
    elide_docstrings(definitions)
    if type(ex.imports) is list:
        ex.imports[:] = [_shared_import(imp) for imp in ex.imports]
    for exp in ex.exports:
        _intern_fields(exp, _EXPORT_TEXT)
    return ex
