"""What the class hierarchy (indexer.resolve.hierarchy) holds per definition after a resolve: bases as
exact-size tuples (the empty one shared), subclasses as the shared empty tuple until one is linked,
no MRO kept for a class without bases, no dispatch walk kept that met no subclass; each answers and
records what computing it does, and an update unlinks a subclass back to the empty tuple."""

from __future__ import annotations


from indexer.resolve.multimap import entries
from indexer.resolve.repository import RepositoryResolver, resolve_repository
from tests.resolution_harness import extract_fixture, edges

FIXTURE = """
# --- path: pkg/__init__.py ---
# --- path: pkg/shapes.py ---
class Shape:
    def area(self):
        return 0


class Square(Shape):
    def area(self):
        return 4


class Lonely:
    def area(self):
        return 1


def measure(s: Shape):
    return s.area()


def alone(x: Lonely):
    return x.area()
"""


def _extract(fixture: str) -> list:
    out = extract_fixture(fixture)
    return out


def _def(live: RepositoryResolver, qualname: str):
    (rd,) = entries(live.files["pkg/shapes.py"].by_qualname, qualname)
    return rd


def _resolved(budget: int | None) -> RepositoryResolver:
    live = RepositoryResolver("t")
    live.memo_budget = budget
    live.update(_extract(FIXTURE))
    live.resolve(sorted(live.files))
    return live


def test_bases_are_tuples_and_subclasses_empty_tuples_until_linked():
    live = _resolved(100)
    shape, square, lonely = _def(live, "Shape"), _def(live, "Square"), _def(live, "Lonely")
    assert shape.bases == () and type(shape.bases) is tuple
    assert type(square.bases) is tuple and square.bases == (shape,)
    assert shape.subclasses == [square] and type(shape.subclasses) is list
    for rd in (square, lonely, _def(live, "Shape.area"), _def(live, "measure")):
        assert rd.subclasses == () and type(rd.subclasses) is tuple
    # A function is no class: its bases are never resolved.
    assert _def(live, "measure").bases is None



def test_links_are_one_slot_shared_by_every_definition_no_class_links():
    live = _resolved(100)
    shape, square, lonely = _def(live, "Shape"), _def(live, "Square"), _def(live, "Lonely")
    measure, area, alone = _def(live, "measure"), _def(live, "Shape.area"), _def(live, "alone")
    # Functions and methods share one unlinked value, as do classes resolved to nothing at all.
    assert measure.links is area.links is alone.links
    assert tuple(measure.links) == (None, False, (), (), None)
    assert tuple(lonely.links) == ((), False, (), (), None)
    assert lonely.links is not measure.links
    # A class with a subclass or a base holds its own, the shared ones are untouched.
    assert shape.links is not lonely.links and square.links is not lonely.links
    assert shape.links.subclasses == [square] and square.links.bases == (shape,)
    assert tuple(lonely.links) == ((), False, (), (), None) and tuple(measure.links) == (None, False, (), (), None)
    square.unlink()
    assert square.links is measure.links and square.bases is None and shape.subclasses == [square]
    assert len(type(square).__slots__) == 6  # members read through the file (51); kind and tail in the Shape (52); line and qualname out (54)


def test_a_def_holds_its_definition_or_its_position_in_one_slot():
    live = _resolved(100)
    fc = live.files["pkg/shapes.py"]
    assert [rd.index for rd in fc.defs] == [None] * len(fc.defs)
    assert [rd.held.qualname for rd in fc.defs] == [rd.qualname for rd in fc.defs]
    square = _def(live, "Square")
    i = fc.defs.index(square)
    square.park(i)
    assert square.held is None and square.index == i and square.src == i
    assert square.d.qualname == "Square" and square.d.bases == ["Shape"]

def test_no_mro_kept_for_a_class_without_bases_and_it_records_the_same_reads():
    live = _resolved(100)
    r = live._current()
    classes = r.classes
    shape, square = _def(live, "Shape"), _def(live, "Square")
    got, reads = r.track.tracked(lambda: classes.mro(shape))
    plain, plain_reads = r.track.tracked(lambda: classes._compute_mro(shape))
    assert got == plain == [shape] and set(reads) == set(plain_reads)
    assert ("name", "pkg/shapes.py", "Shape") in set(reads)
    assert id(shape) not in classes._mro_memo
    assert classes.mro(square) == [square, shape] and classes.mro(square) is classes.mro(square)
    assert id(square) in classes._mro_memo


def test_a_dispatch_walk_that_meets_no_subclass_is_not_kept_and_answers_the_same():
    live = _resolved(100)
    r = live._current()
    classes = r.classes
    base_area, lonely_area = _def(live, "Shape.area"), _def(live, "Lonely.area")
    square_area = _def(live, "Square.area")
    classes._overriders.clear()
    found, reads = r.track.tracked(lambda: classes.overriders(lonely_area))
    again, again_reads = r.track.tracked(lambda: classes.overriders(lonely_area))
    assert list(found) == list(again) == [] and set(reads) == set(again_reads)
    assert ("name", "pkg/shapes.py", "Lonely") in set(reads) and len(classes._overriders) == 0
    found, reads = r.track.tracked(lambda: classes.overriders(base_area))
    assert list(found) == [square_area]
    assert list(classes._overriders) == [id(base_area)]  # keyed by the method alone: no receiver given
    hit, hit_reads = r.track.tracked(lambda: classes.overriders(base_area))
    assert list(hit) == [square_area] and set(hit_reads) == set(reads)
    assert ("name", "pkg/shapes.py", "Square") in set(reads)
    below, _ = r.track.tracked(lambda: classes.overriders(base_area, _def(live, "Shape")))
    assert list(below) == [square_area] and (id(base_area), id(_def(live, "Shape"))) in classes._overriders
    # A receiver typed as the subclass meets no class below it: nothing more is kept.
    assert list(classes.overriders(square_area, _def(live, "Square"))) == []
    assert len(classes._overriders) == 2


