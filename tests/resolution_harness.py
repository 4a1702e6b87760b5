"""The resolution test helper: ``check(fixture, expected)`` over a multi-file fixture.

A fixture is one string holding several files, each introduced by a marker line
``# --- path: pkg/mod.py ---`` (``//`` works too). Every file is extracted with its language's
extractor and the whole set resolved as repository ``t``. Edges render as
``src -> dst [resolution]`` with ids shortened by dropping the ``t:`` prefix, so an expectation reads
``app/main.run(0) -> app/service.Service.save(1) [exact]``.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from pathlib import Path

from indexer.languages import extractor_for_path
from indexer.model import FileExtraction
from indexer.resolve.repository import ResolvedRepository, resolve_repository

REPO = "t"
_MARKER = re.compile(r"^(?:#|//) --- path: (\S+) ---\s*$", re.M)


def split_fixture(fixture: str) -> dict[str, str]:
    """``{path: source}`` from a multi-file fixture string."""
    text = textwrap.dedent(fixture)
    parts = _MARKER.split(text)
    return {parts[i]: parts[i + 1].lstrip("\n") for i in range(1, len(parts), 2)}


def extract_fixture(fixture: str) -> list[tuple[FileExtraction, str, int]]:
    """Every file of ``fixture`` extracted: ``(extraction, SHA-256 hex, size in bytes)`` in the
    fixture's order, what :meth:`RepositoryResolver.update` and :func:`resolve_repository` take."""
    extractions = []
    for path, source in split_fixture(fixture).items():
        ex = extractor_for_path(path)
        assert ex is not None, path
        data = source.encode("utf-8")
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    return extractions


def resolve_fixture(fixture: str) -> ResolvedRepository:
    """Extract and resolve every file of ``fixture``."""
    return resolve_repository(REPO, extract_fixture(fixture))


def short(node_id: str) -> str:
    return node_id.removeprefix(f"{REPO}:")


def edges(result: ResolvedRepository, kind: str = "CALLS") -> list[str]:
    """Sorted ``src -> dst [resolution]`` strings of every ``kind`` edge (deduplicated)."""
    out = set()
    for f in result.files:
        for e in f.edges:
            if e.kind == kind:
                tag = f" [{e.resolution}]" if e.resolution else ""
                out.add(f"{short(e.src)} -> {short(e.dst)}{tag}")
    return sorted(out)


def check(fixture: str, expected: list[str], kind: str = "CALLS") -> ResolvedRepository:
    """Assert that the fixture's ``kind`` edges are exactly ``expected`` (order-insensitive)."""
    result = resolve_fixture(fixture)
    assert edges(result, kind) == sorted(expected)
    return result


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (``{repository-relative path: text}``) under ``root`` (made as needed); returns ``root``."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root
