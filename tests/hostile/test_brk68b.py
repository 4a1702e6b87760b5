"""Session 68, brk68b: hostile input against session 67's additions and the known leftovers, each break with
its fix (docs/benchmarks.md, "Session 68, brk68b"). Exact expectations; a bound on time is a subprocess
timeout, never a timed assertion."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from mcp import Client

from lsp_server.api.app import ApiSettings, create_app
from lsp_server.cli import main
from lsp_server.mcp_server import Backend, build_server
from stores.config import load_config
from stores.contracts import RepositoryRecord
from tests.index_harness import index_files
from tests.unit.test_unlinked_calls import ADMIN, SHOP


@pytest.fixture(scope="module")
def unlinked_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """test_unlinked_calls's two repositories: five unlinked calls of three reasons."""
    base = tmp_path_factory.mktemp("brk68b_unlinked")
    path = base / "index.db"
    index_files(base / "shop", SHOP, "shop", path).close()
    s = index_files(base / "admin", ADMIN, "admin", path)
    s.upsert_repository(RepositoryRecord("admin", "admin", "backoffice", str(base / "admin")))
    s.close()
    return path


def _mcp_calls(db: Path, calls: list[tuple[str, dict]]) -> list[tuple[bool, str]]:
    """Each ``(tool, arguments)`` called through the MCP SDK's own client on an in-memory server:
    ``(is_error, first text line)`` in order."""

    async def go() -> list[tuple[bool, str]]:
        out = []
        async with Client(build_server(Backend([db]))) as client:
            for tool, args in calls:
                r = await client.call_tool(tool, args)
                out.append((r.is_error, r.content[0].text))
        return out

    return asyncio.run(asyncio.wait_for(go(), 120))


