"""Angular components: the component methods their inline templates' bindings call, and the
component facts the linker joins across files.

In a file importing ``Component`` from ``@angular/core``, a class decorated ``@Component({...})`` is
recorded as a :class:`~indexer.model.UiComponent` (its ``selector``, its ``template`` or
``templateUrl``, its ``outputs``: fields decorated ``@Output()`` (or ``@Output('alias')``: the alias)
and fields initialised by ``output(...)`` / ``output.required(...)``); the linker
(:mod:`indexer.frameworks.ui_templates`) reads a ``templateUrl`` file's bindings and links a child's
``this.x.emit(v)`` to the handler a parent's template binds to ``(x)``. An inline ``template:`` (a
string or a template literal without substitutions) is read here (the template rules are
:func:`indexer.frameworks.ui_templates.template_calls`): each call of a bare name in its bindings
(``toggle(...)``) is a call site ``this.toggle(...)`` from the component class, at the name's place
in the file; a call on a dotted name (``form.reset()``) is ``this.form.reset()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import template_calls
from indexer.model import CallSite, FileExtraction, UiComponent

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("typescript", "javascript")
_OUTPUT_CALLS = ("output", "output.required", "outputFromObservable")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the calls of component methods in the inline templates of the file's components, and
    one :class:`~indexer.model.UiComponent` per component class."""
    if not any(i.module == "@angular/core" and i.name == "Component" for i in out.imports):
        return
    classes = {(d.name_line, d.name_col): d.qualname for d in out.definitions if d.kind == "class"}
    found: list[CallSite] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in ("class_declaration", "class", "abstract_class_declaration"):
            name = n.child_by_field_name("name")
            owner = classes.get((src.line(name), src.col(name))) if name is not None else None
            config = _component_config(n, src)
            if owner is not None and config is not None:
                comp = _component(owner, config, n, src)
                if comp is not None:
                    out.components.append(comp)
                    if comp.template is not None:
                        found += template_calls(comp.template, owner, comp.line, comp.col)
        stack.extend(n.named_children)
    out.calls.extend(sorted(found, key=lambda c: (c.line, c.col)))
    out.components.sort(key=lambda c: (c.line, c.col))


def _component(owner: str, config: Node, cls: Node, src: SourceText) -> UiComponent | None:
    """The component fact of ``@Component(config)`` on ``cls``; ``None`` without a template known
    (an inline one built with substitutions, or neither)."""
    values = {}
    for pair in config.named_children:
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if pair.type == "pair" and key is not None and value is not None:
            values[src.text(key).strip("'\"")] = value
    selector = values.get("selector")
    selector_text = src.text(selector)[1:-1] if selector is not None and selector.type == "string" else None
    template, url = values.get("template"), values.get("templateUrl")
    outputs = _outputs(cls, src)
    if template is not None and template.type in ("string", "template_string") \
            and not any(c.type == "template_substitution" for c in template.children):
        return UiComponent("angular", owner, selector_text, src.text(template)[1:-1], None, src.line(template),
                           src.col(template) + 1, outputs)
    if url is not None and url.type == "string":
        return UiComponent("angular", owner, selector_text, None, src.text(url)[1:-1], src.line(url), src.col(url), outputs)
    return None


def _outputs(cls: Node, src: SourceText) -> tuple[tuple[str, str], ...]:
    """``(event, field)`` of the events a component class emits: its fields decorated ``@Output()``
    (the event named by the decorator's string argument when it has one) or initialised by ``output(...)``."""
    body = cls.child_by_field_name("body")
    out = []
    for member in body.named_children if body is not None else ():
        if member.type not in ("public_field_definition", "field_definition"):
            continue
        name = member.child_by_field_name("name") or member.child_by_field_name("property")
        if name is None:
            continue
        event = None
        for dec in (c for c in member.children if c.type == "decorator"):
            call = next((c for c in dec.named_children if c.type == "call_expression"), None)
            fn = call.child_by_field_name("function") if call is not None else None
            if fn is not None and src.text(fn) == "Output":
                args = call.child_by_field_name("arguments")
                first = args.named_children[0] if args is not None and args.named_children else None
                event = src.text(first)[1:-1] if first is not None and first.type == "string" else src.text(name)
        value = member.child_by_field_name("value")
        if event is None and value is not None and value.type == "call_expression":
            fn = value.child_by_field_name("function")
            if fn is not None and src.text(fn).split("<", 1)[0] in _OUTPUT_CALLS:
                event = src.text(name)
        if event:
            out.append((event, src.text(name)))
    return tuple(out)


def _component_config(cls: Node, src: SourceText) -> Node | None:
    """The object given to the ``@Component({...})`` decorating ``cls``, if any (decorators are the
    class's children, or its export statement's)."""
    holders = [cls, *([cls.parent] if cls.parent is not None and cls.parent.type == "export_statement" else [])]
    for holder in holders:
        for dec in holder.children:
            if dec.type != "decorator":
                continue
            call = next((c for c in dec.named_children if c.type == "call_expression"), None)
            fn = call.child_by_field_name("function") if call is not None else None
            args = call.child_by_field_name("arguments") if call is not None else None
            if fn is None or src.text(fn) != "Component" or args is None or not args.named_children:
                continue
            config = args.named_children[0]
            if config.type == "object":
                return config
    return None
