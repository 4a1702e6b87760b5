"""Refs (``indexer/languages/ecmascript/refs.py``): Vue's ``ref<T>()`` family and React's ``useRef<T>()``
hold a ``T`` in ``.value`` / ``.current``; a call through that property binds ``T``'s method, and nothing
else of the box does. One function per call, so each expected edge names its call."""

from __future__ import annotations

import pytest

from indexer.languages.ecmascript.refs import box_value, boxed_call_type
from tests.resolution_harness import check

CLASSES = """
// --- path: src/Form.ts ---
export class Form {
  validate() { return true; }
  reset() {}
}
export class Editor {
  focusAtEnd() {}
}
"""

PAGE = """
// --- path: src/page.ts ---
import { ref, shallowRef, computed } from "vue";
import type { Ref } from "vue";
import * as React from "react";
import { useRef, createRef } from "react";
import { Form, Editor } from "./Form";
export function instanceType() {
  const form = ref<InstanceType<typeof Form>>();
  form.value?.validate();
}
export function declared() {
  const typed: Ref<Form | undefined> = ref();
  typed.value!.reset();
}
export function arrayInside() {
  const forms = shallowRef<Form[]>([]);
  forms.value[0].reset();
}
export function computedRef() {
  const current = computed<Form>(() => new Form());
  current.value.validate();
}
export function reactRef() {
  const editor = useRef<Editor>(null);
  editor.current?.focusAtEnd();
}
export function namespacedReactRef() {
  const other = React.useRef<Editor | null>(null);
  other.current.focusAtEnd();
}
export function createdRef() {
  const made = createRef<Editor>();
  made.current!.focusAtEnd();
}
export function libraryElement() {
  const el = ref<HTMLDivElement | null>(null);
  el.value?.focus();
}
export function boxItself() {
  const form = ref<Form>();
  form.validate();
  form.current.validate();
}
export function wrongProperty() {
  const editor = useRef<Editor>(null);
  editor.value.focusAtEnd();
}
export function untyped() {
  const form = ref();
  form.value.validate();
}
export function twoTypes() {
  const either = ref<Form | Editor>();
  either.value.reset();
}
"""


def test_calls_through_a_refs_property_bind_the_held_class() -> None:
    check(CLASSES + PAGE, [
        "src/page.instanceType(0) -> src/Form.Form.validate(0) [inferred]",
        "src/page.declared(0) -> src/Form.Form.reset(0) [inferred]",
        "src/page.arrayInside(0) -> src/Form.Form.reset(0) [inferred]",
        "src/page.computedRef(0) -> src/Form.Form [exact]",  # its `new Form()`
        "src/page.computedRef(0) -> src/Form.Form.validate(0) [inferred]",
        "src/page.reactRef(0) -> src/Form.Editor.focusAtEnd(0) [inferred]",
        "src/page.namespacedReactRef(0) -> src/Form.Editor.focusAtEnd(0) [inferred]",
        "src/page.createdRef(0) -> src/Form.Editor.focusAtEnd(0) [inferred]",
        # not linked: a library element, the box's own members, the other library's property,
        # a ref without a type argument, a union of two classes
    ])


@pytest.mark.parametrize(("text", "expected"), [
    ("Ref<User>", ("User", "ref:value")),
    ("Ref< User | null >", ("User", "ref:value")),
    ("Ref<User> | undefined", ("User", "ref:value")),
    ("React.MutableRefObject<InstanceType<typeof Editor>>", ("Editor", "ref:current")),
    ("ShallowRef<Map<string, User>>", ("Map<string,User>", "ref:value")),
    ("Ref<User | Admin>", None),
    ("Ref<A, B>", None),
    ("Promise<User>", None),
    ("Ref", None),
    (None, None),
])
def test_box_value(text: str | None, expected: tuple[str, str] | None) -> None:
    assert box_value(text) == expected


@pytest.mark.parametrize(("callee", "args", "expected"), [
    ("ref", "<User>", "Ref<User>"),
    ("React.useRef", "<HTMLDivElement | null>", "MutableRefObject<HTMLDivElement|null>"),
    ("computed", "<Map<string, User>>", "ComputedRef<Map<string,User>>"),
    ("reactive", "<User>", None),
    ("ref", "<A, B>", None),
    ("ref", "", None),
])
def test_boxed_call_type(callee: str, args: str, expected: str | None) -> None:
    assert boxed_call_type(callee, args) == expected


LIBRARY_AND_SHADOWING = """
// --- path: src/list.ts ---
import { ref } from "vue";
import { Form } from "./Form";
export function page(forms: Form[]) {
  const open = ref(false);
  const el = ref<HTMLDivElement | null>(null);
  el.value?.focus();
  const names = forms.map((ref) => ref.validate());
  return { open, names };
}
"""


def test_a_library_type_held_stays_the_librarys_and_a_parameter_named_like_an_import_hides_it_in_its_callback() -> None:
    # `ref(false)` is vue's (external), not the callback parameter `ref` below it; a ref of a DOM
    # element is the library's, not unresolved. The parameter's binding holds on the callback's line
    # only (elements.py): there `ref` is the element of `forms`, and `ref.validate()` is Form's.
    result = check(CLASSES + LIBRARY_AND_SHADOWING, ["src/list.page(1) -> src/Form.Form.validate(0) [inferred]"])
    assert [u.name for f in result.files for u in f.unresolved] == []
    assert result.call_outcomes == {"external": 4, "inferred": 1}  # ref x2, el.value.focus, forms.map
