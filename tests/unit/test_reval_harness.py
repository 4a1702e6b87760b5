"""The retrieval evaluation's building blocks (bench/reval): doc stripping, doc-sentence queries,
bootstrap intervals and the set files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench.reval.metrics import bootstrap, first_rank, paired, per_query
from bench.reval.sets import check_answers, is_test_path, load_set
from bench.reval.strip import (
    doc_comment_before,
    doc_comment_spans,
    doc_comment_text,
    first_sentence,
    strip_doc_comments,
    strip_docstrings,
)

JAVA = '''public class Box {
    /**
     * Gets the {@link Item#name name} of the first item.
     * More text.
     * @param x ignored
     */
    public String first(String x) {
        String s = "/** not a comment */";
        /* plain */ return s; // trailing /** neither */
    }
}'''


def test_strip_doc_comments_cuts_javadoc_lines_and_keeps_strings_and_plain_comments() -> None:
    s = strip_doc_comments(JAVA)
    assert s.text == '''public class Box {
    public String first(String x) {
        String s = "/** not a comment */";
        /* plain */ return s; // trailing /** neither */
    }
}'''
    assert s.doc is None  # the text opens with code, not with a doc comment


def test_strip_doc_comments_keeps_code_sharing_a_line_and_reports_the_leading_comment() -> None:
    s = strip_doc_comments("/** Adds. */ function add(a, b) {\n  return `/** ${a} */` + b;\n}")
    assert s.text == " function add(a, b) {\n  return `/** ${a} */` + b;\n}"
    assert s.doc == "/** Adds. */"
    assert strip_doc_comments("/**/ x /* y */").text == "/**/ x /* y */"  # neither is a doc comment


def test_doc_comment_before_needs_only_whitespace_between() -> None:
    src = "/** Doc one. */\n\n  function a() {}\n/** Doc two. */ let x = 1;\nfunction b() {}\n"
    spans = doc_comment_spans(src)
    assert len(spans) == 2
    assert doc_comment_before(src, spans, src.index("function a")) == "/** Doc one. */"
    assert doc_comment_before(src, spans, src.index("function b")) is None  # code in between
    assert doc_comment_before(src, spans, 0) is None


def test_doc_comment_text_description_tags_and_inheritdoc() -> None:
    assert doc_comment_text("/**\n * Gets it.\n * Second line.\n * @return it\n */") == "Gets it.\nSecond line."
    date_fns = "/**\n * @name addDays\n * @category Day Helpers\n * @summary Add the specified number of days.\n *\n * @description\n * Longer.\n */"
    assert doc_comment_text(date_fns) == "Add the specified number of days."
    assert doc_comment_text("/** {@inheritDoc} */") is None
    assert doc_comment_text("/** @param x y */") is None


def test_first_sentence_rules() -> None:
    assert first_sentence("Gets the {@link Item#name name} of the first item.\nMore text.") == \
        "Gets the name of the first item."
    assert first_sentence("Uses {@code Foo.bar} and {@link Baz#qux}, e.g. x. Then more") == \
        "Uses Foo.bar and Baz.qux, e.g."
    assert first_sentence("Returns <b>true</b> if a &lt; b\n\nSecond paragraph. X.") == "Returns true if a < b"
    assert first_sentence("Version 1.2 is not a sentence end? Yes.") == "Version 1.2 is not a sentence end?"


def test_strip_docstrings_python() -> None:
    text = 'def f(x):\n    """Do a thing.\n\n    More."""\n    def g():\n        "inner"\n        return 1\n    return x\n'
    s = strip_docstrings(text)
    assert s.text == "def f(x):\n    def g():\n        return 1\n    return x\n"
    assert s.doc == "Do a thing.\n\nMore."
    assert strip_docstrings("def broken(:\n").doc is None


def test_ranks_and_per_query_metrics() -> None:
    assert first_rank(["a", "b", "c"], {"c", "b"}) == 2
    assert first_rank(["a"], {"z"}) == 0
    m = per_query([1, 2, 0, 10, 11])
    assert m["mrr"].tolist() == [1.0, 0.5, 0.0, 0.1, pytest.approx(1 / 11)]
    assert m["r1"].tolist() == [1, 0, 0, 0, 0]
    assert m["r5"].tolist() == [1, 1, 0, 0, 0]
    assert m["r10"].tolist() == [1, 1, 0, 1, 0]


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    v = np.array([1.0] * 30 + [0.0] * 70)
    a, b = bootstrap(v), bootstrap(v)
    assert a == b
    assert a.mean == pytest.approx(0.3) and a.lo < 0.3 < a.hi
    assert 0.2 < a.lo and a.hi < 0.4
    same = bootstrap(np.ones(10))
    assert (same.mean, same.lo, same.hi) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError):
        bootstrap([])


def test_paired_difference_uses_per_query_differences() -> None:
    after = np.array([1.0, 1.0, 1.0, 0.0] * 25)
    before = np.array([0.0, 1.0, 1.0, 0.0] * 25)
    d = paired(after, before)
    assert d.mean == pytest.approx(0.25) and d.excludes_zero and d.lo > 0
    flat = paired(before, before)
    assert (flat.mean, flat.lo, flat.hi) == (0.0, 0.0, 0.0) and not flat.excludes_zero
    with pytest.raises(ValueError):
        paired([1.0], [1.0, 0.0])


def test_test_paths() -> None:
    assert is_test_path("tests/test_app.py") and is_test_path("src/addDays/test.ts")
    assert is_test_path("src/main/java/a/FooTest.java") and is_test_path("lib/x.spec.ts")
    assert not is_test_path("src/textual/testing_tools.py") and not is_test_path("src/addDays/index.ts")


def test_load_set_validates_and_check_answers_names_missing(tmp_path: Path) -> None:
    p = tmp_path / "s.json"
    p.write_text(json.dumps({"about": "x", "queries": [
        {"corpus": "c", "query": "where", "answers": ["c:a.f(0)", "c:a.g(0)"]},
        {"corpus": "c", "query": "Foo.bar", "answers": ["c:a.Foo.bar(0)"], "kind": "qualified"}]}))
    qs = load_set(p, "questions")
    assert [(q.kind, sorted(q.answers)) for q in qs] == [("questions", ["c:a.f(0)", "c:a.g(0)"]),
                                                         ("qualified", ["c:a.Foo.bar(0)"])]
    assert check_answers(qs, {"c:a.f(0)", "c:a.Foo.bar(0)"}) == ["'where': c:a.g(0)"]
    p.write_text(json.dumps({"queries": [{"corpus": "c", "query": "q", "answers": []}]}))
    with pytest.raises(ValueError, match="entry 0"):
        load_set(p, "questions")
