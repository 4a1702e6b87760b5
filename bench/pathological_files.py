#!/usr/bin/env python3
"""Cost of pathological source files: time and peak memory of ``ripple index --no-embed`` on one file.

What it does
------------
Generates, in a temporary folder, the files of issue 12's hostile review, each alone in its own
repository, and runs ``ripple index DIR --db DIR.db --no-embed --json`` on each in a child process
(so each peak resident set is its own), then prints one line per file: size, wall time, peak RSS of
the run (the larger of the main process and its largest worker, as the run reports it), the nodes
written and the ``partial`` reason. Pass ``--scale S`` to multiply the sizes (``0.5``: half), to see that time grows
linearly with size.

* ``deep_calls.ts``: ``const x = f(f(f(...)));`` 50,000 deep (150 KB);
* ``nested.tsx``: 5,000 classes each nested in the previous one's method (119 KB);
* ``Parens.java``: a method holding 50,000 unclosed ``(`` (50 KB);
* ``wide_array.ts``: one array literal of 100,000 elements (200 KB), a wide but legal tree;
* ``Chain.java``: ``x.a().a()...`` 100,000 calls long (400 KB; the second review: 20 GB and rising);
* ``bundle.js``: 22,000 functions on one line, a minified file not named ``.min.js`` (0.9 MB; the
  second review: 23 s and 816 MB).
* ``redefined.py``: a class redefining one method 2,000 times, each copy calling it (``def get(self):
  return self.get()``), then 3,000 functions ``f`` calling ``f`` (brk36: about 100 s, 4 million CALLS
  edges; redef37: Python's redefinition rule leaves one of each);
* ``conditional.py``: the 2,000 copies each under an ``if`` (all may run: each call binds the last
  ``MAX_NAMESAKES``);
* ``assigned.js``: ``api.m = function () { return api.m(); }`` 2,000 times.

Usage::

    python bench/pathological_files.py [--scale 1.0]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def files(scale: float) -> dict[str, str]:
    """File name -> text, sizes multiplied by ``scale``."""
    n = int(50_000 * scale)
    k = int(5_000 * scale)
    return {
        "deep_calls.ts": "const x = " + "f(" * n + "1" + ")" * n + ";\n",
        "nested.tsx": "".join(f"class C{i} {{ m() {{ " for i in range(k)) + "return 1;" + " } }" * k + "\n",
        "Parens.java": "class A { void m() { int x = " + "(" * n + "1; } }\n",
        "wide_array.ts": "export const xs = [" + ",".join(["1"] * (2 * n)) + "];\n",
        "Chain.java": "class J { void m() { x" + ".a()" * (2 * n) + "; } }\n",
        "bundle.js": ";".join(f"function f{i}(a){{return f{i - 1}(a)+{i}}}" for i in range(1, int(22_000 * scale))) + "\n",
        "redefined.py": "class C:\n" + "    def get(self):\n        return self.get()\n\n" * int(2_000 * scale)
                        + "\ndef f(x):\n    return f(x)\n" * int(3_000 * scale),
        "conditional.py": "class C:\n" + "    if X:\n        def get(self):\n            return self.get()\n" * int(2_000 * scale),
        "assigned.js": "const api = {};\n" + "api.m = function () { return api.m(); };\n" * int(2_000 * scale),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args()
    ripple = [sys.executable, "-m", "lsp_server.cli"]
    with tempfile.TemporaryDirectory(prefix="ripple-patho-") as tmp:
        print(f"{'file':<16} {'bytes':>8} {'seconds':>8} {'peak MiB':>9}  nodes / partial")
        for name, text in files(args.scale).items():
            repo = Path(tmp) / name.replace(".", "_")
            repo.mkdir()
            (repo / name).write_text(text)
            t0 = time.perf_counter()
            proc = subprocess.Popen([*ripple, "index", str(repo), "--db", f"{repo}.db", "--no-embed", "--json"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                    cwd=Path(__file__).resolve().parents[1])
            out, _ = proc.communicate()
            seconds = time.perf_counter() - t0
            data = json.loads(out[out.index("{"):]) if "{" in out else {}
            peak = max(data.get("peak_rss_mb", {}).values(), default=0.0)
            print(f"{name:<16} {len(text.encode()):>8} {seconds:>8.2f} {peak:>9.1f}  "
                  f"{data.get('nodes')} {data.get('partial') or ''}", flush=True)


if __name__ == "__main__":
    main()
