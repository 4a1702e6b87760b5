"""Call sites kept packed: one file's :class:`~indexer.model.CallSite` records as a single pickle.

A repository's call sites are most of its extractions' memory (Django 5.2.8: 229,789 call sites,
65 MiB of the 143 MiB its 3,510 extractions take as objects, 13.7 MB pickled), and the resolver
holds every file's extraction for the whole run. Yet only three readers ever look at a file's call
sites, each once per binding of that file: its own output (:func:`indexer.resolve.output.file_output`),
its parameters' calls (:attr:`indexer.resolve.context.FileCtx.param_calls`) and the table linker
(:mod:`indexer.frameworks.tables`). :class:`PackedCalls` is a read-only sequence that keeps the
pickle and unpickles it on each iteration, so a file's call-site objects live only while one of
them reads it. The extract stage packs every extraction it makes (:mod:`indexer.extraction`), so
the extraction cache and the trip from a worker carry the packed form too.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from indexer.model import CallSite

__all__ = ["PackedCalls", "pack_calls"]


class PackedCalls(Sequence["CallSite"]):
    """An immutable sequence of call sites stored as one pickle (``blob``) and unpickled on each
    iteration or index; equal to any sequence of the same call sites in the same order."""

    __slots__ = ("blob", "_len")

    def __init__(self, calls: Iterable[CallSite] = ()) -> None:
        items = list(calls)
        self.blob = pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL)
        self._len = len(items)

    @classmethod
    def from_blob(cls, blob: bytes, length: int) -> PackedCalls:
        """The sequence a pickle of a list of ``length`` call sites holds (what unpickling calls)."""
        out = cls.__new__(cls)
        out.blob, out._len = blob, length
        return out

    def unpack(self) -> list[CallSite]:
        """The call sites as a new list."""
        return pickle.loads(self.blob)

    def __iter__(self) -> Iterator[CallSite]:
        return iter(self.unpack())

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> CallSite: ...

    @overload
    def __getitem__(self, index: slice) -> list[CallSite]: ...

    def __getitem__(self, index: int | slice) -> CallSite | list[CallSite]:
        return self.unpack()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedCalls):
            return self.blob == other.blob or self.unpack() == other.unpack()
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return self.unpack() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def __repr__(self) -> str:
        return f"PackedCalls({self.unpack()!r})"

    def __reduce__(self) -> tuple[object, tuple[bytes, int]]:
        return (PackedCalls.from_blob, (self.blob, self._len))


def pack_calls(calls: Sequence[CallSite]) -> Sequence[CallSite]:
    """``calls`` packed (:class:`PackedCalls`; as they are when packed already)."""
    return calls if isinstance(calls, PackedCalls) else PackedCalls(calls)
