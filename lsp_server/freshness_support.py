"""What the front ends share about freshness: record, after an index run, what the repository's source
was (:func:`record_run`: its git commit and branch, its folder and the time, in the index's state
folder, :data:`stores.factory.INDEX_STATE`), read those records back (:func:`recorded_states`) and
turn them into answers (:func:`check_all`, :mod:`analysis.freshness`).

The record is the contract with the repository registry: per repository ``root``, ``commit``,
``branch`` and ``indexed_at``. Recording never fails an index run: a record that cannot be written is
logged and freshness then says ``unknown``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from analysis.freshness import Freshness, IndexedState, check_freshness, vcs_head
from stores.contracts import GraphStore
from stores.errors import StoreError
from stores.factory import index_states, record_index_state

__all__ = ["record_run", "recorded_states", "check_all"]

log = logging.getLogger(__name__)


def record_run(db: Path, repo: str, root: Path, at: float | None = None) -> IndexedState:
    """Record that repository ``repo`` of index ``db`` now holds the source of folder ``root`` as it is
    (``HEAD``'s commit and branch when it is a git checkout; ``at`` seconds since the epoch, default now).
    Returns the record; a record that cannot be written is logged, never raised."""
    head = vcs_head(root)
    state = IndexedState(repo, str(Path(root).resolve()), head.commit if head else None, head.branch if head else None,
                         time.time() if at is None else at)
    try:
        record_index_state(db, repo, state.as_dict())
    except StoreError as exc:
        log.warning("cannot record the indexed commit of %s: %s", repo, exc)
    return state


def recorded_states(db: Path | None, repos: list[str] | None = None,
                    graph: GraphStore | None = None) -> dict[str, IndexedState]:
    """What was indexed of each repository (only ``repos`` when given): the record in index ``db``'s
    state folder and, with ``graph``, the repository registry's entry (written by every index run and
    watcher, also on shared stores where no state folder exists); where both say something, the later
    one. ``{}`` when there is neither; what cannot be read is logged, never raised."""
    raw: dict[str, Any] = {}
    if db is not None:
        try:
            raw = index_states(db)
        except StoreError as exc:
            log.warning("cannot read the indexed state of %s: %s", db, exc)
    states = {name: IndexedState.from_dict(name, data) for name, data in raw.items()}
    if graph is not None:
        try:
            entries = graph.repositories()
        except StoreError as exc:
            log.warning("cannot read the repository registry: %s", exc)
            entries = []
        for r in entries:
            known = states.get(r.key)
            if known is None or (known.indexed_at or 0.0) < (r.indexed_at or 0.0):
                states[r.key] = IndexedState(r.key, r.root or None, r.commit or None, r.branch or None, r.indexed_at)
    return {name: states[name] for name in sorted(states) if repos is None or name in repos}


def check_all(graph: GraphStore, states: Mapping[str, IndexedState],
              roots: Mapping[str, Path] | None = None) -> list[Freshness]:
    """:func:`analysis.freshness.check_freshness` of every record in ``states`` (``roots``: the checkout
    of a repository on this machine when it is not the recorded folder, e.g. a workspace folder)."""
    roots = roots or {}
    return [check_freshness(graph, state, roots.get(name)) for name, state in states.items()]
