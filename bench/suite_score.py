"""The score of one call-graph suite case as the link-set scorers keep it (``bench/pycg_suite.py``,
``bench/jcg_links.py``): the expected ``(caller, callee)`` links against ripple's, in the suite's
naming. ``bench/jcg_java.py`` scores annotated call sites instead and keeps its own record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Link = tuple[str, str]
"""``(caller, callee)`` in the suite's naming."""


@dataclass
class LinkScore:
    """One case's comparison: ``expected`` links (the suite's), ``found`` (ripple's), the builtin
    links expected and those ripple saw (``builtin`` / ``builtin_seen``, not scored), ripple's
    unresolved calls ``(caller, name, line)`` and the ``error`` that stopped the case, if any.
    A scorer whose suite leaves some of ripple's links out of the score overrides :attr:`scored`."""

    name: str
    expected: set[Link] = field(default_factory=set)
    found: set[Link] = field(default_factory=set)
    builtin: set[Link] = field(default_factory=set)
    builtin_seen: set[Link] = field(default_factory=set)
    unresolved: list[tuple[str, str, int]] = field(default_factory=list)
    error: str | None = None

    @property
    def scored(self) -> set[Link]:
        """Ripple's links that count: all of ``found``."""
        return self.found

    @property
    def hits(self) -> set[Link]:
        """Expected links ripple found."""
        return self.expected & self.found

    @property
    def missing(self) -> set[Link]:
        """Expected links ripple did not find."""
        return self.expected - self.found

    @property
    def extra(self) -> set[Link]:
        """Ripple's scored links that are not expected: its errors."""
        return self.scored - self.expected

    @property
    def exact(self) -> bool:
        """No error, and the scored links are exactly the expected ones."""
        return self.error is None and self.expected == self.scored

    def more_json(self) -> dict[str, Any]:
        """The scorer's own fields for :meth:`as_json`, between ``extra`` and ``error``: here the
        builtin counts."""
        return {"builtin": len(self.builtin), "builtin_seen": len(self.builtin_seen)}

    def as_json(self) -> dict[str, Any]:
        """``{case, expected, found, hits, exact, missing, extra, ..., error}``: counts, except
        ``missing`` and ``extra``, sorted ``"caller -> callee"`` lines; the scorer's
        :meth:`more_json` between ``extra`` and ``error``."""
        return {"case": self.name, "expected": len(self.expected), "found": len(self.scored),
                "hits": len(self.hits), "exact": self.exact, "missing": lines(self.missing),
                "extra": lines(self.extra), **self.more_json(), "error": self.error}


def lines(links: set[Link]) -> list[str]:
    """``links`` as sorted ``"caller -> callee"`` lines."""
    return sorted(f"{a} -> {b}" for a, b in links)


def summary(results: Sequence[LinkScore], counted: Sequence[str]) -> dict[str, Any]:
    """Totals over ``results``: ``{cases, exact, expected, found, hits, precision, recall, <each of
    counted>, errors}``; ``found`` counts scored links; precision and recall are fractions (1.0 over
    nothing); each name of ``counted`` is a set attribute of the results whose sizes are summed."""
    exp = sum(len(r.expected) for r in results)
    found = sum(len(r.scored) for r in results)
    hits = sum(len(r.hits) for r in results)
    return {"cases": len(results), "exact": sum(r.exact for r in results), "expected": exp, "found": found,
            "hits": hits, "precision": hits / found if found else 1.0, "recall": hits / exp if exp else 1.0,
            **{k: sum(len(getattr(r, k)) for r in results) for k in counted},
            "errors": sum(r.error is not None for r in results)}


def by_category(results: Sequence[LinkScore], counted: Sequence[str]) -> dict[str, dict[str, Any]]:
    """:func:`summary` per category (a case name's first ``/`` part), by category name."""
    cats: dict[str, list[LinkScore]] = {}
    for r in results:
        cats.setdefault(r.name.split("/")[0], []).append(r)
    return {c: summary(rs, counted) for c, rs in sorted(cats.items())}
