"""A function run in a forked copy of this process, its result read back through a pipe: how the
resolve step binds part of a repository on a second core (:meth:`indexer.resolve.repository.RepositoryResolver.resolve`)
without pickling the resolver's state to send it anywhere. The child starts with the parent's
memory as it is (copy-on-write pages: what it only reads it does not copy), so it needs every
lookup table the parent built, already built.

The child dies with its parent (:func:`die_with_parent`, shared with the extraction workers), takes
the default action on Ctrl-C, and leaves by ``os._exit``: it runs no ``atexit`` handler, closes no
database and deletes no temporary file of the parent's. Whatever goes wrong in it (an exception, a
crash, a kill, a hang past the parent's deadline) reaches the parent as :class:`ForkFailed`, never
as a half result. POSIX only (:func:`can_fork`).
"""

from __future__ import annotations

import ctypes
import os
import pickle
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["ForkedCall", "ForkFailed", "PickledFrames", "can_fork", "die_with_parent", "lineage", "PARENT_POLL_S", "send_pickled"]

PARENT_POLL_S = 1.0
"""How often a child's watchdog looks whether its parent still lives (where no death signal exists)."""


_LINEAGE: list[int] = []
"""The process ids of the processes that forked this one through :class:`ForkedCall`, oldest first."""


def lineage() -> tuple[int, ...]:
    """The process ids of the processes this one descends from through :class:`ForkedCall` forks,
    oldest first: empty in a process no :class:`ForkedCall` started; in the binding copy forked by
    the child a one-shot run binds in (:mod:`indexer.forked_resolve`), that run's process and the
    child. Their memory is the same run's (:func:`indexer.resolve.forked_binding.held_mib`)."""
    return tuple(_LINEAGE)


class ForkFailed(RuntimeError):
    """The forked call gave no result: raised in the parent by :meth:`ForkedCall.result`, with why."""


def can_fork() -> bool:
    """Whether :class:`ForkedCall` can run here: ``os.fork`` exists and is safe to use (not macOS,
    where system frameworks may abort a forked child)."""
    return hasattr(os, "fork") and sys.platform != "darwin"


def die_with_parent(parent_pid: int, watchdog: bool = True) -> None:
    """Make this (child) process die with the process ``parent_pid`` that started it, even after a
    ``kill -9`` of that process (which runs no clean-up): on Linux the kernel sends it SIGKILL when
    its parent dies (``prctl(PR_SET_PDEATHSIG)``); with ``watchdog`` a daemon thread also checks
    every :data:`PARENT_POLL_S` seconds that the parent is still its parent and exits otherwise
    (where no death signal exists). Exits at once when the parent is already gone."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # no prctl: the watchdog below still runs
            pass
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)
    if not watchdog:
        return

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL_S)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="ripple-parent-watchdog", daemon=True).start()


class ForkedCall:
    """``fn()`` started at once in a forked child process; :meth:`result` waits for its return value
    (which must pickle), :meth:`cancel` kills it. Raises ``OSError`` when no process or pipe can be
    made. Use only where :func:`can_fork` holds, and from a process whose other threads hold no lock
    the child needs (the child has only the thread that forked)."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        parent = os.getpid()
        self.pid: int | None = None
        # SIGINT stays blocked across the fork: a Ctrl-C (sent to the whole process group) that
        # reached the child before it gave SIGINT its default action would otherwise raise
        # KeyboardInterrupt there, into the caller's code (its except and finally clauses, the
        # pipeline's interrupt handling, atexit), run by the copy as though it were the parent; and
        # one raised in the parent right after the fork would lose the child's process id.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            read_end, write_end = os.pipe()
            try:
                pid = os.fork()
            except OSError:
                os.close(read_end)
                os.close(write_end)
                raise
            if pid == 0:  # the child: never returns
                try:
                    os.close(read_end)
                    _child(fn, parent, write_end, blocked)
                finally:
                    os._exit(2)
            os.close(write_end)
            self.pid = pid
            self._read = read_end
            self.started = time.monotonic()
        finally:
            try:  # a SIGINT that came meanwhile is raised here: the child is then killed
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            except BaseException:
                self.cancel()
                raise

    def result(self, deadline_s: float | None = None) -> Any:
        """The child's return value, once it has exited. Raises :class:`ForkFailed` when it raised
        (with its exception's text), died, or had not finished within ``deadline_s`` seconds of
        this call (it is then killed); the child is reaped either way."""
        if self.pid is None:
            raise ForkFailed("the forked call was cancelled")
        frames = PickledFrames()
        end = None if deadline_s is None else time.monotonic() + deadline_s
        try:
            while True:
                wait = None if end is None else max(0.0, end - time.monotonic())
                ready, _, _ = select.select([self._read], [], [], wait)
                if not ready:
                    raise ForkFailed(f"the forked call did not finish within {deadline_s:.0f} s")
                block = os.read(self._read, 1 << 20)
                if not block:
                    break
                frames.feed(block)
        except BaseException:
            self.cancel()
            raise
        status = self._reap()
        data = frames.message()
        try:
            ok, value = pickle.loads(data)
        except Exception as exc:  # nothing, or a truncated message: the child died on the way
            raise ForkFailed(f"the forked child ended with status {status} and no readable result "
                             f"({len(data)} bytes)") from exc
        if not ok:
            raise ForkFailed(f"the forked call raised {value}")
        if status != 0:
            raise ForkFailed(f"the forked child ended with status {status}")
        return value

    def cancel(self) -> None:
        """Kill the child if it still runs and reap it (idempotent)."""
        if self.pid is None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._reap()

    def _reap(self) -> int:
        """Wait for the child; its exit status (a negative signal number when killed)."""
        pid, self.pid = self.pid, None
        try:
            os.close(self._read)
        except OSError:
            pass
        if pid is None:
            return 0
        while True:
            try:
                _, status = os.waitpid(pid, 0)
            except ChildProcessError:  # reaped elsewhere (a SIGCHLD handler)
                return 0
            except InterruptedError:
                continue
            return os.waitstatus_to_exitcode(status)


