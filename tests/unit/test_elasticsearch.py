"""Exact requests of the Elasticsearch SearchIndex, and parsing of realistic responses.

Requests are intercepted at the transport: the client is built with a scripted node class (the layer
that would open the HTTP connection), so each test sees the method, path, query string and JSON body
the client would put on the wire, and answers with response documents shaped like Elasticsearch 9's.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import elastic_transport
import pytest
from elastic_transport import ApiResponseMeta, BaseNode, HttpHeaders
from elastic_transport._node import NodeApiResponse

from stores.analyzer import analyze
from stores.contracts import Chunk, FileRecord, IndexedFile, ScoredChunk, SearchFilters
from stores.elasticsearch import BulkIndexError, ElasticsearchSearchIndex
from stores.errors import QueryFailed, StoreUnavailable

ROOT = Path(__file__).resolve().parents[2]
URL = "http://es.test:9200"
JSON_HEADERS = {"content-type": "application/vnd.elasticsearch+json;compatible-with=9",
                "x-elastic-product": "Elasticsearch"}


@dataclass
class Request:
    method: str
    path: str
    params: dict[str, str]
    body: Any  # parsed JSON, a list of parsed NDJSON lines, or None


class Cluster:
    """Scripted replies (status + JSON document or raw bytes, or an exception to raise) and the requests seen."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, Any] | Exception] = []
        self.requests: list[Request] = []

    def reply(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.replies.append((status, body, headers or JSON_HEADERS))

    def fail(self, exc: Exception) -> None:
        self.replies.append(exc)

    def node_class(self) -> type[BaseNode]:
        cluster = self

        class ScriptedNode(BaseNode):
            def perform_request(self, method, target, body=None, headers=None, request_timeout=None):
                parts = urlsplit(target)
                parsed: Any = None
                if body is not None:
                    text = body.decode("utf-8")
                    if "x-ndjson" in (headers or {}).get("content-type", ""):
                        parsed = [json.loads(line) for line in text.splitlines() if line]
                    else:
                        parsed = json.loads(text)
                cluster.requests.append(Request(method, parts.path, dict(parse_qsl(parts.query)), parsed))
                assert cluster.replies, f"unexpected request {method} {target}"
                reply = cluster.replies.pop(0)
                if isinstance(reply, Exception):
                    raise reply
                status, payload, response_headers = reply
                meta = ApiResponseMeta(status=status, http_version="1.1", headers=HttpHeaders(response_headers),
                                       duration=0.001, node=self.config)
                raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
                return NodeApiResponse(meta, raw)

        return ScriptedNode


@pytest.fixture
def cluster() -> Cluster:
    return Cluster()


@pytest.fixture
def store(cluster: Cluster) -> ElasticsearchSearchIndex:
    return ElasticsearchSearchIndex(URL, client_options={"node_class": cluster.node_class(), "max_retries": 0})


def chunk(id: str, text: str, *, name: str = "f", kind: str = "method", product: str = "Shop", file: str = "src/a.py",
          embedding: tuple[float, ...] | None = None) -> Chunk:
    return Chunk(id, "shop", product, file, "python", kind, name, f"shop:src/a.{name}(0)", None, 3, 5, text,
                 hashlib.sha1(text.encode()).hexdigest(), embedding)


def indexed(path: str, *chunks: Chunk) -> IndexedFile:
    return IndexedFile(FileRecord("shop", path, "python", "0" * 64, 10), chunks=list(chunks))


def shards(total: int = 1) -> dict[str, int]:
    return {"total": total, "successful": total, "skipped": 0, "failed": 0}


def search_reply(hits: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"took": 3, "timed_out": False, "_shards": shards(3),
            "hits": {"max_score": None, "hits": hits}, **extra}


def by_query_reply(deleted: int = 0, updated: int = 0, noops: int = 0) -> dict[str, Any]:
    return {"took": 12, "timed_out": False, "total": deleted + updated + noops, "updated": updated, "deleted": deleted,
            "batches": 1, "version_conflicts": 0, "noops": noops, "retries": {"bulk": 0, "search": 0},
            "throttled_millis": 0, "requests_per_second": -1.0, "throttled_until_millis": 0, "failures": []}


def not_found(index: str) -> dict[str, Any]:
    cause = {"type": "index_not_found_exception", "reason": f"no such index [{index}]",
             "resource.type": "index_or_alias", "resource.id": index, "index_uuid": "_na_", "index": index}
    return {"error": {"root_cause": [cause], **cause}, "status": 404}


def created(index: str) -> dict[str, Any]:
    return {"acknowledged": True, "shards_acknowledged": True, "index": index}


def bulk_item(index: str, doc_id: str, status: int = 201, error: dict[str, Any] | None = None) -> dict[str, Any]:
    if error is not None:
        return {"index": {"_index": index, "_id": doc_id, "status": status, "error": error}}
    return {"index": {"_index": index, "_id": doc_id, "_version": 1, "result": "created", "_shards": shards(),
                      "_seq_no": 0, "_primary_term": 1, "status": status}}


# The exact index creation request (settings + mapping) of a chunk index.
CHUNK_INDEX_BODY = {
    "settings": {
        "number_of_shards": 1,
        "number_of_replicas": 0,
        "index.mapping.exclude_source_vectors": False,
        "similarity": {"default": {"type": "BM25", "k1": 1.2, "b": 0.75, "discount_overlaps": False}},
        "analysis": {
            "tokenizer": {"ripple_code_tokens": {
                "type": "pattern", "pattern": r"[A-Za-z0-9_$]+(?:[./:\-]+[A-Za-z0-9_$]+)*", "group": 0}},
            "filter": {"ripple_code_parts": {
                "type": "pattern_capture", "preserve_original": True,
                "patterns": [r"([A-Z]+[0-9]*(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+)"]},
                "ripple_max_term": {"type": "length", "max": 32766}},
            "analyzer": {
                "ripple_code": {"type": "custom", "tokenizer": "ripple_code_tokens",
                                "filter": ["ripple_code_parts", "lowercase", "ripple_max_term"]},
                "ripple_terms": {"type": "custom", "tokenizer": "whitespace"},
            },
        },
    },
    "mappings": {
        "dynamic": "strict",
        "_meta": {"ripplegraph_mapping": 2},
        "properties": {
            "id": {"type": "keyword"}, "repo": {"type": "keyword"}, "product": {"type": "keyword"},
            "file": {"type": "keyword"}, "language": {"type": "keyword"}, "kind": {"type": "keyword"},
            "checksum": {"type": "keyword"}, "parent": {"type": "keyword"},
            "name": {"type": "text", "analyzer": "ripple_code", "search_analyzer": "ripple_terms", "index_options": "freqs"},
            "fqn": {"type": "text", "analyzer": "ripple_code", "search_analyzer": "ripple_terms", "index_options": "freqs"},
            "text": {"type": "text", "analyzer": "ripple_code", "search_analyzer": "ripple_terms", "index_options": "freqs"},
            "start_line": {"type": "integer"}, "end_line": {"type": "integer"}, "text_length": {"type": "integer"},
            "embedding": {"type": "dense_vector", "dims": 384, "index": True, "similarity": "cosine",
                          "index_options": {"type": "hnsw"}},
        },
    },
}

SIDE_INDEX_BODY = {
    "settings": {"number_of_shards": 1, "number_of_replicas": 0},
    "mappings": {"dynamic": False, "_meta": {"ripplegraph_mapping": 2}, "properties": {}},
}

E0 = [1.0] + [0.0] * 383
E1 = [0.0, 1.0] + [0.0] * 382


def source(c: Chunk, embedding: list[float] | None = None) -> dict[str, Any]:
    doc = {"id": c.id, "repo": c.repo, "product": c.product, "file": c.file, "language": c.language, "kind": c.kind,
           "name": c.name, "fqn": c.fqn, "parent": c.parent, "start_line": c.start_line, "end_line": c.end_line,
           "text": c.text, "checksum": c.checksum, "text_length": len(c.text)}
    if embedding is not None:
        doc["embedding"] = embedding
    return doc


# --------------------------------------------------------------------------------- replace_chunks


def test_first_replace_creates_the_index_and_sends_bulk_then_delete_by_query(cluster, store):
    a = chunk("shop:src/a.f(0)", "def f(): pass")
    b = chunk("shop:src/a.g(0)", "def g(): return f()", name="g", embedding=(3.0, 4.0) + (0.0,) * 382)
    doc = chunk("shop:README.md#0", "Shop: owners and pets", name="README", kind="doc", file="README.md")
    long_id = "shop:src/a.h(" + "x" * 600 + ")"
    h = chunk(long_id, "def h(x): pass", name="h")
    cluster.reply(404, not_found("ripple-embedding-cache"))
    cluster.reply(200, created("ripple-chunks.code.shop"))
    cluster.reply(200, created("ripple-chunks.doc.shop"))
    hashed = "sha256:" + hashlib.sha256(long_id.encode()).hexdigest()
    cluster.reply(200, {"took": 30, "errors": False, "items": [
        bulk_item("ripple-chunks.code.shop", a.id), bulk_item("ripple-chunks.code.shop", b.id),
        bulk_item("ripple-chunks.doc.shop", doc.id), bulk_item("ripple-chunks.code.shop", hashed)]})
    cluster.reply(200, by_query_reply(deleted=2))

    store.replace_chunks([indexed("src/a.py", a, b, h), indexed("README.md", doc)])

    mget, create_code, create_doc, bulk, dbq = cluster.requests
    assert (mget.method, mget.path, mget.params) == ("POST", "/ripple-embedding-cache/_mget", {})
    assert mget.body == {"ids": sorted({a.checksum, h.checksum, doc.checksum})}
    assert (create_code.method, create_code.path, create_code.params) == ("PUT", "/ripple-chunks.code.shop", {})
    assert create_code.body == CHUNK_INDEX_BODY
    assert (create_doc.method, create_doc.path, create_doc.body) == ("PUT", "/ripple-chunks.doc.shop", CHUNK_INDEX_BODY)
    assert (bulk.method, bulk.path, bulk.params) == ("PUT", "/_bulk", {})
    assert bulk.body == [
        {"index": {"_index": "ripple-chunks.code.shop", "_id": a.id}}, source(a),
        {"index": {"_index": "ripple-chunks.code.shop", "_id": b.id}}, source(b, [0.6000000238418579, 0.800000011920929] + [0.0] * 382),
        {"index": {"_index": "ripple-chunks.code.shop", "_id": hashed}}, source(h),
        {"index": {"_index": "ripple-chunks.doc.shop", "_id": doc.id}}, source(doc),
    ]
    assert (dbq.method, dbq.path) == ("POST", "/ripple-chunks.*/_delete_by_query")
    assert dbq.params == {"allow_no_indices": "true", "conflicts": "proceed", "ignore_unavailable": "true",
                          "refresh": "true"}
    assert dbq.body == {"query": {"bool": {
        "should": [
            {"bool": {"filter": [{"term": {"repo": "shop"}}, {"terms": {"file": ["src/a.py", "README.md"]}}]}},
            {"terms": {"id": [a.id, b.id, long_id, doc.id]}},
        ],
        "minimum_should_match": 1,
        "must_not": [
            {"bool": {"filter": [{"term": {"_index": "ripple-chunks.code.shop"}}, {"terms": {"id": [a.id, b.id, long_id]}}]}},
            {"bool": {"filter": [{"term": {"_index": "ripple-chunks.doc.shop"}}, {"terms": {"id": [doc.id]}}]}},
        ],
    }}}
    assert cluster.replies == []


def test_cached_vectors_fill_new_chunks_and_known_indices_are_not_created_again(cluster, store):
    a = chunk("c1", "def f(): pass")
    cluster.reply(200, {"docs": [{"_index": "ripple-embedding-cache", "_id": a.checksum, "_version": 1, "_seq_no": 3,
                                  "_primary_term": 1, "found": True, "_source": {"embedding": E1}}]})
    cluster.reply(400, {"error": {"root_cause": [{"type": "resource_already_exists_exception",
                                                  "reason": "index [ripple-chunks.code.shop/x1] already exists"}],
                                  "type": "resource_already_exists_exception",
                                  "reason": "index [ripple-chunks.code.shop/x1] already exists",
                                  "index_uuid": "x1", "index": "ripple-chunks.code.shop"}, "status": 400})
    # Another writer made it: its mapping is this version's, so it is used.
    cluster.reply(200, {"ripple-chunks.code.shop": {"mappings": CHUNK_INDEX_BODY["mappings"]}})
    cluster.reply(200, {"took": 2, "errors": False, "items": [bulk_item("ripple-chunks.code.shop", "c1")]})
    cluster.reply(200, by_query_reply())
    store.replace_chunks([indexed("src/a.py", a)])
    assert (cluster.requests[2].method, cluster.requests[2].path) == ("GET", "/ripple-chunks.code.shop/_mapping")
    assert cluster.requests[3].body == [{"index": {"_index": "ripple-chunks.code.shop", "_id": "c1"}}, source(a, E1)]

    cluster.requests.clear()
    cluster.reply(200, {"docs": [{"_index": "ripple-embedding-cache", "_id": a.checksum, "found": False}]})
    cluster.reply(200, {"took": 2, "errors": False, "items": [bulk_item("ripple-chunks.code.shop", "c1")]})
    cluster.reply(200, by_query_reply())
    store.replace_chunks([indexed("src/a.py", a)])
    assert [(r.method, r.path) for r in cluster.requests] == [
        ("POST", "/ripple-embedding-cache/_mget"), ("PUT", "/_bulk"), ("POST", "/ripple-chunks.*/_delete_by_query")]
    assert cluster.requests[1].body[1] == source(a)


def test_a_file_without_chunks_only_deletes(cluster, store):
    cluster.reply(200, by_query_reply(deleted=4))
    store.replace_chunks([indexed("gone.py")])
    (dbq,) = cluster.requests
    assert dbq.body == {"query": {"bool": {
        "should": [{"bool": {"filter": [{"term": {"repo": "shop"}}, {"terms": {"file": ["gone.py"]}}]}}],
        "minimum_should_match": 1}}}
    store.replace_chunks([])  # nothing to do: no request
    assert len(cluster.requests) == 1


def test_bulk_item_errors_raise_after_the_old_chunks_are_deleted(cluster, store):
    chunks = [chunk(f"c{i}", f"def f{i}(): pass") for i in range(7)]
    cluster.reply(200, {"docs": []})
    cluster.reply(200, created("ripple-chunks.code.shop"))
    zero = {"type": "document_parsing_exception",
            "reason": "[1:412] failed to parse field [embedding] of type [dense_vector] in document with id 'c1'",
            "caused_by": {"type": "illegal_argument_exception",
                          "reason": "The [cosine] similarity does not support vectors with zero magnitude."}}
    busy = {"type": "es_rejected_execution_exception",
            "reason": "rejected execution of coordinating operation [coordinating_and_primary_bytes=0]"}
    items = [bulk_item("ripple-chunks.code.shop", "c0"), bulk_item("ripple-chunks.code.shop", "c1", 400, zero)]
    items += [bulk_item("ripple-chunks.code.shop", f"c{i}", 429, busy) for i in range(2, 7)]
    cluster.reply(200, {"took": 5, "errors": True, "items": items})
    cluster.reply(200, by_query_reply())
    with pytest.raises(BulkIndexError) as info:
        store.replace_chunks([indexed("src/a.py", *chunks)])
    assert str(info.value) == (
        "Elasticsearch rejected 6 of 7 documents (index chunks): "
        "c1 (400 document_parsing_exception: [1:412] failed to parse field [embedding] of type [dense_vector] in "
        "document with id 'c1'); "
        "c2 (429 es_rejected_execution_exception: rejected execution of coordinating operation "
        "[coordinating_and_primary_bytes=0]); "
        "c3 (429 es_rejected_execution_exception: rejected execution of coordinating operation "
        "[coordinating_and_primary_bytes=0]); "
        "c4 (429 es_rejected_execution_exception: rejected execution of coordinating operation "
        "[coordinating_and_primary_bytes=0]); "
        "c5 (429 es_rejected_execution_exception: rejected execution of coordinating operation "
        "[coordinating_and_primary_bytes=0]); and 1 more"
    )
    assert [f[:2] for f in info.value.failures] == [("c1", 400), ("c2", 429), ("c3", 429), ("c4", 429), ("c5", 429),
                                                    ("c6", 429)]
    assert isinstance(info.value, QueryFailed)
    assert cluster.requests[-1].path == "/ripple-chunks.*/_delete_by_query"


def test_bulk_requests_hold_at_most_500_documents_and_only_the_delete_refreshes(cluster, store):
    chunks = [chunk(f"c{i:04d}", f"def f{i}(): pass") for i in range(1001)]
    cluster.reply(200, {"docs": []})
    cluster.reply(200, created("ripple-chunks.code.shop"))
    for n in (500, 500, 1):
        cluster.reply(200, {"took": 9, "errors": False, "items": [bulk_item("ripple-chunks.code.shop", "x")] * n})
    cluster.reply(200, by_query_reply())
    store.replace_chunks([indexed("src/a.py", *chunks)])
    bulks = [r for r in cluster.requests if r.path == "/_bulk"]
    assert [len(r.body) // 2 for r in bulks] == [500, 500, 1]
    assert [r.params for r in bulks] == [{}, {}, {}]
    assert cluster.requests[-1].params["refresh"] == "true"


# ------------------------------------------------------------------------------------ searching


def test_bm25_request_with_filters_and_response(cluster, store):
    cluster.reply(200, search_reply([
        {"_index": "ripple-chunks.code.shop", "_id": "owner-repo", "_score": 4.25, "_source": {"id": "owner-repo"},
         "sort": [4.25, "owner-repo"]},
        {"_index": "ripple-chunks.code.shop", "_id": "service", "_score": 1.5, "_source": {"id": "service"},
         "sort": [1.5, "service"]},
    ]))
    hits = store.bm25("OwnerRepository.find_by(x)", 10, SearchFilters(product="Shop", repo="shop", language="python",
                                                                      kind="class"))
    assert hits == [ScoredChunk("owner-repo", 4.25, 1), ScoredChunk("service", 1.5, 2)]
    (req,) = cluster.requests
    assert (req.method, req.path) == ("POST", "/ripple-chunks.code.shop/_search")
    assert req.params == {"allow_no_indices": "true", "ignore_unavailable": "true",
                          "search_type": "dfs_query_then_fetch"}
    assert req.body == {
        "query": {"bool": {
            "must": [{"combined_fields": {
                "query": "ownerrepository.find_by owner repository find by x",
                "fields": ["name^3", "fqn^2", "text"], "operator": "or"}}],
            "filter": [{"term": {"product": "Shop"}}, {"term": {"repo": "shop"}}, {"term": {"language": "python"}},
                       {"term": {"kind": "class"}}],
        }},
        "size": 10,
        "sort": [{"_score": {"order": "desc"}}, {"id": {"order": "asc"}}],
        "_source": {"includes": ["id"]},
        "track_scores": True,
        "track_total_hits": False,
    }


def test_bm25_without_filters_reads_every_chunk_index_and_skips_empty_queries(cluster, store):
    cluster.reply(200, search_reply([]))
    assert store.bm25("owner owner", 3) == []
    (req,) = cluster.requests
    assert req.path == "/ripple-chunks.*/_search"
    assert req.body["query"] == {"combined_fields": {"query": "owner", "fields": ["name^3", "fqn^2", "text"],
                                                     "operator": "or"}}
    assert store.bm25("  (){}.,;  ", 5) == []
    assert store.bm25("owner", 0) == []
    assert len(cluster.requests) == 1


def test_bm25_sends_the_query_terms_without_the_stop_words_written_alone(cluster, store):
    cluster.reply(200, search_reply([]))
    cluster.reply(200, search_reply([]))
    assert store.bm25("Returns the owner of the given repository", 3) == []
    assert store.bm25("the given", 3) == []  # nothing else: every word is sent
    first, second = cluster.requests
    assert first.body["query"]["combined_fields"]["query"] == "returns owner repository"
    assert second.body["query"]["combined_fields"]["query"] == "the given"


def test_index_patterns_per_filter(cluster, store):
    for _ in range(4):
        cluster.reply(200, search_reply([]))
    store.bm25("x", 1, SearchFilters(product="Pet Clinic/2"))
    store.bm25("x", 1, SearchFilters(kind="doc"))
    store.bm25("x", 1, SearchFilters(kind="config", product="p"))
    store.bm25("owners", 1, SearchFilters(kind="sql"))
    assert [r.path for r in cluster.requests] == [
        "/ripple-chunks.*.pet_clinic_2/_search", "/ripple-chunks.doc.*/_search", "/ripple-chunks.config.p/_search",
        "/ripple-chunks.sql.*/_search"]
    assert cluster.requests[3].body["query"] == {"bool": {
        "must": [{"combined_fields": {"query": "owners", "fields": ["name^3", "fqn^2", "text"], "operator": "or"}}],
        "filter": [{"term": {"kind": "sql"}}]}}


def test_knn_request_with_filters_and_cosine_scores(cluster, store):
    cluster.reply(200, search_reply([
        {"_index": "ripple-chunks.code.vets", "_id": "b", "_score": 0.9, "_source": {"id": "b"}},
        {"_index": "ripple-chunks.code.vets", "_id": "a", "_score": 0.9, "_source": {"id": "a"}},
        {"_index": "ripple-chunks.code.vets", "_id": "c", "_score": 0.0, "_source": {"id": "c"}},
    ]))
    hits = store.knn([2.0] + [0.0] * 383, 3, SearchFilters(repo="vets"))
    assert hits == [ScoredChunk("a", pytest.approx(0.8), 1), ScoredChunk("b", pytest.approx(0.8), 2),
                    ScoredChunk("c", -1.0, 3)]
    (req,) = cluster.requests
    assert (req.method, req.path) == ("POST", "/ripple-chunks.*/_search")
    assert req.params == {"allow_no_indices": "true", "ignore_unavailable": "true"}
    assert req.body == {
        "knn": {"field": "embedding", "query_vector": E0, "k": 3, "num_candidates": 100,
                "filter": [{"term": {"repo": "vets"}}]},
        "size": 3, "_source": {"includes": ["id"]}, "track_total_hits": False,
    }
    assert store.knn([0.0] * 384, 3) == []  # no direction
    assert store.knn([1.0, 0.0], 3) == []  # another dimension: nothing stored matches
    assert store.knn(E0, 0) == []
    assert len(cluster.requests) == 1


def test_get_chunks_and_pending_chunks_parse_sources(cluster, store):
    a = chunk("a", "def a(): pass")
    b = chunk("b", "def b(): return 1", embedding=tuple(E1))
    cluster.reply(200, search_reply([
        {"_index": "ripple-chunks.code.shop", "_id": "a", "_score": 1.0, "_source": source(a)},
        {"_index": "ripple-chunks.code.shop", "_id": "b", "_score": 1.0, "_source": source(b, E1)},
    ]))
    assert store.get_chunks(["a", "b", "missing", "a"]) == {"a": a, "b": b}
    req = cluster.requests[0]
    assert (req.path, req.body) == ("/ripple-chunks.*/_search", {
        "query": {"terms": {"id": ["a", "b", "missing"]}}, "size": 3, "track_total_hits": False})
    assert store.get_chunks([]) == {}

    cluster.reply(200, search_reply([
        {"_index": "ripple-chunks.code.shop", "_id": "a", "_score": None, "_source": source(a), "sort": [13, "a"],
         "fields": {"checksum": [a.checksum]}},
    ]))
    doc = chunk("d", "# a long section of documentation")
    cluster.reply(200, search_reply([  # the twin of a (same text) is not asked for twice
        {"_index": "ripple-chunks.code.shop", "_id": "a2", "_score": None, "_source": source(a), "sort": [13, "a2"]},
        {"_index": "ripple-chunks.code.shop", "_id": "d", "_score": None, "_source": source(doc), "sort": [31, "d"]},
    ]))
    assert store.pending_chunks(1024) == [a, doc]  # code units first, then the rest
    code = {"terms": {"kind": ["method", "class", "function"]}}
    for req, query, size in ((cluster.requests[1], {"filter": [code], "must_not": [{"exists": {"field": "embedding"}}]},
                              1024),
                             (cluster.requests[2], {"must_not": [code, {"exists": {"field": "embedding"}}]}, 1023)):
        assert (req.path, req.body) == ("/ripple-chunks.*/_search", {
            "query": {"bool": query},
            "collapse": {"field": "checksum"},
            "sort": [{"text_length": {"order": "asc"}}, {"id": {"order": "asc"}}],
            "size": size, "track_total_hits": False})
    assert store.pending_chunks(0) == []
    assert len(cluster.requests) == 3


def test_chunk_count_reads_the_total_and_the_filter_aggregation(cluster, store):
    cluster.reply(200, search_reply([]) | {
        "hits": {"total": {"value": 26, "relation": "eq"}, "max_score": None, "hits": []},
        "aggregations": {"embedded": {"doc_count": 5}}})
    assert store.chunk_count() == {"chunks": 26, "embedded": 5}
    (req,) = cluster.requests
    assert (req.path, req.body) == ("/ripple-chunks.*/_search", {
        "size": 0, "track_total_hits": True, "aggs": {"embedded": {"filter": {"exists": {"field": "embedding"}}}}})
    # No chunk index yet: Elasticsearch answers with no shards and no aggregations.
    cluster.reply(200, {"took": 0, "timed_out": False, "_shards": shards(0),
                        "hits": {"total": {"value": 0, "relation": "eq"}, "max_score": 0.0, "hits": []}})
    assert store.chunk_count() == {"chunks": 0, "embedded": 0}


def test_chunk_count_of_one_repository_adds_a_term_query(cluster, store):
    cluster.reply(200, search_reply([]) | {
        "hits": {"total": {"value": 4, "relation": "eq"}, "max_score": None, "hits": []},
        "aggregations": {"embedded": {"doc_count": 3}}})
    assert store.chunk_count("shop") == {"chunks": 4, "embedded": 3}
    (req,) = cluster.requests
    assert (req.path, req.body) == ("/ripple-chunks.*/_search", {
        "size": 0, "track_total_hits": True, "aggs": {"embedded": {"filter": {"exists": {"field": "embedding"}}}},
        "query": {"term": {"repo": "shop"}}})


# ---------------------------------------------------------------------------- deleting, embedding


def test_delete_files_is_one_delete_by_query(cluster, store):
    cluster.reply(200, by_query_reply(deleted=3))
    store.delete_files("shop", ["a.py", "b.py", "a.py"])
    (req,) = cluster.requests
    assert (req.method, req.path) == ("POST", "/ripple-chunks.*/_delete_by_query")
    assert req.params == {"allow_no_indices": "true", "conflicts": "proceed", "ignore_unavailable": "true",
                          "refresh": "true"}
    assert req.body == {"query": {"bool": {"filter": [{"term": {"repo": "shop"}}, {"terms": {"file": ["a.py", "b.py"]}}]}}}
    store.delete_files("shop", [])
    assert len(cluster.requests) == 1


def test_delete_repository_is_one_exact_delete_by_query(cluster, store):
    cluster.reply(200, by_query_reply(deleted=41))
    assert store.delete_repository("shop@dev") == 41
    (req,) = cluster.requests
    assert (req.method, req.path) == ("POST", "/ripple-chunks.*/_delete_by_query")
    assert req.params == {"allow_no_indices": "true", "conflicts": "proceed", "ignore_unavailable": "true",
                          "refresh": "true"}
    # A term query on the keyword field: exactly that repository, never shop or shop@dev2.
    assert req.body == {"query": {"bool": {"filter": [{"term": {"repo": "shop@dev"}}]}}}
    cluster.reply(200, by_query_reply() | {"failures": [{"id": "c1", "cause": {"type": "x", "reason": "y"}}]})
    with pytest.raises(QueryFailed, match=r"^Elasticsearch failed to delete a repository's chunks on 1 documents"):
        store.delete_repository("shop")


def test_repository_chunk_count_filters_on_the_exact_repo(cluster, store):
    cluster.reply(200, search_reply([]) | {
        "hits": {"total": {"value": 7, "relation": "eq"}, "max_score": None, "hits": []},
        "aggregations": {"embedded": {"doc_count": 3}}})
    assert store.repository_chunk_count("shop") == {"chunks": 7, "embedded": 3}
    (req,) = cluster.requests
    assert (req.path, req.body) == ("/ripple-chunks.*/_search", {
        "size": 0, "track_total_hits": True, "query": {"bool": {"filter": [{"term": {"repo": "shop"}}]}},
        "aggs": {"embedded": {"filter": {"exists": {"field": "embedding"}}}}})


def test_delete_by_query_failures_raise(cluster, store):
    cluster.reply(200, by_query_reply() | {"failures": [{
        "index": "ripple-chunks.code.shop", "id": "c9", "status": 500,
        "cause": {"type": "circuit_breaking_exception", "reason": "[parent] Data too large"}}]})
    with pytest.raises(QueryFailed, match=r"^Elasticsearch failed to delete chunks on 1 documents, first: c9 "
                                          r"\(circuit_breaking_exception: \[parent\] Data too large\)$"):
        store.delete_files("shop", ["a.py"])


def test_set_embeddings_cache_and_update_by_query(cluster, store):
    cluster.reply(200, search_reply([
        {"_index": "ripple-chunks.code.shop", "_id": "a", "_score": 1.0, "_source": {"id": "a", "checksum": "sum-a"}},
    ]))
    cluster.reply(200, created("ripple-embedding-cache"))
    cluster.reply(200, {"took": 1, "errors": False, "items": [bulk_item("ripple-embedding-cache", "sum-a")]})
    cluster.reply(200, by_query_reply(updated=3))
    store.set_embeddings({"a": [0.0, 2.0] + [0.0] * 382, "unknown": E0})
    lookup, create, bulk, ubq = cluster.requests
    assert (lookup.path, lookup.body) == ("/ripple-chunks.*/_search", {
        "query": {"terms": {"id": ["a", "unknown"]}}, "size": 2, "_source": {"includes": ["id", "checksum"]},
        "track_total_hits": False})
    assert (create.method, create.path, create.body) == ("PUT", "/ripple-embedding-cache", SIDE_INDEX_BODY)
    assert bulk.body == [{"index": {"_index": "ripple-embedding-cache", "_id": "sum-a"}}, {"embedding": E1}]
    assert bulk.params == {}
    assert (ubq.method, ubq.path) == ("POST", "/ripple-chunks.*/_update_by_query")
    # The client sends update_by_query's "conflicts" in the body (delete_by_query's in the query string).
    assert ubq.params == {"allow_no_indices": "true", "ignore_unavailable": "true", "refresh": "true"}
    assert ubq.body == {
        "conflicts": "proceed",
        "query": {"bool": {"should": [
            {"terms": {"id": ["a"]}},
            {"bool": {"filter": [{"terms": {"checksum": ["sum-a"]}}], "must_not": [{"exists": {"field": "embedding"}}]}},
        ], "minimum_should_match": 1}},
        "script": {
            "source": "def v = params.vectors.get(ctx._source.id); if (v == null) { String twin = "
                      "params.twins.get(ctx._source.checksum); if (twin != null) { v = params.vectors.get(twin); } } "
                      "if (v == null) { ctx.op = 'noop'; } else { ctx._source.embedding = v; }",
            "lang": "painless",
            "params": {"vectors": {"a": E1}, "twins": {"sum-a": "a"}},
        },
    }


def test_set_embeddings_rejects_bad_vectors_and_ignores_unknown_ids(cluster, store):
    with pytest.raises(QueryFailed, match="^the embedding of chunk a is a zero vector"):
        store.set_embeddings({"a": [0.0] * 384})
    with pytest.raises(QueryFailed) as info:
        store.set_embeddings({"a": [float("nan")] + [0.5] * 383})
    assert str(info.value) == ("the embedding of chunk a is a zero vector or not finite (NaN, infinity); cosine "
                               "similarity needs a direction")
    with pytest.raises(QueryFailed, match="^the embedding of chunk a has 2 dimensions; the index stores 384$"):
        store.set_embeddings({"a": [1.0, 0.0]})
    store.set_embeddings({})
    assert cluster.requests == []
    cluster.reply(200, search_reply([]))
    store.set_embeddings({"unknown": E0})
    assert len(cluster.requests) == 1


def test_set_embedding_model_first_same_and_changed(cluster, store):
    # Fresh cluster: the meta index does not exist (404), so no model was recorded.
    cluster.reply(404, not_found("ripple-meta"))
    cluster.reply(200, created("ripple-meta"))
    cluster.reply(201, {"_index": "ripple-meta", "_id": "embedding_model", "_version": 1, "result": "created",
                        "forced_refresh": True, "_shards": shards(), "_seq_no": 0, "_primary_term": 1})
    assert store.set_embedding_model("model-a") is False
    get, create, put = cluster.requests
    assert (get.method, get.path) == ("GET", "/ripple-meta/_doc/embedding_model")
    assert (create.path, create.body) == ("/ripple-meta", SIDE_INDEX_BODY)
    assert (put.method, put.path, put.params, put.body) == ("PUT", "/ripple-meta/_doc/embedding_model",
                                                            {"refresh": "true"}, {"value": "model-a"})

    cluster.requests.clear()
    recorded = {"_index": "ripple-meta", "_id": "embedding_model", "_version": 1, "_seq_no": 0, "_primary_term": 1,
                "found": True, "_source": {"value": "model-a"}}
    cluster.reply(200, recorded)
    assert store.set_embedding_model("model-a") is False
    assert len(cluster.requests) == 1

    cluster.requests.clear()
    cluster.reply(200, recorded)
    cluster.reply(200, by_query_reply(updated=5))
    cluster.reply(200, by_query_reply(deleted=4))
    cluster.reply(200, {"_index": "ripple-meta", "_id": "embedding_model", "_version": 2, "result": "updated",
                        "forced_refresh": True, "_shards": shards(), "_seq_no": 1, "_primary_term": 1})
    assert store.set_embedding_model("model-b") is True
    _, drop, empty, put = cluster.requests
    assert (drop.path, drop.body) == ("/ripple-chunks.*/_update_by_query", {
        "conflicts": "proceed",
        "query": {"exists": {"field": "embedding"}},
        "script": {"source": "ctx._source.remove('embedding')", "lang": "painless"}})
    assert drop.params["refresh"] == "true"
    assert (empty.path, empty.params, empty.body) == ("/ripple-embedding-cache/_delete_by_query",
                                                      {"conflicts": "proceed", "refresh": "true"},
                                                      {"query": {"match_all": {}}})
    assert put.body == {"value": "model-b"}


# ------------------------------------------------------------------------------------------ errors


def test_connection_refused_is_store_unavailable(cluster, store):
    cluster.fail(elastic_transport.ConnectionError(
        "Connection error caused by: NewConnectionError(<urllib3.connection.HTTPConnection object at 0x7f3a2c1d>: "
        "Failed to establish a new connection: [Errno 111] Connection refused)"))
    with pytest.raises(StoreUnavailable) as info:
        store.chunk_count()
    assert str(info.value) == (
        "Elasticsearch at http://es.test:9200 is unreachable (connection refused); start it (docker compose -f "
        "docker/compose.yml up -d elasticsearch) or point RIPPLE_ES_URL / [search] url at a running node")


def test_a_real_closed_port_is_connection_refused():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = ElasticsearchSearchIndex(f"http://elastic:secret@127.0.0.1:{port}", max_retries=0)
    with pytest.raises(StoreUnavailable, match=re.escape(f"Elasticsearch at http://127.0.0.1:{port} is unreachable "
                                                         "(connection refused)")):
        store.ping()
    store.close()


def test_timeout_is_store_unavailable(cluster, store):
    cluster.fail(elastic_transport.ConnectionTimeout("Connection timed out"))
    with pytest.raises(StoreUnavailable, match=r"^Elasticsearch at http://es.test:9200 did not answer in time "
                                               r"\(count chunks\); is it starting or overloaded\?$"):
        store.chunk_count()


def test_404_index_missing_on_a_concrete_index_is_query_failed(cluster, store):
    cluster.reply(404, not_found("ripple-chunks.code.shop"))
    with pytest.raises(QueryFailed) as info:
        store._call("read chunks", store._client.search, index="ripple-chunks.code.shop")
    assert str(info.value) == ("cannot read chunks: no such index [ripple-chunks.code.shop]; run `ripple index` to "
                               "create the index")


def test_bad_credentials(cluster, store):
    reason = "unable to authenticate user [elastic] for REST request [/]"
    cluster.reply(401, {"error": {"root_cause": [{"type": "security_exception", "reason": reason}],
                                  "type": "security_exception", "reason": reason}, "status": 401},
                  headers={"content-type": "application/json", "www-authenticate": 'Basic realm="security"'})
    with pytest.raises(StoreUnavailable) as info:
        store.ping()
    assert str(info.value) == (
        "Elasticsearch at http://es.test:9200 refused the credentials (401 security_exception: unable to "
        "authenticate user [elastic] for REST request [/]); set RIPPLE_ES_API_KEY, or RIPPLE_ES_USER and "
        "RIPPLE_ES_PASSWORD ([search] api_key / user / password in the configuration)")


def test_a_server_of_another_major_version(cluster, store):
    reason = "Invalid media-type value on headers [Content-Type, Accept]"
    cluster.reply(400, {"error": {
        "root_cause": [{"type": "media_type_header_exception", "reason": reason}],
        "type": "media_type_header_exception", "reason": reason,
        "caused_by": {"type": "status_exception",
                      "reason": "A compatible version is required on both Content-Type and Accept headers if either "
                                "one has requested a compatible version and the compatible versions must match. "
                                "Accept=application/vnd.elasticsearch+json; compatible-with=9, "
                                "Content-Type=application/vnd.elasticsearch+json; compatible-with=9"}},
        "status": 400}, headers={"content-type": "application/json", "x-elastic-product": "Elasticsearch"})
    with pytest.raises(StoreUnavailable, match=r"^Elasticsearch at http://es.test:9200 does not accept this client "
                                               r"\(elasticsearch-py 9\.3\.0: Invalid media-type value on headers "
                                               r"\[Content-Type, Accept\]\); run an Elasticsearch 9\.x server"):
        store.ping()


INFO = {"name": "es01", "cluster_name": "ripplegraph", "cluster_uuid": "hk1zXzTbQgqU3V3p5FJ-0g",
        "version": {"number": "9.3.0", "build_flavor": "default", "build_type": "docker",
                    "build_hash": "1f9e5a6b7c", "build_date": "2026-01-20T10:12:01.000Z", "build_snapshot": False,
                    "lucene_version": "10.3.2", "minimum_wire_compatibility_version": "8.19.0",
                    "minimum_index_compatibility_version": "8.0.0"},
        "tagline": "You Know, for Search"}


def test_ping_reads_the_version(cluster, store):
    cluster.reply(200, INFO)
    assert store.ping() == {"url": "http://es.test:9200", "version": "9.3.0", "cluster": "ripplegraph"}
    assert (cluster.requests[0].method, cluster.requests[0].path) == ("GET", "/")
    cluster.reply(200, INFO | {"version": INFO["version"] | {"number": "10.0.1"}})
    with pytest.raises(StoreUnavailable, match=r"^Elasticsearch at http://es.test:9200 runs 10\.0\.1; this "
                                               r"ripplegraph's client \(elasticsearch-py 9\.3\.0\) needs a 9\.x server"):
        store.ping()


def test_not_elasticsearch(cluster, store):
    cluster.reply(200, {"hello": "world"}, headers={"content-type": "application/json"})
    with pytest.raises(StoreUnavailable, match=r"^http://es.test:9200 answered, but it is not Elasticsearch"):
        store.ping()


def test_index_status_lists_outdated_mappings(cluster, store):
    cluster.reply(200, {"ripple-chunks.code.shop": {"mappings": {"_meta": {"ripplegraph_mapping": 2}}},
                        "ripple-chunks.doc.shop": {"mappings": {"dynamic": "strict", "properties": {}}}})
    cluster.reply(200, {"took": 1, "timed_out": False, "_shards": shards(2),
                        "hits": {"total": {"value": 9, "relation": "eq"}, "max_score": None, "hits": []},
                        "aggregations": {"embedded": {"doc_count": 4}}})
    cluster.reply(404, {"_index": "ripple-meta", "_id": "embedding_model", "found": False})
    assert store.index_status() == {"indices": ["ripple-chunks.code.shop", "ripple-chunks.doc.shop"],
                                    "outdated": ["ripple-chunks.doc.shop"], "chunks": 9, "embedded": 4,
                                    "embedding_model": None}
    assert (cluster.requests[0].method, cluster.requests[0].path, cluster.requests[0].params) == (
        "GET", "/ripple-chunks.*/_mapping", {"allow_no_indices": "true", "ignore_unavailable": "true"})


def test_bad_prefix_and_bad_url():
    with pytest.raises(ValueError, match="index prefix 'Ripple' is not a valid"):
        ElasticsearchSearchIndex(URL, index_prefix="Ripple")
    with pytest.raises(StoreUnavailable, match="^cannot use Elasticsearch URL 'localhost'"):
        ElasticsearchSearchIndex("localhost")


# ------------------------------------------------------------------------------ analyzer in Lucene


def lucene_analyze(settings: dict[str, Any], text: str) -> list[str]:
    """A model of the mapping's ``ripple_code`` chain, read from the settings the store sends:
    pattern tokenizer (group 0) -> pattern_capture (preserve_original; a capture spanning the whole
    token or empty is skipped, as Lucene's PatternCaptureGroupTokenFilter does) -> lowercase."""
    analysis = settings["analysis"]
    chain = analysis["analyzer"]["ripple_code"]
    tokenizer = analysis["tokenizer"][chain["tokenizer"]]
    capture = analysis["filter"][chain["filter"][0]]
    longest = analysis["filter"][chain["filter"][2]]
    assert (tokenizer["type"], tokenizer["group"], capture["type"], capture["preserve_original"], chain["filter"][1],
            longest["type"], len(chain["filter"])) == ("pattern", 0, "pattern_capture", True, "lowercase", "length", 3)
    patterns = [re.compile(p) for p in capture["patterns"]]
    out: list[str] = []
    for token in re.compile(tokenizer["pattern"]).findall(text):
        out.append(token)
        for pattern in patterns:
            for m in pattern.finditer(token):
                for g in range(1, (pattern.groups or 0) + 1):
                    start, end = m.span(g)
                    if start == end or (start == 0 and end == len(token)):
                        continue
                    out.append(token[start:end])
    return [t.lower() for t in out if len(t) <= longest["max"]]


IDENTIFIERS = [
    "parseURLPath", "HTTPServerError", "HTTP2Server", "utf8Decode", "find_by_last_name", "__init__", "$scope",
    "django.db.models", "src/app/owner-service.ts", "std::vector", "Owner", "OWNER", "owner_", "2fa", "a->b",
    "foo.bar()", "XMLHttpRequest", "getX", "ID", "iOS", "OwnerRepository.find_by(x)", "_", "__", "a1b2C3",
]


def test_the_mapping_analyzer_equals_the_python_analyzer():
    from stores.elasticsearch import index_settings

    settings = index_settings()
    for text in IDENTIFIERS:
        assert lucene_analyze(settings, text) == analyze(text), text
    # And over real source text: this package's own modules.
    for path in sorted((ROOT / "stores").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert lucene_analyze(settings, text) == analyze(text), path.name


def test_drop_deletes_the_prefix_indices_by_name(cluster, store):
    cluster.reply(200, {"ripple-chunks.code.shop": {"aliases": {}, "mappings": {}, "settings": {}},
                        "ripple-chunks.doc.shop": {"aliases": {}, "mappings": {}, "settings": {}}})
    cluster.reply(200, {"acknowledged": True})
    store.drop()
    get, delete = cluster.requests
    assert (get.method, get.path, get.params) == ("GET", "/ripple-chunks.*", {"allow_no_indices": "true",
                                                                               "ignore_unavailable": "true"})
    # Concrete names: clusters refuse wildcard deletes (action.destructive_requires_name).
    assert (delete.method, delete.path, delete.params) == (
        "DELETE", "/ripple-chunks.code.shop,ripple-chunks.doc.shop,ripple-embedding-cache,ripple-meta",
        {"allow_no_indices": "true", "ignore_unavailable": "true"})


# ------------------------------------------------------------------------- hostile input (issue 7)


def test_a_token_over_lucenes_term_limit_is_dropped_not_the_chunk():
    # A 40,001-character run of word characters (a hex or base64url blob) is one token; Lucene rejects a
    # document holding a term over 32,766 bytes, so the analyzer drops that token and keeps its parts.
    from stores.elasticsearch import index_settings

    blob = "a" + "1b" * 20000
    assert lucene_analyze(index_settings(), f"x = '{blob}'") == ["x", "a1"] + ["b1"] * 19999 + ["b"]
    assert lucene_analyze(index_settings(), "k" * 32766) == ["k" * 32766]  # the longest term Lucene takes


def test_an_embedding_of_another_dimension_fails_before_any_request(cluster, store):
    wrong = chunk("c1", "def f(): pass", embedding=(1.0,) * 768)
    with pytest.raises(QueryFailed) as info:
        store.replace_chunks([indexed("src/a.py", wrong)])
    assert str(info.value) == "the embedding of chunk c1 has 768 dimensions; the index stores 384"
    assert cluster.requests == []  # the file's old chunks are still there


def test_an_existing_index_of_another_mapping_version_is_not_written(cluster, store):
    exists = {"type": "resource_already_exists_exception", "reason": "index [ripple-chunks.code.shop/x1] already exists",
              "index_uuid": "x1", "index": "ripple-chunks.code.shop"}
    cluster.reply(200, {"docs": []})
    cluster.reply(400, {"error": {"root_cause": [exists], **exists}, "status": 400})
    cluster.reply(200, {"ripple-chunks.code.shop": {"mappings": {"dynamic": "strict",
                                                                 "_meta": {"ripplegraph_mapping": 1}}}})
    with pytest.raises(QueryFailed) as info:
        store.replace_chunks([indexed("src/a.py", chunk("c1", "def f(): pass"))])
    assert str(info.value) == (
        "index ripple-chunks.code.shop has mapping version 1, this ripplegraph writes version 2; delete the indices "
        "`ripple doctor` lists as outdated (or set a new [search] index_prefix) and index again")
    assert [(r.method, r.path) for r in cluster.requests] == [
        ("POST", "/ripple-embedding-cache/_mget"), ("PUT", "/ripple-chunks.code.shop"),
        ("GET", "/ripple-chunks.code.shop/_mapping")]  # no bulk, no delete


def test_delete_files_matches_paths_exactly_never_as_patterns(cluster, store):
    paths = ['src/it\'s "quoted".py', "src/*.py", "src/a?.py", "src/[ab].py", "dir\\file.py", "ünï/cødé.py"]
    cluster.reply(200, by_query_reply())
    store.delete_files("shop*", paths)
    (req,) = cluster.requests
    assert req.body == {"query": {"bool": {"filter": [{"term": {"repo": "shop*"}}, {"terms": {"file": paths}}]}}}


def test_index_names_of_hostile_product_names(store):
    assert store.chunk_index("Shop", "method") == "ripple-chunks.code.shop"
    assert store.chunk_index("Pet Clinic/v2", "doc") == "ripple-chunks.doc.pet_clinic_v2"
    assert store.chunk_index("Café*?\"<>|,#:", "config") == "ripple-chunks.config.caf__________"
    assert store.chunk_index("", "sql") == "ripple-chunks.sql._"
    assert store.chunk_index("shop", "file_section") == "ripple-chunks.code.shop"
    long_name = "P" * 300
    assert store.chunk_index(long_name, "method") == (
        "ripple-chunks.code." + "p" * 80 + "-" + hashlib.sha256(long_name.encode()).hexdigest()[:16])
    for name in ("Shop", "Pet Clinic/v2", "Café*?\"<>|,#:", "", long_name):
        index = store.chunk_index(name, "doc")
        assert index == index.lower() and len(index.encode()) <= 255 and re.fullmatch(r"[a-z0-9_.-]+", index)


def test_overloaded_and_not_ready_clusters_are_unavailable(cluster, store):
    busy = "rejected execution of coordinating operation [coordinating_and_primary_bytes=104857600]"
    cluster.reply(429, {"error": {"root_cause": [{"type": "es_rejected_execution_exception", "reason": busy}],
                                  "type": "es_rejected_execution_exception", "reason": busy}, "status": 429})
    with pytest.raises(StoreUnavailable) as info:
        store.chunk_count()
    assert str(info.value) == (
        f"Elasticsearch at http://es.test:9200 is overloaded and refused to count chunks (429 "
        f"es_rejected_execution_exception: {busy}); retry later, or give it more memory (ES_JAVA_OPTS in "
        "docker/compose.yml)")
    block = "blocked by: [SERVICE_UNAVAILABLE/1/state not recovered / initialized];"
    cluster.reply(503, {"error": {"root_cause": [{"type": "cluster_block_exception", "reason": block}],
                                  "type": "cluster_block_exception", "reason": block}, "status": 503})
    with pytest.raises(StoreUnavailable) as info:
        store.ping()
    assert str(info.value) == (
        f"Elasticsearch at http://es.test:9200 is not ready to read the server version (503 cluster_block_exception: "
        f"{block}); wait until GET /_cluster/health reports yellow or green, then retry")


def test_a_proxy_refusing_credentials_with_an_html_page(cluster, store):
    page = "<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>" + "x" * 400 + "</body></html>"
    cluster.reply(401, page.encode(), headers={"content-type": "text/html", "www-authenticate": 'Basic realm="es"'})
    with pytest.raises(StoreUnavailable) as info:
        store.ping()
    shown = ("<html> <head><title>401 Authorization Required</title></head> <body>" + "x" * 400)[:300]
    assert str(info.value) == (
        f"Elasticsearch at http://es.test:9200 refused the credentials (401: {shown}...); set RIPPLE_ES_API_KEY, or "
        "RIPPLE_ES_USER and RIPPLE_ES_PASSWORD ([search] api_key / user / password in the configuration)")


def test_tls_to_a_plain_http_port_says_to_use_http(cluster, store):
    cluster.fail(elastic_transport.TlsError(
        "TLS error caused by: SSLError([SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006))"))
    with pytest.raises(StoreUnavailable) as info:
        store.ping()
    assert str(info.value) == (
        "Elasticsearch at http://es.test:9200 is unreachable (TLS failed: the server does not speak TLS on this port; "
        "use an http:// URL); start it (docker compose -f docker/compose.yml up -d elasticsearch) or point "
        "RIPPLE_ES_URL / [search] url at a running node")


def test_several_node_urls_in_one_string_and_a_missing_ca_bundle(tmp_path):
    store = ElasticsearchSearchIndex("http://es1:9200, http://elastic:secret@es2:9200,")
    assert store.url == "http://es1:9200, http://es2:9200"
    assert sorted(str(n.config.host) for n in store._client.transport.node_pool.all()) == ["es1", "es2"]
    store.close()
    missing = tmp_path / "ca.pem"
    with pytest.raises(StoreUnavailable) as info:
        ElasticsearchSearchIndex("https://es1:9200", ca_certs=str(missing))
    assert str(info.value) == (f"the CA bundle {missing} ([search] ca_certs / RIPPLE_ES_CA_CERTS) is not a file; name "
                               "the PEM file of the cluster's CA")


def test_retry_warnings_carry_the_error_not_a_traceback(caplog):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = ElasticsearchSearchIndex(f"http://127.0.0.1:{port}", max_retries=1)
    with caplog.at_level(logging.WARNING, logger="elastic_transport"), pytest.raises(StoreUnavailable):
        store.chunk_count()
    store.close()
    retries = [r for r in caplog.records if r.name == "elastic_transport.transport"]
    assert [r.getMessage().split(": ", 1)[0] for r in retries] == ["Retrying request after failure (attempt 0 of 1)"]
    assert retries[0].getMessage().split(": ", 2)[1] == "ConnectionError"
    assert "Connection refused" in retries[0].getMessage()
    assert [r.exc_info for r in retries] == [None]
    assert "Traceback" not in caplog.text


def test_batches_over_the_terms_limit_are_written_in_groups(cluster, store, monkeypatch):
    # A terms query holds at most index.max_terms_count (65,536) values; 3 here, so a, b+c, d go apart.
    import stores.elasticsearch as es

    monkeypatch.setattr(es, "MAX_TERMS", 3)
    files = [indexed("a.py", *(chunk(f"a{i}", f"def a{i}(): pass", file="a.py") for i in range(3))),
             indexed("b.py", chunk("b0", "def b0(): pass", file="b.py")),
             indexed("c.py", chunk("c0", "def c0(): pass", file="c.py")),
             indexed("d.py", *(chunk(f"d{i}", f"def d{i}(): pass", file="d.py") for i in range(3)))]
    for n in (3, 2, 3):
        cluster.reply(200, {"docs": []})
        if n == 3 and not cluster.replies[1:]:
            cluster.reply(200, created("ripple-chunks.code.shop"))  # the first group creates the index
        cluster.reply(200, {"took": 1, "errors": False, "items": [bulk_item("ripple-chunks.code.shop", "x")] * n})
        cluster.reply(200, by_query_reply())
    store.replace_chunks(files)
    assert [(r.method, r.path) for r in cluster.requests] == [
        ("POST", "/ripple-embedding-cache/_mget"), ("PUT", "/ripple-chunks.code.shop"), ("PUT", "/_bulk"),
        ("POST", "/ripple-chunks.*/_delete_by_query"),
    ] + [("POST", "/ripple-embedding-cache/_mget"), ("PUT", "/_bulk"), ("POST", "/ripple-chunks.*/_delete_by_query")] * 2
    deletes = [r.body["query"]["bool"]["should"] for r in cluster.requests if r.path.endswith("/_delete_by_query")]
    assert [d[0]["bool"]["filter"][1]["terms"]["file"] for d in deletes] == [["a.py"], ["b.py", "c.py"], ["d.py"]]
    assert [d[1]["terms"]["id"] for d in deletes] == [["a0", "a1", "a2"], ["b0", "c0"], ["d0", "d1", "d2"]]
    assert cluster.replies == []


def test_set_embeddings_writes_rounds_of_bounded_size(cluster, store, monkeypatch):
    import stores.elasticsearch as es

    monkeypatch.setattr(es, "VECTORS_PER_WRITE", 2)
    for ids in (["a", "b"], ["c"]):
        cluster.reply(200, search_reply([{"_index": "ripple-chunks.code.shop", "_id": i, "_score": 1.0,
                                          "_source": {"id": i, "checksum": f"sum-{i}"}} for i in ids]))
        if ids == ["a", "b"]:
            cluster.reply(200, created("ripple-embedding-cache"))
        cluster.reply(200, {"took": 1, "errors": False, "items": [bulk_item("ripple-embedding-cache", "x")] * len(ids)})
        cluster.reply(200, by_query_reply(updated=len(ids)))
    store.set_embeddings({"a": E0, "b": E1, "c": E0})
    updates = [r for r in cluster.requests if r.path.endswith("/_update_by_query")]
    assert [sorted(r.body["script"]["params"]["vectors"]) for r in updates] == [["a", "b"], ["c"]]
    assert cluster.replies == []
