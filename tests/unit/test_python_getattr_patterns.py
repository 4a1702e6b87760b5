"""``getattr(obj, <name built from literal parts>)`` called (indexer/languages/python/getattr_calls.py,
indexer/resolve/name_patterns.py): the methods of ``obj``'s class lineage whose names match the literal
parts, ``inferred``; for ``self``, the subclasses' too (a dispatcher in a base class). Exact callees;
negatives: a fully dynamic name, a one-character literal part, a method of another class, a
non-matching name, a lookup that is neither called nor kept."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: app/__init__.py ---
# --- path: app/base.py ---
class Visitor:
    def visit(self, node):
        method = getattr(self, "visit_" + type(node).__name__, None)
        return method(node)

    def visit_Base(self, node):
        return node
# --- path: app/media.py ---
from app.base import Visitor


class Media:
    def render_css(self):
        return 1

    def render_js(self):
        return 2

    def rendered(self):
        return 3

    def _css(self):
        return 4

    def render(self, name, kind):
        getattr(self, "render_" + name)()
        getattr(self, f"render_{kind}")()
        getattr(self, "render_%s" % kind)()
        getattr(self, name)()
        getattr(self, "_" + name)()
        return getattr(self, "_" + name)


class Other:
    def render_html(self):
        return 5


class NameVisitor(Visitor):
    def visit_Name(self, node):
        return node

    def visit_Call(self, node):
        return node

    def generic(self, node):
        return node


def use(m: Media, kind):
    return getattr(m, "render_{}".format(kind))()
'''


def _targets(resolved) -> list[tuple[str, int, str]]:
    return sorted((e.src.split(".", 1)[1].split("(")[0], e.line, e.dst.split(".", 1)[1].split("(")[0])
                  for f in resolved.files for e in f.edges if e.kind == "CALLS" and e.resolution == "inferred")


def test_methods_matching_the_literal_parts_are_called() -> None:
    assert _targets(resolve_fixture(SRC)) == sorted([
        ("Visitor.visit", 3, "Visitor.visit_Base"),  # the class's own, and its subclasses'
        ("Visitor.visit", 3, "NameVisitor.visit_Name"), ("Visitor.visit", 3, "NameVisitor.visit_Call"),
        ("Media.render", 18, "Media.render_css"), ("Media.render", 18, "Media.render_js"),
        ("Media.render", 19, "Media.render_css"), ("Media.render", 19, "Media.render_js"),
        ("Media.render", 20, "Media.render_css"), ("Media.render", 20, "Media.render_js"),
        # nothing for `getattr(self, name)()` (21), `"_" + name` (22, 23), `rendered`, `Other.render_html`
        ("use", 43, "Media.render_css"), ("use", 43, "Media.render_js"),
    ])


def test_the_pattern_call_sites() -> None:
    src = (b"class A:\n    def f(self, k):\n        getattr(self.repo, 'on_' + k + '_done')(1, 2)\n"
           b"        h = getattr(self, f'{k}_handler')\n        getattr(self, k)()\n        getattr(self, b'x' + k)()\n")
    out = extractor_for_path("m.py").extract("m.py", src)
    assert sorted((c.caller, c.name, c.receiver, c.arity, c.line) for c in out.calls if c.via == "pattern") == [
        ("A.f", "*_handler", "self", -1, 4), ("A.f", "on_*_done", "self.repo", 2, 3)]
