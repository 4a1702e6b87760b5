"""``scope_of`` of the Python detectors remembers, per file, the scopes of the nodes it walked
through: the answers are those of a fresh walk up the parents, in any order of asking, and never
carried over to another file whose nodes may reuse the same ids."""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, parser
from indexer.languages.python.frameworks.common import scope_of

_CODE = b'''\
import x


@deco(a.b())
class Outer:
    field = make()

    def method(self, d=default()):
        inner_call()

        def nested():
            return deep()

        class Local:
            value = local_value()
        return nested

    @property
    def prop(self):
        return prop_call()


top_call()
'''


def _calls(root: Node) -> dict[str, Node]:
    """Every call of the tree by its callee text."""
    out: dict[str, Node] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "call":
            out[node.child_by_field_name("function").text.decode()] = node
        stack.extend(node.children)
    return out


_EXPECTED = {
    "deco": None,  # a decorator belongs to the code around the definition
    "a.b": None,
    "make": "Outer",
    "default": "Outer",  # a default value too
    "inner_call": "Outer.method",
    "deep": "Outer.method.nested",
    "local_value": "Outer.method.Local",
    "prop_call": "Outer.prop",
    "top_call": None,
}


def test_scopes_are_the_same_in_any_order_of_asking() -> None:
    tree = parser("python").parse(_CODE)
    calls = _calls(tree.root_node)
    for order in (list(_EXPECTED), list(reversed(_EXPECTED)), sorted(_EXPECTED)):
        src = SourceText(_CODE)  # a fresh file each time: nothing remembered
        assert {name: scope_of(calls[name], src) for name in order} == _EXPECTED
    src = SourceText(_CODE)
    assert scope_of(tree.root_node, src) is None
    assert [scope_of(calls[name], src) for name in _EXPECTED] == list(_EXPECTED.values())
    assert scope_of(calls["deep"], src) == "Outer.method.nested"  # asked again: remembered
    assert scope_of(calls["deep"].parent, src) == "Outer.method.nested"  # the return statement
    method = calls["inner_call"]
    while method.type != "function_definition":
        method = method.parent
    body = method.child_by_field_name("body")  # the method's body is the method's scope
    assert body.type == "block" and scope_of(body, src) == "Outer.method"
    assert scope_of(method, src) == "Outer"  # the method itself is the class's
    assert scope_of(method.child_by_field_name("name"), src) == "Outer"


def test_another_file_is_not_answered_from_the_first() -> None:
    first = SourceText(_CODE)
    tree = parser("python").parse(_CODE)
    calls = _calls(tree.root_node)
    assert scope_of(calls["deep"], first) == "Outer.method.nested"
    other_code = b"def g():\n    deep()\n"
    other_tree = parser("python").parse(other_code)
    other = SourceText(other_code)
    assert scope_of(_calls(other_tree.root_node)["deep"], other) == "g"
    # the same bytes in another SourceText: a file of its own, answered afresh (not "g")
    again = SourceText(_CODE)
    assert scope_of(calls["deep"], again) == "Outer.method.nested"
    assert scope_of(calls["top_call"], again) is None
