"""A TypeScript value declared with a type the repository never declares nor imports (``lib.dom.d.ts``'s
``HTMLElement``, ``@types/node``'s ``NodeJS.ReadableStream``, ``Buffer``) is the library's
(:mod:`indexer.resolve.ambient`): a call on it is not matched by name to a repository method of the same
name. Type parameters, types the repository declares (also in a ``.d.ts``), untyped and ``any`` values
keep the name match; ``Partial<User>`` / ``Pick<User, ...>`` hold a ``User``
(:func:`indexer.languages.ecmascript.syntax.carried`)."""

from __future__ import annotations

from indexer.languages.ecmascript.syntax import bindable, carried
from tests.resolution_harness import resolve_fixture

TS = """
// --- path: app/stream.ts ---
export class Readable { destroy(): void {} write(x: string): void {} }
export class User { save(): void {} }
// --- path: app/globals.d.ts ---
declare interface Sink { write(x: string): void }
// --- path: app/h.ts ---
import * as http from 'http'
import { User } from './stream'
export function h1(res: http.ServerResponse) { res.destroy() }
export function h2(s: NodeJS.ReadableStream, w: WritableStream) { s.destroy(); w.write("a") }
export function h3(e: HTMLElement, b: Buffer) { e.destroy(); b.write("x") }
export function h4(s: any, u) { s.destroy(); u.destroy() }
export function h5<T>(x: T) { x.save() }
export class Box<T> { constructor(private item: T) {} run() { this.item.save() } }
export function h6(x: Partial<User>, y: Readonly<Pick<User, "save">>) { x.save(); y.save() }
export function h7(k: Sink) { k.write("x") }
"""


def _sites(src: str) -> list[tuple[int, str, str, str]]:
    result = resolve_fixture(src)
    return sorted((e.line, e.src.split(":", 1)[1], e.dst.split(":", 1)[1], e.resolution)
                  for f in result.files for e in f.edges if e.kind == "CALLS" and e.src.split(":", 1)[1].startswith("app/h."))


def test_ambient_library_types_are_not_matched_by_name() -> None:
    assert _sites(TS) == [
        # h1-h3 (lines 3-5): an imported library type, `NodeJS.ReadableStream`, `WritableStream`,
        # `HTMLElement`, `Buffer`: no edge to `Readable.destroy` / `Readable.write`
        (6, "app/h.h4(2)", "app/stream.Readable.destroy(0)", "name"),  # `any` and untyped: by name, as before
        (6, "app/h.h4(2)", "app/stream.Readable.destroy(0)", "name"),
        (7, "app/h.h5(1)", "app/stream.User.save(0)", "name"),  # a function's type parameter
        (8, "app/h.Box.run(0)", "app/stream.User.save(0)", "name"),  # a class's type parameter (a field's type)
        (9, "app/h.h6(2)", "app/stream.User.save(0)", "exact"),  # Partial<User>, Readonly<Pick<User, ...>>
        (9, "app/h.h6(2)", "app/stream.User.save(0)", "exact"),
        # h7 (line 10): `Sink` is the repository's own global interface: not the library's, no implementation
    ]


def test_carried_utility_types() -> None:
    assert carried("Partial<User>") == "User"
    assert carried("Readonly< Omit<User, 'pw' | 'salt'> >") == "User"
    assert carried("Promise<User>") == "Promise<User>"
    assert carried("Record<string, User>") == "Record<string, User>"
    assert bindable("Pick<User, 'id'>") == "User"


PRIMITIVES = """
// --- path: app/stream.ts ---
export class Pointer { toString(): string { return ""; } replace(a: string, b: string): void {} filter(f: any): void {} }
export class Date2 { toString(): string { return ""; } }
// --- path: app/h.ts ---
import { Date2 } from './stream'
export function p1(name: string, index: number) { name.replace("a", "b"); index.toString() }
export function p2(ids: string[], ok: boolean | undefined) { ids.filter(Boolean); ok.toString() }
export function p3() { new Date().toString(); new URL("/x").toString() }
export function p4(x: any, z) { x.replace("a", "b"); z.replace("a", "b") }
export function p5() { new Date2().toString() }
"""


def test_primitive_parameters_and_ambient_constructors_are_the_librarys() -> None:
    assert _sites(PRIMITIVES) == [
        # p1-p3 (lines 2-4): `string`, `number`, `string[]`, `boolean | undefined`, `new Date()`,
        # `new URL()`: the library's, no edge to Pointer.toString / replace / filter
        (5, "app/h.p4(2)", "app/stream.Pointer.replace(2)", "name"),  # `any` and untyped: by name, as before
        (5, "app/h.p4(2)", "app/stream.Pointer.replace(2)", "name"),
        (6, "app/h.p5(0)", "app/stream.Date2", "exact"),  # a repository class: its constructor, its method
        (6, "app/h.p5(0)", "app/stream.Date2.toString(0)", "exact"),
    ]
