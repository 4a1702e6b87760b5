"""The impact report's Tables section shows each table once, its methods together, and says "all N
columns" for a whole-row read or write instead of listing every column (newcomer round 50:
``impact`` on macrozheng/mall listed the 44 columns of ``oms_order`` twice, once for the MyBatis
generator's ``selectByExample``, once for its ``updateByPrimaryKeySelective``)."""

from __future__ import annotations

import pytest

from analysis.agent_queries import AgentQueries
from analysis.navigation import lookup
from analysis.tables import table_rows, tables_reached
from tests.index_harness import index_files

FILES = {
    "src/main/resources/db/migration/V1__init.sql": (
        "CREATE TABLE orders (id BIGINT PRIMARY KEY, status VARCHAR(10), total INT);\n"
        "CREATE TABLE items (id BIGINT PRIMARY KEY, order_id BIGINT, sku VARCHAR(5));\n"),
    "src/main/java/shop/OrderMapper.java": (
        "package shop;\n\nimport java.util.List;\nimport org.apache.ibatis.annotations.*;\n\n"
        "@Mapper\npublic interface OrderMapper {\n"
        "    @Select(\"SELECT id, status, total FROM orders WHERE id = #{id}\")\n"
        "    Object selectAll(long id);\n\n"
        "    @Update(\"UPDATE orders SET status = #{status} WHERE id = #{id}\")\n"
        "    int setStatus(long id, String status);\n\n"
        "    @Select(\"SELECT sku FROM items WHERE order_id = #{id}\")\n"
        "    List<String> skus(long id);\n}\n"),
    "src/main/java/shop/OrderService.java": (
        "package shop;\n\npublic class OrderService {\n"
        "    private final OrderMapper mapper;\n\n"
        "    public OrderService(OrderMapper mapper) {\n        this.mapper = mapper;\n    }\n\n"
        "    public void cancel(long id) {\n"
        "        mapper.selectAll(id);\n        mapper.setStatus(id, \"x\");\n        mapper.skus(id);\n    }\n\n"
        "    public void status(long id) {\n        mapper.setStatus(id, \"y\");\n    }\n}\n"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = index_files(tmp_path_factory.mktemp("rows") / "shop", FILES, "shop")
    yield s
    s.close()


def test_hits_know_the_declared_columns_and_rows_group_them(store):
    target = [n.id for n in lookup(store, "OrderService.cancel")[0]]
    hits = tables_reached(store, target, 2)
    assert [(h.table.name, h.via.qualname, h.role, h.columns, h.table_columns, h.every_column) for h in hits] == [
        ("items", "OrderMapper.skus", "R", ("order_id", "sku"), 3, False),
        ("orders", "OrderMapper.selectAll", "R", ("id", "status", "total"), 3, True),
        ("orders", "OrderMapper.setStatus", "RW", ("id", "status"), 3, False)]
    rows = table_rows(hits)
    assert [(r.table.name, r.role, r.columns, r.every_column, [h.via.qualname for h in r.hits], r.hops, r.resolution)
            for r in rows] == [
        ("items", "R", ("order_id", "sku"), 0, ["OrderMapper.skus"], 1, "exact"),
        ("orders", "RW", ("id", "status"), 3, ["OrderMapper.selectAll", "OrderMapper.setStatus"], 1, "exact")]


def test_the_report_shows_each_table_once(store):
    text = AgentQueries(store, store).impact("OrderService.cancel").text
    section = text.split("## Tables\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert section[2:] == [
        "| `items` (shop) | R | `order_id`, `sku` | `OrderMapper.skus` · `src/main/java/shop/OrderMapper.java:14` | 1 | exact |",
        "| `orders` (shop) | RW | all 3 columns | `OrderMapper.selectAll` (R) · `src/main/java/shop/OrderMapper.java:8`; "
        "`OrderMapper.setStatus` (RW) · `src/main/java/shop/OrderMapper.java:11` | 1 | exact |"]
    # a change that only updates one column: those columns, not "all", and no other table
    text = AgentQueries(store, store).impact("OrderService.status").text
    section = text.split("## Tables\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert section[2:] == [
        "| `orders` (shop) | RW | `id`, `status` | `OrderMapper.setStatus` · `src/main/java/shop/OrderMapper.java:11` | 1 | exact |"]
