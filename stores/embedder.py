"""Text embeddings for dense retrieval: the bundled int8 all-MiniLM-L6-v2, run by fastembed, offline.

The model ships inside this package (``stores/model/all-MiniLM-L6-v2-int8/``: ONNX, int8 per-channel
dynamic quantisation, tokenizer truncating at 256 tokens; built by ``tools/build_embedding_model.py``,
checksums in its ``SHA256SUMS``). fastembed loads it from that folder through
``TextEmbedding.add_custom_model`` + ``specific_model_path``, with mean pooling over the attention
mask and L2 normalisation, which is what sentence-transformers does for this model: vectors agree with
the fp32 original to a mean cosine of about 0.994.

Nothing is downloaded at run time. Every model is opened with ``local_files_only=True``: a model
named in configuration (any fastembed text model of 384 dimensions) must already be in fastembed's
cache (``cache_dir``, else ``FASTEMBED_CACHE_PATH``, else fastembed's default); when it is not, the
constructor raises :class:`EmbedderError` instead of reaching the network.

Note on dynamic quantisation: activations are quantised per tensor at run time, over the whole
batch, so a text's vector depends a little on the other texts of its batch (measured on Django
functions: mean cosine 0.994, min 0.984 between a text embedded in a length-sorted batch of 16 and
alone). Fidelity to the fp32 model is the same either way (mean cosine 0.994 at batch 1 and 16).
Compare vectors by cosine, never for equality across batches.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from stores.lazy_import import LazyModule

if TYPE_CHECKING:
    import numpy as np
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)

__all__ = [
    "MODEL_ENV",
    "Embedder",
    "bundled_model_digest",
    "EmbedderError",
    "ModelNotBuilt",
    "LocalFolder",
    "model_digest",
    "BUNDLED_MODEL",
    "BUNDLED_MODEL_DIR",
    "DIM",
    "MAX_TOKENS",
    "DEFAULT_BATCH",
]

MODEL_ENV = "RIPPLE_EMBEDDING_MODEL"
"""Environment variable naming a fastembed model to use instead of the bundled one."""

BUNDLED_MODEL = "ripplegraph/all-MiniLM-L6-v2-int8"
"""fastembed name under which the bundled model is registered (``org/name`` as fastembed wants)."""

BUNDLED_MODEL_DIR = Path(__file__).resolve().parent / "model" / "all-MiniLM-L6-v2-int8"
"""The folder holding the bundled model files and their SHA256SUMS."""

DIM = 384
"""Dimensions of every vector this module returns (the index stores 384-d embeddings)."""

MAX_TOKENS = 256
"""Inputs are truncated at this many WordPiece tokens, ``[CLS]`` and ``[SEP]`` included."""

DEFAULT_BATCH = 8
"""Texts per model call. Small length-sorted batches are the fastest on these machines, and the
model's activations grow with the batch: a cold ``ripple index`` of Flask 3.1.3 (2,173 chunks
embedded) peaks at 379 MiB with 8 against 454 MiB with 16, in the same wall and CPU time
(docs/benchmarks.md, "Embedding batch size")."""

_register_lock = threading.Lock()


class EmbedderError(RuntimeError):
    """The embedding model cannot be opened (missing or damaged files, a model not in the local
    cache, wrong dimensions) or failed on its input; the message says which and how to fix it."""


class ModelNotBuilt(EmbedderError):
    """A model built locally (``ripple models build NAME``) is not in its folder; the message names
    the folder and the command."""


def _register_bundled_model() -> None:
    """Register the bundled model with fastembed once per process (fastembed refuses duplicates)."""
    _register(BUNDLED_MODEL, DIM, "sentence-transformers/all-MiniLM-L6-v2, ONNX int8 per-channel, 256 tokens (bundled)",
              0.023)


def _register(name: str, dim: int, description: str, size_in_gb: float) -> None:
    """Register a model read from a local folder with fastembed under ``name``, once per process."""
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    with _register_lock:
        if any(m["model"].lower() == name.lower() for m in TextEmbedding.list_supported_models()):
            return
        TextEmbedding.add_custom_model(
            model=name,
            pooling=PoolingType.MEAN,
            normalization=True,
            # A name only: the files are always read from the model's folder (specific_model_path),
            # and no repository of that name exists, so no code path could fetch a different model.
            sources=ModelSource(hf=name),
            dim=dim,
            model_file="model.onnx",
            description=description,
            license="apache-2.0",
            size_in_gb=size_in_gb,
            output_name="last_hidden_state",
        )


@dataclass(frozen=True, slots=True)
class LocalFolder:
    """A model built into a folder of its own (``tools/build_embedding_model.py``'s outputs): ``name``
    registers it with fastembed (``ripplegraph/<folder>``), ``path`` holds ``model.onnx``, the tokenizer
    files and ``SHA256SUMS``, ``dim`` its vector size; ``missing`` is the message of the
    :class:`ModelNotBuilt` raised when the folder is incomplete (it names the command that builds it)."""

    name: str
    path: Path
    dim: int
    description: str
    size_in_gb: float
    missing: str


def bundled_model_digest() -> str:
    """First 12 hex digits of ``model.onnx``'s SHA-256, read from SHA256SUMS (names the model version)."""
    return model_digest(BUNDLED_MODEL_DIR, "reinstall ripplegraph")


def model_digest(folder: Path, fix: str) -> str:
    """First 12 hex digits of ``folder/model.onnx``'s SHA-256 as its ``SHA256SUMS`` lists it. Raises
    :class:`EmbedderError` (ending with ``fix``) when that file cannot be read or has no such line."""
    sums = folder / "SHA256SUMS"
    try:
        for line in sums.read_text(encoding="utf-8").splitlines():
            digest, _, name = line.partition("  ")
            if name == "model.onnx":
                return digest[:12]
    except OSError as exc:
        raise EmbedderError(f"embedding model is incomplete: cannot read {sums} ({exc}); {fix}") from exc
    raise EmbedderError(f"{sums} has no entry for model.onnx; {fix}")


class Embedder:
    """Sentence embeddings for chunks and queries: ``embed(texts)`` -> float32 ``(n, 384)``, unit L2 norm.

    ``model_name=None`` (the default) uses the bundled int8 all-MiniLM-L6-v2 from the package folder.
    Any other value names a fastembed text model that is already in fastembed's cache (``cache_dir``
    or ``FASTEMBED_CACHE_PATH``); it must produce 384-d vectors. Nothing is ever downloaded.

    ``threads`` caps onnxruntime's intra-op threads (``None``: onnxruntime's default, all cores).
    ``model_id`` names the model and, for the bundled one, its exact build (digest of model.onnx):
    the index stores it with the vectors, so vectors of another model are never mixed in.

    Raises :class:`EmbedderError` when the model cannot be opened. Not thread-safe for concurrent
    ``embed`` calls on one instance (one onnxruntime session); use one instance per thread.
    """

    def __init__(self, model_name: str | None = None, *, cache_dir: str | Path | None = None, threads: int | None = None,
                 folder: LocalFolder | None = None) -> None:
        try:
            from fastembed import TextEmbedding
        except ImportError as exc:  # pragma: no cover - fastembed is a dependency
            raise EmbedderError("fastembed is not installed: pip install 'fastembed==0.9.1'") from exc

        self.model_name = folder.name if folder is not None else (model_name or BUNDLED_MODEL)
        self._dim = folder.dim if folder is not None else DIM
        kwargs: dict[str, object] = {"local_files_only": True, "threads": threads}
        if cache_dir is not None:
            kwargs["cache_dir"] = str(cache_dir)
        if folder is not None:
            missing = [f for f in ("model.onnx", "tokenizer.json", "tokenizer_config.json", "config.json", "SHA256SUMS")
                       if not (folder.path / f).is_file()]
            if missing:
                raise ModelNotBuilt(f"{folder.missing} ({', '.join(missing)} missing under {folder.path})")
            _register(folder.name, folder.dim, folder.description, folder.size_in_gb)
            kwargs["specific_model_path"] = str(folder.path)
            self.model_id = f"{folder.name}@{model_digest(folder.path, folder.missing)}"
        elif model_name is None:
            missing = [f for f in ("model.onnx", "tokenizer.json", "tokenizer_config.json", "config.json")
                       if not (BUNDLED_MODEL_DIR / f).is_file()]
            if missing:
                raise EmbedderError(
                    f"bundled embedding model is incomplete: {', '.join(missing)} missing under {BUNDLED_MODEL_DIR}; "
                    "reinstall ripplegraph (or rebuild it with tools/build_embedding_model.py)"
                )
            _register_bundled_model()
            kwargs["specific_model_path"] = str(BUNDLED_MODEL_DIR)
            self.model_id = f"{BUNDLED_MODEL}@{bundled_model_digest()}"
        else:
            self.model_id = f"fastembed:{model_name}"
        try:
            self._model = TextEmbedding(model_name=self.model_name, **kwargs)
        except Exception as exc:
            if folder is not None:
                raise EmbedderError(f"cannot load the embedding model {folder.name} from {folder.path}: {exc}; "
                                    f"{folder.missing}") from exc
            if model_name is None:
                raise EmbedderError(f"cannot load the bundled embedding model from {BUNDLED_MODEL_DIR}: {exc}") from exc
            raise EmbedderError(
                f"cannot load fastembed model {model_name!r} offline: {exc}. Models are never downloaded at run "
                "time: put it in fastembed's cache first (FASTEMBED_CACHE_PATH, or the configured cache_dir), "
                "or remove the setting to use the bundled all-MiniLM-L6-v2"
            ) from exc
        dim = self._model.embedding_size
        if dim != self._dim and folder is None:
            raise EmbedderError(f"fastembed model {model_name!r} gives {dim}-d vectors; the index stores {DIM}-d vectors")
        if dim != self._dim:
            raise EmbedderError(f"model {folder.name!r} in {folder.path} gives {dim}-d vectors, not {folder.dim}; "
                                f"{folder.missing}")

    @property
    def dim(self) -> int:
        """Vector dimensions (384, but for a :class:`LocalFolder` model of another size)."""
        return self._dim

    def embed(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH) -> np.ndarray:
        """Embed ``texts``; returns float32 ``(len(texts), dim)``, row ``i`` for ``texts[i]``, each row of
        L2 norm 1 (cosine similarity is a dot product). Texts longer than 256 tokens are truncated
        (their tail does not count; a :class:`LocalFolder` model: at its own limit). Batches are formed over texts sorted by length, so padding is
        small whatever the input order. An empty ``texts`` gives shape ``(0, dim)``.

        Raises :class:`ValueError` for ``batch_size < 1`` or a non-string item, :class:`EmbedderError`
        when the model fails."""
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        texts = list(texts)
        for t in texts:
            if not isinstance(t, str):
                raise ValueError(f"texts must be strings, got {type(t).__name__}")
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        if not texts:
            return out
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        try:
            vectors = self._model.embed([texts[i] for i in order], batch_size=batch_size)
            for row, vec in zip(order, vectors, strict=True):
                out[row] = vec
        except Exception as exc:
            raise EmbedderError(f"embedding model {self.model_name!r} failed: {exc}") from exc
        return out

    def __repr__(self) -> str:
        return f"Embedder(model_id={self.model_id!r})"
