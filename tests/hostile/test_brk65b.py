"""Session 65, brk65b: session 64's additions attacked (Go package constants, the receiver walk, unlinked
calls, Nest transports, Aura ``extends``, function-local imports, the forked link-options read) and the
known leftovers (upward ``Node.parent`` walks, long TypeScript chains). Each class is one defect found,
with exact expectations and what must not be linked; every input is generated here.

- :class:`TestCutTemplates`: a string concatenation longer than ``MAX_JOINED`` was cut by turning the
  piece that did not fit into an empty *literal* followed by ``…``, and what came after the cut was
  appended behind the mark. A Go constant of 100,000 terms (``"http://svc" + "p" + ...``: its left side,
  past the template's depth, is a hole whose text is the whole expression) became the literal
  ``…pppppppppppppppp`` and ``http.Get(big)`` a client of the made-up endpoint ``GET /…pppppppppppppppp``.
- :class:`TestLongTypeScriptChains`: a 3,000-link chain (``o.pipe((x) => x)...``, ``o.then(a)...``) cost
  5.6 to 9.3 s. Two causes: the HTTP-wrapper detector asked, for every call of the chain, for the function
  around it by walking ``Node.parent`` (each step costs the node's depth in tree-sitter 0.26: 6.3 s of the
  ``.then(a)`` chain's 8 s), and two query patterns rooted at a call (node-cron's ``schedule``,
  routing-controllers' ``createExpressServer``) ran a regular expression ``(^|[.])name$`` over the callee's
  whole text, which at every link is the chain below it (1.2 s and 1.1 s per run over the tree).
- :class:`TestUpwardWalks`: the same walk out of every link of a chain in the C# detectors
  (``CsFile.enclosing_function``: 800 links 18.3 s, 3,000 links minutes) and Go's router scopes
  (``go_web._scopes``: 800 links 17.7 s).
- :class:`TestManyUnlinkedCalls`, :class:`TestKilledExtractionWorkers`: see their docstrings.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import re

import pytest

import indexer.languages.base as base
from indexer.languages import extractor_for_path
from indexer.languages.base import QUERY_DIR, extraction_budget
from indexer.languages.ecmascript.frameworks.common import JsFile
from indexer.languages.go.extractor import EXTRACTOR as GO
from indexer.string_templates import MAX_JOINED, Template
from tests.index_harness import index_fixture
from tests.resolution_harness import write_tree


def _nodes(root):
    stack = [root]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


def _rows(db: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


class TestCutTemplates:
    def test_a_piece_past_the_cut_stays_unknown_and_a_cut_template_stays_cut(self) -> None:
        long_hole = "x" * (MAX_JOINED + 10)
        t = Template.of("http://svc/") + Template((("hole", long_hole), ("lit", "/a")))
        assert t.parts == (("lit", "http://svc/"), ("hole", "x" * (MAX_JOINED - len("http://svc/"))), ("lit", "\u2026"))
        assert (t + Template.of("/more")).parts == t.parts  # nothing behind the mark
        ref = Template.of("a" * (MAX_JOINED - 2)) + Template((("ref", "NAME"),))
        assert ref.parts == (("lit", "a" * (MAX_JOINED - 2)), ("hole", "NA"), ("lit", "\u2026"))
        lit = Template.of("b" * MAX_JOINED) + Template.of("cd")
        assert lit.parts == (("lit", "b" * MAX_JOINED + "\u2026"),)
        # under the limit: untouched
        assert (Template.of("/a/") + Template((("ref", "X"), ("hole", "id")))).parts == (
            ("lit", "/a/"), ("ref", "X"), ("hole", "id"))

    def test_a_go_constant_of_100000_terms_is_unknown_not_a_path(self, tmp_path: Path) -> None:
        terms = " + ".join(['"p"'] * 100_000)
        files = {
            "go.mod": "module x\n\ngo 1.21\n",
            "consts.go": f'package main\n\nconst a = b\nconst b = a\n\nconst (\n\tc1 = c2 + "/x"\n\tc2 = c1 + "/y"\n)\n\n'
                         f'const big = "http://svc" + {terms}\n\nconst small = "http://svc" + "/ok"\n',
            "main.go": 'package main\n\nimport "net/http"\n\nfunc main() {\n\thttp.Get(a + "/a")\n\thttp.Get(c1)\n'
                       '\thttp.Get(big)\n\thttp.Get(small)\n}\n',
        }
        ex = GO.extract("consts.go", files["consts.go"].encode())
        # `big` has no known text: it is no constant; the cycles stay references (the linker bounds them)
        assert [(c.qualname, c.value.parts) for c in ex.constants] == [
            ("a", (("ref", "b"),)), ("b", (("ref", "a"),)), ("c1", (("ref", "c2"), ("lit", "/x"))),
            ("c2", (("ref", "c1"), ("lit", "/y"))), ("small", (("lit", "http://svc/ok"),))]
        root = write_tree(tmp_path / "g", files)
        index_fixture(root, tmp_path / "g.db", "g").close()
        assert _rows(tmp_path / "g.db", "SELECT file, line, kind, dst, coalesce(json_extract(props, '$.url'),"
                     " json_extract(props, '$.call')) FROM edges WHERE kind IN ('CALLS_HTTP', 'UNLINKED')"
                     " ORDER BY file, line") == [
            ("main.go", 6, "CALLS_HTTP", "endpoint:GET /a", "{}/a"),  # an unknown base, a known end
            ("main.go", 7, "UNLINKED", "unlinked:url", "GET {}"),  # a cycle: unknown
            ("main.go", 8, "UNLINKED", "unlinked:url", "GET {}"),  # was endpoint:GET /…pppppppppppppppp
            ("main.go", 9, "CALLS_HTTP", "endpoint:GET /ok", "http://svc/ok"),
        ]


class TestLongTypeScriptChains:
    def test_the_function_around_each_link_is_found_once_for_the_chain(self, monkeypatch) -> None:
        walked = {"nodes": 0}
        real = base.around

        def counting(root, node):
            for n in real(root, node):
                walked["nodes"] += 1
                yield n

        monkeypatch.setattr(base, "around", counting)
        src = "import cron from 'node-cron';\nexport function g(o: any, a: any) {\n  return o" + ".then(a)" * 3000 + ";\n}\n"
        with extraction_budget(120) as budget:
            ex = extractor_for_path("a.ts").extract("src/a.ts", src.encode())
        # the 747 outer links above the depth cut are indexed, the file in part; each link of the chain is
        # a node deeper than the one before: walked out from every call, the walks were 560,250 nodes
        # (by Node.parent, each costing its depth); remembered along the chain, 5,229
        assert (len(ex.calls), budget.partial) == (747, "too_deep")
        assert {c.name for c in ex.calls} == {"then"}
        assert 0 < walked["nodes"] < 8 * 747
        # every link is in g, whose parameters a link may hand on
        with extraction_budget(120):
            jf = JsFile(base.parser("typescript").parse(src.encode()).root_node, base.SourceText(src.encode()), ex)
        fn = next(d for d in ex.definitions if d.name == "g")
        links = [n for n in _nodes(jf.root) if n.type == "call_expression"]
        assert len(links) == 3000
        assert {(jf.function_around(n).start_point[0] + 1) for n in links} == {fn.start_line}
        assert {jf.parameters(n) for n in links} == {frozenset({"o", "a"})}

    def test_patterns_rooted_at_a_call_test_its_name_from_the_start(self) -> None:
        """A pattern matching a call or ``new`` (every link of a chain) may only run a regular
        expression anchored at the start (``^name$`` on an identifier or property): ``(^|\\.)name$`` on
        the callee scans its whole text, the chain below it, at every link."""
        unanchored = []
        for scm in sorted((QUERY_DIR / "ecmascript" / "queries").rglob("*.scm")):
            text = re.sub(r";[^\n]*", "", scm.read_text(encoding="utf-8"))
            depth, start = 0, 0
            for i, ch in enumerate(text):
                if ch == "(" and depth == 0:
                    start = i
                depth += (ch == "(") - (ch == ")")
                if ch == ")" and depth == 0 and re.match(r"\((call|new)_expression\b", text[start:]):
                    unanchored += [(scm.name, rx) for rx in re.findall(r'#match\? @\w+ "([^"]*)"', text[start:i])
                                   if not rx.startswith("^")]
        assert unanchored == []

    def test_node_cron_and_routing_controllers_still_read(self) -> None:
        src = ("import cron from 'node-cron';\nimport { CronJob } from 'cron';\nimport * as schedule from 'node-schedule';\n"
               "import { createExpressServer } from 'routing-controllers';\n"
               "function tick() {}\n"
               "cron.schedule('* * * * *', tick);\nnew CronJob('0 * * * *', tick);\nschedule.scheduleJob('j', '* * *', tick);\n"
               "cron.reschedule('* * * * *', tick);\nnew CronJobs('0 * * * *', tick);\n"
               "createExpressServer({ routePrefix: '/api', controllers: [] });\n")
        ex = extractor_for_path("jobs.ts").extract("src/jobs.ts", src.encode())
        assert sorted((e.framework, e.kind, e.line, e.name) for e in ex.entries) == [
            ("cron", "scheduled", 7, "0 * * * *"), ("node-cron", "scheduled", 6, "* * * * *"),
            ("node-schedule", "scheduled", 8, "* * *")]  # not reschedule, not CronJobs
        assert [(g.framework, g.prefix.parts, g.line) for g in ex.global_prefixes] == [
            ("nest", (("lit", "/api"),), 11)]


class _CountingGraph:
    """A graph store that counts the edges its ``incoming`` / ``incoming_window`` hand back."""

    def __init__(self, graph) -> None:
        self.graph, self.edges = graph, 0

    def __getattr__(self, name):
        return getattr(self.graph, name)

    def incoming(self, ids, kinds, resolutions=None):
        found = self.graph.incoming(ids, kinds, resolutions)
        self.edges += sum(len(es) for es in found.values())
        return found

    def incoming_window(self, ids, kinds, limit, repos=None):
        found = self.graph.incoming_window(ids, kinds, limit, repos)
        self.edges += sum(len(es) for _, es in found.values())
        return found


class TestManyUnlinkedCalls:
    """3,000 unlinked client calls (100,000 in the benchmark): ``ripple unlinked --limit 5`` read and
    decoded every one of them (5.1 s and 180 MB at 100,000) to show five; hostile text in a call's URL
    (ANSI escapes, line breaks, lone surrogates) stays one escaped line in every front end."""

    @pytest.fixture(scope="class")
    @classmethod
    def store(cls, tmp_path_factory):
        root = tmp_path_factory.mktemp("ul")
        files = {f"app/m{f}.py": "import requests\n\n\ndef call(host):\n" + '    requests.get("http://" + host)\n' * 1500
                 for f in range(2)}
        files["app/hostile.py"] = ("import requests\n\n\ndef h(host):\n"
                                   '    requests.get("http://" + host + "?\\x1b[31mRED\\x1b[0m")\n'
                                   '    requests.get("http://" + host + "?a\\rb\\nc\\u2028d")\n'
                                   '    requests.get("http://" + host + "?\\ud800x")\n'
                                   '    requests.get("http://" + host + "?' + "x" * 5000 + '")\n')
        write_tree(root / "ul", files)
        store = index_fixture(root / "ul", root / "ul.db", "ul")
        yield store
        store.close()

    def test_a_page_reads_its_calls_not_every_call(self, store) -> None:
        from analysis.unlinked import unlinked_calls, unlinked_line

        counted = _CountingGraph(store)
        page = unlinked_calls(counted, limit=5)
        assert (page.total, page.left_out, page.by_reason, counted.edges) == (3004, 2999, {"url": 3004}, 5)
        assert [unlinked_line(c.as_dict()) for c in page.calls] == [
            "app/hostile.py:5  GET http://{}?\\x1b[31mRED\\x1b[0m  (url; in hostile.h)",
            "app/hostile.py:6  GET http://{}?a\\x0db\\x0ac\\u2028d  (url; in hostile.h)",
            "app/hostile.py:7  GET http://{}?\ufffdx  (url; in hostile.h)",
            "app/hostile.py:8  GET http://{}?" + "x" * (300 - len("GET http://{}?")) + "\u2026  (url; in hostile.h)",
            "app/m0.py:5  GET http://{}  (url; in m0.call)",
        ]
        everything = unlinked_calls(store)  # no limit: every call, the same first five
        assert (everything.total, len(everything.calls), everything.calls[:5]) == (3004, 3004, page.calls)
        # filters count and cut the same way: in the repository, of another, of one reason, of none
        assert [(p.total, len(p.calls)) for p in (unlinked_calls(store, repo="ul", limit=2),
                                                 unlinked_calls(store, repo="other", limit=2),
                                                 unlinked_calls(store, reason="topic", limit=2),
                                                 unlinked_calls(store, limit=0))] == [(3004, 2), (0, 0), (0, 0), (3004, 0)]

    def test_the_json_of_every_front_end_is_valid_utf8(self, store) -> None:
        import json

        from analysis.unlinked import unlinked_calls

        data = unlinked_calls(store, limit=4).as_dict()
        text = json.dumps(data, ensure_ascii=False)
        assert text.encode("utf-8").decode("utf-8") == text  # no lone surrogate left to break an encoder
        assert [c["call"] for c in data["calls"]] == [
            "GET http://{}?\x1b[31mRED\x1b[0m", "GET http://{}?a\rb\nc\u2028d", "GET http://{}?\ufffdx", "GET http://{}?" + "x" * 286 + "\u2026"]


_DYING: dict = {}


def _dying_extract(args):
    """``extract_file_packed`` in a worker that kills itself on one file (:meth:`TestKilledExtractionWorkers._dying`;
    module-level: the pool pickles it by name)."""
    import os
    import signal

    marker, name, times = _DYING["at"]
    if args[0].path == name:
        seen = marker.read_text() if marker.exists() else ""
        if len(seen) < times:
            marker.write_text(seen + "x")
            os.kill(os.getpid(), signal.SIGKILL)
    return _DYING["real"](args)


class TestKilledExtractionWorkers:
    """``kill -9`` of an extraction worker (what the out-of-memory killer does) ended ``ripple index`` with a
    ``BrokenProcessPool`` traceback (flask, a worker killed 2.3 to 5 s into the run: 7 of 7 runs)."""

    @staticmethod
    def _files(tmp_path: Path, n: int):
        from indexer.discovery import SourceFile

        root = write_tree(tmp_path / "w", {f"m{i:03}.py": f"def f{i}():\n    return g{i}()\n" for i in range(n)})
        return [SourceFile(f"m{i:03}.py", str(root / f"m{i:03}.py"), "x", (root / f"m{i:03}.py").stat().st_size, None)
                for i in range(n)]

    @staticmethod
    def _dying(monkeypatch, marker: Path, name: str, times: int) -> None:
        """Workers forked after this die (SIGKILL) on extracting ``name``, ``times`` times in all (counted in
        ``marker``, a file: each worker is its own process)."""
        import indexer.extraction as extraction

        monkeypatch.setitem(_DYING, "real", extraction.extract_file_packed)
        monkeypatch.setitem(_DYING, "at", (marker, name, times))
        monkeypatch.setattr(extraction, "extract_file_packed", _dying_extract)

    def test_the_files_left_go_to_new_workers(self, tmp_path, monkeypatch) -> None:
        from indexer.extraction import extract_files
        from indexer.run import IndexOptions, NoProgress

        files = self._files(tmp_path, 80)
        self._dying(monkeypatch, tmp_path / "marker", "m040.py", 2)
        out = list(extract_files(files, IndexOptions(repo="w", jobs=2), "w", NoProgress()))
        assert [e.path for e in out] == [f.path for f in files]  # every file, in order, once
        assert {e.skip_reason for e in out} == {None}
        assert (tmp_path / "marker").read_text() == "xx"

    def test_workers_dying_every_time_end_the_run_with_a_message(self, tmp_path, monkeypatch) -> None:
        from indexer.extraction import MAX_POOL_RESTARTS, extract_files
        from indexer.run import IndexOptions, NoProgress, WorkersLost

        files = self._files(tmp_path, 80)
        self._dying(monkeypatch, tmp_path / "marker", "m000.py", 100)
        with pytest.raises(WorkersLost) as caught:
            list(extract_files(files, IndexOptions(repo="w", jobs=2), "w", NoProgress()))
        assert str(caught.value) == (
            "extraction workers ended abruptly 3 times (0 of 80 files extracted): killed, out of memory, or a crash "
            "while parsing; nothing of this run was written; the files extracted are cached: run `ripple index` again "
            "to go on")
        assert (tmp_path / "marker").read_text() == "x" * (MAX_POOL_RESTARTS + 1)


class TestUpwardWalks:
    @staticmethod
    def _walked(monkeypatch) -> dict[str, int]:
        walked = {"nodes": 0}
        real = base.around

        def counting(root, node):
            for n in real(root, node):
                walked["nodes"] += 1
                yield n

        monkeypatch.setattr(base, "around", counting)
        return walked

    @staticmethod
    def _chain(links: int, method: str) -> str:
        return "".join(f".{method}{i % 5}(x)" for i in range(links))

    def test_csharp_a_chain_in_a_controller(self, monkeypatch) -> None:
        walked = self._walked(monkeypatch)
        src = ("using Microsoft.AspNetCore.Mvc;\nusing System.Net.Http;\n[ApiController]\npublic class A : ControllerBase {\n"
               "  HttpClient c;\n  [HttpGet(\"/a\")]\n  public object Get(object x) {\n    return c" + self._chain(800, "M")
               + ";\n  }\n}\n")
        with extraction_budget(120) as budget:
            ex = extractor_for_path("A.cs").extract("A.cs", src.encode())
        # the first 199 links bind (the receiver bound), the file is cut at the depth bound; walked out of
        # 800 links once between them (4,801 nodes), where each link walked out alone by Node.parent
        assert (len(ex.calls), budget.partial, {c.name for c in ex.calls}) == (199, "too_deep", {"M0", "M1", "M2", "M3", "M4"})
        assert [(r.methods, r.path.literal()) for r in ex.routes] == [(["GET"], "/a")]
        assert 0 < walked["nodes"] <= 7 * 800

    def test_go_a_chain_in_a_handler(self, monkeypatch) -> None:
        walked = self._walked(monkeypatch)
        src = ("package main\n\nimport \"net/http\"\n\nfunc h(w http.ResponseWriter, r *http.Request) {\n\tx := 1\n\t_ = r"
               + self._chain(800, "m") + "\n}\n\nfunc main() {\n\tmux := http.NewServeMux()\n\tmux.HandleFunc(\"/h\", h)\n}\n")
        with extraction_budget(120) as budget:
            ex = extractor_for_path("a.go").extract("a.go", src.encode())
        assert (len([c for c in ex.calls if c.name.startswith("m") and c.name[1:].isdigit()]), budget.partial) == (747, "too_deep")
        assert [(r.methods, r.path.literal()) for r in ex.routes] == [(["*"], "/h")]
        assert 0 < walked["nodes"] <= 7 * 800


class TestStoppedLinkOptionsProcess:
    """The link options read in a forked process (``whole_tree.LinkOptionsAhead``, session 64): ``kill -9``
    of that process held (read again here, 4 of 4), but a process stopped with ``SIGSTOP`` (or stuck) made
    ``options()`` wait forever: ``ripple index`` never ended."""

    def test_a_stopped_process_is_killed_and_the_options_read_here(self, tmp_path) -> None:
        import subprocess
        import sys

        root = write_tree(tmp_path / "r", {
            "docker-compose.yml": "services:\n  api:\n    build: api\n  web:\n    build: web\n",
            "api/app.py": "def f():\n    pass\n"})
        script = (
            "import os, signal, sys, time\n"
            "import indexer.whole_tree as whole_tree\n"
            "from indexer.frameworks.link import LinkOptions\n"
            "whole_tree.LINK_OPTIONS_DEADLINE_S = 1.0\n"
            f"root = {str(root)!r}\n"
            "ahead = whole_tree.LinkOptionsAhead(root, None)\n"
            "os.kill(ahead._call.pid, signal.SIGSTOP)\n"
            "got = ahead.options()\n"
            "ref = LinkOptions.for_repository(root, None)\n"
            "print(type(got).__name__, repr(got) == repr(ref), len(repr(got)) > 100)\n")
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "LinkOptions True True\n"
        assert "did not finish within 1 s): read here" in done.stderr
