"""Every route of ``ripple api`` over HTTP (httpx) against a real uvicorn server, on an index of two
repositories: exact answers, problem documents for what is refused, ingest jobs and their 409s."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import filelock
import httpx
import pytest

from tests.api.conftest import WORKSPACE, Server, copy_index, start_server, stop_server

PROBLEM = "application/problem+json"
FIND_BY_ID = "petclinic:src/main/java/org/example/OwnerRepository.OwnerRepository.findById(int)"
FETCH_OWNER = "client:client/api.OwnerClient.fetch_owner(1)"


@pytest.fixture(scope="module")
def http(server: Server):
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def problem(r: httpx.Response, status: int) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == PROBLEM
    body = r.json()
    assert set(body) == {"type", "title", "status", "detail"} and body["status"] == status
    assert "Traceback" not in body["detail"]
    return body


def test_health(http):
    r = http.get("/v1/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "version": "0.1.0", "stores": [
        {"role": "graph", "backend": "embedded", "ok": True, "detail": None},
        {"role": "search", "backend": "embedded", "ok": True, "detail": None}]}


def test_repositories_and_stats(http, server):
    body = http.get("/v1/repositories").json()
    assert [(r["name"], r["files"], r["chunks"], r["embedded"], r["changedFiles"], r["ingesting"])
            for r in body["repositories"]] == [("client", 3, 10, 10, 0, False),
                                               ("petclinic", 3, 12, 12, 0, False)]  # the registry records each folder and time
    assert body["totals"] == {"repositories": 2, "nodes": {"Class": 4, "Constructor": 3, "Field": 3, "File": 6,
                                                           "Function": 3, "Method": 6},
                              "edges": {"CALLS": 9, "CONTAINS": 19, "USES_TYPE": 6},
                              "callsByResolution": {"exact": 7, "inferred": 2}, "files": {"java": 3, "python": 3},
                              "chunks": 22, "embedded": 22}
    assert [s["name"] for s in body["steps"]] == ["Repositories", "Counts"] and body["truncated"] == []
    stats = http.get("/v1/repositories/petclinic").json()
    assert {k: v for k, v in stats.items() if k not in ("indexedAt", "root", "counts")} == {
        "name": "petclinic", "files": 3, "chunks": 12, "embedded": 12, "changedFiles": 0, "ingesting": False,
        "branch": None, "default": True, "product": "petclinic", "remote": None, "commit": None,
        "filesByLanguage": {"java": 3}, "nodes": {"Class": 3, "Constructor": 2, "Field": 2, "File": 3, "Method": 4}}
    assert stats["root"].endswith("/petclinic") and stats["indexedAt"].endswith("Z")
    assert stats["counts"] == {"files": 3, "nodes": 14, "edges": stats["counts"]["edges"], "chunks": 12, "vectors": 0}
    body = problem(http.get("/v1/repositories/nope"), 404)
    assert body["detail"] == ("no repository 'nope' is indexed; GET /v1/repositories lists them, "
                              "POST /v1/repositories/{name}/ingest adds one")


def test_search_hits_ranks_and_context(http):
    r = http.post("/v1/search", json={"query": "findById", "limit": 2})
    assert r.status_code == 200
    body = r.json()
    assert body["lists"] == ["bm25", "knn", "name"] and body["notes"] == [] and body["searchTimeMs"] >= 0
    assert (body["dropped"], body["truncated"]) == (0, [])
    steps = [s["name"] for s in body["steps"]]  # the first search of a server loads the query model
    assert steps in (["Hybrid search", "Graph context"], ["Load query model", "Hybrid search", "Graph context"])
    first, second = body["hits"]
    assert first == {
        "id": FIND_BY_ID, "chunkId": FIND_BY_ID, "name": "org.example.OwnerRepository.findById", "label": "Method",
        "kind": "method", "language": "java", "repo": "petclinic", "path": "src/main/java/org/example/OwnerRepository.java",
        # an exact definition: 10 + (4 implementation + 2 public + 1 base + fan-in 1/(1+1)) / 8
        "line": 4, "endLine": 6, "score": 10.9375, "ranks": {"bm25": 1, "knn": 1, "name": 1, "models": {}, "rrf": 1},
        "source": "    public Owner findById(int id) {\n        return new Owner(id);\n    }", "sourceTruncated": False,
        "callers": {"count": 1, "names": ["org.example.OwnerController.show"]},
        "callees": {"count": 1, "names": ["org.example.Owner.Owner"]}, "endpoints": {"count": 0, "names": []},
        "mentions": []}
    assert (second["id"], second["ranks"]) == ("petclinic:src/main/java/org/example/OwnerRepository.OwnerRepository",
                                               {"bm25": 2, "knn": 2, "name": None, "models": {}, "rrf": 2})


def test_search_filters_limits_and_budget(http):
    hits = http.post("/v1/search", json={"query": "owner", "repo": "client", "limit": 100}).json()["hits"]
    assert hits and {h["repo"] for h in hits} == {"client"}
    assert http.post("/v1/search", json={"query": "owner", "language": "java", "kind": "class"}).json()["hits"][0][
        "id"] == "petclinic:src/main/java/org/example/Owner.Owner"
    assert http.post("/v1/search", json={"query": "owner", "repo": "nope"}).json()["hits"] == []
    small = http.post("/v1/search", json={"query": "owner", "limit": 20, "maxTokens": 400}).json()
    assert len(small["hits"]) < 20 and small["truncated"][-1].startswith(f"showing {len(small['hits'])} of ")
    assert problem(http.post("/v1/search", json={"query": "owner", "limit": 101}), 422)["detail"] == (
        "limit: Input should be less than or equal to 100")
    assert problem(http.post("/v1/search", json={"query": "owner", "maxTokens": 10}), 422)["detail"] == (
        "maxTokens: Input should be greater than or equal to 200")
    assert http.post("/v1/search", json={"query": "owner", "kind": "sql"}).json()["hits"] == []  # no SQL indexed
    assert problem(http.post("/v1/search", json={"query": "owner", "kind": "table"}), 422)["detail"] == (
        "kind: Input should be 'method', 'function', 'class', 'file_section', 'sql', 'config' or 'doc'")
    assert problem(http.post("/v1/search", json={"query": ""}), 422)["detail"] == (
        "query: String should have at least 1 character")
    assert problem(http.post("/v1/search", json={"query": "x", "limt": 3}), 422)["detail"] == (
        "limt: Extra inputs are not permitted")
    assert problem(http.post("/v1/search", content=b'{"query": ', headers={"content-type": "application/json"}),
                   422)["detail"] == (
        "the body is not valid JSON (Expecting value at character 10); send a JSON object with "
        "`Content-Type: application/json`")
    assert problem(http.post("/v1/search", content=b'\xff', headers={"content-type": "application/json"}), 400)[
        "detail"] == ("the body is not valid JSON: send a JSON object in UTF-8 with `Content-Type: application/json` "
                      "(the route's schema is in /openapi.json)")
    assert problem(http.post("/v1/search", content=b"query=x"), 422)["detail"] == (
        "the body must be a JSON object sent with `Content-Type: application/json` (the route's schema is in "
        "/openapi.json)")


def test_similar(http):
    body = http.get(f"/v1/search/similar/{FETCH_OWNER}", params={"limit": 4}).json()
    assert body["chunkId"] == FETCH_OWNER and body["notes"] == []
    assert [(h["id"], h["ranks"]) for h in body["hits"]] == [
        # the vectors read path and class (contextual chunk headers): the members of its class first
        ("client:client/api.OwnerClient", {"bm25": None, "knn": 1, "name": None, "models": {}, "rrf": 1}),
        ("client:client/api.OwnerClient._get(1)", {"bm25": None, "knn": 2, "name": None, "models": {}, "rrf": 2}),
        ("client:client/api.OwnerClient.__init__(1)", {"bm25": None, "knn": 3, "name": None, "models": {}, "rrf": 3}),
        ("client:client/report.render(1)", {"bm25": None, "knn": 4, "name": None, "models": {}, "rrf": 4})]
    assert body["hits"][3]["callees"] == {"count": 2, "names": ["client.api.OwnerClient.__init__",
                                                                "client.api.OwnerClient.fetch_owner"]}
    assert FETCH_OWNER not in [h["id"] for h in http.get(f"/v1/search/similar/{FETCH_OWNER}").json()["hits"]]
    assert problem(http.get("/v1/search/similar/client:nope"), 404)["detail"] == (
        "no chunk 'client:nope'; chunk ids are the `chunkId` of search hits")
    problem(http.get(f"/v1/search/similar/{FETCH_OWNER}", params={"limit": 0}), 422)


def test_models(http):
    from stores.local_models import models_dir

    from tests.api.conftest import clean_env

    mpnet_built = (models_dir(env=clean_env()) / "all-mpnet-base-v2-int8" / "SHA256SUMS").is_file()
    assert http.get("/v1/search/models").json() == {
        "models": [{"name": "ripplegraph/all-MiniLM-L6-v2-int8", "searchName": "minilm", "dimensions": 384,
                    "bundled": True, "active": True, "built": True, "configured": False, "vectors": 22},
                   {"name": "ripplegraph/all-mpnet-base-v2-int8", "searchName": "mpnet", "dimensions": 768,
                    "bundled": False, "active": False, "built": mpnet_built, "configured": False, "vectors": 0}],
        "configured": [], "chunks": 22, "embedded": 22}


def test_symbol(http):
    body = http.post("/v1/symbol", json={"target": "OwnerRepository.findById"}).json()
    [sym] = body["definitions"]
    assert sym["id"] == FIND_BY_ID and sym["signature"] == "public Owner findById(int id)"
    assert [(c["fromName"], c["line"], c["col"]) for c in sym["callers"]] == [("org.example.OwnerController.show", 11, 34)]
    assert [(c["name"], c["sites"]) for c in sym["callees"]] == [
        ("org.example.Owner.Owner", [{"path": "src/main/java/org/example/OwnerRepository.java", "line": 5, "col": 20}])]
    assert (sym["callerCount"], sym["calleeCount"], sym["endpoints"]) == (1, 1, [])
    assert sym["source"] == "    public Owner findById(int id) {\n        return new Owner(id);\n    }"
    assert [s["name"] for s in body["steps"]] == ["Resolve target", "Source", "Callers and callees"]


def test_callers_by_name_id_and_position(http):
    expected = [{"target": FIND_BY_ID, "kind": "CALLS",
                 "from": "petclinic:src/main/java/org/example/OwnerController.OwnerController.show(int)",
                 "fromName": "org.example.OwnerController.show", "repo": "petclinic",
                 "path": "src/main/java/org/example/OwnerController.java", "line": 11, "col": 34,
                 "resolution": "exact"}]
    assert http.post("/v1/callers", json={"target": "OwnerRepository.findById"}).json()["callers"] == expected
    assert http.post("/v1/callers", json={"target": FIND_BY_ID}).json()["callers"] == expected
    at_line = http.post("/v1/callers", json={"target": "src/main/java/org/example/OwnerRepository.java:4"}).json()
    assert [t["id"] for t in at_line["targets"]] == [FIND_BY_ID] and at_line["callers"] == expected
    assert http.post("/v1/callers", json={"target": FIND_BY_ID, "resolutions": ["name"]}).json()["callers"] == []
    missing = problem_with_candidates(http.post("/v1/callers", json={"target": "OwnerRepository.findByName"}))
    assert missing["title"] == "Unknown symbol"
    assert (missing["detail"], missing["candidates"]) == (
        "no symbol matches 'OwnerRepository.findByName'. Pass a qualified name "
        "(Class.method, package.module.function), a node id or PATH:LINE", [])  # no candidates: none to pass
    near = problem_with_candidates(http.post("/v1/callers", json={"target": "Owner.findBy"}))
    assert near["detail"].startswith("no symbol matches 'Owner.findBy'; closest names: ")
    assert [c["id"] for c in near["candidates"]] == [FIND_BY_ID]


def problem_with_candidates(r: httpx.Response, status: int = 404) -> dict:
    assert r.status_code == status and r.headers["content-type"] == PROBLEM
    body = r.json()
    assert set(body) == {"type", "title", "status", "detail", "candidates"}
    return body


def test_references(http):
    body = http.post("/v1/references", json={"target": "org.example.Owner"}).json()
    assert body["count"] == 5
    assert [(r["kind"], r["path"].rsplit("/", 1)[-1], r["line"], r["col"]) for r in body["references"]] == [
        ("USES_TYPE", "OwnerController.java", 10, 12), ("USES_TYPE", "OwnerController.java", 11, 9),
        ("USES_TYPE", "OwnerRepository.java", 4, 12), ("USES_TYPE", "OwnerRepository.java", 5, 20),
        ("CALLS", "OwnerRepository.java", 5, 20)]


def test_impact(http):
    body = http.post("/v1/impact", json={"target": "OwnerRepository.findById", "depth": 3}).json()
    assert body["markdown"].startswith("# Blast radius of `")
    assert "**1 direct caller · 0 endpoints**" in body["markdown"] and "## Steps executed" in body["markdown"]
    assert body["report"]["summary"]["callers"] == 1 and body["report"]["depth"] == 3
    assert [t["id"] for t in body["report"]["targets"]] == [FIND_BY_ID]
    assert body["steps"][0]["name"] == "Resolve target" and body["truncated"] == []
    problem(http.post("/v1/impact", json={"target": "x", "depth": 21}), 422)
    problem(http.post("/v1/impact", json={"target": "x", "tests": "some"}), 422)


def test_endpoints(http):
    # the workspace serves no endpoint (a Java repository without a web framework, a Python client)
    body = http.get("/v1/endpoints").json()
    assert {k: body[k] for k in ("endpoints", "total", "leftOut", "unserved", "unservedListed", "repo")} == {
        "endpoints": [], "total": 0, "leftOut": 0, "unserved": 0, "unservedListed": False, "repo": None}
    assert [s["name"] for s in body["steps"]] == ["Endpoints"] and body["truncated"] == []
    problem(http.get("/v1/endpoints", params={"limit": 101}), 422)
    problem(http.get("/v1/endpoints", params={"maxTokens": 10}), 422)


def test_errors_are_problems(http):
    assert problem(http.get("/v1/nope"), 404)["detail"] == "no route GET /v1/nope; the routes are listed at /openapi.json"
    assert problem(http.put("/v1/search"), 405)["detail"] == (
        "PUT is not allowed on /v1/search; the routes are listed at /openapi.json")
    big = b'{"query": "' + b"x" * (1 << 20) + b'"}'
    assert problem(http.post("/v1/search", content=big, headers={"content-type": "application/json"}), 413)[
        "detail"] == "the request body is larger than 1,048,576 bytes, the most this server reads; send a smaller request"


def test_openapi_documents_every_route(http):
    spec = http.get("/openapi.json").json()
    routes = {(m.upper(), p) for p, ops in spec["paths"].items() for m in ops}
    assert routes == {
        ("GET", "/v1/health"), ("GET", "/v1/repositories"), ("GET", "/v1/repositories/{name}"),
        ("DELETE", "/v1/repositories/{name}"), ("POST", "/v1/repositories/{name}/ingest"), ("GET", "/v1/jobs/{job_id}"),
        ("POST", "/v1/search"), ("GET", "/v1/search/similar/{chunk_id}"), ("GET", "/v1/search/models"),
        ("POST", "/v1/symbol"), ("POST", "/v1/callers"), ("POST", "/v1/references"), ("POST", "/v1/impact"),
        ("GET", "/v1/endpoints"), ("GET", "/v1/unlinked")}
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            assert "200" in op["responses"] or "202" in op["responses"], (method, path)
            assert PROBLEM in op["responses"]["422"]["content"], (method, path)


def wait_job(http: httpx.Client, job_id: str, states: tuple[str, ...] = ("succeeded", "failed")) -> dict:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = http.get(f"/v1/jobs/{job_id}").json()
        if job["state"] in states:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish: {job}")


@pytest.fixture
def writable(indexed, tmp_path):
    """A server of its own over a copy of the index, --root a fresh folder holding a copy of petclinic."""
    _, db = indexed
    root = tmp_path / "src"
    shutil.copytree(WORKSPACE / "petclinic", root / "shop")
    (root / "notes.txt").write_text("not a folder")
    srv = start_server(root, copy_index(db, tmp_path / "db"))
    with httpx.Client(base_url=srv.url, timeout=30) as client:
        yield srv, client
    stop_server(srv)


def test_ingest_job_progress_conflict_and_delete(writable):
    srv, http = writable
    shop = str(srv.cwd / "shop")
    lock = filelock.FileLock(f"{srv.db}.lock")
    lock.acquire()  # another writer holds the index: the job waits, queued
    try:
        r = http.post("/v1/repositories/shop/ingest", json={"path": shop, "skipEmbeddings": True})
        assert r.status_code == 202
        job = r.json()
        assert r.headers["location"] == f"/v1/jobs/{job['id']}"
        assert (job["repo"], job["path"], job["state"]) == ("shop", shop, "queued")
        again = problem(http.post("/v1/repositories/shop/ingest", json={"path": shop}), 409)
        assert again["detail"] == (f"repository 'shop' is being ingested (job {job['id']}, queued); wait for it "
                                   f"(GET /v1/jobs/{job['id']}), then ingest again")
        assert http.get("/v1/jobs/" + job["id"]).json()["progress"]["phase"] == (
            "waiting for another ripple process writing the index")
    finally:
        lock.release()
    done = wait_job(http, job["id"])
    assert done["state"] == "succeeded", done
    assert (done["report"]["files_indexed"], done["report"]["embeddings"]) == (3, {"skipped": "skipEmbeddings"})
    assert done["progress"]["phase"] == "write" and done["finishedAt"] >= done["startedAt"] >= done["createdAt"]
    stats = http.get("/v1/repositories/shop").json()
    assert (stats["root"], stats["files"], stats["changedFiles"], stats["nodes"]) == (
        shop, 3, 0, {"Class": 3, "Constructor": 2, "Field": 2, "File": 3, "Method": 4})
    # skipEmbeddings computes no vector, but shop's 12 chunks have petclinic's texts: their vectors come back
    # from the embedding cache
    assert {k: v for k, v in http.get("/v1/search/models").json().items() if k != "models"} == {
        "configured": [], "chunks": 34, "embedded": 34}
    callers = http.post("/v1/callers", json={"target": "shop:src/main/java/org/example/OwnerRepository.OwnerRepository"
                                                       ".findById(int)"}).json()
    assert [r["from"] for r in callers["callers"]] == [
        "shop:src/main/java/org/example/OwnerController.OwnerController.show(int)"]
    ambiguous = problem_with_candidates(http.post("/v1/callers", json={"target": "OwnerRepository.findById"}), 409)
    assert (ambiguous["title"], ambiguous["type"].rsplit("/", 1)[-1]) == ("Ambiguous symbol", "ambiguous-symbol")
    assert sorted(c["repo"] for c in ambiguous["candidates"]) == ["petclinic", "shop"]
    # a rebuild from scratch gives the same repository
    rebuilt = wait_job(http, http.post("/v1/repositories/shop/ingest",
                                       json={"path": shop, "clearExisting": True, "skipEmbeddings": True}).json()["id"])
    assert (rebuilt["state"], rebuilt["report"]["files_written"]) == ("succeeded", 3)
    assert http.delete("/v1/repositories/shop").json() == {"name": "shop", "filesDeleted": 3}
    problem(http.get("/v1/repositories/shop"), 404)
    assert [r["name"] for r in http.get("/v1/repositories").json()["repositories"]] == ["client", "petclinic"]
    problem(http.get("/v1/jobs/0123"), 404)


def test_delete_during_ingest_is_a_conflict(writable):
    srv, http = writable
    lock = filelock.FileLock(f"{srv.db}.lock")
    lock.acquire()
    try:
        job = http.post("/v1/repositories/petclinic/ingest", json={"path": str(srv.cwd / "shop")}).json()
        assert problem(http.delete("/v1/repositories/petclinic"), 409)["detail"] == (
            f"repository 'petclinic' is being ingested (job {job['id']}); delete it once the job is over")
    finally:
        lock.release()
    # the index's registry records petclinic's own folder: another folder under its name is refused
    done = wait_job(http, job["id"])
    assert done["state"] == "failed" and "already holds repository 'petclinic', indexed from " in done["error"]
    assert http.delete("/v1/repositories/petclinic").json() == {"name": "petclinic", "filesDeleted": 3}
    assert "petclinic" not in [r["name"] for r in http.get("/v1/repositories").json()["repositories"]]


def test_ingest_never_takes_over_another_folders_repository(writable, tmp_path):
    srv, http = writable
    first = wait_job(http, http.post("/v1/repositories/shop/ingest",
                                     json={"path": str(srv.cwd / "shop"), "skipEmbeddings": True}).json()["id"])
    assert first["state"] == "succeeded"
    other = srv.cwd / "other"
    other.mkdir()
    (other / "a.py").write_text("def a():\n    return 1\n")
    failed = wait_job(http, http.post("/v1/repositories/shop/ingest", json={"path": str(other)}).json()["id"])
    assert failed["state"] == "failed"
    assert failed["error"].startswith(f"index {srv.db} already holds repository 'shop', indexed from {srv.cwd / 'shop'}")
    assert http.get("/v1/repositories/shop").json()["files"] == 3


@pytest.mark.parametrize("path, status, detail", [
    ("{root}/missing", 404, "{root}/missing does not exist on the server's machine"),
    ("{root}/notes.txt", 404, "{root}/notes.txt is not a directory: give the folder of a repository"),
    ("/", 403, "the file system's root is not a repository: give the folder of one"),
    ("{tests}", 403, "{tests} is outside the folders this server may index ({root}); start `ripple api` with --root "
                     "FOLDER to allow more"),
    ("{root}/../..", 403, "{up} is outside the folders this server may index ({root}); start `ripple api` with --root "
                          "FOLDER to allow more"),
])
def test_ingest_refuses_paths(writable, path, status, detail):
    srv, http = writable
    values = {"root": str(srv.cwd), "tests": str(Path(__file__).parent), "up": str(srv.cwd.parent.parent)}
    body = problem(http.post("/v1/repositories/x/ingest", json={"path": path.format(**values)}), status)
    assert body["detail"] == f"cannot ingest {path.format(**values)!r}: {detail.format(**values)}"
    assert body["title"] == "Path refused"


def test_ingest_refuses_a_relative_path_and_a_link_out(writable):
    srv, http = writable
    assert problem(http.post("/v1/repositories/x/ingest", json={"path": "shop"}), 422)["detail"] == (
        "path: give the absolute path of the folder on the server's machine (starting with /)")
    assert problem(http.get("/v1/repositories/a\\b"), 422)["detail"] == (
        "name: a repository name has 1 to 200 characters, no slash, backslash or control character")
    (srv.cwd / "link").symlink_to(Path(__file__).parent)
    assert problem(http.post("/v1/repositories/x/ingest", json={"path": str(srv.cwd / "link")}), 403)["detail"] == (
        f"cannot ingest {str(srv.cwd / 'link')!r}: {Path(__file__).parent} is outside the folders this server may "
        f"index ({srv.cwd}); start `ripple api` with --root FOLDER to allow more")


def test_a_target_naming_nothing_is_404_and_one_naming_several_is_409():
    """The status follows what the facade found, not the wording of its message (a table target no
    method reads was once taken for an ambiguous one because its message starts with "nothing")."""
    from analysis.agent_queries import TargetError
    from lsp_server.api.analysis_routes import target_problem

    none = target_problem(TargetError("nothing in the index reads or writes table:visits"))
    several = target_problem(TargetError("'save' names 2 different symbols", [{"id": "a"}, {"id": "b"}], ambiguous=True))
    assert (none.status, none.kind, none.title, none.extra) == (404, "unknown-symbol", "Unknown symbol", {"candidates": []})
    assert (several.status, several.kind, several.title) == (409, "ambiguous-symbol", "Ambiguous symbol")
    assert several.extra == {"candidates": [{"id": "a"}, {"id": "b"}]}
