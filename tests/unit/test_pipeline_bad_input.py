"""Bad input never crashes a run and never loses other files' data (cases found by trying to break it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from indexer.chunking import chunk_file
from indexer.languages import extractor_for_path
from indexer.run import IndexOptions
from indexer.pipeline import index_repository
from stores.embedded import EmbeddedStore
from analysis.navigation import callers, find_targets


def write(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")


@pytest.fixture
def store(tmp_path: Path):
    s = EmbeddedStore(tmp_path / "db" / "index.db")
    yield s
    s.close()


def index(root: Path, store: EmbeddedStore):
    return index_repository(root, store, store, IndexOptions(repo="r", jobs=1))


def caller_ids(store: EmbeddedStore, symbol: str) -> list[str]:
    return [ref.source.id for ref in callers(store, find_targets(store, symbol))]


def test_file_name_that_is_not_utf8_is_skipped_and_the_run_goes_on(tmp_path: Path, store: EmbeddedStore) -> None:
    root = tmp_path / "src"
    write(root, {"ok.py": "def f():\n    pass\n"})
    (root / os.fsdecode(b"bad\xffname.py")).write_text("x = 1\n", encoding="utf-8")
    report = index(root, store)
    assert report.files_indexed == 1
    assert report.skipped["undecodable_name"] == 1


def test_same_path_with_another_suffix_gets_distinct_ids(tmp_path: Path, store: EmbeddedStore) -> None:
    root = tmp_path / "src"
    write(root, {
        "util.ts": "export function helper(x: number) { return x; }\n",
        "util.js": "export function helper(x) { return x; }\n",
        "main.py": "def helper(x):\n    return x\n",
    })
    index(root, store)
    ids = sorted(n.id for n in store.find_symbols(["helper"])["helper"])
    assert ids == ["r:main.helper(1)", "r:util.js.helper(1)", "r:util.ts.helper(1)"]


def test_file_that_stops_being_readable_loses_its_old_edges(tmp_path: Path, store: EmbeddedStore) -> None:
    root = tmp_path / "src"
    write(root, {"t.py": "def target():\n    pass\n", "u.py": "from t import target\n\ndef user():\n    target()\n"})
    index(root, store)
    assert caller_ids(store, "target") == ["r:u.user(0)"]
    write(root, {"u.py": b"def user():\n    pass\n\x00\x00binary now"})
    report = index(root, store)
    assert report.skipped["binary"] == 1
    assert caller_ids(store, "target") == []
    assert sorted(store.file_checksums("r")) == ["t.py"]


def test_long_call_chain_does_not_drop_the_rest_of_the_file(tmp_path: Path, store: EmbeddedStore) -> None:
    chain = "z" + ".b()" * 600
    root = tmp_path / "src"
    write(root, {
        "b.js": "export function helper() {}\n",
        "a.js": f'import {{ helper }} from "./b";\nexport function main() {{\n  helper();\n  return {chain};\n}}\n',
        "c.py": f"def q():\n    return {chain}\n",
    })
    report = index(root, store)
    assert report.files_with_parse_errors == 0
    assert caller_ids(store, "helper") == ["r:a.main(0)"]


def test_utf16_with_bom_and_cr_only_line_endings_are_read(tmp_path: Path, store: EmbeddedStore) -> None:
    root = tmp_path / "src"
    write(root, {
        "wide.py": "def wide():\n    narrow()\n".encode("utf-16"),
        "mac.py": b"def narrow():\r    pass\r\rdef other():\r    narrow()\r",
    })
    report = index(root, store)
    assert report.files_indexed == 2 and report.files_with_parse_errors == 0
    refs = callers(store, find_targets(store, "narrow"))
    assert [(r.file, r.line, r.col, r.source.qualname) for r in refs] == [("mac.py", 5, 4, "other")]


def test_mutually_linked_folders_are_walked_once(tmp_path: Path, store: EmbeddedStore) -> None:
    root = tmp_path / "src"
    write(root, {"x/xf.py": "def xf():\n    pass\n", "y/yf.py": "def yf():\n    pass\n"})
    os.symlink("../y", root / "x" / "toy")
    os.symlink("../x", root / "y" / "tox")
    report = index(root, store)
    assert report.files_indexed == 2
    assert report.skipped["symlink_duplicate"] + report.skipped["symlink_loop"] == 2


def test_chunk_lines_follow_the_parser_not_str_splitlines() -> None:
    source = 'def foo():\n    pass\n\x0c\ndef bar():\n    s = "a\u2028b"\n    return s\n'
    ex = extractor_for_path("f.py")
    assert ex is not None
    extraction = ex.extract("f.py", source.encode("utf-8"))
    chunks = {c.name: c for c in chunk_file("r", "r", extraction, source)}
    assert chunks["bar"].text == 'def bar():\n    s = "a\u2028b"\n    return s'
    assert (chunks["bar"].start_line, chunks["bar"].end_line) == (4, 6)
    # The form-feed line between them is blank: no file section.
    assert [c.kind for c in chunk_file("r", "r", extraction, source)] == ["function", "function"]


@pytest.mark.parametrize("extra", [-1, 0, 1, 2])
def test_long_chunk_is_cut_like_the_whole_text_would_be(extra: int) -> None:
    """A chunk longer than the cap is its first MAX_CHUNK_CHARS characters plus a cut mark, whatever
    line the cap falls on (the text is built only as far as the cap: lines whose joined length is
    exactly the cap, with more lines after them, must still be marked as cut)."""
    from indexer.chunking import MAX_CHUNK_CHARS
    lines = ["def long():", *["    x = 1  # " + "p" * 87] * (MAX_CHUNK_CHARS // 101 - 1)]
    filler = MAX_CHUNK_CHARS + extra - len("\n".join(lines)) - 1  # the next line ends at the cap + extra
    lines += ["    y = 2  # " + "q" * (filler - 13), "    return x"]
    assert len("\n".join(lines[:-1])) == MAX_CHUNK_CHARS + extra
    source = "\n".join(lines) + "\n"
    ex = extractor_for_path("f.py")
    assert ex is not None
    chunk = next(c for c in chunk_file("r", "r", ex.extract("f.py", source.encode()), source) if c.name == "long")
    whole = "\n".join(lines)
    assert chunk.text == whole[:MAX_CHUNK_CHARS] + "\n…"
