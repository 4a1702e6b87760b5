#!/usr/bin/env python3
"""Cost of reading hostile nginx configurations into gateway routes (``load_nginx_routes``).

What it does
------------
Generates, in a temporary folder, one repository per shape below (a compose file naming the
services, one nginx configuration), reads each with
:func:`indexer.frameworks.nginx_config.load_nginx_routes` ``--runs`` times in this process, and
prints one line per shape: the file's size, the routes and skips read, and the median and range of
the CPU time (``time.process_time``) per read, ``--runs`` reads.

* ``stops``: one server of ``N`` ``location ^~ /sI/`` and ``N`` ordinary ``location /sI/x/``
  (``--locations N``, default 10,000: 470 KB), each ``^~`` needing the longer prefixes that start it
  (brk63: 7.3 s of CPU per read, every ``^~`` compared with every prefix);
* ``wide_stop``: one ``location ^~ /`` and ``N`` ordinary prefixes, all longer and starting with it;
* ``regexes``: ``N`` expression locations ``~ ^/rI/(\\d+)$``.

The locations forward nothing (empty blocks) but the ``^~ /`` one: the cost measured is reading
and ordering them, which does not depend on where they forward.

Run it from the tree to measure (``PYTHONPATH`` picks the code), side by side with another:

    PYTHONPATH=/work/wt/brk63 python bench/nginx_routes.py --runs 5
    PYTHONPATH=/tmp/base python bench/nginx_routes.py --runs 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path


def _shapes(n: int) -> dict[str, str]:
    stops = "".join(f"location ^~ /s{i}/ {{ }}\n" for i in range(n))
    stops += "".join(f"location /s{i}/x/ {{ }}\n" for i in range(n))
    wide = "location ^~ / { proxy_pass http://api/; }\n" + "".join(f"location /w{i}/ {{ }}\n" for i in range(n))
    regexes = "".join(f"location ~ ^/r{i}/(\\d+)$ {{ }}\n" for i in range(n))
    return {name: "server {\n" + body + "}\n" for name, body in (("stops", stops), ("wide_stop", wide),
                                                                  ("regexes", regexes))}


def main(argv: list[str] | None = None) -> int:
    """Print one line per shape (see the module docstring); returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="reads per shape (the median is printed)")
    ap.add_argument("--locations", type=int, default=10_000, help="locations of each kind per shape")
    args = ap.parse_args(argv)
    from indexer.frameworks import nginx_config
    from indexer.frameworks.services import service_map

    print(f"code: {Path(nginx_config.__file__).resolve()}")
    with tempfile.TemporaryDirectory(prefix="ripple-nginx-bench-") as tmp:
        for name, text in _shapes(args.locations).items():
            root = Path(tmp) / name
            (root / "proxy").mkdir(parents=True)
            (root / "api").mkdir()
            (root / "compose.yaml").write_text("services:\n  api:\n    build: api\n  proxy:\n    build: proxy\n")
            (root / "api" / "Dockerfile").write_text("FROM python:3.12\n")
            (root / "proxy" / "nginx.conf").write_text(text)
            found = service_map(root)
            times = []
            loaded = None
            for _ in range(args.runs):
                t0 = time.process_time()
                loaded = nginx_config.load_nginx_routes(str(root), found, {})
                times.append(time.process_time() - t0)
            assert loaded is not None
            print(f"{name:10s} {len(text.encode()):>9,} B  routes {len(loaded.routes):>5,}  skipped {len(loaded.skipped)}  "
                  f"cpu median {statistics.median(times):7.3f} s  ({min(times):.3f}-{max(times):.3f}, {args.runs} reads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