class TestIntegerArgumentsNotConverted:
    """The MCP SDK validates tool arguments with pydantic's lax mode: ``offset: true`` paged from 1,
    ``"5"`` and ``5.0`` from 5, ``limit: "2"`` listed 2 and a boolean ``tests: "yes"`` was true; REST
    bodies took ``limit: true`` and ``depth: "3"`` the same way, and REST query strings ``offset=5.0``,
    ``offset=%205`` and ``limit=1_0``. A client sending them has a bug it should hear of: MCP tool
    arguments and REST bodies are now strict (JSON integers and booleans only), REST query integers are
    decimal digits only; the CLI (click) refused ``True`` and ``5.0`` but its ``int`` took `` 4``, ``+3``,
    ``1_0`` and ``٤``: its integer options are decimal digits only too (``cli_support.Whole``)."""

    def test_mcp_refuses_booleans_strings_and_floats_for_integers(self, unlinked_db: Path) -> None:
        got = _mcp_calls(unlinked_db, [
            ("unlinked", {"offset": True}), ("unlinked", {"offset": "5"}), ("unlinked", {"offset": 5.0}),
            ("unlinked", {"limit": "2"}), ("unlinked", {"max_tokens": True}),
            ("search", {"query": "fetch", "tests": "yes"}), ("search", {"query": "fetch", "limit": False}),
            ("impact", {"target": "x", "depth": "3"}), ("references", {"target": "x", "include_declaration": 1}),
            ("endpoints", {"unserved": "true"}),
            ("unlinked", {"offset": 4, "limit": 2})])
        errors = [(bad, text.splitlines()[1:3]) for bad, text in got[:-1]]
        int_type = "  Input should be a valid integer [type=int_type, input_value={}, input_type={}]"
        bool_type = "  Input should be a valid boolean [type=bool_type, input_value={}, input_type={}]"
        assert errors == [
            (True, ["offset", int_type.format("True", "bool")]),
            (True, ["offset", int_type.format("'5'", "str")]),
            (True, ["offset", int_type.format("5.0", "float")]),
            (True, ["limit", int_type.format("'2'", "str")]),
            (True, ["max_tokens", int_type.format("True", "bool")]),
            (True, ["tests", bool_type.format("'yes'", "str")]),
            (True, ["limit", int_type.format("False", "bool")]),
            (True, ["depth", int_type.format("'3'", "str")]),
            (True, ["include_declaration", bool_type.format("1", "int")]),
            (True, ["unserved", bool_type.format("'true'", "str")])]
        assert [text.splitlines()[0] for _, text in got[:-1]] == [
            f"Error executing tool {tool}: 1 validation error for {tool}Arguments"
            for tool in ("unlinked",) * 5 + ("search",) * 2 + ("impact", "references", "endpoints")]
        ok, text = got[-1]
        assert (ok, text.splitlines()[0]) == (False, "# Unlinked calls (5-5 of 5)")

    def test_rest_refuses_them_in_bodies_and_query_strings(self, unlinked_db: Path) -> None:
        app = create_app(ApiSettings(load_config(unlinked_db.parent), unlinked_db, roots=[unlinked_db.parent]))
        with TestClient(app) as http:
            queries = [http.get("/v1/unlinked", params=p) for p in (
                {"offset": "5.0"}, {"offset": "True"}, {"offset": " 4"}, {"limit": "1_0"}, {"maxTokens": "300.0"})]
            bodies = [http.post(route, json=b) for route, b in (
                ("/v1/search", {"query": "fetch", "limit": True}), ("/v1/search", {"query": "fetch", "limit": "3"}),
                ("/v1/search", {"query": "fetch", "maxTokens": 300.5}), ("/v1/impact", {"target": "x", "depth": "3"}))]
            # JSON Schema's integer admits a number with no fractional part (schemathesis sends one): taken
            whole = http.post("/v1/search", json={"query": "fetch", "maxTokens": 300.0})
            good = http.get("/v1/unlinked", params={"offset": "4", "limit": "2"}).json()
        assert [(r.status_code, r.json()["detail"]) for r in queries] == [
            (422, "offset: Value error, expected an integer in decimal digits, not '5.0'"),
            (422, "offset: Value error, expected an integer in decimal digits, not 'True'"),
            (422, "offset: Value error, expected an integer in decimal digits, not ' 4'"),
            (422, "limit: Value error, expected an integer in decimal digits, not '1_0'"),
            (422, "maxTokens: Value error, expected an integer in decimal digits, not '300.0'")]
        assert [(r.status_code, r.json()["detail"]) for r in bodies] == [
            (422, "limit: Input should be a valid integer"), (422, "limit: Input should be a valid integer"),
            (422, "maxTokens: Input should be a valid integer"), (422, "depth: Input should be a valid integer")]
        assert whole.status_code == 200
        assert (good["total"], good["offset"], [(c["repo"], c["path"]) for c in good["calls"]]) == (
            5, 4, [("shop", "tasks.py")])

    def test_cli_refuses_them(self, unlinked_db: Path) -> None:
        out = [CliRunner().invoke(main, ["unlinked", "--db", str(unlinked_db), "--offset", v])
               for v in ("True", "5.0", " 4", "1_0", "\u0664", "-1")]
        message = "Error: Invalid value for '--offset': {} is not an integer in decimal digits."
        assert [(r.exit_code, r.output.splitlines()[-1]) for r in out] == [
            (2, message.format("'True'")), (2, message.format("'5.0'")), (2, message.format("' 4'")),
            (2, message.format("'1_0'")), (2, message.format("'\u0664'")),  # int() took " 4", "1_0" and "٤"
            (2, "Error: Invalid value for '--offset': -1 is not in the range x>=0.")]
        depth = CliRunner().invoke(main, ["impact", "x", "--db", str(unlinked_db), "--depth", "+3"])
        assert (depth.exit_code, depth.output.splitlines()[-1]) == (
            2, "Error: Invalid value for '--depth': '+3' is not an integer in decimal digits.")
        data = json.loads(CliRunner().invoke(main, ["unlinked", "--db", str(unlinked_db), "--offset", "4",
                                                    "--json"]).stdout)
        assert (data["total"], data["offset"], len(data["calls"])) == (5, 4, 1)


_READERS = r"""
import json, logging, os, sys
from pathlib import Path
root = Path(sys.argv[1]); outside = Path(sys.argv[2])
logging.basicConfig(level=logging.WARNING, format="%(name)s %(message)s", stream=sys.stderr)
def plant(folder, name, content):
    d = root / folder; d.mkdir(parents=True, exist_ok=True)
    (d / name.format("ok")).write_text(content)
    os.mkfifo(d / name.format("fifo"))
    (d / name.format("big")).write_bytes(b"#" * 3_000_000)
    (outside / name.format("secret")).write_text(content)
    os.symlink(outside / name.format("secret"), d / name.format("out"))
    os.symlink("/dev/zero", d / name.format("zero"))
outside.mkdir(parents=True, exist_ok=True)
plant("nginx/conf.d", "{}.conf", "server {\n    location /api/ { proxy_pass http://api:8000/; }\n}\n")
plant("src/main/resources/mapper", "{}Mapper.xml", '<mapper namespace="a.B"><select id="one">SELECT 1</select></mapper>')
plant("src/main/resources", "application-{}.yml", "server:\n  port: 8081\n")
(root / "docker-compose.yml").write_text("services:\n  api:\n    image: x\n")
os.mkfifo(root / "compose.yaml")
os.symlink(outside / "application-secret.yml", root / "docker-compose.override.yml")
from indexer.frameworks.mybatis_xml import load_mappers
from indexer.frameworks.nginx_config import load_nginx_routes
from indexer.frameworks.services import read_config, service_map
from indexer.frameworks.spring_config import load_properties
real = os.path.realpath(root)
m = load_mappers(root)
n = load_nginx_routes(str(root), service_map(root), {})
p = load_properties(root)
s = [read_config(real, r) is not None for r in ("docker-compose.yml", "compose.yaml", "docker-compose.override.yml")]
print(json.dumps({"mybatis": [sorted(m.files), list(map(list, m.skipped)), sorted(m.statements)],
                  "nginx": [[r.service for r in n.routes], sorted(map(list, n.skipped))],
                  "spring": sorted(p.items()), "services": s}))
"""


