"""The resolver's memo bounded (issue 19 goal 1): a one-shot run (and a watcher) keeps at most about
:data:`indexer.resolve.repository.MEMO_BUDGET` memo entries it can compute again
(:class:`indexer.resolve.tracking.DependencyTracker` with a budget), entries whose computation met a
cycle are pinned, and the index and the read records are exactly those of an unbounded memo."""

from __future__ import annotations

from pathlib import Path

import pytest

import indexer.incremental as incremental_module
from indexer.pipeline import index_repository
from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.hierarchy import ClassHierarchy
from indexer.resolve.tracking import CUT, BoundedMemo, DependencyTracker, record_tokens, strip_cut
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_dump import dump


def _key(i: int) -> tuple[int, str | None, str, str]:
    return (0, None, f"k{i}", "name")


def test_a_bounded_memo_keeps_at_most_its_budget_and_computes_a_dropped_key_again():
    track = DependencyTracker(budget=10)
    computed: list[int] = []

    def compute(i: int):
        def run():
            computed.append(i)
            track.use(("name", "a.py", f"n{i}"))
            return i * 2
        return run

    sizes = []
    for i in range(1000):
        assert track.memoised(_key(i), compute(i)) == i * 2
        sizes.append(track.memo_size())
    assert max(kept for kept, _ in sizes) == 9  # young reaches 5 and becomes the old generation
    assert all(pinned == 0 for _, pinned in sizes)
    assert track.evicted == 1000 - track.memo_size()[0]
    assert computed == list(range(1000))
    # The newest entries are hits; the first one was dropped and is computed again, same value, same reads.
    assert track.memoised(_key(999), compute(999)) == 1998
    assert computed[-1] == 999 and len(computed) == 1000
    value, deps = track.tracked(lambda: track.memoised(_key(0), compute(0)))
    assert value == 0 and computed[-1] == 0 and len(computed) == 1001
    assert deps == (("name", "a.py", "n0"),)


def test_an_unbounded_memo_drops_nothing():
    track = DependencyTracker()
    computed: list[int] = []
    for i in range(300):
        track.memoised(_key(i), lambda i=i: computed.append(i) or i)
    for i in range(300):
        assert track.memoised(_key(i), lambda: pytest.fail("computed again")) == i
    assert track.memo_size() == (0, 300) and track.evicted == 0 and computed == list(range(300))


def test_a_budget_under_two_entries_is_refused():
    with pytest.raises(ValueError, match="at least 2"):
        DependencyTracker(budget=1)
    with pytest.raises(ValueError):
        DependencyTracker(budget=0)


def test_entries_that_met_a_cycle_are_pinned_and_never_computed_again():
    """``a`` reads ``b``, which reads ``a`` (in progress: ``None`` on that path): both hold CUT and
    stay, however many entries come after; an entry reading neither is dropped."""
    track = DependencyTracker(budget=4)
    computed: list[str] = []

    def a():
        computed.append("a")
        track.use(("name", "a.py", "a"))
        return ("a", track.memoised(_key(-2), b))

    def b():
        computed.append("b")
        return ("b", track.memoised(_key(-1), a))

    value, deps = track.tracked(lambda: track.memoised(_key(-1), a))
    assert value == ("a", ("b", None))
    assert CUT in deps and strip_cut(deps) == (("name", "a.py", "a"),)
    assert track.memo_size() == (0, 2)
    for i in range(100):
        track.memoised(_key(i), lambda i=i: i)
    assert track.memo_size()[1] == 2 and track.memo_size()[0] <= 4 and track.evicted >= 96
    assert track.memoised(_key(-1), lambda: pytest.fail("a pinned entry was computed again")) == ("a", ("b", None))
    assert track.memoised(_key(-2), lambda: pytest.fail("a pinned entry was computed again")) == ("b", None)
    assert computed == ["a", "b"]
    assert strip_cut((("name", "x", "y"),)) == (("name", "x", "y"),)


