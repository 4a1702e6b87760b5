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
from indexer.packed import PackedCalls, PackedList, pack_lists
from indexer.compact import ELIDED_DOCSTRING, EMPTY, elide_docstrings
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


    def test_a_workers_packed_lists_are_parked_as_they_came(self, tmp_path):
        """What a worker sends (indexer.extraction.extract_file): every non-empty list of
        PARKED_FIELDS packed, one pickle each, and the resolving process writes those pickles to its
        spill file as they are (no unpickling and pickling again), reading back the same records."""
        from indexer.discovery import discover
        from indexer.extraction import extract_file

        (tmp_path / "m.py").write_text("import os\n\n\nclass Owner:\n    pass\n\n\nclass A:\n    \"\"\"An A.\"\"\"\n\n"
                                       "    def f(self, x: Owner) -> str:\n"
                                       "        y = os.path.join(x, 'a')\n        return y.upper\n", encoding="utf-8")
        sf = discover(tmp_path).files[0]
        plain = extractor_for_path("m.py").extract("m.py", (tmp_path / "m.py").read_bytes())
        result = extract_file((sf, "r", "r", 1 << 20, False, None))
        ex = result.extraction
        kinds = {name: type(getattr(ex, name)).__name__ for name in (*PARKED_FIELDS, "definitions", "imports")}
        assert kinds == {"calls": "PackedCalls", "type_uses": "PackedList", "value_reads": "PackedList",
                         "injections": "list", "table_uses": "list", "bindings": "PackedList",
                         "arg_candidates": "list", "definitions": "PackedList", "imports": "list"}
        assert ex.injections == [] and ex.table_uses == []  # nothing to pack: an empty list stays one
        # The definitions travel with their docstrings elided (what parking did in the resolving
        # process); the chunks were cut before, from the whole source.
        assert [(d.qualname, d.docstring) for d in ex.definitions] == [("Owner", None), ("A", ELIDED_DOCSTRING), ("A.f", None)]
        assert [(d.qualname, d.docstring) for d in plain.definitions][1] == ("A", "An A.")
        assert any('"""An A."""' in c.text for c in result.chunks)
        blobs = {name: getattr(ex, name).blob for name in ("calls", "type_uses", "value_reads", "bindings", "definitions")}
        spill = SpillFile()
        park_extraction(ex, spill)
        elide_docstrings(plain.definitions)
        for name, blob in blobs.items():
            parked = getattr(ex, name)
            assert isinstance(parked, ParkedList) and spill.get(parked.ref) == blob
            assert list(parked) == list(getattr(plain, name)) and len(parked) == len(getattr(plain, name)) > 0
        assert [b.name for b in ex.bindings] == [b.name for b in plain.bindings] and "y" in [b.name for b in ex.bindings]

    def test_pack_lists_packs_only_non_empty_lists(self):
        ex = _fixture("spring-jwt")[0][0]
        uses = [TypeUse(owner="A.f", type="Owner", line=2, col=8)]
        ex.type_uses, ex.injections, ex.calls = uses, [], PackedCalls(_calls())
        calls = ex.calls
        pack_lists(ex, ("type_uses", "injections", "calls"))
        assert type(ex.type_uses) is PackedList and ex.type_uses == uses and uses == ex.type_uses
        assert ex.injections == [] and type(ex.injections) is list and ex.calls is calls
        again = pickle.loads(pickle.dumps(ex.type_uses, protocol=pickle.HIGHEST_PROTOCOL))
        assert type(again) is PackedList and again.blob == ex.type_uses.blob and again != uses[:0]
        with pytest.raises(AttributeError):
            pack_lists(ex, ("no_such_field",))


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
