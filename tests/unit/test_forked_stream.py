"""The forked call's result is pickled into the pipe as it is made (:func:`indexer.forked.send_pickled`),
in frames the parent reassembles (:class:`indexer.forked.PickledFrames`): the child never holds its
result pickled whole; a result that fails to pickle half-way reaches the parent as that failure, not
as a half value; a child that dies while it writes gives no result. The resolve child's result goes
to a spill file of its own (:meth:`indexer.spill.SpillFile.put_pickled`), read by the parent once the
child has exited: the pipe carries where it is."""

from __future__ import annotations

import logging
import os
import pickle
import signal
import threading

import pytest

import indexer.forked_resolve as forked_resolve
from indexer.forked import ForkedCall, ForkFailed, PickledFrames, can_fork, send_pickled
from indexer.spill import SpillFile

pytestmark = pytest.mark.skipif(not can_fork(), reason="no safe fork on this platform")

_FRAME = 64 * 1024
"""The pickler's frame size target (protocol 4 and up)."""


def _sent(value: object, read_size: int) -> tuple[list[int], bytes]:
    """Send ``value`` through a pipe with :func:`send_pickled`, reading ``read_size`` bytes at a time:
    the size of each frame sent (from the headers) and the message :class:`PickledFrames` gives."""
    read_end, write_end = os.pipe()
    thread = threading.Thread(target=lambda: (send_pickled(write_end, value), os.close(write_end)))
    thread.start()
    raw, frames = bytearray(), PickledFrames()
    while block := os.read(read_end, read_size):
        raw += block
        frames.feed(block)
    thread.join()
    os.close(read_end)
    sizes, at = [], 0
    while at < len(raw):
        size = int.from_bytes(raw[at:at + 8], "little", signed=True)
        sizes.append(size)
        at += 8 + size
    assert at == len(raw)
    return sizes, frames.message()


class _Writes:
    """A file that records the size of each non-empty write a pickler makes."""

    def __init__(self) -> None:
        self.sizes: list[int] = []

    def write(self, data: bytes | memoryview) -> int:
        size = memoryview(data).nbytes
        if size:
            self.sizes.append(size)
        return size


