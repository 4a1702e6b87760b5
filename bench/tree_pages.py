"""The memory of a process tree counted as distinct physical pages: what its summed ``Pss`` would be
on a machine where no other program maps the same files (issue 19 goal 1's measure, independent of
the load).

Usage::

    python bench/tree_pages.py ROOT_PID OUT.jsonl [--period S]

samples the tree rooted at ``ROOT_PID`` (that process and its live descendants, but this one) every
``S`` seconds (default 0.5) while ``ROOT_PID`` lives, and appends a JSON line per sample to ``OUT.jsonl``:
``{"t": epoch seconds, "anon": MiB, "file": MiB, "procs": [[pid, parent pid, anon MiB, file MiB], ...]}``.

Why: ``Pss`` divides a page among the processes mapping it, anywhere on the machine. The anonymous
pages of a forked tree are shared only within it, but its file pages (the interpreter's
``libpython``, libcrypto, libsqlite, extension modules: about 16 MiB resident in a ``ripple index``
process) are shared with every other Python program running the same files, so a tree's summed
``Pss`` is up to that much lower on a busy machine than on a quiet one for the same heaps. Counting
each physical page the tree maps once (``/proc/PID/pagemap``: bit 63 present, bits 0-54 the page
frame number; Linux shows frame numbers to ``CAP_SYS_ADMIN`` only) gives the quiet machine's figure
on any machine. Pages swapped out are not counted (neither does ``Pss``).
"""

from __future__ import annotations

import argparse
import array
import json
import os
import time
from pathlib import Path

import psutil

__all__ = ["can_read_frames", "process_pages", "tree_pages"]

_PRESENT = 1 << 63
_FRAME = (1 << 55) - 1
_PAGE = os.sysconf("SC_PAGE_SIZE")
_MIB = 1 << 20
_VSYSCALL = 0xFFFFFFFFFF600000
_CHUNK = 1 << 16
"""Pages of ``pagemap`` read at once (512 KiB of entries)."""


def process_pages(pid: int) -> tuple[set[int], set[int]]:
    """The page frame numbers process ``pid`` has resident now: ``(anonymous, file-backed)`` (a mapping
    with an inode is file-backed). Empty sets when the process is gone or its maps cannot be read;
    raises nothing."""
    anon: set[int] = set()
    filed: set[int] = set()
    try:
        with open(f"/proc/{pid}/maps") as fh:
            maps = fh.read().splitlines()
        fd = os.open(f"/proc/{pid}/pagemap", os.O_RDONLY)
    except OSError:
        return anon, filed
    try:
        for line in maps:
            parts = line.split(None, 5)
            if len(parts) < 5:
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            if lo >= _VSYSCALL:
                continue
            into = filed if parts[4] != "0" else anon
            first, n = lo // _PAGE, (hi - lo) // _PAGE
            for i in range(0, n, _CHUNK):
                try:
                    raw = os.pread(fd, min(_CHUNK, n - i) * 8, (first + i) * 8)
                except OSError:  # the mapping went away while read
                    break
                into.update(e & _FRAME for e in array.array("Q", raw) if e & _PRESENT)
    finally:
        os.close(fd)
    anon.discard(0)
    filed.discard(0)
    return anon, filed


def can_read_frames() -> bool:
    """Whether this process sees page frame numbers (``CAP_SYS_ADMIN``): without it ``pagemap`` gives
    every frame as 0 and :func:`tree_pages` could not tell pages apart."""
    anon, _ = process_pages(os.getpid())
    return bool(anon)


def tree_pages(root: int, skip: int | None = None) -> tuple[float, float, list[tuple[int, int, float, float]]]:
    """The distinct pages of process ``root`` and its live descendants (but ``skip``) now:
    ``(anonymous MiB, file MiB, per process [(pid, parent pid, anonymous MiB, file MiB)])``, a page
    mapped by several of them counted once in the totals (each process's own figures count all it
    maps). A process that ends while read counts what was read. Raises ``psutil.NoSuchProcess`` when
    ``root`` is gone."""
    top = psutil.Process(root)
    procs = [top, *top.children(recursive=True)]
    anon: set[int] = set()
    filed: set[int] = set()
    per: list[tuple[int, int, float, float]] = []
    for p in procs:
        if p.pid == skip:
            continue
        a, f = process_pages(p.pid)
        anon |= a
        filed |= f
        try:
            ppid = p.ppid() if p.pid != root else 0
        except psutil.Error:
            ppid = 0
        per.append((p.pid, ppid, len(a) * _PAGE / _MIB, len(f) * _PAGE / _MIB))
    return len(anon) * _PAGE / _MIB, len(filed - anon) * _PAGE / _MIB, per


def main() -> None:
    """Sample the tree until its root ends (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=int)
    ap.add_argument("out", type=Path)
    ap.add_argument("--period", type=float, default=0.5)
    args = ap.parse_args()
    if not can_read_frames():
        raise SystemExit("tree_pages: page frame numbers are not readable here (needs CAP_SYS_ADMIN)")
    me = os.getpid()
    with args.out.open("a") as out:
        while True:
            try:
                anon, filed, per = tree_pages(args.root, skip=me)
            except psutil.Error:
                return
            out.write(json.dumps({"t": round(time.time(), 3), "anon": round(anon, 1), "file": round(filed, 1),
                                  "procs": [[pid, pp, round(a, 1), round(f, 1)] for pid, pp, a, f in per]}) + "\n")
            out.flush()
            time.sleep(args.period)


if __name__ == "__main__":
    main()
