"""A callback's parameter and a ``for ... of`` variable hold on their callback's or loop's lines only
(:mod:`indexer.languages.ecmascript.elements`, :func:`indexer.model.holds_on_lines`): named like an
import (``import { ref } from "vue"`` ... ``forms.map((ref) => ref.validate())``), the name is the import
around the callback and the array's element (or the type written) inside it; the innermost of nested
callbacks wins. One function per case, so each expected edge names its case."""

from __future__ import annotations

from indexer.model import Binding, holds_on_lines
from tests.resolution_harness import check, extract_fixture

FIXTURE = """
// --- path: src/Form.ts ---
export class Form {
  validate() { return true; }
  reset() {}
}
export class Editor {
  reset() {}
}
// --- path: src/page.ts ---
import { ref } from "vue";
import { chunk } from "lodash";
import { Form, Editor } from "./Form";
export function typedParam(items: Form[]) {
  const open = ref(false);
  return items.map((ref: Form) => ref.validate());
}
export function elementParam(forms: Form[]) {
  const open = ref(false);
  const names = forms.map((ref) =>
    ref.validate());
  ref(true);
  return names;
}
export function nested(forms: Form[], editors: Editor[]) {
  forms.map((x) =>
    editors.map((x) =>
      x.reset()));
}
export function loop(forms: Form[]) {
  for (const chunk of forms) {
    chunk.reset();
  }
  chunk([1], 2);
}
export function unknown(data) {
  const open = ref(false);
  return data.map((ref) => ref.reset());
}
export function typeParameter<T>(items: T[]) {
  return items.map((ref: T) => ref.reset());
}
"""


def test_a_callback_parameter_hides_the_import_on_its_lines_only() -> None:
    result = check(FIXTURE, [
        "src/page.elementParam(1) -> src/Form.Form.validate(0) [inferred]",  # the element, over two lines
        "src/page.loop(1) -> src/Form.Form.reset(0) [inferred]",  # the loop's chunk
        "src/page.nested(2) -> src/Form.Editor.reset(0) [inferred]",  # the inner x: not Form.reset
        "src/page.typedParam(1) -> src/Form.Form.validate(0) [exact]",  # the type written
        # not linked: ref(false) / ref(true) / chunk([1], 2) around them (vue's, lodash's); a
        # parameter of an unknown array (`unknown`) or of a type parameter (`typeParameter`), and
        # neither class's reset in `nested` but the inner parameter's
    ])
    calls = sorted((u.name, u.line) for f in result.files for u in f.unresolved)
    # `data.map` and `items.map` (T[]) are unknown, and so is `ref` inside `unknown`'s callback: a
    # parameter of an unknown value hides the import there (`ref.reset()` is not vue's, external, but
    # unresolved: two classes have a `reset`)
    assert calls == [("map", 28), ("map", 31), ("reset", 28)]
    assert result.call_outcomes == {"external": 10, "exact": 1, "inferred": 3, "unresolved": 3}


def test_the_bindings_hold_on_the_callback_and_loop_lines() -> None:
    page = next(ex for ex, _, _ in extract_fixture(FIXTURE) if ex.path == "src/page.ts")
    ranged = [b for b in page.bindings if holds_on_lines(b)]
    assert ranged == [
        Binding("typedParam", "ref", "Form", "declared", 6, 6),
        Binding("elementParam", "ref", "forms", "element", 10, 11),
        Binding("nested", "x", "forms", "element", 16, 18),
        Binding("nested", "x", "editors", "element", 17, 18),
        Binding("loop", "chunk", "forms", "element", 21, 23),
        Binding("unknown", "ref", "data", "element", 28, 28),
    ]
    # in the whole function: only a name no import has and no other binding or expression hands
    whole = [b for b in page.bindings if b.how == "element" and not holds_on_lines(b)]
    assert whole == []  # ref and chunk are imports; nested's x comes from two expressions


MODULE_LEVEL = """
// --- path: src/Form.ts ---
export class Form {
  validate() { return true; }
}
// --- path: src/boot.ts ---
import { ref } from "vue";
import { Form } from "./Form";
const forms: Form[] = [new Form()];
forms.forEach((ref) =>
  ref.validate());
ref(true);
"""


def test_a_module_level_callback_parameter_holds_on_its_lines_only() -> None:
    # module level is a scope other files read (its bindings are kept in memory apart from the local
    # table): the callback's `ref` is the element there too, and `ref(true)` after it stays vue's
    result = check(MODULE_LEVEL, ["src/boot.ts -> src/Form.Form [exact]",  # new Form()
                                  "src/boot.ts -> src/Form.Form.validate(0) [inferred]"])
    assert sorted((u.name, u.line) for f in result.files for u in f.unresolved) == []
    boot = next(ex for ex, _, _ in extract_fixture(MODULE_LEVEL) if ex.path == "src/boot.ts")
    assert [b for b in boot.bindings if holds_on_lines(b)] == [Binding(None, "ref", "forms.values()", "element", 4, 5)]
