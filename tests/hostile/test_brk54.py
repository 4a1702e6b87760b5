"""brk54's hostile inputs against session 53's work (docs re-linked on update, parked imports, returned
objects, narrowing forms): what broke is tested here with exact values and what must not be linked
(inputs, sizes and times: docs/benchmarks.md, "brk54")."""

from __future__ import annotations

from pathlib import Path

from indexer.mention_refresh import MentionRecords, docs_mentioning
from tests.resolution_harness import check
from tests.unit.test_incremental import Workspace
from tests.unit.test_mention_refresh import mentions


class _Ctx:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.checksum = ""  # no record holds it: MentionRecords reads the doc
        self.defs: list[object] = []


def _mentioning(root: Path, files: dict[str, _Ctx], names: set[str], confine: str | None = None) -> set[str]:
    """:func:`docs_mentioning`'s answer, checked equal to :class:`MentionRecords`' (what updates ask)."""
    found = docs_mentioning(root, files, names, set(), 1 << 20, confine)
    assert MentionRecords().docs_mentioning(root, files, names, set(), 1 << 20, confine) == found  # type: ignore[arg-type]
    return found


def test_a_legacy_encoded_doc_is_searched_as_the_writer_decodes_it(tmp_path: Path) -> None:
    """A cp1252 doc naming ``Größe`` (bytes ``Gr\\xf6\\xdfe``, not UTF-8) holds the name as the writer
    reads it (cp1252); decoding it as UTF-8 with replacement lost it. A name it does not hold: nothing."""
    (tmp_path / "latin.md").write_bytes("See `pkg.svc.Größe` here.\n".encode("cp1252"))
    (tmp_path / "utf8.md").write_text("See `Maßstab` here.\n", encoding="utf-8")
    files = {"latin.md": _Ctx("markdown"), "utf8.md": _Ctx("markdown")}
    assert _mentioning(tmp_path, files, {"Größe"}) == {"latin.md"}
    assert _mentioning(tmp_path, files, {"Maßstab"}) == {"utf8.md"}
    assert _mentioning(tmp_path, files, {"Größer", "Maß_x"}) == set()


def test_a_legacy_encoded_doc_follows_a_renamed_definition(tmp_path: Path) -> None:
    """The update renaming ``Größe`` away and back re-links the cp1252 doc as a full index does."""
    w = Workspace(tmp_path, {"pkg/__init__.py": "", "pkg/svc.py": "class Größe:\n    pass\n"})
    try:
        doc = w.src / "docs" / "latin.md"
        doc.parent.mkdir()
        doc.write_bytes("# Maße\n\nSee `pkg.svc.Größe` here.\n".encode("cp1252"))
        w.index.update([doc])
        w.check()
        assert mentions(w.db) == ["docs/latin.md:3 -> pkg/svc.Größe"]
        w.edit({"pkg/svc.py": "class Größe2:\n    pass\n"})
        assert mentions(w.db) == []
        w.edit({"pkg/svc.py": "class Größe:\n    pass\n"})
        assert mentions(w.db) == ["docs/latin.md:3 -> pkg/svc.Größe"]
    finally:
        w.close()


SHADOWS = """
// --- path: src/api.ts ---
export function logout() { return 1 }
// --- path: src/hooks.ts ---
import { logout } from "./api"
function go() { return 1 }
function run() { return 2 }
function stop() { return 3 }
function keep() { return 4 }

export function useAuth() {
  const logout = useCallback(() => 1, [])
  return { logout, keep }
}
export function useLit() {
  const go = 5
  return { go }
}
export function useLet() {
  let go
  go = function () { return 6 }
  return { go }
}
export function useCatch() {
  try { return null } catch (go) { return { go } }
}
export function useFor(xs: number[]) {
  for (const run of xs) { return { run } }
  return null
}
export function usePattern() {
  const { stop } = other()
  return { stop }
}
export function useInner() {
  const stop = () => 7
  function run() { return 8 }
  return { stop, run }
}
export function local() {
  const go = 9
  const o = { go, keep }
  o.go()
  o.keep()
}
// --- path: src/use.ts ---
import { useAuth, useLit, useLet, useCatch, useFor, usePattern, useInner } from "./hooks"
export function C() {
  const { logout, keep } = useAuth(); logout(); keep()
  const { go: g1 } = useLit(); g1()
  const { go: g2 } = useLet(); g2()
  const { go: g3 } = useCatch(); g3()
  const { run: r1 } = useFor([1]); r1()
  const { stop: s1 } = usePattern(); s1()
  const { stop: s2, run: r2 } = useInner(); s2(); r2()
}
"""


def test_a_property_naming_a_local_is_not_the_module_function() -> None:
    """``return { logout }`` / ``{ go }`` where a local of the function (a call's result, a literal, a
    ``let`` assigned later, a ``catch`` or ``for`` variable, a destructured name) shadows the module's
    or an import's function of that name: calling the property is not a call of that function (brk54:
    ``const { logout } = useAuth(); logout()`` called ./api's logout). A local arrow or nested function
    is the definition the property names; a name no local shadows (``keep``) is still linked."""
    check(SHADOWS, [
        "src/hooks.local(0) -> src/hooks.keep(0) [exact]",  # o.keep(); o.go() is the number 9
        "src/use.C(0) -> src/hooks.keep(0) [exact]",
        "src/use.C(0) -> src/hooks.useAuth(0) [exact]",
        "src/use.C(0) -> src/hooks.useCatch(0) [exact]",
        "src/use.C(0) -> src/hooks.useFor(1) [exact]",
        "src/use.C(0) -> src/hooks.useInner(0) [exact]",
        "src/use.C(0) -> src/hooks.useInner.run(0) [exact]",
        "src/use.C(0) -> src/hooks.useInner.stop(0) [exact]",
        "src/use.C(0) -> src/hooks.useLet(0) [exact]",
        "src/use.C(0) -> src/hooks.useLit(0) [exact]",
        "src/use.C(0) -> src/hooks.usePattern(0) [exact]",
    ])


def test_a_doc_linked_out_of_the_root_or_not_regular_is_not_read(tmp_path: Path) -> None:
    """A doc that is now a link out of the repository (confined as the extraction is), a FIFO or a
    device is left out at once (no read, no block); the same link is read when links out are followed."""
    import os

    root, outside = tmp_path / "repo", tmp_path / "outside.md"
    root.mkdir()
    outside.write_text("See `OrderLedger`.\n")
    (root / "ext.md").symlink_to(outside)
    os.mkfifo(root / "pipe.md")
    (root / "zero.md").symlink_to("/dev/zero")
    (root / "in.md").write_text("See `OrderLedger`.\n")
    files = {"ext.md": _Ctx("markdown"), "pipe.md": _Ctx("markdown"), "zero.md": _Ctx("markdown"),
             "in.md": _Ctx("markdown")}
    real = os.path.realpath(root)
    assert _mentioning(root, files, {"OrderLedger"}, real) == {"in.md"}
    assert _mentioning(root, files, {"OrderLedger"}, None) == {"in.md", "ext.md"}
