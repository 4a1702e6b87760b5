"""The write stage's chunk analysis on the second core: a forked copy of the writing process cuts or
reads each write batch's chunks as the writer will, analyses them for BM25, computes their block
maxima, compresses the files' texts and encodes the chunks' against them (:func:`stores.chunk_prep.prepare_chunks`), and streams one :class:`~stores.chunk_prep.PreparedChunks`
per batch through a pipe; the writer offers each to the store before writing that batch
(:meth:`stores.contracts.SearchIndex.offer_prepared`, read when the store needs it, after the batch's
graph rows), which uses it only when it is exactly what it
would compute (same chunks in the same order, same first rowid and reference length), else computes
it itself. So the index is the same with or without the copy; the copy only takes work off the
writing process, which meanwhile unpickles outputs, links doc mentions and runs SQLite.

The copy keeps to the run's memory budget as the binding's copy does: what it holds alone (its
unique set, which grows as the writer rewrites pages they shared) plus the writer's resident set.
The copy predicts each batch's first rowid as the previous batch's plus its chunk count, from the
store's :meth:`~stores.contracts.SearchIndex.chunk_basis` when the write starts: right for a cold
run (nothing is deleted), possibly wrong in an incremental one (then those batches are analysed
twice, once for nothing). The pipe holds at most one frame beyond the one being read, so the copy
runs at most a batch or two ahead and neither process holds more than that. The copy is forked with
:class:`indexer.forked.ForkedCall` (it dies with its parent, takes the default action on Ctrl-C);
whatever goes wrong with it (it raises, dies, or a frame does not come within
:data:`FRAME_DEADLINE_S`) leaves the writer to compute the rest itself.
"""

from __future__ import annotations

import gc
import logging
import os
import pickle
import select
import struct
import time
from collections.abc import Callable, Sequence

import psutil

from indexer.forked import ForkedCall, ForkFailed
from indexer.resolve.forked_binding import held_mib
from indexer.run import DEFAULT_MEMORY_BUDGET_MIB
from stores.chunk_prep import ChunkBasis, PreparedChunks, prepare_chunks
from stores.contracts import Chunk

__all__ = ["ChunkPreparer", "FRAME_DEADLINE_S"]

log = logging.getLogger(__name__)

FRAME_DEADLINE_S = 60.0
"""How long the writer waits for one batch's frame before it stops the copy and analyses the rest itself."""
_HEADER = struct.Struct("<Q")

ChunksOf = Callable[[str], "tuple[str, str, str, list[Chunk]] | None"]
"""A file's ``(repo, checksum, text, chunks)`` as the writer gives them (``None``: it changed since it was read)."""


def _prepare_all(batches: Sequence[Sequence[str]], chunks_of: ChunksOf, basis: ChunkBasis, out: int,
                 parent: int, budget_mib: int) -> int:
    """The copy's work: one frame ``(batch index, PreparedChunks)`` per batch of paths, in order, to
    the pipe ``out``; returns the number of frames. Before each batch it measures what it and the
    process ``parent`` hold together (:func:`indexer.resolve.forked_binding.held_mib`: the parent
    writing its pages after the fork leaves the old ones to the copy alone); when that, with the
    last batch's growth once more, passes ``budget_mib``, it stops (the writer prepares the rest)."""
    me, father = psutil.Process(), psutil.Process(parent)
    last: float | None = None
    # What the copy inherited stays as it is: a collection would write the header of every object
    # it traverses, copying the parent's pages (its own objects hold no cycles; they go by count).
    gc.freeze()
    gc.disable()
    start, reference = basis.start, basis.reference
    for k, batch in enumerate(batches):
        held = held_mib(me, father)
        if held is not None:
            if held + (max(0.0, held - last) if last is not None else 0.0) > budget_mib:
                log.debug("the write's second process stops at batch %d of %d: %.0f MiB held, budget %d MiB",
                          k, len(batches), held, budget_mib)
                return k
            last = held
        by_id: dict[str, Chunk] = {}
        texts: list[tuple[str, str, str, str]] = []
        for path in batch:
            got = chunks_of(path)
            if got is not None:
                repo, checksum, text, file_chunks = got
                texts.append((repo, path, checksum, text))
                by_id.update((c.id, c) for c in file_chunks)  # as the store dedupes a batch: last value, first place
        chunks = list(by_id.values())
        prep = prepare_chunks(chunks, start, reference, basis.weights, texts)
        if chunks:
            start += len(chunks)
            reference = prep.reference  # the first batch with rows sets the index's
        data = pickle.dumps((k, prep), protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(out, view):]
    return len(batches)


