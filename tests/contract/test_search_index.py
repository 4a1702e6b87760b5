"""SearchIndex contract: BM25 with the code-aware analyzer and field boosts, filters, kNN."""

from __future__ import annotations

import hashlib
import math

import pytest

from stores.contracts import Chunk, FileRecord, IndexedFile, SearchFilters

DIM = 384


def chunk(id: str, name: str, fqn: str, text: str, *, repo: str = "shop", product: str = "petclinic",
          file: str = "src/owners.py", language: str = "python", kind: str = "method") -> Chunk:
    # The checksum is the text's digest, as the indexer writes it: equal texts share embeddings.
    return Chunk(id, repo, product, file, language, kind, name, fqn, None, 1, 10, text,
                 hashlib.sha1(text.encode()).hexdigest())


OWNER_REPO = chunk(
    "owner-repo", "OwnerRepository", "shop:src/owners.OwnerRepository",
    "class OwnerRepository(Repository):\n    model = Owner", kind="class",
)
FIND_BY = chunk(
    "find-by", "find_by_last_name", "shop:src/owners.OwnerRepository.find_by_last_name(1)",
    "def find_by_last_name(self, last_name):\n    return self.filter(last_name=last_name)",
)
SERVICE = chunk(
    "service", "OwnerService", "shop:src/service.OwnerService",
    "class OwnerService:\n    # looks owners up in the owner repository\n    def __init__(self, repo): ...",
    file="src/service.py", kind="class",
)
VISIT_NAMED = chunk(
    "visit-named", "schedule_visit", "vets:src/Visits.scheduleVisit(Visit)",
    "public void scheduleVisit(Visit v) { calendar.add(v); }",
    repo="vets", product="clinic", file="src/Visits.java", language="java",
)
VISIT_TEXT = chunk(
    "visit-text", "add", "vets:src/Calendar.add(Visit)",
    "public void add(Visit v) { /* used to schedule a visit */ entries.add(v); }",
    repo="vets", product="clinic", file="src/Calendar.java", language="java",
)
README = chunk(
    "readme", "README", "shop:README.md", "Owners and their pets. See the owner repository.",
    file="README.md", language="markdown", kind="doc",
)


def files(*chunks: Chunk) -> list[IndexedFile]:
    by_file: dict[tuple[str, str], IndexedFile] = {}
    for c in chunks:
        key = (c.repo, c.file)
        if key not in by_file:
            by_file[key] = IndexedFile(FileRecord(c.repo, c.file, c.language, "1" * 64, 100))
        by_file[key].chunks.append(c)
    return list(by_file.values())

# Distractors, so that the fixture's words are rare, as in a real corpus (BM25 gives a word found in
# half of the documents next to no weight).
FILLER = tuple(
    chunk(f"filler-{i:02d}", f"compute_total_{i}", f"billing:src/invoices.compute_total_{i}(1)",
          f"def compute_total_{i}(invoice):\n    return sum(line.amount for line in invoice.lines)",
          repo="billing", product="accounts", file="src/invoices.py")
    for i in range(20)
)

ALL = (OWNER_REPO, FIND_BY, SERVICE, VISIT_NAMED, VISIT_TEXT, README, *FILLER)


@pytest.fixture
def loaded(search_index):
    search_index.replace_chunks(files(*ALL))
    return search_index


def ids(hits) -> list[str]:
    return [h.chunk_id for h in hits]


def unit(*components: tuple[int, float]) -> list[float]:
    v = [0.0] * DIM
    for i, x in components:
        v[i] = x
    return v


# ------------------------------------------------------------------------------------------ BM25