class TestConfigReadersThroughReadInside:
    """The four configuration readers that needed the skip reason (MyBatis mappers count it, nginx records
    it per file, Spring warns once per file and reason, service boundaries warn) read through
    ``fsguard.read_inside`` (``on_skip`` hands them the reason): a FIFO, a 3 MB file, a link out of the
    repository and a link to ``/dev/zero`` beside each good file. A link out is now found before anything
    is opened or ``stat``-ed (nginx reported the ``/dev/zero`` link ``not_regular``), nothing blocks (the
    subprocess's timeout), and every good file is still read."""

    def test_hostile_files_beside_good_ones(self, tmp_path: Path) -> None:
        done = subprocess.run([sys.executable, "-c", _READERS, str(tmp_path / "repo"), str(tmp_path / "outside")],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        assert data["mybatis"] == [["src/main/resources/mapper/okMapper.xml"], [["not_regular", 1], ["too_large", 1]],
                                   ["a.B"]]  # the links out never listed (the walk drops them)
        assert data["nginx"] == [[""], [["nginx/conf.d/big.conf", "too_large"],
                                        ["nginx/conf.d/fifo.conf", "not_regular"],
                                        ["nginx/conf.d/out.conf", "symlink_outside"],
                                        ["nginx/conf.d/zero.conf", "symlink_outside"]]]
        assert data["spring"] == [["server.port", "8081"]]
        assert data["services"] == [True, False, False]
        repo = tmp_path / "repo"
        res = repo / "src/main/resources"
        out = "symlink_outside: '{0}' leads out of " + str(repo)
        fifo = "not_regular: '{0}' is not a regular file"
        lines = set(done.stderr.splitlines())
        services = "indexer.frameworks.services "
        assert {line for line in lines if line.startswith("indexer.")} == {
            services + "compose.yaml ignored: " + fifo.format(f"{repo}/compose.yaml"),
            services + "docker-compose.override.yml ignored: " + out.format(f"{repo}/docker-compose.override.yml"),
            # service boundaries read every YAML file (Kubernetes manifests), quiet only for "unreadable"; the
            # link to /dev/zero was "not_regular" (its target stat-ed first)
            services + "src/main/resources/application-big.yml ignored: too_large: 3000000 bytes",
            services + "src/main/resources/application-fifo.yml ignored: " + fifo.format(f"{res}/application-fifo.yml"),
            services + "src/main/resources/application-out.yml ignored: " + out.format(f"{res}/application-out.yml"),
            services + "src/main/resources/application-zero.yml ignored: " + out.format(f"{res}/application-zero.yml"),
            # Spring's own warnings, once per file and reason (its walk leaves the links out)
            f"indexer.frameworks.spring_config {res}/application-big.yml ignored: too_large: 3000000 bytes",
            f"indexer.frameworks.spring_config {res}/application-fifo.yml ignored: "
            + fifo.format(f"{res}/application-fifo.yml")}


_GRAPHQL_WIDE = r"""
import json, sys
from indexer.frameworks.graphql_documents import parse_document
n = int(sys.argv[1])
fields = " ".join(f"f{i}" for i in range(n))
spreads = " ".join(f"...S{i}" for i in range(n))
frag = parse_document("fragment F on Query { " + fields + " f0 __typename ... on Query { f1 g } }\n").fragments[0]
doc = parse_document("query Q { ...F " + spreads + " ...F }\n")  # (each document under MAX_DOCUMENT_BYTES)
op = doc.operations[0]
print(json.dumps({"errors": doc.errors, "op": [op.fields, len(op.spreads), op.spreads[:3], op.spreads[-1]],
                  "frag": [len(frag.fields), frag.fields[:2], frag.fields[-2:], len(frag.tree)]}))
"""


class TestWideGraphqlSelections:
    """A GraphQL selection of N distinct root fields or fragment spreads: each was checked against the
    list of those kept before it (``graphql_documents._selections``: ``text not in fields``), and the
    linker did the same adding a spread fragment's fields to its operation's (``_expand``), so a fragment
    of 20,000 fields cost 19.5 s to read and 37 s to link (``ripple index`` 75 s, 37 s now). Both keep a
    set beside the list: the same names in the same order, linear."""

    def test_60k_fields_and_spreads_read_once_each_in_order(self) -> None:
        n = 60_000
        done = subprocess.run([sys.executable, "-c", _GRAPHQL_WIDE, str(n)], capture_output=True, text=True,
                              timeout=60)  # (base68: 98 s for 50,000 under a load of 23; this: 2.9 s)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        assert data["errors"] == 0
        # the operation: no own fields; F once (spread twice), then S0 .. S59999
        assert data["op"] == [[], n + 1, ["F", "S0", "S1"], f"S{n - 1}"]
        # the fragment: f0 .. f59999, the repeated f0 and __typename left out, the inline fragment's g
        # added (f1 already there); its tree cut at MAX_TREE_ENTRIES (2,000)
        assert data["frag"] == [n + 1, ["f0", "f1"], [f"f{n - 1}", "g"], 2_000]


_SPREAD_AMPLIFIED = r"""
import json, sys
from pathlib import Path
import indexer.frameworks.graphql_clients as graphql_clients
from tests.index_harness import index_with_report
from tests.resolution_harness import write_tree
graphql_clients.MAX_SPREAD_ENTRIES = int(sys.argv[2])
ops, frags, nf = 20, 5, 100
base = Path(sys.argv[1])
fr = "".join(f"fragment F{j} on Query {{ " + " ".join(f"a{j}_{i}" for i in range(nf)) + " }\n" for j in range(frags))
spread = " ".join(f"...F{j}" for j in range(frags))
q = "".join(f"query Q{k} {{ own{k} {spread} }}\n" for k in range(ops))
write_tree(base / "r", {"src/ops.graphql": q + fr,
                        "src/app.js": "import { useQuery } from '@apollo/client';\nimport Q from './ops.graphql';\n"
                                      "export function A() { return useQuery(Q); }\n"})
s, rep = index_with_report(base / "r", base / "i.db", "r")
s.close()
print(json.dumps([rep.edges["CALLS_HTTP"], {k: v for k, v in sorted(rep.links.items()) if "graphql" in k}]))
"""


class TestFragmentsSpreadByManyOperations:
    """N operations spreading the same fragments each took every field of them (each fragment was followed
    once per operation and again at every use of the document): a 72 KB ``.graphql`` file of 50 operations
    spreading 10 fragments of 1,000 fields made 510,000 edges in 111 s and 700 MiB, and a 1 MB one millions.
    An operation's expansion is now computed once (the same at every use) and fragments add at most
    ``MAX_SPREAD_ENTRIES`` fields and tree entries per repository; past it a fragment is not followed and
    counted ``graphql_spreads_cut``. Here the budget is 5,000 for 20 operations spreading 5 fragments of 100
    fields each."""

    def test_budget_spent_once_per_operation_then_cut(self, tmp_path: Path) -> None:
        done = subprocess.run([sys.executable, "-c", _SPREAD_AMPLIFIED, str(tmp_path), "5000"],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        edges, links = json.loads(done.stdout)
        # A (the use): 500 fragment fields + 20 own fields; Q0..Q9: 501 each; Q10..Q19: their own field only.
        # (base68: 10,540 edges, every operation all 500 fields)
        assert edges == 500 + 20 + 10 * 501 + 10 * 1
        assert links == {"calls_graphql": 5540, "calls_graphql_undeclared": 10040, "graphql_spreads_cut": 50}


class TestIndexMemoryBenchArguments:
    """``bench/index_memory.py`` (session 67 added ``--pages``) ended in a traceback for a path that is no
    folder, after starting its page counter, and took ``--jobs 0`` and ``--memory-budget -5``; it now refuses
    them as ``ripple index`` does, before anything starts."""

    @pytest.mark.parametrize("args, message", [
        (["/nonexistent/brk68b", "--pages"], "not a directory: /nonexistent/brk68b"),
        (["{here}", "--jobs", "0"], "argument --jobs: expected an integer from 1 to 64, not '0'"),
        (["{here}", "--jobs", "1.5"], "argument --jobs: expected an integer from 1 to 64, not '1.5'"),
        (["{here}", "--memory-budget", "-5"],
         "argument --memory-budget: expected an integer from 64 to 4194304, not '-5'")])
    def test_bad_arguments_refused(self, tmp_path: Path, args: list[str], message: str) -> None:
        bench = Path(__file__).resolve().parents[2] / "bench" / "index_memory.py"
        done = subprocess.run([sys.executable, str(bench), *(a.format(here=tmp_path) for a in args)],
                              capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stderr.splitlines()[-1], done.stdout) == (2, f"index_memory.py: error: {message}",
                                                                               "")
