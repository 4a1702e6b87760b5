"""What a definition's header writes that other files' lookups read once its file's definitions are
parked on disk: the base and interface texts and the decorator texts (:class:`Heads`), held per
file in a sparse column (:class:`HeadColumn`) so that answering them reads no parked list back; and
the names the file's parameters bear, so that a scope lookup asking for a parameter no definition of
the file has (92% of ``FileCtx.parameter``'s questions on aiohttp 3.14.5) reads nothing back either.

The class hierarchy (a class's written bases), Django's model test (the bases of each ancestor), the
module tables (the decorator names of each callable) and the framework readers ask these of
definitions of files other than the one being bound; read through
:attr:`indexer.resolve.values.Def.d` each question unpickled the other file's whole definitions
list (6,529 lists, about 0.70 s of the binding child's CPU on cold Django 5.2.8; docs/benchmarks.md,
session 68). Only definitions writing any of the three are kept (a class with bases, a decorated
callable), by position, with their strings interned: most definitions write none.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from typing import NamedTuple

from indexer.model import Definition

__all__ = ["Heads", "NO_HEADS", "HeadColumn", "heads_column", "NO_HEAD_COLUMN", "SHARED_LIMIT", "forget_shared_heads"]


class Heads(NamedTuple):
    """A definition's written base types (``bases``), implemented interfaces (``implements``) and
    decorator / annotation texts without the ``@`` (``decorators``), as
    :class:`~indexer.model.Definition` has them (tuples here, in source order)."""

    bases: tuple[str, ...]
    implements: tuple[str, ...]
    decorators: tuple[str, ...]


NO_HEADS = Heads((), (), ())
"""The heads of a definition writing no base, interface or decorator (most)."""


SHARED_LIMIT = 1 << 14
"""Entries the table of shared heads holds at most (:func:`_shared`): a full table starts over (what is
shared already stays shared, later equal values share anew), as :data:`indexer.compact.SHARED_LIMIT`."""

_SHARED: dict[object, object] = {}
"""Equal text tuples and :class:`Heads` across files, one object each (``property``, ``models.Model``,
``staticmethod`` recur in most files): until :func:`forget_shared_heads` or a full table."""


def _shared(value: object) -> object:
    hit = _SHARED.get(value)
    if hit is not None:
        return hit
    if len(_SHARED) >= SHARED_LIMIT:
        _SHARED.clear()
    _SHARED[value] = value
    return value


def forget_shared_heads() -> int:
    """Empty the table of shared heads (returns how many entries it held): called with
    :func:`indexer.compact.forget_shared` once a batch of files is parked, so the table holds nothing
    the columns do not."""
    n = len(_SHARED)
    _SHARED.clear()
    return n


def _texts(texts: Sequence[str]) -> tuple[str, ...]:
    """``texts`` as a tuple of interned strings, one tuple object for equal ones (:func:`_shared`)."""
    if not texts:
        return ()
    return _shared(tuple(sys.intern(x) for x in texts))  # type: ignore[return-value]


class HeadColumn:
    """The :class:`Heads` of one file's definitions by position in its extraction's ``definitions``,
    held only for those writing some (``at``: their positions, ascending, unsigned 16- or 32-bit;
    ``heads``: theirs, in the same order). :meth:`get` answers :data:`NO_HEADS` for the others."""

    __slots__ = ("at", "heads", "param_names")

    def __init__(self, at: array[int], heads: tuple[Heads, ...], param_names: tuple[str, ...] = ()) -> None:
        self.at = at
        self.heads = heads
        self.param_names = param_names
        """The names of every parameter of the file's definitions, each once, sorted (interned): a
        name none of them bears is no parameter of any scope of the file (:meth:`has_parameter`)."""

    def has_parameter(self, name: str) -> bool:
        """Whether some definition of the file has a parameter named ``name`` (bisection)."""
        names = self.param_names
        i = bisect_left(names, name)
        return i < len(names) and names[i] == name

    def get(self, index: int) -> Heads:
        """The heads of the definition at ``index`` (:data:`NO_HEADS` when it writes none)."""
        at = self.at
        i = bisect_left(at, index)
        return self.heads[i] if i < len(at) and at[i] == index else NO_HEADS

    def __len__(self) -> int:
        return len(self.at)


NO_HEAD_COLUMN = HeadColumn(array("H"), ())
"""The column of a file none of whose definitions writes a base, an interface or a decorator
(shared)."""


def heads_column(definitions: Sequence[Definition]) -> HeadColumn:
    """The :class:`HeadColumn` of ``definitions`` (a file's extraction's, in order): built when they
    are parked, from the list read back then. Equal heads and text tuples are one object across the
    files built since the table was last emptied (:func:`forget_shared_heads`)."""
    at: list[int] = []
    heads: list[Heads] = []
    names: set[str] = set()
    for i, d in enumerate(definitions):
        for p in d.params:
            names.add(p.name)
        if d.bases or d.implements or d.decorators:
            at.append(i)
            heads.append(_shared(Heads(_texts(d.bases), _texts(d.implements), _texts(d.decorators))))  # type: ignore[arg-type]
    param_names = _shared(tuple(sorted(map(sys.intern, names)))) if names else ()
    if not at and not param_names:
        return NO_HEAD_COLUMN
    return HeadColumn(array("H" if not at or at[-1] < 65536 else "I", at), tuple(heads), param_names)  # type: ignore[arg-type]
