"""Lists kept packed: one file's records of one kind as a single pickle.

A repository's call sites are most of its extractions' memory (Django 5.2.8: 229,789 call sites,
65 MiB of the 143 MiB its 3,510 extractions take as objects, 13.7 MB pickled), and the resolver
holds every file's extraction for the whole run. Yet only three readers ever look at a file's call
sites, each once per binding of that file: its own output (:func:`indexer.resolve.output.file_output`),
its parameters' calls (:attr:`indexer.resolve.context.FileCtx.param_calls`) and the table linker
(:mod:`indexer.frameworks.tables`). :class:`PackedCalls` is a read-only sequence that keeps the
pickle and unpickles it on each iteration, so a file's call-site objects live only while one of
them reads it. The extract stage packs every extraction it makes (:mod:`indexer.extraction`), so
the extraction cache and the trip from a worker carry the packed form too.

The other lists only a file's own binding reads (:data:`indexer.parked.PARKED_FIELDS`: bindings,
type uses, value reads, injections, table accesses) and the definitions travel as a
:class:`PackedList` each (:func:`indexer.parked.pack_for_parking`): the process that resolves parks
a packed list's pickle in its spill file as it is (:meth:`indexer.parked.ParkedList.park`), where
it unpickled the worker's records and pickled them again (Django 5.2.8, docs/benchmarks.md, session
63, cpu63).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from indexer.model import CallSite

__all__ = ["PackedCalls", "PackedList", "pack_calls", "pack_lists"]

_T = TypeVar("_T")


class PackedList(Sequence[_T]):
    """An immutable sequence of records stored as one pickle of their list (``blob``) and
    unpickled on each iteration or index; equal to any sequence of the same records in the same
    order."""

    __slots__ = ("blob", "_len")

    def __init__(self, items: Iterable[_T] = ()) -> None:
        items = list(items)
        self.blob = pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL)
        self._len = len(items)

    @classmethod
    def from_blob(cls, blob: bytes, length: int) -> Any:
        """The sequence a pickle of a list of ``length`` records holds (what unpickling calls)."""
        out = cls.__new__(cls)
        out.blob, out._len = blob, length
        return out

    def unpack(self) -> list[_T]:
        """The records as a new list."""
        return pickle.loads(self.blob)  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[_T]:
        return iter(self.unpack())

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...

    def __getitem__(self, index: int | slice) -> _T | list[_T]:
        return self.unpack()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedList):
            return self.blob == other.blob or self.unpack() == other.unpack()
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return self.unpack() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.unpack()!r})"

    def __reduce__(self) -> tuple[object, tuple[bytes, int]]:
        return (type(self).from_blob, (self.blob, self._len))


class PackedCalls(PackedList["CallSite"]):
    """A file's call sites as a :class:`PackedList`."""

    __slots__ = ()


def pack_calls(calls: Sequence[CallSite]) -> Sequence[CallSite]:
    """``calls`` packed (:class:`PackedCalls`; as they are when packed already)."""
    return calls if isinstance(calls, PackedCalls) else PackedCalls(calls)


def pack_lists(record: object, names: Iterable[str]) -> None:
    """Replace each non-empty list among the attributes ``names`` of ``record`` by a
    :class:`PackedList` of it (in place; empty lists, and sequences that are no ``list``, stay as
    they are). Raises ``AttributeError`` for a name ``record`` does not have."""
    for name in names:
        items = getattr(record, name)
        if items and type(items) is list:
            setattr(record, name, PackedList(items))
