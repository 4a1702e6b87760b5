"""``ripple index --embed=background`` and the embedding lock (:mod:`lsp_server.cli_embed`): the command
returns once the graph and BM25 answer, a detached worker embeds (one process per index at a time),
a worker killed with SIGKILL leaves no lock behind, and ``ripple embed`` finishes what it left."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from click.testing import CliRunner

from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from stores.factory import embed_lock

FILES = {
    "shop/__init__.py": "",
    "shop/shipping.py": "def shipping_cost(weight, country):\n    return weight * (4.5 if country == 'FR' else 9.0)\n\n\n"
                        "def delivery_days(country):\n    return 2 if country == 'FR' else 7\n",
    "shop/cart.py": "from shop.shipping import shipping_cost\n\n\nclass Cart:\n    def __init__(self):\n"
                    "        self.items = []\n\n    def total(self, country):\n        return shipping_cost(len(self.items), country)\n",
}


def _tree(tmp: Path) -> tuple[Path, Path]:
    src = tmp / "src"
    for rel, text in FILES.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    return src, tmp / "index.db"


def _ripple(*args: str) -> dict:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _counts(db: Path) -> dict[str, int]:
    store = EmbeddedStore(db)
    try:
        return store.chunk_count()
    finally:
        store.close()


def _wait_embedded(db: Path, timeout: float = 240.0) -> dict[str, int]:
    deadline = time.monotonic() + timeout
    while True:
        counts = _counts(db)
        if counts["embedded"] == counts["chunks"] or time.monotonic() > deadline:
            return counts
        time.sleep(0.5)


def _wait_gone(pid: int, timeout: float = 60.0) -> None:
    """Until process ``pid`` (no child of this one) has exited (or is a zombie nobody reaped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.2)
    raise AssertionError(f"process {pid} still runs")


def test_one_process_embeds_at_a_time(tmp_path: Path) -> None:
    src, db = _tree(tmp_path)
    _ripple("index", str(src), "--db", str(db), "--no-embed", "--json")
    chunks = _counts(db)["chunks"]
    assert chunks >= 5
    held = embed_lock(db)
    held.acquire(timeout=0)
    try:
        busy = _ripple("embed", "--db", str(db), "--json")
        assert (busy["skipped"], busy["embedded"]) == ("busy", 0)
        indexed = _ripple("index", str(src), "--db", str(db), "--json")  # foreground phase: also leaves it
        assert indexed["embeddings"] == {"skipped": "busy"}
        background = _ripple("index", str(src), "--db", str(db), "--embed=background", "--json")
        assert background["embeddings"] == {"skipped": "busy"}  # no second worker is started
    finally:
        held.release()
    before = _ripple("repos", "list", "--db", str(db), "--json")
    done = _ripple("embed", "--db", str(db), "--json")
    assert (done["embedded"] + done["reused"], done["chunks"]) == (chunks, chunks)
    # The registry's vector count follows `ripple embed` (doctor and `repos list` showed 0 before).
    after = _ripple("repos", "list", "--db", str(db), "--json")
    assert [(r["key"], r["counts"]["chunks"], r["counts"]["vectors"]) for r in before["repositories"]] == [
        ("src", chunks, 0)]
    assert [(r["key"], r["counts"]["chunks"], r["counts"]["vectors"]) for r in after["repositories"]] == [
        ("src", chunks, chunks)]


def test_background_worker_embeds_detached_and_a_killed_one_is_resumed(tmp_path: Path) -> None:
    src, db = _tree(tmp_path)
    report = _ripple("index", str(src), "--db", str(db), "--embed=background", "--json")
    pid = report["embeddings"]["background"]
    try:  # detached: no child of this process
        os.waitpid(pid, os.WNOHANG)
        raise AssertionError("the worker is a child of the indexing process")
    except ChildProcessError:
        pass
    assert report["files_written"] == 3 and report["chunks"] == _counts(db)["chunks"]
    assert Path(report["embeddings"]["log"]) == db.with_name("index.db.embed.log")
    counts = _wait_embedded(db)
    assert counts["embedded"] == counts["chunks"], db.with_name("index.db.embed.log").read_text()
    found = _ripple("search", "shipping cost by country", "--db", str(db), "--json")
    assert found["embedded"] == counts["chunks"]
    _wait_gone(pid)

    # Another tree's worst case: the worker is killed at once; its lock dies with it.
    (src / "shop" / "tax.py").write_text("def vat(amount):\n    return amount * 0.2\n", encoding="utf-8")
    other_db = tmp_path / "other.db"
    report = _ripple("index", str(src), "--db", str(other_db), "--embed=background", "--json")
    pid = report["embeddings"]["background"]
    os.kill(pid, signal.SIGKILL)
    _wait_gone(pid)
    lock = embed_lock(other_db)
    lock.acquire(timeout=0)  # free again
    lock.release()
    done = _ripple("embed", "--db", str(other_db), "--json")
    assert done["embedded"] == done["chunks"] > counts["chunks"]
