"""brk46 (brk45's finding 5): a Java class with more overloads of one name than
:data:`~indexer.resolve.context.MAX_OVERLOADS` (256): the overload a call's argument types select may be
among those cut before the choice; when none of the candidates kept fits the arguments, the call
binds none of them (it bound up to 64 others of its arity, labelled ``exact``)."""

from indexer.resolve.context import MAX_OVERLOADS
from tests.resolution_harness import edges, resolve_fixture

N = MAX_OVERLOADS + 44


def _fixture() -> str:
    types = "".join(f"// --- path: p/T{k}.java ---\npackage p;\npublic class T{k} {{}}\n" for k in range(N))
    overloads = "".join(f"  public void m(T{k} a, String s) {{}}\n" for k in range(N))
    return (types + "// --- path: p/O.java ---\npackage p;\npublic class O {\n" + overloads +
            "  public void two(T0 a) {}\n  public void two(T1 a) {}\n"
            f"  void inside() {{ m(new T0(), \"s\"); m(new T{N - 1}(), \"s\"); }}\n}}\n"
            "// --- path: p/Use.java ---\npackage p;\npublic class Use {\n"
            "  void first(O o) { o.m(new T0(), \"s\"); }\n"
            f"  void last(O o) {{ o.m(new T{N - 1}(), \"s\"); }}\n"
            "  void few(O o) { o.two(new T5()); }\n"
            "}\n")


def test_a_call_whose_overload_was_cut_binds_none_of_the_others() -> None:
    calls = [e for e in edges(resolve_fixture(_fixture())) if " -> p/O.O." in e]
    got = [e for e in calls if e.startswith("p/Use.")]
    # the last overload is among those kept: exactly it; the first one was cut: nothing (not 64 others);
    # below the bound, a call no overload fits still binds those of its arity (unchanged)
    assert got == ["p/Use.Use.few(O) -> p/O.O.two(T0) [exact]", "p/Use.Use.few(O) -> p/O.O.two(T1) [exact]",
                   f"p/Use.Use.last(O) -> p/O.O.m(T{N - 1},String) [exact]"]
    # the same for a call of the class's own method without a receiver
    assert [e for e in calls if e.startswith("p/O.O.inside")] == [
        f"p/O.O.inside() -> p/O.O.m(T{N - 1},String) [exact]"]
