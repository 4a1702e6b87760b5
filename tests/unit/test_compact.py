"""Compacted extractions (:mod:`indexer.compact`): every empty list field of an extraction and of
its definitions is the one shared read-only :data:`EMPTY`, and the extraction stays equal, reprs,
pickles and copies as before."""

from __future__ import annotations

import copy
import pickle

import pytest

from indexer.compact import ELIDED_DOCSTRING, EMPTY, compact_extraction
from indexer.languages import extractor_for_path
from indexer.parked import park_extraction
from indexer.spill import SpillFile

SOURCE = '''"""Module."""
import os


class Base:
    pass


class Repo(Base):
    """A repository."""

    def get(self, key: str) -> str:
        return os.environ.get(key, "")


def helper():
    return Repo().get("x")
'''


def _extract():
    return extractor_for_path("pkg/repo.py").extract("pkg/repo.py", SOURCE.encode())


def _empty_lists(obj: object) -> list[tuple[str, bool]]:
    """``(field, is EMPTY)`` for every empty list field of ``obj``."""
    out = []
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            v = getattr(obj, name, None)
            if isinstance(v, list) and not v:
                out.append((name, v is EMPTY))
    return out


def test_every_empty_list_field_shares_one_frozen_list_and_the_extraction_is_unchanged():
    ex, before = _extract(), _extract()
    fields_before = [_empty_lists(o) for o in (ex, *ex.definitions)]
    assert sum(len(f) for f in fields_before) > 30
    assert not any(shared for f in fields_before for _, shared in f)
    assert compact_extraction(ex) is ex
    after = [_empty_lists(o) for o in (ex, *ex.definitions)]
    assert [[n for n, _ in f] for f in after] == [[n for n, _ in f] for f in fields_before]
    assert all(shared for f in after for _, shared in f)
    # Non-empty lists stay the objects they were (Repo's bases, get's parameters).
    repo = next(d for d in ex.definitions if d.name == "Repo")
    assert repo.bases == ["Base"] and type(repo.bases) is list
    # Equal but for the docstrings, whose text is elided (whether there was one is kept).
    assert [d.docstring for d in before.definitions] == [None, "A repository.", None, None]
    assert [d.docstring for d in ex.definitions] == [None, ELIDED_DOCSTRING, None, None]
    for d in before.definitions:
        if d.docstring:
            d.docstring = ELIDED_DOCSTRING
    assert ex == before and repr(ex) == repr(before)
    back = pickle.loads(pickle.dumps(ex, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == before and type(back.routes) is list and back.routes is not EMPTY
    assert type(copy.deepcopy(ex).routes) is list and copy.deepcopy(ex).routes is not EMPTY
    assert type(copy.copy(EMPTY)) is list


def test_the_shared_empty_list_refuses_every_change():
    ex = compact_extraction(_extract())
    for change in (lambda: ex.routes.append(1), lambda: ex.routes.extend([1]), lambda: ex.routes.insert(0, 1),
                   lambda: ex.routes.__iadd__([1]), lambda: ex.routes.__setitem__(slice(0, 0), [1]),
                   lambda: ex.definitions[0].decorators.sort(), lambda: ex.routes.clear()):
        with pytest.raises(TypeError, match="cannot change"):
            change()
    assert EMPTY == [] and len(EMPTY) == 0


def test_parking_compacts(tmp_path):
    spill = SpillFile(str(tmp_path))
    try:
        ex = park_extraction(_extract(), spill)
        assert ex.routes is EMPTY and ex.injections is EMPTY
        assert type(ex.calls).__name__ == "ParkedList" and len(ex.calls) >= 2
    finally:
        spill.close()


def test_short_texts_are_one_object_across_extractions_after_compaction():
    a, b = _extract(), _extract()
    get_a, get_b = (next(d for d in ex.definitions if d.name == "get") for ex in (a, b))
    # Unpickled or parsed apart, equal texts are distinct objects...
    assert get_a.params[0].type == get_b.params[0].type == "str"
    assert a.imports[0].module == b.imports[0].module == "os"
    a, b = pickle.loads(pickle.dumps(a)), pickle.loads(pickle.dumps(b))
    assert a.imports[0].module is not b.imports[0].module
    compact_extraction(a), compact_extraction(b)
    get_a, get_b = (next(d for d in ex.definitions if d.name == "get") for ex in (a, b))
    # ... and one object once compacted: names, kinds, parents, parameter names and types, bases,
    # return types, import texts.
    assert get_a.name is get_b.name and get_a.kind is get_b.kind and get_a.parent is get_b.parent
    assert get_a.params[0].name is get_b.params[0].name and get_a.params[0].type is get_b.params[0].type
    assert get_a.return_type is get_b.return_type
    repo_a, repo_b = (next(d for d in ex.definitions if d.name == "Repo") for ex in (a, b))
    assert repo_a.bases[0] is repo_b.bases[0]
    assert a.imports[0].module is b.imports[0].module and a.imports[0].local is b.imports[0].local
    # The qualnames (mostly unique) are left alone.
    assert get_a.qualname == get_b.qualname and get_a.qualname is not get_b.qualname