def _child(fn: Callable[[], Any], parent: int, out: int, mask: set[signal.Signals]) -> None:
    """The child's whole life: run ``fn``, write ``(ok, value)`` pickled to ``out``, ``os._exit``.
    It starts with SIGINT blocked: it gives it the default action, then restores ``mask`` (a SIGINT
    that came meanwhile then ends it, as a Ctrl-C ends the parent)."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        die_with_parent(parent, watchdog=False)
        _LINEAGE.append(parent)
        try:
            send_pickled(out, (True, fn()))
        except BaseException as exc:  # noqa: BLE001 - every failure goes to the parent as text
            _write_all(out, _VOID)  # what was sent of a result that failed to pickle half-way is void
            send_pickled(out, (False, f"{type(exc).__name__}: {exc}"))
            code = 1
    except BaseException:  # noqa: BLE001 - nothing may escape into the parent's code
        code = 2
    finally:
        os._exit(code)


_HEAD = 8
"""Bytes of a frame's header on the result pipe: the length of the pickle bytes that follow, signed
little-endian (:data:`_VOID`: no bytes follow, and those sent before are void)."""

_VOID = (-1).to_bytes(_HEAD, "little", signed=True)


def _write_all(fd: int, *buffers: bytes | memoryview) -> None:
    """Write every byte of ``buffers``, in order, to the pipe ``fd`` (``os.writev`` may write part)."""
    views = [memoryview(b).cast("B") for b in buffers]
    while views:
        n = os.writev(fd, views)
        while views and n >= views[0].nbytes:
            n -= views[0].nbytes
            views.pop(0)
        if n:
            views[0] = views[0][n:]


class _FrameWriter:
    """The file :func:`send_pickled`'s pickler writes to: each write goes to the pipe at once as one frame
    (a :data:`_HEAD`-byte length, then the bytes). The pickler (protocol 4 and up) hands over its
    output in frames of about 64 KiB, and a large string or bytes object by itself, so the child
    never holds its result pickled whole (the message was 3.5-8.5 MiB at the 45-package generated
    monorepo, the child's peak in a warm run; docs/benchmarks.md, session 61, mem61b)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes | memoryview) -> int:
        """Send ``data`` as one frame; returns its length in bytes."""
        size = memoryview(data).nbytes
        if size:
            _write_all(self.fd, size.to_bytes(_HEAD, "little", signed=True), data)
        return size


def send_pickled(fd: int, value: Any) -> None:
    """Pickle ``value`` (highest protocol) to the pipe ``fd`` as it is made, in frames
    (:class:`_FrameWriter`; :class:`PickledFrames` reads them back): the bytes are those of
    ``pickle.dumps``, never held whole. Raises what pickling raises, after sending part of it (the
    forked child then sends a void mark, which drops what came before, and its failure)."""
    pickle.Pickler(_FrameWriter(fd), protocol=pickle.HIGHEST_PROTOCOL).dump(value)


class PickledFrames:
    """The parent's side of the result pipe: :meth:`feed` the bytes read, in any cut; :meth:`message`
    gives the pickle bytes of the frames after the last :data:`_VOID` (a message cut short, the child
    having died while it wrote, does not unpickle)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.head = b""
        self.left = 0
        """Bytes of the current frame still to come (0: a header comes next)."""

    def feed(self, block: bytes) -> None:
        """Take the next ``block`` of bytes read from the pipe."""
        view, at = memoryview(block), 0
        while at < len(view):
            if self.left:
                take = min(self.left, len(view) - at)
                self.parts.append(bytes(view[at:at + take]) if take < len(view) else block)
                self.left -= take
                at += take
                continue
            need = _HEAD - len(self.head)
            self.head += bytes(view[at:at + need])
            at += need
            if len(self.head) < _HEAD:
                return
            size = int.from_bytes(self.head, "little", signed=True)
            self.head = b""
            if size < 0:
                self.parts.clear()
            else:
                self.left = size

    def message(self) -> bytes:
        """The pickle bytes received (joined)."""
        return b"".join(self.parts)
