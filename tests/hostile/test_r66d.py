"""Session 66, r66d: bounds on hostile input (known-end URL matching at scale; tree-sitter matching in deep trees)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

from indexer.frameworks import known_ends
from stores.contracts import Edge

ROOT = Path(__file__).resolve().parents[2]
HOLE = "{}"


def _served(paths: list[str]) -> list[Edge]:
    return [Edge("EXPOSES", f"h{i}", f"endpoint:GET {p}", "r", "s.js", 1, 1, None, {}) for i, p in enumerate(paths)]


def _asked(urls: list[str]) -> list[Edge]:
    return [Edge("CALLS_HTTP", f"c{i}", f"endpoint:GET /{i}", "r", "c.js", i + 1, 1, None, {"url": u})
            for i, u in enumerate(urls)]


def _reference(template: list[str], end: list[str], glued: bool) -> bool:
    """The documented rule, written out plainly: the template's last ``len(end)`` segments against ``end``; the
    first literal segment of ``end`` equal to a literal one (its end, when glued), each later literal one equal
    or facing a ``{}``."""
    if len(template) < len(end):
        return False
    anchored = False
    for i, (t, s) in enumerate(zip(template[len(template) - len(end):], end)):
        if HOLE in s:
            continue
        if not anchored:
            anchored = True
            if t == HOLE or not (t.endswith(s) if i == 0 and glued else t == s):
                return False
        elif t not in (HOLE, s):
            return False
    return anchored


class TestKnownEndsAtScale:
    def test_every_shape_answers_as_the_rule_says(self) -> None:
        # 40 templates (over the 16 compared one by one, so matched through the bit-mask index) and every request
        # over the same alphabet: each request's answer is the rule's, in id order, at most MAX_CANDIDATES
        words = ["a", "ba", "b", HOLE]
        paths = sorted({"/" + "/".join(p) for n in (1, 2, 3) for p in itertools.product(words, repeat=n)
                        if not all(s == HOLE for s in p)})
        assert len(paths) == 81
        urls = [HOLE + ("" if glued else "/") + "/".join(p)
                for glued in (False, True) for n in (1, 2, 3) for p in itertools.product(words, repeat=n)]
        edges = {"s.js": _served(paths), "c.js": _asked(urls)}
        moved, taken = known_ends.retarget_known_ends({}, edges, lambda p, m, u: f"endpoint:{m} {u}")
        got = {e.line: [e.dst] for e in edges["c.js"] if e.props.get("known_end")}
        got.update({e.line: found for _, e, found in taken})
        expected = {}
        for line, url in enumerate(urls, 1):
            end = known_ends.known_end(url)
            if end is None:
                continue
            segs, glued = end
            later = [j for j, s in enumerate(segs) if j > 0 and HOLE not in s]
            back = len(segs) - 1 - later[0] if glued and HOLE not in segs[0] and later else None
            # a glued first word: the endpoints with the next literal segment there, then those with a `{}` there
            ranked = sorted(paths, key=lambda p: (back is not None and p.strip("/").split("/")[-1 - back:][:1] == [HOLE], p))
            found = [f"endpoint:GET {p}" for p in ranked if _reference(p.strip("/").split("/"), *end)]
            if found:
                expected[line] = found[:5]
        assert got == expected
        assert (moved, len(taken)) == (sum(len(v) == 1 for v in expected.values()),
                                       sum(len(v) > 1 for v in expected.values()))
        assert (moved, len(taken)) == (0, 162)  # 81 endpoints over 4 words: every known end has several

    def test_100000_requests_against_one_list_of_5000_endpoints(self) -> None:
        # each request has 5,000 candidates (MAX_COMPARED: "items" at the same place in all) and one
        # of them ends with it; then the glued word "1api" ending one, "api" ending three (taken out), and the
        # glued plain word "zz" no endpoint ends with (taken for a whole segment)
        script = (
            "from indexer.frameworks.known_ends import retarget_known_ends\n"
            "from tests.hostile.test_r66d import _served, _asked\n"
            "served = _served([f'/x{j}/items/w{j}' for j in range(4997)] + [f'/a{j}api/items/7' for j in range(3)])\n"
            "urls = [f'{{}}/items/w{i % 4997}' for i in range(100000)] + ['{}1api/items/7', '{}api/items/7', '{}zz/items/w']\n"
            "edges = {'s.js': served, 'c.js': _asked(urls)}\n"
            "moved, taken = retarget_known_ends({}, edges, lambda p, m, u: f'endpoint:{m} {u}')\n"
            "dst = [e.dst for e in edges['c.js']]\n"
            "print(moved, len(dst), dst[0], dst[4996], dst[4997], dst[-2:], [(e.line, f) for _, e, f in taken])\n")
        out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split("\n")[0] == (
            "100001 100002 endpoint:GET /x0/items/w0 endpoint:GET /x4996/items/w4996 endpoint:GET /x0/items/w0 "
            "['endpoint:GET /a1api/items/7', 'endpoint:GET /zz/items/w'] "
            "[(100002, ['endpoint:GET /a0api/items/7', 'endpoint:GET /a1api/items/7', 'endpoint:GET /a2api/items/7'])]")

    def test_a_glued_word_over_100000_endpoints_is_counted_not_joined(self) -> None:
        # "{}api/items": the glued "api", then "items" at the end of all 100,000 endpoints: more than MAX_COMPARED,
        # left as it was, without joining two lists of 100,000 per request (60 s for 100,000 requests before)
        script = (
            "from indexer.frameworks.known_ends import retarget_known_ends\n"
            "from tests.hostile.test_r66d import _served, _asked\n"
            "edges = {'s.js': _served([f'/api/r{i}/items' for i in range(100000)]),\n"
            "         'c.js': _asked(['{}api/items'] * 100000 + ['{}/r7/items'])}\n"
            "moved, taken = retarget_known_ends({}, edges, lambda p, m, u: f'endpoint:{m} {u}')\n"
            "print(moved, len(taken), edges['c.js'][0].dst, edges['c.js'][-1].dst)\n")
        out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split("\n")[0] == "1 0 endpoint:GET /0 endpoint:GET /api/r7/items"


_DEEP = (
    "import os, sys, time\n"
    "from indexer.extraction import extract_file\n"
    "from indexer.source_files import SourceFile\n"
    "d = sys.argv[1]\n"
    "for n in (700, 1500, 5000, 20000):\n"
    "    for name, text in (('chain.ts', \"import axios from 'axios';\\nexport function f(a: any) {\\n  return a\""
    " + '.then(a)' * n + ';\\n}\\n'),\n"
    "                       ('chain.py', 'import requests\\n\\ndef f(a):\\n    return a' + '.b(c)' * n + '\\n'),\n"
    "                       ('Chain.java', 'class A {\\n  void f() {\\n    a' + '.b(c)' * n + ';\\n  }\\n}\\n')):\n"
    "        p = os.path.join(d, name)\n"
    "        with open(p, 'w') as f:\n"
    "            f.write(text)\n"
    "        r = extract_file((SourceFile(name, p, 'x', os.path.getsize(p), None), 'r', 'r', 5_000_000, False, None))\n"
    "        ex = r.extraction\n"
    "        print(n, name, r.skip_reason, ex.partial, len(ex.calls), sorted({c.name for c in ex.calls}),\n"
    "              len(ex.definitions))\n")


class TestDeepChains:
    def test_a_chain_deeper_than_the_cut_is_indexed_in_part_in_bounded_time(self, tmp_path: Path) -> None:
        # tree-sitter's matching is quadratic in the depth it walks: within MAX_TREE_DEPTH (1,500) levels (a link
        # is two: a call and its member expression) a file is indexed whole; deeper, the subtrees past the cut are left out of every query (partial "too_deep"), so
        # the calls kept and the time do not grow with the depth (about 1 s per file at any depth)
        out = subprocess.run([sys.executable, "-c", _DEEP, str(tmp_path)], cwd=ROOT, capture_output=True,
                             text=True, timeout=180)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        expected = ["700 chain.ts None None 700 ['then'] 1", "700 chain.py None None 700 ['b'] 1",
                    "700 Chain.java None None 700 ['b'] 2"]
        for n in (1500, 5000, 20000):
            expected += [f"{n} chain.ts None too_deep 747 ['then'] 1", f"{n} chain.py None too_deep 748 ['b'] 1",
                         f"{n} Chain.java None too_deep 1494 ['b'] 2"]
        assert lines == expected
