"""brk54's hostile inputs against session 53's work (docs re-linked on update, parked imports, returned
objects, narrowing forms): what broke is tested here with exact values and what must not be linked
(inputs, sizes and times: docs/benchmarks.md, "brk54")."""

from __future__ import annotations

from pathlib import Path

from indexer.mention_refresh import docs_mentioning
from tests.unit.test_incremental import Workspace
from tests.unit.test_mention_refresh import mentions


class _Ctx:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.defs: list[object] = []


def test_a_legacy_encoded_doc_is_searched_as_the_writer_decodes_it(tmp_path: Path) -> None:
    """A cp1252 doc naming ``Größe`` (bytes ``Gr\\xf6\\xdfe``, not UTF-8) holds the name as the writer
    reads it (cp1252); decoding it as UTF-8 with replacement lost it. A name it does not hold: nothing."""
    (tmp_path / "latin.md").write_bytes("See `pkg.svc.Größe` here.\n".encode("cp1252"))
    (tmp_path / "utf8.md").write_text("See `Maßstab` here.\n", encoding="utf-8")
    files = {"latin.md": _Ctx("markdown"), "utf8.md": _Ctx("markdown")}
    assert docs_mentioning(tmp_path, files, {"Größe"}, set(), 1 << 20) == {"latin.md"}
    assert docs_mentioning(tmp_path, files, {"Maßstab"}, set(), 1 << 20) == {"utf8.md"}
    assert docs_mentioning(tmp_path, files, {"Größer", "Maß_x"}, set(), 1 << 20) == set()


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
