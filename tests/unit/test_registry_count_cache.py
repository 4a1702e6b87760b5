"""The registry's counts (run at the end of every ``ripple index``) read their tables with a small
page cache and give the connection its own cache size back (stores.embedded_registry._count)."""

from __future__ import annotations

from stores.embedded import EmbeddedStore
from stores.embedded_registry import COUNT_CACHE_KIB

from tests.contract.test_graph_store import BILLING, SHOP, load
from tests.contract.test_registry import SHOP_DEV, dev_copy


def _pragmas(store: EmbeddedStore) -> list[str]:
    seen: list[str] = []
    store._conn.set_trace_callback(lambda sql: seen.append(sql) if "cache_size" in sql else None)
    return seen


def test_counts_are_exact_with_a_small_cache_and_the_cache_size_comes_back(tmp_path):
    store = EmbeddedStore(str(tmp_path / "index.db"))
    try:
        load(store)
        store.replace_files([dev_copy()])  # one chunk
        before = store._conn.execute("PRAGMA cache_size").fetchone()[0]
        assert before == -65536
        seen = _pragmas(store)
        assert store.repository_counts(SHOP) == {"files": 4, "nodes": 11, "edges": 12}
        assert store.repository_chunk_count(SHOP_DEV) == {"chunks": 1, "embedded": 0}
        assert store.repository_chunk_count(SHOP) == {"chunks": 0, "embedded": 0}
        assert store.repository_counts(BILLING) == {"files": 1, "nodes": 2, "edges": 1}
        assert store.repository_counts("nobody") == {"files": 0, "nodes": 0, "edges": 0}
        store._conn.set_trace_callback(None)
        # each call (its queries together): read the size, set the small one, set the size read back; nothing else
        one = ["PRAGMA cache_size", f"PRAGMA cache_size = -{COUNT_CACHE_KIB}", "PRAGMA cache_size = -65536"]
        assert seen == one * 5
        assert store._conn.execute("PRAGMA cache_size").fetchone()[0] == before
    finally:
        store.close()
