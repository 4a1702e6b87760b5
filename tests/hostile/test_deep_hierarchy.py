"""A generated chain of thousands of classes (each extending the one before) made resolution quadratic:
every ``self.m()`` walked the whole chain up (its MRO) and down (the overriders below the receiver);
2,000 classes took 96 s. Inheritance is followed :data:`MAX_HIERARCHY_DEPTH` levels each way."""

from __future__ import annotations

from indexer.pipeline import index_repository
from indexer.resolve.hierarchy import MAX_HIERARCHY_DEPTH
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore


def chain(n: int) -> str:
    parts = ["class C0:\n    def m(self):\n        return 0\n"]
    parts += [f"class C{i}(C{i - 1}):\n    def f{i}(self):\n        return self.m()\n" for i in range(1, n)]
    parts.append(f"class Leaf(C{n - 1}):\n    def m(self):\n        return 1\n")
    return "\n".join(parts)


def callers_of(tmp_path, n: int) -> tuple[list[int], list[int], int]:
    """``(classes whose f_i calls C0.m, classes whose f_i may dispatch to Leaf.m, EXTENDS edges)``."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "deep.py").write_text(chain(n))
    with EmbeddedStore(tmp_path / "i.db") as store:
        report = index_repository(tmp_path / "src", store, store, IndexOptions(repo="r", jobs=1))
        got = store.incoming(["r:deep.C0.m(0)", "r:deep.Leaf.m(0)"], ["CALLS"])

    def numbers(target: str) -> list[int]:
        return sorted(int(e.src.rsplit(".", 2)[-2][1:]) for e in got.get(target, []))
    return numbers("r:deep.C0.m(0)"), numbers("r:deep.Leaf.m(0)"), report.edges["EXTENDS"]


def test_a_chain_within_the_depth_resolves_whole(tmp_path):
    n = MAX_HIERARCHY_DEPTH // 2
    assert callers_of(tmp_path, n) == (list(range(1, n)), list(range(1, n)), n)


def test_a_chain_past_the_depth_resolves_within_it_and_stops_beyond(tmp_path):
    n = 3 * MAX_HIERARCHY_DEPTH
    up, down, extends = callers_of(tmp_path, n)
    # C_i finds C0.m i levels up: for i up to the depth, not beyond; Leaf is more than the depth below
    # every C_i that found m, so no dispatch reaches it
    assert (up, down, extends) == (list(range(1, MAX_HIERARCHY_DEPTH + 1)), [], n)
