"""A function returning a ``const`` that holds an object literal (``const api = { open, close }; return
api``) returns that object, as ``return { open, close }`` does (:mod:`indexer.languages.ecmascript.returned_objects`):
a custom React hook's callers destructure it or call through it. A ``let`` / ``var`` (it may be
reassigned), a parameter, a ``catch`` variable or a ``const`` of another value is no such object."""

from __future__ import annotations

from tests.resolution_harness import check

FIXTURE = """
// --- path: src/hooks.ts ---
export function useThing() {
  const open = () => 1;
  const close = () => 2;
  const api = { open, close };
  return api;
}
export const useArrow = () => {
  const open = () => 3;
  const api = ({ open });
  return (api);
}
export function useNested(flag: boolean) {
  const open = () => 4;
  if (flag) {
    const inner = { open };
    return inner;
  }
  return null;
}
export function useLet() {
  const open = () => 5;
  let api = { open };
  api = makeOther();
  return api;
}
export function useParam(api) {
  const open = () => 6;
  return api;
}
export function useCaught() {
  const open = () => 7;
  const api = { open };
  try { return null } catch (api) { return api }
}
export function useCall() {
  const open = () => 8;
  const api = makeApi(open);
  return api;
}
export function useInnerShadow() {
  const open = () => 9;
  const api = { open };
  {
    const api = other();
    return api;
  }
}
// --- path: src/use.ts ---
import { useThing, useArrow, useNested, useLet, useParam, useCaught, useCall, useInnerShadow } from "./hooks";
export function destructures() {
  const { open } = useThing();
  open();
}
export function callsThrough() {
  useThing().close();
}
export function holds() {
  const t = useArrow();
  t.open();
}
export function nested() {
  useNested(true).open();
}
export function notObjects() {
  useLet().open();
  useParam(null).open();
  useCaught().open();
  useCall().open();
  useInnerShadow().open();
}
"""


def test_a_returned_const_holding_an_object_literal_is_the_returned_object() -> None:
    check(FIXTURE, [
        "src/use.callsThrough(0) -> src/hooks.useThing(0) [exact]",
        "src/use.callsThrough(0) -> src/hooks.useThing.close(0) [exact]",
        "src/use.destructures(0) -> src/hooks.useThing(0) [exact]",
        "src/use.destructures(0) -> src/hooks.useThing.open(0) [exact]",
        "src/use.holds(0) -> src/hooks.useArrow(0) [exact]",
        "src/use.holds(0) -> src/hooks.useArrow.open(0) [exact]",
        "src/use.nested(0) -> src/hooks.useNested(1) [exact]",
        "src/use.nested(0) -> src/hooks.useNested.open(0) [exact]",
        "src/use.notObjects(0) -> src/hooks.useCall(0) [exact]",
        "src/use.notObjects(0) -> src/hooks.useCaught(0) [exact]",
        "src/use.notObjects(0) -> src/hooks.useInnerShadow(0) [exact]",
        "src/use.notObjects(0) -> src/hooks.useLet(0) [exact]",
        "src/use.notObjects(0) -> src/hooks.useParam(1) [exact]",
        # not linked: the open() of useLet, useParam, useCaught, useCall, useInnerShadow
    ])
