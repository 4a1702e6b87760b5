"""The bundled embedding model: files intact, vectors close to the fp32 original, offline only."""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path

import numpy as np
import pytest

from stores.embedder import BUNDLED_MODEL_DIR, DIM, MAX_TOKENS, Embedder, EmbedderError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "embedding"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def test_sha256sums_match_the_files_on_disk() -> None:
    lines = (BUNDLED_MODEL_DIR / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    listed = {}
    for line in lines:
        digest, name = line.split("  ", 1)
        listed[name] = digest
    on_disk = {p.name for p in BUNDLED_MODEL_DIR.iterdir() if p.is_file() and p.name != "SHA256SUMS"}
    assert set(listed) == on_disk
    assert {"model.onnx", "tokenizer.json", "tokenizer_config.json", "config.json", "special_tokens_map.json"} <= on_disk
    for name, digest in listed.items():
        assert hashlib.sha256((BUNDLED_MODEL_DIR / name).read_bytes()).hexdigest() == digest, name


def test_tokenizer_config_truncates_at_256_tokens() -> None:
    cfg = json.loads((BUNDLED_MODEL_DIR / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert cfg["model_max_length"] == MAX_TOKENS == 256
    tok = json.loads((BUNDLED_MODEL_DIR / "tokenizer.json").read_text(encoding="utf-8"))
    assert tok["truncation"]["max_length"] == 256


def test_embeddings_are_float32_unit_vectors_in_input_order(embedder: Embedder) -> None:
    texts = ["def add(a, b):\n    return a + b", "", "a much longer text " * 20, "x"]
    vecs = embedder.embed(texts, batch_size=2)
    assert vecs.shape == (4, DIM) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    # Row i belongs to texts[i] although batches are formed by length (alone, a text's int8 vector
    # differs a little from its vector in a batch: activations are quantised per batch).
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    similarity = vecs @ alone.T
    assert list(similarity.argmax(axis=1)) == [0, 1, 2, 3]
    assert similarity.diagonal().min() > 0.97
    assert embedder.embed([]).shape == (0, DIM)
    assert embedder.model_id.startswith("ripplegraph/all-MiniLM-L6-v2-int8@")


def test_bad_arguments_are_refused(embedder: Embedder) -> None:
    with pytest.raises(ValueError):
        embedder.embed(["a"], batch_size=0)
    with pytest.raises(ValueError):
        embedder.embed([b"bytes"])  # type: ignore[list-item]


def test_int8_model_agrees_with_fp32_sentence_transformers(embedder: Embedder) -> None:
    texts = json.loads((FIXTURES / "reference_texts.json").read_text(encoding="utf-8"))
    reference = np.load(FIXTURES / "reference_fp32.npy")
    assert reference.shape == (len(texts), DIM) and len(texts) >= 20
    cosines = (embedder.embed(texts) * reference).sum(axis=1)
    assert cosines.mean() >= 0.99, cosines
    assert cosines.min() >= 0.98, cosines


def test_long_input_is_truncated_at_256_tokens(embedder: Embedder) -> None:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(BUNDLED_MODEL_DIR / "tokenizer.json"))
    tok.no_truncation()
    words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "and", "runs", "away", "home"]
    assert all(len(tok.encode(w, add_special_tokens=False).ids) == 1 for w in words)
    long_words = [words[i % len(words)] for i in range(600)]
    long_text = " ".join(long_words)
    head_text = " ".join(long_words[: MAX_TOKENS - 2])  # [CLS] + 254 words + [SEP] = 256 tokens
    assert len(tok.encode(long_text).ids) == 602 and len(tok.encode(head_text).ids) == 256
    long_vec, head_vec = embedder.embed([long_text])[0], embedder.embed([head_text])[0]
    np.testing.assert_array_equal(long_vec, head_vec)
    shorter = embedder.embed([" ".join(long_words[:200])])[0]
    assert not np.array_equal(shorter, head_vec)  # the limit is 256, not less


def test_works_with_the_network_blocked_and_never_downloads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network blocked by test")

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("FASTEMBED_CACHE_PATH", str(tmp_path / "fastembed-cache"))
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)

    vecs = Embedder().embed(["def main():\n    run_server(port=8080)"])
    assert vecs.shape == (1, DIM)

    # A configured fastembed model that is not in the (empty) cache fails loudly, without reaching out.
    with pytest.raises(EmbedderError, match="never downloaded"):
        Embedder("BAAI/bge-small-en-v1.5", cache_dir=tmp_path / "empty-cache")
    with pytest.raises(EmbedderError, match="not supported"):
        Embedder("no-such/model")
    assert attempts == []