def test_bm25_ranks_the_split_name_first(loaded):
    hits = loaded.bm25("owner repository", 10)
    assert ids(hits) == ["owner-repo", "service", "readme", "find-by"]
    assert [h.rank for h in hits] == [1, 2, 3, 4]
    assert all(h.score > 0 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_bm25_camel_case_query_matches_snake_case_name_through_parts(loaded):
    assert ids(loaded.bm25("findByLastName", 10))[0] == "find-by"
    assert ids(loaded.bm25("find_by_last_name", 1)) == ["find-by"]
    # An original token matches as a whole, too.
    assert ids(loaded.bm25("OwnerRepository", 1)) == ["owner-repo"]


def test_bm25_name_beats_text(loaded):
    # "schedule" is in VISIT_NAMED's name (x3) and VISIT_TEXT's text only (x1).
    assert ids(loaded.bm25("schedule", 10)) == ["visit-named", "visit-text"]


def test_bm25_limit_and_empty_queries(loaded):
    assert ids(loaded.bm25("owner repository", 2)) == ["owner-repo", "service"]
    assert loaded.bm25("", 10) == []
    assert loaded.bm25("  (){}.,;  ", 10) == []
    assert loaded.bm25("nosuchword", 10) == []
    # FTS syntax in the query is text, never an expression.
    assert loaded.bm25('owner" OR NOT "x', 10)[0].chunk_id in {"owner-repo", "service", "readme"}
    assert loaded.bm25("NEAR(owner repository) AND *", 10) != []


def test_bm25_filters(loaded):
    q = "owner repository visit schedule"
    assert ids(loaded.bm25(q, 10, SearchFilters(repo="vets"))) == ["visit-named", "visit-text"]
    assert ids(loaded.bm25(q, 10, SearchFilters(product="clinic"))) == ["visit-named", "visit-text"]
    assert ids(loaded.bm25(q, 10, SearchFilters(language="markdown"))) == ["readme"]
    assert ids(loaded.bm25(q, 10, SearchFilters(kind="class"))) == ["owner-repo", "service"]
    assert ids(loaded.bm25(q, 10, SearchFilters(repo="shop", kind="doc"))) == ["readme"]
    assert loaded.bm25(q, 10, SearchFilters(repo="vets", language="python")) == []


ADD_DAYS = chunk(
    "add-days", "addDays", "dates:src/addDays/index.addDays(2)",
    "export function addDays(date, amount) {\n  const result = toDate(date);\n"
    "  result.setDate(result.getDate() + amount);\n  return result;\n}",
    repo="dates", product="dates", file="src/addDays/index.ts", language="typescript", kind="function",
)
GUIDE = chunk(
    "guide", "Guide", "dates:docs/guide.md",
    "Pass the given value to the function of your choice: the value is a date or a number, and the result is "
    "the given value with the specified options applied to it.",
    repo="dates", product="dates", file="docs/guide.md", language="markdown", kind="doc",
)


def test_bm25_leaves_the_filler_words_of_a_doc_sentence_out(search_index):
    # A documentation sentence as the query: its filler ("the", "given", "specified", "of", "to") is all
    # over prose and never in code; counted, it ranks the guide above the function the sentence documents.
    search_index.replace_chunks(files(ADD_DAYS, GUIDE, *FILLER))
    query = "Add the specified number of days to the given date."
    assert ids(search_index.bm25(query, 10)) == ["add-days", "guide"]
    # Negative: the guide holds every filler word, so a query of filler alone still finds it (nothing
    # is dropped when nothing else would remain), and the function does not match it at all.
    assert ids(search_index.bm25("the given", 10)) == ["guide"]


# ------------------------------------------------------------------------------------ replace


def test_replace_chunks_replaces_per_file(loaded):
    assert loaded.chunk_count() == {"chunks": 26, "embedded": 0}
    renamed = chunk("owner-store", "OwnerStore", "shop:src/owners.OwnerStore", "class OwnerStore: pass",
                    kind="class")
    loaded.replace_chunks(files(renamed))  # src/owners.py now holds only OwnerStore
    assert loaded.get_chunks(["owner-repo", "find-by", "owner-store"]).keys() == {"owner-store"}
    assert sorted(ids(loaded.bm25("repository", 10))) == ["readme", "service"]
    assert ids(loaded.bm25("store", 10)) == ["owner-store"]
    assert loaded.chunk_count() == {"chunks": 25, "embedded": 0}
    # A file with no chunks any more.
    loaded.replace_chunks([IndexedFile(FileRecord("shop", "README.md", "markdown", "2" * 64, 1))])
    assert loaded.chunk_count() == {"chunks": 24, "embedded": 0}
    assert ids(loaded.bm25("pets", 10)) == []


def test_get_chunks_round_trip(loaded):
    got = loaded.get_chunks(["find-by", "missing"])
    assert got == {"find-by": FIND_BY}
    assert loaded.get_chunks([]) == {}


# ------------------------------------------------------------------------------------------- kNN


def test_knn_exact_order(loaded):
    assert loaded.knn(unit((0, 1.0)), 5) == []  # nothing embedded yet
    r = 1 / math.sqrt(2)
    loaded.set_embeddings({
        "owner-repo": unit((0, 1.0)),
        "find-by": unit((0, r), (1, r)),
        "service": unit((1, 1.0)),
        "readme": unit((0, -1.0)),
        "visit-named": unit((0, 0.6), (1, 0.8)),
        "no-such-chunk": unit((0, 1.0)),
    })
    assert loaded.chunk_count() == {"chunks": 26, "embedded": 5}
    assert [loaded.chunk_count(repo) for repo in ("shop", "vets", "billing", "nowhere")] == [
        {"chunks": 4, "embedded": 4}, {"chunks": 2, "embedded": 1}, {"chunks": 20, "embedded": 0},
        {"chunks": 0, "embedded": 0}]
    hits = loaded.knn(unit((0, 1.0)), 10)
    assert ids(hits) == ["owner-repo", "find-by", "visit-named", "service", "readme"]
    assert [h.rank for h in hits] == [1, 2, 3, 4, 5]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert ids(loaded.knn(unit((1, 1.0)), 2)) == ["service", "visit-named"]
    assert ids(loaded.knn(unit((0, 1.0)), 3, SearchFilters(kind="class"))) == ["owner-repo", "service"]
    assert ids(loaded.knn(unit((0, 1.0)), 3, SearchFilters(repo="vets"))) == ["visit-named"]
    assert loaded.knn(unit((0, 1.0)), 3, SearchFilters(language="cobol")) == []


def test_knn_sees_later_writes(loaded):
    loaded.set_embeddings({"owner-repo": unit((0, 1.0)), "service": unit((1, 1.0))})
    assert ids(loaded.knn(unit((1, 1.0)), 1)) == ["service"]
    loaded.set_embeddings({"owner-repo": unit((1, 1.0)), "service": unit((0, 1.0))})
    assert ids(loaded.knn(unit((1, 1.0)), 1)) == ["owner-repo"]
    loaded.replace_chunks(files(FIND_BY))  # src/owners.py loses owner-repo; find-by is not embedded
    assert ids(loaded.knn(unit((1, 1.0)), 5)) == ["service"]
    assert loaded.chunk_count() == {"chunks": 25, "embedded": 1}


def test_chunk_with_embedding_is_searchable_at_once(search_index):
    embedded = Chunk(**{**{f: getattr(FIND_BY, f) for f in FIND_BY.__dataclass_fields__},
                        "embedding": tuple(unit((2, 1.0)))})
    search_index.replace_chunks(files(embedded, OWNER_REPO))
    assert search_index.chunk_count() == {"chunks": 2, "embedded": 1}
    assert ids(search_index.knn(unit((2, 1.0)), 5)) == ["find-by"]


# ------------------------------------------------------------------ embedding queue and content cache


def test_pending_chunks_one_per_text_shortest_first(search_index):
    twin = Chunk(**{**{f: getattr(SERVICE, f) for f in SERVICE.__dataclass_fields__},
                    "id": "service-copy", "file": "src/copy.py"})
    search_index.replace_chunks(files(OWNER_REPO, FIND_BY, SERVICE, twin))
    pending = search_index.pending_chunks(10)
    assert [c.id for c in pending] == ["owner-repo", "find-by", "service"]  # by text length; the twin is the same text
    assert [c.id for c in search_index.pending_chunks(1)] == ["owner-repo"]
    search_index.set_embeddings({"service": unit((3, 1.0))})
    assert search_index.chunk_count() == {"chunks": 4, "embedded": 2}  # the twin got it too
    assert [c.id for c in search_index.pending_chunks(10)] == ["owner-repo", "find-by"]


def test_pending_chunks_put_methods_classes_and_functions_first(search_index):
    doc = chunk("readme", "README", "README", "x")  # the shortest text, but a document section
    doc = Chunk(**{**{f: getattr(doc, f) for f in doc.__dataclass_fields__}, "kind": "file_section"})
    search_index.replace_chunks(files(SERVICE, doc, OWNER_REPO))
    assert [c.kind for c in search_index.pending_chunks(10)][-1] == "file_section"
    assert [c.id for c in search_index.pending_chunks(10)] == ["owner-repo", "service", "readme"]
    assert [c.id for c in search_index.pending_chunks(1)] == ["owner-repo"]


def test_embeddings_survive_reindexing_of_unchanged_text(search_index):
    search_index.replace_chunks(files(OWNER_REPO, FIND_BY))
    search_index.set_embeddings({"find-by": unit((4, 1.0))})
    search_index.replace_chunks(files(OWNER_REPO, FIND_BY))  # the file indexed again, text unchanged
    assert search_index.chunk_count() == {"chunks": 2, "embedded": 1}
    assert ids(search_index.knn(unit((4, 1.0)), 1)) == ["find-by"]


def test_changing_the_embedding_model_drops_every_vector(search_index):
    assert search_index.set_embedding_model("model-a") is False
    search_index.replace_chunks(files(OWNER_REPO))
    search_index.set_embeddings({"owner-repo": unit((0, 1.0))})
    assert search_index.set_embedding_model("model-a") is False
    assert search_index.set_embedding_model("model-b") is True
    assert search_index.chunk_count() == {"chunks": 1, "embedded": 0}
    search_index.replace_chunks(files(OWNER_REPO))  # the cache was dropped with the old model
    assert search_index.chunk_count() == {"chunks": 1, "embedded": 0}


# ------------------------------------------------------------------------------------- delete


def test_delete_files_removes_their_chunks_only(loaded):
    loaded.set_embeddings({"owner-repo": unit((0, 1.0)), "service": unit((1, 1.0))})
    loaded.delete_files("shop", ["src/owners.py", "README.md", "no/such/file.py"])
    assert loaded.get_chunks(["owner-repo", "find-by", "readme", "service"]).keys() == {"service"}
    assert loaded.chunk_count() == {"chunks": 23, "embedded": 1}
    assert ids(loaded.bm25("owner repository", 10)) == ["service"]
    assert ids(loaded.knn(unit((0, 1.0)), 5)) == ["service"]
    loaded.delete_files("vets", ["src/owners.py"])  # same path, another repository: nothing of shop goes
    assert loaded.chunk_count() == {"chunks": 23, "embedded": 1}
    loaded.delete_files("shop", [])
    assert loaded.chunk_count() == {"chunks": 23, "embedded": 1}
