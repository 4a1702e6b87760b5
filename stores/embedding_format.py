"""What a stored vector was computed from: the model id and the embedding text format, for every model.

A vector depends on the model and on the exact text the model read: :func:`indexer.chunk_context.embedding_text`
(a contextual header, then the chunk's source), whose format is :data:`EMBEDDING_TEXT_FORMAT`. The index's own
model records both with its vectors (:func:`embedding_record`, ``set_embedding_model``: vectors of another
record are all dropped). The additional models of an ensemble (:mod:`stores.model_vectors`) key their
vectors by the same record (:func:`model_vectors_key`), so a new header format never reuses a vector
computed from the old text: rows under another format or another build of the model are pruned by the
next embedding pass (:func:`model_vectors_prefix`) and every text is embedded again.

Here, below the indexer and the analysis layer, because both need it: the indexer writes the vectors,
the ensemble engine reads them under the same key.
"""

from __future__ import annotations

__all__ = ["EMBEDDING_TEXT_FORMAT", "embedding_record", "model_vectors_key", "model_vectors_prefix"]

EMBEDDING_TEXT_FORMAT = "ctx1"
"""Version of :func:`indexer.chunk_context.embedding_text`'s format. Change it with the format: indexes
embedded under another value are re-embedded in full, with every model (see :func:`embedding_record`)."""


def embedding_record(model_id: str) -> str:
    """What an index records as its vectors' origin (``set_embedding_model``): the model id, a space,
    then ``text=`` and :data:`EMBEDDING_TEXT_FORMAT` (``ripplegraph/all-MiniLM-L6-v2-int8@dea33b00e097
    text=ctx1``). Model ids hold no space, so the model is the record's part before the first space."""
    return f"{model_id} text={EMBEDDING_TEXT_FORMAT}"


def model_vectors_key(model_id: str) -> str:
    """The key an additional model's vectors are stored and searched under
    (:meth:`stores.contracts.SearchIndex.set_model_embeddings`, ``model_knn``, ``model_chunk_count``):
    :func:`embedding_record` of ``model_id``, so the text format is part of it."""
    return embedding_record(model_id)


def model_vectors_prefix(model_id: str) -> str:
    """The prefix shared by every key of this model's vectors whatever its build and text format
    (``name@`` of ``name@digest``; the whole id and a space for an id without a digest): what
    ``prune_model_vectors(key, keep_prefix=...)`` drops besides the current key."""
    name, at, _ = model_id.partition("@")
    return f"{name}@" if at else f"{model_id} "
