"""Shared fixtures of the tests of tables read back from a run's park (parked imports, scoped bindings):
a spill file counting its reads, and a one-shot index of a written tree dumped for comparison."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from indexer.spill import SpillFile
from stores.embedded import EmbeddedStore
from tests.index_dump import dump


class CountingSpill(SpillFile):
    """A spill file counting its reads (:attr:`reads`)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def get(self, ref):  # type: ignore[no-untyped-def]
        self.reads += 1
        return super().get(ref)


def index_and_dump(root: Path, db: Path) -> dict[str, Any]:
    """Index ``root`` as repository ``r`` into ``db`` (one job, a one-shot run with its state beside
    ``db``) and return :func:`tests.index_dump.dump` of it."""
    store = EmbeddedStore(db)
    try:
        index_repository(root, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(db.with_suffix(".state"))))
    finally:
        store.close()
    return dump(db)


def holds(owners: tuple[object, ...], owner: object) -> bool:
    """Whether ``owner`` is among ``owners`` by identity (comparing mappings would read them)."""
    return any(x is owner for x in owners)
