"""Benchmark: ripple's Python call-graph accuracy on the Jarvis micro-benchmark (Huang et al., "Scalable
and Precise Application-Centered Call Graph Construction for Python", arXiv 2305.05949).

Usage::

    python bench/jarvis_suite.py JARVIS [--category CAT ...] [--json] [--show CATEGORY/CASE]

``JARVIS`` is the ``Jarvis`` folder of the paper's artifact (``github.com/pythonJaRvis/
pythonJaRvis.github.io``; not part of this repository), e.g.::

    git --git-dir=<mirror> archive HEAD Jarvis/dataset/micro_benchmark Jarvis/ground_truth/micro_benchmark \\
        | tar -x -C /tmp/jarvis        # then JARVIS is /tmp/jarvis/Jarvis

It holds ``dataset/micro_benchmark/<category>/<case>/`` (``main.py`` and sometimes more modules) and,
apart, ``ground_truth/micro_benchmark/<category>/<case>/callgraph.json``. The suite extends PyCG's
micro-benchmark (``bench/pycg_suite.py``): 106 of its cases are PyCG's with edited sources (an
``__init__`` added, a second call, ...) and ground truths, 32 are new (categories ``arguments``,
``context_managers``, ``new_arguments``, ``new_assignments``, ``new_control_flow``,
``new_direct_calls``, ``new_imports``). Its ground truth is *flow-sensitive* where PyCG's is not
(``var1, var2 = var2, var1; var1()`` expects only the swapped-in function).

Pairing: a ground-truth folder is matched to the dataset folder of the same path, spaces read as
``_`` (the dataset spells ``new_direct calls``, the ground truth ``new_direct_calls``); the case is
named by the ground truth's path. A ground truth without sources, or sources without a ground truth,
is listed and not scored.

Renaming and scoring are :mod:`bench.pycg_suite`'s, unchanged (the naming is PyCG's): a File node is
its module, other nodes ``module.qualname``; a decorator's edge moves to the scope running the
``def``; edges to Class nodes (a class with no ``__init__`` of its own) are dropped; calls in a lambda
are the enclosing named scope's; callees in the case's modules are scored, builtins and external
modules only counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pycg_suite import CaseResult, by_category, print_case, print_table, run_case, summarize  # noqa: E402


def pairs(jarvis: Path) -> tuple[list[tuple[str, Path, Path]], list[str]]:
    """``([(case name, source folder, callgraph.json)], unpaired)`` for the Jarvis artifact folder
    ``jarvis``: every ground truth under ``ground_truth/micro_benchmark`` with the dataset folder of
    the same path (spaces in the dataset's folder names read as ``_``), sorted by name; ``unpaired``
    names the folders of either side without the other.

    Raises ``FileNotFoundError`` when either tree is missing."""
    data = jarvis / "dataset" / "micro_benchmark"
    truth = jarvis / "ground_truth" / "micro_benchmark"
    for d in (data, truth):
        if not d.is_dir():
            raise FileNotFoundError(f"not a Jarvis artifact folder (no {d})")
    sources = {p.parent.relative_to(data).as_posix().replace(" ", "_"): p.parent for p in data.rglob("main.py")}
    graphs = {p.parent.relative_to(truth).as_posix(): p for p in truth.rglob("callgraph.json")}
    out = [(name, sources[name], graphs[name]) for name in sorted(graphs) if name in sources]
    unpaired = sorted(set(sources) ^ set(graphs))
    return out, unpaired


def run(jarvis: Path, categories: list[str] | None = None) -> tuple[list[CaseResult], list[str]]:
    """Score every paired case (:func:`pairs`), or those of ``categories``; returns the results and
    the unpaired folder names."""
    cases, unpaired = pairs(jarvis)
    if categories:
        cases = [c for c in cases if c[0].split("/")[0] in categories]
    return [run_case(src, src.parent, graph, name) for name, src, graph in cases], unpaired


def show(jarvis: Path, name: str) -> None:
    """Print one case's sources, score, missing / extra / hit edges and unresolved call sites."""
    found = [c for c in pairs(jarvis)[0] if c[0] == name]
    if not found:
        raise SystemExit(f"no case {name!r}")
    _, src, graph = found[0]
    print_case(run_case(src, src.parent, graph, name), src)

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("jarvis", type=Path, help="the artifact's Jarvis folder (dataset/ and ground_truth/)")
    ap.add_argument("--category", action="append", help="only this category (repeatable)")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--show", metavar="CATEGORY/CASE", help="missing and extra edges of one case")
    args = ap.parse_args()
    root = args.jarvis.resolve()
    if args.show:
        show(root, args.show)
        return
    results, unpaired = run(root, args.category)
    if args.json:
        print(json.dumps({"summary": summarize(results), "categories": by_category(results),
                          "cases": [r.as_json() for r in results], "unpaired": unpaired}, indent=2))
    else:
        print_table(results)
        if unpaired:
            print(f"\nunpaired (not scored): {', '.join(unpaired)}")


if __name__ == "__main__":
    main()
