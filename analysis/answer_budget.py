"""The size budget of an agent answer (:mod:`analysis.agent_queries`): the items of an answer cut,
in a fixed order, until the text built from them fits a number of tokens.

:func:`fit` tries the items whole, then for each source cap of :data:`SOURCE_CAPS` the nested lists
cut to a common length (binary search, at least 5) and the most items that fit (binary search,
keeping at least three, or one at the last cap); every cut is said in a note, never silently.
Tokens are counted by :func:`analysis.tokens.token_counter`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from analysis.tokens import token_counter

__all__ = ["Build", "Items", "SOURCE_CAPS", "fit"]

SOURCE_CAPS = (None, 60, 30, 15, 5, 0)
"""Source lines kept per item, tried in turn while an answer is over its budget."""


def _cap_source(text: str, cap: int | None) -> tuple[str, bool]:
    """``text`` cut to its first ``cap`` lines plus a ``… (N more lines)`` line, and whether it was cut
    (``cap`` ``None``: never cut)."""
    if cap is None:
        return text, False
    lines = text.split("\n")
    if len(lines) <= cap:
        return text, False
    rest = len(lines) - cap
    kept = "\n".join(lines[:cap])
    return (kept + "\n" if kept else "") + f"… ({rest} more lines)", True


Items = list[dict[str, Any]]
"""An answer's items: JSON-ready dicts, each may hold a ``source`` text and nested lists."""
Build = Callable[[Items, Sequence[str]], tuple[dict[str, Any], str]]
"""Builds an answer from chosen items and the notes on what was cut: its JSON and its text."""


def fit(build: Build, items: Items, budget: int, noun: str, nested: Sequence[str] = (),
         plural: str | None = None) -> tuple[dict[str, Any], str, list[str]]:
    """Fit ``items`` (each may hold a ``source`` and lists under the ``nested`` keys) into
    ``budget`` tokens (:func:`analysis.tokens.token_counter`), measured on the text of ``build(chosen, notes)`` (its notes included; the result
    it also returns holds the same items). In turn: full sources and all items; then, for each source
    cap of :data:`SOURCE_CAPS`, nested lists cut to a common length (at least 5) and the most items
    that fit, keeping at least three (or one at the last cap). Returns the result, the text and one
    note per cut."""
    total = len(items)
    counter = token_counter()

    def notes_for(chosen: Items, cap: int | None, nested_cut: int | None) -> list[str]:
        notes = []
        if cap is not None and any(c.get("source_truncated") for c in chosen):
            notes.append(f"source cut to {cap} lines per {noun} (ask for one symbol, or read the file at the "
                         "lines given, for the rest)")
        if nested_cut is not None:
            for k in nested:
                dropped = sum(max(0, len(item.get(k) or []) - nested_cut) for item in items[:len(chosen)])
                if dropped:
                    notes.append(f"{k} cut to {nested_cut} per {noun} ({dropped} left out; the counts stay complete): "
                                 f"ask for {k} of one target for all of them")
        if len(chosen) < total:
            notes.append(f"showing {len(chosen)} of {total} {plural or noun + 's'}: raise max_tokens or narrow the "
                         "request for the rest")
        return notes

    def fits(chosen: Items, cap: int | None, nested_cut: int | None) -> bool:
        return counter.within(build(chosen, notes_for(chosen, cap, nested_cut))[1], budget)

    if fits(items, None, None):
        data, text = build(items, [])
        return data, text, []
    for i, cap in enumerate(SOURCE_CAPS):
        last = i == len(SOURCE_CAPS) - 1
        capped = _capped(items, cap)
        floor = min(1 if last else 3, total)
        nested_cut = _nested_cut(capped, nested, floor, lambda c, k, cap=cap: fits(c, cap, k))
        trimmed = _cut_nested(capped, nested, nested_cut)
        n = _most_that_fit(len(trimmed), floor,
                           lambda m, t=trimmed, cap=cap, k=nested_cut: fits(t[:m], cap, k))
        if n is not None or last:
            chosen = trimmed[:floor if n is None else n]
            notes = notes_for(chosen, cap, nested_cut)
            data, text = build(chosen, notes)
            if not counter.within(text, budget):
                notes.append("even this is over the budget: raise max_tokens")
                data, text = build(chosen, notes)
            return data, text, notes
    raise AssertionError("unreachable")


def _capped(items: Items, cap: int | None) -> Items:
    """``items`` with each ``source`` cut to ``cap`` lines (``source_truncated`` set where cut)."""
    out = []
    for item in items:
        if isinstance(item.get("source"), str):
            text, cut = _cap_source(item["source"], cap)
            if cut:
                item = {**item, "source": text, "source_truncated": True}
        out.append(item)
    return out


def _cut_nested(items: Items, nested: Sequence[str], length: int | None) -> Items:
    """``items`` with each list under the ``nested`` keys cut to ``length`` (``None``: uncut)."""
    if length is None:
        return items
    return [{**item, **{k: item[k][:length] for k in nested if isinstance(item.get(k), list)}} for item in items]


def _nested_cut(items: Items, nested: Sequence[str], floor: int,
                fits: Callable[[Items, int | None], bool]) -> int | None:
    """The longest common length of the lists under ``nested`` (at least 5) with which ``floor`` items
    fit; ``None`` when they fit uncut (or there are no such lists)."""
    if not nested or fits(items[:floor], None):
        return None
    longest = max((len(item.get(k) or []) for item in items for k in nested), default=0)
    lo, hi = min(5, longest), longest
    if not fits(_cut_nested(items[:floor], nested, lo), lo):
        return lo
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(_cut_nested(items[:floor], nested, mid), mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _most_that_fit(total: int, floor: int, fits: Callable[[int], bool]) -> int | None:
    """The largest ``n`` from ``floor`` to ``total`` with ``fits(n)``, ``None`` when ``fits(floor)`` fails."""
    if not fits(floor):
        return None
    lo, hi = floor, total
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo
