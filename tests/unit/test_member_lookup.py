"""A class's members read out of its file's definitions per qualname (:meth:`FileCtx.member`,
:meth:`FileCtx.members_of`): no table per class is held, the answers are those the table gave
(source order, replaced definitions left out, at most :data:`MAX_NAMESAKES` copies), and a file
where some qualname is not its parent's and its name keeps the tables."""

from __future__ import annotations

from indexer.model import Definition, FileExtraction
from indexer.resolve.context import MAX_NAMESAKES
from indexer.resolve.multimap import EMPTY_TABLE, entries
from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.values import Def
from tests.resolution_harness import extract_fixture

FIXTURE = """
# --- path: pkg/a.py ---
class A:
    def x(self):
        return 1

    def y(self):
        return 2

    if True:
        def y(self):
            return 3


class B(A):
    def z(self):
        return self.x()


def x():
    return 0
"""


def _files(fixture: str = FIXTURE) -> dict:
    r = RepositoryResolver("t")
    r.update(extract_fixture(fixture))
    return r.files


def _def(fc, qualname: str) -> Def:
    return entries(fc.by_qualname, qualname)[0]


def test_members_by_name_come_from_the_qualnames_in_source_order() -> None:
    fc = _files()["pkg/a.py"]
    a, b = _def(fc, "A"), _def(fc, "B")
    assert [rd.id for rd in a.member("x")] == ["t:pkg/a.A.x(0)"]
    assert [rd.id for rd in a.member("y")] == ["t:pkg/a.A.y(0)", "t:pkg/a.A.y(0)#2"]
    assert [rd.id for rd in b.member("z")] == ["t:pkg/a.B.z(0)"]
    # not members: an inherited method, a top-level namesake, a name nobody defines
    assert b.member("x") == ()
    assert fc.member("pkg", "x") == ()
    assert a.member("z") == () and a.member("nope") == ()
    assert {n: [rd.id for rd in entries(a.members, n)] for n in a.members} == {
        "x": ["t:pkg/a.A.x(0)"], "y": ["t:pkg/a.A.y(0)", "t:pkg/a.A.y(0)#2"]}
    assert _def(fc, "x").members is EMPTY_TABLE and _def(fc, "A.x").member("x") == ()


def test_no_member_slot_and_no_table_held_for_a_regular_file() -> None:
    assert "members" not in Def.__slots__ and len(Def.__slots__) == 6  # kind and tail in the Shape (52), line and held qualname out (54)
    fc = _files()["pkg/a.py"]
    assert fc.members_of("A") is not fc.members_of("A")  # built when asked, not held


def test_members_keep_the_last_namesakes_only() -> None:
    # each copy under its own ``if``: they coexist (a plain redefinition replaces the one before)
    copies = "".join(f"    if F{i}:\n        def m(self):\n            return {i}\n\n" for i in range(MAX_NAMESAKES + 6))
    fc = _files(f"# --- path: pkg/c.py ---\nclass C:\n{copies}")["pkg/c.py"]
    c = _def(fc, "C")
    got = c.member("m")
    assert len(got) == MAX_NAMESAKES
    assert [rd.id for rd in got[:2]] == ["t:pkg/c.C.m(0)#7", "t:pkg/c.C.m(0)#8"]
    assert got[-1].id == f"t:pkg/c.C.m(0)#{MAX_NAMESAKES + 6}"
    assert entries(c.members, "m") == got


def _d(kind: str, name: str, qualname: str, parent: str | None, line: int) -> Definition:
    return Definition(kind, name, qualname, parent, line, 0, line + 1, 0, line, 0)


def test_a_file_breaking_the_qualname_rule_keeps_its_tables() -> None:
    ex = FileExtraction("m.js", "javascript", None)
    ex.definitions = [_d("class", "A", "A", None, 1), _d("method", "m", "A.m", "A", 2),
                      _d("method", "k", "Other.k", "A", 4),  # owned by A, written elsewhere
                      _d("function", "A.z", "A.z", None, 6)]  # a dotted top-level name: no member of A
    r = RepositoryResolver("t")
    r.update([(ex, "0" * 64, 10)])
    fc = r.files["m.js"]
    a = _def(fc, "A")
    assert [rd.qualname for rd in a.member("m")] == ["A.m"]
    assert [rd.qualname for rd in a.member("k")] == ["Other.k"]
    assert a.member("z") == ()
    assert list(a.members) == ["m", "k"]
    assert fc.member("Other", "k") == ()
