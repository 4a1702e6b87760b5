"""The process-wide record of tables built on demand (indexer.resolve.held_tables.HeldTables): the exact
order owners' tables are dropped in, the bound, a weak record forgetting an owner that went, a strong one
keeping it, and ``release``."""

from __future__ import annotations

import gc
import weakref

from indexer.resolve.held_tables import HeldTables


class Owner:
    """An owner of one table (``table``)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.table: str | None = None

    def __repr__(self) -> str:
        return self.name


def _keep(owner: Owner, table: str | None) -> None:
    owner.table = table


def _names(held: HeldTables[Owner, str]) -> list[str]:
    return [o.name for o in held.owners()]


def test_the_least_recently_built_table_is_dropped_first_and_used_moves_an_owner_last() -> None:
    held: HeldTables[Owner, str] = HeldTables(_keep, weak=False)
    a, b, c, d = Owner("a"), Owner("b"), Owner("c"), Owner("d")
    for o in (a, b, c):
        held.hold(o, f"{o.name}-table", 3)
    assert _names(held) == ["a", "b", "c"] and [a.table, b.table, c.table] == ["a-table", "b-table", "c-table"]
    held.used(a)  # a least-recently-used order: a is now the most recent
    assert _names(held) == ["b", "c", "a"]
    held.hold(d, "d-table", 3)
    assert _names(held) == ["c", "a", "d"]
    assert b.table is None and [c.table, a.table, d.table] == ["c-table", "a-table", "d-table"]  # b, the oldest
    held.hold(b, "b-again", 3)  # built again: c goes next, not a
    assert _names(held) == ["a", "d", "b"] and c.table is None and b.table == "b-again"
    held.used(c)  # not held: nothing moves, nothing is added
    assert _names(held) == ["a", "d", "b"] and c.table is None


def test_the_bound_is_read_per_call_and_zero_holds_nothing() -> None:
    held: HeldTables[Owner, str] = HeldTables(_keep, weak=False)
    owners = [Owner(str(i)) for i in range(5)]
    for o in owners:
        held.hold(o, "t", 5)
    assert len(held) == 5
    held.hold(owners[0], "t0", 2)  # a smaller bound drops the oldest down to it
    assert _names(held) == ["4", "0"] and [o.table for o in owners] == ["t0", None, None, None, "t"]
    held.hold(owners[1], "t1", 0)  # bound 0: its own table goes at once, with every other
    assert _names(held) == [] and len(held) == 0 and all(o.table is None for o in owners)


def test_release_drops_one_owners_table_and_forgets_it() -> None:
    held: HeldTables[Owner, str] = HeldTables(_keep, weak=False)
    a, b, never = Owner("a"), Owner("b"), Owner("never")
    held.hold(a, "ta", 8)
    held.hold(b, "tb", 8)
    held.release(a)
    assert _names(held) == ["b"] and a.table is None and b.table == "tb"
    never.table = "own"
    held.release(never)  # not recorded: its table is dropped all the same, nothing else moves
    assert never.table is None and _names(held) == ["b"]


def test_a_weak_record_forgets_an_owner_that_went_and_a_strong_one_keeps_it_alive() -> None:
    weak: HeldTables[Owner, str] = HeldTables(_keep, weak=True)
    strong: HeldTables[Owner, str] = HeldTables(_keep, weak=False)
    a, b, c = Owner("a"), Owner("b"), Owner("c")
    for o in (a, b, c):
        weak.hold(o, "t", 8)
    gone = weakref.ref(b)
    del b
    gc.collect()
    assert gone() is None  # the weak record did not keep it
    assert _names(weak) == ["a", "c"] and len(weak) == 2  # and forgot it at once, not in its turn
    kept = Owner("kept")
    strong.hold(kept, "t", 8)
    ref = weakref.ref(kept)
    del kept
    gc.collect()
    assert ref() is not None and _names(strong) == ["kept"]  # held by the record until dropped
    strong.hold(Owner("next"), "t", 1)
    gc.collect()
    assert ref() is None and _names(strong) == ["next"]
