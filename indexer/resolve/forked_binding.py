"""Binding on a second core: a forked copy of the resolving process binds files of a whole-tree run
while the process itself binds the others (issue 19 goal 3, parallel resolution where it is safe).
The copy starts from the resolver's state as it is, tables built (:mod:`indexer.forked`: nothing is
pickled to start it), writes each output pickled and each read record packed into a spill file of its
own, and sends back only where they are and its outcome counts.

Who binds what is decided as they go (:class:`FileClaims`): the parent takes files from the front of
the list, the copy from the back, one at a time, until they meet; so neither waits for the other when
one is slower (the copy writes the pages it touches; another program may hold the second core).

Why it gives the same index as one process: a file's output depends on the files' state and not on
what the memo, the MRO / lookup caches or the lazily resolved bases hold when it is bound (a run
with a memo of 8 entries writes the same index, ``tests/unit/test_memo_budget.py``), and the copy
changes nothing the parent reads: it writes no shared file but its own, and it reads the park spill
file at offsets (:meth:`indexer.spill.SpillFile.get`), not through the file position the parent
moves. The parent adds the copy's outputs in file order after its own.

When it is not used (:func:`should_fork`): one process asked for, no ``fork`` (Windows, macOS), fewer
than :data:`FORK_MIN_FILES` files, or too little memory: less than :data:`FORK_HEADROOM_MIB` of the
memory budget left beside the parent's resident set.

How it keeps to the memory budget: the copy's pages are the parent's until either writes them, and
binding writes many of them (reference counts, the copy's own memo), so the copy comes to hold up to
about 70% of what the parent holds (Django: 97 MiB beside 180; the 45-package monorepo: 168 beside
236). Every :data:`CHECK_S` seconds the copy adds its own pages (unique set size) to the parent's
resident set, and the pages only the parent's own forking ancestors hold (:func:`ancestors_mib`: in the
child a one-shot run binds in, the run's process beside it); once that, with the growth of the last
interval once more, is over the budget, it claims no more files and exits, and the parent binds the rest.
The parent freezes its objects before the fork (``gc.freeze``, until :meth:`ForkedBinding.close`) and
the copy inherits that: neither process's collections then write those objects' headers, which
would make each page so written held twice.
"""

from __future__ import annotations

import fcntl
import gc
import logging
import os
import pickle
import struct
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import psutil

from indexer.forked import ForkedCall, ForkFailed, can_fork, lineage
from indexer.resolve.tracking import pack_deps, strip_cut
from indexer.run import DEFAULT_MEMORY_BUDGET_MIB
from indexer.spill import SpillFile, SpillRef, Summarise
from stores.contracts import IndexedFile

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

Summary = tuple[object, bytes | None]
"""What ``summarise`` gave for an output in the copy: ``(value, record bytes or None)``."""

__all__ = ["ForkedBinding", "FileClaims", "ancestors_mib", "held_mib", "should_fork", "start_forked_binding",
           "FORK_MIN_FILES", "FORK_HEADROOM_MIB", "COPY_SHARE", "BESIDE_COPY_MIB"]

log = logging.getLogger(__name__)

FORK_MIN_FILES = 400
"""Fewer files than this are bound in one process: the copy's start and the parent's reading back
of its outputs would cost about what it saves."""

FORK_HEADROOM_MIB = 64
"""The copy starts only when the parent's resident set leaves at least this much (MiB) of the memory
budget: below that it would stop after a few files."""

COPY_SHARE = 0.7
"""The part of the parent's resident set the copy comes to hold of its own while it binds (the pages
it writes: Django 5.2.8, 97 MiB beside 180; the 45-package monorepo, 168 beside 236)."""

BESIDE_COPY_MIB = 64
"""What (MiB) work run in the parent while the copy binds may add to the memory the two hold together
(:meth:`ForkedBinding.room_beside`): the framework linker run beside the copy added 48 MiB to Django
5.2.8's tree Pss peak (205 -> 253 MiB; its pages are new or written while the copy still shares them)."""

CHECK_S = 0.1
"""How often the copy measures the memory the two processes hold: every this many seconds of the
copy's own CPU time (``time.process_time()``), not of the clock. Each measure reads two
``smaps_rollup`` files (the copy's and its ancestor's, :func:`held_mib`), about 3 ms of CPU each at
170 MiB; paced by the clock, a copy waiting for a core on a loaded machine measured more often for
the same work done (Django at load 17: 3.4 s of the copy's 19 s of CPU), while the memory it
guards grows only with the work the processes do."""

