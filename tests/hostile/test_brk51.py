"""brk51's hostile inputs against session 50's work (getattr name patterns, Python branch joins, JavaScript
reassignment joins): what broke is tested here with exact values and what must not be linked (inputs,
sizes and times: docs/benchmarks.md, "brk51")."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from indexer import incremental, state_records, writer
from indexer.languages import extractor_for_path
from indexer.pipeline import index_repository
from indexer.resolve.name_patterns import pattern_regex
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import edges, resolve_fixture


def test_a_pattern_of_many_wildcards_matches_in_linear_time() -> None:
    """``a*a*...a`` (12 wildcards) against ``a`` * 36 + ``b``: the old ``a\\w*a\\w*...`` regular expression
    backtracked through every split (61 s); the translated pattern answers at once, same matches."""
    rx = pattern_regex("a*" * 12 + "a")
    t = time.perf_counter()
    assert rx.fullmatch("a" * 36 + "b") is None
    assert rx.fullmatch("a" * 36) is not None
    assert rx.fullmatch("a" * 13) is not None
    assert rx.fullmatch("a" * 12) is None  # 13 literal a's at least
    assert time.perf_counter() - t < 1.0
    visit = pattern_regex("visit_*")
    assert [n for n in ("visit_a", "visit_", "avisit_a", "visit", "visit_a_b") if visit.fullmatch(n)] == \
        ["visit_a", "visit_", "visit_a_b"]
    assert [n for n in ("on_b", "a_b_c", "x_b") if pattern_regex("*_b").fullmatch(n)] == ["on_b", "x_b"]


def test_a_getattr_pattern_of_many_wildcards_binds_only_the_matching_method() -> None:
    """``getattr(self, f"a{k}a{k}...a")()`` with 12 placeholders in a class whose methods are long runs of
    ``a`` ending in ``b`` (none matches: each took the old expression seconds to minutes) and one
    ending in ``a``: that one only."""
    methods = "".join(f"    def {'a' * n}b(self):\n        return 1\n\n" for n in (34, 35, 36))
    fixture = ("# --- path: rx.py ---\nclass R:\n" + methods + f"    def {'a' * 37}(self):\n        return 2\n\n"
               "    def go(self, k):\n        getattr(self, f'" + "a{k}" * 12 + "a')()\n")
    t = time.perf_counter()
    found = edges(resolve_fixture(fixture))
    assert found == [f"rx.R.go(1) -> rx.R.{'a' * 37}(0) [inferred]"]  # negative: none of the three `...ab`
    assert time.perf_counter() - t < 30


def _python_names(n: int) -> str:
    """``n`` module names each bound, then each joined by its own ``if`` / ``else`` (two classes)."""
    out = ["class A:\n    def run(self):\n        return 1\n", "class B:\n    def run(self):\n        return 2\n"]
    out += [f"v{i} = A()" for i in range(n)]
    out += [f"if flag:\n    v{i} = A()\nelse:\n    v{i} = B()" for i in range(n)]
    out.append("v0.run()\nw = A()\nw.run()")
    return "\n".join(out) + "\n"


def test_python_joins_of_many_names_read_each_statement_s_own_names() -> None:
    """4,000 names each joined by its own ``if`` took 67 s (every statement read every name of the
    module); a statement reads the names bound within its lines. Exact joins and callees."""
    n = 4000
    t = time.perf_counter()
    ex = extractor_for_path("m.py").extract("m.py", _python_names(n).encode())
    assert time.perf_counter() - t < 20  # about 2 s; 67 s before
    first_if = 9 + n  # the two classes take lines 1-8, the n bindings 9 .. 8 + n
    assert [(b.name, b.type, b.line) for b in ex.bindings if b.name in ("v0", "v3999", "w")] == [
        ("v0", "A", 9), ("v3999", "A", 8 + n),
        ("v0", "A", first_if + 1), ("v0", "B", first_if + 3),  # the branches
        ("v3999", "A", first_if + 4 * (n - 1) + 1), ("v3999", "B", first_if + 4 * (n - 1) + 3),
        ("w", "A", first_if + 4 * n + 1),
        ("v0", "A", first_if + 3), ("v3999", "A", first_if + 4 * (n - 1) + 3),  # the joins, in statement order
    ]  # negative: no join for `w` (bound in no statement), none repeating B on its own line
    assert len(ex.bindings) == 3 * n + 1 + n  # n + 2n branches + w + one join per name
    small = "# --- path: m.py ---\n" + _python_names(3)
    assert edges(resolve_fixture(small)) == [
        "m.py -> m.A [exact]", "m.py -> m.A.run(0) [inferred]", "m.py -> m.B [exact]", "m.py -> m.B.run(0) [inferred]",
    ]


def _js_chain(n: int) -> str:
    """One function whose ``if`` / ``else if`` chain is ``n`` branches long, each assigning ``x``."""
    classes = "".join(f"class C{i} {{ m() {{ return {i}; }} }}\n" for i in range(n))
    chain = "\n  else ".join(f"if (k === {i}) {{ x = new C{i}(); }}" for i in range(n))
    return f"{classes}function use(k) {{\n  let x = new C0();\n  {chain}\n  x.m();\n}}\nfunction other() {{ x = new C1(); x.m(); }}\n"


def test_a_long_else_if_chain_asks_each_ancestor_once() -> None:
    """An ``else if`` chain 500 long took 64 s to extract (every assignment walked up its ~1,500
    ancestors, each ``parent`` a walk from the root); the join is unchanged: ``x`` after the chain is
    one of the branches' classes or ``C0`` (no final ``else``). ``other``'s ``x`` is not its own: no binding."""
    n = 1000
    t = time.perf_counter()
    ex = extractor_for_path("w.js").extract("w.js", _js_chain(n).encode())
    assert time.perf_counter() - t < 20  # about 2 s; 64 s at 500 before, four times that at 1,000
    xs = [b for b in ex.bindings if b.name == "x"]
    assert len(xs) == 2 * n  # the declaration, n branches, n - 1 joined values
    assert [(b.type, b.line) for b in xs[:3]] == [("C0", n + 2), ("C0", n + 3), ("C1", n + 4)]
    # the chain's last line holds the last branch's value and, joined there, every other one
    assert [b.type for b in xs if b.line == 2 * n + 2] == [f"C{n - 1}"] + [f"C{i}" for i in range(n - 1)]
    assert [b.scope for b in ex.bindings if b.name == "x" and b.scope != "use"] == []  # negative: other()
    small = "// --- path: w.js ---\n" + _js_chain(3)
    assert edges(resolve_fixture(small)) == [
        "w.other(0) -> w.C1 [exact]", "w.use(1) -> w.C0 [exact]", "w.use(1) -> w.C0.m(0) [inferred]",
        "w.use(1) -> w.C1 [exact]", "w.use(1) -> w.C1.m(0) [inferred]", "w.use(1) -> w.C2 [exact]",
        "w.use(1) -> w.C2.m(0) [inferred]",
    ]  # negative: other()'s x.m() binds no C1.m by its assignment


APP = '''from flask import Flask

app = Flask(__name__)


def load_settings_file(path):
    return path


@app.route("/settings")
def settings():
    return load_settings_file("a.cfg")
'''
README = "# App\n\nThe settings come from `load_settings_file` (see `SettingsLoader`).\n"
LOADER = "class SettingsLoader:\n    def load(self):\n        return 1\n"


def _mentions(db: Path) -> list[tuple[str, str, int]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT src, dst, line FROM edges WHERE kind = 'MENTIONS' ORDER BY 1, 2, 3").fetchall()


def test_a_new_version_rewriting_a_trusted_index_keeps_the_docs_mentions(tmp_path: Path, monkeypatch) -> None:
    """An index this user's runs wrote (its state folder) re-indexed by another indexer version: every
    file is written again, and a doc's mentions of a file the linker extended (``app.py``: its route)
    were lost (that file's nodes had no mention keys in the write): flask 3.1.3 lost 66 MENTIONS."""
    root = tmp_path / "src"
    for rel, text in {"app.py": APP, "README.md": README, "loader.py": LOADER}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    db, options = tmp_path / "i.db", IndexOptions(repo="app", jobs=1, state_dir=str(tmp_path / "state"))
    expected = [("app:README.md", "app:app.load_settings_file(1)", 3), ("app:README.md", "app:loader.SettingsLoader", 3)]
    store = EmbeddedStore(db)
    try:
        index_repository(root, store, store, options)
        assert _mentions(db) == expected
        for module in (writer, incremental, state_records):  # each module that reads the version
            monkeypatch.setattr(module, "indexer_version", lambda: "another-version")
        report = index_repository(root, store, store, options)
        assert report.files_written == 3  # every file again, under the new version
        assert _mentions(db) == expected  # negative: no mention lost, none added
    finally:
        store.close()


def test_pattern_regex_with_alternatives_expands_without_backtracking() -> None:
    """Alternative groups (py51's ``add_<get|post>``) are expanded into plain globs, each translated
    without backtracking wildcards: twelve wildcards around a group still answer at once; an empty
    group matches nothing; past :data:`MAX_EXPANDED` combinations the groups read as ``*``."""
    from indexer.resolve.name_patterns import MAX_EXPANDED
    assert [bool(pattern_regex("add_<get|post>").fullmatch(n)) for n in ("add_get", "add_post", "add_route")] \
        == [True, True, False]
    assert pattern_regex("as_<>").fullmatch("as_sql") is None  # negative: an empty group is no wildcard
    assert pattern_regex("on_<=hdrs.X>").fullmatch("on_x")  # a reference not read is `*`
    t = time.perf_counter()
    assert pattern_regex("a*" * 12 + "<a|c>").fullmatch("a" * 36 + "b") is None
    assert time.perf_counter() - t < 1
    wide = "<" + "|".join(f"x{i}" for i in range(MAX_EXPANDED)) + ">_<a|b>"
    assert pattern_regex(wide).fullmatch("anything_at_all")  # 512 combinations: the groups are `*`
    assert pattern_regex(wide).fullmatch("x1") is None  # still a full match of the fixed `_`
