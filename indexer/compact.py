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
of files; Home Assistant's held strings halve): those fields are interned (``sys.intern``). And a
docstring becomes :data:`ELIDED_DOCSTRING`: the main process reads only whether a definition has
one (the ``documented`` node property), the text is in the chunks the worker cut.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from indexer.model import FileExtraction

__all__ = ["ELIDED_DOCSTRING", "EMPTY", "FrozenEmptyList", "compact_extraction"]


class FrozenEmptyList(list):  # type: ignore[type-arg]
    """An empty ``list`` that cannot change (see the module docstring)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("the shared empty list of a compacted extraction cannot change: assign a new list")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse  # type: ignore[assignment]
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (list, ())

    def __copy__(self) -> list[Any]:
        return []

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return []


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
             "receiver_type", "accessor_of")
"""Definition fields interned (the qualname and signature are mostly unique: left as they are)."""
_DEF_LISTS = ("modifiers", "decorators", "bases", "implements", "returned_refs")
_PARAM_TEXT = ("name", "type")
_IMPORT_TEXT = ("local", "module", "name")
_EXPORT_TEXT = ("exported", "local", "module", "name")


def _intern_fields(obj: object, names: tuple[str, ...]) -> None:
    for name in names:
        v = getattr(obj, name, None)
        if type(v) is str:
            setattr(obj, name, sys.intern(v))


def compact_extraction(ex: FileExtraction) -> FileExtraction:
    """Point the empty list fields of ``ex`` and of its definitions at :data:`EMPTY` (in place;
    lists already shared, non-empty and of other types stay), intern the short texts of its
    definitions, parameters, imports and exports, and replace each docstring by
    :data:`ELIDED_DOCSTRING` (see the module docstring). Returns ``ex``. Call it only on a
    complete extraction in the process that resolves it: a later ``append`` to such a field raises
    ``TypeError``, and the docstrings' text is gone."""
    for obj in (ex, *ex.definitions):
        for name in _list_fields(obj):
            v = getattr(obj, name, None)
            if type(v) is list and not v:
                setattr(obj, name, EMPTY)
    for d in ex.definitions:
        _intern_fields(d, _DEF_TEXT)
        for name in _DEF_LISTS:
            items = getattr(d, name)
            if items and type(items) is list:
                items[:] = [sys.intern(x) if type(x) is str else x for x in items]
        for p in d.params:
            _intern_fields(p, _PARAM_TEXT)
        if d.docstring:
            d.docstring = ELIDED_DOCSTRING
    for imp in ex.imports:
        _intern_fields(imp, _IMPORT_TEXT)
    for exp in ex.exports:
        _intern_fields(exp, _EXPORT_TEXT)
    return ex
