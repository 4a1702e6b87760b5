"""``ripple watch`` waits for its watch threads so that Ctrl-C never cuts an update short."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from lsp_server.watch_support import wait_while_watching


def _interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, signal.raise_signal, args=(signal.SIGINT,))
    timer.start()
    return timer


def test_ctrl_c_leaves_a_running_watch_thread_alive_and_joinable() -> None:
    """A Ctrl-C while waiting raises KeyboardInterrupt with the thread still alive, and a join then
    waits for it to finish its work (CPython 3.11's interrupted ``Thread.join(timeout)`` marked it
    stopped instead: the join returned at once and the work was cut short)."""
    finished = threading.Event()
    release = threading.Event()

    def update() -> None:
        release.wait(10)
        finished.set()

    thread = threading.Thread(target=update, daemon=True)
    thread.start()
    timer = _interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        wait_while_watching([thread], lambda: False)
    timer.join()
    assert thread.is_alive()
    assert not finished.is_set()
    release.set()
    thread.join()
    assert finished.is_set()
    assert not thread.is_alive()


def test_the_wait_ends_when_every_thread_ends() -> None:
    threads = [threading.Thread(target=time.sleep, args=(d,), daemon=True) for d in (0.1, 0.3)]
    for t in threads:
        t.start()
    started = time.monotonic()
    wait_while_watching(threads, lambda: False)
    assert not any(t.is_alive() for t in threads)
    assert time.monotonic() - started < 5


def test_the_wait_ends_when_done_says_so_with_threads_still_running() -> None:
    release = threading.Event()
    thread = threading.Thread(target=release.wait, args=(10,), daemon=True)
    thread.start()
    calls: list[int] = []

    def done() -> bool:
        calls.append(1)
        return len(calls) >= 3

    wait_while_watching([thread], done)
    assert len(calls) == 3
    assert thread.is_alive()
    release.set()
    thread.join()


def test_no_thread_returns_at_once() -> None:
    wait_while_watching([], lambda: False)


def test_sigterm_interrupts_the_wait_and_the_previous_handler_comes_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    release = threading.Event()
    thread = threading.Thread(target=release.wait, args=(10,), daemon=True)
    thread.start()
    timer = threading.Timer(0.3, signal.raise_signal, args=(signal.SIGTERM,))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        wait_while_watching([thread], lambda: False)
    timer.join()
    assert thread.is_alive()
    assert signal.getsignal(signal.SIGTERM) is before
    release.set()
    thread.join()


def test_a_wait_outside_the_main_thread_leaves_sigterm_alone() -> None:
    """Only the main thread may set handlers: elsewhere the wait works without one (no ValueError)."""
    before = signal.getsignal(signal.SIGTERM)
    release = threading.Event()
    worker = threading.Thread(target=release.wait, args=(10,), daemon=True)
    worker.start()
    seen: list[object] = []
    errors: list[BaseException] = []

    def done() -> bool:
        seen.append(signal.getsignal(signal.SIGTERM))
        return len(seen) >= 2

    def waiter() -> None:
        try:
            wait_while_watching([worker], done)
        except BaseException as exc:  # noqa: BLE001 - reported to the test's thread
            errors.append(exc)

    t = threading.Thread(target=waiter)
    t.start()
    t.join()
    release.set()
    worker.join()
    assert errors == []
    assert seen == [before, before]
    assert signal.getsignal(signal.SIGTERM) is before
