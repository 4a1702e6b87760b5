"""brk48b's hostile inputs for session 48's merged work (Express / Koa registration order): what
broke is tested here with the exact routers reached and what must not be reached."""

from __future__ import annotations

from collections import Counter

from indexer.frameworks.mounts import wrapped_routers
from indexer.frameworks.wrap_order import RegistrationOrder

F = "app.js"


class _Counted(dict):
    """A mapping counting its ``get`` calls, to bound the work of a walk exactly."""

    def __init__(self, *a, **kw) -> None:
        super().__init__(*a, **kw)
        self.gets: Counter = Counter()

    def get(self, key, default=None):
        self.gets[key] += 1
        return super().get(key, default)


def _diamond(k: int, levels: int) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """``app`` mounts ``r0_0 .. r0_{k-1}``; every router of level ``L`` mounts every router of ``L + 1``."""
    out = {(F, "app"): [(F, f"r0_{j}") for j in range(k)]}
    for lv in range(levels - 1):
        for j in range(k):
            out[(F, f"r{lv}_{j}")] = [(F, f"r{lv + 1}_{m}") for m in range(k)]
    return out


def _all(k: int, levels: int) -> set[tuple[str, str]]:
    return {(F, f"r{lv}_{j}") for lv in range(levels) for j in range(k)}


def test_a_diamond_of_mounts_is_walked_once_per_router():
    """12 routers per level, each mounting all 12 of the next, 8 levels (1,100 ``r.use(r2)`` lines):
    the walk listed a router once per path (12^7 entries at the last level) and one file took 76 s
    to link; now each router is read once."""
    order = RegistrationOrder(8, lambda path, line, col: "setup")
    for parent, kids in _diamond(12, 9).items():
        for i, child in enumerate(kids):
            order.mount(parent, child, (F, 100 + len(order.children) * 20 + i, 0), False)
    counted = _Counted(order.children)
    order.children = counted
    reach = order.reach((F, "app"), (F, 1, 0), False)
    assert reach.whole == _all(12, 8)  # eight levels down, the ninth is past the depth
    assert (F, "r8_0") not in reach.whole
    assert set(reach.stands) == {(F, "app")}
    assert max(counted.gets.values()) == 1
    assert sum(counted.gets.values()) == 1 + 12 * 8  # app, then each router of the eight levels


def test_a_middleware_after_the_mounts_reaches_no_router():
    order = RegistrationOrder(8, lambda path, line, col: "setup")
    for parent, kids in _diamond(3, 3).items():
        for child in kids:
            order.mount(parent, child, (F, 10, 0), False)
    assert order.reach((F, "app"), (F, 50, 0), False).whole == set()


def test_unordered_wrappers_walk_a_diamond_once_per_router():
    children = _Counted(_diamond(12, 9))
    got = wrapped_routers(children, {}, (F, "app"), 8)
    assert got == _all(12, 8) | {(F, "app")}
    assert max(children.gets.values()) == 1


def test_a_router_mounted_into_itself_and_in_a_cycle_ends():
    children = {(F, "a"): [(F, "a"), (F, "b")], (F, "b"): [(F, "a")]}
    assert wrapped_routers(children, {}, (F, "b"), 8) == {(F, "a"), (F, "b")}
    order = RegistrationOrder(8, lambda path, line, col: "setup")
    order.mount((F, "a"), (F, "a"), (F, 5, 0), False)
    order.mount((F, "a"), (F, "b"), (F, 6, 0), False)
    order.mount((F, "b"), (F, "a"), (F, 7, 0), False)
    # through b, a is mounted in itself again (/a/b/...): its whole stack runs there
    assert order.reach((F, "a"), (F, 1, 0), False).whole == {(F, "a"), (F, "b")}
