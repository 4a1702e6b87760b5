"""ORM attribute uses on a repository without mapped tables (indexer/frameworks/tables.py, ``mappable``).

Every ``x.a = ...`` of a Python function is an ORM attribute use the table linker resolves
(:mod:`indexer.languages.python.frameworks.orm_attributes`). When no declared table has a column,
none can be an access whatever ``x`` is: the linker counts them ``attribute_not_mapped`` without
resolving ``x``, so the link reads nothing for them (its dependency set, held until the run ends,
was most of the link's memory on the generated monorepos). These tests pin that the outcomes and
edges are those of resolving every use (``mappable`` forced true), and what the link no longer reads.
Also: the declarations' pass reads each file's table accesses once (a parked list is unpickled on
each read), not once for the managers and again for the repositories.
"""

from __future__ import annotations

import hashlib

import pytest

from indexer.frameworks import tables
from indexer.languages import extractor_for_path
from indexer.resolve.repository import RepositoryResolver
from tests.resolution_harness import split_fixture

PLAIN = """
# --- path: svc/__init__.py ---
# --- path: svc/cache.py ---
class Cache:
    def __init__(self):
        self.value = None

    def put(self, v):
        self.value = v
        self.hits = 0


def rename(item, name):
    item.name = name
# --- path: svc/use.py ---
from svc.cache import Cache


def warm():
    c = Cache()
    c.value = 1
"""

MODEL = """
# --- path: svc/models.py ---
import sqlalchemy as sa
import sqlalchemy.orm as so
from svc import db


class User(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(64))

    def rename(self, name):
        self.name = name
        self.seen = True
"""


