"""The language server's search on a team configuration reads Elasticsearch (lsp_server/team.py): the
exact requests ``ripple/search`` sends through the session's search index, over the graph of the
workspace's index; the answer is the hit Elasticsearch returned, located in the graph."""

from __future__ import annotations

from pathlib import Path

import pytest

from lsp_server import team
from lsp_server.server import Folder, build_server
from lsp_server.team import GuardedSearch, StoreSession
from stores.config import Config, SearchConfig
from stores.elasticsearch import ElasticsearchSearchIndex
from tests.index_harness import index_fixture
from tests.unit.test_elasticsearch import URL, Cluster, search_reply

CLIENT = Path(__file__).parents[1] / "lsp" / "workspace" / "client"
FETCH = "client:client/api.OwnerClient.fetch_owner(1)"


@pytest.fixture
def graph(tmp_path: Path):
    store = index_fixture(CLIENT, tmp_path / "index.db", "client", state_dir=str(tmp_path / "state"))
    yield store
    store.close()


def test_search_goes_to_elasticsearch_with_the_graph_beside_it(graph, tmp_path: Path, monkeypatch):
    cluster = Cluster()
    es = ElasticsearchSearchIndex(URL, client_options={"node_class": cluster.node_class(), "max_retries": 0})
    monkeypatch.setattr(team, "open_search_index", lambda config: es)
    server = build_server()
    server.session = StoreSession(server, Config(search=SearchConfig(backend="elasticsearch", url=URL)))
    server.folders.append(Folder(CLIENT.as_uri(), CLIENT, "client", tmp_path / "index.db", store=graph))
    [(g, index)] = server.search_sources()
    assert g.get_nodes([FETCH])[FETCH].name == "fetch_owner"  # the workspace's graph
    assert isinstance(index, GuardedSearch) and index.inner is es
    count = {"took": 1, "timed_out": False, "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
             "hits": {"total": {"value": 7, "relation": "eq"}, "max_score": None, "hits": []},
             "aggregations": {"embedded": {"doc_count": 0}}}
    chunk = {"id": FETCH, "repo": "client", "product": "client", "file": "client/api.py", "language": "python",
             "kind": "method", "name": "fetch_owner", "fqn": FETCH, "parent": None, "start_line": 8, "end_line": 9,
             "text": "def fetch_owner(self, owner_id):", "checksum": "c" * 40}
    cluster.reply(200, count)
    cluster.reply(200, count)
    cluster.reply(200, search_reply([{"_index": "ripple-chunks.code.client", "_id": FETCH, "_score": 3.5,
                                      "_source": {"id": FETCH}, "sort": [3.5, FETCH]}]))
    for _ in range(3):  # the chunks of the hits and of the symbols named like the query
        cluster.reply(200, search_reply([{"_index": "ripple-chunks.code.client", "_id": FETCH, "_score": 1.0,
                                          "_source": chunk}]))
    from analysis.retrieval import query_engine

    result = query_engine(g, None, index).search("fetch_owner", 5)
    assert [(h.node.id, h.chunk.file, h.chunk.start_line) for h in result.hits] == [(FETCH, "client/api.py", 8)]
    bodies = [(r.method, r.path, r.body) for r in cluster.requests]
    assert bodies[0] == ("POST", "/ripple-chunks.*/_search", {
        "size": 0, "track_total_hits": True, "aggs": {"embedded": {"filter": {"exists": {"field": "embedding"}}}}})
    assert bodies[2] == ("POST", "/ripple-chunks.*/_search", {
        "query": {"combined_fields": {"query": "fetch_owner fetch owner", "fields": ["name^3", "fqn^2", "text"],
                                      "operator": "or"}},
        "size": 50, "sort": [{"_score": {"order": "desc"}}, {"id": {"order": "asc"}}], "_source": {"includes": ["id"]},
        "track_scores": True, "track_total_hits": False})
    assert ("POST", "/ripple-chunks.*/_search", {"query": {"terms": {"id": [FETCH]}}, "size": 1,
                                                 "track_total_hits": False}) in bodies[3:]
