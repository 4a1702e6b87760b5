"""Kotlin values held in library containers of a repository class (``List<Owner>``,
``MutableList<Owner>?``, ``Map<String, Owner>``, ``Map<String, List<Owner>>``): subscripts, one-element
reads (``first()``, ``getValue(k)``), loops (``for (o in owners)``, ``for ((k, v) in m)``), a trailing
lambda's ``it`` or named parameter, a ``val`` assigned one of those; what must stay unlinked."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

APP = """
// --- path: src/main/kotlin/a/Owner.kt ---
package a
class Owner {
    fun greet(): String = ""
}
// --- path: src/main/kotlin/a/Other.kt ---
package a
class Other {
    fun greet(): String = ""
}
// --- path: src/main/kotlin/a/Svc.kt ---
package a
class Svc(private val byName: Map<String, List<Owner>>) {
    fun load(): List<Owner> = listOf()
    fun a(owners: List<Owner>, m: Map<String, Owner>, ml: MutableList<Owner>?, names: List<String>) {
        owners[0].greet()
        owners.first().greet()
        for (o in owners) { o.greet() }
        for ((k, v) in m) { v.greet() }
        ml!!.forEach { it.greet() }
        load().filter { x -> true }.forEach { y -> y.greet() }
        val f = owners.last()
        f.greet()
        val g = m[k]
        g.greet()
        m.values.first().greet()
        m.getValue("k").greet()
        byName["k"]!!.first().greet()
        val h = load()[2]
        h.greet()
        names.first().greet()
        owners.size.greet()
        owners.map { z -> 1 }.first().greet()
    }
}
"""


def test_kotlin_container_reads_loops_and_lambdas_reach_the_element_class() -> None:
    resolved = resolve_fixture(APP)
    calls = sorted((e.line, e.dst.removeprefix("t:src/main/kotlin/a/"), e.resolution)
                   for f in resolved.files for e in f.edges
                   if e.kind == "CALLS" and "Svc.a(" in e.src and "greet" in e.dst)
    assert calls == [
        (5, "Owner.Owner.greet()", "inferred"),  # owners[0]
        (6, "Owner.Owner.greet()", "inferred"),  # owners.first()
        (7, "Owner.Owner.greet()", "inferred"),  # for (o in owners)
        (8, "Owner.Owner.greet()", "inferred"),  # for ((k, v) in m): v a value
        (9, "Owner.Owner.greet()", "inferred"),  # ml!!.forEach { it.greet() }
        (10, "Owner.Owner.greet()", "inferred"),  # load().filter { }.forEach { y -> }
        (12, "Owner.Owner.greet()", "inferred"),  # val f = owners.last()
        (14, "Owner.Owner.greet()", "inferred"),  # val g = m[k]
        (15, "Owner.Owner.greet()", "inferred"),  # m.values.first()
        (16, "Owner.Owner.greet()", "inferred"),  # m.getValue(k)
        (17, "Owner.Owner.greet()", "inferred"),  # Map<String, List<Owner>>[k]!!.first()
        (19, "Owner.Owner.greet()", "inferred"),  # val h = load()[2]
        # negative: List<String>.first(), owners.size and what map { } hands back are the library's:
        # no Owner.greet nor Other.greet on lines 20-22
    ]


AMBIGUOUS = """
// --- path: src/main/kotlin/a/Owner.kt ---
package a
class Owner {
    fun greet(): String = ""
}
// --- path: src/main/kotlin/a/Other.kt ---
package a
class Other {
    fun greet(): String = ""
}
// --- path: src/main/kotlin/a/Svc.kt ---
package a
class Svc {
    fun a(owners: List<Owner>, others: List<Other>) {
        owners.forEach { it.greet() }
        others.forEach { it.greet() }
        for (o in owners) { o.greet() }
    }
}
"""


def test_an_it_handed_by_two_containers_is_neither_element() -> None:
    resolved = resolve_fixture(AMBIGUOUS)
    calls = sorted((e.line, e.dst.removeprefix("t:src/main/kotlin/a/"), e.resolution)
                   for f in resolved.files for e in f.edges if e.kind == "CALLS" and "Svc.a(" in e.src)
    # `it` is bound per function: over List<Owner> and List<Other> it is left to the name match
    # (both greet()s, `name`), never one class's `inferred`; the loop variable keeps its element
    assert [c for c in calls if c[2] != "name"] == [(6, "Owner.Owner.greet()", "inferred")]
    assert {c[0] for c in calls if c[2] == "name"} <= {4, 5}
