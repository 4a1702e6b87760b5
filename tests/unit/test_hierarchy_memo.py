"""The class hierarchy's memo of MROs and member lookups (indexer.resolve.hierarchy): the same answers
and the same recorded reads as computing them, forgotten when an update changes a class's bases
(where a stale entry would answer with the old ancestor), and never kept while a class's bases are
half made."""

from __future__ import annotations

import pytest

from indexer.resolve.hierarchy import LOOKUPS_SHARE
from indexer.resolve.multimap import entries
from indexer.resolve.repository import RepositoryResolver, resolve_repository
from indexer.resolve.tracking import CUT
from tests.resolution_harness import extract_fixture, edges

CHAIN = """
# --- path: pkg/__init__.py ---
# --- path: pkg/bases.py ---
class Base1:
    def run(self):
        pass


class Base2:
    def run(self):
        pass


class Mid(Base1):
    pass
# --- path: pkg/leaf.py ---
from pkg.bases import Mid


class Leaf(Mid):
    pass


def go():
    Leaf().run()
# --- path: pkg/diamond.py ---
class A:
    def hello(self):
        pass


class B(A):
    pass


class C(A):
    def hello(self):
        pass


class D(B, C):
    pass


def greet():
    D().hello()
"""


def _extract(fixture: str) -> list:
    out = extract_fixture(fixture)
    return out


def _cls(live: RepositoryResolver, path: str, qualname: str):
    (rd,) = entries(live.files[path].by_qualname, qualname)
    return rd


def _names(defs) -> list[str]:
    return [d.qualname for d in defs]


def test_memoised_mro_and_lookup_answer_and_record_what_computing_them_does():
    live = RepositoryResolver("t")
    live.update(_extract(CHAIN))
    live.resolve(sorted(live.files))
    r = live._current()
    classes = r.classes
    leaf, d = _cls(live, "pkg/leaf.py", "Leaf"), _cls(live, "pkg/diamond.py", "D")
    # Computed without the memo, then through it (twice: the second answer is the memo's own list).
    for c, expected in ((leaf, ["Leaf", "Mid", "Base1"]), (d, ["D", "B", "C", "A"])):
        plain, plain_reads = r.track.tracked(lambda c=c: classes._compute_mro(c))
        first, first_reads = r.track.tracked(lambda c=c: classes.mro(c))
        again, again_reads = r.track.tracked(lambda c=c: classes.mro(c))
        assert _names(plain) == _names(first) == expected
        assert again is first  # (the diamond's C3 list is memoised on its own: plain is it too)
        assert set(plain_reads) == set(first_reads) == set(again_reads)
        assert ("name", "pkg/bases.py", "Mid") in set(plain_reads) or c is d
    (found, inherited), reads = r.track.tracked(lambda: classes.lookup(d, "hello"))
    assert [m.id for m in found] == ["t:pkg/diamond.C.hello(0)"] and inherited
    (plain_found, plain_inherited, keep), plain_reads = r.track.tracked(lambda: classes._compute_lookup(d, "hello"))
    assert (plain_found, plain_inherited, keep) == (found, True, True) and set(plain_reads) == set(reads)
    (again_found, _), again_reads = r.track.tracked(lambda: classes.lookup(d, "hello"))
    assert again_found is found and set(again_reads) == set(reads)
    assert classes.lookup(d, "missing") == ([], False)


def test_a_one_shot_run_keeps_a_bounded_share_of_lookups_and_binds_the_same():
    """A resolver with a memo budget (``ripple index``) keeps at most ``budget // LOOKUPS_SHARE``
    member lookups (the most recent; unbounded they held about 15 MiB on Home Assistant), still
    memoises MROs, and its lookups, kept or dropped, answer and record as computing does; the calls
    it binds are the unbounded resolver's."""
    unbounded = RepositoryResolver("t")
    unbounded.update(_extract(CHAIN))
    expected = edges(unbounded.resolve(sorted(unbounded.files)))
    assert unbounded._current().classes.keep_lookups and unbounded._current().classes._lookup_memo.budget is None
    assert len(unbounded._current().classes._lookup_memo) > 0
    live = RepositoryResolver("t")
    live.memo_budget = 100
    live.update(_extract(CHAIN))
    assert edges(live.resolve(sorted(live.files))) == expected
    r = live._current()
    classes = r.classes
    assert classes._lookup_memo.budget == 100 // LOOKUPS_SHARE == 12
    assert len(classes._lookup_memo) <= 12
    d = _cls(live, "pkg/diamond.py", "D")
    (found, inherited), reads = r.track.tracked(lambda: classes.lookup(d, "hello"))
    assert (id(d), "hello") in classes._lookup_memo
    (plain, plain_inherited, _), plain_reads = r.track.tracked(lambda: classes._compute_lookup(d, "hello"))
    assert [m.id for m in found] == ["t:pkg/diamond.C.hello(0)"] and inherited and plain_inherited
    assert found == plain and set(reads) == set(plain_reads)
    (again, again_inherited), again_reads = r.track.tracked(lambda: classes.lookup(d, "hello"))  # a hit
    assert again is found and again_inherited and set(again_reads) == set(reads)
    for n in range(12):  # twelve other lookups push it out of both generations
        classes.lookup(d, f"missing{n}")
    assert (id(d), "hello") not in classes._lookup_memo and len(classes._lookup_memo) <= 12
    (dropped, _), dropped_reads = r.track.tracked(lambda: classes.lookup(d, "hello"))  # computed again
    assert dropped == found and set(dropped_reads) == set(reads)
    assert classes.mro(d) is classes.mro(d)  # MROs are still kept


