"""brk56's hostile inputs against session 55's work and the user-visible defects it left: what broke is
tested here with exact values and what must not happen (inputs, sizes and times: docs/benchmarks.md,
"brk56")."""

from __future__ import annotations

import random
from pathlib import Path

from indexer.languages.base import parser
from indexer.languages.ecmascript.elements import LineWords
from indexer.model import Binding
from indexer.resolve.bindings import LineRanges, ScopedBindings
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


def _scan(bindings: list[Binding], line: int) -> list[Binding]:
    """What ``ScopedBindings.at_line`` answered before ranges were indexed: every binding scanned."""
    held = [b for b in bindings if b.line <= line <= b.end]
    if not held:
        return []
    inner = max((b.line, -b.end) for b in held)
    return [b for b in held if (b.line, -b.end) == inner]


def test_many_callback_parameters_of_one_name_are_looked_up_by_line_not_scanned() -> None:
    """A function of thousands of ``xs.forEach(function (a) {...})`` (each on its own line) scanned
    every range of ``a`` at each lookup of ``a``: 4,000 took 1.0 s to bind, 1,000 lines of a minified
    file 9 s on base56 (docs/benchmarks.md, brk56). Past 8 ranges the table holds them indexed by
    line; the answers are the scan's, for nested, apart and equal ranges and lines outside all."""
    ranges = [(2, 9), (3, 3), (3, 3), (4, 8), (5, 5), (6, 7), (11, 11), (12, 20), (14, 14), (14, 16), (22, 22)]
    bindings = [Binding("f", "a", f"T{i}", "element", lo, hi) for i, (lo, hi) in enumerate(ranges)]
    assert type(LineRanges.of(bindings)) is LineRanges
    table = ScopedBindings(bindings, ())  # scope f is not exposed: the local table
    for line in range(0, 24):
        assert table.at_line("f", "a", line) == _scan(bindings, line), line
    assert [b.type for b in table.at_line("f", "a", 3)] == ["T1", "T2"]  # one range bound two ways
    assert [b.type for b in table.at_line("f", "a", 6)] == ["T5"]
    assert [b.type for b in table.at_line("f", "a", 10)] == []  # between ranges: none holds
    assert [b.type for b in table.at_line("f", "a", 15)] == ["T9"]
    assert [b.type for b in table.at_line("f", "a", 17)] == ["T7"]  # back to the enclosing one
    assert table.at_line("f", "b", 3) == [] and table.at_line("g", "a", 3) == []


def test_ranges_overlapping_without_nesting_are_scanned_as_before() -> None:
    """Two ranges sharing lines without one holding the other are no laminar family: the list is
    kept and scanned (same answers)."""
    ranges = [(1, 5), (5, 9)] + [(20 + i, 20 + i) for i in range(8)]
    bindings = [Binding("f", "a", f"T{i}", "element", lo, hi) for i, (lo, hi) in enumerate(ranges)]
    assert type(LineRanges.of(bindings)) is list
    table = ScopedBindings(bindings, ())
    for line in range(0, 30):
        assert table.at_line("f", "a", line) == _scan(bindings, line), line
    assert [b.type for b in table.at_line("f", "a", 5)] == ["T1"]


def _laminar(rng: random.Random, lo: int, hi: int, depth: int, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` with random ranges inside ``lo..hi`` added: apart from each other, some bound twice,
    some holding more of them (at most 4 deep, 60 in all)."""
    at = lo
    while at < hi and len(ranges) < 60:
        end = min(hi, at + rng.randint(0, 12))
        ranges.append((at, end))
        if rng.random() < 0.3:
            ranges.append((at, end))  # bound twice
        if depth < 4 and end > at:
            _laminar(rng, at, end, depth + 1, ranges)
        at = end + rng.randint(1, 3)
    return ranges


def test_random_laminar_ranges_answer_as_the_scan_does() -> None:
    """Random nested and apart ranges (seeded), every line: the index answers as the scan."""
    rng = random.Random(56)
    for _ in range(40):
        ranges = _laminar(rng, 1, 200, 0, [])
        rng.shuffle(ranges)
        bindings = [Binding("f", "a", f"T{i}", "element", lo, hi) for i, (lo, hi) in enumerate(ranges)]
        table = ScopedBindings(bindings, ())
        for line in range(0, 202):
            assert table.at_line("f", "a", line) == _scan(bindings, line), (ranges, line)
