"""Containers of containers of a repository class (``Map<String, List<Owner>>``, ``List<List<Owner>>``,
C# ``Dictionary<string, List<Order>>``): an element read of the outer container is the inner
container, whose element read is an instance of the class (:attr:`indexer.resolve.values.QueryV.inner`);
what must stay unlinked (the outer container's element is no instance); a type nested past
:data:`~indexer.resolve.values.MAX_NESTING` binds nothing and is read in time linear in its text."""

from __future__ import annotations

from indexer.languages.csharp.containers import element_type as cs_element, kept_type, map_value
from indexer.languages.java.containers import element_type as java_element
from tests.resolution_harness import resolve_fixture

JAVA = """
// --- path: src/main/java/a/Owner.java ---
package a;
public class Owner {
    public String getName() { return ""; }
    public int size() { return 0; }
}
// --- path: src/main/java/a/Other.java ---
package a;
public class Other {
    public String getName() { return ""; }
    public int size() { return 0; }
}
// --- path: src/main/java/a/Svc.java ---
package a;
import java.util.List;
import java.util.Map;
import java.util.Optional;
public class Svc {
    private Map<String, List<Owner>> byName;
    void a(List<List<Owner>> rows, Optional<Optional<Owner>> oo, Map<String, Map<Integer, Owner>> mm) {
        byName.get("k").get(0).getName();
        rows.get(0).get(1).getName();
        oo.get().get().getName();
        mm.get("a").get(1).getName();
        for (List<Owner> row : rows) { row.get(0).getName(); }
        byName.values().iterator().next().stream().findFirst().get().getName();
        byName.get("k").size();
        rows.get(0).getName();
    }
}
"""


def _calls(resolved, src: str, prefix: str) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.removeprefix(prefix), e.resolution)
                  for f in resolved.files for e in f.edges if e.kind == "CALLS" and src in e.src)


def test_java_element_reads_of_nested_containers_reach_the_innermost_class() -> None:
    assert _calls(resolve_fixture(JAVA), "Svc.a(", "t:src/main/java/a/") == [
        (8, "Owner.Owner.getName()", "inferred"),  # Map<String, List<Owner>>.get(k).get(i)
        (9, "Owner.Owner.getName()", "inferred"),  # List<List<Owner>>
        (10, "Owner.Owner.getName()", "inferred"),  # Optional<Optional<Owner>>
        (11, "Owner.Owner.getName()", "inferred"),  # a map of maps
        (12, "Owner.Owner.getName()", "inferred"),  # a loop variable declared List<Owner> (as before)
        (13, "Owner.Owner.getName()", "inferred"),  # values() -> next() is a List<Owner>; stream().findFirst()
        # negative: `byName.get("k").size()` is the List's (the library's), not Owner.size nor Other.size;
        # `rows.get(0).getName()` is a List's, no Owner's nor Other's (line 15: no edge)
    ]


CSHARP = """
// --- path: Models/Order.cs ---
namespace Shop.Models;
public class Order {
    public void SetStatus(int s) {}
    public int Count() { return 0; }
}
// --- path: Models/Buyer.cs ---
namespace Shop.Models;
public class Buyer {
    public void SetStatus(int s) {}
    public int Count() { return 0; }
}
// --- path: Services/OrderService.cs ---
using System.Collections.Generic;
using System.Linq;
using Shop.Models;
namespace Shop.Services;
public class OrderService {
    private readonly Dictionary<string, List<Order>> _byBuyer;
    public void Run(List<List<Order>> rows) {
        _byBuyer["b"].First().SetStatus(1);
        _byBuyer.GetValueOrDefault("b")[0].SetStatus(2);
        foreach (var kv in _byBuyer) { kv.Value.First().SetStatus(3); }
        foreach (var row in rows) { row.Single().SetStatus(4); }
        rows[0][1].SetStatus(5);
        _byBuyer.Values.First().Last().SetStatus(6);
        _byBuyer["b"].Count();
        rows.First().SetStatus(7);
    }
}
"""


def test_csharp_element_reads_of_nested_containers_reach_the_innermost_class() -> None:
    assert _calls(resolve_fixture(CSHARP), "OrderService.Run", "t:Models/") == [
        (8, "Order.Order.SetStatus(1)", "inferred"),  # Dictionary<string, List<Order>>[k].First()
        (9, "Order.Order.SetStatus(1)", "inferred"),  # GetValueOrDefault(k)[i]
        (10, "Order.Order.SetStatus(1)", "inferred"),  # a KeyValuePair's Value is a List<Order>
        (11, "Order.Order.SetStatus(1)", "inferred"),  # foreach over List<List<Order>>
        (12, "Order.Order.SetStatus(1)", "inferred"),  # rows[i][j]
        (13, "Order.Order.SetStatus(1)", "inferred"),  # Values.First() is a List<Order>, Last() an Order
        # negative: `_byBuyer["b"].Count()` is LINQ's (no Order.Count, no Buyer.Count); `rows.First()`
        # is a List<Order>, whose SetStatus is nobody's (line 15 binds nothing)
    ]


def _deep(outer: str, inner: str, depth: int) -> str:
    text = inner
    for _ in range(depth):
        text = f"{outer}<{text}>"
    return text


def test_a_type_nested_past_the_bound_is_no_container_of_the_class() -> None:
    assert java_element(_deep("List", "Owner", 2)) == "List<Owner>"
    assert cs_element(_deep("List", "Order", 3)) == "List<List<Order>>"
    assert kept_type("Dictionary<string, List<Order>>") == "Dictionary<string,List<Order>>"
    assert map_value("Dictionary<int, List<Order>>") == ("List<Order>", "pairs")
    # 200 deep: C# keeps no container (past the bound), read once per level up to the bound
    deep = _deep("List", "Order", 200)
    assert cs_element(deep) is None and kept_type(deep) is None
    assert map_value(f"Dictionary<int, {deep}>") is None


HOSTILE = """
// --- path: src/main/java/a/Owner.java ---
package a;
public class Owner {
    public String getName() { return ""; }
}
// --- path: src/main/java/a/Deep.java ---
package a;
import java.util.List;
public class Deep {
    void a(%s deep, %s near) {
        deep%s.getName();
        near%s.getName();
    }
}
"""


def test_java_200_deep_lists_bind_nothing_and_the_bound_deep_binds() -> None:
    deep, near = _deep("List", "Owner", 200), _deep("List", "Owner", 5)
    # six reads of the 200-deep list (a chain of 200 would pass split_dotted's bound of 64 links: unknown)
    src = HOSTILE % (deep, near, ".get(0)" * 6, ".get(0)" * 5)
    assert _calls(resolve_fixture(src), "Deep.a(", "t:src/main/java/a/") == [
        (6, "Owner.Owner.getName()", "inferred"),  # five levels: four nested in the outer one
        # negative: 200 levels are past the bound: nothing, not even by name (it is a library value)
    ]
