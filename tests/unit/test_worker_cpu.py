"""What the extraction workers save (session 66, cpu66a) without changing what they send: the records
pickle through :data:`copyreg.dispatch_table` to the same bytes as through their ``__reduce__``, and a
worker's cyclic GC runs on a frozen inherited heap with a raised first threshold, never a lowered one."""

from __future__ import annotations

import copyreg
import gc
import io
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from indexer import model, model_http, model_services, string_templates
from indexer.extraction import WORKER_GC_THRESHOLD0, worker_init
from indexer.languages.python.extractor import EXTRACTOR
from indexer.packed import PackedList
from indexer.parked import PARKED_FIELDS, pack_for_parking

SOURCE = b'''import os
from django.db import models


class Article(models.Model):
    """An article."""
    title = models.CharField(max_length=20)

    def save(self, *args, **kwargs):
        self.slug = os.path.basename(self.title)
        return super().save(*args, **kwargs)


def view(request, pk=1):
    art = Article.objects.get(pk=pk)
    return art.save(force_insert=True)
'''


def _records() -> list[type]:
    return [value for module in (model, model_http, model_services, string_templates)
            for value in vars(module).values()
            if isinstance(value, type) and value.__module__ == module.__name__ and "__reduce__" in vars(value)]


def _dumps_without_dispatch(obj: object) -> bytes:
    """``obj`` pickled by a pickler with an empty private dispatch table: each record through ``__reduce_ex__``."""
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {}
    pickler.dump(obj)
    return buf.getvalue()


def test_every_record_is_registered_with_its_own_reducer() -> None:
    records = _records()
    assert model.CallSite in records and model_http.Route in records and model_services.TableUse in records
    assert string_templates.Template in records
    for cls in records:
        assert copyreg.dispatch_table[cls] is vars(cls)["__reduce__"], cls
    assert model.FileExtraction in records
    assert PackedList not in copyreg.dispatch_table  # a packed list pickles through its own __reduce__ only


def test_records_pickle_to_the_same_bytes_with_and_without_the_dispatch_table() -> None:
    ex = EXTRACTOR.extract("app/models.py", SOURCE)
    lists = {name: list(getattr(ex, name)) for name in ("calls", "definitions", *PARKED_FIELDS) if getattr(ex, name)}
    assert {"calls", "definitions"} <= set(lists)
    assert [(c.caller, c.name) for c in lists["calls"]] == [
        ("Article", "CharField"), ("Article.save", "basename"), ("Article.save", "super"), ("Article.save", "save"),
        ("view", "get"), ("view", "save")]
    for name, items in lists.items():
        fast = pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL)
        assert fast == _dumps_without_dispatch(items), name
        assert pickle.loads(fast) == items, name
    pack_for_parking(ex)
    blob = pickle.dumps(ex, protocol=pickle.HIGHEST_PROTOCOL)
    assert blob == _dumps_without_dispatch(ex)
    back = pickle.loads(blob)
    assert list(back.calls) == lists["calls"]
    assert [d.qualname for d in back.definitions] == [d.qualname for d in lists["definitions"]]


def _worker_gc() -> tuple[tuple[int, int, int], int]:
    return gc.get_threshold(), gc.get_freeze_count()


def _in_worker() -> tuple[tuple[int, int, int], int]:
    import os
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"), initializer=worker_init,
                             initargs=(os.getpid(),)) as pool:
        return pool.submit(_worker_gc).result(timeout=60)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
@pytest.mark.parametrize("parent0", [700, 10_000, 250_000])
def test_a_worker_freezes_what_it_inherits_and_never_lowers_the_threshold(parent0: int) -> None:
    old = gc.get_threshold()
    gc.set_threshold(parent0, 7, 9)
    try:
        threshold, frozen = _in_worker()
        assert gc.get_threshold() == (parent0, 7, 9)  # the parent's own is left as it was
        assert gc.get_freeze_count() == 0
    finally:
        gc.set_threshold(*old)
    assert threshold == (max(parent0, WORKER_GC_THRESHOLD0), 7, 9)
    assert WORKER_GC_THRESHOLD0 == 100_000
    assert frozen > 10_000  # the test process's modules and objects, inherited through the fork


def test_the_extraction_cache_keeps_a_small_page_cache(tmp_path) -> None:
    import diskcache

    from indexer.extract_cache import SQLITE_CACHE_PAGES, ExtractionCache

    plain = diskcache.Cache(str(tmp_path / "plain"))
    assert plain.sqlite_cache_size == 8192  # diskcache's own default: 32 MiB of pages per connection
    plain.close()
    cache = ExtractionCache(tmp_path / "extract")
    ex = EXTRACTOR.extract("app/models.py", SOURCE)
    pack_for_parking(ex)
    cache.put_blob("app/models.py", "c0ffee", pickle.dumps(ex, protocol=pickle.HIGHEST_PROTOCOL))
    assert [(c.caller, c.name) for c in cache.get("app/models.py", "c0ffee").calls][:2] == [
        ("Article", "CharField"), ("Article.save", "basename")]
    assert cache.get("app/models.py", "beef") is None
    con = cache._cache._con  # the connection diskcache opened for this process
    assert con.execute("PRAGMA cache_size").fetchone()[0] == SQLITE_CACHE_PAGES == 256
    cache.close()
    again = diskcache.Cache(str(tmp_path / "extract"))  # kept in the folder's settings
    assert again.sqlite_cache_size == 256
    again.close()
