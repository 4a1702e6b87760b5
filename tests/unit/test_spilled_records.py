"""A one-shot run's read records (what each file's output read, :mod:`indexer.resolve.tracking`) wait
in the resolver's park spill file, not in memory, until they are saved: :meth:`RepositoryResolver.recorded`
reads them back exactly as packed (each when asked for), :meth:`RepositoryResolver.dependents` answers from them, and a
spill file that cannot be read back says so instead of saving wrong records."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from indexer.bind_state import load_bind_state
from indexer.parked import ParkedDataError
from indexer.pipeline import index_repository
from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.tracking import record_tokens
from indexer.run import IndexOptions
from indexer.spill import SpillFile
from stores.embedded import EmbeddedStore
from tests.resolution_harness import extract_fixture

FIXTURE = """
# --- path: shop/__init__.py ---
# --- path: shop/models.py ---
class Order:
    def save(self):
        return 1
# --- path: shop/views.py ---
from shop.models import Order


def checkout(order: Order):
    order.save()
# --- path: shop/util.py ---
def helper():
    return 2
"""


def _resolved(park: SpillFile | None) -> RepositoryResolver:
    resolver = RepositoryResolver("r", park=park)
    extractions = extract_fixture(FIXTURE)
    resolver.update(extractions, track=False)
    resolver.resolve([ex.path for ex, _, _ in extractions])
    return resolver


def test_records_in_the_spill_file_read_back_as_the_in_memory_ones():
    park = SpillFile()
    spilled, held = _resolved(park), _resolved(None)
    before = park.size
    records, link, shares, names = spilled.recorded()
    assert park.size == before  # reading writes nothing
    assert (records, link, shares, names) == held.recorded()
    assert sorted(records) == ["shop/__init__.py", "shop/models.py", "shop/util.py", "shop/views.py"]
    assert all(isinstance(r, bytes) for r in records.values())
    views = set(record_tokens(records["shop/views.py"]))
    assert ("name", "shop/models.py", "Order") in views
    assert not any(t[1] == "shop/util.py" for t in views)  # util.py was never read by views.py
    assert not any(t[1] == "shop/views.py" for t in record_tokens(records["shop/util.py"]))


@pytest.mark.parametrize("park", [SpillFile, lambda: None], ids=["spilled", "held"])
def test_dependents_answer_from_spilled_records(park):
    resolver = _resolved(park())
    renamed = FIXTURE.replace("def save(self):", "def store(self):")
    changes = resolver.update([(ex, "x", 1) for ex, _, _ in extract_fixture(renamed) if ex.path == "shop/models.py"])
    assert resolver.dependents(changes) == {"shop/views.py"}  # the only reader of models.py; util.py read nothing of it


def test_a_lost_spill_file_raises_rather_than_saving_wrong_records():
    park = SpillFile()
    resolver = _resolved(park)
    records = resolver.recorded()[0]
    assert sorted(records) == ["shop/__init__.py", "shop/models.py", "shop/util.py", "shop/views.py"]
    park.close()  # the records are read back when asked for, one at a time
    assert "shop/views.py" in records and len(records) == 4
    with pytest.raises(ParkedDataError, match="dependency record"):
        records["shop/views.py"]
    with pytest.raises(ParkedDataError, match="dependency record"):
        list(records.values())


def test_a_run_whose_records_cannot_be_read_back_writes_the_index_and_saves_none(tmp_path: Path, monkeypatch, caplog):
    src, state = tmp_path / "src", tmp_path / "state"
    (src / "shop").mkdir(parents=True)
    (src / "shop" / "models.py").write_text("class Order:\n    def save(self):\n        return 1\n")
    views = "from shop.models import Order\n\n\ndef checkout(o: Order):\n    o.save()\n"
    (src / "shop" / "views.py").write_text(views)

    def lost(self):
        raise ParkedDataError("parked dependency record at (0, 9) unreadable: closed")

    store = EmbeddedStore(tmp_path / "x.db")
    try:
        def run():
            return index_repository(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(state)))
        assert run().files_resolved == 2
        assert load_bind_state(next(state.glob("bind-*.pickle"))) is not None
        (src / "shop" / "views.py").write_text(views + "    o.save()\n")
        caplog.set_level(logging.WARNING, logger="indexer.incremental")
        with monkeypatch.context() as m:
            m.setattr(RepositoryResolver, "recorded", lost)
            report = run()
        assert (report.files_resolved, report.files_written) == (1, 1)  # the run itself used the saved records
        assert list(state.glob("bind-*.pickle")) == []
        assert "the next run binds every file" in caplog.text
        (src / "shop" / "views.py").write_text(views)
        assert run().files_resolved == 2  # no records: the whole tree is bound again
        assert load_bind_state(next(state.glob("bind-*.pickle"))) is not None
    finally:
        store.close()
