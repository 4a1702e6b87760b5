"""Helpers for tests that stop a ``ripple`` child process the way a terminal does."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """A ``preexec_fn``: in the child before exec, SIGINT as the system's default, so that Python turns
    it into KeyboardInterrupt even where the test runs with SIGINT ignored (a shell's background job
    without job control; Python leaves an ignored SIGINT ignored, and the child would never stop)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
