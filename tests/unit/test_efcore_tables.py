"""Entity Framework Core tables (framework ``efcore``): a ``DbSet<Order> Orders`` property of a
``DbContext`` declares the table ``Orders`` unless ``[Table("x")]`` on the entity or ``ToTable("x")``
(an ``IEntityTypeConfiguration<T>``, ``modelBuilder.Entity<T>().ToTable``) names it; a query on the
property (``_context.Orders.Where(...).ToListAsync()``) READS it, ``Add`` / ``Remove`` / ``Update`` /
``ExecuteDeleteAsync`` WRITE it. Negative cases: LINQ on a ``List<Order>``, a migration designer's
``b.ToTable(...)`` on a string-named entity, a property that is no ``DbSet``."""

from __future__ import annotations

import json
from pathlib import Path

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

FILES = {
    "Models/Order.cs": """
namespace Shop.Models;
public class Order { public int Id { get; set; } }
""",
    "Models/Buyer.cs": """
using System.ComponentModel.DataAnnotations.Schema;
namespace Shop.Models;
[Table("buyers", Schema = "sales")]
public class Buyer { public int Id { get; set; } }
""",
    "Models/Item.cs": """
namespace Shop.Models;
public class Item { public int Id { get; set; } }
""",
    "Models/Tag.cs": """
namespace Shop.Models;
public class Tag { public int Id { get; set; } }
""",
    "Data/ShopContext.cs": """
using Microsoft.EntityFrameworkCore;
using Shop.Models;
namespace Shop.Data;
public class ShopContext : DbContext {
    public DbSet<Order> Orders { get; set; }
    public DbSet<Buyer> Buyers { get; set; }
    public DbSet<Item> Items { get; set; }
    public DbSet<Tag> Tags { get; set; }
    public int Version { get; set; }
    protected override void OnModelCreating(ModelBuilder modelBuilder) {
        modelBuilder.Entity<Tag>().ToTable("tags");
        modelBuilder.ApplyConfiguration(new ItemConfiguration());
    }
    public int CountTags() { return Tags.Count(); }
}
""",
    "Data/ItemConfiguration.cs": """
using Microsoft.EntityFrameworkCore;
using Shop.Models;
namespace Shop.Data;
class ItemConfiguration : IEntityTypeConfiguration<Item> {
    public void Configure(EntityTypeBuilder<Item> builder) {
        builder.ToTable("line_items");
    }
}
""",
    "Migrations/ShopSnapshot.cs": """
namespace Shop.Migrations;
class ShopSnapshot {
    void BuildModel(ModelBuilder modelBuilder) {
        modelBuilder.Entity("Shop.Models.Order", b => { b.ToTable("legacy_orders"); });
    }
}
""",
    "Services/OrderService.cs": """
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Microsoft.EntityFrameworkCore;
using Shop.Data;
using Shop.Models;
namespace Shop.Services;
public class OrderService {
    private readonly ShopContext _context;
    public OrderService(ShopContext context) { _context = context; }
    public async Task<List<Order>> Recent() {
        return await _context.Orders.Where(o => o.Id > 0).ToListAsync();
    }
    public async Task Place(Order o, Buyer b) {
        _context.Orders.Add(o);
        await _context.Buyers.FindAsync(b.Id);
        await _context.SaveChangesAsync();
    }
    public async Task Purge() {
        await _context.Items.ExecuteDeleteAsync();
    }
    public int Local(List<Order> orders) {
        orders.Add(new Order());
        return orders.Where(o => o.Id > 1).Count() + _context.Version;
    }
}
""",
}


def _short(node_id: str) -> str:
    return node_id.split(":", 1)[1].rsplit("/", 1)[-1]


def test_dbsets_mapped_tables_and_their_reads_and_writes(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "src", FILES)
    s = EmbeddedStore(tmp_path / "ef.db")
    try:
        index_repository(root, s, s, IndexOptions(repo="ef", jobs=1))
        rows = s._db.execute(  # noqa: SLF001 - the test reads the stored rows as they are
            "SELECT kind, src, dst, props FROM edges WHERE kind IN ('DECLARES', 'READS', 'WRITES')")
        got = sorted((k, _short(src), dst, json.loads(p).get("framework")) for k, src, dst, p in rows)
    finally:
        s.close()
    assert got == sorted([
        ("DECLARES", "Buyer.Buyer", "table:ef:sales.buyers", "efcore"),  # [Table("buyers", Schema = "sales")]
        ("DECLARES", "Item.Item", "table:ef:.line_items", "efcore"),  # IEntityTypeConfiguration's ToTable
        ("DECLARES", "Tag.Tag", "table:ef:.tags", "efcore"),  # modelBuilder.Entity<Tag>().ToTable
        ("DECLARES", "Order.Order", "table:ef:.orders", "efcore"),  # the DbSet property's name
        ("READS", "OrderService.OrderService.Recent(0)", "table:ef:.orders", "efcore"),
        ("WRITES", "OrderService.OrderService.Place(2)", "table:ef:.orders", "efcore"),
        ("READS", "OrderService.OrderService.Place(2)", "table:ef:sales.buyers", "efcore"),
        ("WRITES", "OrderService.OrderService.Purge(0)", "table:ef:.line_items", "efcore"),
        ("READS", "ShopContext.ShopContext.CountTags(0)", "table:ef:.tags", "efcore"),  # `Tags` in the context
        # negative: no table `Items` / `Tags` / `Buyers` (mapped by name), none of the snapshot's
        # `legacy_orders` (a string-named entity), and `Local`'s List<Order> reads and writes nothing
    ])
