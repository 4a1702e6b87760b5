"""Giving freed heap memory back to the operating system during a long run.

glibc's ``malloc`` keeps the memory a process frees in its arenas for later allocations; it gives
back only the top of the heap, and only when the free block there passes ``M_TRIM_THRESHOLD``. A
stage that repeatedly allocates and frees a large working set (the write stage's batches: the
outputs read back, their texts and chunks, the store's rows, SQLite's page cache allocations
interleaved with them) leaves its free blocks scattered between live ones, so the resident set
keeps the high-water mark of every batch and creeps up from batch to batch. ``malloc_trim(0)``
(glibc >= 2.8: `malloc_trim(3) <https://man7.org/linux/man-pages/man3/malloc_trim.3.html>`_) also
returns every whole free page inside the heap (``MADV_DONTNEED``), which brings the resident set
back to what is live. Elsewhere (musl, macOS, Windows) :func:`trim_heap` does nothing.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable

__all__ = ["trim_heap"]


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def trim_heap() -> bool:
    """Return the free pages of this process's C heap to the system (``malloc_trim(0)``); ``True``
    when glibc released something, ``False`` when nothing was released or the C library has no such
    call. Costs a walk of the heap's free blocks: call it between large batches, not per object."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False
