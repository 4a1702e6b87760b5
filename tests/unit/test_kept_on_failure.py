"""Every extractor keeps what it found when its work fails part way (``indexer.languages.base.kept_on_failure``):
the failure is one ``"1:0: internal error: ..."`` entry, the definitions found before it stay, and
nothing is raised to the run."""

from __future__ import annotations

import importlib

import pytest

from indexer.languages.base import Extractor, kept_on_failure
from indexer.model import Definition, FileExtraction


def _defn(name: str) -> Definition:
    return Definition(kind="function", name=name, qualname=name, parent=None, start_line=1, start_col=0, end_line=1,
                      end_col=0, name_line=1, name_col=4)


def test_an_exception_becomes_one_error_and_what_was_added_stays() -> None:
    out = FileExtraction(path="a.py", language="python")
    with kept_on_failure(out):
        out.definitions.append(_defn("found_first"))
        raise ValueError("bad node")
    assert [d.name for d in out.definitions] == ["found_first"]
    assert out.errors == ["1:0: internal error: ValueError: bad node"]


def test_a_recursion_error_says_nesting_too_deep() -> None:
    out = FileExtraction(path="a.kt", language="kotlin")

    def deep(n: int) -> int:
        return deep(n + 1) + 1

    with kept_on_failure(out):
        deep(0)
    assert out.errors == ["1:0: internal error: nesting too deep"]


def test_a_block_that_succeeds_adds_no_error() -> None:
    out = FileExtraction(path="a.go", language="go")
    with kept_on_failure(out) as same:
        same.definitions.append(_defn("ok"))
    assert same is out
    assert out.errors == []
    assert [d.name for d in out.definitions] == ["ok"]


def test_keyboard_interrupt_is_not_swallowed() -> None:
    out = FileExtraction(path="a.py", language="python")
    with pytest.raises(KeyboardInterrupt), kept_on_failure(out):
        raise KeyboardInterrupt
    assert out.errors == []


SOURCES = {
    "python": ("a.py", b"def first():\n    pass\n", "first"),
    "ecmascript": ("a.ts", b"export function first() { return 1 }\n", "first"),  # TypeScript's extractor
    "java": ("A.java", b"class A { void first() {} }\n", "first"),
    "kotlin": ("A.kt", b"class A { fun first() {} }\n", "first"),
    "go": ("a.go", b"package a\nfunc First() {}\n", "First"),
    "csharp": ("A.cs", b"class A { void First() {} }\n", "First"),
    "apex": ("A.cls", b"public class A { public void first() {} }\n", "first"),
}


def _extractor(folder: str) -> Extractor:
    """The folder's extractor (ECMAScript's folder holds one per dialect: TypeScript's here)."""
    if folder == "ecmascript":
        return importlib.import_module("indexer.languages.ecmascript.typescript").EXTRACTOR
    return importlib.import_module(f"indexer.languages.{folder}.extractor").EXTRACTOR


@pytest.mark.parametrize("folder", sorted(SOURCES))
def test_an_extractor_whose_detectors_fail_keeps_its_definitions(folder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The framework detectors run last: a bug in one costs the file its framework facts, not its
    definitions (before, Python and ECMAScript said ``0:0: extractor failure``, Kotlin ``0:0``)."""
    module = importlib.import_module(f"indexer.languages.{folder}.extractor")
    extractor = _extractor(folder)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("detector bug")

    monkeypatch.setattr(module, "run_detectors", broken)
    path, source, name = SOURCES[folder]
    out = extractor.extract(path, source)
    assert name in [d.name for d in out.definitions]
    assert out.errors == ["1:0: internal error: RuntimeError: detector bug"]


@pytest.mark.parametrize("folder", sorted(SOURCES))
def test_the_same_file_without_the_failure_has_no_error(folder: str) -> None:
    path, source, name = SOURCES[folder]
    out = _extractor(folder).extract(path, source)
    assert name in [d.name for d in out.definitions]
    assert out.errors == []
