"""The Elasticsearch backend of :class:`~stores.contracts.SearchIndex` (team deployment).

One cluster holds the chunks of every product, in **an index per product and content kind**:

* ``{prefix}-chunks.{content}.{product}``: ``content`` is ``doc`` for ``doc`` chunks, ``config`` for
  ``config`` chunks, ``sql`` for ``sql`` chunks and ``code`` for every other kind (method, class,
  function, file_section);
  ``product`` is the chunk's product lowercased, every character outside ``[a-z0-9_-]`` replaced by
  ``_`` (names over 100 characters are cut and suffixed with a digest). Two products whose names
  differ only there share an index; every query also filters on the ``product`` field, so answers
  never mix them. The dots keep the parts apart: ``{prefix}-chunks.*.shop`` is exactly the product
  ``shop``. A search filtered by product and/or kind reads only the matching indices;
* ``{prefix}-embedding-cache``: the content-addressed embedding cache (``_id`` = the chunk text's
  checksum, ``_source.embedding``), so a text is embedded once and its vector survives re-indexing;
* ``{prefix}-meta``: one document, ``embedding_model``, naming the model the vectors come from.

``prefix`` defaults to ``ripple``. Indices are created on first write (1 shard each; replicas
configurable, 0 on a single node) with the mapping below; ``_meta.ripplegraph_mapping`` records its
version (:data:`MAPPING_VERSION`), which ``ripple doctor`` checks.

Analysis. The mapping's ``ripple_code`` analyzer is :func:`stores.analyzer.analyze` expressed in
Lucene: a ``pattern`` tokenizer with :data:`stores.analyzer.TOKEN_PATTERN` (the same token rule), a
``pattern_capture`` filter with ``preserve_original`` and :data:`stores.analyzer.PART_PATTERN` (emits
the token, then each case part: ``parseURLPath`` -> ``parseURLPath``, ``parse``, ``URL``, ``Path``; a
part spanning the whole token is not repeated, as in ``analyze``), then ``lowercase`` (split first,
lowercase after), then a ``length`` filter that drops a token over Lucene's 32,766-byte term limit
(a hex or base64url blob: the chunker cuts texts at 6,000 characters, but a name, an FQN or a chunk
from another writer has no such bound), which would otherwise make Elasticsearch reject the whole
chunk (the embedded store indexes such a token; no query ever names one). Queries are analysed in Python with :func:`~stores.analyzer.query_terms` (the query's distinct
tokens less its stop words), exactly as the embedded store does, and sent joined by spaces; the fields' search
analyzer (``ripple_terms``) only splits on whitespace, so both backends look up the same terms.
Where Elasticsearch and the Python analyzer differ: the case parts sit at the original token's
position (position increment 0) instead of after it, which matters only to phrase queries (none are
made); ``word_delimiter_graph`` was not used because it never splits an upper-case run from a
following word (``URLPath`` stays one part) while ``analyze`` does.

Ranking. BM25 is the ``combined_fields`` query over ``name^3``, ``fqn^2`` and ``text``: BM25F, term
frequencies weighted per field in one combined document, the model of SQLite FTS5's
``bm25(chunks_fts, 3, 2, 1)`` in the embedded store. ``multi_match`` (any type) scores each field
apart and takes the best or the sum; on the contract suite's fixture it ranks a chunk naming the
words in its ``fqn`` above one saying them in its text, where the embedded store does the opposite
(checked with Lucene's formulas), so it is not used. Differences that remain: Lucene's IDF is
``ln(1 + (N - n + 0.5) / (n + 0.5))`` (never zero) where FTS5 gives a word in half of the documents no
weight; the combined document length weighs each field's length (FTS5 counts tokens unweighted); the
index similarity sets ``discount_overlaps: false`` so the case parts count in the length as they do in
FTS5. Searches run as ``dfs_query_then_fetch``: term statistics are global over the indices searched,
so a chunk scores the same whichever index holds it. Ties break by chunk id, as in the embedded store.

Vectors: ``dense_vector`` of ``dims`` (384) floats, ``cosine`` similarity, ``hnsw`` without
quantisation (Elasticsearch 9 quantises 384-d vectors by default, which reorders close neighbours);
stored normalised. Elasticsearch's kNN score is ``(1 + cos) / 2``; :meth:`knn` returns ``cos``.
``index.mapping.exclude_source_vectors`` is off so ``get_chunks`` returns the stored vector.

Writes are refreshed before the call returns (``refresh=true`` on the last request of each write), so
a read after a write sees it, as the contract requires. A file's chunks are replaced by indexing the new
ones first, then deleting every other chunk of the file (``delete_by_query`` on repo + file, sparing
the documents just written), so a reader never finds a file without chunks; there is no transaction:
a failure in between leaves old chunks beside the new ones until the file is indexed again.

Errors: driver exceptions become :mod:`stores.errors` at this boundary (connection refused / timeout /
bad credentials / another major version -> :class:`~stores.errors.StoreUnavailable`; a request the
server refuses -> :class:`~stores.errors.QueryFailed`; documents a bulk request rejects ->
:class:`BulkIndexError` naming the first failures). The client's major version must equal the
server's (:data:`CLIENT_MAJOR`; docker/compose.yml pins the same).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import elastic_transport
import numpy as np
from elasticsearch import ApiError, Elasticsearch, UnsupportedProductError
from elasticsearch import __versionstr__ as _CLIENT_VERSION

from stores.analyzer import PART_PATTERN, TOKEN_PATTERN, query_terms
from stores.contracts import CODE_UNIT_KINDS, Chunk, IndexedFile, ScoredChunk, SearchFilters, SearchIndex
from stores.errors import QueryFailed, StoreError, StoreUnavailable

__all__ = [
    "ElasticsearchSearchIndex",
    "BulkIndexError",
    "CLIENT_MAJOR",
    "CLIENT_VERSION",
    "MAPPING_VERSION",
    "DEFAULT_PREFIX",
    "content_kind",
    "index_settings",
    "chunk_mappings",
]

log = logging.getLogger(__name__)


class _NoRetryTracebacks(logging.Filter):
    """The transport logs a warning with the full traceback for every retried request; this store
    reports the failure itself (:mod:`stores.errors`), so the warning keeps one line: the message and
    the error (the traceback stays available at DEBUG level, ``ripple -vv``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None and not logging.getLogger(record.name).isEnabledFor(
                logging.DEBUG):
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {type(exc).__name__}: {exc}"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


_TRANSPORT_LOG = logging.getLogger("elastic_transport.transport")
if not any(isinstance(f, _NoRetryTracebacks) for f in _TRANSPORT_LOG.filters):
    _TRANSPORT_LOG.addFilter(_NoRetryTracebacks())

CLIENT_VERSION = _CLIENT_VERSION
"""Version of the installed ``elasticsearch`` client (pinned in pyproject.toml)."""
CLIENT_MAJOR = int(CLIENT_VERSION.split(".")[0])
"""The server's major version must be this one (the client sends ``compatible-with`` headers)."""
MAPPING_VERSION = 2
"""Bumped whenever the chunk mapping or analysis settings change: older indices must be rebuilt
(2: the ``ripple_max_term`` filter)."""
MAX_TERM_BYTES = 32766
"""Lucene's limit on one indexed term: a document holding a longer one is rejected whole."""
DEFAULT_PREFIX = "ripple"
DIMS = 384
BULK_DOCS = 500
"""Documents per bulk request."""
MAX_WINDOW = 10_000
"""Elasticsearch's default ``index.max_result_window``: most hits one search returns."""
MAX_TERMS = 65_536
"""Elasticsearch's default ``index.max_terms_count``: most values one ``terms`` query may hold."""
VECTORS_PER_WRITE = 1024
"""Vectors per ``set_embeddings`` round (about 8 MB of JSON, far below ``http.max_content_length``)."""
_CONTENT_KINDS = {"doc": "doc", "config": "config", "sql": "sql"}  # every other chunk kind is "code"
_PREFIX_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,99}")
_SLUG_BAD = re.compile(r"[^a-z0-9_-]")
_FIELDS = ["name^3", "fqn^2", "text"]
_SET_VECTOR = (
    "def v = params.vectors.get(ctx._source.id);"
    " if (v == null) { String twin = params.twins.get(ctx._source.checksum);"
    " if (twin != null) { v = params.vectors.get(twin); } }"
    " if (v == null) { ctx.op = 'noop'; } else { ctx._source.embedding = v; }"
)
_DROP_VECTOR = "ctx._source.remove('embedding')"
_MISSING = object()


