"""A ``.gitignore`` line with more single wildcards than :data:`indexer.discovery.MAX_PATTERN_STARS`
is dropped with a warning naming the file and line (pathspec's regular expression backtracks on it:
brk40's ``*a*a*...*b`` against a 200-character name ran for hours); the other lines keep their
meaning."""

from __future__ import annotations

import logging
from pathlib import Path

from indexer.discovery import MAX_PATTERN_STARS, load_gitignore


def test_a_line_with_too_many_wildcards_is_dropped_with_a_warning(tmp_path: Path, caplog) -> None:
    assert MAX_PATTERN_STARS == 3
    (tmp_path / ".gitignore").write_text("*.pyc\n**/build/*.min.*.js\n*a*a*a*b\n*x*y*z\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="indexer.discovery"):
        spec = load_gitignore(str(tmp_path))
    assert spec is not None
    assert [r.getMessage() for r in caplog.records] == [
        f"{tmp_path / '.gitignore'}:3: pattern ignored: 4 wildcards (matching it could take hours on a long file name)"]
    assert spec.match_file("m.pyc") and spec.match_file("web/build/app.min.v2.js") and spec.match_file("axbycz")
    assert not spec.match_file("a" * 200 + "b")  # the dropped line: not matched, and at once