DEADLINE_FACTOR = 10
"""Once the parent has bound its files, the copy may take this many times what they took (and at
least :data:`DEADLINE_MIN_S`) before it is taken for hung, killed, and its files bound by the parent."""

DEADLINE_MIN_S = 120.0

CLAIM_WAIT_S = 10.0
"""How long (seconds) the parent waits for the list of claims, which each process holds for
microseconds: a copy holding it longer is stopped (``SIGSTOP``, a debugger) or hung; the parent
then kills it (which frees the list) and binds its files, rather than wait forever."""

_ENDS = struct.Struct("=qq")


def _rss_mib() -> float | None:
    """This process's resident set, MiB (``psutil``), or ``None`` where the system does not say."""
    try:
        return psutil.Process().memory_info().rss / (1 << 20)
    except (psutil.Error, OSError):
        return None


def should_fork(files: int, processes: int, memory_budget_mib: int | None) -> bool:
    """Whether binding ``files`` files takes a forked copy: not with ``processes`` < 2, no safe
    ``fork`` (:func:`indexer.forked.can_fork`), fewer than :data:`FORK_MIN_FILES` files, the resident
    set unknown, or less than :data:`FORK_HEADROOM_MIB` left between it and ``memory_budget_mib``
    (MiB; ``None``: :data:`indexer.run.DEFAULT_MEMORY_BUDGET_MIB`)."""
    if processes < 2 or files < FORK_MIN_FILES or not can_fork():
        return False
    rss = _rss_mib()
    budget = _budget(memory_budget_mib)
    if rss is not None:
        rss += ancestors_mib()
    if rss is None or rss + FORK_HEADROOM_MIB > budget:
        log.debug("binding %d files in one process: resident set %s MiB, budget %d MiB", files,
                  "unknown" if rss is None else f"{rss:.0f}", budget)
        return False
    return True


def ancestors_mib(skip: int | None = None) -> float:
    """The memory only the processes this one was forked from through :class:`indexer.forked.ForkedCall`
    hold (:func:`indexer.forked.lineage`; but ``skip``), MiB: the sum of their unique set sizes. In
    the child a one-shot run binds in (:mod:`indexer.forked_resolve`), the run's process beside it:
    the pages the child wrote since the fork are then held twice, the parent's copy counted here
    (0 in a process no such fork started; an ancestor gone, or whose memory cannot be read, counts 0)."""
    held = 0
    for pid in lineage():
        if pid != skip:
            try:
                held += psutil.Process(pid).memory_full_info().uss
            except (psutil.Error, OSError, AttributeError):
                pass
    return held / (1 << 20)


def _budget(memory_budget_mib: int | None) -> int:
    return DEFAULT_MEMORY_BUDGET_MIB if memory_budget_mib is None else memory_budget_mib


def held_mib(copy: psutil.Process, parent: psutil.Process) -> float | None:
    """The memory a parent and its forked copy hold together, MiB: the parent's resident set plus
    the pages only the copy holds (its unique set size, which Linux reads from
    ``/proc/PID/smaps_rollup``), plus those only the parent's own forking ancestors hold
    (:func:`ancestors_mib`: a one-shot run binding in a child, its process); ``None`` when the
    system does not say."""
    try:
        pair = (parent.memory_info().rss + copy.memory_full_info().uss) / (1 << 20)
    except (psutil.Error, OSError, AttributeError):
        return None
    return pair + ancestors_mib(skip=parent.pid)


def start_forked_binding(resolver: Resolver, ctxs: Sequence[FileCtx], park: SpillFile | None,
                         processes: int, memory_budget_mib: int | None,
                         summarise: Summarise | None = None) -> ForkedBinding | None:
    """A :class:`ForkedBinding` of ``ctxs`` when :func:`should_fork` says so and the shared claims
    can be made, else ``None`` (the caller binds every file itself). ``summarise``: applied by the
    copy to each output it makes (:attr:`indexer.spill.SpilledOutputs.summarise`)."""
    if not should_fork(len(ctxs), processes, memory_budget_mib):
        return None
    try:
        return ForkedBinding(resolver, ctxs, park, _budget(memory_budget_mib), summarise)
    except OSError as exc:
        log.debug("binding %d files in one process: %s", len(ctxs), exc)
        return None


