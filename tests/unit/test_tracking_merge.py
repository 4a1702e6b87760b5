"""A reads tuple merged into a tracker frame once (:meth:`indexer.resolve.tracking.DependencyTracker.use_all`):
a memo entry's reads replayed again into the same frame add nothing, so they are not merged again; the
frame's reads, and their order, are the same as when every replay is merged."""

from __future__ import annotations

from indexer.resolve.tracking import MERGE_ONCE, DependencyTracker


def _tokens(prefix: str, n: int) -> tuple[tuple[str, str, str], ...]:
    return tuple(("name", f"{prefix}{i}.py", f"n{i}") for i in range(n))


def test_a_replayed_tuple_gives_the_reads_and_order_of_merging_it_every_time():
    big, other, small = _tokens("a/", MERGE_ONCE + 5), _tokens("b/", MERGE_ONCE + 1), _tokens("c/", 2)
    track = DependencyTracker()
    naive: set[tuple[str, str, str]] = set()

    def body() -> str:
        for step in (big, small, big, other, big, small, other):
            track.use_all(step)
            naive.update(step)
        track.use(("n", "ns", "x"))
        naive.add(("n", "ns", "x"))
        return "v"

    value, deps = track.tracked(body)
    assert value == "v" and deps == tuple(naive)  # the same set, iterated in the same order
    assert len(deps) == len(big) + len(other) + len(small) + 1


def test_a_frame_gets_a_tuple_its_enclosing_frame_had_merged_and_passes_it_on():
    big = _tokens("a/", MERGE_ONCE + 3)
    track = DependencyTracker()

    def inner() -> None:
        track.use_all(big)  # the outer frame merged it: this frame has not

    def outer() -> tuple[object, ...]:
        track.use_all(big)
        return track.tracked(inner)[1]

    inner_deps, outer_deps = track.tracked(outer)
    assert set(inner_deps) == set(big) and set(outer_deps) == set(big)


def test_an_equal_tuple_of_another_object_and_a_small_one_are_merged():
    big = _tokens("a/", MERGE_ONCE + 2)
    copy = tuple(list(big))
    assert copy == big and copy is not big
    track = DependencyTracker()

    def body() -> None:
        track.use_all(big)
        track.use_all(copy)  # another object: merged (adds nothing new)
        track.use_all(_tokens("c/", MERGE_ONCE))  # not longer than MERGE_ONCE: merged every time

    _, deps = track.tracked(body)
    assert sorted(deps) == sorted(big + _tokens("c/", MERGE_ONCE))


def test_outside_any_frame_nothing_is_recorded():
    track = DependencyTracker()
    big = _tokens("a/", MERGE_ONCE + 2)
    track.use_all(big)
    track.use(("n", "ns", "x"))
    _, deps = track.tracked(lambda: None)
    assert deps == ()  # the frame opened after the reads: none of them