def test_a_bounded_memo_keeps_two_generations_and_moves_a_hit_to_the_younger():
    memo: BoundedMemo[str, int] = BoundedMemo(4)
    memo["a"] = 1
    memo["b"] = 2  # the younger generation is full (budget // 2): it becomes the older
    assert (len(memo), memo.evicted) == (2, 0)
    assert memo.get("a") == 1  # found in the older generation: moved to the younger
    assert list(memo) == ["b", "a"] and "b" in memo and "z" not in memo  # the older generation first
    memo["c"] = 3  # the younger (a, c) full: the older (b) is dropped
    assert (memo.get("b"), memo.get("a"), memo.get("c"), memo.evicted) == (None, 1, 3, 1)
    memo.clear()
    assert (len(memo), memo.get("a")) == (0, None)
    unbounded: BoundedMemo[int, int] = BoundedMemo()
    for i in range(1000):
        unbounded[i] = i
    assert (len(unbounded), unbounded.evicted, unbounded.get(0)) == (1000, 0, 0)
    with pytest.raises(ValueError, match="at least 2"):
        BoundedMemo(1)


def _tree(root: Path, modules: int = 40) -> Path:
    """Python modules importing, subclassing and calling each other in a ring (import cycles), plus
    a re-export cycle between two package ``__init__`` files."""
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from pkg.sub import Helper as Helper\n", encoding="utf-8")
    (root / "pkg" / "sub").mkdir()
    (root / "pkg" / "sub" / "__init__.py").write_text(
        "from pkg import Helper as Helper\n\n\nclass Helper:\n    def go(self):\n        return 1\n", encoding="utf-8")
    for i in range(modules):
        prev = (i - 1) % modules
        (root / "pkg" / f"m{i}.py").write_text(
            f"from pkg.m{prev} import helper{prev}, Service{prev}\nfrom pkg import Helper\n\n\n"
            f"class Service{i}(Service{prev}):\n"
            f"    def run(self, other: Service{prev}) -> int:\n"
            f"        x = Helper()\n        x.go()\n"
            f"        return helper{prev}(other.run(self)) + self.total() + make{i}().total()\n\n"
            f"    def total(self):\n        return len(str(self))\n\n\n"
            f"def make{i}():\n    return Service{prev}()\n\n\n"
            f"def helper{i}(x: int) -> int:\n    return Service{i}().total() + make{prev}().run(None) + x\n",
            encoding="utf-8")
    return root


def _spy_memo(monkeypatch) -> dict[str, int]:
    """Largest number of droppable entries any resolver's memo held, and how many it dropped."""
    seen = {"max_kept": 0, "evicted": 0, "budget": -1, "overriders_budget": -1, "overriders_evicted": 0}
    original = DependencyTracker._keep
    original_overriders = ClassHierarchy.overriders

    def overriders(self, m, below=None):
        found = original_overriders(self, m, below)
        seen["overriders_budget"] = self._overriders.budget
        seen["overriders_evicted"] = max(seen["overriders_evicted"], self._overriders.evicted)
        return found

    def keep(self, key, entry):
        original(self, key, entry)
        seen["max_kept"] = max(seen["max_kept"], len(self._young) + len(self._old))
        seen["evicted"] = max(seen["evicted"], self.evicted)
        seen["budget"] = self.budget

    monkeypatch.setattr(DependencyTracker, "_keep", keep)
    monkeypatch.setattr(ClassHierarchy, "overriders", overriders)
    return seen


def _records(monkeypatch) -> list[dict[str, frozenset]]:
    """What each resolver recorded (per path, as sets) when the run released it."""
    out: list[dict[str, frozenset]] = []
    original = RepositoryResolver.release

    def release(self, paths):
        out.append({p: frozenset(record_tokens(d)) for p, d in self.recorded()[0].items()})
        return original(self, paths)

    monkeypatch.setattr(RepositoryResolver, "release", release)
    return out


