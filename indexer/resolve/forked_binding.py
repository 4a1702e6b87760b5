"""Binding on a second core: a forked copy of the resolving process binds the last part of a whole-tree
run's files while the process itself binds the first (issue 19 goal 3, parallel resolution where it
is safe). The copy starts from the resolver's state as it is, tables built (:mod:`indexer.forked`:
nothing is pickled to start it), writes each output pickled and each read record packed into a
spill file of its own, and sends back only where they are and its outcome counts.

Why it gives the same index as one process: a file's output depends on the files' state and not on
what the memo, the MRO / lookup caches or the lazily resolved bases hold when it is bound (a run
with a memo of 8 entries writes the same index, ``tests/unit/test_memo_budget.py``), and the copy
changes nothing the parent reads: it writes no shared file but its own, and it reads the park spill
file at offsets (:meth:`indexer.spill.SpillFile.get`), not through the file position the parent
moves. The parent adds the copy's outputs in file order after its own.

When it is not used (:func:`fork_share`): one process asked for, no ``fork`` (Windows, macOS), fewer
than :data:`FORK_MIN_FILES` files, or too little memory: the copy's pages are the parent's until
either writes them, and binding touches most of the resolver's, so the copy may come to hold about
as much as the parent; it runs only when twice the parent's resident set fits the memory budget.
"""

from __future__ import annotations

import logging
import os
import pickle
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from indexer.forked import ForkedCall, ForkFailed, can_fork
from indexer.resolve.tracking import pack_deps, strip_cut
from indexer.run import DEFAULT_MEMORY_BUDGET_MIB
from indexer.spill import SpillFile
from stores.contracts import IndexedFile

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

__all__ = ["ForkedBinding", "fork_share", "FORK_MIN_FILES", "FORKED_SHARE"]

log = logging.getLogger(__name__)

FORK_MIN_FILES = 400
"""Fewer files than this are bound in one process: the copy's start and the parent's reading back
of its outputs would cost about what it saves."""

FORKED_SHARE = 0.45
"""The part of the files the copy binds (the last ones): a little under half, since the parent then
reads the copy's outputs back (one unpickling each) while the copy has nothing left to do."""

DEADLINE_FACTOR = 10
"""The copy may take this many times what the parent's own part took (and at least
:data:`DEADLINE_MIN_S`) after the parent finished, before it is taken for hung, killed, and its
files bound by the parent."""

DEADLINE_MIN_S = 120.0


