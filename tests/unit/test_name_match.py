"""Query-name agreement (analysis.name_match): a text query that uses a definition's own name parts and
parameter words lifts it above hits that merely share the query's words in their bodies; pure rules and
exact orders through the QueryEngine over a tiny embedded store (BM25 only, min-max fusion)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.name_match import (DEFAULT_NAME_MATCH, NO_NAME_MATCH, NameMatch, name_factor, name_parts,
                                 query_stems, signature_words, stem)
from analysis.ranking import NO_PRIORS, Candidate, rerank
from analysis.retrieval import QueryEngine
from stores.contracts import Chunk, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore

PATH = "src/Util.java"  # its class name holds no query word: every chunk's fqn field holds it


def _method(name: str, params: str, types: str, **props: object) -> Node:
    sig = f"public static void {name}({params})"
    return Node(f"r:src/Util.Util.{name}({types})", "Method", name, f"Util.{name}", "r", PATH, 1, 0,
                2, 0, {"language": "java", "signature": sig, **props})


def _chunk(n: Node, text: str, kind: str = "method") -> Chunk:
    return Chunk(n.id, "r", "r", n.file, "java", kind, n.name, n.id, None, 1, 2, text, n.id)


SWAP = _method("swap", "final Object[] array, final int offset1, final int offset2", "Object,int,int")
COPY = _method("copyRange", "final Object[] source, final int from, final int to", "Object,int,int")
FILL = _method("fill", "final Object[] target, final Object item", "Object,Object")
INDEX_ARRAY = _method("indexOf", "final char[] array, final char valueToFind", "char,char")
INDEX_TEXT = _method("indexOf", "final String text, final char valueToFind", "String,char")
FILLERS = [_method(f"hash{i}", "final Object item", "Object") for i in range(6)]  # BM25 prunes a token held by half
TEXTS = {SWAP: "Object tmp = array[offset1]; array[offset1] = array[offset2]; array[offset2] = tmp;",
         COPY: "copy the elements, then the elements of the source",
         FILL: "for (int i = 0; i < target.length; i++) target[i] = item; // the whole array",
         # two overloads whose bodies score alike: only the parameter lists tell them apart
         INDEX_ARRAY: "for (int i = 0; i < a.length; i++) if (a[i] == v) return i;",
         INDEX_TEXT: "for (int i = 0; i < s.length; i++) if (s[i] == v) return i;",
         **{n: "return item == null ? 0 : item.hashCode();" for n in FILLERS}}
FILE = Node("r:src/Util.java", "File", "Util.java", PATH, "r", PATH, 1, 0, 9, 0, {})
FILLERS = [_method(f"hash{i}", "final Object item", "Object") for i in range(6)]  # BM25 prunes a token held by half
SECTION = Chunk("r:src/Util.java#L1-9", "r", "r", PATH, "java", "file_section", "Util.java", FILE.id,
                None, 1, 9, "swap two elements array swap", "s")


@pytest.fixture
def store(tmp_path: Path):
    s = EmbeddedStore(tmp_path / "index.db")
    f = IndexedFile(FileRecord("r", PATH, "java", "0" * 64, 10))
    f.nodes = [FILE, *TEXTS]
    f.chunks = [_chunk(n, text) for n, text in TEXTS.items()]
    s.replace_files([f])
    yield s
    s.close()


def _ids(result) -> list[str]:
    return [h.node.id for h in result.hits]


def test_stems_name_parts_and_signature_words() -> None:
    assert [stem(w) for w in ("swaps", "converts", "parses", "parse", "elements")] == [
        "swap", "convert", "pars", "pars", "element"]
    assert query_stems("Swaps two elements in the given array.") == {"swap", "two", "element", "array"}
    assert query_stems("the of") == {"the", "of"}  # nothing but stop words: all kept (query_terms)
    assert name_parts("getWidgetById") == {"get", "widget", "by", "id"}
    assert name_parts("__init__") == {"init"} and name_parts("swap") == {"swap"} and name_parts("()") == frozenset()
    assert signature_words(SWAP.props["signature"]) == {"object", "array", "int", "offset1", "offset2"}
    assert signature_words("def on_key(self, event: events.Key) -> None") == {"event", "events.key", "key"}
    assert signature_words("class Foo") == frozenset() and signature_words(") broken (") == frozenset()


def test_name_factor_arithmetic_and_where_it_is_one() -> None:
    terms = query_stems("Swaps two elements in the given array")
    # name: 1 of 1 part (0.5); query: 1 of 4 terms (0.3 / 4); signature: 'array' of 5 parameter words (0.2 / 5)
    assert name_factor(_chunk(SWAP, "x"), SWAP, terms, True) == pytest.approx(1 + 0.5 + 0.3 / 4 + 0.2 / 5)
    # fill: no name part in the query; 'array' is not among its parameter words {object, target, item}
    assert name_factor(_chunk(FILL, "x"), FILL, terms, True) == 1.0
    assert name_factor(_chunk(INDEX_ARRAY, "x"), INDEX_ARRAY, terms, True) == pytest.approx(1 + 0.2 / 6)
    assert name_factor(_chunk(SWAP, "x"), SWAP, terms, False) == 1.0  # not a definition (a file section ...)
    assert name_factor(_chunk(SWAP, "x"), SWAP, frozenset(), True) == 1.0  # an identifier query: no terms
    assert name_factor(_chunk(SWAP, "x"), SWAP, terms, True, NO_NAME_MATCH) == 1.0
    assert name_factor(_chunk(INDEX_TEXT, "x"), INDEX_TEXT, query_stems("Counts the lines of a file"), True) == 1.0
    with pytest.raises(ValueError, match="name-match weight signature must be >= 0"):
        NameMatch(signature=-0.1)


def test_a_query_in_the_definitions_own_words_puts_it_first(store: EmbeddedStore) -> None:
    query = "Swaps two elements in the given array"
    off = QueryEngine(store, store, priors=NO_PRIORS, name_match=NO_NAME_MATCH).search(query, limit=4)
    # BM25 alone: the body that repeats 'elements' wins; 'Swaps' is not 'swap' to BM25; min-max: 1.0, 0.738, 0
    assert _ids(off) == [COPY.id, SWAP.id, FILL.id]
    on = QueryEngine(store, store, priors=NO_PRIORS).search(query, limit=4)
    assert _ids(on) == [SWAP.id, COPY.id, FILL.id]
    # swap: 0.738 * (1 + 0.5 + 0.3 / 4 + 0.2 / 5); copyRange's name and parameters hold no query word
    assert [round(h.score, 3) for h in on.hits] == [1.192, 1.0, 0.0]
    assert on.hits[0].ranks == off.hits[1].ranks == {"bm25": 2}  # the per-list ranks are reported unchanged


def test_parameter_words_tell_overloads_apart(store: EmbeddedStore) -> None:
    query = "Finds the index of the given value in the array"
    off = QueryEngine(store, store, priors=NO_PRIORS, name_match=NO_NAME_MATCH).search(query, limit=2)
    assert _ids(off) == [INDEX_TEXT.id, INDEX_ARRAY.id]  # a tie (min-max 1.0 each), broken by id
    on = QueryEngine(store, store, priors=NO_PRIORS).search(query, limit=2)
    assert _ids(on) == [INDEX_ARRAY.id, INDEX_TEXT.id]  # 'array' is its parameter, not the other's
    # name {index, of}: 1 of 2 parts, 1 of 4 terms {find, index, valu, array}; parameters less name parts:
    # {char, array, valuetofind, valu, to, find} hold 3 of the other terms, {string, text, ...} 2 of 7
    assert [h.score for h in on.hits] == pytest.approx([1 + 0.25 + 0.075 + 0.2 * 3 / 6, 1 + 0.25 + 0.075 + 0.2 * 2 / 7])


def test_identifier_queries_and_unrelated_words_keep_the_fused_order(store: EmbeddedStore) -> None:
    for query in ("swap", "Util.indexOf", "the whole tmp"):
        off = QueryEngine(store, store, name_match=NO_NAME_MATCH).search(query, limit=4)
        on = QueryEngine(store, store).search(query, limit=4)
        assert on.hits and _ids(on) == _ids(off) and [h.score for h in on.hits] == [h.score for h in off.hits], query


def test_rerank_gives_a_file_section_no_name_factor() -> None:
    terms = query_stems("swap two elements array")
    cands = [Candidate(SECTION, FILE, 0.5), Candidate(_chunk(SWAP, "x"), SWAP, 0.4)]
    ranked = rerank(cands, {}, NO_PRIORS, False, terms)
    assert [r.index for r in ranked] == [1, 0]
    assert [r.score for r in ranked] == pytest.approx([0.4 * (1 + 0.5 + 0.3 / 4 + 0.2 / 5), 0.5])
    assert [r.index for r in rerank(cands, {}, NO_PRIORS, False, terms, NO_NAME_MATCH)] == [0, 1]
    assert DEFAULT_NAME_MATCH == NameMatch(0.5, 0.3, 0.2)
