"""Compacted extractions (:mod:`indexer.compact`): every empty list field of an extraction and of
its definitions is the one shared read-only :data:`EMPTY`, and the extraction stays equal, reprs,
pickles and copies as before."""

from __future__ import annotations

import copy
import pickle

import pytest

from indexer import compact
from indexer.compact import ELIDED_DOCSTRING, EMPTY, FrozenList, compact_extraction
from indexer.languages import extractor_for_path
from indexer.model import Param
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


def test_parameter_lists_parameters_signatures_and_positions_are_shared_across_extractions():
    a, b = (pickle.loads(pickle.dumps(_extract())) for _ in range(2))
    get_a, get_b = (next(d for d in ex.definitions if d.name == "get") for ex in (a, b))
    assert get_a.params is not get_b.params and get_a.signature is not get_b.signature
    before = copy.deepcopy(a)
    compact_extraction(a), compact_extraction(b)
    # One parameter list object (read-only), holding one Param object, for both files' `get`.
    assert get_a.params is get_b.params and get_a.params[0] is get_b.params[0]
    assert type(get_a.params) is FrozenList and get_a.params == [Param("key", "str")]
    assert get_a.signature is get_b.signature == "def get(self, key: str) -> str"
    # A top-level definition's qualname is its interned name; a method's is left alone.
    helper = next(d for d in a.definitions if d.name == "helper")
    assert helper.qualname is helper.name and get_a.qualname is not get_b.qualname
    for d in before.definitions:
        if d.docstring:
            d.docstring = ELIDED_DOCSTRING
    assert a == before and repr(a) == repr(before)
    # It pickles and copies as a plain list of new Params (a copy can change without the others).
    back = pickle.loads(pickle.dumps(get_a, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back.params) is list and back.params == get_a.params and back.params[0] is not get_a.params[0]
    assert type(copy.copy(get_a.params)) is list and type(copy.deepcopy(get_a.params)) is list
    assert copy.deepcopy(get_a.params)[0] is not get_a.params[0]
    with pytest.raises(TypeError, match="cannot change"):
        get_a.params.append(Param("x"))
    with pytest.raises(TypeError, match="cannot change"):
        get_a.params[0:1] = []


def test_different_parameters_and_odd_values_are_not_shared():
    a, b = _extract(), _extract()
    next(d for d in b.definitions if d.name == "get").params[0].has_default = True
    compact_extraction(a), compact_extraction(b)
    get_a, get_b = (next(d for d in ex.definitions if d.name == "get") for ex in (a, b))
    assert get_a.params is not get_b.params and get_a.params[0] is not get_b.params[0]
    assert get_a.params == [Param("key", "str")] and get_b.params == [Param("key", "str", True)]
    # A parameter field that does not hash leaves that list as it was (a plain list).
    c = _extract()
    get_c = next(d for d in c.definitions if d.name == "get")
    get_c.params[0].type = ["str"]  # type: ignore[assignment]
    compact_extraction(c)
    assert type(get_c.params) is list and get_c.params == [Param("key", ["str"])]  # type: ignore[list-item]


def test_a_full_table_starts_over_and_what_was_shared_stays_equal(monkeypatch):
    monkeypatch.setattr(compact, "SHARED_LIMIT", 2)
    monkeypatch.setattr(compact, "_INTS", {})
    a, b, c = _extract(), _extract(), _extract()
    for ex, first in ((a, "1000"), (b, "1000"), (c, "3000")):  # new int objects (a literal is one constant)
        ex.definitions[0].end_line, ex.definitions[1].end_line = int(first), int("2000")
    assert a.definitions[1].end_line is not b.definitions[1].end_line
    compact_extraction(a), compact_extraction(b)
    assert sorted(compact._INTS) == [1000, 2000]
    assert a.definitions[0].end_line is b.definitions[0].end_line and a.definitions[1].end_line is b.definitions[1].end_line
    # 3000 finds the table full: it starts over, so c's 2000 is its own object again (and equal).
    compact_extraction(c)
    assert sorted(compact._INTS) == [2000, 3000] and c.definitions[1].end_line == 2000
    assert c.definitions[1].end_line is not a.definitions[1].end_line
    assert a.definitions[1].end_line is b.definitions[1].end_line == 2000
    # Small integers are CPython's own objects: never in the table.
    assert all(d.start_line < 257 for d in c.definitions)


def test_equal_imports_are_one_object_across_extractions_and_others_are_not():
    other = SOURCE.replace("import os\n", "import os\nimport sys\n")
    a, b = (pickle.loads(pickle.dumps(_extract())) for _ in range(2))
    c = pickle.loads(pickle.dumps(extractor_for_path("pkg/c.py").extract("pkg/c.py", other.encode())))
    assert a.imports[0] is not b.imports[0]
    before = copy.deepcopy(c)
    for ex in (a, b, c):
        compact_extraction(ex)
    # `import os` at line 2 of a and b: one object; c imports os at the same line, and sys at the next
    assert [(i.local, i.module, i.name, i.level, i.line) for i in c.imports] == [("os", "os", None, 0, 2), ("sys", "sys", None, 0, 3)]
    assert a.imports[0] is b.imports[0] is c.imports[0]
    assert c.imports[1] is not c.imports[0]
    assert c.imports == before.imports
    # the same import at another line is another object (its line differs)
    d = pickle.loads(pickle.dumps(extractor_for_path("pkg/d.py").extract("pkg/d.py", ("\n" + SOURCE).encode())))
    compact_extraction(d)
    assert d.imports[0] is not a.imports[0] and (d.imports[0].module, d.imports[0].line) == ("os", 3)


def test_forgetting_the_shared_values_keeps_what_is_shared_and_shares_later_ones_anew():
    a, b, c = (pickle.loads(pickle.dumps(_extract())) for _ in range(3))
    compact_extraction(a)
    compact_extraction(b)
    assert a.imports[0] is b.imports[0]
    held = compact.forget_shared()
    assert held >= 1  # a's import at least
    assert compact.forget_shared() == 0  # nothing left to forget
    assert a.imports[0] is b.imports[0]  # what was shared stays shared
    compact_extraction(c)
    assert c.imports[0] is not a.imports[0] and c.imports == a.imports  # equal, not the object forgotten
    assert compact.forget_shared() >= 1  # c's import shared anew


def test_the_resolver_forgets_the_shared_values_once_its_files_are_parked(tmp_path):
    from indexer.resolve.repository import RepositoryResolver

    spill = SpillFile()
    exs = [pickle.loads(pickle.dumps(_extract())) for _ in range(2)]
    resolver = RepositoryResolver("r", None, park=spill)
    exs[1].path = "pkg/other.py"
    compact.forget_shared()
    compact_extraction(exs[0])
    assert compact.forget_shared() >= 1
    compact_extraction(exs[0])
    resolver.update([(ex, "c", 1) for ex in exs], track=False)
    assert compact.forget_shared() == 0  # the update emptied the tables
    unparked = RepositoryResolver("r", None)  # no park: the tables are left as they are
    ex = pickle.loads(pickle.dumps(_extract()))
    ex.path = "pkg/third.py"
    compact_extraction(ex)
    unparked.update([(ex, "c", 1)], track=False)
    assert compact.forget_shared() >= 1
