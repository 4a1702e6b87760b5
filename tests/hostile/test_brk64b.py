"""Session 64, brk64b: session 63's additions attacked (schema 8's ids by CRC-32, nginx includes, Aura
markup, the NestJS / Eventuate detectors, stores that are down, killed runs). Each class is one defect
found, with exact expectations and what must not be linked or kept. Every input is generated here.

- :class:`TestNginxIncludeFanOut`: files that include each other (ten ``conf.d/*.conf`` each holding
  ``include *.conf;``) or several levels of globs were followed along every chain of includes up to 8
  deep: 10 files took 25.5 s of CPU, 12 about 7 minutes, 20 would never end, and the expanded tree of
  the one file not included elsewhere was built whole before its 2,000 routes were cut (memory growing
  with it). A repository may hold 500 configuration files.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import indexer.frameworks.nginx_config as nginx_config
from indexer.frameworks.nginx_config import MAX_EXPANDED, load_nginx_routes
from indexer.frameworks.services import service_map
from lsp_server.cli import main as cli_main
from stores.gateway import GatewayRoute
from tests.resolution_harness import write_tree


def _directives(tree) -> int:
    return sum(1 + (_directives(d["block"]) if isinstance(d.get("block"), list) else 0) for d in tree)


class TestNginxIncludeFanOut:
    @pytest.fixture
    def counted(self, monkeypatch):
        """Every expanded tree handed to ``routes_of_config`` (its directive count) and every
        ``include`` pattern resolved (cached or not)."""
        seen = {"trees": [], "resolves": 0}
        routes_of_config, resolve = nginx_config.routes_of_config, nginx_config._Reader.resolve

        def counting_routes(tree, hosts):
            seen["trees"].append(_directives(tree))
            return routes_of_config(tree, hosts)

        def counting_resolve(self, pattern, rel, start):
            seen["resolves"] += 1
            return resolve(self, pattern, rel, start)

        monkeypatch.setattr(nginx_config, "routes_of_config", counting_routes)
        monkeypatch.setattr(nginx_config._Reader, "resolve", counting_resolve)
        return seen

    def test_files_including_each_other(self, tmp_path, counted):
        files = {"docker-compose.yml": "services:\n  api:\n    build: api\n",
                 "nginx/nginx.conf": "http {\n  server {\n    listen 80;\n    include conf.d/*.conf;\n  }\n}\n"}
        files.update({f"nginx/conf.d/s{i:02}.conf": f"location /p{i}/ {{ proxy_pass http://api:8080/; }}\n"
                                                    "include *.conf;\n" for i in range(12)})
        root = write_tree(tmp_path / "loops", files)
        loaded = load_nginx_routes(str(root), service_map(root), {"api": "api"})
        # the conf.d files are read through nginx.conf only; its includes stop at the budget. Each
        # location once (nginx refuses a `duplicate location`), the longest prefixes first
        assert loaded.skipped == (("nginx/nginx.conf", "too_many_included"),)
        assert list(loaded.routes) == [GatewayRoute("api", (f"~(?:^/p{i}/)",), (), (("ReplacePrefix", f"/p{i}/", "/"),))
                                       for i in (10, 11, *range(10))]
        # one tree (nginx.conf's), within the budget plus the last file put in; 13 files' includes
        # read once per file reading them (13 x 13 for the `reached` pass) plus the expansion's
        assert len(counted["trees"]) == 1
        assert MAX_EXPANDED <= counted["trees"][0] <= MAX_EXPANDED + 10
        assert counted["resolves"] < MAX_EXPANDED

    def test_globs_over_globs(self, tmp_path, counted):
        """No cycle: six levels of ten files, each including the ten of the next level (10^6 chains)."""
        files = {"nginx/nginx.conf": "server {\n  include l0/*.conf;\n}\n"}
        for level in range(6):
            for i in range(10):
                more = f"include ../l{level + 1}/*.conf;\n" if level < 5 else ""
                files[f"nginx/l{level}/f{i}.conf"] = f"location /l{level}/f{i}/ {{ return 200; }}\n{more}"
        root = write_tree(tmp_path / "globs", files)
        loaded = load_nginx_routes(str(root), service_map(root), {})
        assert loaded.skipped == (("nginx/nginx.conf", "too_many_included"),)
        # each location once, in the order nginx reads them, as far as the budget went: l0/f0's includes
        # alone are 111,110 files deep down; l1/f0 to l1/f3 (22,222 directives each) fit, l1/f4 in part
        first = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), *((5, i) for i in range(10)), *((4, i) for i in range(1, 10)),
                 *((3, i) for i in range(1, 10)), *((2, i) for i in range(1, 10)), *((1, i) for i in range(1, 5))]
        assert [r.paths[0] for r in loaded.routes] == [f"~(?:^/l{lv}/f{i}/)" for lv, i in first]
        assert {r.service for r in loaded.routes} == {""}
        assert counted["trees"] == [pytest.approx(MAX_EXPANDED, abs=10)]
        # a smaller tree is expanded whole, each chain once, nothing skipped
        small = write_tree(tmp_path / "small", {
            "nginx/nginx.conf": "server {\n  include a/*.conf;\n}\n",
            "nginx/a/x.conf": "location /x/ { return 200; }\ninclude ../b/*.conf;\n",
            "nginx/a/y.conf": "location /y/ { return 200; }\ninclude ../b/*.conf;\n",
            "nginx/b/z.conf": "location /z/ { return 200; }\n"})
        loaded = load_nginx_routes(str(small), service_map(small), {})
        assert loaded.skipped == ()
        assert [r.paths for r in loaded.routes] == [("~(?:^/x/)",), ("~(?:^/z/)",), ("~(?:^/y/)",)]  # read order


def _eventuate_handlers(n: int) -> str:
    chain = "".join(f".onMessage(C{i}.class, this::h{i})" for i in range(n))
    return ("package x;\nimport io.eventuate.tram.sagas.participant.SagaCommandHandlersBuilder;\n"
            "public class Handlers {\n  public Object commandHandlers() {\n"
            f"    return SagaCommandHandlersBuilder.fromChannel(\"ch\"){chain}.build();\n  }}\n"
            "  void h0(Object m) {}\n  void h1(Object m) {}\n"
            "  class Inner {\n    Object f() {\n      return new Runnable() { public void run() {\n"
            "        SagaCommandHandlersBuilder.fromChannel(\"in\").onMessage(D.class, this::run); } };\n    }\n  }\n}\n")


class TestEventuateLongChain:
    """A chain of 1,500 ``.onMessage(...)``: each was read by walking down the whole chain below it
    (for its channel) and up the tree above it (for its handler's class and method, through
    ``Node.parent``, which tree-sitter finds from the root): 1,000 took 8.1 s of CPU, 3,000 minutes
    (the extraction's time budget covers its queries, not the detectors)."""

    def test_every_handler_read_once(self, monkeypatch):
        from indexer.languages import extractor_for_path
        from indexer.languages.base import SourceText

        calls = {"text": 0}
        text = SourceText.text

        def counting(self, node):
            calls["text"] += 1
            return text(self, node)

        monkeypatch.setattr(SourceText, "text", counting)
        n = 1500
        ex = extractor_for_path("Handlers.java").extract("src/x/Handlers.java", _eventuate_handlers(n).encode())
        got = [(t.role, t.topic.parts, t.owner, t.line) for t in ex.topics]
        assert got == [("consumes", (("lit", f"ch/C{i}"),), f"Handlers.h{i}" if i < 2 else "Handlers.commandHandlers", 5)
                       for i in range(n)] + [("consumes", (("lit", "in/D"),), "Handlers.Inner.f", 12)]
        # the chain's names read a few times each, not once per call below them (1,125,750 then)
        assert calls["text"] < 20 * n


class TestEcmaScriptLongChain:
    """``client.send(p, d).pipe(f)...`` 3,000 links (an RxJS pipeline, a builder, generated code):
    20.7 s of CPU, 1,000 links 2.7 s. Each call's receiver read the text of the whole chain under
    each of its links (``Object.values(x)`` was looked for in it), and ``this`` at the innermost
    calls was placed by walking ``Node.parent`` out (each step costs the node's depth)."""

    def test_receivers_read_once(self, monkeypatch):
        import indexer.languages.ecmascript.extractor as js_extractor
        from indexer.languages import extractor_for_path
        from indexer.languages.base import ancestors

        read = {"chars": 0}
        ws = js_extractor._WS

        class Counting:
            def sub(self, repl, text):
                read["chars"] += len(text)
                return ws.sub(repl, text)

        monkeypatch.setattr(js_extractor, "_WS", Counting())
        n = 1000
        src = ("export class A {\n  run() {\n    return this.client.send({ cmd: 'sum' }, [1])"
               + ".pipe(x => x)" * n + ";\n  }\n  keys(r) { return Object.values(r).map(v => v); }\n}\n")
        ex = extractor_for_path("a.ts").extract("src/a.ts", src.encode())
        pipes = [c for c in ex.calls if c.name == "pipe"]
        assert len(pipes) == n
        assert pipes[0].receiver == "this.client.send()"
        assert pipes[1].receiver == "this.client.send().pipe()"
        assert all(c.caller == "A.run" for c in pipes)
        assert [(c.name, c.receiver) for c in ex.calls if c.caller == "A.keys"] == [("values", "Object"), ("map", "r.$values()")]
        # the chain's texts read about once each (1,000 links: 13 KB), not once per link of every call
        assert read["chars"] < 10 * len(src)
        # the nodes around the innermost `send`, by one descent: its parent first, the program last
        root = js_extractor.base.parser("typescript").parse(src.encode()).root_node
        send = root.descendant_for_byte_range(src.index("send"), src.index("send") + 4)
        around = ancestors(root, send)
        assert around[0].type == "member_expression" and around[-1].id == root.id
        assert len(around) == 2 * n + 9
        other = js_extractor.base.parser("typescript").parse(src.encode()).root_node  # another tree's node
        assert ancestors(root, root) == [] and ancestors(root, other.descendant_for_byte_range(3, 4)) is None


class TestBoltStoreDownForEndpoints:
    """With the Bolt store down (``RIPPLE_MEMGRAPH_URI=bolt://127.0.0.1:1``) every MCP tool answered
    ``the index cannot answer: graph store bolt://127.0.0.1:1 is unreachable (...)`` but ``endpoints``,
    which said ``Error executing tool endpoints`` and nothing else (the driver's traceback went to the
    server's log): ``MemgraphGraphStore.labelled``, the one read it makes first, was the one public
    method outside the store's error boundary, so the driver's ``ServiceUnavailable`` reached the
    tool as no store error."""

    DOWN = "graph store bolt://127.0.0.1:1 is unreachable (Couldn't connect to 127.0.0.1:1"

    def test_every_public_method_in_the_boundary(self):
        from stores.memgraph import MemgraphGraphStore

        own = {name for name, value in vars(MemgraphGraphStore).items()
               if callable(value) and not name.startswith("_")}
        unguarded = {name for name in own if not hasattr(getattr(MemgraphGraphStore, name), "__wrapped__")}
        assert unguarded == {"close", "ping", "count_trip"}  # guarded by themselves: no schema, no query

    def test_labelled_says_the_store_is_down(self):
        from stores.errors import StoreUnavailable
        from stores.memgraph import MemgraphGraphStore

        store = MemgraphGraphStore("bolt://127.0.0.1:1", dialect="memgraph")
        try:
            with pytest.raises(StoreUnavailable) as err:
                store.labelled(["Endpoint"])
            assert str(err.value).startswith(self.DOWN)
            assert str(err.value).endswith("start the server (docker/ has a compose file for Memgraph), or correct the"
                                           " Bolt URI in the configuration; `ripple doctor` checks it")
        finally:
            store.close()

    def test_mcp_endpoints_tool_says_why(self, monkeypatch, tmp_path):
        from mcp.server.mcpserver.exceptions import ToolError

        from lsp_server.mcp_server import Backend

        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
        monkeypatch.setenv("RIPPLE_GRAPH_BACKEND", "memgraph")
        monkeypatch.setenv("RIPPLE_MEMGRAPH_URI", "bolt://127.0.0.1:1")
        monkeypatch.setenv("RIPPLE_SEARCH_BACKEND", "elasticsearch")
        monkeypatch.setenv("RIPPLE_ES_URL", "http://127.0.0.1:1")
        backend = Backend()
        try:
            for _ in range(2):  # and again: the server goes on answering
                with pytest.raises(ToolError) as err:
                    backend.call(lambda q: q.endpoints(None, None, 10, 2000, False))
                assert str(err.value).startswith("the index cannot answer: " + self.DOWN)
        finally:
            backend.close()


class TestIndexLackingATable:
    """An index of schema 8 whose ``node_rows`` table (and ``nodes`` view) was dropped: every command said
    ``index ... is damaged (no such table: node_rows); delete it and re-index``, ``ripple index`` too,
    so the index could not be rebuilt by the command the message names. A ``meta`` row changed
    (``schema_version`` 'abc') was already rebuilt ('99', a newer ripplegraph's: refused, below). Now a table missing from an index of this
    version is said by name, and ``ripple index`` rebuilds it; an index only lacking its BM25 block
    maxima still answers (searches rank without them)."""

    @staticmethod
    def indexed_then(tmp_path, monkeypatch, *statements: str):
        """``(root, db, runner, stats)``: a two-function tree indexed by ``ripple index`` into ``db``, its
        ``ripple stats --json`` output, then ``statements`` run on the index file."""
        import sqlite3

        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        root = write_tree(tmp_path / "t1", {"pkg/m.py": "def f():\n    return 1\n\ndef g():\n    return f()\n"})
        db = tmp_path / "i.db"
        runner = CliRunner()
        assert runner.invoke(cli_main, ["index", str(root), "--db", str(db), "--no-embed"]).exit_code == 0
        stats = runner.invoke(cli_main, ["stats", "--db", str(db), "--json"]).output
        conn = sqlite3.connect(db)
        for sql in statements:
            conn.execute(sql)
        conn.commit()
        conn.close()
        return root, db, runner, stats

    def test_rebuilt_by_ripple_index(self, tmp_path, monkeypatch):
        root, db, runner, clean = self.indexed_then(tmp_path, monkeypatch, "DROP VIEW nodes", "DROP TABLE node_rows")
        for args in (["stats"], ["callers", "f"], ["search", "f"]):
            out = runner.invoke(cli_main, [*args, "--db", str(db)])
            assert out.exit_code == 1
            assert out.output.strip().splitlines()[-1] == (f"Error: index {db} is damaged (no node_rows, nodes); run "
                                                            "`ripple index` again to rebuild it")
        again = runner.invoke(cli_main, ["index", str(root), "--db", str(db), "--no-embed"])
        assert again.exit_code == 0, again.output
        assert runner.invoke(cli_main, ["stats", "--db", str(db), "--json"]).output == clean
        assert runner.invoke(cli_main, ["callers", "f", "--db", str(db)]).output.splitlines()[:3] == [
            "t1:pkg/m.f(0)  (function, pkg/m.py:1)", "1 call site from 1 caller", "pkg/m.py:5:12  g  [exact]"]

    def test_block_maxima_missing_still_answer(self, tmp_path, monkeypatch):
        _, db, runner, _ = self.indexed_then(tmp_path, monkeypatch, "DROP TABLE bm25_maxima")
        out = runner.invoke(cli_main, ["search", "f", "--db", str(db), "--json"])
        assert out.exit_code == 0
        assert [h["fqn"] for h in json.loads(out.output)["hits"]] == ["t1:pkg/m.f(0)", "t1:pkg/m.g(0)"]


def _mediator_send(n: int) -> str:
    chain = "".join(f"        var x{i + 1} = flag ? x{i} : x{i};\n" for i in range(n))
    return ("using MediatR;\nnamespace App {\n  public class Cmd : IRequest<bool> {}\n  public class Ctl {\n"
            "    private readonly IMediator _mediator;\n    public async System.Threading.Tasks.Task Run(bool flag) {\n"
            f"        var x0 = new Cmd();\n{chain}        await _mediator.Send(x{n});\n    }}\n  }}\n}}\n")


class TestCSharpMessageLocalsDiamond:
    """The C# message detector's cycle guard stopped a local reading itself, not locals reading one
    another through conditionals: ``var x1 = flag ? x0 : x0; var x2 = flag ? x1 : x1; ...`` was read
    once per path, 2^n: 18 locals took 5.2 s of CPU, 30 would take hours (a hang of the index run)."""

    def test_each_local_read_once(self):
        from indexer.languages import extractor_for_path

        def topics(n):
            ex = extractor_for_path("Ctl.cs").extract("Ctl.cs", _mediator_send(n).encode())
            return [(u.role, u.topic.parts, u.owner) for u in ex.topics if u.framework == "mediatr"]

        sent = [("produces", (("lit", "Cmd"),), "Ctl.Run"), ("produces", (("lit", "IRequest"),), "Ctl.Run")]
        assert topics(2) == topics(40) == topics(63) == sent
        # 64 locals through one another: not followed (the reading would pass Python's recursion limit)
        assert topics(64) == topics(200) == []


class TestIndexOfANewerVersion:
    """An index whose ``meta`` says a newer schema version (written by a newer ripplegraph) was silently
    deleted and rebuilt by ``ripple index`` (brk64b): an older editor server and a newer CLI sharing
    one index would rebuild it in turn. Now every command refuses it with the versions and the fix, and
    ``ripple index`` leaves the file as it was; an older version ('5') is still rebuilt."""

    def test_refused_and_kept(self, tmp_path, monkeypatch):
        import hashlib

        root, db, runner, _ = TestIndexLackingATable.indexed_then(
            tmp_path, monkeypatch, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        before = hashlib.sha256(db.read_bytes()).hexdigest()
        message = (f"index {db} has schema version '99', written by a newer ripplegraph; this one reads 8: "
                   "upgrade ripplegraph to use it, or pass another --db to index with this one")
        for args in (["stats"], ["callers", "f"], ["index", str(root), "--no-embed"]):
            out = runner.invoke(cli_main, [*args, "--db", str(db)])
            assert out.exit_code == 1, (args, out.output)
            assert message in " ".join(out.output.split()), (args, out.output)
        assert hashlib.sha256(db.read_bytes()).hexdigest() == before

    def test_an_older_version_is_still_rebuilt(self, tmp_path, monkeypatch):
        root, db, runner, clean = TestIndexLackingATable.indexed_then(
            tmp_path, monkeypatch, "UPDATE meta SET value = '5' WHERE key = 'schema_version'")
        assert runner.invoke(cli_main, ["index", str(root), "--db", str(db), "--no-embed"]).exit_code == 0
        assert runner.invoke(cli_main, ["stats", "--db", str(db), "--json"]).output == clean
