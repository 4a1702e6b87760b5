"""brk56's hostile inputs against session 55's work and the user-visible defects it left: what broke is
tested here with exact values and what must not happen (inputs, sizes and times: docs/benchmarks.md,
"brk56")."""

from __future__ import annotations

from pathlib import Path

from tests.hostile.test_hostile_stores_cli import ripple


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
