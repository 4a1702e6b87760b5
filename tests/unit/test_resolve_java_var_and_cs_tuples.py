"""Java ``var`` locals typed by what they are assigned (``var o = owners.get(i)``, ``var o = arr[i]``,
``var o = repo.find(id)``) and C# tuples (``(Order, Buyer) F()``: ``var (a, b) = F()``,
``(var a, var b) = F()``, ``var t = F(); t.Item1``, named elements ``t.order``, ``Tuple<Order,
Buyer>``); what must stay unlinked."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

JAVA = """
// --- path: src/main/java/a/Owner.java ---
package a;
public class Owner {
    public String getName() { return ""; }
}
// --- path: src/main/java/a/Other.java ---
package a;
public class Other {
    public String getName() { return ""; }
}
// --- path: src/main/java/a/Svc.java ---
package a;
import java.util.List;
public class Svc {
    Owner find(int id) { return null; }
    void a(List<Owner> owners, Owner[] arr, String[] names) {
        var o = owners.get(0);
        o.getName();
        var p = arr[1];
        p.getName();
        var q = find(2);
        q.getName();
        var r = this.find(3);
        r.getName();
        var n = names[0];
        n.getName();
        var s = owners.size();
        s.getName();
    }
}
"""


def _calls(resolved, src: str, prefix: str) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.removeprefix(prefix), e.resolution)
                  for f in resolved.files for e in f.edges if e.kind == "CALLS" and src in e.src)


def test_java_var_locals_take_the_type_of_a_container_read_a_subscript_or_a_call() -> None:
    assert _calls(resolve_fixture(JAVA), "Svc.a(", "t:src/main/java/a/") == [
        (7, "Owner.Owner.getName()", "inferred"),  # var o = owners.get(0)
        (9, "Owner.Owner.getName()", "inferred"),  # var p = arr[1]
        (10, "Svc.Svc.find(int)", "exact"),
        (11, "Owner.Owner.getName()", "inferred"),  # var q = find(2)
        (12, "Svc.Svc.find(int)", "exact"),
        (13, "Owner.Owner.getName()", "inferred"),  # var r = this.find(3)
        # negative: a String[]'s element and List.size() are the library's: no Owner / Other getName
    ]


CSHARP = """
// --- path: Models/Order.cs ---
namespace Shop.Models;
public class Order {
    public void SetStatus(int s) {}
}
// --- path: Models/Buyer.cs ---
namespace Shop.Models;
public class Buyer {
    public void SetStatus(int s) {}
}
// --- path: Services/OrderService.cs ---
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Shop.Models;
namespace Shop.Services;
public class OrderService {
    (Order, Buyer) Load() { return default; }
    (Order order, Buyer buyer) Named() { return default; }
    Tuple<Buyer, Order> Old() { return null; }
    async Task<(Buyer b, Order o)> LoadAsync() { return default; }
    public async Task Run() {
        var (a, b) = Load();
        a.SetStatus(1);
        b.SetStatus(2);
        (var c, var d) = this.Load();
        d.SetStatus(3);
        var t = Named();
        t.Item1.SetStatus(4);
        t.buyer.SetStatus(5);
        Old().Item1.SetStatus(6);
        var (e, _) = await LoadAsync();
        e.SetStatus(7);
        t.Item3.SetStatus(8);
        t.Rest.SetStatus(9);
        c.SetStatus(10);
        foreach (var (id, buyer) in _byId) { buyer.SetStatus(11); id.SetStatus(12); }
    }
    private readonly Dictionary<int, Buyer> _byId;
}
"""


def test_csharp_tuples_deconstructed_or_read_by_item_reach_each_position_class() -> None:
    calls = _calls(resolve_fixture(CSHARP), "OrderService.Run", "t:Models/")
    assert [c for c in calls if not c[1].startswith("t:Services/")] == [
        (13, "Order.Order.SetStatus(1)", "inferred"),  # var (a, b) = Load(): a is Item1
        (14, "Buyer.Buyer.SetStatus(1)", "inferred"),  # b is Item2
        (16, "Buyer.Buyer.SetStatus(1)", "inferred"),  # (var c, var d) = this.Load()
        (18, "Order.Order.SetStatus(1)", "inferred"),  # t.Item1 of a named tuple
        (19, "Buyer.Buyer.SetStatus(1)", "inferred"),  # t.buyer: the element's declared name
        (20, "Buyer.Buyer.SetStatus(1)", "inferred"),  # Tuple<Buyer, Order>.Item1
        (22, "Buyer.Buyer.SetStatus(1)", "inferred"),  # Task<(Buyer b, Order o)> awaited, deconstructed
        (25, "Order.Order.SetStatus(1)", "inferred"),  # c: Item1 of the second deconstruction
        (26, "Buyer.Buyer.SetStatus(1)", "inferred"),  # foreach (var (id, buyer) in Dictionary<int, Buyer>)
        # negative: a pair has no Item3 and its Rest is the library's (lines 23, 24: no edge); the
        # KeyValuePair's key `id` is an int (one edge on line 26, not two)
    ]
