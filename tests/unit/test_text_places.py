"""The forked child's extracted files as columns (:class:`indexer.forked_resolve.TextPlaces`): the
same reads as the dict of results it replaces, in its order, and none of those results kept."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from indexer.extraction import Extracted
from indexer.forked_resolve import TextPlaces, handed_texts
from indexer.spill import spill_file


def _results(tmp_path: Path) -> tuple[dict[str, Extracted], object]:
    texts = spill_file(str(tmp_path))
    fresh: dict[str, Extracted] = {}
    # arrival order, not path order: the columns keep it
    for path, id_path in (("pkg/z.py", None), ("a.py", "a.py"), ("pkg/m.py", None)):
        item = Extracted(path, text=f"text of {path}", checksum=f"{len(path):064x}", size=len(path) * 10,
                         id_path=id_path)
        fresh[path] = item.spill(texts)
    return fresh, texts


def test_the_columns_read_as_the_results_they_replace(tmp_path: Path) -> None:
    fresh, texts = _results(tmp_path)
    places = TextPlaces(fresh, texts)  # type: ignore[arg-type]
    assert list(places) == ["pkg/z.py", "a.py", "pkg/m.py"] and len(places) == 3
    for path, item in fresh.items():
        got = places[path]
        assert got == item and got is not item
        assert places.get(path) == item
    assert places["a.py"].spilled == (texts, *fresh["a.py"].spilled[1:])  # type: ignore[index]
    assert places["a.py"].text_chunks() == ("text of a.py", [])
    assert handed_texts(places, texts) == handed_texts(fresh, texts)  # type: ignore[arg-type]
    assert handed_texts(places, texts)[1] == ("a.py", f"{4:064x}", 40, "a.py", *fresh["a.py"].spilled[1:])  # type: ignore[misc]


def test_a_path_not_extracted_is_not_there(tmp_path: Path) -> None:
    fresh, texts = _results(tmp_path)
    places = TextPlaces(fresh, texts)  # type: ignore[arg-type]
    for path in ("b.py", "pkg", "pkg/z.pyx", "", "zzz"):
        assert places.get(path) is None and path not in places
        with pytest.raises(KeyError):
            places[path]
    assert TextPlaces({}, texts).get("a.py") is None  # type: ignore[arg-type]


def test_a_text_in_another_spill_file_is_refused(tmp_path: Path) -> None:
    fresh, _ = _results(tmp_path)
    with pytest.raises(ValueError, match="pkg/z.py"):
        TextPlaces(fresh, spill_file(str(tmp_path)))
    unspilled = {"a.py": Extracted("a.py", text="x", checksum="c", size=1)}
    with pytest.raises(ValueError, match="a.py"):
        TextPlaces(unspilled, spill_file(str(tmp_path)))


def test_no_result_is_kept(tmp_path: Path) -> None:
    fresh, texts = _results(tmp_path)
    gc.collect()
    before = sum(1 for o in gc.get_objects() if type(o) is Extracted)
    places = TextPlaces(fresh, texts)  # type: ignore[arg-type]
    del fresh
    gc.collect()
    assert sum(1 for o in gc.get_objects() if type(o) is Extracted) == before - 3
    assert places["pkg/m.py"].size == 80
