"""A TypeScript / JavaScript name assigned ``a ?? b``, ``a || b`` or ``c ? a : b`` holds either operand
(:mod:`indexer.languages.ecmascript.operands`): each operand naming a value binds the name as its
plain assignment would; ``&&``, literals and ``undefined`` bind nothing."""

from __future__ import annotations


from indexer.languages import extractors
from tests.resolution_harness import resolve_fixture

TS = '''
# --- path: web/a.ts ---
export class Service { run(): void {} }
export class Other { run(): void {} }
export function make(): Service { return new Service(); }
export function main(opt: Service | undefined, c: boolean, cached?: Other, flag?: boolean) {
  const s = opt ?? new Service();
  s.run();
  const t = flag || make();
  t.run();
  const u = c ? new Other() : undefined;
  u.run();
  const w = cached ?? (c ? undefined : null);
  w.run();
  const x = flag && new Service();
  x.run();
  const y = 'a' || 1;
  y.run();
}
'''


def _calls(resolved, caller: str, needle: str) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.endswith(caller) and needle in e.dst)


def test_a_name_assigned_either_operand_holds_the_one_known() -> None:
    resolved = resolve_fixture(TS)
    assert _calls(resolved, "a.main(4)", "run") == [
        (6, "web/a.Service.run(0)", "inferred"),  # opt ?? new Service(): the constructed one first
        (8, "web/a.Service.run(0)", "inferred"),  # flag || make(): what make returns
        (10, "web/a.Other.run(0)", "inferred"),  # c ? new Other() : undefined
        (12, "web/a.Other.run(0)", "exact"),  # cached ?? (...): the declared parameter
        # negative: `flag && new Service()` (14) and literals (16) bind nothing: no edge, not by name
    ]


def test_the_bindings_each_operand_gives() -> None:
    src = b"const a = x ?? y.z ?? new K();\nconst b = c ? await f() : g.h();\nconst d = e && new K();\nconst q = 'a' || undefined;\n"
    ex = extractors()[".ts"].extract("m.ts", src)
    assert [(b.name, b.type, b.how) for b in ex.bindings] == [
        ("a", "x", "alias"), ("a", "y.z", "alias"), ("a", "K", "constructed"),
        ("b", "f", "constructed"), ("b", "g.h", "constructed"),
    ]