def test_an_edit_that_changes_a_base_class_forgets_the_memo():
    """``Mid(Base1)`` becomes ``Mid(Base2)`` in another file than ``Leaf``'s: ``Leaf``'s Def object
    stays (its file did not change), so an MRO or lookup kept across the update would still answer
    ``Base1``."""
    live = RepositoryResolver("t")
    live.update(_extract(CHAIN))
    paths = sorted(live.files)
    before = edges(live.resolve(paths))
    r = live._current()
    leaf = _cls(live, "pkg/leaf.py", "Leaf")
    assert _names(r.mro(leaf)) == ["Leaf", "Mid", "Base1"]
    assert [m.id for m in r.lookup(leaf, "run")[0]] == ["t:pkg/bases.Base1.run(0)"]
    assert "pkg/leaf.go(0) -> pkg/bases.Base1.run(0) [inferred]" in before

    edited = CHAIN.replace("class Mid(Base1):", "class Mid(Base2):")
    live.update([x for x in _extract(edited) if x[0].path == "pkg/bases.py"])
    after = edges(live.resolve(paths))
    assert live._current() is r  # patched in place (the watcher's path), not rebuilt
    assert _cls(live, "pkg/leaf.py", "Leaf") is leaf  # the memo's key is still live
    assert _names(r.mro(leaf)) == ["Leaf", "Mid", "Base2"]
    assert [m.id for m in r.lookup(leaf, "run")[0]] == ["t:pkg/bases.Base2.run(0)"]
    assert "pkg/leaf.go(0) -> pkg/bases.Base2.run(0) [inferred]" in after
    assert "pkg/leaf.go(0) -> pkg/bases.Base1.run(0) [inferred]" not in after
    assert after == edges(resolve_repository("t", _extract(edited)))
    # The diamond, in a file the edit did not touch, answers as before.
    assert _names(r.mro(_cls(live, "pkg/diamond.py", "D"))) == ["D", "B", "C", "A"]


def test_no_mro_is_kept_while_a_class_bases_are_half_made():
    """Resolving ``Outer``'s base ``Outer.Inner`` looks ``Inner`` up in ``Outer`` itself while its
    bases are being resolved (its MRO is then only ``[Outer]``); kept, that MRO would hide ``Inner``
    from every later lookup."""
    fixture = """
# --- path: m.py ---
class Outer(Outer.Inner):
    class Inner:
        def ping(self):
            pass


def use():
    Outer().ping()
"""
    live = RepositoryResolver("t")
    live.update(_extract(fixture))
    got = edges(live.resolve(sorted(live.files)))
    r = live._current()
    outer = _cls(live, "m.py", "Outer")
    assert _names(r.mro(outer)) == ["Outer", "Outer.Inner"]
    assert [m.id for m in r.lookup(outer, "ping")[0]] == ["t:m.Outer.Inner.ping(0)"]
    assert "m.use(0) -> m.Outer.Inner.ping(0) [inferred]" in got


@pytest.mark.parametrize(("budget", "kept"), [(100, False), (None, True)])
def test_a_one_shot_run_keeps_no_lookup_that_met_a_cycle(budget, kept):
    """A lookup whose reads hold ``CUT`` (a cycle cut one of its paths: its answer depends on what was
    in progress) is computed in place each time in a one-shot run (budget 100), as before lookups were
    kept there; a watcher (no budget) keeps it as it always did. A lookup without ``CUT`` is kept by both."""
    live = RepositoryResolver("t")
    live.memo_budget = budget
    live.update(_extract(CHAIN))
    live.resolve(sorted(live.files))
    r = live._current()
    classes = r.classes
    compute = classes._compute_lookup

    def cut_compute(c, name):
        r.track.use(CUT)
        return compute(c, name)

    classes._compute_lookup = cut_compute
    d = _cls(live, "pkg/diamond.py", "D")
    (found, inherited), reads = r.track.tracked(lambda: classes.lookup(d, "hello2"))
    assert found == [] and not inherited and CUT in reads
    assert ((id(d), "hello2") in classes._lookup_memo) is kept
    classes._compute_lookup = compute
    (plain, _), plain_reads = r.track.tracked(lambda: classes.lookup(d, "hello"))
    assert [m.id for m in plain] == ["t:pkg/diamond.C.hello(0)"] and CUT not in plain_reads
    assert (id(d), "hello") in classes._lookup_memo
