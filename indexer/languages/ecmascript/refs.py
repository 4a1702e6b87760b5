"""Refs: a library box holding one value under one property, as TypeScript declares them. Vue's
``Ref<T>`` (``ref<T>()``, ``shallowRef<T>()``, ``computed<T>()``, ``useTemplateRef<T>()``) holds it in
``.value``; React's ``RefObject<T>`` / ``MutableRefObject<T>`` (``useRef<T>()``, ``createRef<T>()``) in
``.current``. A name declared so, or bound to such a call with its type argument written, is a box of
``T``: ``form.value?.validate()`` and ``editor.current?.focus()`` call ``T``'s method (Vue's
"Typing Template Refs" and React's ``useRef`` typings). The box is a
:class:`~indexer.resolve.values.QueryV` of ``T``'s class whose view (:func:`view`) names its property;
:func:`query_read` reads it. ``InstanceType<typeof C>`` (a component's instance, Vue's documented
form) is ``C``; ``T | null`` / ``T | undefined`` is ``T``.
"""

from __future__ import annotations

import re

from indexer.languages.base import split_top_level
from indexer.resolve.values import EXTERNAL, QueryV, Value, element

__all__ = ["BOXES", "MAKERS", "box_value", "boxed_call_type", "is_box", "query_read"]

BOXES = {"Ref": "value", "ShallowRef": "value", "ComputedRef": "value", "WritableComputedRef": "value",
         "TemplateRef": "value", "RefObject": "current", "MutableRefObject": "current"}
"""Box type names and the property each holds its value in (Vue 3's ``Ref`` family, React's ``RefObject``)."""

MAKERS = {"ref": "Ref", "shallowRef": "ShallowRef", "computed": "ComputedRef", "useTemplateRef": "TemplateRef",
          "useRef": "MutableRefObject", "createRef": "RefObject"}
"""Calls that make a box of their type argument (``ref<User>()`` is a ``Ref<User>``), by the callee's last
name part (``React.useRef`` too)."""

_VIEW = "ref:"
_BOX = re.compile(r"^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?)<(.+)>$")
_INSTANCE = re.compile(r"^InstanceType<typeof([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)>$")
_NULLISH = frozenset({"null", "undefined"})


def _held(text: str) -> str | None:
    """The type a box's argument names, whitespace already dropped: ``T | null`` -> ``T``,
    ``InstanceType<typeof C>`` -> ``C``; ``None`` for a union of several types."""
    kept = [t for t in split_top_level(text, "|") if t and t not in _NULLISH]
    if len(kept) != 1:
        return None
    m = _INSTANCE.match(kept[0])
    return m.group(1) if m else kept[0]


def box_value(type_text: str | None) -> tuple[str, str] | None:
    """``(held type text, view)`` of a box type text (``Ref<User>`` -> ``("User", "ref:value")``,
    ``React.RefObject<Editor | null>`` -> ``("Editor", "ref:current")``), ``None`` for any other
    text; the type held may itself be an array or a map type (the resolver nests containers)."""
    if not type_text:
        return None
    t = re.sub(r"\s+", "", type_text)
    for text in split_top_level(t, "|") if "|" in t else (t,):  # `Ref<User> | undefined`
        m = _BOX.match(text)
        if m is None:
            continue
        prop = BOXES.get(m.group(1).rpartition(".")[2])
        args = split_top_level(m.group(2))
        if prop is None or len(args) != 1:
            return None
        held = _held(args[0])
        return (held, _VIEW + prop) if held else None
    return None


def boxed_call_type(callee: str, type_arguments: str) -> str | None:
    """The box type text a call makes (:data:`MAKERS`): callee ``ref`` / ``React.useRef`` with type
    arguments ``<User>`` -> ``Ref<User>``; ``None`` for other callees or several arguments."""
    box = MAKERS.get(callee.rpartition(".")[2])
    inner = type_arguments.strip()
    if box is None or not (inner.startswith("<") and inner.endswith(">")):
        return None
    args = split_top_level(re.sub(r"\s+", "", inner[1:-1]))
    return f"{box}<{args[0]}>" if len(args) == 1 and args[0] else None


def is_box(v: QueryV) -> bool:
    """Whether ``v`` is a box (:func:`box_value`'s view), not a container."""
    return v.view.startswith(_VIEW)


def query_read(v: QueryV, name: str) -> Value:
    """A box's property (the module system's optional ``query_read``): the one it holds its value in
    gives that value (:func:`~indexer.resolve.values.element`); any other is the library's. ``None``
    for a container that is no box (the resolver goes on)."""
    if not is_box(v):
        return None
    return element(v) if name == v.view[len(_VIEW):] else EXTERNAL
