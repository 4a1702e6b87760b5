"""TypeScript values read through promises, ``Object.values`` / ``Object.entries`` and nested
containers (session 47): ``Promise<Promise<User>>`` and ``Awaited<T>`` awaited as TypeScript's
``Awaited`` does (all promise levels at once), a parameter ``p: Promise<User>`` awaited,
``Object.entries(rec)`` / ``Object.values(rec)`` of a ``Record<K, User>`` (the values, ``[key,
value]`` entries), ``Map<string, User[]>`` / ``User[][]`` (a read gives an array, its subscript or
loop variable a ``User``), ``m.get(k) ?? []``. A namesake ``Group.save`` is never reached (no name
match); what must not link is asserted as absent."""

from __future__ import annotations

from indexer.languages.ecmascript.syntax import array_element, awaited, map_value
from tests.resolution_harness import resolve_fixture

TYPESCRIPT = '''
// --- path: src/user.ts ---
export class User { save(): void {} }
export class Group { save(): void {} }
// --- path: src/svc.ts ---
import { User } from "./user";
async function nested(): Promise<Promise<User>> { return Promise.resolve(new User()); }
export async function run(rec: Record<string, User>, m: Map<string, User[]>, k: string, aw: Awaited<Promise<User>>,
                          pp: Promise<Promise<User>>, grid: User[][], names: Map<string, string>) {
  (await nested()).save();
  const u = await nested();
  u.save();
  aw.save();
  (await pp).save();
  for (const [key, v] of Object.entries(rec)) { v.save(); key.save(); }
  for (const w of Object.values(rec)) { w.save(); }
  Object.values(rec)[0].save();
  m.get(k)![0].save();
  for (const x of m.get(k) ?? []) { x.save(); }
  for (const ys of m.values()) { ys[0].save(); ys.save(); }
  m.get(k)!.save();
  grid[0][1].save();
  grid[0].save();
  for (const row of grid) { row[0].save(); }
  for (const z of Object.keys(rec)) { z.save(); }
  for (const q of Object.values(m)) { q.save(); }
  for (const n of names.get(k) ?? []) { n.save(); }
}
'''


def _calls() -> list[tuple[int, int, str]]:
    resolved = resolve_fixture(TYPESCRIPT)
    return sorted((e.line, e.col, e.dst.split(":", 1)[1]) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and "svc.run" in e.src and ".save" in e.dst)


def test_awaited_entries_values_and_nested_containers() -> None:
    assert _calls() == [  # (line, col) in src/svc.ts
        (5, 19, "src/user.User.save(0)"),  # (await nested()): Promise<Promise<User>> awaited
        (7, 4, "src/user.User.save(0)"),  # const u = await nested()
        (8, 5, "src/user.User.save(0)"),  # aw: Awaited<Promise<User>>
        (9, 13, "src/user.User.save(0)"),  # (await pp): a parameter's Promise<Promise<User>>
        (10, 50, "src/user.User.save(0)"),  # for (const [key, v] of Object.entries(rec)): v
        (11, 42, "src/user.User.save(0)"),  # for (const w of Object.values(rec))
        (12, 24, "src/user.User.save(0)"),  # Object.values(rec)[0]
        (13, 15, "src/user.User.save(0)"),  # m.get(k)![0]: Map<string, User[]>
        (14, 38, "src/user.User.save(0)"),  # for (const x of m.get(k) ?? [])
        (15, 39, "src/user.User.save(0)"),  # for (const ys of m.values()) ys[0]
        (17, 13, "src/user.User.save(0)"),  # grid[0][1]: User[][]
        (19, 35, "src/user.User.save(0)"),  # for (const row of grid) row[0]
    ]  # not: key (10, the string key), ys (15, an array), m.get(k)! (16, an array), grid[0] (18, an array),
    # Object.keys (20: strings), Object.values of a Map (21: no own properties), a Map<string, string>'s (22)


def test_type_texts() -> None:
    assert awaited("Promise<Promise<User>>") == "User"
    assert awaited("Awaited<Promise<User>>") == "User"
    assert awaited("Awaited<User>") == "User"
    assert awaited("User") == "User"
    assert array_element("User[][]") == "User[]"
    assert array_element("Array<User[]>") == "User[]"
    assert array_element("string[][]") is None
    assert map_value("Map<string, User[]>") == ("User[]", "pairs")
    assert map_value("Map<string, string[]>") is None
