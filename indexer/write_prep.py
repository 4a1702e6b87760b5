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

import dataclasses
import functools
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
from stores.bm25_blocks import BLOCK_SHIFT, BlockValues
from stores.bm25_pending import PENDING_BYTES, PendingMaxima
from stores.chunk_prep import ChunkBasis, FoldedMaxima, PreparedChunks, prepare_chunks
from indexer.mentions import DocFile
from indexer.symbols import file_id
from stores.contracts import Chunk, Edge

__all__ = ["ChunkPreparer", "FRAME_DEADLINE_S", "BatchMentions", "MentionsOf"]

log = logging.getLogger(__name__)

FRAME_DEADLINE_S = 60.0
"""How long the writer waits for one batch's frame before it stops the copy and analyses the rest itself."""
_HEADER = struct.Struct("<Q")
_VERDICT = struct.Struct("<IB")
"""A verdict from the writer to the copy: a batch's index and whether the store used its rows with the
block maxima the copy kept (:meth:`stores.chunk_prep.PreparedChunks.settle`)."""

ChunksOf = Callable[[str], "tuple[str, str, str, list[Chunk]] | None"]
"""A file's ``(repo, checksum, text, chunks)`` as the writer gives them (``None``: it changed since it was read)."""
MentionsOf = Callable[[Sequence[DocFile]], "list[tuple[int, list[Edge]]]"]
"""The ``MENTIONS`` edges of a batch's files, ``(repository, path, File node id, chunks)`` each, as
:func:`indexer.mentions.mention_edges_of` gives them (``(index into the files, edges)``)."""


@dataclasses.dataclass
class BatchMentions:
    """The ``MENTIONS`` edges the copy linked for one write batch (its frame comes before the batch's
    :class:`~stores.chunk_prep.PreparedChunks`, as the writer needs the edges before the graph rows):
    ``covered``, the paths whose chunks the copy had (the others changed since they were read, for
    it), and ``edges``, by path, those of the covered files that mention something."""

    covered: list[str]
    edges: dict[str, list[Edge]]


def _prepare_all(batches: Sequence[Sequence[str]], chunks_of: ChunksOf, basis: ChunkBasis, out: int,
                 parent: int, budget_mib: int, verdicts: int | None = None, fold_bytes: int = PENDING_BYTES,
                 mentions_of: MentionsOf | None = None) -> int:
    """The copy's work: one frame ``(batch index, PreparedChunks)`` per batch of paths, in order, to
    the pipe ``out``; returns the number of batch frames. Before each batch it measures what it and the
    process ``parent`` hold together (:func:`indexer.resolve.forked_binding.held_mib`: the parent
    writing its pages after the fork leaves the old ones to the copy alone); when that, with the
    last batch's growth once more, passes ``budget_mib``, it stops (the writer prepares the rest).

    With ``verdicts`` (the read end of the writer's verdict pipe, :class:`_Verdicts`) the copy keeps each
    batch's block maxima (:attr:`stores.chunk_prep.PreparedChunks.held`), holds those of the batches the
    store used (:class:`stores.bm25_pending.PendingMaxima`, folded into table rows whenever more than
    ``fold_bytes`` are held) and, once every batch it sent has its verdict, sends the rows folded from
    them as frames ``(-1, FoldedMaxima)``; it stops without them when the writer closes the pipe.

    With ``mentions_of``, each batch's frame is preceded by a frame ``(batch index, BatchMentions)``: the
    ``MENTIONS`` edges of its files, linked from the chunks the copy read (:class:`BatchMentions`)."""
    me, father = psutil.Process(), psutil.Process(parent)
    last: float | None = None
    # What the copy inherited stays as it is: a collection would write the header of every object
    # it traverses, copying the parent's pages (its own objects hold no cycles; they go by count).
    gc.freeze()
    gc.disable()
    start, reference = basis.start, basis.reference
    held = _HeldMaxima(out, fold_bytes) if verdicts is not None else None
    reader = _Verdicts(verdicts) if verdicts is not None else None
    sent = 0
    for k, batch in enumerate(batches):
        if reader is not None and held is not None and not held.settle(reader.ready()):
            return sent  # the writer closed its end: nothing more is wanted
        size = held_mib(me, father)
        if size is not None:
            if size + (max(0.0, size - last) if last is not None else 0.0) > budget_mib:
                log.debug("the write's second process stops at batch %d of %d: %.0f MiB held, budget %d MiB",
                          k, len(batches), size, budget_mib)
                break
            last = size
        by_id: dict[str, Chunk] = {}
        texts: list[tuple[str, str, str, str]] = []
        docs: list[DocFile] = []
        for path in batch:
            got = chunks_of(path)
            if got is not None:
                repo, checksum, text, file_chunks = got
                texts.append((repo, path, checksum, text))
                docs.append((repo, path, file_id(repo, path), file_chunks))
                by_id.update((c.id, c) for c in file_chunks)  # as the store dedupes a batch: last value, first place
        if mentions_of is not None:
            linked = {docs[i][1]: edges for i, edges in mentions_of(docs)}
            _send(out, (k, BatchMentions([d[1] for d in docs], linked)))
        del docs
        chunks = list(by_id.values())
        keep = held is not None and chunks and (start + len(chunks)) >> BLOCK_SHIFT < 1 << 32
        prep = prepare_chunks(chunks, start, reference, basis.weights, texts, as_values=bool(keep))
        if keep and held is not None:
            held.keep(k, prep)  # its maxima stay here: folded if the store uses the rows
        prep.maxima_dict()  # (none left when kept)
        if chunks:
            start += len(chunks)
            reference = prep.reference  # the first batch with rows sets the index's
        _send(out, (k, prep))
        sent += 1
    if reader is not None and held is not None:
        while held.waiting:  # every verdict, then the fold of the batches used
            got = reader.wait()
            if got is None or not held.settle(got):
                return sent
        held.fold()
    return sent


