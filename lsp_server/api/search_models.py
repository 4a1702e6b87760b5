"""``GET /v1/search/models``: every embedding model the index can answer a search with.

A search ranks with the index's own model (the vectors on the chunks: the bundled MiniLM, or the
fastembed model of ``--model`` / ``[embedding] model``) and, in an ensemble (``[search] models`` or a
request's ``models``), with each other named local model (:data:`stores.local_models.LOCAL_MODELS`)
whose vectors the index keeps apart (:mod:`stores.model_vectors`, under
:func:`stores.embedding_format.model_vectors_key`: this build of the model and the current embedding
text format). The listing gives each: its search name, dimensions, whether it is built here, whether
it is configured, whether it embeds queries by default (``active``) and how many chunks have a
vector of it (``vectors``: 0 for a model not built, or for a backend that keeps no other model's
vectors, Elasticsearch).
"""

from __future__ import annotations

from typing import Any

from lsp_server.api.models import ModelInfo, ModelsResponse
from stores.embedder import DIM
from stores.embedding_format import model_vectors_key
from stores.errors import StoreError
from stores.local_models import BUNDLED_NAME, LOCAL_MODELS, is_built, local_model_id

__all__ = ["list_models"]


def list_models(search: Any, model: str | None, configured: tuple[str, ...] | list[str],
                models_folder: str | None) -> ModelsResponse:
    """The models of the index ``search`` (a :class:`stores.contracts.SearchIndex`): each local model
    (bundled MiniLM first, then those built by ``ripple models build``), then the index's fastembed
    ``model`` when one is set (``None``: the bundled one embeds queries); ``configured``: the
    ``[search] models`` names; ``models_folder``: ``[embedding] models_dir``. Raises what the store
    raises reading its counts (a store error of the per-model count alone counts as 0 vectors)."""
    counts = search.chunk_count()
    listed = []
    for name, local in LOCAL_MODELS.items():
        own = name == BUNDLED_NAME and model is None  # the index's own model: the vectors on the chunks
        built = is_built(name, models_folder)
        if own:
            vectors = counts["embedded"]
        else:
            model_id = local_model_id(name, models_folder) if built else None
            vectors = _model_vectors(search, model_id) if model_id else 0
        listed.append(ModelInfo(name=f"ripplegraph/{local.folder}", search_name=name, dimensions=local.dim,
                                bundled=local.bundled, active=own, built=built, configured=name in configured,
                                vectors=vectors))
    if model is not None:
        listed.append(ModelInfo(name=model, search_name=None, dimensions=DIM, bundled=False, active=True, built=True,
                                configured=False, vectors=counts["embedded"]))
    return ModelsResponse(models=listed, configured=list(configured), chunks=counts["chunks"],
                          embedded=counts["embedded"])


def _model_vectors(search: Any, model_id: str) -> int:
    try:
        return int(search.model_chunk_count(model_vectors_key(model_id)))
    except StoreError:  # a backend without per-model vectors (Elasticsearch): none
        return 0