class ChunkPreparer:
    """A forked copy preparing ``batches`` (lists of paths, the write's batches in order) with
    ``chunks_of`` from ``basis``, while it and this process hold less than ``budget_mib``; :meth:`take` returns batch ``k``'s preparation. Raises ``OSError``
    when no process or pipe can be made. Only where :func:`indexer.forked.can_fork` holds."""

    def __init__(self, batches: Sequence[Sequence[str]], chunks_of: ChunksOf, basis: ChunkBasis,
                 budget_mib: int = DEFAULT_MEMORY_BUDGET_MIB) -> None:
        read_end, write_end = os.pipe()
        parent = os.getpid()
        # Until close(), this process's collections leave alone what the copy shares with it (as the
        # binding's copy does, indexer.resolve.forked_binding): a full collection here writes the
        # header of every container it walks, and each page so written is then held twice, the
        # old one by the copy alone.
        gc.freeze()
        self._frozen = True
        try:
            self._call: ForkedCall | None = ForkedCall(
                lambda: _prepare_all(batches, chunks_of, basis, write_end, parent, budget_mib))
        except BaseException:
            os.close(read_end)
            self._thaw()
            raise
        finally:
            os.close(write_end)
        self._read: int | None = read_end
        self._held: tuple[int, PreparedChunks] | None = None
        self._last = len(batches) - 1
        self.used = 0
        """Frames :meth:`take` returned."""

    def take(self, k: int) -> PreparedChunks | None:
        """Batch ``k``'s preparation (``k`` ascending from call to call), waiting for it; ``None``
        when the copy has failed or stopped (it is then stopped for good). With the last batch's
        frame the copy, done, is reaped and the pipe closed (:meth:`_finish`)."""
        while True:
            frame, self._held = self._held or self._frame(), None
            if frame is None:
                return None
            if frame[0] == k:
                self.used += 1
                if k == self._last:  # the copy has nothing more to send: reap it now (see _finish)
                    self._finish()
                return frame[1]
            if frame[0] > k:  # a batch the writer skipped to: keep it for its turn
                self._held = frame
                return None

    def _finish(self) -> None:
        """After the last batch's frame: wait for the copy's end (it only returns its count and
        exits), reap it and close, instead of leaving it defunct until :meth:`close`, which the
        writer calls after its ``COMMIT`` and the WAL checkpoint that follows (tens of seconds at
        load). A frame after the last is a broken copy: warned about, dropped."""
        extra = self._frame()
        if extra is not None:
            log.warning("the write's second process sent a frame after the last (batch %d): stopped", extra[0])
        self.close()

    def _frame(self) -> tuple[int, PreparedChunks] | None:
        if self._read is None:
            return None
        end = time.monotonic() + FRAME_DEADLINE_S
        try:
            head = self._exactly(_HEADER.size, end)
            if head is None:  # the copy finished, or failed between frames: say which
                call, self._call = self._call, None
                if call is not None:
                    call.result(FRAME_DEADLINE_S)
                self.close()
                return None
            body = self._exactly(_HEADER.unpack(head)[0], end)
            if body is None:
                raise EOFError("the copy ended inside a frame")
            frame: tuple[int, PreparedChunks] = pickle.loads(body)
            del body
            return frame
        except (OSError, EOFError, TimeoutError, pickle.UnpicklingError, ForkFailed) as exc:
            log.warning("the write's second process stopped (%s): this one analyses the rest", exc)
            self.close()
            return None

    def _exactly(self, n: int, end: float) -> bytearray | None:
        """``n`` bytes from the pipe, read in place (one buffer, no joined copy); ``None`` at its end
        before the first; raises ``EOFError`` at its end after it, ``TimeoutError`` past ``end``."""
        assert self._read is not None
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        while got < n:
            ready, _, _ = select.select([self._read], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                raise TimeoutError(f"no frame within {FRAME_DEADLINE_S:.0f} s")
            read = os.readv(self._read, [view[got:]])
            if not read:
                if got:
                    raise EOFError("the copy ended inside a frame")
                return None
            got += read
        view.release()
        return buf

    def close(self) -> None:
        """Stop the copy if it still runs, reap it, close the pipe, and let this process's
        collections reach the objects frozen at the fork again (idempotent)."""
        self._thaw()
        if self._call is not None:
            self._call.cancel()
            self._call = None
        if self._read is not None:
            os.close(self._read)
            self._read = None

    def _thaw(self) -> None:
        """Unfreeze what :meth:`__init__` froze (once)."""
        if self._frozen:
            gc.unfreeze()
            self._frozen = False
