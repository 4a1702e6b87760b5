"""Chunks cut from an extraction whose definitions are parked (:mod:`indexer.parked`): the writer
cuts them from the resolver's extraction (:meth:`indexer.writer.IndexWriter._text_chunks`: a file
whose text the worker did not chunk, such as one whose extraction came from the cache), where a
parked list is read back whole at every iteration or index. :func:`indexer.chunking.chunk_file`
reads it back once, and cuts the same chunks as from the definitions in memory."""

from __future__ import annotations

import copy

from indexer.chunking import chunk_file
from indexer.parked import ParkedList, park_extraction
from indexer.spill import SpillFile
from indexer.symbols import definition_ids
from tests.resolution_harness import extract_fixture

SOURCE = '''class Order:
    """An order."""

    total = 0

    def save(self, force=False):
        return 1

    def pay(self, amount):
        return amount


def checkout(order):
    order.save()


class Refund(Order):
    def pay(self, amount):
        return -amount
'''
FIXTURE = "# --- path: shop/models.py ---\n" + SOURCE


def _extraction():
    return next(ex for ex, _, _ in extract_fixture(FIXTURE) if ex.path == "shop/models.py")


def test_a_parked_list_is_read_back_once_and_the_chunks_are_those_of_the_list_in_memory(monkeypatch):
    plain = _extraction()
    expected = chunk_file("r", "p", plain, SOURCE)
    parked = park_extraction(copy.deepcopy(plain), SpillFile())
    assert isinstance(parked.definitions, ParkedList)
    reads = []
    unpack = ParkedList.unpack
    monkeypatch.setattr(ParkedList, "unpack", lambda self: reads.append(1) or unpack(self))
    got = chunk_file("r", "p", parked, SOURCE)
    assert len(reads) == 1
    assert got == expected
    assert [(c.kind, c.name, c.start_line, c.end_line) for c in got] == [
        ("class", "Order", 1, 10), ("method", "save", 6, 7), ("method", "pay", 9, 10),
        ("function", "checkout", 13, 14), ("class", "Refund", 17, 19), ("method", "pay", 18, 19)]
    # not the parent class's chunk for the subclass's override, nor a second chunk per id
    assert [c.parent for c in got if c.name == "pay"] == ["r:shop/models.Order", "r:shop/models.Refund"]
    assert len({c.id for c in got}) == len(got)


def test_definition_ids_of_a_list_read_back_are_those_of_the_extraction():
    ex = _extraction()
    assert definition_ids("r", ex, list(ex.definitions)) == definition_ids("r", ex)
    assert definition_ids("r", ex) == [
        "r:shop/models.Order", "r:shop/models.Order.total", "r:shop/models.Order.save(1)",
        "r:shop/models.Order.pay(1)", "r:shop/models.checkout(1)", "r:shop/models.Refund",
        "r:shop/models.Refund.pay(1)"]
