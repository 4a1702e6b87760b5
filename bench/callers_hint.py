#!/usr/bin/env python3
"""Time of ``callers``' hint and of the blast radius on one target of an existing index.

Prints, for ``TARGET`` (a name as ``ripple callers`` takes it) in the index ``DB``, the median over
``--calls`` calls in this process of :func:`analysis.reached_through.reached_through` (the endpoints and
topics the target serves, with the clients reaching it) and of :func:`analysis.impact.blast_radius` (wall
and process CPU time, and its store calls), in milliseconds, with what they answered (per endpoint the clients counted and the others; the tests
reached), so that two trees can be compared side by side on one index each::

    PYTHONPATH=TREE python bench/callers_hint.py DB TARGET [--calls 21]

Exits with status 2 when the target names nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from analysis.impact import SymbolQuery, blast_radius
from analysis.navigation import lookup
from analysis.reached_through import reached_through
from stores.embedded import EmbeddedStore


def main() -> int:
    """Parse the arguments, time both answers, print one line; the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db")
    ap.add_argument("target")
    ap.add_argument("--calls", type=int, default=21)
    args = ap.parse_args()
    store = EmbeddedStore(args.db)
    try:
        nodes = lookup(store, args.target)[0]
        if not nodes:
            print(f"{args.target!r} names nothing in {args.db}", file=sys.stderr)
            return 2
        hint_ms, walk_ms, walk_cpu = [], [], []
        for _ in range(max(1, args.calls)):
            t = time.perf_counter()
            hint = reached_through(store, nodes)
            hint_ms.append((time.perf_counter() - t) * 1000)
            t, c = time.perf_counter(), time.process_time()
            report = blast_radius(store, SymbolQuery(args.target))
            walk_ms.append((time.perf_counter() - t) * 1000)
            walk_cpu.append((time.process_time() - c) * 1000)
        counted = [(e.name, e.callers, getattr(e, "others", 0)) for e in hint]  # a tree before "others": 0
        print(f"{args.target}: reached_through {statistics.median(hint_ms):.2f} ms, blast_radius "
              f"{statistics.median(walk_ms):.1f} ms (CPU {statistics.median(walk_cpu):.1f} ms, "
              f"{sum(step.round_trips for step in report.steps)} store calls); hint {counted}; tests {len(report.tests)}")
        return 0
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main())
