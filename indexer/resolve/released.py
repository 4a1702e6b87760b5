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

import copy
import dataclasses
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping

from indexer.model import FileExtraction
from indexer.resolve.context import FileCtx
from indexer.resolve.language import ModuleSystem

__all__ = ["HandedFiles", "ReleasedFiles"]

_FIELDS = 8
"""The columns a :class:`HandedFiles` holds per file (language, module key, checksum, size, package,
errors, ``partial``, id path)."""


@dataclasses.dataclass(frozen=True)
class HandedFiles:
    """A :class:`ReleasedFiles` made in a forked copy of this process, as it hands it to its parent
    (:meth:`ReleasedFiles.hand_over`): every file's columns (the kept ones' too), in sorted path
    order, the language's rules left out (the parent has its own), and which files were kept
    (their extraction needed by the write). Picklable: strings, numbers, lists."""

    repo: str
    order: list[str]
    """The paths in the resolver's order (iteration order)."""
    paths: list[str]
    """The paths, sorted."""
    columns: list[list[object]]
    """Per field (language, module key, checksum, size, package, errors, ``partial``, id path) one
    list in :attr:`paths` order."""
    kept: list[str]
    """The paths left unreleased, sorted."""


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

    def hand_over(self) -> HandedFiles:
        """What :meth:`taken_over` needs in the parent of this forked copy: the columns of every
        file, the kept ones' read from their contexts (references to the objects they hold)."""
        paths = sorted(self._order)
        cols: list[list[object]] = [[None] * len(paths) for _ in range(_FIELDS)]
        for i, p in enumerate(paths):
            fc = self._kept.get(p)
            if fc is None:
                j = self._at(p)
                values: tuple[object, ...] = (self._lang[j], self._module_key[j], self._checksum[j], self._size[j],
                                              self._package[j], self._errors[j], self._partial[j], self._id_path[j])
            else:
                ex = fc.ex
                values = (fc.lang, fc.module_key, fc.checksum, fc.size, ex.package, ex.errors, ex.partial, ex.id_path)
            for col, value in zip(cols, values):
                col[i] = value
        return HandedFiles(self._repo, self._order, paths, cols, sorted(self._kept))

    @classmethod
    def taken_over(cls, handed: HandedFiles, rules: Mapping[str, ModuleSystem],
                   extractions: Mapping[str, FileExtraction]) -> ReleasedFiles:
        """The files a forked copy of this process released and handed over (:meth:`hand_over`):
        ``rules`` maps each language to its module system (:func:`indexer.languages.module_systems`);
        a kept file's context is a stub (:meth:`FileCtx.stub`) holding a copy of its extraction in
        ``extractions`` (this process's, by path, as the copy started from it) with the id path the
        copy gave it: what the writer chunks it from. Raises ``KeyError`` for a language without
        rules or a kept file without an extraction."""
        out = cls.__new__(cls)
        out._order, out._paths, out._repo = handed.order, handed.paths, handed.repo
        (out._lang, out._module_key, out._checksum, out._size, out._package, out._errors, out._partial,
         out._id_path) = handed.columns
        out._rules = [rules[lang] for lang in out._lang]  # type: ignore[index]
        out._kept = {}
        for p in handed.kept:
            i = out._at(p)
            fc = out[p]
            ex = copy.copy(extractions[p])
            ex.id_path = out._id_path[i]  # type: ignore[assignment]
            fc.ex = ex
            out._kept[p] = fc
        return out

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
