"""TypeScript arrays of a repository class (``User[]``, ``Array<User>``, a method returning
``Promise<User[]>``) and awaited calls: ``for ... of`` loops and array callbacks take an element,
``find`` / ``at`` give one, ``const u = await this.svc.one()`` is what ``Promise<User>`` resolves to;
what must stay unlinked."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

APP = """
// --- path: src/user.ts ---
export class User {
  activate(): void {}
}
export class Group {
  activate(): void {}
}
// --- path: src/svc.ts ---
import { User } from './user';
export class Svc {
  private users: User[] = [];
  async load(): Promise<User[]> { return []; }
  async one(): Promise<User | undefined> { return undefined; }
  async run(list: Array<User>, names: string[]) {
    for (const u of this.users) { u.activate(); }
    this.users.find(x => true)!.activate();
    this.users.forEach(y => y.activate());
    const loaded = await this.load();
    loaded.forEach(z => z.activate());
    for (const w of await this.load()) { w.activate(); }
    (await this.one())?.activate();
    const got = await this.one();
    got!.activate();
    list.map(m => m.activate());
    names.forEach(n => n.activate());
    this.users.map(p => p.activate()).forEach(q => q.activate());
    for (const k of [1, 2]) { k.activate(); }
  }
}
"""


def test_loops_callbacks_and_awaited_calls_reach_the_element_class() -> None:
    resolved = resolve_fixture(APP)
    calls = sorted((e.line, e.dst.removeprefix("t:src/"), e.resolution) for f in resolved.files for e in f.edges
                   if e.kind == "CALLS" and "svc.Svc.run" in e.src and "user." in e.dst)
    assert calls == [
        (7, "user.User.activate(0)", "inferred"),  # for (const u of this.users): a field User[]
        (8, "user.User.activate(0)", "inferred"),  # find(...) gives one element
        (9, "user.User.activate(0)", "inferred"),  # a forEach callback's parameter
        (11, "user.User.activate(0)", "inferred"),  # `loaded`: awaited Promise<User[]>, then forEach
        (12, "user.User.activate(0)", "inferred"),  # for ... of await this.load()
        (13, "user.User.activate(0)", "inferred"),  # (await this.one())?.m(): Promise<User | undefined>
        (15, "user.User.activate(0)", "inferred"),  # const got = await this.one()
        (16, "user.User.activate(0)", "inferred"),  # a parameter Array<User>, map's callback
        (18, "user.User.activate(0)", "inferred"),  # map's callback on a User[] (its result: the library's)
        # negative: string[] elements (`n`), what map(...) returns (`q`) and a literal array's
        # elements (`k`) are no class of the repository: neither User's nor Group's activate
    ]
