"""``ripple/indexStatus`` in front of a central index: every open folder reads the one index file that
``$RIPPLE_DB`` names, and each folder's counts are its own repository's, read from that repository's
rows (the whole store's counts took 45 s per request at 500 repositories and 11 million edges)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stores.embedded import EmbeddedStore
from tests.lsp.test_server import WORKSPACE, backend_env
from tests.lsp.test_team import session

pytestmark = pytest.mark.asyncio(loop_scope="function")


async def test_each_folder_counts_its_own_repository_of_the_central_index(tmp_path: Path):
    db = tmp_path / "central.db"
    env = {**backend_env("embedded"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    folders = []
    for name in ("petclinic", "client"):
        ws = tmp_path / name
        shutil.copytree(WORKSPACE / name, ws)
        subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(ws), "--db", str(db), "--no-embed"],
                       env=env, check=True, capture_output=True, timeout=180)
        folders.append(ws)
    store = EmbeddedStore(db)
    try:
        own = {name: store.repository_counts(name) for name in ("petclinic", "client")}
        whole = store.stats()
    finally:
        store.close()
    assert {name: c["files"] for name, c in own.items()} == {"petclinic": 3, "client": 3}
    assert sum(whole["files"].values()) == 6

    client = await session({**env, "RIPPLE_DB": str(db), "RIPPLE_SERVER_INDEX_WORKSPACE": "false"}, folders)
    try:
        status = await client.protocol.send_request_async("ripple/indexStatus", {})
        answer = {f.repo: (f.state, f.files, f.nodes) for f in status.folders}
    finally:
        await client.shutdown_session()
        await client.stop()
    assert answer == {"petclinic": ("ready", 3, own["petclinic"]["nodes"]),
                      "client": ("ready", 3, own["client"]["nodes"])}
    # Not the whole file's counts, which each folder used to report.
    assert own["petclinic"]["nodes"] + own["client"]["nodes"] <= sum(whole["nodes"].values())
    assert all(nodes < sum(whole["nodes"].values()) for _, _, nodes in answer.values())