def test_one_shot_and_watcher_bind_the_same_calls():
    expected = edges(resolve_repository("t", _extract(FIXTURE)))
    assert "pkg/shapes.measure(1) -> pkg/shapes.Square.area(0) [inferred]" in expected
    assert not any(e.startswith("pkg/shapes.alone(1) -> pkg/shapes.Square") for e in expected)
    for budget in (None, 2, 100):
        live = RepositoryResolver("t")
        live.memo_budget = budget
        live.update(_extract(FIXTURE))
        assert edges(live.resolve(sorted(live.files))) == expected


TWO_FILES = """
# --- path: pkg/__init__.py ---
# --- path: pkg/base.py ---
class Shape:
    def area(self):
        return 0


def measure(s: Shape):
    return s.area()
# --- path: pkg/square.py ---
from pkg.base import Shape


class Square(Shape):
    def area(self):
        return 4
"""


def test_an_update_that_drops_the_only_subclass_leaves_the_empty_tuple():
    """``Square`` (in another file) stops extending ``Shape``: ``Shape``'s Def object stays (its file
    did not change) and is unlinked back to the shared empty tuple; the calls are a full run's."""
    live = RepositoryResolver("t")
    live.update(_extract(TWO_FILES))
    paths = sorted(live.files)
    before = edges(live.resolve(paths))
    assert "pkg/base.measure(1) -> pkg/square.Square.area(0) [inferred]" in before
    (shape,) = entries(live.files["pkg/base.py"].by_qualname, "Shape")
    assert [x.name for x in shape.subclasses] == ["Square"]
    edited = TWO_FILES.replace("class Square(Shape):", "class Square:")
    live.update([x for x in _extract(edited) if x[0].path == "pkg/square.py"])
    after = edges(live.resolve(paths))
    assert entries(live.files["pkg/base.py"].by_qualname, "Shape") == (shape,)
    assert shape.subclasses == () and type(shape.subclasses) is tuple
    assert "pkg/base.measure(1) -> pkg/square.Square.area(0) [inferred]" not in after
    assert after == edges(resolve_repository("t", _extract(edited)))
    # Extending it again links a new list.
    live.update([x for x in _extract(TWO_FILES) if x[0].path == "pkg/square.py"])
    assert edges(live.resolve(paths)) == before
    assert [x.name for x in shape.subclasses] == ["Square"] and type(shape.subclasses) is list


CHAIN = "# --- path: pkg/__init__.py ---\n# --- path: pkg/chain.py ---\nclass C0:\n    def run(self):\n        return 0\n\n\n" + "".join(
    f"class C{i}(C{i - 1}):\n    pass\n\n\n" for i in range(1, 41)) + "def go(c: C40):\n    return c.run()\n"


def test_a_one_shot_run_keeps_a_bounded_number_of_mros_and_a_dropped_one_answers_the_same():
    from indexer.resolve.hierarchy import MRO_SHARE
    live = RepositoryResolver("t")
    live.memo_budget = 20  # 20 // MRO_SHARE: 10 MROs and as many C3 linearisations kept at most
    live.update(_extract(CHAIN))
    out = live.resolve(sorted(live.files))
    r = live._current()
    classes = r.classes
    assert MRO_SHARE == 2 and classes._mro_memo.budget == classes._c3_memo.budget == 10
    chain = [entries(live.files["pkg/chain.py"].by_qualname, f"C{i}")[0] for i in range(41)]
    for c in chain:
        classes.mro(c)
    assert 0 < len(classes._mro_memo) <= 10 and classes._mro_memo.evicted > 0
    assert id(chain[1]) not in classes._mro_memo and id(chain[40]) in classes._mro_memo
    # Every MRO asked again, kept or dropped, is the same list with the same reads as computed afresh.
    for i in (40, 20, 1):
        got, reads = r.track.tracked(lambda c=chain[i]: classes.mro(c))
        fresh, fresh_reads = r.track.tracked(lambda c=chain[i]: classes._compute_mro(c))
        assert got == fresh == chain[i::-1] and set(reads) == set(fresh_reads)
        assert ("name", "pkg/chain.py", f"C{i}") in set(reads)
    # A watcher keeps every one (unbounded) and binds the same calls.
    watcher = RepositoryResolver("t")
    watcher.update(_extract(CHAIN))
    unbounded = watcher.resolve(sorted(watcher.files))
    kept = watcher._current().classes
    for c in (entries(watcher.files["pkg/chain.py"].by_qualname, f"C{i}")[0] for i in range(41)):
        kept.mro(c)
    assert kept._mro_memo.budget is None and len(kept._mro_memo) == 40 and kept._mro_memo.evicted == 0
    assert edges(out) == edges(unbounded)
    assert "pkg/chain.go(1) -> pkg/chain.C0.run(0) [inferred]" in edges(out)
    assert not any("C1.run" in e or "C40.run" in e for e in edges(out))  # no member defined there: not linked