def content_kind(kind: str) -> str:
    """The content kind of a chunk kind: ``doc``, ``config``, ``sql``, or ``code`` for every other kind."""
    return _CONTENT_KINDS.get(kind, "code")


def _slug(product: str) -> str:
    """A product name as an index-name part (see the module docstring)."""
    slug = _SLUG_BAD.sub("_", product.lower()) or "_"
    if len(slug) > 100:
        slug = slug[:80] + "-" + hashlib.sha256(product.encode("utf-8")).hexdigest()[:16]
    return slug


def _doc_id(chunk_id: str) -> str:
    """The document ``_id`` of a chunk: its id, or a digest when the id exceeds Elasticsearch's 512
    bytes (queries always go through the ``id`` field, never ``_id``)."""
    if len(chunk_id.encode("utf-8")) <= 512:
        return chunk_id
    return "sha256:" + hashlib.sha256(chunk_id.encode("utf-8")).hexdigest()


def index_settings(replicas: int = 0) -> dict[str, Any]:
    """Settings of a chunk index: shards, the BM25 similarity and the code-aware analysis chain."""
    return {
        "number_of_shards": 1,
        "number_of_replicas": replicas,
        "index.mapping.exclude_source_vectors": False,
        "similarity": {"default": {"type": "BM25", "k1": 1.2, "b": 0.75, "discount_overlaps": False}},
        "analysis": {
            "tokenizer": {"ripple_code_tokens": {"type": "pattern", "pattern": TOKEN_PATTERN, "group": 0}},
            "filter": {
                "ripple_code_parts": {
                    "type": "pattern_capture", "preserve_original": True, "patterns": [f"({PART_PATTERN})"],
                },
                "ripple_max_term": {"type": "length", "max": MAX_TERM_BYTES},
            },
            "analyzer": {
                "ripple_code": {
                    "type": "custom", "tokenizer": "ripple_code_tokens",
                    "filter": ["ripple_code_parts", "lowercase", "ripple_max_term"],
                },
                "ripple_terms": {"type": "custom", "tokenizer": "whitespace"},
            },
        },
    }


