"""A second local embedding model for the ensemble tests: the bundled MiniLM under another name.

``mini2`` is registered in :data:`stores.local_models.LOCAL_MODELS` as a locally built model (like
``mpnet``) whose folder holds links to the bundled model's files: a real, deterministic model that
loads in a second, stores its vectors apart under its own id (``ripplegraph/mini2-int8@<digest>``) and
ranks exactly as MiniLM does, so a test knows each hit's rank in ``knn:mini2`` (that of ``knn:minilm``).
In-process tests register it with ``monkeypatch`` (:func:`install` + :func:`entry`); a server started
as a subprocess registers it through :data:`LAUNCH` (``python -c LAUNCH serve``).
"""

from __future__ import annotations

from pathlib import Path

from stores.embedder import BUNDLED_MODEL_DIR, DIM
from stores.local_models import LOCAL_MODELS, LocalModel

NAME = "mini2"
FOLDER = "mini2-int8"

LAUNCH = ("import sys; from tests.ensemble_fake import register; register(); "
          "from lsp_server.cli import main; main(sys.argv[1:], prog_name='ripple')")
"""``python -c LAUNCH ARGS...``: the ``ripple`` command line with :data:`NAME` registered (the child's
``PYTHONPATH`` must hold the repository root, its ``RIPPLE_MODELS_DIR`` a folder :func:`install` filled)."""


def entry() -> LocalModel:
    """The :class:`LocalModel` of :data:`NAME`."""
    return LocalModel(NAME, FOLDER, DIM, False, "bundled MiniLM under a second name (tests)", 23)


def install(models_dir: Path) -> Path:
    """Link the bundled model's files into ``models_dir/FOLDER``; returns that folder."""
    folder = models_dir / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for f in BUNDLED_MODEL_DIR.iterdir():
        if not (folder / f.name).exists():
            (folder / f.name).symlink_to(f)
    return folder


def register() -> None:
    """Add :data:`NAME` to the known models of this process (a subprocess server's launcher)."""
    LOCAL_MODELS[NAME] = entry()  # type: ignore[index]