def _send(out: int, frame: object) -> None:
    """``frame`` pickled, after its length, to the pipe ``out``."""
    data = pickle.dumps(frame, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(out, view):]


class _HeldMaxima:
    """The copy's side of the block maxima it keeps: those of the batches sent and not yet judged by
    the writer (:attr:`waiting`), and those of the batches the store used, held until folded."""

    def __init__(self, out: int, fold_bytes: int) -> None:
        self.out = out
        self.waiting: dict[int, tuple[int, int, BlockValues | dict[str, dict[int, int]]]] = {}
        """Batch -> (first rowid, rows, maxima) of each batch sent whose verdict has not come."""
        self.pending = PendingMaxima(fold_bytes)
        self.covers: list[tuple[int, int]] = []

    def keep(self, k: int, prep: PreparedChunks) -> None:
        """Keep batch ``k``'s block maxima here (``prep`` goes without them, marked held)."""
        self.waiting[k] = (prep.start, len(prep.analysed), prep.take_values())
        prep.maxima, prep.held = {}, True

    def settle(self, verdicts: Sequence[tuple[int, bool]] | None) -> bool:
        """Apply ``verdicts`` (``(batch, used)``): a used batch's maxima held for the fold (folded at
        once when more than the limit is held), another's dropped. ``False`` when ``verdicts`` is
        ``None`` (the writer closed its end)."""
        if verdicts is None:
            return False
        for k, used in verdicts:
            entry = self.waiting.pop(k, None)
            if entry is None or not used:
                continue
            start, count, maxima = entry
            kept = self.pending.hold_values(maxima) if isinstance(maxima, BlockValues) else self.pending.hold(maxima)
            if kept:  # blocks in range (kept only then: _prepare_all)
                self.covers.append((start, count))  # else the store computes them, owed still
            if self.pending.full():
                self.fold()
        return True

    def fold(self) -> None:
        """Send the rows folded from every used batch's maxima held, as :class:`FoldedMaxima` frames."""
        if not self.covers:
            return
        covers, self.covers = tuple(self.covers), []
        ahead = None
        part = 0
        for rows in self.pending.folds():
            if ahead is not None:
                _send(self.out, (-1, FoldedMaxima(covers, part, False, ahead)))
                part += 1
            ahead = rows
        if ahead is not None:
            _send(self.out, (-1, FoldedMaxima(covers, part, True, ahead)))


