"""What a one-shot run holds per file between the extract phase and the write (issue 19 goal 1): the
spill references kept flat, the fresh results sharing their extraction's path, one empty chunk list
and one language string for every file, the package prefixes held once; and the run's index equal
to one built without these savings (the watch path and a second run alike)."""

from __future__ import annotations

import sys

from indexer.compact import EMPTY, compact_extraction
from indexer.discovery import discover
from indexer.extraction import ExtractStage, extract_file_packed
from indexer.incremental import RepositoryIndex
from indexer.model import FileExtraction, TypeUse
from indexer.parked import ParkedDataError, ParkedList
from indexer.pipeline import index_repository
from indexer.resolve.repository import RepositoryResolver
from indexer.run import IndexOptions, IndexReport, NoProgress
from indexer.spill import SpillFile
from stores.embedded import EmbeddedStore
from tests.index_dump import calls, dump


def _tree(root):
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "sub" / "models.py").write_text(
        "class Owner:\n    def save(self):\n        return 1\n", encoding="utf-8")
    (root / "pkg" / "views.py").write_text(
        "from pkg.sub.models import Owner\n\n\ndef show():\n    return Owner().save()\n", encoding="utf-8")
    return root


class TestFlatReferences:
    def test_a_parked_list_keeps_offset_and_length_as_one_int_not_a_tuple(self):
        spill = SpillFile()
        spill.put(b"x" * 300)  # the list lands past offset 256
        uses = [TypeUse(owner="A.f", type="Owner", line=2, col=8)]
        parked = ParkedList.park(spill, uses)
        assert (parked.offset, parked.size) == parked.ref
        assert parked.offset == 300 and parked.size == len(spill.get(parked.ref))
        assert not hasattr(parked, "__dict__") and set(type(parked).__slots__) == {"spill", "_at", "_len"}
        assert type(parked._at) is int and parked._at == 300 << 32 | parked.size  # one int, not two
        assert list(parked) == uses and len(parked) == 1

    def test_a_reference_too_long_for_one_int_is_kept_as_given(self):
        spill = SpillFile()
        big = ParkedList(spill, (7, 1 << 32), 3)  # a pickle of 4 GiB: never real, but not folded wrongly
        assert big.ref == (7, 1 << 32) and (big.offset, big.size) == (7, 1 << 32)
        edge = ParkedList(spill, ((1 << 40) + 5, (1 << 32) - 1), 1)  # the largest size that folds
        assert edge.ref == ((1 << 40) + 5, (1 << 32) - 1) and type(edge._at) is int

    def test_a_flat_reference_pointing_elsewhere_still_refuses_to_read(self):
        spill = SpillFile()
        first = ParkedList.park(spill, [1, 2])
        wrong = ParkedList(spill, (first.offset + 1, first.size - 1), 2)
        try:
            list(wrong)
        except ParkedDataError as exc:
            assert f"({first.offset + 1}, {first.size - 1})" in str(exc)
        else:
            raise AssertionError("a reference into the middle of a pickle read back")

    def test_a_spilled_result_keeps_spill_offset_and_length_and_the_shared_empty_list(self, tmp_path):
        _tree(tmp_path)
        sf = next(f for f in discover(tmp_path).files if f.path == "pkg/views.py")
        item = extract_file_packed((sf, "r", "r", 1 << 20, False, None))
        spill = SpillFile()
        item.spill(spill)
        held, offset, length = item.spilled
        assert held is spill and isinstance(offset, int) and length == spill.size - offset
        assert item.chunks is EMPTY and item.text == "" and item.payload is None
        text, chunks = item.text_chunks()
        assert text.startswith("from pkg.sub.models import Owner") and [c.name for c in chunks] != []
        item.release()
        assert item.chunks is EMPTY and item.spilled is None and item.text_chunks() == ("", [])


