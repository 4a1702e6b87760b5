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

brk43's shapes (the mechanisms of session 42):

* ``current_user.py``: a Flask-Login app with 1,000 ``@lm.user_loader`` functions and 1,000 views
  calling ``current_user.f()`` (was 24 s; 2,000 of each 98 s);
* ``Overloads.java``: 250 overloads ``m(Ti, int)`` and ten of value types, called 5,000 times with
  typed arguments (was 26 s);
* ``dispatcher.js``: ``pick(c)`` returning one of 1,000 functions uncalled, ``pick(c)(1)`` called
  1,000 times (was a million CALLS edges, 212 s, 690 MiB);
* ``Wide.java`` / ``wide.py``: a base calling its method ``m`` 1,000 times (implicit ``this``;
  ``self.m()``), 1,000 subclasses overriding it (was a million CALLS edges, 109 s / 155 s);
* ``prototypes.js``: 2,000 constructor functions chained by ``util.inherits`` and
  ``Object.create``, each ``X.prototype.m = ...``, then ``A.prototype = B.prototype`` /
  ``setPrototypeOf`` cycles over all of them;
* ``objects.js``: one object literal of 20,000 properties naming functions, each called, and 2,000
  objects built by spreading the previous one.

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
        **brk43_files(scale),
    }


def brk43_files(scale: float) -> dict[str, str]:
    """brk43's shapes (see the module docstring), sizes multiplied by ``scale``."""
    k = int(1_000 * scale)
    values = ["int", "long", "String", "double", "Object", "Integer", "char", "boolean", "float", "short"]
    o = int(250 * scale)
    p = int(2_000 * scale)
    props = int(20_000 * scale)
    return {
        "current_user.py": "from flask import Flask\nfrom flask_login import LoginManager, current_user\n"
                           "app = Flask(__name__)\nlm = LoginManager(app)\nclass User:\n    def f(self):\n        return 1\n"
                           + "".join(f"@lm.user_loader\ndef load{i}(uid):\n    return User()\n" for i in range(k))
                           + "".join(f"@app.route('/r{i}')\ndef r{i}():\n    return current_user.f()\n" for i in range(k)),
        "Overloads.java": "package p;\n" + "".join(f"class T{j} {{}}\n" for j in range(o)) + "class A {\n"
                          + "".join(f"  void m(T{j} a, int b) {{}}\n" for j in range(o))
                          + "".join(f"  void m({t} a, long b) {{}}\n" for t in values) + "  void use(String x) {\n"
                          + "".join(f"    m(new T{i % o}(), {i});\n    m(x, 1L);\n" for i in range(20 * o)) + "  }\n}\n",
        "dispatcher.js": "".join(f"function f{i}(x) {{ return {i}; }}\n" for i in range(k))
                         + "function pick(c) {\n" + "".join(f"  if (c === {i}) return f{i};\n" for i in range(k)) + "}\n"
                         + "function use(c) {\n" + "  pick(c)(1);\n" * k + "}\n",
        "Wide.java": "package p;\nclass B { void m() {}\n  void run() {\n" + "    m();\n" * k + "  }\n}\n"
                     + "".join(f"class C{i} extends B {{ void m() {{ }} }}\n" for i in range(k)),
        "wide.py": "class B:\n    def m(self):\n        pass\n    def run(self):\n" + "        self.m()\n" * k
                   + "".join(f"class C{i}(B):\n    def m(self):\n        pass\n" for i in range(k)),
        "prototypes.js": "const util = require('util');\nfunction C0() {}\nC0.prototype.m = function () { return 0; };\n"
                         + "".join(f"function C{i}() {{}}\n"
                                   + (f"util.inherits(C{i}, C{i - 1});\n" if i % 2 else f"C{i}.prototype = Object.create(C{i - 1}.prototype);\n")
                                   + f"C{i}.prototype.m = function () {{ return this.m(); }};\n" for i in range(1, p))
                         + "".join(f"Object.setPrototypeOf(C{i}.prototype, C{(i + 1) % p}.prototype);\n"
                                   f"C{i}.prototype = C{(i + 1) % p}.prototype;\n" for i in range(p))
                         + f"function use() {{ return new C{p - 1}().m(); }}\n",
        "objects.js": "".join(f"function f{i}() {{ return {i}; }}\n" for i in range(props))
                      + "const o = {\n" + "".join(f"  p{i}: f{i},\n" for i in range(props)) + "};\n"
                      + "function use() {\n" + "".join(f"  o.p{i}();\n" for i in range(props)) + "}\n"
                      + "const s0 = { a: f0 };\n" + "".join(f"const s{i} = {{ ...s{i - 1}, a{i}: f{i} }};\n" for i in range(1, p))
                      + "function spread() {\n" + "".join(f"  s{i}.a();\n" for i in range(p)) + "}\n",
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
