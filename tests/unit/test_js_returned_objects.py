"""Objects a JavaScript / TypeScript function returns and names destructured from them
(ecmascript/returned_objects.py, ``ObjV`` as a call's result): the custom React hook pattern
``const { showSuccess } = useToast(); showSuccess()`` calls the hook's inner function. Exact edges,
and what must not bind (a local namesake, a property naming a variable or a call, a property the
object lacks, a rest element)."""

from indexer.languages import extractor_for_path
from tests.resolution_harness import check

HOOK = """
import { toast } from "sonner"

const useToast = () => {
  const showSuccess = (msg: string) => {
    toast.success(msg)
  }
  function showError(msg: string) {
    toast.error(msg)
  }
  const count = 3
  const unused = () => 1
  return { showSuccess, showError, fail: showError, count, made: unused() }
}

export const useApi = () => ({ load: fetchAll })

function fetchAll() { return 1 }

export default useToast
"""

FIXTURE = f"""
// --- path: src/hooks/useToast.ts ---
{HOOK}
// --- path: src/comp/Add.tsx ---
import useToast, {{ useApi }} from "../hooks/useToast"

export function Add() {{
  const {{ showSuccess, fail: onFail, count, made, missing, ...rest }} = useToast()
  const t = useToast()
  showSuccess("ok")
  onFail("no")
  t.showError("x")
  count()
  made()
  missing()
  rest.showSuccess()
  return null
}}

export async function Load() {{
  const {{ load }} = useApi()
  load()
}}

export function Other() {{
  const showSuccess = (m: string) => m
  showSuccess("local")
}}
"""


def test_destructured_hook_functions_are_called():
    check(FIXTURE, [
        "src/comp/Add.Add(0) -> src/hooks/useToast.useToast(0) [exact]",
        "src/comp/Add.Add(0) -> src/hooks/useToast.useToast.showSuccess(1) [exact]",  # showSuccess("ok")
        "src/comp/Add.Add(0) -> src/hooks/useToast.useToast.showError(1) [exact]",  # onFail("no"), t.showError("x")
        "src/comp/Add.Load(0) -> src/hooks/useToast.useApi(0) [exact]",
        "src/comp/Add.Load(0) -> src/hooks/useToast.fetchAll(0) [exact]",  # `() => ({ load: fetchAll })`
        "src/comp/Add.Other(0) -> src/comp/Add.Other.showSuccess(1) [exact]",  # the local namesake only
        "src/hooks/useToast.useToast(0) -> src/hooks/useToast.useToast.unused(0) [exact]",
        # count(): a number; made(): a call's value; missing(): no such property; rest.x(): a rest element
    ])


def test_returned_object_and_destructuring_bindings_exactly():
    ex = extractor_for_path("h.ts").extract("h.ts", HOOK.encode())
    assert [(b.scope, b.name, b.type, b.how) for b in ex.bindings if b.how in ("object", "alias")] == [
        ("useToast", "return", "return", "object"),
        ("useToast.return", "showSuccess", "showSuccess", "alias"),
        ("useToast.return", "showError", "showError", "alias"),
        ("useToast.return", "fail", "showError", "alias"),
        ("useApi", "return", "return", "object"),
        ("useApi.return", "load", "fetchAll", "alias"),
    ]
    assert {d.qualname: d.returned_refs for d in ex.definitions if d.returned_refs} == {
        "useToast": ["return"], "useApi": ["return"]}
    source = "function f() { const { a, b: c, d = 1, ...r } = g(); const { e } = await h.k(); const { z } = 1 + 2 }"
    ex = extractor_for_path("a.js").extract("a.js", source.encode())
    assert [(b.scope, b.name, b.type, b.how) for b in ex.bindings if b.how == "item"] == [
        ("f", "a", "g().a", "item"),
        ("f", "c", "g().b", "item"),
        ("f", "d", "g().d", "item"),
        ("f", "e", "h.k().e", "item"),
    ]


BOUND = """
// --- path: src/utils.ts ---
export const handleError = function (this: (msg: string) => void, err: Error) {
  this(err.message)
}
export function unrelated() { return 1 }
// --- path: src/hooks/useToast.ts ---
const useToast = () => {
  const showError = (msg: string) => msg
  return { showError }
}
export default useToast
// --- path: src/comp/Edit.tsx ---
import useToast from "../hooks/useToast"
import { handleError, unrelated } from "../utils"

export function Edit(register: (o: object) => void) {
  const { showError } = useToast()
  const local = { bind: (x: unknown) => x }
  register({ onError: handleError.bind(showError) })
  register({ other: local.bind(unrelated()) })
}
"""


def test_bound_function_and_destructured_function_handed_on_are_references():
    check(BOUND, [
        "src/comp/Edit.Edit(1) -> src/utils.handleError(1)",  # `handleError.bind(...)`: handed on, not run
        "src/comp/Edit.Edit(1) -> src/hooks/useToast.useToast.showError(1)",  # the destructured function handed on
        "src/hooks/useToast.useToast(0) -> src/hooks/useToast.useToast.showError(1)",  # `return { showError }`
        # not `local` (no function) and not `unrelated` (called: a CALLS edge)
    ], kind="REFERENCES")
    check(BOUND, [
        "src/comp/Edit.Edit(1) -> src/hooks/useToast.useToast(0) [exact]",
        "src/comp/Edit.Edit(1) -> src/utils.unrelated(0) [exact]",
        "src/comp/Edit.Edit(1) -> src/comp/Edit.Edit.local.bind(1) [exact]",
        # never `handleError` itself: `.bind` makes a function, it does not run it
    ])