def test_a_large_result_is_sent_in_frames_and_reassembled_byte_for_byte():
    value = {"names": [f"pkg.module{i}.Class{i}.method" for i in range(40_000)], "blob": bytes(range(256)) * 8192}
    sizes, message = _sent(value, 7)  # headers and frames cut anywhere
    assert message == pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    assert pickle.loads(message) == value
    # exactly one frame per write the pickler makes (no empty frame, no void mark: every size positive)
    writes = _Writes()
    pickle.Pickler(writes, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    assert sizes == writes.sizes and sum(sizes) == len(message)
    # 3,515,240 bytes: 21 frames of 65,555-65,569 bytes, the names' last 41,172, the blob, then the 3-byte tail
    assert len(sizes) == 24 and sizes[-3:] == [41_172, 2 * 1024 * 1024, 3] and len(message) == 3_515_240
    assert sizes.count(2 * 1024 * 1024) == 1  # the 2 MiB bytes object goes by itself, not copied into a frame
    assert max(s for s in sizes if s != 2 * 1024 * 1024) <= _FRAME + 1024  # the rest: about 64 KiB at most each


def test_frames_fed_whole_give_the_same_message():
    value = [("a/b.py", "0" * 64, 120, None, 4096, 77)] * 3
    assert _sent(value, 1 << 20)[1] == pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def test_a_void_mark_drops_what_came_before():
    frames = PickledFrames()
    frames.feed((5).to_bytes(8, "little", signed=True) + b"12345")
    frames.feed((-1).to_bytes(8, "little", signed=True))
    message = pickle.dumps((False, "TypeError: no"), protocol=pickle.HIGHEST_PROTOCOL)
    frames.feed(len(message).to_bytes(8, "little", signed=True) + message)
    assert frames.message() == message


class _Unpicklable:
    def __reduce__(self):
        raise TypeError("cannot pickle _Unpicklable")


class _Dies:
    def __reduce__(self):
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_forked_call_returns_a_large_result():
    value = [f"row {i}" * 10 for i in range(100_000)]
    assert ForkedCall(lambda: value).result(60) == value


def test_a_result_failing_to_pickle_half_way_is_reported_not_returned_in_part():
    value = [f"row {i}" * 10 for i in range(100_000)]  # several frames sent before the failure
    with pytest.raises(ForkFailed, match=r"^the forked call raised TypeError: cannot pickle _Unpicklable$"):
        ForkedCall(lambda: [*value, _Unpicklable()]).result(60)


def test_a_child_dying_while_it_sends_gives_no_result():
    value = [f"row {i}" * 10 for i in range(100_000)]
    with pytest.raises(ForkFailed, match=r"ended with status -9 and no readable result \(\d+ bytes\)"):
        ForkedCall(lambda: [*value, _Dies()]).result(60)


# The resolve child's Bound goes to a spill file of its own (indexer.forked_resolve.bind_in_child).

def test_a_value_is_pickled_into_a_spill_file_after_what_it_holds(tmp_path):
    spill = SpillFile(str(tmp_path))
    assert spill.put(b"abc") == (0, 3)
    value = {"rows": [(f"a/m{i}.py", "0" * 64, i, None, 4096 * i, 77) for i in range(20_000)], "blob": b"x" * (1 << 20)}
    expected = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    ref = spill.put_pickled(value)
    assert ref == (3, len(expected))
    assert spill.get(ref) == expected
    assert spill.put(b"de") == (3 + len(expected), 2)
    assert spill.get((0, 3)) == b"abc"


def test_a_value_failing_to_pickle_leaves_the_spill_file_as_it_was(tmp_path):
    spill = SpillFile(str(tmp_path))
    spill.put(b"abc")
    with pytest.raises(TypeError, match="cannot pickle _Unpicklable"):
        spill.put_pickled([f"row {i}" * 10 for i in range(100_000)] + [_Unpicklable()])
    assert spill.size == 3
    assert spill.put(b"de") == (3, 2)  # over what the failed pickle wrote
    assert spill.get((3, 2)) == b"de"


def test_the_bound_child_hands_where_its_result_is_not_the_result(tmp_path, monkeypatch):
    value = {"files": [f"pkg/m{i}.py" for i in range(50_000)]}
    pipe: list[object] = []
    real = ForkedCall.result

    def spied(self, deadline_s=None):  # type: ignore[no-untyped-def]
        got = real(self, deadline_s)
        pipe.append(got)
        return got

    monkeypatch.setattr(ForkedCall, "result", spied)
    assert forked_resolve.bind_in_child(lambda: value, [SpillFile(str(tmp_path))]) == value
    assert pipe == [(True, (0, len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))))]


def test_a_result_that_cannot_be_read_back_leaves_the_binding_to_the_parent(monkeypatch, caplog):
    def unreadable(self, ref):  # type: ignore[no-untyped-def]
        raise ValueError(f"spill reference {ref} outside the 0 bytes written")

    monkeypatch.setattr(SpillFile, "get", unreadable)
    caplog.set_level(logging.WARNING, logger="indexer.forked_resolve")
    assert forked_resolve.bind_in_child(lambda: [1, 2, 3], []) is None  # 22 bytes pickled
    assert [r.getMessage() for r in caplog.records] == [
        "the forked child's result could not be read back (spill reference (0, 22) outside the 0 bytes written): "
        "binding in this process"]


def test_a_bound_result_that_does_not_pickle_leaves_the_binding_to_the_parent(caplog):
    caplog.set_level(logging.WARNING, logger="indexer.forked_resolve")
    assert forked_resolve.bind_in_child(lambda: [_Unpicklable()], []) is None
    assert [r.getMessage() for r in caplog.records] == [
        "binding in a forked child failed (the forked call raised TypeError: cannot pickle _Unpicklable): "
        "binding in this process"]
