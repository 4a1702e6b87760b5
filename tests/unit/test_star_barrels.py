"""A barrel of ``export * from`` re-exports (``index.ts``) answers each name through the first module
that holds it (ECMA-262 ResolveExport, in source order), skipping the modules that cannot hold it
without asking them (brk52's quadratic barrel): the exact edges, the first module winning, a name no
module holds left unbound, and updates that add or remove a name in a skipped module, each equal to
a full index."""

from __future__ import annotations

from pathlib import Path

from tests.index_dump import calls
from tests.resolution_harness import check
from tests.unit.test_incremental import Workspace

BARREL = """
// --- path: lib/a.ts ---
export function alpha() { return 1; }
// --- path: lib/b.ts ---
export * from "./deep";
export function beta() { return 2; }
// --- path: lib/deep.ts ---
export function gamma() { return 3; }
export function alpha() { return 4; }
export function epsilon() { return 6; }
// --- path: lib/c.ts ---
export { epsilon as delta } from "./deep";
export default function omega() { return 5; }
// --- path: lib/index.ts ---
export * from "./a";
export * from "./missing";
export * from "./b";
export * from "./c";
// --- path: app.ts ---
import { alpha, beta, gamma, delta, nowhere } from "./lib";
export function run() {
  alpha();
  beta();
  gamma();
  delta();
  nowhere();
}
"""


def test_barrel_names_resolve_through_the_first_module_holding_them() -> None:
    # alpha: lib/a.ts comes first (lib/deep.ts's alpha is reached only through b, later);
    # gamma: through b's own star; delta: c's explicit re-export; nowhere: no module holds it;
    # c's default export is not a member of the barrel.
    check(BARREL, [
        "app.run(0) -> lib/a.alpha(0) [exact]",
        "app.run(0) -> lib/b.beta(0) [exact]",
        "app.run(0) -> lib/deep.epsilon(0) [exact]",
        "app.run(0) -> lib/deep.gamma(0) [exact]",
    ])


FILES = {
    "lib/a.ts": "export function alpha() { return 1; }\n",
    "lib/b.ts": "export function beta() { return 2; }\n",
    "lib/index.ts": 'export * from "./a";\nexport * from "./b";\n',
    "app.ts": 'import { alpha, late } from "./lib";\nexport function run() {\n  alpha();\n  late();\n}\n',
}


def test_a_name_added_to_a_skipped_module_binds_after_an_update(tmp_path: Path) -> None:
    w = Workspace(tmp_path, FILES)
    try:
        assert calls(w.db) == ["app.run(0) -> lib/a.alpha(0) [exact]"]
        # b.ts gains late(): the barrel's answer for it changes though index.ts did not
        w.edit({"lib/b.ts": "export function beta() { return 2; }\nexport function late() { return 3; }\n"})
        assert calls(w.db) == ["app.run(0) -> lib/a.alpha(0) [exact]", "app.run(0) -> lib/b.late(0) [exact]"]
        # a.ts gains one too: the first module holding it wins
        w.edit({"lib/a.ts": "export function alpha() { return 1; }\nexport function late() { return 0; }\n"})
        assert calls(w.db) == ["app.run(0) -> lib/a.alpha(0) [exact]", "app.run(0) -> lib/a.late(0) [exact]"]
        # both lose it: unbound again
        w.edit({"lib/a.ts": FILES["lib/a.ts"], "lib/b.ts": FILES["lib/b.ts"]})
        assert calls(w.db) == ["app.run(0) -> lib/a.alpha(0) [exact]"]
        # a module gains a star of its own: names behind it are found
        w.edit({"lib/deeper.ts": "export function late() { return 9; }\n",
                "lib/b.ts": 'export * from "./deeper";\n' + FILES["lib/b.ts"]})
        assert calls(w.db) == ["app.run(0) -> lib/a.alpha(0) [exact]", "app.run(0) -> lib/deeper.late(0) [exact]"]
    finally:
        w.close()
