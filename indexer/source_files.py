"""The files a walk found and the read phase hashed, kept as columns: a few large buffers, not a few
small objects a file.

Why: a one-shot ``ripple index`` walks and hashes the whole tree in its parent process, then parks the
list (:class:`indexer.forked_resolve.ParkedFiles`) and forks the child that extracts and binds. Held as
a :class:`SourceFile`, two path strings, a tuple, a size and a hexadecimal checksum a file (about 520 B,
21 MB at the 400 MB monorepo's 41,940 files), they filled CPython's small-object arenas (pymalloc: 1 MiB
arenas of 16 KiB pools, an arena returned to the system only when every block in it is free). A few
hundred objects that outlive the read (compiled patterns, the docs' mention records, the progress
samplers) were allocated among them, so freeing the list left those arenas pinned: their free pools
stayed resident in the parent while the child ran, and the child's allocations copied them (session
62: about 22 MiB of the parent's 59 MiB Pss at the 400 MB monorepo). Here the paths are two UTF-8
``bytearray`` buffers with end offsets, the sizes and languages ``array`` columns, the checksums 32
raw bytes each: buffers this large come from ``malloc`` (``mmap`` beyond 128 KiB), which gives them
back whole when they are freed. A :class:`SourceFile` or a ``(file, size, checksum)`` tuple is made
when one is read and is garbage right after, in pools the next one reuses.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar, overload

__all__ = ["HashedFiles", "SourceFile", "SourceFiles"]


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to index: ``path`` is repository-relative POSIX, ``abs_path`` absolute, ``size`` bytes;
    ``confine`` the real root the file must still lie in when it is read
    (:func:`indexer.discovery.read_source`; ``None``: links out of the root were allowed)."""

    path: str
    abs_path: str
    language: str
    size: int
    confine: str | None = None


def _text(buffer: bytearray, ends: array, i: int) -> str:
    start = ends[i - 1] if i else 0
    return buffer[start:ends[i]].decode("utf-8", "surrogatepass")


T = TypeVar("T")


