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
