"""What a definition's header writes that other files' lookups read once its file's definitions are
parked on disk: the base and interface texts and the decorator texts (:class:`Heads`), held per
file in a sparse column (:class:`HeadColumn`) so that answering them reads no parked list back.

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

__all__ = ["Heads", "NO_HEADS", "HeadColumn", "heads_column", "NO_HEAD_COLUMN"]


class Heads(NamedTuple):
    """A definition's written base types (``bases``), implemented interfaces (``implements``) and
    decorator / annotation texts without the ``@`` (``decorators``), as
    :class:`~indexer.model.Definition` has them (tuples here, in source order)."""

    bases: tuple[str, ...]
    implements: tuple[str, ...]
    decorators: tuple[str, ...]


NO_HEADS = Heads((), (), ())
"""The heads of a definition writing no base, interface or decorator (most)."""


def _texts(texts: Sequence[str], seen: dict[tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...]:
    """``texts`` as a tuple of interned strings, the same tuple object for equal ones in ``seen``."""
    if not texts:
        return ()
    t = tuple(sys.intern(x) for x in texts)
    return seen.setdefault(t, t)


class HeadColumn:
    """The :class:`Heads` of one file's definitions by position in its extraction's ``definitions``,
    held only for those writing some (``at``: their positions, ascending, unsigned 16- or 32-bit;
    ``heads``: theirs, in the same order). :meth:`get` answers :data:`NO_HEADS` for the others."""

    __slots__ = ("at", "heads")

    def __init__(self, at: array[int], heads: tuple[Heads, ...]) -> None:
        self.at = at
        self.heads = heads

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
    are parked, from the list read back then. Equal text tuples of the file are one object."""
    at: list[int] = []
    heads: list[Heads] = []
    seen: dict[tuple[str, ...], tuple[str, ...]] = {}
    for i, d in enumerate(definitions):
        if d.bases or d.implements or d.decorators:
            at.append(i)
            heads.append(Heads(_texts(d.bases, seen), _texts(d.implements, seen), _texts(d.decorators, seen)))
    if not at:
        return NO_HEAD_COLUMN
    return HeadColumn(array("H" if at[-1] < 65536 else "I", at), tuple(heads))
