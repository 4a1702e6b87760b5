"""bench/tree_pages.py: a process tree's distinct physical pages, a page shared by a fork counted once, a page
written after the fork counted twice (the measure of index_memory.py --pages)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.tree_pages import can_read_frames, process_pages, tree_pages

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or not can_read_frames(),
                                reason="page frame numbers need Linux and CAP_SYS_ADMIN")

_PAGE = os.sysconf("SC_PAGE_SIZE")
_MIB = 1 << 20
_SIZE = 16 * _MIB
_ROOT = Path(__file__).resolve().parents[2]


def _in_fresh_process(check: str) -> None:
    """Run ``check`` (a function of this module) in a new small interpreter with the collector off: in a long
    test session the process is hundreds of MiB and a collection during the measurement writes object headers all
    over the heap, so copy-on-write gives parent and child new frames that are not the buffer's."""
    code = f"import gc; gc.disable(); from tests.unit import test_tree_pages_bench as t; t.{check}()"
    done = subprocess.run([sys.executable, "-c", code], cwd=_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def _touched(n: int) -> bytearray:
    buf = bytearray(n)
    for i in range(0, n, _PAGE):  # every page written: resident and private to this process
        buf[i] = 1
    return buf


def _tree_with_child(write_after_fork: bool) -> tuple[float, float, float]:
    """Fork a child holding the parent's 16 MiB buffer (rewritten by the child when ``write_after_fork``):
    ``(tree anonymous MiB, parent's anonymous MiB, child's anonymous MiB)``, read in one :func:`tree_pages`."""
    buf = _touched(_SIZE)
    ready_r, ready_w = os.pipe()
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: optionally write every page (copy on write), say so, wait to be measured
        try:
            os.close(ready_r)
            os.close(done_w)
            if write_after_fork:
                for i in range(0, _SIZE, _PAGE):
                    buf[i] = 2
            os.write(ready_w, b"x")
            os.read(done_r, 1)
        finally:
            os._exit(0)
    os.close(ready_w)
    os.close(done_r)
    try:
        assert os.read(ready_r, 1) == b"x"
        anon, _, per = tree_pages(os.getpid())
        mine = next(a for p, _, a, _ in per if p == os.getpid())
        theirs = next(a for p, _, a, _ in per if p == pid)
    finally:
        os.write(done_w, b"x")
        os.waitpid(pid, 0)
        os.close(ready_r)
        os.close(done_w)
    del buf
    return anon, mine, theirs


def check_written_buffer() -> None:
    """A buffer written in this process shows as that many new frames, and little else appears."""
    gc.disable()
    before, _ = process_pages(os.getpid())
    buf = _touched(_SIZE)
    after, _ = process_pages(os.getpid())
    assert len(after - before) * _PAGE >= _SIZE  # every page of the buffer is a new frame
    assert len(after - before) * _PAGE < _SIZE + 4 * _MIB  # and little else appeared
    del buf


def check_shared_once() -> None:
    """A buffer a forked child inherits without writing is counted once in the tree."""
    gc.disable()
    anon, mine, theirs = _tree_with_child(write_after_fork=False)
    assert mine >= _SIZE / _MIB and theirs >= _SIZE / _MIB  # each process maps the whole buffer
    assert anon - mine < 4  # the child adds its few own pages (stack, written headers), not another buffer


def check_written_twice() -> None:
    """A buffer the forked child rewrites is counted twice in the tree."""
    gc.disable()
    anon, mine, theirs = _tree_with_child(write_after_fork=True)
    # the child's copies of the buffer's 4,096 written pages are frames the parent does not map
    assert anon - mine >= (_SIZE - _PAGE) / _MIB
    assert theirs >= _SIZE / _MIB


def test_process_pages_sees_a_written_buffer() -> None:
    _in_fresh_process("check_written_buffer")


def test_a_page_shared_by_a_fork_counts_once() -> None:
    _in_fresh_process("check_shared_once")


def test_a_page_written_after_the_fork_counts_twice() -> None:
    _in_fresh_process("check_written_twice")


def test_a_gone_process_has_no_pages() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    assert process_pages(pid) == (set(), set())
