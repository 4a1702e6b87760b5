"""The index run: :func:`index_repository`, the entry point of ``ripple index``, and the map of its
stages. Every run, full or incremental, is one orchestrator (:class:`indexer.incremental.RepositoryIndex`,
:meth:`~indexer.incremental.RepositoryIndex.sync` for a whole tree,
:meth:`~indexer.incremental.RepositoryIndex.update` for the paths a watcher saw) calling the same
stages in this order, each in its own module; modules import downwards only (this one ->
``incremental`` -> the stages -> ``run``):

1. **discover** (:mod:`indexer.discovery`): the files to index and every skipped file by reason.
2. **read** (in the orchestrator): hash each file's bytes; a file whose bytes the index or the
   resolver already holds is not parsed again.
3. **extract** (:class:`indexer.extraction.ExtractStage`: worker processes, one file at a time):
   extractions of bytes seen before come from the on-disk cache (:mod:`indexer.extract_cache`); the
   rest are read, parsed by the language's extractor (:mod:`indexer.languages`), cached and chunked.
   A file that cannot be read or whose extractor fails is counted with its reason; it never stops
   the run.
4. **resolve + link** (:class:`indexer.resolve.repository.RepositoryResolver`, in this process: it needs every
   file's symbols; :mod:`indexer.frameworks.link` inside it): calls, bases, injections and type uses
   bound across files; HTTP and Kafka links.
5. **chunk + write** (:class:`indexer.writer.IndexWriter`): the files whose output differs from what
   the index holds (a digest per file) get their chunks (:mod:`indexer.chunking`) and are replaced
   through the store contracts in one transaction; files indexed before but gone are deleted.

What a run is given, reports and shows as progress is :mod:`indexer.run`. A second run over an
unchanged tree parses and writes nothing, and a run killed at any point resumes where it stopped.
Embeddings are not computed here (:mod:`indexer.embedding` runs after the graph is committed).
"""

from __future__ import annotations

from pathlib import Path

from indexer.incremental import RepositoryIndex
from indexer.registry import record_repository, repository_gateways
from indexer.run import IndexOptions, IndexReport, ProgressSink
from stores.contracts import GraphStore, SearchIndex

__all__ = ["index_repository"]


def index_repository(
    root: str | Path,
    graph: GraphStore,
    search: SearchIndex,
    options: IndexOptions,
    progress: ProgressSink | None = None,
) -> IndexReport:
    """Bring the index of the source tree at ``root`` (repository ``options.repo``) in ``graph`` and
    ``search`` (the same object for the embedded store, whose ``replace_files`` also writes chunks) in
    line with the tree: files added, edited or gone since the last run are indexed or removed, and
    the files whose bindings they change are re-bound (:class:`indexer.incremental.RepositoryIndex`).

    Then the repository's registry entry is written (:func:`indexer.registry.record_repository`,
    unless ``options.record`` is false). Returns an :class:`indexer.run.IndexReport`. Raises ``NotADirectoryError`` if ``root`` is not a
    directory and :class:`stores.errors.StoreError` if the store fails; bad files never raise.
    """
    index = RepositoryIndex(root, graph, search, options)
    index.skip_unchanged = True
    try:
        report = index.sync(progress)
    finally:
        index.close()
    if options.record:
        link = index.link_read
        record_repository(graph, search, Path(root).resolve(), options, applications=index.applications(),
                          gateways=repository_gateways(link and link.gateways, index.resolver.code_gateways))
    return report
