"""brk56's hostile inputs against session 55's work and the user-visible defects it left: what broke is
tested here with exact values and what must not happen (inputs, sizes and times: docs/benchmarks.md,
"brk56")."""

from __future__ import annotations

from pathlib import Path

from indexer.languages.base import parser
from indexer.languages.ecmascript.elements import LineWords
from tests.hostile.test_hostile_stores_cli import ripple
from tests.resolution_harness import check
from tests.unit.test_js_scope_tables import nodes_of_type


def _one_getter_and_a_thousand_functions(root: Path) -> Path:
    """A module whose index has more than 1,000 nodes and chunks, three call sites bound exactly, one
    unresolved, and a property read that runs a getter (a CALLS edge that is no call site)."""
    body = "class Box:\n    @property\n    def size(self):\n        return 1\n\n    def grow(self):\n        return self.size\n\n\n"
    body += "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(1000))
    body += "def main():\n    Box().grow()\n    f1()\n    missing()\n"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text(body, encoding="utf-8")
    return root / "src"


def _rows(text: str) -> dict[str, str]:
    """A rich table's rows as ``{label: value}`` (a value folded onto more lines joined by a space)."""
    rows: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")] if line.startswith("│") else []
        if len(cells) != 2:
            continue
        if cells[0]:
            last = cells[0]
            rows[last] = cells[1]
        elif last is not None:
            rows[last] += " " + cells[1]
    return rows


def test_stats_prints_thousands_separators_and_says_it_counts_edges_not_call_sites(tmp_path: Path) -> None:
    """``ripple stats`` printed ``chunks 1004`` (no separator) and ``calls_by_resolution exact 4`` beside
    the index summary's ``call sites by outcome exact 3`` with nothing saying why they differ: the store
    counts CALLS edges (the getter the property read runs is one), the summary call sites."""
    src = _one_getter_and_a_thousand_functions(tmp_path)
    db = tmp_path / "x.db"
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    indexed = ripple("index", str(src), "--db", str(db), "--no-embed", **cache)
    assert indexed.exit_code == 0
    summary = _rows(indexed.stdout)
    assert summary["call sites by outcome"] == "exact 3, unresolved 1"
    assert summary["written: edges"] == "CALLS 4, CONTAINS 1,004"

    result = ripple("stats", "--db", str(db), **cache)
    assert result.exit_code == 0
    rows = _rows(result.stdout)
    assert rows == {"files": "python 1", "nodes": "Class 1, File 1, Function 1,001, Method 2",
                    "edges": "CALLS 4, CONTAINS 1,004", "CALLS edges by resolution": "exact 4",
                    "call sites unresolved": "1", "repos": "src", "chunks": "1,004", "embedded": "0"}
    assert "calls_by_resolution" not in result.stdout  # the JSON key is no label
    note = " ".join(result.stdout.split())
    assert "CALLS edges are not call sites" in note and "counts call sites by outcome" in note

    as_json = ripple("stats", "--db", str(db), "--json", **cache)  # the JSON keeps its keys and plain ints
    assert '"calls_by_resolution": {' in as_json.stdout and '"chunks": 1004' in as_json.stdout


def test_stats_of_an_index_without_calls_prints_no_note_about_them(tmp_path: Path) -> None:
    """The note on edges and call sites is printed only when there are CALLS edges to read it beside."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    db = tmp_path / "x.db"
    assert ripple("index", str(tmp_path / "src"), "--db", str(db), "--no-embed", **cache).exit_code == 0
    result = ripple("stats", "--db", str(db), **cache)
    assert result.exit_code == 0
    assert "CALLS edges are not call sites" not in result.stdout
    assert _rows(result.stdout)["edges"] == "CONTAINS 1"


SAME_LINE = """
// --- path: src/Form.ts ---
export class Form {
  validate() { return true; }
}
// --- path: src/util.ts ---
export function reset() { return 1; }
export function helper() { return 2; }
// --- path: src/page.ts ---
import { Form } from "./Form";
import { reset, helper } from "./util";
export function after(forms: Form[]) { forms.forEach((reset) => reset.validate()); reset(); }
export function before(forms: Form[]) { helper(); forms.forEach((helper: Form) => helper.validate()); }
export function loop(forms: Form[]) { for (const reset of forms) reset.validate(); reset(); }
export function apart(forms: Form[]) {
  forms.forEach((reset) => reset.validate());
  reset();
}
export function alone(forms: Form[]) { forms.forEach((f) => f.validate()); helper(); }
"""


def test_a_callback_parameter_does_not_hide_the_import_written_beside_it_on_its_line() -> None:
    """Session 55's callback parameters and ``for ... of`` variables hold on their lines (no columns):
    ``xs.forEach((reset) => ...); reset();`` on one line (any minified file) took the import's call
    after the callback, and ``helper(); xs.forEach((helper) => ...)`` the one before it, for the
    parameter's, leaving both unresolved. A name also written outside the callback on its first or last
    line gets no range (the import keeps its name there, as before session 55); on lines of its own,
    and when nothing beside it names it, the parameter still holds."""
    result = check(SAME_LINE, [
        "src/page.after(1) -> src/util.reset(0) [exact]",
        "src/page.alone(1) -> src/Form.Form.validate(0) [inferred]",  # f: alone on its line
        "src/page.alone(1) -> src/util.helper(0) [exact]",
        "src/page.apart(1) -> src/Form.Form.validate(0) [inferred]",  # the parameter, on lines of its own
        "src/page.apart(1) -> src/util.reset(0) [exact]",
        "src/page.before(1) -> src/util.helper(0) [exact]",
        "src/page.loop(1) -> src/util.reset(0) [exact]",
        # not linked: Form.validate from after / before / loop, whose callback's or loop's name is the
        # import's there too (one line cannot tell the two apart)
    ])
    unresolved = sorted((u.name, u.line) for f in result.files for u in f.unresolved)
    assert unresolved == [("validate", 3), ("validate", 4), ("validate", 5)]


def _beside(src: bytes) -> bool:
    """:meth:`LineWords.beside` of the first arrow function of JavaScript ``src`` and its parameter."""
    callback = nodes_of_type(parser("javascript").parse(src).root_node, "arrow_function")[0]
    return LineWords(src).beside(callback, callback.child_by_field_name("parameter"))


def test_a_name_beside_a_callback_is_found_on_its_first_and_last_lines_only() -> None:
    """:class:`LineWords` reads the callback's first line before it and its last line after it: a
    name inside the callback, another word holding it (``a2``, ``$a``), a property read (``obj.a``)
    or the name on another line is not beside it."""
    assert _beside(b"a.x;\nys.map(a => a.b(a)\n  .c()); z(a2, $a, obj.a);\nq(a)\n") is False
    assert _beside(b"ys.map(a => a.b()); a();\n") is True  # after it, on its last line
    assert _beside(b"ys.map(a =>\n  a.b()); a();\n") is True  # its last line is the second
    assert _beside(b"a(); ys.map(a => a.b());\n") is True  # before it, on its first line
    assert _beside(b"ys.map(a =>\n  a.b());\na();\n") is False