class FileClaims:
    """The indexes ``0 .. n-1`` of a list of files, claimed one at a time from the front
    (:meth:`front`, the parent) and from the back (:meth:`back`, the forked copy) until none is
    left. The two ends are 16 bytes of an anonymous temporary file, read and written under a POSIX
    record lock (``lockf``), which is per process and which the system releases when its holder
    dies: a process forked after this is made claims from the same list, and a copy killed while
    it claims cannot leave the parent waiting. Raises ``OSError`` when the file cannot be made."""

    def __init__(self, n: int) -> None:
        self._fh = tempfile.TemporaryFile()
        self._fd = self._fh.fileno()
        os.pwrite(self._fd, _ENDS.pack(0, n), 0)

    def _lock(self, wait_s: float | None) -> None:
        if wait_s is None:
            fcntl.lockf(self._fd, fcntl.LOCK_EX)
            return
        end = time.monotonic() + wait_s
        while True:
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except (BlockingIOError, PermissionError):  # EAGAIN / EACCES: the other process holds it
                if time.monotonic() >= end:
                    raise TimeoutError(f"the list of claims was held for over {wait_s:.0f} s") from None
                time.sleep(0.001)

    def _take(self, from_front: bool, wait_s: float | None = None) -> int | None:
        self._lock(wait_s)
        try:
            lo, hi = _ENDS.unpack(os.pread(self._fd, _ENDS.size, 0))
            if lo >= hi:
                return None
            os.pwrite(self._fd, _ENDS.pack(lo + 1, hi) if from_front else _ENDS.pack(lo, hi - 1), 0)
            return lo if from_front else hi - 1
        finally:
            fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def front(self, wait_s: float | None = None) -> int | None:
        """The next index from the front, or ``None`` when every index is claimed. Raises
        ``TimeoutError`` when the other process holds the list for over ``wait_s`` seconds
        (``None``: wait as long as it takes)."""
        return self._take(True, wait_s)

    def back(self) -> int | None:
        """The next index from the back, or ``None`` when every index is claimed."""
        return self._take(False)

    def meeting(self) -> int:
        """Where the two ends met, once every index is claimed: the copy's indexes are this and
        those after it."""
        return _ENDS.unpack(os.pread(self._fd, _ENDS.size, 0))[0]

    def close(self) -> None:
        """Delete the file (idempotent)."""
        self._fh.close()


