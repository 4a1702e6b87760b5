"""A one-shot run (``ripple index``) binds in a forked child, so that its write starts from the
extraction's memory, not from the binding's high-water mark.

Why: the resolve phase builds every file's context, the lookup tables and the memo, then releases
them before the write; but the freed small objects leave pymalloc arenas pinned by a few live
blocks, and glibc keeps its heap: the 400 MB synthetic monorepo wrote from a resident set of 461
MiB of which most was free-but-held memory (docs/benchmarks.md, session 56). A child process gives
all of it back when it exits.

How: :meth:`indexer.incremental.RepositoryIndex.sync` forks (:func:`bind_in_child`, through
:class:`indexer.forked.ForkedCall`: the child dies with its parent and takes Ctrl-C as the parent
does) once the extraction is done. The child updates the resolver, binds every file, releases the
contexts and stages the resolver's records (:mod:`indexer.bind_state`); its outputs go to a spill
file made before the fork, which both processes share (:attr:`indexer.spill.SpillFile.pinned`: a
refused write fails the child rather than move the bytes where the parent cannot read them). It
sends back through the pipe only what the write reads (:class:`Bound`): where each output is in
that file with its summary, each file's columns (:class:`indexer.resolve.released.HandedFiles`),
the call and link counters, the docs to write again and the report's count. The parent then
writes holding only what the extraction left: the extractions of the files whose chunks the
writer still cuts, and the extracted text and chunks waiting in their own spill file.

An exception the child raised is raised again in the parent (same type and message: what the user
saw when the binding ran in process); a child that gave no result (killed, out of memory, a fork
the system refused) is logged and the parent binds in process instead, from the state it still
holds (:func:`bind_in_child` returns ``None``). POSIX only, and not where
:func:`indexer.forked.can_fork` says no (macOS, Windows): those bind in process, as before.
"""

from __future__ import annotations

import dataclasses
import logging
import pickle
from collections.abc import Callable, Sequence
from typing import Any

from indexer.forked import ForkedCall, ForkFailed, can_fork
from indexer.resolve.released import HandedFiles
from indexer.spill import HandedOutputs, SpillFile

__all__ = ["Bound", "FORK_MIN_FILES", "bind_in_child", "forks"]

log = logging.getLogger(__name__)

FORK_MIN_FILES = 400
"""The fewest files a one-shot run binds in a child: below, its write's memory is small whatever
the binding left (the forked binding's bar, :data:`indexer.resolve.forked_binding.FORK_MIN_FILES`)."""


@dataclasses.dataclass(frozen=True)
class Bound:
    """What the child that bound a one-shot run hands its parent (all picklable)."""

    outputs: HandedOutputs
    """The outputs, in the spill file both share (:meth:`indexer.spill.SpilledOutputs.taken_over`)."""
    call_outcomes: dict[str, int]
    link_outcomes: dict[str, int]
    dropped: frozenset[str]
    """As :class:`indexer.resolve.repository.ResolvedRepository` has them."""
    files: HandedFiles
    """Every file's columns once released (:meth:`indexer.resolve.released.ReleasedFiles.taken_over`)."""
    refresh: set[str]
    """Docs written again whatever their digest (:mod:`indexer.mention_refresh`)."""
    files_changed: int
    """:attr:`indexer.run.IndexReport.files_changed`."""
    staged: bool
    """Whether the resolver's records were saved to the staged path the parent gave."""
    park_size: int | None
    """Bytes in the extraction's park file when the child was done (``None``: the child moved its
    park elsewhere, the parent's file is not the one it wrote)."""


def forks(files: int) -> bool:
    """Whether a one-shot run of ``files`` files binds in a child: at least :data:`FORK_MIN_FILES`
    and :func:`indexer.forked.can_fork`."""
    return files >= FORK_MIN_FILES and can_fork()


def _outcome(work: Callable[[], Any], pinned: Sequence[SpillFile]) -> tuple[bool, Any]:
    """Run in the child: ``(True, work())``, or ``(False, exception)`` when ``work`` raised an
    ``Exception`` that pickles (one that does not leaves the child without a result: the parent
    binds in process, where it is raised as it always was). ``pinned``' spill files refuse to move."""
    for spill in pinned:
        spill.pinned = True
    try:
        return True, work()
    except Exception as exc:
        try:
            pickle.loads(pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:  # noqa: BLE001 - not picklable: reported as text, the parent falls back
            raise exc from None
        return False, exc


def bind_in_child(work: Callable[[], Bound], pinned: Sequence[SpillFile]) -> Bound | None:
    """``work()`` run in a forked child (:class:`indexer.forked.ForkedCall`), its :class:`Bound`
    read back; ``pinned``: the spill files the child appends to and the parent reads after it
    (:attr:`indexer.spill.SpillFile.pinned` in the child). Raises again the exception ``work``
    raised (unpickled: same type, same arguments), and ``KeyboardInterrupt`` on Ctrl-C (the child is
    killed). ``None``, with a warning logged, when no child could be made or it gave no result
    (killed by a signal, out of memory, an exception that does not pickle): the caller binds in
    process."""
    try:
        call = ForkedCall(lambda: _outcome(work, pinned))
    except OSError as exc:
        log.warning("could not fork to bind (%s): binding in this process", exc)
        return None
    log.debug("binding in a forked child (pid %s)", call.pid)
    try:
        ok, value = call.result()
    except ForkFailed as exc:
        log.warning("binding in a forked child failed (%s): binding in this process", exc)
        return None
    if not ok:
        raise value
    return value
