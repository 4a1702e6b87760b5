"""Django REST framework serializers: ``serializer.save()`` runs the serializer class's ``create`` or
``update``.

DRF's ``BaseSerializer.save(**kwargs)`` calls ``self.create(validated_data)`` when the serializer was
built without an instance and ``self.update(instance, validated_data)`` when it was given one. The call
is the library's, so the resolver sees ``save`` (a library method) and nothing of the repository. In a
file importing ``rest_framework``, for each ``v.save(...)`` in a function whose variable ``v`` was last
assigned, earlier in that same function, a serializer built by a call:

* ``v = ArticleSerializer(...)`` / ``v = serializers.ArticleSerializer(...)`` /
  ``v = self.serializer_class(...)`` -> the class the callee names (``self.serializer_class``: the
  view's class attribute ``serializer_class = X``, resolved like any attribute);
* ``v = self.get_serializer(...)`` (DRF's ``GenericAPIView``) -> the view's ``serializer_class``;

and, with no assignment, the ``serializer`` parameter of a view's ``perform_create`` /
``perform_update`` (DRF's mixins pass ``self.get_serializer(...)``) -> the view's ``serializer_class``;
a :class:`~indexer.model.CallSite` ``via="library"`` of ``create`` (no instance: no first positional
argument nor ``instance=``; ``perform_create``) or ``update`` (an instance given; ``perform_update``),
at the ``save`` name, whose receiver is the construction (``ArticleSerializer()``,
``self.serializer_class()``): it binds only when that class (or a base of the repository) defines the
method, ``inferred`` (the library decides at run time; a ``save`` override is not read).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.python.frameworks.common import Args, Context, compact, scope_of
from indexer.languages.base import SourceText
from indexer.model import CallSite, FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_VIEW_CLASS = "self.serializer_class()"
_PERFORM = {"perform_create": "create", "perform_update": "update"}
_NESTED = frozenset({"function_definition", "class_definition", "lambda"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the implied ``create`` / ``update`` call of each ``serializer.save()`` of a file
    importing ``rest_framework`` to ``out`` (module docstring)."""
    if b".save(" not in src.data or not Context(src, out).imports.uses("rest_framework"):
        return
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            _function(node, src, out)
        stack.extend(reversed(node.named_children))


def _function(fn: Node, src: SourceText, out: FileExtraction) -> None:
    """The implied calls of the ``v.save(...)`` calls in ``fn``'s own body (not in nested functions)."""
    body = fn.child_by_field_name("body")
    name_node = fn.child_by_field_name("name")
    if body is None or name_node is None:
        return
    assigned: dict[str, list[tuple[int, Node]]] = {}  # variable -> [(byte, value call)]
    saves: list[Node] = []
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type in _NESTED:
            continue
        if node.type == "assignment":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and left.type == "identifier" and right is not None and right.type == "call":
                assigned.setdefault(src.text(left), []).append((node.start_byte, right))
        elif node.type == "call":
            callee = node.child_by_field_name("function")
            if callee is not None and callee.type == "attribute":
                obj, attr = callee.child_by_field_name("object"), callee.child_by_field_name("attribute")
                if obj is not None and attr is not None and obj.type == "identifier" and src.text(attr) == "save":
                    saves.append(node)
        stack.extend(node.named_children)
    name = src.text(name_node)
    scope = scope_of(fn, src)
    qualname = f"{scope}.{name}" if scope else name
    params = fn.child_by_field_name("parameters")
    param_names = {src.text(p) for p in params.named_children if p.type == "identifier"} if params else set()
    for call in sorted(saves, key=lambda n: n.start_byte):
        callee = call.child_by_field_name("function")
        var = src.text(callee.child_by_field_name("object"))
        at = callee.child_by_field_name("attribute")
        earlier = [value for byte, value in assigned.get(var, ()) if byte < call.start_byte]
        if earlier:
            found = _built(src, earlier[-1])
        elif name in _PERFORM and var in param_names and scope is not None:
            found = (_VIEW_CLASS, _PERFORM[name])
        else:
            found = None
        if found is not None:
            receiver, method = found
            out.calls.append(CallSite(qualname, method, receiver, -1, src.line(at), src.col(at), via="library"))


def _built(src: SourceText, value: Node) -> tuple[str, str] | None:
    """``(receiver text standing for the serializer, "create" | "update")`` of the call ``value``
    a serializer variable was assigned; ``None`` when its callee is no name, attribute or call."""
    callee = value.child_by_field_name("function")
    if callee is None or callee.type not in ("identifier", "attribute", "call"):
        return None
    text = compact(src, callee)
    args = Args.of(src, value.child_by_field_name("arguments"))
    method = "update" if args.get(0, "instance") is not None else "create"
    return (_VIEW_CLASS if text == "self.get_serializer" else text + "()"), method