class ForkedBinding:
    """Binding ``ctxs`` shared with a forked copy of this process started at once, with ``resolver``
    as it is now: the caller binds the files :meth:`own` gives it, then :meth:`outputs` reads the
    copy's back in order; :meth:`close` ends the copy and deletes its spill file. ``park``: the spill file whose folder the copy's own
    goes in (``None``: the system's temporary folder). ``budget_mib``: the copy claims no more files
    once the two processes hold more than this (:func:`held_mib`). Raises ``OSError`` when the shared claims
    cannot be made; a copy that cannot start is reported by :meth:`outputs` like one that failed."""

    def __init__(self, resolver: Resolver, ctxs: Sequence[FileCtx], park: SpillFile | None,
                 budget_mib: int = DEFAULT_MEMORY_BUDGET_MIB, summarise: Summarise | None = None) -> None:
        self.ctxs = list(ctxs)
        self.budget_mib = budget_mib
        self.claims = FileClaims(len(self.ctxs))
        self.spill: SpillFile | None = None
        self._call: ForkedCall | None = None
        self._error: str | None = None
        self._frozen = False
        self._hung: str | None = None
        self.started = time.monotonic()
        """When the copy started (``time.monotonic()``): the parent's own part is timed from here."""
        self.rss_at_fork = _rss_mib()
        """This process's resident set when the copy started (MiB; ``None``: not known), what
        :meth:`room_beside` projects from, with :attr:`ancestors_at_fork`."""
        self.ancestors_at_fork = ancestors_mib() if self.rss_at_fork is not None else 0.0
        """The pages only this process's forking ancestors held then (:func:`ancestors_mib`, MiB)."""
        try:
            try:
                self.spill = SpillFile(park.directory if park is not None else None)
            except OSError:
                self.spill = SpillFile()
            spill, claims = self.spill, self.claims
            # Until close(), this process's collections leave alone what the copy shares with it: a
            # full collection writes every container's header, and each page so written is then
            # held twice (the 45-package monorepo's copy stopped at the budget after 16% of the
            # files without this, and bound its half with it).
            gc.freeze()
            self._frozen = True
            self._call = ForkedCall(lambda: _bind_claimed(resolver, self.ctxs, claims, spill, budget_mib, summarise))
            log.debug("binding %d files with a second process (pid %d, resident set here %s MiB)",
                      len(self.ctxs), self._call.pid, f"{_rss_mib() or 0:.0f}")
        except OSError as exc:
            self._error = f"no second process: {exc}"
            log.warning("binding in a second process failed (%s): every file is bound here", self._error)
            while self.claims.back() is not None:  # the parent binds them all
                pass

    def room_beside(self, mib: float = BESIDE_COPY_MIB) -> bool:
        """Whether work in this process that adds about ``mib`` MiB while the copy binds fits the
        budget: the memory held when the copy started (:attr:`rss_at_fork`, :attr:`ancestors_at_fork`),
        the copy's own pages once it has bound (:data:`COPY_SHARE` of this process's resident set:
        :func:`held_mib` counts them so) and ``mib`` together stay within :attr:`budget_mib`. False
        when the copy did not start or the memory is not known. (The copy's own check stops it at the budget whatever this says: this keeps such work
        off where the copy would stop early for it, the largest trees.)"""
        if self._call is None or self._error is not None or self.rss_at_fork is None:
            return False
        projected = self.rss_at_fork * (1 + COPY_SHARE) + self.ancestors_at_fork + mib
        log.debug("beside the copy: %.0f MiB here, %.0f MiB of ancestors, %.0f MiB projected with %.0f more"
                  " (budget %d MiB)", self.rss_at_fork, self.ancestors_at_fork, projected, mib, self.budget_mib)
        return projected <= self.budget_mib

    def own(self) -> Iterator[FileCtx]:
        """The files this process claims from the front, in order, until the copy's claims from
        the back meet them: the caller binds each as it is given."""
        while True:
            try:
                i = self.claims.front(CLAIM_WAIT_S if self._call is not None and self._call.pid is not None else None)
            except TimeoutError as exc:  # the copy is stopped or hung while it holds the list
                self._hung = f"it was killed: {exc}"
                self._call.cancel()  # type: ignore[union-attr]  # its death frees the list
                continue
            if i is None:
                return
            yield self.ctxs[i]

    def outputs(self, outcomes: defaultdict[str, int], parent_s: float
                ) -> Iterator[tuple[FileCtx, IndexedFile | None, bytes | None, bytes | None, Summary | None]]:
        """Once the caller has bound every file it claimed: per file the copy claimed, in order,
        ``(ctx, output, its pickle, packed record, summary)``: with a ``summarise`` the output is
        ``None`` (not unpickled here) and the summary ``(value, record)`` what ``summarise`` gave for
        it in the copy; without one the output unpickled and the summary ``None``. Or
        ``(ctx, None, None, None, None)`` for each file
        the copy did not bind (it failed, died, ran past its deadline, ``parent_s`` (the seconds the
        parent's own part took) times :data:`DEADLINE_FACTOR`, or an output does not read back),
        which the caller binds itself; a warning says why. Adds each output's outcome counts
        to ``outcomes`` as it is given."""
        first = self.claims.meeting()
        made: dict[int, tuple[SpillRef | bytes, SpillRef | bytes, dict[str, int], tuple[object, SpillRef | bytes | None] | None]] = {}
        if self._call is not None and self.spill is not None:
            try:
                if self._hung is not None:
                    raise ForkFailed(self._hung)
                index, size, stopped = self._call.result(max(DEADLINE_MIN_S, DEADLINE_FACTOR * parent_s))
                self.spill.written_to(size)
                made = index if isinstance(index, dict) else pickle.loads(self.spill.get(index))
                if stopped is not None:
                    log.debug("the second process bound %d of %d files, then stopped: %s (budget %d MiB);"
                              " this one bound the rest", len(made), len(self.ctxs), stopped, self.budget_mib)
                if sorted(made) != list(range(first, len(self.ctxs))):
                    raise ValueError(f"it gave outputs for {len(made)} files, not the {len(self.ctxs) - first} it claimed")
            except (ForkFailed, ValueError, OSError, pickle.UnpicklingError, EOFError) as exc:
                self._error = str(exc)
                log.warning("binding in a second process failed (%s): its %d files are bound here",
                            self._error, len(self.ctxs) - first)
        for i in range(first, len(self.ctxs)):
            fc = self.ctxs[i]
            if self._error is None:
                out_ref, record_ref, counts, summarised = made[i]
                try:
                    blob, record = self._read(out_ref), self._read(record_ref)
                    summary: Summary | None = None
                    out: IndexedFile | None = None
                    if summarised is not None:  # the copy summarised it: not unpickled here
                        value, keys = summarised
                        summary = (value, None if keys is None else self._read(keys))
                    else:
                        out = pickle.loads(blob)
                except (ValueError, OSError, pickle.UnpicklingError, EOFError) as exc:
                    self._error = f"its output of {fc.path} does not read back: {exc}"
                else:
                    for key, n in counts.items():
                        outcomes[key] += n
                    yield fc, out, blob, record, summary
                    continue
                log.warning("binding in a second process failed (%s): %d of its %d files are bound here",
                            self._error, len(self.ctxs) - i, len(self.ctxs) - first)
            yield fc, None, None, None, None

    def _read(self, ref: SpillRef | bytes) -> bytes:
        """The bytes at ``ref`` in the copy's spill file (or ``ref`` itself: bytes the copy sent)."""
        return ref if isinstance(ref, bytes) else self.spill.get(ref)  # type: ignore[union-attr]

    def close(self) -> None:
        """End the copy if it still runs, delete its spill file, and let this process's collections
        reach the objects frozen at the fork again (idempotent)."""
        if self._frozen:
            gc.unfreeze()
            self._frozen = False
        if self._call is not None:
            self._call.cancel()
        if self.spill is not None:
            self.spill.close()
        self.claims.close()


