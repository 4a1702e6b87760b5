"""bench/jcg_java.py: JCG's call annotations parsed, and ripple's edges scored against them, exactly."""

from __future__ import annotations

import pytest

from bench.jcg_cases import JcgCase
from bench.jcg_java import (
    Annotation,
    Graph,
    Target,
    declared_classes,
    descriptor_classes,
    jcg_files,
    node_target,
    parse_annotations,
    run_case,
    score,
)

# Written for this test in the spirit of a JCG case: one annotation per form the suite uses.
_SOURCE = '''package shapes;

import lib.annotations.callgraph.DirectCall;

class Canvas {
    @DirectCalls({
        @DirectCall(name = "draw", line = 12, resolvedTargets = {"Lshapes/Circle;", "Lshapes/Square;"},
                    prohibitedTargets = {"Lshapes/Shape;"}),
        @DirectCall(
            name = "<init>", line = 13, resolvedTargets = "Lshapes/Outer$Dot;")
    })
    void paint(Shape s) { s.draw("a, b)"); }
    @IndirectCall(name = "run", returnType = void.class, parameterTypes = {int.class}, line = 20, resolvedTargets = "Ljava/lang/Thread;")
    void later() {}
}
'''


def test_parse_annotations_exact() -> None:
    got = parse_annotations("shapes/Canvas.java", _SOURCE)
    assert got == [
        Annotation("DirectCall", "shapes/Canvas.java", 12, "draw", ("shapes.Circle", "shapes.Square"),
                   ("shapes.Shape",), at=7),
        Annotation("DirectCall", "shapes/Canvas.java", 13, "<init>", ("shapes.Outer$Dot",), (), at=9),
        Annotation("IndirectCall", "shapes/Canvas.java", 20, "run", ("java.lang.Thread",), (), at=13),
    ]


def test_parse_annotations_rejects_missing_line() -> None:
    with pytest.raises(ValueError, match="x/A.java:2"):
        parse_annotations("x/A.java", 'class A {\n  @DirectCall(name = "m", resolvedTargets = "Lx/A;")\n}\n')
    with pytest.raises(ValueError, match="unclosed"):
        parse_annotations("x/A.java", '@DirectCall(name = "m", line = 3')


def test_descriptor_classes_and_files() -> None:
    assert descriptor_classes('{"La/b/C;", "La/D$E;"}') == ("a.b.C", "a.D$E")
    assert descriptor_classes("int.class") == ()
    case = JcgCase("X1", "Cat", "a.A", files={"a/A.java": "// a/A.java\npackage a;\nclass A {}\n"})
    assert jcg_files(case) == {"a/A.java": "package a;\nclass A {}\n"}
    assert declared_classes({"a/A.java": "package a;\nclass A { interface B {} }\n"}) == {
        "a.A", "a.B", "a.A$B", "a.B$A"}


def test_node_target_conventions() -> None:
    assert node_target("Method", "Outer.Inner.m", "p") == Target("p.Outer$Inner", "m")
    assert node_target("Constructor", "A.A", "p") == Target("p.A", "<init>")
    assert node_target("Class", "A", "") == Target("A", "<init>")
    assert node_target("Field", "A.f", "p") is None
    assert node_target("File", "p/A.java", "p") is None


def test_score_counts_each_outcome() -> None:
    f = "p/A.java"
    annotations = [
        Annotation("DirectCall", f, 10, "m", ("p.B", "p.C"), ("p.A",), at=8),  # B found, C missing, A prohibited
        Annotation("DirectCall", f, 11, "<init>", ("p.B",), (), at=8),  # found through the Class node
        Annotation("IndirectCall", f, 20, "run", ("p.B",), (), at=18),  # linked at line 19: moved
        Annotation("IndirectCall", f, 30, "gc", ("java.lang.System",), (), at=28),  # external, seen
        Annotation("IndirectCall", f, 31, "go", ("p.B",), (), at=29),  # linked from another method: missing
    ]
    graph = Graph(
        calls={(f, 10): [Target("p.B", "m"), Target("p.A", "m"), Target("p.D", "m"), Target("p.C", "other")],
               (f, 11): [Target("p.B", "<init>")], (f, 19): [Target("p.B", "run")]},
        by_caller={"main": [Target("p.B", "m"), Target("p.A", "m"), Target("p.B", "run")],
                   "other": [Target("p.B", "go")]},
        spans={f: [(5, 35, "main"), (40, 45, "other"), (17, 21, "inner")]},
        unresolved={(f, 30): {"gc"}},
    )
    graph.by_caller["inner"] = [Target("p.B", "run")]
    r = score(annotations, {"p.A", "p.B", "p.C", "p.D"}, graph, "Cat/X1")
    assert r.annotations == 5
    assert r.found == {(f, 10, "m", "p.B"), (f, 11, "<init>", "p.B")}
    assert r.missing == {(f, 10, "m", "p.C"), (f, 20, "run", "p.B"), (f, 31, "go", "p.B")}
    assert r.moved == {(f, 20, "run", "p.B")}
    assert r.prohibited == {(f, 10, "m", "p.A")}
    assert r.extra == {(f, 10, "m", "p.D")}
    assert r.external == r.external_seen == {(f, 30, "gc", "java.lang.System")}
    assert not r.exact and r.scored


def test_run_case_indexes_and_scores() -> None:
    # A call on an interface whose implementer inherits the method from a class outside the
    # interface's line (J8DIM2's shape): the inherited body is the target; the constructor of a class
    # without one is its Class node.
    text = '''// dispatch/Main.java
package dispatch;

class Main {
    @DirectCall(name = "work", line = 6, resolvedTargets = "Ldispatch/Base;", prohibitedTargets = "Ldispatch/Other;")
    static void call(Job job) {
        job.work();
    }
    @DirectCall(name = "<init>", line = 10, resolvedTargets = "Ldispatch/Runner;")
    static void make() {
        new Runner();
    }
}
interface Job { void work(); }
class Base { public void work() {} }
class Runner extends Base implements Job {}
class Other { public void work() {} }
'''
    result, graph = run_case(JcgCase("D1", "VirtualCalls", "dispatch.Main", files={"dispatch/Main.java": text}))
    assert graph is not None and result.error is None
    assert result.found == {("dispatch/Main.java", 6, "work", "dispatch.Base"),
                            ("dispatch/Main.java", 10, "<init>", "dispatch.Runner")}
    assert result.prohibited == set() and result.exact
    assert result.extra == {("dispatch/Main.java", 6, "work", "dispatch.Job")}
