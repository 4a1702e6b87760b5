"""Batch loaders fetched by name -> CALLS edges (Netflix DGS's ``getDataLoader("reviews")``).

A DGS data fetcher asks the environment for a loader by the name a ``@DgsDataLoader(name = "reviews")``
class registered (the class's simple name when the annotation names none); the ``load(key)`` it calls
on it queues keys the library hands the loader's batch method later. Each such use
(:class:`~indexer.model.NamedLoader` ``uses``) becomes a CALLS edge, ``inferred`` (the library decides when
it runs), from the fetcher to the batch method (``load``, found through the loader class's bases) of
every loader class providing that name (:class:`~indexer.model.NamedLoader` ``provides``), at the call.
Names are rendered as the linker renders any template (a constant's value). A name no loader of the
repository provides links nothing (counted ``unlinked_loader``); the class form
(``getDataLoader(X.class)``) is an ordinary call the resolver binds (:mod:`indexer.languages.java.frameworks.dgs`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from stores.contracts import Edge

if TYPE_CHECKING:
    from indexer.model import Template
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["BATCH_METHOD", "link_named_loaders"]

BATCH_METHOD = "load"
""":class:`org.dataloader.BatchLoader`'s (and its mapped / with-context forms') one method."""
_HOLE = "\x00"


def link_named_loaders(r: Lookup, ctxs: Sequence[FileCtx], edges: dict[str, list[Edge]], outcomes: Counter[str],
                       render: Callable[[FileCtx, str | None, Template], str]) -> None:
    """Append to ``edges`` (per owning path) the CALLS edge of each loader use to the batch methods of the
    loaders providing its name (module docstring); count ``named_loader_calls`` and ``unlinked_loader``."""
    providers: dict[str, list[Def]] = defaultdict(list)
    uses: list[tuple[FileCtx, str, int, int, str]] = []
    for fc in ctxs:
        for n in fc.ex.named_loaders:
            name = render(fc, n.owner if n.role == "uses" else None, n.name)
            if not name or _HOLE in name:
                continue
            if n.role == "provides":
                cls = fc.def_at(n.owner, n.line)
                if cls is not None:
                    providers[name].append(cls)
            else:
                uses.append((fc, n.owner, n.line, n.col, name))
    for fc, owner, line, col, name in uses:
        src = fc.def_at(owner, line)
        targets = [m for cls in providers.get(name, ()) for m in r.lookup(cls, BATCH_METHOD)[0] if m.is_callable]
        if src is None or not targets:
            outcomes["unlinked_loader"] += 1
            continue
        for m in targets:
            edges.setdefault(fc.path, []).append(Edge("CALLS", src.id, m.id, fc.repo, fc.path, line, col, "inferred",
                                                      {"loader": name}))
            outcomes["named_loader_calls"] += 1