class TestSharedStrings:
    def test_fresh_results_share_their_extraction_path(self, tmp_path):
        _tree(tmp_path)
        files = discover(tmp_path).files
        stage = ExtractStage(IndexOptions(repo="r", jobs=1), "r", park=SpillFile())
        loaded, current = [], set()
        fresh = stage.run(files, set(), IndexReport("r", str(tmp_path)), NoProgress(), current, loaded)
        assert sorted(fresh) == ["pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/models.py", "pkg/views.py"]
        by_path = {ex.path: ex for ex, _, _ in loaded}
        for path, item in fresh.items():
            assert item.path is by_path[path].path and item.checksum is next(cs for ex, cs, _ in loaded if ex.path == path)
        assert current == set(fresh)

    def test_compacted_extractions_share_one_language_string(self):
        a = compact_extraction(FileExtraction(path="a.py", language="".join(["pyth", "on"])))
        b = compact_extraction(FileExtraction(path="b.py", language="".join(["py", "thon"])))
        c = compact_extraction(FileExtraction(path="c.ts", language="".join(["type", "script"])))
        assert a.language is b.language is sys.intern("python")
        assert c.language == "typescript" and c.language is not a.language

    def test_package_prefixes_are_one_string_for_the_set_and_the_count(self, tmp_path):
        _tree(tmp_path)
        r = RepositoryResolver("r")
        items = []
        for sf in discover(tmp_path).files:
            item = extract_file_packed((sf, "r", "r", 1 << 20, False, None))
            items.append((item.unpack_extraction(), item.checksum, item.size))
        r.update(items, [])
        r.resolve(sorted(p for p in r.files))
        tables = r._resolver.tables
        ns = "python"
        assert sorted(tables.packages[ns]) == ["pkg", "pkg.sub", "pkg.sub.models", "pkg.views"]
        assert "pkg.sub.models.Owner" not in tables.packages[ns]  # a class is no package
        assert tables._package_files is None  # an add-only resolver counts nothing (session 62)
        tables.count_packages(r._resolver.files)  # what a removal counts first
        counts = {k[1]: v for k, v in tables._package_files.items() if k[0] == ns}
        assert counts == {"pkg": 4, "pkg.sub": 2, "pkg.sub.models": 1, "pkg.views": 1}
        in_set = {p: p for p in tables.packages[ns]}
        for (_, prefix) in tables._package_files:
            assert prefix is in_set[prefix]  # the same object, not an equal copy
        fc = r.files["pkg/sub/models.py"]
        assert in_set["pkg.sub.models"] is fc.module_key


class TestSameIndex:
    def test_a_one_shot_run_writes_what_the_watch_path_writes(self, tmp_path):
        _tree(tmp_path / "src")
        one = EmbeddedStore(str(tmp_path / "one.db"))
        index_repository(tmp_path / "src", one, one, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / "s1")))
        one.close()
        two = EmbeddedStore(str(tmp_path / "two.db"))
        watch = RepositoryIndex(tmp_path / "src", two, two, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / "s2")))
        watch.sync()
        watch.close()
        two.close()
        assert dump(tmp_path / "one.db") == dump(tmp_path / "two.db")
        assert calls(tmp_path / "one.db") == ["pkg/views.show(0) -> pkg/sub/models.Owner [exact]",
                                              "pkg/views.show(0) -> pkg/sub/models.Owner.save(0) [exact]"]
        # nothing calls into the views module, and the class does not call its own method
        assert not any(c.startswith("pkg/sub/models") or "-> pkg/views" in c for c in calls(tmp_path / "one.db"))


_DJANGO = {
    "app/__init__.py": "",
    "app/models.py": "from django.db import models\n\n\nclass Note(models.Model):\n    title = models.CharField(max_length=9)\n",
    "app/views.py": "from app.models import Note\n\n\ndef show(request):\n    return Note.objects.filter(title='a')\n",
    "app/other.py": "from app.models import Note\n\n\ndef count():\n    return Note.objects.count()\n",
    "app/urls.py": "from django.urls import path\nfrom app import views\n\nurlpatterns = [path('notes/', views.show)]\n",
}


class TestOneShotLink:
    def _index(self, root, db, one_shot, monkeypatch):
        import indexer.resolve.repository as repository
        memos = []
        real = self.real = getattr(self, "real", repository.link_frameworks)  # not the spy of an earlier call

        def spy(resolver, ctxs, options=None, produce=None, memo=None):
            memos.append(memo)
            return real(resolver, ctxs, options, produce, memo)

        monkeypatch.setattr(repository, "link_frameworks", spy)
        store = EmbeddedStore(str(db))
        index = RepositoryIndex(root, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(db) + ".state"))
        index.skip_unchanged = one_shot
        try:
            index.sync()
        finally:
            index.close()
            store.close()
        return memos

    def test_a_one_shot_link_records_nothing_to_replay_and_links_the_same(self, tmp_path, monkeypatch):
        for rel, text in _DJANGO.items():
            (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / "src" / rel).write_text(text, encoding="utf-8")
        once = self._index(tmp_path / "src", tmp_path / "once.db", True, monkeypatch)
        watched = self._index(tmp_path / "src", tmp_path / "watched.db", False, monkeypatch)
        assert once == [None]  # the one-shot run's resolver is dropped after its one link
        assert len(watched) == 1 and watched[0] is not None and watched[0].misses["tables"] == 2
        assert dump(tmp_path / "once.db") == dump(tmp_path / "watched.db")
        reads = sorted((e[0], e[1], e[2]) for e in dump(tmp_path / "once.db")["edges"] if e[0] in ("READS", "EXPOSES"))
        assert reads == [("EXPOSES", "r:app/views.show(1)", "endpoint:* /notes"),
                         ("READS", "r:app/other.count(0)", "table:r:.app_note"),
                         ("READS", "r:app/views.show(1)", "table:r:.app_note")]
        assert not any(e[1].startswith("r:app/urls") and e[0] == "READS" for e in dump(tmp_path / "once.db")["edges"])
