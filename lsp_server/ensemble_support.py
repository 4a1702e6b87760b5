"""The additional models of an ensemble (``[search] models``) for every front end that writes vectors.

An ensemble search (:mod:`analysis.ensemble`) reads one kNN list per model; the index's own model
(the bundled MiniLM unless ``[embedding] model`` names another) keeps its vectors on the chunks, every
other model of ``[search] models`` keeps its own (:mod:`stores.model_vectors`). Whoever embeds new or
changed chunks must therefore embed them with each of those models too: ``ripple index`` / ``ripple
embed`` (:mod:`lsp_server.cli_embed`), ``ripple watch``, the language server's embedding thread, the
REST server's ingest jobs and ``ripple index --all``. :class:`ExtraModels` is what they share: the
models are loaded on first use, once; a model that cannot load (not built: the message names ``ripple
models build``) is reported once through ``on_error`` and left out, costing its vectors only, never the
caller's run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from indexer.embedding import EmbedReport, TextEmbedder, embed_pending_model
from stores.embedder import EmbedderError
from stores.local_models import BUNDLED_NAME, open_model

__all__ = ["ExtraModels", "extra_model_names"]


def extra_model_names(names: Sequence[str], model: str | None) -> list[str]:
    """The models of ``names`` whose vectors are kept apart: all but the index's own (``minilm`` while
    ``model``, the index's fastembed model, is unset). ``["minilm", "mpnet"], None -> ["mpnet"]``."""
    return [n for n in names if not (n == BUNDLED_NAME and not model)]


class ExtraModels:
    """The additional models of ``names`` (:func:`extra_model_names` with the index's ``model``), read
    from ``folder`` (``[embedding] models_dir``; ``None``: the default folder). ``wrap`` wraps each
    loaded embedder (the language server's stoppable one); ``on_error(name, message)`` hears once
    of each model that cannot load. ``open_fn`` opens a model by name (tests pass a fake)."""

    def __init__(self, names: Sequence[str], model: str | None = None, folder: str | Path | None = None, *,
                 wrap: Callable[[Any], TextEmbedder] | None = None,
                 on_error: Callable[[str, str], None] | None = None,
                 open_fn: Callable[[str, str | Path | None], Any] = open_model) -> None:
        self.names = extra_model_names(names, model)
        self.folder = folder
        self.errors: dict[str, str] = {}
        """``{name: why it cannot load}`` of the models left out."""
        self._wrap = wrap
        self._on_error = on_error
        self._open = open_fn
        self._loaded: dict[str, TextEmbedder] | None = None

    def __bool__(self) -> bool:
        return bool(self.names)

    def embedders(self) -> dict[str, TextEmbedder]:
        """``{name: embedder}`` of the models that load (loaded on the first call, then reused)."""
        if self._loaded is None:
            self._loaded = {}
            for name in self.names:
                try:
                    embedder = self._open(name, self.folder)
                except EmbedderError as exc:
                    self.errors[name] = str(exc)
                    if self._on_error is not None:
                        self._on_error(name, str(exc))
                    continue
                self._loaded[name] = self._wrap(embedder) if self._wrap is not None else embedder
        return self._loaded

    def embed(self, index: Any, progress: Any = None) -> dict[str, EmbedReport]:
        """Embed every chunk of ``index`` that has no vector of each loaded model yet
        (:func:`indexer.embedding.embed_pending_model`); ``{name: report}``. Raises what the store or
        an embedder raises while embedding (vectors already written stay)."""
        return {name: embed_pending_model(index, embedder, progress) for name, embedder in self.embedders().items()}

    def embed_summary(self, index: Any, progress: Any = None) -> dict[str, Any]:
        """:meth:`embed`, summarised for a JSON answer: ``{name: {model, embedded, reused, seconds,
        chunks_per_s}}``, and ``{name: {skipped: why}}`` for each model that cannot load."""
        reports = self.embed(index, progress)
        loaded = self.embedders()
        return {**{name: {"skipped": why} for name, why in self.errors.items()},
                **{name: {"model": loaded[name].model_id, "embedded": r.embedded, "reused": r.reused,
                          "seconds": round(r.seconds, 2), "chunks_per_s": round(r.chunks_per_s, 1)}
                   for name, r in reports.items()}}
