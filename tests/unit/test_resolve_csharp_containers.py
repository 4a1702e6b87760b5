"""C# values held in library containers of a repository class (Entity Framework's ``DbSet<Order>``,
``IQueryable<Order>``, ``List<Order>``): LINQ's one-element reads
(``FindAsync``, ``FirstOrDefaultAsync``, ``Single``) give an instance of the element class, query steps
(``Where``, ``Include``, ``ToListAsync``) keep the container, ``foreach (var o in ...)`` and a LINQ
lambda's parameter take its elements; what must stay unlinked."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

APP = """
// --- path: Models/Order.cs ---
namespace Shop.Models;
public class Order {
    public int Id { get; set; }
    public void SetStatus(int s) {}
    public decimal GetTotal() { return 0; }
}
// --- path: Models/Buyer.cs ---
namespace Shop.Models;
public class Buyer {
    public void SetStatus(int s) {}
    public decimal GetTotal() { return 0; }
}
// --- path: Data/ShopContext.cs ---
using Microsoft.EntityFrameworkCore;
using Shop.Models;
namespace Shop.Data;
public class ShopContext : DbContext {
    public DbSet<Order> Orders { get; set; }
    public DbSet<Buyer> Buyers { get; set; }
}
// --- path: Services/OrderService.cs ---
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Microsoft.EntityFrameworkCore;
using Shop.Data;
using Shop.Models;
namespace Shop.Services;
public class OrderService {
    private readonly ShopContext _ctx;
    private readonly Dictionary<int, Buyer> _buyers;
    public async Task Run(int id) {
        var order = await _ctx.Orders.FindAsync(id);
        order.SetStatus(1);
        var first = await _ctx.Orders.Include(o => o.Id).Where(p => p.Id == id).FirstOrDefaultAsync();
        first.SetStatus(2);
        var recent = await Recent();
        foreach (var r in recent) { r.SetStatus(3); }
        var total = recent.Sum(x => x.GetTotal());
        _buyers.GetValueOrDefault(id).SetStatus(4);
        _ctx.Buyers.Count().SetStatus(5);
        var names = _ctx.Orders.Select(s => s.Id).ToList();
        names.First().SetStatus(6);
    }
    public async Task<List<Order>> Recent() { return await _ctx.Orders.ToListAsync(); }
}
"""


def test_linq_reads_steps_loops_and_lambdas_over_containers_reach_the_element_class() -> None:
    resolved = resolve_fixture(APP)
    calls = sorted((e.line, e.dst.removeprefix("t:Models/"), e.resolution) for f in resolved.files for e in f.edges
                   if e.kind == "CALLS" and "OrderService.Run" in e.src and "Models/" in e.dst)
    assert calls == [
        (13, "Order.Order.SetStatus(1)", "inferred"),  # DbSet<Order>.FindAsync(id), awaited
        (15, "Order.Order.SetStatus(1)", "inferred"),  # Include(...).Where(...).FirstOrDefaultAsync()
        (17, "Order.Order.SetStatus(1)", "inferred"),  # foreach over what Task<List<Order>> gives
        (18, "Order.Order.GetTotal(0)", "inferred"),  # a LINQ lambda's parameter: an element
        (19, "Buyer.Buyer.SetStatus(1)", "inferred"),  # a Dictionary<int, Buyer>'s GetValueOrDefault: a value
        # negative: Count() is the library's (an int), and so are Select(...)'s elements
    ]