def _rss_mib() -> float | None:
    """This process's resident set, MiB, or ``None`` where ``/proc`` does not say."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)
    except (OSError, ValueError, IndexError):
        return None


def fork_share(files: int, processes: int, memory_budget_mib: int | None) -> int:
    """Where the forked copy's part of ``files`` files begins (index), or ``files`` when binding
    stays in this process: ``processes`` < 2, no safe ``fork`` (:func:`indexer.forked.can_fork`),
    fewer than :data:`FORK_MIN_FILES` files, the resident set unknown, or twice it above
    ``memory_budget_mib`` (MiB; ``None``: :data:`indexer.run.DEFAULT_MEMORY_BUDGET_MIB`)."""
    if processes < 2 or files < FORK_MIN_FILES or not can_fork():
        return files
    rss = _rss_mib()
    budget = DEFAULT_MEMORY_BUDGET_MIB if memory_budget_mib is None else memory_budget_mib
    if rss is None or 2 * rss > budget:
        log.debug("binding %d files in one process: resident set %s MiB, budget %d MiB", files,
                  "unknown" if rss is None else f"{rss:.0f}", budget)
        return files
    return files - int(files * FORKED_SHARE)


class ForkedBinding:
    """Binding ``ctxs`` (their outputs and read records) started at once in a forked copy of this
    process, with ``resolver`` as it is now; :meth:`outputs` reads them back in order, :meth:`close`
    ends the copy and deletes its spill file. ``park``: the spill file whose folder the copy's own
    goes in (``None``: the system's temporary folder). Raises nothing: a copy that cannot start is
    reported by :meth:`outputs` like one that failed."""

    def __init__(self, resolver: Resolver, ctxs: Sequence[FileCtx], park: SpillFile | None) -> None:
        self.ctxs = list(ctxs)
        self.spill: SpillFile | None = None
        self._call: ForkedCall | None = None
        self._error: str | None = None
        try:
            try:
                self.spill = SpillFile(park.directory if park is not None else None)
            except OSError:
                self.spill = SpillFile()
            spill = self.spill
            self._call = ForkedCall(lambda: _bind_all(resolver, self.ctxs, spill))
            log.debug("binding the last %d files in a second process (pid %d, resident set here %s MiB)",
                      len(self.ctxs), self._call.pid, f"{_rss_mib() or 0:.0f}")
        except OSError as exc:
            self._error = f"no second process: {exc}"
        self.started = self._call.started if self._call is not None else 0.0

    def outputs(self, outcomes: defaultdict[str, int], parent_s: float
                ) -> Iterator[tuple[FileCtx, IndexedFile | None, bytes | None, bytes | None]]:
        """Per file of :attr:`ctxs`, in order: ``(ctx, output, its pickle, packed record)``, or
        ``(ctx, None, None, None)`` for each file the copy did not bind (it failed, died, ran past
        its deadline, ``parent_s`` (the seconds the parent's own part took) times
        :data:`DEADLINE_FACTOR`, or an output does not read back), which the caller binds itself;
        a warning says why, once. Adds each output's outcome counts to ``outcomes`` as it is given."""
        made: list[tuple[tuple[int, int], tuple[int, int], dict[str, int]]] = []
        if self._call is not None and self.spill is not None:
            try:
                made, size = self._call.result(max(DEADLINE_MIN_S, DEADLINE_FACTOR * parent_s))
                self.spill.written_to(size)
                if len(made) != len(self.ctxs):
                    raise ValueError(f"it gave {len(made)} outputs for {len(self.ctxs)} files")
            except (ForkFailed, ValueError) as exc:
                self._error = str(exc)
        for i, fc in enumerate(self.ctxs):
            if self._error is None:
                out_ref, record_ref, counts = made[i]
                try:
                    blob = self.spill.get(out_ref)  # type: ignore[union-attr]
                    out, record = pickle.loads(blob), self.spill.get(record_ref)  # type: ignore[union-attr]
                except (ValueError, OSError, pickle.UnpicklingError, EOFError) as exc:
                    self._error = f"its output of {fc.path} does not read back: {exc}"
                else:
                    for key, n in counts.items():
                        outcomes[key] += n
                    yield fc, out, blob, record
                    continue
                log.warning("binding in a second process failed (%s): %d of its %d files are bound here",
                            self._error, len(self.ctxs) - i, len(self.ctxs))
            elif i == 0:
                log.warning("binding in a second process failed (%s): its %d files are bound here",
                            self._error, len(self.ctxs))
            yield fc, None, None, None

    def close(self) -> None:
        """End the copy if it still runs and delete its spill file (idempotent)."""
        if self._call is not None:
            self._call.cancel()
        if self.spill is not None:
            self.spill.close()


def _bind_all(resolver: Resolver, ctxs: Sequence[FileCtx], spill: SpillFile
              ) -> tuple[list[tuple[tuple[int, int], tuple[int, int], dict[str, int]]], int]:
    """In the copy: bind ``ctxs``, each output pickled and its read record packed into ``spill``;
    returns per file where they went and its outcome counts, and the spill file's size."""
    made = []
    for fc in ctxs:
        outcomes: defaultdict[str, int] = defaultdict(int)
        out, deps = resolver.tracked(lambda: resolver.file_output(fc, outcomes))  # noqa: B023
        made.append((spill.put(pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)),
                     spill.put(pack_deps(strip_cut(deps))), dict(outcomes)))
    return made, spill.size
