"""Extraction lists parked on disk while the resolver runs (:mod:`indexer.parked`): read back exactly,
a resolve with them parked equals one without, and a spill file that no longer holds them stops the
run with a clear error instead of binding files without their calls."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from indexer.languages import extractor_for_path
from indexer.model import CallSite, Injection, TypeUse
from indexer.packed import PackedCalls
from indexer.compact import EMPTY
from indexer.parked import PARKED_FIELDS, ParkedDataError, ParkedList, park_extraction
from indexer.resolve.repository import RepositoryResolver
from indexer.spill import SpillFile


def _calls() -> list[CallSite]:
    return [CallSite(name="save", caller="m.f", line=3, col=4, arity=1, receiver="self"),
            CallSite(name="load", caller=None, line=9, col=0, arity=0, receiver=None)]


def _fixture(name: str) -> list[tuple]:
    root = Path(__file__).resolve().parent.parent / "fixtures" / name
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        extractor = extractor_for_path(rel)
        if extractor is not None:
            data = path.read_bytes()
            out.append((extractor.extract(rel, data), f"sum-{rel}", len(data)))
    return out


class TestParkedList:
    def test_reads_back_exactly_what_it_parked(self):
        spill = SpillFile()
        uses = [TypeUse(owner="A.f", type="Owner", line=2, col=8), TypeUse(owner=None, type="Pet", line=5, col=1)]
        parked = ParkedList.park(spill, uses)
        assert spill.size > 0 and len(parked) == 2 and bool(parked)
        assert list(parked) == uses and parked[1] == uses[1] and parked[:1] == uses[:1]
        assert parked == uses and uses == parked and parked != uses[:1] and parked != [] and parked != "Owner"
        assert list(parked) is not list(parked)  # a new list each time: nothing stays in memory
        assert repr(parked) == repr(uses)

    def test_packed_calls_keep_their_pickle_and_copies_are_plain_lists(self):
        spill = SpillFile()
        packed = PackedCalls(_calls())
        parked = ParkedList.park(spill, packed)
        assert spill.get(parked.ref) == packed.blob and parked == _calls()
        again = pickle.loads(pickle.dumps(parked, protocol=pickle.HIGHEST_PROTOCOL))
        assert type(again) is list and again == _calls()
        assert copy.deepcopy(parked) == _calls() and type(copy.deepcopy(parked)) is list

    def test_park_extraction_parks_non_empty_lists_once(self):
        ex = _fixture("spring-jwt")[0][0]
        for name in PARKED_FIELDS:
            setattr(ex, name, [])
        ex.calls = PackedCalls(_calls())
        ex.injections = [Injection(owner="A", type="Repo", via="field", line=3, col=4)]
        spill = SpillFile()
        park_extraction(ex, spill)
        assert isinstance(ex.calls, ParkedList) and isinstance(ex.injections, ParkedList)
        # Empty lists are not parked: they become the shared empty list (indexer.compact).
        assert ex.type_uses == [] and ex.type_uses is EMPTY and ex.table_uses is EMPTY and isinstance(ex.type_uses, list)
        size, calls = spill.size, ex.calls
        park_extraction(ex, spill)  # parked already: nothing written again
        assert spill.size == size and ex.calls is calls and ex.calls == _calls()


class TestBrokenSpill:
    def test_a_closed_spill_file_raises_a_clear_error(self):
        spill = SpillFile()
        parked = ParkedList.park(spill, _calls())
        spill.close()
        with pytest.raises(ParkedDataError, match="unreadable"):
            list(parked)

    def test_overwritten_bytes_raise_instead_of_reading_other_data(self):
        spill = SpillFile()
        parked = ParkedList.park(spill, _calls())
        spill._fh.seek(0)
        spill._fh.write(b"\x00garbage" * (parked.ref[1] // 8 + 1))
        with pytest.raises(ParkedDataError, match="unreadable"):
            parked.unpack()

    def test_another_list_at_the_reference_is_refused(self):
        spill = SpillFile()
        other = spill.put(pickle.dumps(["x"]))
        with pytest.raises(ParkedDataError, match="not the list of 2 items"):
            list(ParkedList(spill, other, 2))

    def test_a_resolve_stops_on_a_lost_spill_file(self):
        spill = SpillFile()
        resolver = RepositoryResolver("t", park=spill)
        resolver.update(_fixture("spring-jwt"))
        spill.close()
        with pytest.raises(ParkedDataError):
            resolver.resolve(sorted(resolver.files))


@pytest.mark.parametrize("fixture", ["spring-jwt", "data-django", "wrappers-fastapi", "kotlin-vue-shop"])
def test_parked_resolve_equals_the_resolve_in_memory(fixture):
    plain, parked = RepositoryResolver("t"), RepositoryResolver("t", park=SpillFile())
    plain.update(_fixture(fixture))
    parked.update(_fixture(fixture))
    assert any(isinstance(getattr(fc.ex, name), ParkedList) for fc in parked.files.values() for name in PARKED_FIELDS)
    paths = sorted(plain.files)
    want, got = plain.resolve(paths), parked.resolve(paths, spill=SpillFile())
    assert list(got.files) == want.files and want.files and got.call_outcomes == want.call_outcomes
    assert got.link_outcomes == want.link_outcomes
    assert sum(len(out.edges) for out in want.files) > 0