def _bind_claimed(resolver: Resolver, ctxs: Sequence[FileCtx], claims: FileClaims, spill: SpillFile,
                  budget_mib: float, summarise: Summarise | None = None) -> tuple[SpillRef | dict[int, tuple], int, str | None]:
    """In the copy: bind the files of ``ctxs`` it claims from the back, each output pickled and its
    read record packed into ``spill`` (with ``summarise``, what it gives for the output too: its
    value, and its record put into ``spill``), until none is left or the two processes hold more than
    ``budget_mib`` (:func:`held_mib`, measured every :data:`CHECK_S` seconds of its CPU time; it stops when the
    growth since the last measure, once more, would pass the budget). Returns where in
    ``spill`` it put its index (pickled: per file index, where its output and record went, its
    outcome counts and its summary or ``None``), the spill file's size, and why the copy stopped early (``None``: it did not):
    a few bytes, which the pipe takes at once, so the copy exits and frees its pages while the
    parent still binds. When a refused write (a full state folder) moved ``spill`` (in this process
    only: the parent reads the file it made, which ends where the disk refused), the index holds the
    outputs and records themselves and is returned as it is."""
    made = {}
    stopped: str | None = None
    copy, parent = psutil.Process(), psutil.Process(os.getppid())
    check, last = 0.0, None
    while True:
        if (now := time.process_time()) >= check:
            held = held_mib(copy, parent)
            if held is None:  # not measurable: stop rather than guess
                stopped = "the memory held is unknown"
                break
            growth = max(0.0, held - last) if last is not None else 0.0
            if held + growth > budget_mib:  # the next measure, at this pace, would find it passed
                stopped = f"{held:.0f} MiB held by both processes"
                break
            check, last = now + CHECK_S, held
        if (i := claims.back()) is None:
            break
        fc = ctxs[i]
        outcomes: defaultdict[str, int] = defaultdict(int)
        out, deps = resolver.tracked(lambda: resolver.file_output(fc, outcomes))  # noqa: B023
        summary: tuple[object, SpillRef | None] | None = None
        if summarise is not None:
            value, keys = summarise(out)
            summary = (value, None if keys is None else spill.put(keys))
        made[i] = (spill.put(pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)),
                   spill.put(pack_deps(strip_cut(deps))), dict(outcomes), summary)
    if not spill.moved:
        index = spill.put(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
        if not spill.moved:
            return index, spill.size, stopped
    return {i: (spill.get(out), spill.get(record), counts,
                None if summary is None else (summary[0], None if summary[1] is None else spill.get(summary[1])))
            for i, (out, record, counts, summary) in made.items()}, 0, stopped
