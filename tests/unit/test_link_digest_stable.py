"""The link options' digests (:func:`indexer.state_records.link_digests`) are the same in every process.

``LinkOptions`` holds sets (``manifests``, the Kubernetes manifests of the service map; ``gateway_inputs``, the
nginx files the gateway routes were read from). Their ``repr`` follows the string hashes, which Python
randomises per process (``PYTHONHASHSEED``): two one-shot runs over an unchanged repository then disagreed on
the link stamp and the second bound every file again (Django: an unchanged `ripple index` took 100 s instead of
about 5). Each run below is a new process with its own hash seed, as two `ripple index` commands are."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.resolution_harness import write_tree

ROOT = Path(__file__).resolve().parents[2]

# Seeds under which the old digest (a plain repr of the frozensets) differed for the sets below.
SEEDS = ("1", "2", "3", "4")

_DIGEST = """
import sys
from indexer.frameworks.link import LinkOptions
from indexer.state_records import link_digests
paths = [f"deploy/k8s/svc{i}.yaml" for i in range(12)]
opts = LinkOptions(manifests=frozenset(paths[:int(sys.argv[1])]),
                   gateway_inputs=frozenset(f"nginx/site{i}.conf" for i in range(8)))
print(*link_digests(opts))
"""


def _digests(seed: str, manifests: int = 12) -> tuple[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _DIGEST, str(manifests)], env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    return out[0], out[1]


def test_the_digests_of_options_holding_sets_are_the_same_under_every_hash_seed():
    first = _digests(SEEDS[0])
    assert all(_digests(seed) == first for seed in SEEDS[1:])
    # the digest still tells a change: one manifest fewer
    changed = _digests(SEEDS[1], manifests=11)
    assert changed[0] != first[0] and changed[1] != first[1]


NGINX = "server {{\n    listen 80;\n    location /api/{name}/ {{ proxy_pass http://{name}:8080/; }}\n}}\n"
TREE = {
    **{f"gateway/conf.d/{name}.conf": NGINX.format(name=name) for name in ("cart", "orders", "users", "search",
                                                                          "billing", "audit")},
    "web/app.js": "function cart() { return fetch('/api/cart/items'); }\n",
    "cart/server.js": "const express = require('express');\nconst app = express();\n"
                      "app.get('/items', (req, res) => res.send('ok'));\napp.listen(8080);\n",
    "cart/package.json": '{"name": "cart", "dependencies": {"express": "4"}}',
}


def _index(root: Path, db: Path, cache: Path, seed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(root), "--db", str(db), "--no-embed",
                           "--json"], env=env, capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout)


def test_an_unchanged_repository_with_several_nginx_files_is_not_bound_again(tmp_path):
    root = tmp_path / "shop"
    write_tree(root, TREE)
    db, cache = tmp_path / "index.db", tmp_path / "cache"
    cold = _index(root, db, cache, SEEDS[0])
    assert (cold["files_changed"], cold["files_resolved"]) == (2, 2)  # the two scripts; the nginx files are link inputs
    for seed in SEEDS[1:]:
        again = _index(root, db, cache, seed)
        assert (again["files_changed"], again["files_resolved"], again["files_written"]) == (0, 0, 0)
    # and an edit is still seen: one file changed, bound and written
    (root / "web/app.js").write_text("function cart() { return fetch('/api/cart/items?all=1'); }\n")
    edited = _index(root, db, cache, SEEDS[1])
    assert (edited["files_changed"], edited["files_written"]) == (1, 1)
