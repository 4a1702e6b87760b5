"""Java type tests narrowing a name over the code they guard (``indexer/languages/java/narrowing.py``,
``narrowed`` bindings read by ``Resolver.resolve_expr_at``): ``instanceof`` with and without a
pattern variable, ``getClass() ==``, ``Class.isInstance`` / ``isAssignableFrom``, ``&&`` chains,
``?:``, switch type patterns. Exact edges per line, and what must not bind: the code after the
guard, a negated or ``||`` test, a test against a supertype of the declared type, overload choice
(the compiler's type, not the test's), the declared type's other overrides (its own method stays)."""

from tests.resolution_harness import resolve_fixture, short

SHAPES = """
// --- path: p/Shape.java ---
package p;
public interface Shape { double area(); }
// --- path: p/Circle.java ---
package p;
public class Circle implements Shape { public double area() { return 1; } public void roll() { } }
// --- path: p/Square.java ---
package p;
public class Square implements Shape { public double area() { return 2; } public void tilt() { } }
"""


def _lines(fixture: str, path: str) -> list[str]:
    """``line: Class.method [resolution]`` of every CALLS edge written in ``path``, sorted."""
    out = set()
    for f in resolve_fixture(fixture).files:
        for e in f.edges:
            if e.kind == "CALLS" and e.file == path:
                dst = short(e.dst).split(".", 1)[1].split("(")[0]
                out.add((e.line, f"{dst} [{e.resolution}]"))
    return [f"{line}: {dst}" for line, dst in sorted(out)]


def test_type_tests_narrow_the_name_over_the_code_they_guard():
    fixture = SHAPES + """
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Object o, boolean flag) {
        if (o instanceof Circle) o.roll();
        o.roll();
        if (o.getClass() == Square.class) {
            o.tilt();
        }
        if (Square.class.isInstance(o)) o.tilt();
        if (Square.class.isAssignableFrom(o.getClass())) o.tilt();
        if (flag && o instanceof Circle && flag) o.roll();
        boolean round = o instanceof Circle && o.area() > 0;
        double a = o instanceof Square ? o.area() : 0;
        double b = o instanceof Square
            ? o.area()
            : 0;
        if (!(o instanceof Circle)) o.roll();
        if (o instanceof Circle || flag) o.roll();
        while (o instanceof Square) { o.tilt(); }
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "4: Circle.roll [inferred]",  # line 5: after the if, `o` is an Object again: nothing
        "7: Square.tilt [inferred]",
        "9: Square.tilt [inferred]",
        "10: Square.tilt [inferred]",
        "11: Circle.roll [inferred]",  # a conjunct of the condition
        "12: Circle.area [inferred]",  # the right operand of `&&`, not Square.area
        # line 13: the `?` value shares its line with the `:` value, and lines bound a narrowing: none
        "15: Square.area [inferred]",  # the `?` value on its own line
        "19: Square.tilt [inferred]",  # a loop's body; lines 17-18: a negated or `||` test guards nothing
    ]


def test_pattern_variables_and_switch_type_patterns():
    fixture = SHAPES + """
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Object o, Shape s) {
        if (o instanceof Circle c) c.roll();
        switch (s) {
            case Square c -> c.tilt();
            case Circle c -> c.roll();
            default -> { }
        }
        switch (s) {
            case Circle k:
                s.area();
                break;
            default:
                s.area();
        }
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "4: Circle.roll [exact]",  # a pattern variable is declared with its type: exact
        "6: Square.tilt [exact]",
        "7: Circle.roll [exact]",  # `c` declared again: the label's own, not line 6's Square
        "12: Circle.area [inferred]",  # the name switched on, in the statements of its group only
        "12: Shape.area [exact]",  # the declared method stays (what the compiler binds); not Square.area
        "15: Circle.area [inferred]",  # no narrowing under `default`: every implementation
        "15: Shape.area [exact]",
        "15: Square.area [inferred]",
    ]


def test_no_narrowing_to_a_supertype_nor_for_overload_choice():
    fixture = SHAPES + """
// --- path: p/Use.java ---
package p;
public class Use {
    static void admit(Object any) { }
    static void admit(Circle circle) { }
    void go(Circle c, Object o) {
        if (c instanceof Shape) c.roll();
        if (o instanceof Circle) admit(o);
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "6: Circle.roll [exact]",  # a Circle tested against its interface stays a Circle
        "7: Use.admit [exact]",  # admit(Object): `o` is an Object to the compiler
    ]
    edges = {short(e.dst) for f in resolve_fixture(fixture).files for e in f.edges if e.kind == "CALLS" and e.line == 7}
    assert edges == {"p/Use.Use.admit(Object)"}  # never admit(Circle)


def test_a_method_the_declared_type_reaches_keeps_its_resolution():
    fixture = """
// --- path: p/Node.java ---
package p;
public class Node { public Node parent() { return null; } public void visit() { } }
// --- path: p/Leaf.java ---
package p;
public class Leaf extends Node { public void visit() { } public void prune() { } }
// --- path: p/Other.java ---
package p;
public class Other extends Node { public void visit() { } }
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Node node) {
        if (node instanceof Leaf && node.parent() != null) {
            node.prune();
            node.visit();
        }
        node.visit();
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "4: Node.parent [exact]",  # inherited by Leaf, named by `Node node`: exact as without the test
        "5: Leaf.prune [inferred]",
        "6: Leaf.visit [inferred]",  # the override, and the declared method; not Other.visit
        "6: Node.visit [exact]",
        "8: Leaf.visit [inferred]",  # after the guard: every override again
        "8: Node.visit [exact]",
        "8: Other.visit [inferred]",
    ]


def test_a_guard_ends_on_the_line_its_code_ends_not_on_the_else_sharing_it():
    fixture = SHAPES + """
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Shape s) {
        if (s instanceof Circle) {
            s.area();
        } else if (s.area() > 0) {
            s.area();
        }
        if (s instanceof Square) s.area(); else s.area();
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "5: Circle.area [inferred]",
        "5: Shape.area [exact]",
        "6: Circle.area [inferred]",  # the `else if` condition on the brace's line: every implementation
        "6: Shape.area [exact]",
        "6: Square.area [inferred]",
        "7: Circle.area [inferred]",
        "7: Shape.area [exact]",
        "7: Square.area [inferred]",
        "9: Circle.area [inferred]",  # an if and its else on one line: not narrowed at all
        "9: Shape.area [exact]",
        "9: Square.area [inferred]",
    ]


def test_code_before_the_guard_on_its_line_is_not_narrowed():
    # brk44: `o.roll(); if (o instanceof Circle) {` linked the first o.roll() to Circle.roll
    fixture = SHAPES + """
// --- path: p/Use.java ---
package p;
public class Use {
    void go(Object o, Shape s) {
        o.roll(); if (o instanceof Circle) {
            o.roll();
        }
        s.area(); if (o instanceof Circle) {
            o.roll(); }
        boolean round = o instanceof Circle && o.roll2();
        if (s != null) { } else if (o instanceof Circle) {
            o.roll();
        }
    }
}
"""
    assert _lines(fixture, "p/Use.java") == [
        "5: Circle.roll [inferred]",  # not line 4
        "7: Circle.area [inferred]", "7: Shape.area [exact]", "7: Square.area [inferred]",  # s is not narrowed
        "8: Circle.roll [inferred]",
        "11: Circle.roll [inferred]",
    ]