def _link(fixture: str) -> tuple[dict[str, int], list[tuple[str, str, str, str, int]], set[tuple[str, str, str]]]:
    """``(link outcomes, READS / WRITES edges, what the link read)`` of a whole resolve of ``fixture``."""
    extractions = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        extractor = extractor_for_path(path)
        assert extractor is not None
        extractions.append((extractor.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    resolver = RepositoryResolver("t")
    resolver.update(extractions)
    result = resolver.resolve([ex.path for ex, _, _ in extractions])
    _, link_deps, _, _ = resolver.recorded()
    edges = sorted((e.kind, e.src, e.dst, e.file, e.line) for f in result.files for e in f.edges
                   if e.kind in ("READS", "WRITES"))
    return result.link_outcomes, edges, link_deps


def _resolving_every_use(monkeypatch: pytest.MonkeyPatch, fixture: str):
    """:func:`_link` as before the cut: every ORM attribute use's object resolved."""
    monkeypatch.setattr(tables._TableLinker, "mappable", lambda self: True)
    try:
        return _link(fixture)
    finally:
        monkeypatch.undo()


def test_without_mapped_tables_no_attribute_use_is_resolved_and_each_is_counted(monkeypatch):
    outcomes, edges, deps = _link(PLAIN)
    assert outcomes == {"attribute_not_mapped": 4}  # Cache.__init__, Cache.put, rename, warm
    assert edges == []
    assert deps == set()  # nothing read: no table can take any of them
    forced = _resolving_every_use(monkeypatch, PLAIN)
    assert forced[:2] == (outcomes, edges)  # the same result as resolving each object
    assert sorted(forced[2]) == [  # what resolving them read, no longer held by the link
        ("m", "python", "svc.cache"), ("name", "svc/cache.py", "Cache"), ("name", "svc/cache.py", "__init__"),
        ("name", "svc/cache.py", "item"), ("name", "svc/cache.py", "put"), ("name", "svc/cache.py", "rename"),
        ("name", "svc/use.py", "Cache"), ("name", "svc/use.py", "c"), ("name", "svc/use.py", "warm")]


def test_with_a_mapped_table_every_attribute_use_is_resolved(monkeypatch):
    outcomes, edges, deps = _link(PLAIN + MODEL)
    assert outcomes == {"attribute_not_mapped": 4, "tables_declared": 1, "writes": 1}
    assert edges == [("WRITES", "t:svc/models.User.rename(1)", "table:t:.user", "svc/models.py", 11)]
    # the objects of the uses in files without a model are resolved too (a Cache could be a model): what
    # resolving them read without a model, plus the model file's names and its `from svc import db`
    # (svc/__init__.py holds no `db`: its star imports, then a module svc.db, are looked at)
    assert sorted(deps) == [
        ("m", "python", "svc"), ("m", "python", "svc.cache"), ("m", "python", "svc.db"),
        ("name", "svc/__init__.py", "*"), ("name", "svc/__init__.py", "db"),
        ("name", "svc/cache.py", "Cache"), ("name", "svc/cache.py", "__init__"), ("name", "svc/cache.py", "item"),
        ("name", "svc/cache.py", "put"), ("name", "svc/cache.py", "rename"),
        ("name", "svc/models.py", "User"), ("name", "svc/models.py", "db"), ("name", "svc/models.py", "rename"),
        ("name", "svc/use.py", "Cache"), ("name", "svc/use.py", "c"), ("name", "svc/use.py", "warm")]
    assert _resolving_every_use(monkeypatch, PLAIN + MODEL) == (outcomes, edges, deps)


def test_a_declared_table_without_columns_maps_no_attribute():
    linker = tables._TableLinker.__new__(tables._TableLinker)
    linker.parents = {}
    linker.tables = {"table:t:.log": tables._Table("table:t:.log", "log", "")}
    assert linker.tables["table:t:.log"].declared and not linker.mappable()  # no column: nothing to write
    linker.parents = {"table:t:.log": ["table:t:.entry"]}
    assert linker.mappable()  # a concrete parent's columns may be the attribute's
    linker.parents = {}
    linker.tables["table:t:.log"].columns["at"] = "int"
    assert linker.mappable()
    linker.tables["table:t:.log"].declared = False  # a table the code names, no model declares
    assert not linker.mappable()


DJANGO = """
# --- path: shop/__init__.py ---
# --- path: shop/models.py ---
from django.db import models


class ItemManager(models.Manager):
    def cheap(self):
        return self.filter(price__lt=10)


class Item(models.Model):
    price = models.IntegerField()
    objects = ItemManager()

    def reprice(self, p):
        self.price = p
# --- path: shop/views.py ---
from shop.models import Item


def cheap(request):
    return Item.objects.cheap()


def bump(item):
    item.price = item.price + 1
    item.save()
"""


class _Counted(list):
    """A list counting how often it is read whole (what a parked list unpickles each time)."""

    reads: dict[str, int] = {}

    def __init__(self, path: str, items) -> None:
        super().__init__(items)
        self.path = path

    def __iter__(self):
        self.reads[self.path] = self.reads.get(self.path, 0) + 1
        return super().__iter__()


@pytest.mark.parametrize(("one_shot", "reads"), [
    (True, {"shop/models.py": 2, "shop/views.py": 2}),  # declarations' pass, accesses: was 3 each
    # a resolver that keeps its link memo also asks whether a file renders SQL and, for a file declaring
    # no table, whether it names a manager or repository: was 4 and 5
    (False, {"shop/models.py": 3, "shop/views.py": 4}),
])
def test_a_link_reads_each_files_table_accesses_once_for_the_managers_and_repositories(one_shot, reads):
    extractions = []
    for path, source in split_fixture(DJANGO).items():
        data = source.encode()
        extractor = extractor_for_path(path)
        assert extractor is not None
        ex = extractor.extract(path, data)
        if ex.table_uses:
            ex.table_uses = _Counted(path, ex.table_uses)
        extractions.append((ex, hashlib.sha256(data).hexdigest(), len(data)))
    assert sorted(ex.path for ex, _, _ in extractions if ex.table_uses) == ["shop/models.py", "shop/views.py"]
    resolver = RepositoryResolver("t")
    resolver.keep_link_memo = not one_shot
    resolver.update(extractions)
    _Counted.reads.clear()
    result = resolver.resolve([ex.path for ex, _, _ in extractions])
    assert _Counted.reads == reads
    edges = sorted((e.kind, e.src, e.dst) for f in result.files for e in f.edges if e.kind in ("READS", "WRITES"))
    # the same in both cases (and as before); `bump`'s `item` is no known instance: not linked
    assert edges == [("READS", "t:shop/models.ItemManager.cheap(0)", "table:t:.shop_item"),
                     ("READS", "t:shop/views.cheap(1)", "table:t:.shop_item"),
                     ("WRITES", "t:shop/models.Item.reprice(1)", "table:t:.shop_item")]


MAPPED_CACHE = """
# --- path: svc/cache.py ---
import sqlalchemy.orm as so
from svc import db


class Cache(db.Model):
    value: so.Mapped[int] = so.mapped_column(primary_key=True)

    def __init__(self):
        self.value = None

    def put(self, v):
        self.value = v
        self.hits = 0


def rename(item, name):
    item.name = name
"""


def _extracted(fixture: str) -> list:
    out = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        extractor = extractor_for_path(path)
        assert extractor is not None
        out.append((extractor.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    return out


def test_an_update_declaring_a_table_links_the_uses_the_last_link_did_not_resolve():
    resolver = RepositoryResolver("t")
    first = _extracted(PLAIN)
    resolver.update(first)
    assert resolver.resolve([ex.path for ex, _, _ in first]).link_outcomes == {"attribute_not_mapped": 4}
    changed = _extracted(MAPPED_CACHE)
    resolver.update(changed)  # the same file now maps Cache to a table with a column `value`
    result = resolver.resolve([ex.path for ex, _, _ in changed])
    edges = sorted((e.kind, e.src, e.file) for f in result.files for e in f.edges if e.kind in ("READS", "WRITES"))
    # svc/use.py, not changed, is linked again (its share of the links changed) and produced
    assert edges == [("WRITES", "t:svc/cache.Cache.__init__(0)", "svc/cache.py"),
                     ("WRITES", "t:svc/cache.Cache.put(1)", "svc/cache.py"),
                     ("WRITES", "t:svc/use.warm(0)", "svc/use.py")]
    assert result.link_outcomes == {"attribute_not_mapped": 1, "tables_declared": 1, "writes": 3}  # `item`: unknown
    fresh = "# --- path: svc/__init__.py ---\n" + MAPPED_CACHE + "# --- path: svc/use.py ---" \
        + PLAIN.split("# --- path: svc/use.py ---")[1]
    assert _link(fresh)[:2] == (result.link_outcomes, sorted(
        (e.kind, e.src, e.dst, e.file, e.line) for f in result.files for e in f.edges if e.kind in ("READS", "WRITES")))
