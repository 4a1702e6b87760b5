"""The chunk and write stages of an index run: give each re-bound file its text and chunks, and write
the files whose output differs from what the index holds, crash-safely.

* :func:`output_digest` fixes what "differs" means: a digest of one file's record, nodes, edges and
  unresolved calls, with the product and :func:`indexer_version`; it is kept in the File node's
  ``digest`` prop.
* :class:`Journal`: the files a run set out to write and those committed (``journal-*.json`` in the
  state folder, replaced atomically), so a run killed at any point is finished by the next.
* :class:`IndexWriter`: the stage itself. Everything a run writes goes to the store in one
  ``replace_files`` transaction (deletions in a second one), through the store contracts only.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import operator
import os
import pickle
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.chunking import chunk_file
from indexer.mentions import LINKED_LABELS, MENTION_LABELS, DocFile, NodeSource, add_mention_edges, mention_edges_of
from indexer.discovery import SkipFile, read_source
from indexer.extract_cache import extractor_version
from indexer.extraction import Extracted, file_text
from indexer.resolve.forked_binding import should_fork
from indexer.run import DEFAULT_MEMORY_BUDGET_MIB, IndexReport, ProgressSink
from indexer.spill import SpilledOutputs, SpillFile, SpillRef
from indexer.symbols import file_id
from indexer.write_prep import BatchMentions, ChunkPreparer
from stores.contracts import Chunk, Edge, FileRecord, GraphStore, IndexedFile, Node, SearchIndex, SymbolKey, UnresolvedCall

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.repository import ResolvedRepository

__all__ = ["Journal", "IndexWriter", "output_digest", "indexer_version"]

log = logging.getLogger(__name__)


class Journal:
    """The write journal of one repository's runs: the files a run set out to write (or delete) and
    those already committed. ``None`` as path: no journal (nothing is remembered across runs)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def read(self) -> tuple[set[str], set[str]]:
        """``(paths, done)`` of an unfinished run, ``(set(), set())`` when none."""
        if self.path is None:
            return set(), set()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return set(data["paths"]), set(data["done"])
        except FileNotFoundError:
            return set(), set()
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("write journal %s unreadable (%s): ignored", self.path, exc)
            return set(), set()

    def write(self, paths: Iterable[str], done: Iterable[str]) -> None:
        """Replace the journal atomically (a reader sees the old or the new one, never half)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"paths": sorted(paths), "done": sorted(done)}), encoding="utf-8")
        os.replace(tmp, self.path)

    def clear(self) -> None:
        """The run finished: forget it."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def output_digest(out: IndexedFile, product: str) -> str:
    """Digest of what the index holds for one file: its record, nodes, edges and unresolved calls
    (order-insensitive), the product and the indexer version (which, with the file's checksum, fix
    its chunks). The bookkeeping props of the File node (``digest``, ``indexer``,
    ``parse_errors``) are left out."""
    nodes = list(out.nodes)
    if nodes and not _BOOKKEEPING.isdisjoint(nodes[0].props):
        props = {k: v for k, v in nodes[0].props.items() if k not in _BOOKKEEPING}
        nodes[0] = dataclasses.replace(nodes[0], props=props)
    h = hashlib.sha256()
    h.update(repr((indexer_version(), product, out.file)).encode("utf-8", "surrogatepass"))
    # Each item as the repr of its fields' tuple (built in C; a dataclass's own repr runs Python code
    # per item), sorted, each followed by a NUL, one update per part.
    for part, fields in ((nodes, _NODE_FIELDS), (out.edges, _EDGE_FIELDS), (out.unresolved, _UNRESOLVED_FIELDS)):
        h.update(b"\1")
        h.update("".join([text + "\0" for text in sorted(map(repr, map(fields, part)))]).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _fields(cls: type) -> operator.attrgetter[tuple[object, ...]]:
    """A getter of every field of the dataclass ``cls``, as a tuple in declaration order."""
    return operator.attrgetter(*(f.name for f in dataclasses.fields(cls)))


_NODE_FIELDS, _EDGE_FIELDS, _UNRESOLVED_FIELDS = _fields(Node), _fields(Edge), _fields(UnresolvedCall)
_BOOKKEEPING = frozenset({"digest", "indexer", "parse_errors"})
"""File node props the incremental engine adds: what was written, by which version, how it parsed."""
_VERSIONED = ("resolve/*.py", "incremental.py", "writer.py", "frameworks/link.py", "frameworks/spring_config.py")
"""The sources (globs under ``indexer/``) that bind and write: :func:`indexer_version` digests them."""


@functools.cache
def indexer_version() -> str:
    """A digest of the extractor version and the source of the code that binds and writes: stored
    outputs of another version are bound and compared again, never trusted as they are. 16 hex
    characters of a SHA-256; computed once per process. Raises ``FileNotFoundError`` when a pattern
    of ``_VERSIONED`` matches no file (a renamed source must not drop out of the version)."""
    h = hashlib.sha256(extractor_version().encode())
    here = Path(__file__).resolve().parent
    for rel in _VERSIONED:
        paths = sorted(here.glob(rel))
        if not paths:  # a renamed source must not drop out of the version unnoticed
            raise FileNotFoundError(f"indexer_version: nothing matches {here / rel}")
        for path in paths:
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


WRITE_BATCH_BYTES = 1 << 20
"""Source bytes of the files one write batch holds (their text, chunks and store rows are in memory
together; a run's batches share one transaction): 1 MiB of source is about 8 MiB of objects (an
index run sizes it from its budget: :meth:`indexer.run.IndexOptions.write_batch_bytes`)."""


def _batches(todo: Sequence[int], paths: Sequence[str], files: Mapping[str, FileCtx], limit: int) -> Iterable[list[int]]:
    """``todo`` (indexes into ``paths``) in order, cut into runs of at most ``limit`` source bytes (a
    larger file alone)."""
    batch: list[int] = []
    size = 0
    for i in todo:
        n = files[paths[i]].size
        if batch and size + n > limit:
            yield batch
            batch, size = [], 0
        batch.append(i)
        size += n
    if batch:
        yield batch


_NAME = SymbolKey._fields.index("name")
"""Where a key's short name is in its tuple (:func:`_mention_keys`)."""


def _mention_keys(out: IndexedFile) -> bytes | None:
    """The pickled list of the :class:`~stores.contracts.SymbolKey` of ``out``'s nodes a doc mention may
    link to (:data:`indexer.mentions.MENTION_LABELS`, in node order), each as a plain tuple of its
    fields (a named tuple pickles and unpickles through a Python call per key; a tuple of strings in
    C: :meth:`_SpilledNodes.named` makes a key only of those it yields), or ``None`` when it has none."""
    linkable = [tuple(SymbolKey.of(n)) for n in out.nodes if n.label in MENTION_LABELS]
    return pickle.dumps(linkable, protocol=pickle.HIGHEST_PROTOCOL) if linkable else None


def _grown_keys(spill: SpillFile, base: SpillRef | None, added: Sequence[Node]) -> SpillRef | None:
    """Where the mention keys of an output the linker extended are (:func:`_mention_keys` of it):
    those it was spilled with (at ``base``, ``None``: none) followed by those of its ``added`` nodes,
    as its nodes are in that order; ``base`` itself when no added node is one a mention links to."""
    more = [tuple(SymbolKey.of(n)) for n in added if n.label in MENTION_LABELS]
    if not more:
        return base
    keys: list[tuple[str, ...]] = pickle.loads(spill.get(base)) if base is not None else []
    return spill.put(pickle.dumps(keys + more, protocol=pickle.HIGHEST_PROTOCOL))


class _SpilledNodes:
    """The :class:`indexer.mentions.NodeSource` of a spilled run, without reading the outputs again:
    ``keys`` holds, for each output to write that has any (index into ``outputs``), where the
    :class:`~stores.contracts.SymbolKey` list of its nodes a mention may link to was spilled, and
    ``names`` maps a short name to the indexes of the outputs holding a node of that name
    (ascending). A lookup unpickles those small lists only, not the outputs."""

    def __init__(self, outputs: SpilledOutputs, todo: Sequence[int], names: Mapping[str, list[int]],
                 keys: Mapping[int, SpillRef]) -> None:
        self.outputs, self.todo, self.names, self.keys = outputs, todo, names, keys

    def paths(self) -> set[str]:
        """Paths of every file the run writes."""
        return {self.outputs.paths[i] for i in self.todo}

    def named(self, names: set[str]) -> Iterable[SymbolKey]:
        """Keys of the nodes named one of ``names`` of the outputs to write, in output order."""
        make = SymbolKey._make
        for i in sorted({i for name in names for i in self.names.get(name, ())}):
            keys: list[tuple[str, ...]] = pickle.loads(self.outputs.spill.get(self.keys[i]))  # _mention_keys
            yield from (make(k) for k in keys if k[_NAME] in names)


class IndexWriter:
    """Writes one repository's re-bound files (:meth:`write`). ``graph`` and ``search`` may be one
    object (the embedded store); ``root`` and ``max_file_bytes`` are for re-reading the text of files
    parsed in an earlier run."""

    def __init__(
        self, root: Path, repo: str, product: str, max_file_bytes: int, graph: GraphStore, search: SearchIndex,
        journal: Journal, batch_bytes: int = WRITE_BATCH_BYTES,
    ) -> None:
        self.root, self.repo, self.product, self.max_file_bytes = root, repo, product, max_file_bytes
        self.graph, self.search, self.journal = graph, search, journal
        self.batch_bytes = batch_bytes
        """Source bytes per write batch (:data:`WRITE_BATCH_BYTES` by default)."""
        self.processes = 1
        """Processes the write may use: 2 or more lets a forked copy analyse chunks (:meth:`_preparer`)."""
        self.memory_budget_mib: int | None = None
        """The run's memory budget, MiB (``None``: the default), that the copy must fit beside this process."""
        self.trusted = True
        """Whether the index's stored output digests say what it holds (see
        :meth:`indexer.incremental.RepositoryIndex._written_here`); ``False``: every output is written."""

    def write(
        self, resolved: ResolvedRepository, files: Mapping[str, FileCtx], gone: Sequence[str],
        fresh: Mapping[str, Extracted], texts: Mapping[str, str], report: IndexReport, progress: ProgressSink,
        refresh: Collection[str] = (),
    ) -> None:
        """Write the outputs of ``resolved`` that differ from the index (and those an interrupted run
        left), delete the files ``gone``; journal first, clear last. ``files``: every file's context
        (path -> :class:`indexer.resolve.context.FileCtx`: its extraction and checksum); ``fresh``: this run's
        extractions (their text and chunks), ``texts``: the text of other changed files by path;
        ``refresh``: paths whose outputs are written even when the index holds the same digest (doc
        files whose mentions an edit elsewhere can change: :mod:`indexer.mention_refresh`).
        Fills ``report`` (calls, links, files resolved / written / resumed / deleted, nodes, edges,
        chunks). Raises what the store raises; the journal then names the files left to write."""
        pending, done = self.journal.read()
        forced = pending - done
        rewrite = forced | set(refresh) if refresh else forced
        report.calls = dict(sorted(resolved.call_outcomes.items()))
        report.links = dict(resolved.link_outcomes)
        outputs = resolved.files
        report.files_resolved = len(outputs)
        spilled = outputs if isinstance(outputs, SpilledOutputs) else None
        paths = spilled.paths if spilled is not None else [out.file.path for out in outputs]
        stored = self.graph.get_nodes([file_id(self.repo, p) for p in paths]) if self.trusted else {}
        version = indexer_version()
        # Which outputs differ from the index (indexes into ``outputs``), and their digests. A
        # spilled output is read here one at a time, unless it was spilled with its summary
        # (:meth:`summary`: then it is not read here at all). Of those to write, the keys of their
        # nodes a mention may link to are in the spill file beside them and their names kept (for
        # doc files' mentions, see _SpilledNodes: the outputs are not read again for them).
        todo: list[int] = []
        digests: dict[int, str | None] = {}  # None: made when the output is read to be written
        names: dict[str, list[int]] = {}
        keys: dict[int, SpillRef] = {}
        for i in range(len(outputs)):
            summary = spilled.summary(i) if spilled is not None else None
            ref: SpillRef | None = None
            read_here = False
            grown = spilled.extended(i) if spilled is not None and summary is None else None
            digest: str | None
            node_id = file_id(self.repo, paths[i])  # the output's File node (the first)
            if grown is not None and (paths[i] in rewrite or node_id not in stored):
                # Extended by the linker, and written whatever its digest (the index has no File node
                # of it, or the journal forces it): not read here; its digest is made when it is read
                # to be written, its mention keys are those it was spilled with and its added nodes'.
                base_keys = grown[0][1]
                digest = None
                ref = _grown_keys(spilled.spill, base_keys, grown[1])  # type: ignore[union-attr]
            elif summary is None:  # read here (a grown output the index holds too): its keys are made below
                out, read_here = outputs[i], True
                digest = output_digest(out, self.product)
                self._stamp(out, digest, version, files)
            else:
                raw, ref = summary
                digest = raw.hex()  # type: ignore[attr-defined]
            old = stored.get(node_id)
            if paths[i] in rewrite or old is None or old.props.get("digest") != digest:
                todo.append(i)
                digests[i] = digest
                if spilled is None:
                    continue
                if read_here:  # ``out`` was read above, grown or not (a grown one was left without keys, so
                    # that the docs written with it missed its nodes: another version over a trusted index)
                    keys_blob = _mention_keys(out)
                    ref = spilled.spill.put(keys_blob) if keys_blob is not None else None
                if ref is not None:
                    keys[i] = ref
                    for name in dict.fromkeys(k[_NAME] for k in pickle.loads(spilled.spill.get(ref))):  # _mention_keys
                        names.setdefault(name, []).append(i)
        del stored
        report.files_resumed = sum(1 for i in todo if paths[i] in forced)
        if not todo and not gone:
            if pending:
                self.journal.clear()
            return
        targets = {paths[i] for i in todo} | set(gone)
        self.journal.write(targets, ())
        progress.start("write", len(todo) + len(gone))
        everything: Sequence[IndexedFile] | NodeSource = (
            _SpilledNodes(spilled, todo, names, keys) if spilled is not None else [outputs[i] for i in todo])
        ready: list[str] = []
        changed_meanwhile: list[str] = []
        shared: set[str] = set()  # Endpoint / Topic nodes: one node however many files point to it
        # One transaction for the whole run (where the store has them): every edge's ends are written
        # together, so a reader (or a run killed here) sees the index before the run or after it,
        # never a mix. Inside it the files go in batches of bounded text, so that only one batch's
        # text, chunks and rows are in memory at a time (and, spilled, only one batch's outputs).
        batches = list(_batches(todo, paths, files, self.batch_bytes))
        preparer = self._preparer(batches, paths, files, fresh, texts, everything)
        try:
            with self.graph.transaction():
                for k, batch in enumerate(batches):
                    written = []
                    for i in batch:
                        out = outputs[i]
                        if spilled is not None:  # a fresh copy: stamp it again
                            digest = digests[i]
                            if digest is None:
                                digest = digests[i] = output_digest(out, self.product)
                            self._stamp(out, digest, version, files)
                        if not self._attach(out, files[out.file.path], fresh, texts):
                            # Its bytes changed since they were read: its rows go in as bound (the other
                            # files' edges point at its nodes), without text or chunks; the journal has
                            # the next run write it again.
                            out.text, out.chunks = None, []
                            changed_meanwhile.append(out.file.path)
                        written.append(out)
                    if not written:
                        continue
                    linked = preparer.mentions(k) if preparer is not None and preparer.links_mentions else None
                    if linked is not None:
                        written_here = self._linked(written, linked)
                    else:
                        written_here = written
                    if written_here:
                        add_mention_edges(written_here, self.graph, everything, gone, resolved.dropped)
                    if preparer is not None:  # read when the store needs it, not beside the graph rows
                        self.search.offer_prepared(functools.partial(preparer.take, k))
                    self.graph.replace_files(written)
                    if self.search is not self.graph:
                        self.search.replace_chunks(written)
                    for out in written:
                        report.nodes.update(n.label for n in out.nodes if n.repo or n.id not in shared)
                        shared.update(n.id for n in out.nodes if not n.repo)
                        report.edges.update(e.kind for e in out.edges)
                        report.chunks += len(out.chunks)
                        out.text, out.chunks = "", []  # written: let them go
                        item = fresh.get(out.file.path)
                        if item is not None:
                            item.release()
                    ready += (out.file.path for out in written)
                    progress.advance(len(written))
                if preparer is not None:  # the block maxima the copy folded written, and the copy reaped, before
                    preparer.finish()  # COMMIT and its checkpoint, not after (it would stay defunct meanwhile)
        finally:
            if preparer is not None:
                log.debug("the second process analysed %d of %d write batches (%d slices of block maxima folded)",
                          preparer.used, len(batches), preparer.folds)
                preparer.close()
        report.files_written = len(ready)
        if gone:
            if ready:
                self.journal.write(targets, ready)
            self.graph.delete_files(self.repo, gone)
            if self.search is not self.graph:
                self.search.replace_chunks([IndexedFile(FileRecord(self.repo, p, "", "", 0)) for p in gone])
            report.files_deleted = len(gone)
            progress.advance(len(gone))
        progress.done("write")
        if changed_meanwhile:
            # Edited between read and write: the journal keeps them so the next run writes them.
            self.journal.write(changed_meanwhile, ())
            log.info("%d files changed while being indexed; the next run takes them", len(changed_meanwhile))
        else:
            self.journal.clear()

    def summary(self, out: IndexedFile) -> tuple[bytes, bytes | None]:
        """What :meth:`write` reads of an output before writing it: its digest
        (:func:`output_digest`, as its 32 bytes: the hex string and the File node's id, which
        :meth:`write` makes from the path, were about 230 bytes a file held through the resolve), and the pickled
        :class:`~stores.contracts.SymbolKey` list of its nodes a doc mention may link to
        (:data:`indexer.mentions.MENTION_LABELS`, in node order, as tuples: :func:`_mention_keys`;
        ``None`` when it has none), which
        the spill file keeps. Given to the resolver as its spilled outputs' ``summarise``
        (:class:`indexer.spill.SpilledOutputs`; a forked copy that binds files applies it to its
        own outputs), so that the write reads each of them back once, to write it, not twice, and
        holds no more than this per output in memory."""
        return bytes.fromhex(output_digest(out, self.product)), _mention_keys(out)

    @staticmethod
    def _stamp(out: IndexedFile, digest: str, version: str, files: Mapping[str, FileCtx]) -> None:
        """The bookkeeping props of ``out``'s File node: its output digest, the indexer version, and
        its parse errors when it has any."""
        props = out.nodes[0].props
        props["digest"], props["indexer"] = digest, version
        errors = len(files[out.file.path].ex.errors)
        if errors:
            props["parse_errors"] = errors

    def _attach(self, out: IndexedFile, fc: FileCtx, fresh: Mapping[str, Extracted], texts: Mapping[str, str]) -> bool:
        """The chunk stage of one file (context ``fc``): give ``out`` its text and chunks
        (:meth:`_text_chunks`); ``False`` when the file's bytes changed since it was read."""
        got = self._text_chunks(out.file.path, fc, fresh, texts)
        if got is None:
            return False
        out.text, out.chunks = got
        return True

    def _text_chunks(self, path: str, fc: FileCtx, fresh: Mapping[str, Extracted],
                     texts: Mapping[str, str]) -> tuple[str, list[Chunk]] | None:
        """The text and chunks of the file ``path`` (context ``fc``): those the worker cut when the
        ids agree, else cut here; ``None`` when the file's bytes changed since it was read."""
        item = fresh.get(path)
        if item is not None and item.checksum == fc.checksum:
            text, chunks = item.text_chunks()
            same_ids = item.id_path == fc.ex.id_path
            return text, chunks if same_ids else chunk_file(self.repo, self.product, fc.ex, text)
        text = texts.get(path)
        if text is None:
            try:
                data = read_source(str(self.root / path), self.max_file_bytes)
            except SkipFile:
                return None
            if hashlib.sha256(data).hexdigest() != fc.checksum:
                return None
            text = file_text(data)
        return text, chunk_file(self.repo, self.product, fc.ex, text)

    def _prepare_input(self, path: str, fc: FileCtx, fresh: Mapping[str, Extracted],
                       texts: Mapping[str, str]) -> tuple[str, str, str, list[Chunk]] | None:
        """``(repo, checksum, text, chunks)`` of the file ``path`` for :mod:`indexer.write_prep`."""
        got = self._text_chunks(path, fc, fresh, texts)
        return None if got is None else (self.repo, fc.checksum, *got)

    def _linked(self, written: list[IndexedFile], linked: BatchMentions) -> list[IndexedFile]:
        """Give each of ``written`` (a batch) the ``MENTIONS`` edges the copy linked for it (``linked``);
        returns those it did not cover, whose edges the writer links itself (their chunks were read
        here but not there: the file changed meanwhile, or its File node is not the one the copy assumed)."""
        covered = set(linked.covered)
        rest = []
        for out in written:
            path = out.file.path
            if path in covered and out.file.repo == self.repo and out.nodes and out.nodes[0].id == file_id(self.repo, path):
                if out.chunks:  # not changed since read here either (else it has no chunks, no mentions)
                    out.edges.extend(linked.edges.get(path, ()))
            else:
                rest.append(out)
        return rest

    def _cold(self) -> bool:
        """Whether the graph store holds no node a doc mention may link to (no repository's, no shared
        one: :data:`indexer.mentions.LINKED_LABELS`): then every node the write's lookup can find is one
        of the run's own, and a mention's edges need no store (:func:`indexer.mentions.mention_edges_of`)."""
        return not self.graph.repos() and not self.graph.labelled(LINKED_LABELS, 1)

    def _preparer(self, batches: list[list[int]], paths: Sequence[str], files: Mapping[str, FileCtx],
                  fresh: Mapping[str, Extracted], texts: Mapping[str, str],
                  everything: Sequence[IndexedFile] | NodeSource | None = None) -> ChunkPreparer | None:
        """A :class:`indexer.write_prep.ChunkPreparer` of ``batches`` (indexes into ``paths``) when the
        write is large enough for a second process and memory allows (the binding's rule,
        :func:`indexer.resolve.forked_binding.should_fork`, with :attr:`processes` and
        :attr:`memory_budget_mib`) and the search index takes chunks prepared ahead; else ``None``. The
        copy also folds the block maxima of the batches the store uses
        (:meth:`~stores.contracts.SearchIndex.adopt_maxima`), and, when the store holds nothing a mention
        may link to (:meth:`_cold`: a cold run), links the doc mentions of each batch over ``everything``
        (the run's nodes: :meth:`ChunkPreparer.mentions`)."""
        if not should_fork(sum(map(len, batches)), self.processes, self.memory_budget_mib):
            return None
        basis = self.search.chunk_basis()
        if basis is None:
            return None
        named = [[paths[i] for i in batch] for batch in batches]
        try:
            budget = DEFAULT_MEMORY_BUDGET_MIB if self.memory_budget_mib is None else self.memory_budget_mib
            link = None
            if everything is not None and self._cold():
                def link(docs: Sequence[DocFile], source: Sequence[IndexedFile] | NodeSource = everything
                         ) -> list[tuple[int, list[Edge]]]:
                    return mention_edges_of(docs, None, source)
            return ChunkPreparer(named, lambda path: self._prepare_input(path, files[path], fresh, texts), basis, budget,
                                 self.search.adopt_maxima, link)
        except OSError as exc:
            log.debug("the write analyses its chunks in one process: %s", exc)
            return None