class _Columns(Sequence[T]):
    """What both column lists share: indexing (an ``int``, negative too, or a slice: a ``list``),
    iteration (each item made anew by ``_item``), equality with a sequence of equal items in the same
    order, the ``repr`` of a list; unhashable, like a list. A subclass gives ``__len__`` and ``_item``."""

    __slots__ = ()

    def _item(self, i: int) -> T:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return [self._item(j) for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"{type(self).__name__} index out of range")
        return self._item(i)

    def __iter__(self) -> Iterator[T]:
        for i in range(len(self)):
            yield self._item(i)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]  (mutable, like a list)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class SourceFiles(_Columns[SourceFile]):
    """A list of :class:`SourceFile` kept as columns (see the module's docstring): :meth:`append`,
    ``len``, indexing (an ``int``, negative too, or a slice: a ``list``), iteration (each item a new,
    equal :class:`SourceFile`), :meth:`sort_by_path`. Equal to a sequence of the same files in the same
    order. Pickles as its buffers. Any ``str`` a file holds round-trips (lone surrogates included:
    ``surrogatepass``); at most 65,536 distinct ``(language, confine)`` pairs (``OverflowError``)."""

    __slots__ = ("_paths", "_path_ends", "_abs", "_abs_ends", "_sizes", "_kinds", "_kind_values", "_kind_index")

    def __init__(self, files: Iterable[SourceFile] = ()) -> None:
        self._paths, self._path_ends = bytearray(), array("Q")
        self._abs, self._abs_ends = bytearray(), array("Q")
        self._sizes = array("q")
        self._kinds = array("H")  # index into _kind_values: (language, confine)
        self._kind_values: list[tuple[str, str | None]] = []
        self._kind_index: dict[tuple[str, str | None], int] = {}
        for sf in files:
            self.append(sf)

    def append(self, sf: SourceFile) -> None:
        """Add ``sf`` at the end."""
        kind = (sf.language, sf.confine)
        k = self._kind_index.get(kind)
        if k is None:
            k = self._kind_index[kind] = len(self._kind_values)
            if k > 0xFFFF:
                raise OverflowError("more than 65,536 (language, confine) pairs")
            self._kind_values.append(kind)
        self._paths += sf.path.encode("utf-8", "surrogatepass")
        self._path_ends.append(len(self._paths))
        self._abs += sf.abs_path.encode("utf-8", "surrogatepass")
        self._abs_ends.append(len(self._abs))
        self._sizes.append(sf.size)
        self._kinds.append(k)

    def __len__(self) -> int:
        return len(self._sizes)

    def path(self, i: int) -> str:
        """The ``path`` of the ``i``-th file (``0 <= i < len``), without making its :class:`SourceFile`."""
        return _text(self._paths, self._path_ends, i)

    def _item(self, i: int) -> SourceFile:
        language, confine = self._kind_values[self._kinds[i]]
        return SourceFile(_text(self._paths, self._path_ends, i), _text(self._abs, self._abs_ends, i), language,
                          self._sizes[i], confine)

    def sort_by_path(self) -> None:
        """Order the files by ``path`` (as ``list.sort(key=lambda f: f.path)``: stable). The keys are the
        paths' UTF-8 bytes, whose order is the code points' (lone surrogates too, ``surrogatepass``)."""
        paths, ends = self._paths, self._path_ends
        order = sorted(range(len(self)), key=lambda i: paths[ends[i - 1] if i else 0:ends[i]])
        if order == list(range(len(self))):
            return
        new_paths, new_ends, new_abs, new_abs_ends = bytearray(), array("Q"), bytearray(), array("Q")
        for i in order:
            new_paths += paths[ends[i - 1] if i else 0:ends[i]]
            new_ends.append(len(new_paths))
            new_abs += self._abs[self._abs_ends[i - 1] if i else 0:self._abs_ends[i]]
            new_abs_ends.append(len(new_abs))
        self._paths, self._path_ends, self._abs, self._abs_ends = new_paths, new_ends, new_abs, new_abs_ends
        self._sizes = array("q", (self._sizes[i] for i in order))
        self._kinds = array("H", (self._kinds[i] for i in order))


class HashedFiles(_Columns[tuple[SourceFile, int, str]]):
    """The read phase's ``(file, size read, checksum)`` triples kept as columns (see the module's
    docstring): the files a :class:`SourceFiles`, the sizes an ``array``, each checksum, a SHA-256
    hexadecimal digest (64 characters: ``hashlib.sha256(data).hexdigest()``), as its 32 bytes.
    :meth:`append`, :meth:`clear`, :meth:`assign`, ``len``, indexing (an ``int`` or a slice), iteration
    (each item a new tuple, its checksum in lower case). Equal to a sequence of the same triples. A
    checksum that is not 64 hexadecimal digits raises ``ValueError`` at :meth:`append`."""

    __slots__ = ("_files", "_sizes", "_digests")

    def __init__(self, items: Iterable[tuple[SourceFile, int, str]] = ()) -> None:
        self._files = SourceFiles()
        self._sizes = array("q")
        self._digests = bytearray()
        for item in items:
            self.append(item)

    def append(self, item: tuple[SourceFile, int, str]) -> None:
        """Add ``(file, size, checksum)`` at the end."""
        sf, size, checksum = item
        if len(checksum) != 64:
            raise ValueError(f"not a SHA-256 hexadecimal digest: {checksum!r}")
        digest = bytes.fromhex(checksum)  # ValueError when not hexadecimal
        self._files.append(sf)
        self._sizes.append(size)
        self._digests += digest

    def clear(self) -> None:
        """Remove every item (the buffers are freed)."""
        self.__init__()  # type: ignore[misc]

    def assign(self, items: Iterable[tuple[SourceFile, int, str]]) -> None:
        """Hold ``items`` instead (as ``hashed[:] = items`` on a list)."""
        self.clear()
        for item in items:
            self.append(item)

    def __len__(self) -> int:
        return len(self._sizes)

    def _item(self, i: int) -> tuple[SourceFile, int, str]:
        return self._files[i], self._sizes[i], self._digests[32 * i:32 * i + 32].hex()