def test_a_one_shot_run_with_a_tiny_memo_writes_the_same_index_and_records(tmp_path, monkeypatch):
    src = _tree(tmp_path / "src")
    records = _records(monkeypatch)
    dumps = {}
    for name, budget in (("unbounded", None), ("tiny", 8), ("default", incremental_module.MEMO_BUDGET)):
        monkeypatch.setattr(incremental_module, "MEMO_BUDGET", budget)
        seen = _spy_memo(monkeypatch)
        store = EmbeddedStore(tmp_path / f"{name}.db")
        report = index_repository(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / name)))
        store.close()
        assert report.files_indexed == 42
        if budget is None:
            assert seen["max_kept"] == 0 and seen["evicted"] == 0  # nothing droppable: all in the buckets
            assert (seen["overriders_budget"], seen["overriders_evicted"]) == (None, 0)
        elif budget == 8:
            assert seen["budget"] == 8 and 0 < seen["max_kept"] <= 8 and seen["evicted"] > 100, seen
            # dispatch walks dropped and made again: 8 // OVERRIDERS_SHARE entries kept
            assert seen["overriders_budget"] == 2 and seen["overriders_evicted"] > 10, seen
        else:  # the default budget holds this small tree's memo whole
            assert seen["evicted"] == 0 and seen["max_kept"] > 100, seen
            assert (seen["overriders_budget"], seen["overriders_evicted"]) == (6_250, 0)
        dumps[name] = dump(tmp_path / f"{name}.db")
    assert len(dumps["unbounded"]["edges"]) > 400
    assert dumps["tiny"] == dumps["unbounded"] and dumps["default"] == dumps["unbounded"]
    assert len(records) == 3 and records[0] == records[1] == records[2]
    assert all(CUT not in deps for deps in records[1].values())


def test_a_watcher_with_a_tiny_memo_stays_equal_to_a_full_index_through_edits(tmp_path, monkeypatch):
    """A watcher's memo is bounded as a one-shot run's is (its updates compute evicted lookups
    again): with 8 entries, a body edit, an interface edit (a method renamed in the middle of the
    ring) and their reverts each leave the index a full index of the same tree writes."""
    monkeypatch.setattr(incremental_module, "MEMO_BUDGET", 8)
    seen = _spy_memo(monkeypatch)
    src = _tree(tmp_path / "src", modules=12)
    store = EmbeddedStore(tmp_path / "w.db")
    index = incremental_module.RepositoryIndex(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / "s")))
    m5 = src / "pkg" / "m5.py"
    original = m5.read_text(encoding="utf-8")
    edits = [original.replace("return len(str(self))", "return len(repr(self))"),  # body
             original.replace("def total(self)", "def summed(self)"),  # interface: m6's self.total() now binds m4's
             original]
    try:
        index.sync()
        assert index.resolver.memo_budget == 8
        assert seen["budget"] == 8 and seen["evicted"] > 10, seen
        for n, text in enumerate(edits):
            m5.write_text(text, encoding="utf-8")
            index.update([m5])
            full = EmbeddedStore(tmp_path / f"full{n}.db")
            try:
                index_repository(src, full, full, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / f"f{n}")))
            finally:
                full.close()
            assert dump(tmp_path / "w.db") == dump(tmp_path / f"full{n}.db")
        renamed = dump(tmp_path / "full1.db")["edges"]
        assert any("m5.Service5.summed" in str(e) for e in renamed)
        assert not any("m5.Service5.total" in str(e) for e in renamed)
    finally:
        index.close()
        store.close()


@pytest.mark.parametrize("budget", [None, 10])
def test_memo_aside_starts_empty_and_leaves_the_memo_as_it_was(budget):
    track = DependencyTracker(budget=budget)

    def compute(i: int, token: str):
        def run():
            track.use(("name", "a.py", token))
            return i
        return run

    track.memoised(_key(1), compute(1, "outside"))
    before = track.memo_size()
    with track.memo_aside():
        assert track.memo_size() == (0, 0)
        # key 1 is computed again in here, with what it reads in here
        value, deps = track.tracked(lambda: track.memoised(_key(1), compute(1, "inside")))
        assert (value, deps) == (1, (("name", "a.py", "inside"),))
        track.memoised(_key(2), compute(2, "inside"))
        assert sum(track.memo_size()) == 2
    assert track.memo_size() == before
    # what was computed inside is gone: key 1 replays its first reads, key 2 is computed again
    assert track.tracked(lambda: track.memoised(_key(1), lambda: pytest.fail("computed again"))) == (
        1, (("name", "a.py", "outside"),))
    assert track.tracked(lambda: track.memoised(_key(2), compute(2, "after"))) == (2, (("name", "a.py", "after"),))