class _Verdicts:
    """The copy's reader of the writer's verdicts: records ``(batch, used)`` (:data:`_VERDICT`) from
    the pipe ``fd``."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""
        os.set_blocking(fd, False)

    def ready(self) -> list[tuple[int, bool]] | None:
        """The verdicts come so far, without waiting; ``None`` once the writer closed its end."""
        chunks = []
        while True:
            try:
                data = os.read(self.fd, 4096)
            except BlockingIOError:
                break
            if not data:
                return None
            chunks.append(data)
        return self._parse(b"".join(chunks))

    def wait(self) -> list[tuple[int, bool]] | None:
        """At least one more verdict, waiting for it; ``None`` once the writer closed its end."""
        while True:
            select.select([self.fd], [], [])
            got = self.ready()
            if got is None or got:
                return got

    def _parse(self, data: bytes) -> list[tuple[int, bool]]:
        self.buf += data
        n = len(self.buf) - len(self.buf) % _VERDICT.size
        out = [(k, bool(used)) for k, used in _VERDICT.iter_unpack(self.buf[:n])]
        self.buf = self.buf[n:]
        return out


class ChunkPreparer:
    """A forked copy preparing ``batches`` (lists of paths, the write's batches in order) with
    ``chunks_of`` from ``basis``, while it and this process hold less than ``budget_mib``; :meth:`take`
    returns batch ``k``'s preparation. With ``adopt`` (the store's
    :meth:`~stores.contracts.SearchIndex.adopt_maxima`) the copy keeps the batches' block maxima and
    folds those of the batches the store used (it says which through :meth:`PreparedChunks.settle`,
    sent back on a second pipe); each fold's rows go to ``adopt`` as they come, the last ones in
    :meth:`finish`. With ``mentions_of`` the copy also links each batch's doc mentions with it
    (:meth:`mentions`). Raises ``OSError`` when no process or pipe can be made. Only where
    :func:`indexer.forked.can_fork` holds."""

    def __init__(self, batches: Sequence[Sequence[str]], chunks_of: ChunksOf, basis: ChunkBasis,
                 budget_mib: int = DEFAULT_MEMORY_BUDGET_MIB,
                 adopt: Callable[[FoldedMaxima], bool] | None = None, mentions_of: MentionsOf | None = None) -> None:
        read_end, write_end = os.pipe()
        back_read, back_write = os.pipe() if adopt is not None else (None, None)
        parent = os.getpid()
        # Until close(), this process's collections leave alone what the copy shares with it (as the
        # binding's copy does, indexer.resolve.forked_binding): a full collection here writes the
        # header of every container it walks, and each page so written is then held twice, the
        # old one by the copy alone.
        gc.freeze()
        self._frozen = True

        def copy() -> int:
            os.close(read_end)  # this process's ends: the copy sees the writer close its own
            if back_write is not None:
                os.close(back_write)
            return _prepare_all(batches, chunks_of, basis, write_end, parent, budget_mib, back_read,
                                mentions_of=mentions_of)

        try:
            self._call: ForkedCall | None = ForkedCall(copy)
        except BaseException:
            os.close(read_end)
            if back_write is not None:
                os.close(back_write)
            self._thaw()
            raise
        finally:
            os.close(write_end)
            if back_read is not None:
                os.close(back_read)
        self._read: int | None = read_end
        self._verdicts: int | None = back_write
        self._adopt = adopt
        self._unsettled: set[int] = set()  # batches handed out held whose verdict is not sent
        self._held: tuple[int, PreparedChunks | BatchMentions] | None = None
        self._last = len(batches) - 1
        self.used = 0
        """Frames :meth:`take` returned."""
        self.links_mentions = mentions_of is not None
        """Whether the copy links each batch's doc mentions (:meth:`mentions`)."""
        self.folds = 0
        """Slices of folded block maxima the store took (:meth:`~stores.contracts.SearchIndex.adopt_maxima`)."""

    def take(self, k: int) -> PreparedChunks | None:
        """Batch ``k``'s preparation (``k`` ascending from call to call), waiting for it; ``None``
        when the copy has failed or stopped (it is then stopped for good). Without ``adopt``, the
        copy, done with the last batch's frame, is reaped and the pipe closed then (:meth:`finish`)."""
        for j in sorted(j for j in self._unsettled if j < k):  # handed out and never judged: not used
            self._verdict(j, False)
        while True:
            frame = self._next_batch_frame()
            if frame is None:
                return None
            prep = frame[1]
            if isinstance(prep, BatchMentions):  # a batch's edges: a later one's is kept for its turn
                if frame[0] > k:
                    self._held = frame
                    return None
                continue
            if frame[0] == k:
                self.used += 1
                if prep.held:
                    self._unsettled.add(k)
                    prep.hook = functools.partial(self._verdict, k)
                if k == self._last and self._adopt is None:  # nothing more comes: reap it now (see finish)
                    self.finish()
                return prep
            if frame[0] > k:  # a batch the writer skipped to: keep it for its turn
                self._held = frame
                return None
            if prep.held:  # a batch the writer skipped: not used
                self._verdict(frame[0], False)

    def mentions(self, k: int) -> BatchMentions | None:
        """Batch ``k``'s doc mention edges (``k`` ascending from call to call, each before :meth:`take` of
        the same ``k``), waiting for them; ``None`` when the copy links none, has failed or stopped, or
        went past ``k`` (then the writer links them itself)."""
        while True:
            frame = self._next_batch_frame()
            if frame is None:
                return None
            if frame[0] > k or (frame[0] == k and not isinstance(frame[1], BatchMentions)):
                self._held = frame  # a later batch's (or this one's preparation: the copy links none)
                return None
            if isinstance(frame[1], BatchMentions):
                if frame[0] == k:
                    return frame[1]
                continue  # a batch the writer skipped
            if frame[1].held:  # a batch the writer skipped: not used
                self._verdict(frame[0], False)

    def finish(self) -> None:
        """After the write's last batch: tell the copy which batches were not used, give the store the
        rows it folds from the others (``adopt``), wait for its end, reap it and close, instead of
        leaving it defunct until :meth:`close`, which the writer calls after its ``COMMIT`` and the WAL
        checkpoint that follows (tens of seconds at load). Without ``adopt``, a frame after the last
        batch is a broken copy: warned about, dropped."""
        for j in sorted(self._unsettled):
            self._verdict(j, False)
        if self._held is not None:
            frame, self._held = self._held, None
            if isinstance(frame[1], PreparedChunks) and frame[1].held:
                self._verdict(frame[0], False)
        while (frame := self._frame()) is not None:
            if frame[0] < 0:
                self._fold(frame[1])  # type: ignore[arg-type]
                continue
            if isinstance(frame[1], BatchMentions):  # a batch no write asked for
                continue
            if self._adopt is None:
                log.warning("the write's second process sent a frame after the last (batch %d): stopped", frame[0])
                break
            if frame[1].held:  # a batch no write asked for
                self._verdict(frame[0], False)
        self.close()

    def _verdict(self, k: int, used: bool) -> None:
        """Send the copy batch ``k``'s verdict (once); a copy gone is noticed by the frame reads."""
        self._unsettled.discard(k)
        if self._verdicts is None:
            return
        try:
            os.write(self._verdicts, _VERDICT.pack(k, used))
        except OSError as exc:
            log.debug("the write's second process takes no verdict (%s)", exc)
            os.close(self._verdicts)
            self._verdicts = None

    def _fold(self, fold: FoldedMaxima) -> None:
        """Give the store a slice of the rows the copy folded (those it does not take, it computes)."""
        if self._adopt is not None and self._adopt(fold):
            self.folds += 1

    def _next_batch_frame(self) -> tuple[int, PreparedChunks | BatchMentions] | None:
        """The held frame, else the next one the copy sends, folding the block-maxima rows it sends between
        batches on the way; ``None`` when the copy has failed or stopped."""
        while True:
            frame, self._held = self._held or self._frame(), None
            if frame is None or frame[0] >= 0:
                return frame
            self._fold(frame[1])  # type: ignore[arg-type]  # rows the copy folded

    def _frame(self) -> tuple[int, PreparedChunks | BatchMentions] | None:
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
            frame: tuple[int, PreparedChunks | BatchMentions] = pickle.loads(body)
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
        """Stop the copy if it still runs, reap it, close the pipes, and let this process's
        collections reach the objects frozen at the fork again (idempotent)."""
        self._thaw()
        if self._verdicts is not None:
            os.close(self._verdicts)
            self._verdicts = None
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
