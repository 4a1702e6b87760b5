"""Ensemble search: rank with several embedding models at once, each with its own kNN list, plus BM25.

``ripple search --models minilm,mpnet`` (or ``[search] models``) asks the index for one dense list per
model, named ``knn:<model>``, beside ``bm25`` (and ``name`` for an identifier query), and fuses them
all as :class:`analysis.retrieval.QueryEngine` fuses its lists; every hit reports its rank in each list
(``SearchHit.ranks``: ``{"bm25": 3, "knn:minilm": 1, "knn:mpnet": 2}``). The index's own model (the
bundled MiniLM unless ``[embedding] model`` names another) reads the vectors on the chunks
(:meth:`stores.contracts.SearchIndex.knn`); every other model reads its own, kept apart by model id
(:meth:`stores.contracts.SearchIndex.model_knn`), which every writer computes for each configured model
(``ripple index`` / ``ripple embed``, ``ripple watch``, the language server, REST ingest:
:mod:`lsp_server.ensemble_support`). Front ends build their engine with :func:`configured_engine` (a
request's or the configuration's models; errors raised) or, long-lived, :func:`engine_maker` (models
loaded once; a configured model that is not built falls back to the index's model with a note). A model without any vector yet contributes no list, and the answer says how
many chunks each model covers. Models come from :mod:`stores.local_models`: nothing downloads; a
model that is not built raises :class:`stores.embedder.ModelNotBuilt` naming ``ripple models build``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from analysis.fusion import Fusion
from analysis.retrieval import QueryEngine, SearchResult, query_engine
from stores.contracts import GraphStore, ScoredChunk, SearchFilters, SearchIndex
from stores.embedder import Embedder, EmbedderError
from stores.embedding_format import model_vectors_key
from stores.local_models import BUNDLED_NAME, open_model, parse_model_names

__all__ = ["DenseModel", "EnsembleEngine", "EngineMaker", "ensemble_engine", "configured_engine", "engine_maker",
           "list_name", "model_ranks"]


def list_name(model: str) -> str:
    """The ranked list of model ``model`` in fusion and in ``SearchHit.ranks``: ``knn:<model>``."""
    return f"knn:{model}"


def model_ranks(ranks: Mapping[str, int]) -> dict[str, int]:
    """The per-model kNN ranks among a hit's ``ranks``: ``{"bm25": 2, "knn:minilm": 1, "knn:mpnet": 4}``
    -> ``{"minilm": 1, "mpnet": 4}`` (``{}`` for a one-model search, whose list is ``knn``)."""
    return {k.removeprefix("knn:"): v for k, v in ranks.items() if k.startswith("knn:")}


EngineMaker = Callable[[GraphStore, SearchIndex], QueryEngine]
"""Makes a query engine over a graph and a search index (the stores of one request) with the models
loaded once: what :func:`engine_maker` returns."""


@dataclass(frozen=True, slots=True)
class DenseModel:
    """One model of an ensemble: ``name`` (``mpnet``), ``embed_query`` (query -> normalised vector of
    the model's size) and ``model_id``: the key its vectors are stored under
    (:func:`stores.embedding_format.model_vectors_key` of the embedder's id: model and embedding text
    format), ``None`` for the index's own model (the vectors on the chunks)."""

    name: str
    embed_query: Callable[[str], Sequence[float]]
    model_id: str | None = None


class EnsembleEngine(QueryEngine):
    """A :class:`QueryEngine` whose dense side is one kNN list per model (see the module docstring).
    ``models`` are asked in order; list names follow :func:`list_name`."""

    def __init__(self, graph: GraphStore, index: SearchIndex, models: Sequence[DenseModel], candidates: int = 50,
                 fusion: Mapping[str, Fusion] | None = None) -> None:
        super().__init__(graph, index, None, candidates, fusion)
        if not models:
            raise ValueError("an ensemble needs at least one model")
        self.models = tuple(models)
        # A weight the fusion gives the one-model engine's ``knn`` list goes to each model's list.
        self.fusion = {kind: f if "knn" not in f.weights else dataclasses.replace(
            f, weights={**{list_name(m.name): f.weights["knn"] for m in self.models}, **f.weights})
            for kind, f in self.fusion.items()}
        self._coverage: tuple[str | None, dict[str, int]] | None = None

    def coverage(self) -> dict[str, int]:
        """``{model name: chunks with a vector of it}``, cached until the index changes (``version_token``)."""
        token = getattr(self.index, "version_token", lambda: None)()  # a store without one: never cached
        if self._coverage is not None and token is not None and self._coverage[0] == token:
            return dict(self._coverage[1])
        counts = {m.name: self.index.chunk_count()["embedded"] if m.model_id is None else
                  self.index.model_chunk_count(m.model_id) for m in self.models}
        self._coverage = (token, counts)
        return dict(counts)

    def _dense_lists(self, query: str, filters: SearchFilters | None,
                     counts: Mapping[str, int]) -> dict[str, list[ScoredChunk]]:
        covered = self.coverage()
        lists: dict[str, list[ScoredChunk]] = {}
        for m in self.models:
            if not covered[m.name]:
                continue
            vector = m.embed_query(query)
            lists[list_name(m.name)] = (self.index.knn(vector, self.candidates, filters) if m.model_id is None else
                                        self.index.model_knn(m.model_id, vector, self.candidates, filters))
        return lists

    def search(self, query: str, limit: int = 10, filters: SearchFilters | None = None,
               tests: bool = False) -> SearchResult:
        """As :meth:`QueryEngine.search` (``tests``: test code first), with a note for each model that
        does not cover every chunk."""
        result = super().search(query, limit, filters, tests)
        notes = self.coverage_notes(result.chunks)
        return dataclasses.replace(result, notes=[*result.notes, *notes]) if notes else result

    def coverage_notes(self, chunks: int) -> list[str]:
        """A note for each model with a vector for fewer than ``chunks`` chunks (the index's count)."""
        covered = self.coverage()
        return [f"model {m.name}: {covered[m.name]:,} of {chunks:,} chunks embedded (run `ripple embed`)"
                for m in self.models if covered[m.name] < chunks]


def ensemble_engine(store: GraphStore, names: str | Sequence[str], index: SearchIndex | None = None,
                    model_name: str | None = None, models_folder: str | None = None) -> EnsembleEngine:
    """An :class:`EnsembleEngine` over ``store`` (and ``index``, default ``store``) ranking with the
    models ``names`` (``"minilm,mpnet"`` or a list; :data:`stores.local_models.LOCAL_MODELS`).
    ``minilm`` reads the vectors on the chunks unless ``model_name`` (``[embedding] model``) makes
    another model the index's own; ``models_folder`` is the configured model folder. Every model is
    loaded now (once per process): raises :class:`stores.embedder.ModelNotBuilt` for a model that
    is not built, :class:`stores.embedder.EmbedderError` for an unknown name or a model that cannot
    load."""
    if index is None:
        assert isinstance(store, SearchIndex), "a graph-only store needs its search index"
        index = store
    models = []
    for name in parse_model_names(names):
        embedder = _query_model(name, models_folder)
        own = name == BUNDLED_NAME and not model_name
        models.append(DenseModel(name, lambda q, e=embedder: e.embed([q])[0], None if own else model_vectors_key(embedder.model_id)))
    return EnsembleEngine(store, index, models)


@functools.lru_cache(maxsize=4)
def _query_model(name: str, folder: str | None) -> Embedder:
    # Loaded once per process, as retrieval's query embedder (a long-lived server reuses it).
    return open_model(name, folder)


def configured_engine(graph: GraphStore, index: SearchIndex, model: str | None = None, names: Sequence[str] = (),
                      models_folder: str | None = None) -> QueryEngine:
    """The search engine a front end answers with: an ensemble over the model names ``names``
    (``[search] models`` or a request's ``models``) when there are any, else the one-model
    :func:`analysis.retrieval.query_engine` with the index's model ``model`` (unchanged). Raises
    :class:`stores.embedder.EmbedderError` for an unknown name, a model that is not built (the message
    names ``ripple models build``) or one that cannot load."""
    if not names:
        return query_engine(graph, model, index)
    return ensemble_engine(graph, names, index, model, models_folder)


def engine_maker(graph: GraphStore, index: SearchIndex, model: str | None = None, names: Sequence[str] = (),
                 models_folder: str | None = None) -> tuple[EngineMaker | None, str | None]:
    """For a long-lived server: load the models of :func:`configured_engine` once and return ``(make,
    note)``, ``make(graph, index)`` building an engine over a request's (counted) stores. A configured
    ensemble that cannot load (a model not built) falls back to the index's one model with a ``note``
    naming the cause and its fix; when the index's own model cannot load either, ``make`` is ``None``
    (BM25 and names only) and the note says why. Never raises :class:`EmbedderError`."""
    note = None
    if names:
        try:
            built = ensemble_engine(graph, names, index, model, models_folder)
        except EmbedderError as exc:
            note = f"ensemble of {', '.join(names)} off ({exc}): ranking with the index's model"
        else:
            models = built.models
            return (lambda g, i: EnsembleEngine(g, i, models)), None
    try:
        embed = query_engine(graph, model, index).embed_query
    except EmbedderError as exc:
        return None, "; ".join(filter(None, [note, f"semantic search off ({exc}): BM25 only"]))
    return (lambda g, i: QueryEngine(g, i, embed)), note