def chunk_mappings(dims: int = DIMS) -> dict[str, Any]:
    """The mapping of a chunk index (strict: an unknown field is an error)."""
    keyword = {"type": "keyword"}
    text = {"type": "text", "analyzer": "ripple_code", "search_analyzer": "ripple_terms", "index_options": "freqs"}
    return {
        "dynamic": "strict",
        "_meta": {"ripplegraph_mapping": MAPPING_VERSION},
        "properties": {
            "id": keyword, "repo": keyword, "product": keyword, "file": keyword, "language": keyword,
            "kind": keyword, "checksum": keyword, "parent": keyword,
            "name": text, "fqn": text, "text": text,
            "start_line": {"type": "integer"}, "end_line": {"type": "integer"}, "text_length": {"type": "integer"},
            "embedding": {
                "type": "dense_vector", "dims": dims, "index": True, "similarity": "cosine",
                "index_options": {"type": "hnsw"},
            },
        },
    }


_SIDE_MAPPINGS = {"dynamic": False, "_meta": {"ripplegraph_mapping": MAPPING_VERSION}, "properties": {}}


class BulkIndexError(QueryFailed):
    """Documents a bulk request rejected. ``failures`` lists ``(chunk_id, status, "type: reason")``
    for every rejected document; the message names the first five."""

    def __init__(self, what: str, failures: list[tuple[str, int, str]], total: int) -> None:
        self.failures = failures
        shown = "; ".join(f"{cid} ({status} {reason})" for cid, status, reason in failures[:5])
        more = f"; and {len(failures) - 5} more" if len(failures) > 5 else ""
        super().__init__(f"Elasticsearch rejected {len(failures)} of {total} documents ({what}): {shown}{more}")


