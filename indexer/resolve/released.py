"""What a one-shot run keeps of its files once every file is bound: a few columns, not a copy per file.

:meth:`indexer.resolve.repository.RepositoryResolver.release` used to replace each context by a
smaller :class:`~indexer.resolve.context.FileCtx` (:meth:`~indexer.resolve.context.FileCtx.released`:
a context object, its attribute dict and an empty :class:`~indexer.model.FileExtraction`, about 550
bytes a file). Those copies were made while the old contexts, which hold each other and their
definitions in cycles, were still alive: the release was the peak of the resolve phase (the 400 MB
synthetic monorepo: 784 -> 806 MiB, 22 MiB for its 41,940 files), and the copies, small objects
spread over fresh arenas, stayed for the whole write.

:class:`ReleasedFiles` keeps what the write and the run's report read of a released file (its
language's rules, language, module key, checksum, size, package, parse errors, ``partial`` and id
path) as references to the objects the old context already held, in one list per field, in path
order (lists of this length are one block each from the system allocator, not pymalloc objects):
about 80 bytes a file and no new small object while the old contexts are alive. A file is looked up
by bisection of the sorted paths, and given as the same stub :meth:`FileCtx.released` returns, made
when asked (the writer asks for one file at a time and lets it go). Files left unreleased (the
writer still cuts their chunks from the extraction) stay as they are.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping

from indexer.resolve.context import FileCtx

__all__ = ["ReleasedFiles"]


class ReleasedFiles(Mapping[str, FileCtx]):
    """A read-only mapping of every path of ``files`` (a resolver's ``{path: context}``, in its
    order) to its context, where the contexts of ``release`` (paths; others and unknown ones ignored)
    are given as :meth:`FileCtx.released` stubs made on each access (equal in every field a stub
    has, not the same object twice). Iteration follows ``files``' order. Holds no reference to the
    released contexts themselves (they can be collected once ``files`` is dropped)."""

    __slots__ = ("_order", "_kept", "_paths", "_repo", "_rules", "_lang", "_module_key", "_checksum", "_size",
                 "_package", "_errors", "_partial", "_id_path")

    def __init__(self, files: Mapping[str, FileCtx], release: Iterable[str]) -> None:
        gone = {p for p in release if p in files}
        self._order = list(files)
        self._kept = {p: fc for p, fc in files.items() if p not in gone}
        self._paths = sorted(gone)
        n = len(self._paths)
        self._repo = next((fc.repo for fc in files.values()), "")
        cols: list[list[object]] = [[None] * n for _ in range(9)]
        for i, p in enumerate(self._paths):
            fc = files[p]
            ex = fc.ex
            for col, value in zip(cols, (fc.rules, fc.lang, fc.module_key, fc.checksum, fc.size, ex.package,
                                         ex.errors, ex.partial, ex.id_path)):
                col[i] = value
        (self._rules, self._lang, self._module_key, self._checksum, self._size, self._package, self._errors,
         self._partial, self._id_path) = cols

    def _at(self, path: str) -> int:
        """The position of released ``path`` in the columns, or -1."""
        i = bisect_left(self._paths, path)
        return i if i < len(self._paths) and self._paths[i] == path else -1

    def __getitem__(self, path: str) -> FileCtx:
        fc = self._kept.get(path)
        if fc is not None:
            return fc
        i = self._at(path)
        if i < 0:
            raise KeyError(path)
        return FileCtx.stub(self._repo, self._rules[i], path, self._lang[i], self._module_key[i],  # type: ignore[arg-type]
                            self._checksum[i], self._size[i], package=self._package[i],  # type: ignore[arg-type]
                            errors=self._errors[i], partial=self._partial[i], id_path=self._id_path[i])  # type: ignore[arg-type]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and (path in self._kept or self._at(path) >= 0)

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)