def _public_url(url: str) -> str:
    """``url`` without user information (never print a password)."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


def _unit(vector: Sequence[float]) -> list[float] | None:
    """``vector`` normalised to unit length as float32 values (``None`` for a zero vector)."""
    v = np.asarray(vector, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(v))
    if norm == 0.0 or not np.isfinite(norm):
        return None
    return (v / np.float32(norm)).astype(np.float32).tolist()


def _error_parts(exc: ApiError) -> tuple[int, str, str]:
    """``(status, type, reason)`` of an API error, from its JSON body when there is one."""
    status = exc.meta.status if exc.meta is not None else 0
    body = exc.body
    if isinstance(body, Mapping):
        err = body.get("error")
        if isinstance(err, Mapping):
            return status, str(err.get("type", "")), str(err.get("reason", ""))
        if isinstance(err, str):
            return status, "", err
    return status, "", str(exc.message)


def _bulk_failures(body: Mapping[str, Any], ids: Mapping[str, str]) -> list[tuple[str, int, str]]:
    """Rejected documents of a bulk response: ``(chunk_id, status, "type: reason")``."""
    if not body.get("errors"):
        return []
    failures = []
    for item in body.get("items", []):
        result = next(iter(item.values()), {})
        error = result.get("error")
        if error is None:
            continue
        if isinstance(error, Mapping):
            detail = f"{error.get('type', '')}: {error.get('reason', '')}"
        else:
            detail = str(error)
        doc_id = str(result.get("_id", ""))
        failures.append((ids.get(doc_id, doc_id), int(result.get("status", 0)), detail))
    return failures


def _filter_clauses(filters: SearchFilters | None) -> list[dict[str, Any]]:
    if filters is None:
        return []
    return [
        {"term": {field: value}}
        for field in ("product", "repo", "language", "kind")
        if (value := getattr(filters, field)) is not None
    ]


class ElasticsearchSearchIndex(SearchIndex):
    """The chunk index in an Elasticsearch cluster (see the module docstring for indices, analysis
    and ranking).

    ``url`` is one node URL or several (a list, or one string separated by commas:
    ``http://es1:9200,http://es2:9200``); authenticate with ``api_key`` or
    ``user`` + ``password`` (or neither, for a cluster with security off). ``index_prefix`` names
    this deployment's indices; ``replicas`` is the replica count of new indices; ``dims`` the vector
    size. ``client_options`` go to :class:`elasticsearch.Elasticsearch` as they are (tests pass a
    ``node_class`` there). Nothing is sent until the first call; :meth:`ping` checks the server.

    Raises :class:`~stores.errors.StoreUnavailable` for a URL the client cannot use and
    :class:`ValueError` for an invalid ``index_prefix``. Safe to share between threads.
    """

    def __init__(
        self,
        url: str | Sequence[str],
        *,
        api_key: str | None = None,
        user: str | None = None,
        password: str | None = None,
        index_prefix: str = DEFAULT_PREFIX,
        replicas: int = 0,
        dims: int = DIMS,
        ca_certs: str | None = None,
        request_timeout: float = 30.0,
        max_retries: int = 2,
        client_options: Mapping[str, Any] | None = None,
    ) -> None:
        if not _PREFIX_RE.fullmatch(index_prefix):
            raise ValueError(
                f"index prefix {index_prefix!r} is not a valid Elasticsearch index name part: use lowercase "
                "letters, digits, '-' and '_', starting with a letter or digit (at most 100 characters)"
            )
        urls = [u.strip() for u in url.split(",") if u.strip()] if isinstance(url, str) else list(url)
        self.url = ", ".join(_public_url(u) for u in urls)
        self.prefix = index_prefix
        self.replicas = replicas
        self.dims = dims
        self.chunk_pattern = f"{index_prefix}-chunks.*"
        self.cache_index = f"{index_prefix}-embedding-cache"
        self.meta_index = f"{index_prefix}-meta"
        options: dict[str, Any] = {"request_timeout": request_timeout, "max_retries": max_retries,
                                   "retry_on_timeout": True}
        if api_key:
            options["api_key"] = api_key
        elif user is not None:
            options["basic_auth"] = (user, password or "")
        if ca_certs:
            if not os.path.isfile(ca_certs):
                raise StoreUnavailable(f"the CA bundle {ca_certs} ([search] ca_certs / RIPPLE_ES_CA_CERTS) is not a "
                                       "file; name the PEM file of the cluster's CA")
            options["ca_certs"] = ca_certs
        options.update(client_options or {})
        try:
            self._client = Elasticsearch(urls, **options)
        except (ValueError, TypeError) as exc:
            raise StoreUnavailable(f"cannot use Elasticsearch URL {self.url!r}: {exc}") from exc
        self._known: set[str] = set()

    # ------------------------------------------------------------------------------------ plumbing

    def chunk_index(self, product: str, kind: str) -> str:
        """The index that holds chunks of ``product`` and chunk ``kind``."""
        return f"{self.prefix}-chunks.{content_kind(kind)}.{_slug(product)}"

    def _pattern(self, filters: SearchFilters | None) -> str:
        if filters is None or (filters.kind is None and filters.product is None):
            return self.chunk_pattern
        content = content_kind(filters.kind) if filters.kind is not None else "*"
        product = _slug(filters.product) if filters.product is not None else "*"
        return f"{self.prefix}-chunks.{content}.{product}"

    def _call(self, what: str, fn: Callable[..., Any], *, missing: Any = _MISSING, exists_ok: bool = False,
              **kwargs: Any) -> Any:
        """Run one client call and return its body; map driver exceptions onto :mod:`stores.errors`.
        With ``missing``, a 404 (index or document not found) returns ``missing`` instead; with
        ``exists_ok``, ``resource_already_exists_exception`` returns ``None``."""
        try:
            return fn(**kwargs).body
        except UnsupportedProductError as exc:
            raise StoreUnavailable(
                f"{self.url} answered, but it is not Elasticsearch ({exc.message}); point RIPPLE_ES_URL / "
                "[search] url at an Elasticsearch node"
            ) from exc
        except ApiError as exc:
            status, etype, reason = _error_parts(exc)
            if status == 404 and missing is not _MISSING:
                return missing
            if exists_ok and etype == "resource_already_exists_exception":
                return None
            raise self._api_error(what, status, etype, reason) from exc
        except elastic_transport.ConnectionTimeout as exc:
            raise StoreUnavailable(
                f"Elasticsearch at {self.url} did not answer in time ({what}); is it starting or overloaded?"
            ) from exc
        except elastic_transport.ConnectionError as exc:
            text = " ".join(dict.fromkeys([str(exc.message), *(str(e) for e in exc.errors)]))
            if isinstance(exc, elastic_transport.TlsError) and "WRONG_VERSION_NUMBER" in text:
                reason = "TLS failed: the server does not speak TLS on this port; use an http:// URL"
            elif isinstance(exc, elastic_transport.TlsError):
                reason = f"TLS failed: {text}; set [search] ca_certs (or RIPPLE_ES_CA_CERTS) to the cluster's CA"
            elif "refused" in text.lower():
                reason = "connection refused"
            elif "http://" in self.url and ("RemoteDisconnected" in text or "reset by peer" in text):
                reason = f"the server closed the connection: {text}; if the cluster uses TLS, use an https:// URL"
            else:
                reason = text
            raise StoreUnavailable(
                f"Elasticsearch at {self.url} is unreachable ({reason}); start it (docker compose -f "
                "docker/compose.yml up -d elasticsearch) or point RIPPLE_ES_URL / [search] url at a running node"
            ) from exc
        except elastic_transport.TransportError as exc:
            raise StoreUnavailable(f"Elasticsearch at {self.url} failed ({what}): {exc}") from exc

    def _api_error(self, what: str, status: int, etype: str, reason: str) -> StoreError:
        reason = " ".join(reason.split())
        if len(reason) > 300:
            reason = reason[:300] + "..."
        cause = f"{status} {etype}: {reason}" if etype else f"{status}: {reason}"
        if status == 401:
            return StoreUnavailable(
                f"Elasticsearch at {self.url} refused the credentials ({cause}); set RIPPLE_ES_API_KEY, "
                "or RIPPLE_ES_USER and RIPPLE_ES_PASSWORD ([search] api_key / user / password in the configuration)"
            )
        if status == 403:
            return QueryFailed(
                f"Elasticsearch at {self.url} does not allow this user to {what} ({cause}); grant it "
                f"read, write and create_index on the indices {self.prefix}-*"
            )
        if status == 429:
            return StoreUnavailable(
                f"Elasticsearch at {self.url} is overloaded and refused to {what} ({cause}); retry later, or give "
                "it more memory (ES_JAVA_OPTS in docker/compose.yml)"
            )
        if status in (502, 503, 504):
            return StoreUnavailable(
                f"Elasticsearch at {self.url} is not ready to {what} ({cause}); wait until GET /_cluster/health "
                "reports yellow or green, then retry"
            )
        if etype == "media_type_header_exception" or "compatible-with" in reason:
            return StoreUnavailable(
                f"Elasticsearch at {self.url} does not accept this client (elasticsearch-py {CLIENT_VERSION}: "
                f"{reason}); run an Elasticsearch {CLIENT_MAJOR}.x server (docker/compose.yml pins one)"
            )
        if etype == "index_not_found_exception":
            return QueryFailed(f"cannot {what}: {reason}; run `ripple index` to create the index")
        return QueryFailed(f"Elasticsearch refused to {what}: {cause}".rstrip(": "))

    def _ensure_index(self, name: str, mappings: Mapping[str, Any], settings: Mapping[str, Any],
                      versioned: bool = False) -> None:
        """Create ``name`` unless this instance created or saw it before. An index that already exists
        is fine (another writer made it), unless ``versioned`` and its mapping is of another version:
        then :class:`~stores.errors.QueryFailed`, instead of writing documents it would reject or
        analyse differently."""
        if name in self._known:
            return
        created = self._call(f"create index {name}", self._client.indices.create, exists_ok=True, index=name,
                             settings=settings, mappings=mappings)
        if created is None and versioned:  # it already existed
            body = self._call(f"read the mapping of {name}", self._client.indices.get_mapping, index=name)
            version = next(iter(body.values()), {}).get("mappings", {}).get("_meta", {}).get("ripplegraph_mapping")
            if version != MAPPING_VERSION:
                raise QueryFailed(
                    f"index {name} has mapping version {version!r}, this ripplegraph writes version "
                    f"{MAPPING_VERSION}; delete the indices `ripple doctor` lists as outdated (or set a new [search] "
                    "index_prefix) and index again"
                )
        self._known.add(name)

    def _ensure_chunk_index(self, name: str) -> None:
        self._ensure_index(name, chunk_mappings(self.dims), index_settings(self.replicas), versioned=True)

    def _ensure_side_index(self, name: str) -> None:
        self._ensure_index(name, _SIDE_MAPPINGS, {"number_of_shards": 1, "number_of_replicas": self.replicas})

    def _bulk(self, what: str, actions: list[tuple[dict[str, Any], dict[str, Any]]], ids: Mapping[str, str],
              refresh: bool) -> list[tuple[str, int, str]]:
        """Send ``(action, document)`` pairs in bulk requests of :data:`BULK_DOCS`; returns the
        rejected documents. ``refresh`` applies to the last request."""
        failures: list[tuple[str, int, str]] = []
        for start in range(0, len(actions), BULK_DOCS):
            part = actions[start : start + BULK_DOCS]
            operations: list[dict[str, Any]] = []
            for action, document in part:
                operations.append(action)
                operations.append(document)
            last = start + BULK_DOCS >= len(actions)
            kwargs: dict[str, Any] = {"operations": operations}
            if refresh and last:
                kwargs["refresh"] = True
            body = self._call(what, self._client.bulk, **kwargs)
            failures.extend(_bulk_failures(body, ids))
        return failures

    def _search(self, what: str, pattern: str, **body: Any) -> dict[str, Any]:
        return self._call(what, self._client.search, index=pattern, allow_no_indices=True, ignore_unavailable=True,
                          **body)

    # ----------------------------------------------------------------------------------- health

    def ping(self) -> dict[str, Any]:
        """Reachability, credentials and version, without retries: ``{"url", "version", "cluster"}``.
        Raises :class:`~stores.errors.StoreUnavailable` when the server is down, refuses the
        credentials, is not Elasticsearch or runs another major version than :data:`CLIENT_MAJOR`."""
        info = self._call("read the server version", self._client.options(max_retries=0).info)
        version = str(info.get("version", {}).get("number", "?"))
        major = version.split(".")[0]
        if major != str(CLIENT_MAJOR):
            raise StoreUnavailable(
                f"Elasticsearch at {self.url} runs {version}; this ripplegraph's client (elasticsearch-py "
                f"{CLIENT_VERSION}) needs a {CLIENT_MAJOR}.x server (docker/compose.yml pins one)"
            )
        return {"url": self.url, "version": version, "cluster": str(info.get("cluster_name", ""))}

    def index_status(self) -> dict[str, Any]:
        """What the cluster holds for this prefix: ``{"indices": [chunk index names], "outdated":
        [names whose mapping version is not MAPPING_VERSION], "chunks": n, "embedded": m,
        "embedding_model": name or None}``."""
        mappings = self._call("read the mappings", self._client.indices.get_mapping, index=self.chunk_pattern,
                              allow_no_indices=True, ignore_unavailable=True)
        outdated = sorted(
            name for name, m in mappings.items()
            if m.get("mappings", {}).get("_meta", {}).get("ripplegraph_mapping") != MAPPING_VERSION
        )
        return {"indices": sorted(mappings), "outdated": outdated, **self.chunk_count(),
                "embedding_model": self._embedding_model()}

    def drop(self) -> None:
        """Delete every index of this prefix (chunks, embedding cache, meta): a reset."""
        found = self._call("list the indices", self._client.indices.get, index=self.chunk_pattern,
                           allow_no_indices=True, ignore_unavailable=True)
        names = [*sorted(found), self.cache_index, self.meta_index]
        self._call("delete the indices", self._client.indices.delete, index=",".join(names), ignore_unavailable=True,
                   allow_no_indices=True)
        self._known.clear()

    def close(self) -> None:
        """Close the client's connections."""
        self._client.close()

    # ------------------------------------------------------------------------------------ writing

    def _source(self, c: Chunk, vector: list[float] | None) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "id": c.id, "repo": c.repo, "product": c.product, "file": c.file, "language": c.language,
            "kind": c.kind, "name": c.name, "fqn": c.fqn, "parent": c.parent, "start_line": c.start_line,
            "end_line": c.end_line, "text": c.text, "checksum": c.checksum, "text_length": len(c.text),
        }
        if vector is not None:
            doc["embedding"] = vector
        return doc

    def _cached_vectors(self, checksums: Iterable[str]) -> dict[str, list[float]]:
        """``{checksum: vector}`` from the embedding cache (one ``mget``)."""
        wanted = sorted(set(checksums))
        if not wanted:
            return {}
        body = self._call("read the embedding cache", self._client.mget, index=self.cache_index, ids=wanted,
                          missing={"docs": []})
        found = {}
        for doc in body.get("docs", []):
            if doc.get("found") and isinstance(doc.get("_source", {}).get("embedding"), list):
                found[doc["_id"]] = doc["_source"]["embedding"]
        return found

    def replace_chunks(self, files: Sequence[IndexedFile]) -> None:
        """Replace every chunk of each file with ``IndexedFile.chunks``: index the new chunks (bulk,
        a chunk with no embedding gets its text's cached vector), then delete the file's other chunks
        and any older copy of a new chunk id in another index (one ``delete_by_query``; files holding
        more than :data:`MAX_TERMS` chunks in all are written in groups under that bound). Raises
        :class:`BulkIndexError` after the deletion when documents were rejected, and
        :class:`~stores.errors.QueryFailed` before any request for an embedding of another dimension."""
        by_key = {(f.file.repo, f.file.path): f for f in files}
        if not by_key:
            return
        batch = list(by_key.values())
        for f in batch:  # before any request: Elasticsearch would reject the document after the old ones go
            for c in f.chunks:
                if c.embedding is not None and len(c.embedding) != self.dims:
                    raise QueryFailed(f"the embedding of chunk {c.id} has {len(c.embedding)} dimensions; the index "
                                      f"stores {self.dims}")
        groups: list[list[IndexedFile]] = [[]]
        size = 0
        for f in batch:
            if groups[-1] and (size + len(f.chunks) > MAX_TERMS or len(groups[-1]) >= MAX_TERMS):
                groups.append([])
                size = 0
            groups[-1].append(f)
            size += len(f.chunks)
        failures: list[tuple[str, int, str]] = []
        total = 0
        for group in groups:
            rejected, sent = self._replace_group(group)
            failures += rejected
            total += sent
        if failures:
            raise BulkIndexError("index chunks", failures, total)

    def _replace_group(self, batch: Sequence[IndexedFile]) -> tuple[list[tuple[str, int, str]], int]:
        """:meth:`replace_chunks` for files holding at most :data:`MAX_TERMS` chunks: the rejected
        documents and the number sent."""
        chunks = list({c.id: c for f in batch for c in f.chunks}.values())
        cached = self._cached_vectors(c.checksum for c in chunks if c.embedding is None)
        actions: list[tuple[dict[str, Any], dict[str, Any]]] = []
        new_ids: dict[str, list[str]] = {}
        ids: dict[str, str] = {}
        for c in chunks:
            index = self.chunk_index(c.product, c.kind)
            vector = _unit(c.embedding) if c.embedding is not None else cached.get(c.checksum)
            doc_id = _doc_id(c.id)
            ids[doc_id] = c.id
            actions.append(({"index": {"_index": index, "_id": doc_id}}, self._source(c, vector)))
            new_ids.setdefault(index, []).append(c.id)
        for index in new_ids:
            self._ensure_chunk_index(index)
        failures = self._bulk("index chunks", actions, ids, refresh=False)
        body = self._call("delete replaced chunks", self._client.delete_by_query, index=self.chunk_pattern,
                          query=self._stale_query(batch, new_ids), refresh=True, conflicts="proceed",
                          allow_no_indices=True, ignore_unavailable=True)
        self._check_by_query("delete replaced chunks", body)
        return failures, len(actions)

    @staticmethod
    def _stale_query(batch: Sequence[IndexedFile], new_ids: Mapping[str, list[str]]) -> dict[str, Any]:
        """Chunks of the batch's files, or with a new chunk's id, that are not the documents just
        written."""
        paths: dict[str, list[str]] = {}
        for f in batch:
            paths.setdefault(f.file.repo, []).append(f.file.path)
        should: list[dict[str, Any]] = [
            {"bool": {"filter": [{"term": {"repo": repo}}, {"terms": {"file": files}}]}} for repo, files in paths.items()
        ]
        if new_ids:
            should.append({"terms": {"id": [cid for ids in new_ids.values() for cid in ids]}})
        query: dict[str, Any] = {"should": should, "minimum_should_match": 1}
        if new_ids:
            query["must_not"] = [
                {"bool": {"filter": [{"term": {"_index": index}}, {"terms": {"id": ids}}]}}
                for index, ids in new_ids.items()
            ]
        return {"bool": query}

    def _check_by_query(self, what: str, body: Mapping[str, Any]) -> None:
        failures = body.get("failures") or []
        if failures:
            first = failures[0]
            cause = first.get("cause", {}) if isinstance(first, Mapping) else {}
            raise QueryFailed(
                f"Elasticsearch failed to {what} on {len(failures)} documents, first: "
                f"{first.get('id', '?')} ({cause.get('type', '')}: {cause.get('reason', '')})"
            )
        if body.get("version_conflicts"):
            log.warning("%s: %d documents changed meanwhile and were left as they are", what, body["version_conflicts"])

    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Remove every chunk of the files (one ``delete_by_query`` on repo + file)."""
        files = list(dict.fromkeys(paths))
        if not files:
            return
        body = self._call(
            "delete chunks", self._client.delete_by_query, index=self.chunk_pattern,
            query={"bool": {"filter": [{"term": {"repo": repo}}, {"terms": {"file": files}}]}},
            refresh=True, conflicts="proceed", allow_no_indices=True, ignore_unavailable=True,
        )
        self._check_by_query("delete chunks", body)

    def delete_repository(self, repo: str) -> int:
        """Remove every chunk of repository ``repo``: one ``delete_by_query`` on the exact ``repo``
        keyword (a ``term`` query: no analysis, no prefix, so ``shop`` never takes ``shop@dev``) over
        every chunk index; returns how many chunks went. Vectors live on the chunks; the
        content-addressed embedding cache keeps texts' vectors, not repositories'."""
        body = self._call(
            "delete a repository's chunks", self._client.delete_by_query, index=self.chunk_pattern,
            query={"bool": {"filter": [{"term": {"repo": repo}}]}},
            refresh=True, conflicts="proceed", allow_no_indices=True, ignore_unavailable=True,
        )
        self._check_by_query("delete a repository's chunks", body)
        return int(body.get("deleted", 0))

    def repository_chunk_count(self, repo: str) -> dict[str, int]:
        """``{"chunks": n, "embedded": m}`` of repository ``repo`` (one search: a total and a filter
        aggregation, restricted to the exact ``repo``)."""
        body = self._search("count a repository's chunks", self.chunk_pattern, size=0, track_total_hits=True,
                            query={"bool": {"filter": [{"term": {"repo": repo}}]}},
                            aggs={"embedded": {"filter": {"exists": {"field": "embedding"}}}})
        total = body.get("hits", {}).get("total", {}).get("value", 0)
        embedded = body.get("aggregations", {}).get("embedded", {}).get("doc_count", 0)
        return {"chunks": int(total), "embedded": int(embedded)}

    def set_embeddings(self, vectors: dict[str, Sequence[float]]) -> None:
        """Store (normalised) embeddings by chunk id; unknown ids are ignored. Each vector also goes
        to the content cache under the chunk's checksum, and to every chunk with the same text that has
        none yet: one search (the ids' checksums), one bulk (the cache), one ``update_by_query`` per
        :data:`VECTORS_PER_WRITE` vectors. Raises :class:`~stores.errors.QueryFailed` for a zero vector
        or one of another dimension (before any request)."""
        units: dict[str, list[float]] = {}
        for chunk_id, vector in vectors.items():
            unit = _unit(vector)
            if unit is None:
                raise QueryFailed(f"the embedding of chunk {chunk_id} is a zero vector or not finite (NaN, infinity); "
                                  "cosine similarity needs a direction")
            if len(unit) != self.dims:
                raise QueryFailed(f"the embedding of chunk {chunk_id} has {len(unit)} dimensions; the index stores {self.dims}")
            units[chunk_id] = unit
        items = list(units.items())
        for start in range(0, len(items), VECTORS_PER_WRITE):
            self._store_vectors(dict(items[start : start + VECTORS_PER_WRITE]))

    def _store_vectors(self, units: Mapping[str, list[float]]) -> None:
        """One round of :meth:`set_embeddings` over unit vectors."""
        found = self._checksums(list(units))
        if not found:
            return
        twins = {checksum: chunk_id for chunk_id, checksum in found.items()}
        self._ensure_side_index(self.cache_index)
        cache_actions = [({"index": {"_index": self.cache_index, "_id": checksum}}, {"embedding": units[chunk_id]})
                         for checksum, chunk_id in twins.items()]
        failures = self._bulk("write the embedding cache", cache_actions, {}, refresh=False)
        if failures:
            raise BulkIndexError("write the embedding cache", failures, len(cache_actions))
        query = {"bool": {"should": [
            {"terms": {"id": list(found)}},
            {"bool": {"filter": [{"terms": {"checksum": list(twins)}}],
                      "must_not": [{"exists": {"field": "embedding"}}]}},
        ], "minimum_should_match": 1}}
        script = {"source": _SET_VECTOR, "lang": "painless",
                  "params": {"vectors": {cid: units[cid] for cid in found}, "twins": twins}}
        body = self._call("store embeddings", self._client.update_by_query, index=self.chunk_pattern, query=query,
                          script=script, refresh=True, conflicts="proceed", allow_no_indices=True,
                          ignore_unavailable=True)
        self._check_by_query("store embeddings", body)

    def _checksums(self, chunk_ids: Sequence[str]) -> dict[str, str]:
        """``{chunk_id: checksum}`` of the ids that exist."""
        found: dict[str, str] = {}
        for start in range(0, len(chunk_ids), MAX_WINDOW):
            part = chunk_ids[start : start + MAX_WINDOW]
            body = self._search("read chunk checksums", self.chunk_pattern, query={"terms": {"id": part}},
                                size=len(part), source={"includes": ["id", "checksum"]}, track_total_hits=False)
            for hit in body["hits"]["hits"]:
                found[hit["_source"]["id"]] = hit["_source"]["checksum"]
        return found

    def set_embedding_model(self, model: str) -> bool:
        """Record the embedding model; when another was recorded, remove every stored vector and
        empty the cache (vectors of two models are not comparable) and return ``True``."""
        current = self._embedding_model()
        if current == model:
            return False
        if current is not None:
            body = self._call("drop embeddings", self._client.update_by_query, index=self.chunk_pattern,
                              query={"exists": {"field": "embedding"}},
                              script={"source": _DROP_VECTOR, "lang": "painless"}, refresh=True, conflicts="proceed",
                              allow_no_indices=True, ignore_unavailable=True)
            self._check_by_query("drop embeddings", body)
            self._call("empty the embedding cache", self._client.delete_by_query, index=self.cache_index,
                       query={"match_all": {}}, refresh=True, conflicts="proceed", missing=None)
        self._ensure_side_index(self.meta_index)
        self._call("record the embedding model", self._client.index, index=self.meta_index, id="embedding_model",
                   document={"value": model}, refresh=True)
        return current is not None

    def _embedding_model(self) -> str | None:
        body = self._call("read the embedding model", self._client.get, index=self.meta_index, id="embedding_model",
                          missing=None)
        if not body or not body.get("found"):
            return None
        value = body.get("_source", {}).get("value")
        return str(value) if value is not None else None

    # ------------------------------------------------------------------------------------ reading

    def bm25(self, query: str, limit: int, filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Best ``limit`` chunks by BM25F (``combined_fields`` over name^3, fqn^2, text) for the
        terms of :func:`stores.analyzer.query_terms` (any matching), best first, ties by chunk id.
        An empty or all-punctuation query, or ``limit <= 0``, returns ``[]`` without a request."""
        tokens = query_terms(query)
        if not tokens or limit <= 0:
            return []
        match = {"combined_fields": {"query": " ".join(tokens), "fields": _FIELDS, "operator": "or"}}
        clauses = _filter_clauses(filters)
        body = self._search(
            "search chunks (BM25)", self._pattern(filters),
            query={"bool": {"must": [match], "filter": clauses}} if clauses else match,
            size=min(limit, MAX_WINDOW), sort=[{"_score": {"order": "desc"}}, {"id": {"order": "asc"}}],
            track_scores=True, source={"includes": ["id"]}, track_total_hits=False,
            search_type="dfs_query_then_fetch",
        )
        hits = body["hits"]["hits"]
        return [ScoredChunk(h["_source"]["id"], float(h["_score"]), rank) for rank, h in enumerate(hits, 1)]

    def knn(self, vector: Sequence[float], limit: int, filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Nearest ``limit`` embedded chunks by cosine similarity (HNSW over unquantised vectors,
        ``num_candidates`` = max(100, 2 x limit)), best first, ties by chunk id; ``[]`` for
        ``limit <= 0`` or a vector that is zero or not of ``dims`` dimensions."""
        unit = _unit(vector)
        if limit <= 0 or unit is None or len(unit) != self.dims:
            return []
        k = min(limit, MAX_WINDOW)
        knn: dict[str, Any] = {"field": "embedding", "query_vector": unit, "k": k,
                               "num_candidates": min(MAX_WINDOW, max(100, 2 * k))}
        clauses = _filter_clauses(filters)
        if clauses:
            knn["filter"] = clauses
        body = self._search("search chunks (kNN)", self._pattern(filters), knn=knn, size=k,
                            source={"includes": ["id"]}, track_total_hits=False)
        scored = sorted(((2.0 * float(h["_score"]) - 1.0, h["_source"]["id"]) for h in body["hits"]["hits"]),
                        key=lambda s: (-s[0], s[1]))
        return [ScoredChunk(cid, score, rank) for rank, (score, cid) in enumerate(scored, 1)]

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """``{id: Chunk}`` for the ids that exist (one search per 10,000 ids)."""
        wanted = list(dict.fromkeys(ids))
        result: dict[str, Chunk] = {}
        for start in range(0, len(wanted), MAX_WINDOW):
            part = wanted[start : start + MAX_WINDOW]
            body = self._search("read chunks", self.chunk_pattern, query={"terms": {"id": part}}, size=len(part),
                                track_total_hits=False)
            for hit in body["hits"]["hits"]:
                chunk = _chunk(hit["_source"])
                result[chunk.id] = chunk
        return result

    def pending_chunks(self, limit: int) -> list[Chunk]:
        """Up to ``limit`` chunks without an embedding, one per distinct text (collapsed on
        ``checksum``, the smallest id of each): chunks of ``CODE_UNIT_KINDS`` first, then the rest,
        each group shortest text first, then by id."""
        if limit <= 0:
            return []
        out: list[Chunk] = []
        code = {"terms": {"kind": list(CODE_UNIT_KINDS)}}
        for group in ({"filter": [code]}, {"must_not": [code]}):
            if len(out) >= limit:
                break
            query = {"bool": {**group, "must_not": [*group.get("must_not", []), {"exists": {"field": "embedding"}}]}}
            body = self._search(
                "read chunks to embed", self.chunk_pattern, query=query, collapse={"field": "checksum"},
                sort=[{"text_length": {"order": "asc"}}, {"id": {"order": "asc"}}],
                size=min(limit - len(out), MAX_WINDOW), track_total_hits=False,
            )
            seen = {c.checksum for c in out}
            out += [c for c in (_chunk(h["_source"]) for h in body["hits"]["hits"]) if c.checksum not in seen]
        return out

    def chunk_count(self, repo: str | None = None) -> dict[str, int]:
        """``{"chunks": n, "embedded": m}``, of repository ``repo`` only when given (one search: a total
        and a filter aggregation; a ``term`` query on ``repo``)."""
        query = {"query": {"term": {"repo": repo}}} if repo is not None else {}
        body = self._search("count chunks", self.chunk_pattern, size=0, track_total_hits=True,
                            aggs={"embedded": {"filter": {"exists": {"field": "embedding"}}}}, **query)
        total = body.get("hits", {}).get("total", {}).get("value", 0)
        embedded = body.get("aggregations", {}).get("embedded", {}).get("doc_count", 0)
        return {"chunks": int(total), "embedded": int(embedded)}


def _chunk(src: Mapping[str, Any]) -> Chunk:
    """A :class:`Chunk` from a document's ``_source``."""
    embedding = src.get("embedding")
    return Chunk(
        src["id"], src["repo"], src["product"], src["file"], src["language"], src["kind"], src["name"], src["fqn"],
        src.get("parent"), int(src["start_line"]), int(src["end_line"]), src["text"], src["checksum"],
        tuple(float(x) for x in embedding) if embedding is not None else None,
    )
