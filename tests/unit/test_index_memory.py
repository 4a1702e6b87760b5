"""The memory-bounding pieces of an index run (issue 19 goal 1): call sites kept packed
(:mod:`indexer.packed`), the write in bounded batches inside one store transaction
(:meth:`stores.embedded_tx.EmbeddedTransactions.transaction`, :class:`indexer.writer.IndexWriter`),
worker results pickled once (:class:`indexer.extraction.Extracted`) and the per-run memory budget
(:class:`indexer.run.IndexOptions`), and what waits for the write on disk instead of in memory
(:mod:`indexer.spill`: extracted text and chunks, the resolver's outputs)."""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import pickle
import sqlite3
from pathlib import Path

import pytest

from indexer.discovery import discover
from indexer.extract_cache import ExtractionCache
from indexer.extraction import extract_file, extract_file_packed
from indexer.languages import extractor_for_path
from indexer.model import CallSite
from indexer.packed import PackedCalls, pack_calls
from indexer.pipeline import index_repository
from indexer.resolve.repository import RepositoryResolver
from indexer.run import DEFAULT_MEMORY_BUDGET_MIB, IndexOptions
from indexer.spill import SpilledOutputs, SpillFile, spill_file
from stores.contracts import Edge, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore
from stores.embedded_tx import WRITE_CACHE_KIB
from tests.index_dump import dump


def _calls() -> list[CallSite]:
    return [CallSite(name="save", caller="m.f", line=3, col=4, arity=1, receiver="self"),
            CallSite(name="load", caller=None, line=9, col=0, arity=0, receiver=None)]


class TestPackedCalls:
    def test_reads_as_the_list_it_packs(self):
        calls = _calls()
        packed = PackedCalls(calls)
        assert len(packed) == 2 and list(packed) == calls and packed[1] == calls[1] and packed[:1] == calls[:1]
        assert packed == calls and calls == packed and packed == PackedCalls(calls)
        assert packed != calls[:1] and packed != [] and packed != "save"
        assert [c.name for c in packed] == ["save", "load"]

    def test_pickles_as_its_blob_and_is_packed_once(self):
        packed = PackedCalls(_calls())
        again = pickle.loads(pickle.dumps(packed, protocol=pickle.HIGHEST_PROTOCOL))
        assert isinstance(again, PackedCalls) and again.blob == packed.blob and again == _calls()
        assert pack_calls(packed) is packed
        assert isinstance(pack_calls(_calls()), PackedCalls)
        assert PackedCalls() == [] and len(PackedCalls()) == 0


def _tree(root: Path) -> Path:
    """A doc that names symbols of files written after it (path order), code calling across files."""
    (root / "pkg").mkdir(parents=True)
    (root / "a_notes.md").write_text("# Notes\n\nSee `OrderService` and `pkg.zeta.compute_total`.\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "alpha.py").write_text(
        "from pkg.zeta import compute_total\n\n\ndef run():\n    return compute_total(2)\n", encoding="utf-8")
    (root / "pkg" / "zeta.py").write_text(
        "class OrderService:\n    def total(self):\n        return compute_total(1)\n\n\n"
        "def compute_total(x):\n    return x * 2\n", encoding="utf-8")
    return root


class TestBatchedWrite:
    def test_one_file_per_batch_writes_what_one_batch_writes(self, tmp_path, monkeypatch):
        src = _tree(tmp_path / "src")
        dbs = {}
        for name, budget_bytes in (("one", 1 << 30), ("per_file", 1)):
            monkeypatch.setattr(IndexOptions, "write_batch_bytes", lambda self, b=budget_bytes: b)
            db = tmp_path / f"{name}.db"
            store = EmbeddedStore(db)
            calls: list[int] = []
            original = store.replace_files
            monkeypatch.setattr(store, "replace_files", lambda files, c=calls, o=original: (c.append(len(files)), o(files))[1])
            index_repository(src, store, store, IndexOptions(repo="r", state_dir=str(tmp_path / f"state-{name}")))
            store.close()
            dbs[name] = (dump(db), calls)
        (one, one_calls), (per_file, per_file_calls) = dbs["one"], dbs["per_file"]
        assert one_calls == [4] and per_file_calls == [1, 1, 1, 1]
        assert one == per_file
        mentions = sorted((e[1], e[2]) for e in per_file["edges"] if e[0] == "MENTIONS")
        # The doc is written first, the nodes it names last: found all the same.
        assert mentions == [("r:a_notes.md", "r:pkg/zeta.OrderService"), ("r:a_notes.md", "r:pkg/zeta.compute_total(1)")]

    def test_spilled_outputs_summarised_are_read_once_by_the_write_and_written_alike(self, tmp_path, monkeypatch):
        """The writer's first pass takes each spilled output's digest, File node id and mention names
        from the summary made when it was spilled (its mention keys spilled beside it): one read less per output, the same index, and on
        a second run after one edit only that file is written (the summaries' digests are those the
        index holds)."""
        src = _tree(tmp_path / "src")
        reads: dict[str, list[str]] = {}
        load = SpilledOutputs._load
        results = {}
        for name in ("summarised", "read"):
            if name == "read":
                monkeypatch.setattr(SpilledOutputs, "summary", lambda self, i: None)
            got = reads[name] = []
            monkeypatch.setattr(SpilledOutputs, "_load", lambda self, i, g=got: (g.append(self.paths[i]), load(self, i))[1])
            db = tmp_path / f"{name}.db"
            store = EmbeddedStore(db)
            calls: list[list[str]] = []
            original = store.replace_files
            monkeypatch.setattr(store, "replace_files",
                                lambda files, c=calls, o=original: (c.append([f.file.path for f in files]), o(files))[1])
            opts = IndexOptions(repo="r", state_dir=str(tmp_path / f"state-{name}"))
            index_repository(src, store, store, opts)
            first, first_reads = dump(db), sorted(got)
            zeta = src / "pkg" / "zeta.py"
            text = zeta.read_text(encoding="utf-8")
            zeta.write_text(text.replace("return x * 2", "return x * 3"), encoding="utf-8")
            index_repository(src, store, store, opts)
            zeta.write_text(text, encoding="utf-8")
            store.close()
            results[name] = (first, dump(db), calls, first_reads)
        summarised, read = results["summarised"], results["read"]
        assert summarised[:2] == read[:2] and summarised[0] != summarised[1]
        files = ["a_notes.md", "pkg/__init__.py", "pkg/alpha.py", "pkg/zeta.py"]
        assert summarised[2] == read[2] == [files, ["pkg/zeta.py"]]
        # Without summaries each output is read to compare its digest, then to be written; with them
        # only to be written (the doc's mentions read the keys spilled beside them, not the outputs).
        assert read[3] == sorted([*files, *files])
        assert summarised[3] == sorted(files)

    def test_outputs_the_linker_extended_are_read_once_when_the_index_has_none_of_them(self, tmp_path, monkeypatch):
        """An output the framework linker extended after it was spilled has no summary; when the
        index holds no File node of it (a first index) it is written whatever its digest, so the
        first pass does not read it: its digest is made when it is read to be written, its mention
        keys are those it was spilled with and its added nodes' (the Table node here, which the doc
        mentions). The same index as reading it twice; on the next run, after an edit elsewhere,
        it is read to compare its digest with the index's and not written."""
        src = tmp_path / "src"
        src.mkdir()
        (src / "app.py").write_text('from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route("/orders")\n'
                                    'def orders():\n    """The orders."""\n    return "x"\n', encoding="utf-8")
        (src / "client.py").write_text('import requests\n\n\ndef fetch():\n'
                                       '    return requests.get("http://localhost:5000/orders")\n', encoding="utf-8")
        (src / "store.py").write_text('def totals(conn):\n    return conn.execute("SELECT id, total FROM invoices").fetchall()\n',
                                      encoding="utf-8")
        (src / "notes.md").write_text("# Notes\n\nThe `invoices` table.\n", encoding="utf-8")
        monkeypatch.setattr(IndexOptions, "write_batch_bytes", lambda self: 1)  # the doc in a batch of its own
        load = SpilledOutputs._load
        results = {}
        for name in ("grown", "read"):
            if name == "read":  # as before: every extended output read to be digested, then to be written
                monkeypatch.setattr(SpilledOutputs, "extended", lambda self, i: None)
            got: list[str] = []
            monkeypatch.setattr(SpilledOutputs, "_load", lambda self, i, g=got: (g.append(self.paths[i]), load(self, i))[1])
            db = tmp_path / f"{name}.db"
            store = EmbeddedStore(db)
            calls: list[list[str]] = []
            original = store.replace_files
            monkeypatch.setattr(store, "replace_files",
                                lambda files, c=calls, o=original: (c.append([f.file.path for f in files]), o(files))[1])
            opts = IndexOptions(repo="r", state_dir=str(tmp_path / f"state-{name}"))
            index_repository(src, store, store, opts)
            first, first_reads = dump(db), sorted(got)
            got.clear()
            app = src / "app.py"
            text = app.read_text(encoding="utf-8")
            app.write_text(text.replace("The orders.", "Every order."), encoding="utf-8")
            # other link options: every file bound and linked again, the outputs spilled
            index_repository(src, store, store, dataclasses.replace(opts, http_services={"billing": "billing"}))
            app.write_text(text, encoding="utf-8")
            store.close()
            results[name] = (first, dump(db), [p for batch in calls for p in batch], first_reads, sorted(got))
        grown, read = results["grown"], results["read"]
        assert grown[:3] == read[:3]  # both indexes, digests included, and what each run wrote
        assert grown[2] == ["app.py", "client.py", "notes.md", "store.py", "app.py"]
        edges = {(e[0], e[1], e[2]) for e in grown[0]["edges"] if e[0] != "CONTAINS"}
        assert edges == {("EXPOSES", "r:app.orders(0)", "endpoint:GET /orders"),
                         ("CALLS_HTTP", "r:client.fetch(0)", "endpoint:GET /orders"),
                         ("READS", "r:store.totals(1)", "table:r:.invoices"),
                         ("MENTIONS", "r:notes.md", "table:r:.invoices")}
        assert grown[3] == ["app.py", "client.py", "notes.md", "store.py"]  # each read once, to be written
        assert read[3] == ["app.py", "app.py", "client.py", "client.py", "notes.md", "store.py", "store.py"]
        # the second run (every file bound again): the extended outputs the index
        # holds are read to compare their digests; only app.py (edited) is written, and read again for that
        assert grown[4] == read[4] == ["app.py", "app.py", "client.py", "store.py"]

    def test_a_failing_batch_leaves_the_index_as_it_was(self, tmp_path, monkeypatch):
        src = _tree(tmp_path / "src")
        db = tmp_path / "index.db"
        store = EmbeddedStore(db)
        index_repository(src, store, store, IndexOptions(repo="r", state_dir=str(tmp_path / "state")))
        before = dump(db)
        (src / "pkg" / "alpha.py").write_text("def run():\n    return 1\n", encoding="utf-8")
        (src / "pkg" / "zeta.py").write_text("def compute_total(x):\n    return x\n", encoding="utf-8")
        monkeypatch.setattr(IndexOptions, "write_batch_bytes", lambda self: 1)
        original = store.replace_files
        seen: list[str] = []

        def fail_second(files):
            seen.extend(f.file.path for f in files)
            if len(seen) > 1:
                raise RuntimeError("disk gone")
            original(files)

        monkeypatch.setattr(store, "replace_files", fail_second)
        with pytest.raises(RuntimeError, match="disk gone"):
            index_repository(src, store, store, IndexOptions(repo="r", state_dir=str(tmp_path / "state")))
        store.close()
        # a_notes.md names `OrderService`, which the edit removed from zeta.py: written again for its
        # mentions (indexer/mention_refresh.py), first in path order
        assert seen == ["a_notes.md", "pkg/alpha.py"]
        assert dump(db) == before  # the first batch was rolled back with the second


def _file(path: str) -> IndexedFile:
    return IndexedFile(FileRecord("r", path, "python", "c", 1), nodes=[Node(f"r:{path}", "File", path, path, "r", path, 1, 0, 1, 0)])


class TestStoreTransaction:
    def test_writes_inside_commit_together(self, tmp_path):
        db = tmp_path / "index.db"
        store = EmbeddedStore(db)
        reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        with store.transaction():
            store.replace_files([_file("a.py")])
            with store.transaction():  # nested: joins
                store.replace_files([_file("b.py")])
            assert reader.execute("SELECT count(*) FROM files").fetchone()[0] == 0  # nothing visible yet
            assert store.in_transaction()
        assert not store.in_transaction()
        assert reader.execute("SELECT path FROM files ORDER BY 1").fetchall() == [("a.py",), ("b.py",)]
        with pytest.raises(ValueError):
            with store.transaction():
                store.replace_files([_file("c.py")])
                raise ValueError("boom")
        assert reader.execute("SELECT path FROM files ORDER BY 1").fetchall() == [("a.py",), ("b.py",)]
        store.replace_files([_file("d.py")])  # outside: its own transaction again
        assert reader.execute("SELECT count(*) FROM files").fetchone()[0] == 3
        store.close()

    def test_the_page_cache_is_smaller_while_a_transaction_writes(self, tmp_path):
        store = EmbeddedStore(tmp_path / "index.db")
        size = store._conn.execute("PRAGMA cache_size").fetchone()[0]
        assert size == -65536
        with store.transaction():
            store.replace_files([_file("a.py")])
            assert store._conn.execute("PRAGMA cache_size").fetchone()[0] == -WRITE_CACHE_KIB == -4096
        assert store._conn.execute("PRAGMA cache_size").fetchone()[0] == size
        with pytest.raises(ValueError), store.transaction():
            raise ValueError("boom")
        assert store._conn.execute("PRAGMA cache_size").fetchone()[0] == size  # put back after a rollback too
        store.close()


class TestWorkerResults:
    def test_a_packed_result_carries_the_cached_pickle(self, tmp_path):
        (tmp_path / "src").mkdir()
        (tmp_path / "src" / "m.py").write_text("def f():\n    return g(1)\n\n\ndef g(x):\n    return x\n", encoding="utf-8")
        sf = discover(tmp_path / "src").files[0]
        cache_dir = str(tmp_path / "cache")
        plain = extract_file((sf, "r", "r", 1 << 20, False, None))
        packed = extract_file_packed((sf, "r", "r", 1 << 20, True, cache_dir))
        assert packed.extraction is None and packed.blob is not None and packed.payload is not None
        assert packed.text == "" and packed.chunks == []
        cached = ExtractionCache(cache_dir).get("m.py", packed.checksum)
        assert cached is not None and pickle.dumps(cached, protocol=pickle.HIGHEST_PROTOCOL) == packed.blob
        ex = packed.unpack_extraction()
        assert ex is not None and ex.id_path == "m.py" and packed.blob is None
        assert isinstance(ex.calls, PackedCalls) and [c.name for c in ex.calls] == ["g"]
        text, chunks = packed.text_chunks()
        assert text == plain.text and [c.id for c in chunks] == [c.id.replace("r:m.", "r:m.py.", 1) for c in plain.chunks]
        packed.release()
        assert packed.payload is None and packed.text_chunks() == ("", [])

    def test_a_skipped_file_stays_skipped_packed(self, tmp_path):
        (tmp_path / "src").mkdir()
        (tmp_path / "src" / "m.py").write_text("x = 1\n", encoding="utf-8")
        sf = discover(tmp_path / "src").files[0]
        (tmp_path / "src" / "m.py").unlink()
        result = extract_file_packed((sf, "r", "r", 1 << 20, False, None))
        assert result.skip_reason is not None and result.unpack_extraction() is None


class TestBudget:
    def test_jobs_and_batches_follow_the_budget(self):
        assert IndexOptions(repo="r").extraction_jobs(8) == 8  # no budget: one worker per core
        assert IndexOptions(repo="r", jobs=3).extraction_jobs(8) == 3
        assert IndexOptions(repo="r", memory_budget_mib=400).extraction_jobs(8) == 2
        assert IndexOptions(repo="r", memory_budget_mib=150).extraction_jobs(8) == 1
        assert IndexOptions(repo="r", memory_budget_mib=4000, jobs=3).extraction_jobs(8) == 3
        assert IndexOptions(repo="r").write_batch_bytes() == (DEFAULT_MEMORY_BUDGET_MIB << 20) // 400 == 1 << 20
        assert IndexOptions(repo="r", memory_budget_mib=4000).write_batch_bytes() == (4000 << 20) // 400
        assert IndexOptions(repo="r", memory_budget_mib=40).write_batch_bytes() == 256 << 10


class TestSpill:
    def test_bytes_come_back_where_they_were_put(self):
        spill = SpillFile()
        first, second, empty = spill.put(b"alpha"), spill.put(b"\x00beta"), spill.put(b"")
        assert first == (0, 5) and second == (5, 5) and empty == (10, 0) and spill.size == 10
        assert spill.get(second) == b"\x00beta" and spill.get(first) == b"alpha" and spill.get(empty) == b""
        for bad in ((8, 5), (-1, 2), (0, -1)):
            with pytest.raises(ValueError):
                spill.get(bad)
        spill.close()
        with pytest.raises(ValueError):
            spill.get(first)

    def test_the_spill_file_goes_in_the_state_folder_else_the_temporary_one(self, tmp_path):
        state = tmp_path / "state" / "deep"
        spill = spill_file(str(state))
        assert state.is_dir() and spill.get(spill.put(b"x")) == b"x"
        blocked = tmp_path / "file"
        blocked.write_text("not a folder", encoding="utf-8")
        fallback = spill_file(str(blocked / "state"))  # cannot be made: the system's temporary folder
        assert fallback.get(fallback.put(b"y")) == b"y" and spill_file(None).size == 0

    def test_outputs_spilled_read_back_as_copies_kept_ones_as_themselves(self):
        outputs = SpilledOutputs()
        a, b = _file("a.py"), _file("b.py")
        outputs.append(a)
        outputs.append(b, keep=True)
        assert len(outputs) == 2 and outputs.paths == ["a.py", "b.py"] and outputs.spill.size > 0
        assert outputs[0] == a and outputs[0] is not a and outputs[1] is b and list(outputs) == [a, b]
        changed = outputs[0]
        changed.nodes.append(Node("r:a.f", "Function", "f", "f", "r", "a.py", 2, 0, 3, 0))
        assert outputs[0] == a  # a copy: the change is not kept ...
        outputs.replace(0, changed)
        assert outputs[0] == changed and outputs[:1] == [changed]  # ... unless put back
        assert outputs.paths == ["a.py", "b.py"]

    def test_what_extend_adds_to_a_spilled_output_is_read_with_it_and_never_spilled_again(self):
        outputs = SpilledOutputs()
        a, b = _file("a.py"), _file("b.py")
        outputs.append(a)
        outputs.append(b, keep=True)
        size = outputs.spill.size
        route = Node("r:GET /x", "Endpoint", "GET /x", "GET /x", "", "", 0, 0, 0, 0)
        exposes = Edge("EXPOSES", "r:a.f", "r:GET /x", "r", "a.py", 3, 4, props={"framework": "flask"})
        outputs.extend(0, [route], [exposes])
        outputs.extend(0, [], [Edge("WRAPS", "r:a.g", "r:GET /x", "r", "a.py")])
        outputs.extend(0, [], [])
        assert outputs.spill.size == size  # nothing read back and written again
        first = outputs[0]
        assert first.nodes == [*a.nodes, route] and [e.kind for e in first.edges] == ["EXPOSES", "WRAPS"]
        assert first.edges[0] == exposes and first.edges[0].props == {"framework": "flask"}
        first.edges[0].props["framework"] = "changed"
        first.nodes.append(route)
        again = outputs[-2]  # a new copy each read, extras included
        assert again == outputs[0] != first and again.edges[0].props == {"framework": "flask"}
        assert list(outputs)[0] == again and outputs[:1] == [again]
        outputs.extend(1, [route], [])  # kept in memory: extended in place
        assert outputs[1] is b and b.nodes[-1] == route
        outputs.replace(0, a)  # a whole new output: what extend added to the old one goes
        assert outputs[0] == a and len(outputs[0].edges) == 0
        with pytest.raises(IndexError):
            outputs[2]
        with pytest.raises(IndexError):
            outputs.extend(2, [route], [])

    def test_a_summary_describes_the_output_as_spilled_until_it_is_extended(self):
        outputs = SpilledOutputs(summarise=lambda out: ((out.file.path, len(out.nodes)),
                                                         out.file.path.encode() if out.file.path != "a.py" else None))
        outputs.append(_file("a.py"))
        outputs.append(_file("b.py"), keep=True)
        outputs.append(_file("c.py"))
        assert [outputs.summary(i) for i in range(2)] == [(("a.py", 1), None), None]  # a.py: no record
        value, ref = outputs.summary(2)
        assert value == ("c.py", 1) and outputs.spill.get(ref) == b"c.py"  # the record beside it
        outputs.extend(2, [], [])  # nothing added: still true
        assert outputs.summary(2) == (("c.py", 1), ref)
        outputs.extend(2, [Node("r:c.f", "Function", "f", "f", "r", "c.py", 2, 0, 3, 0)], [])
        assert outputs.summary(2) is None and len(outputs[2].nodes) == 2
        outputs.replace(2, outputs[2])  # spilled again whole: summarised again
        assert outputs.summary(2)[0] == ("c.py", 2) and len(outputs[2].nodes) == 2
        plain = SpilledOutputs()
        plain.append(_file("a.py"))
        assert plain.summary(0) is None

    def test_an_extended_output_keeps_the_summary_it_was_spilled_with_and_its_additions(self):
        outputs = SpilledOutputs(summarise=lambda out: ((out.file.path, len(out.nodes)), out.file.path.encode()))
        outputs.append(_file("a.py"))
        outputs.append(_file("b.py"), keep=True)
        outputs.append(_file("c.py"))
        spilled_with = outputs.summary(0)
        assert [outputs.extended(i) for i in range(3)] == [None, None, None]  # nothing added yet
        outputs.extend(0, [], [])
        assert outputs.extended(0) is None  # nothing added: the summary still holds
        f = Node("r:a.f", "Function", "f", "f", "r", "a.py", 2, 0, 3, 0)
        t = Node("table:r:.t", "Table", "t", "t", "", "", 0, 0, 0, 0)
        e = Edge("READS", "r:a.f", "table:r:.t", "r", "a.py", 2, 0)
        outputs.extend(0, [f], [])
        outputs.extend(0, [t], [e])
        outputs.extend(1, [f], [])  # kept in memory: extended in place, no summary ever
        assert outputs.summary(0) is None and outputs.extended(0) == (spilled_with, [f, t])
        assert outputs.extended(1) is None and outputs.extended(2) is None
        assert outputs[0].nodes[1:] == [f, t] and outputs[0].edges == [e]
        outputs.replace(0, outputs[0])  # spilled again whole: summarised again, no longer extended
        assert outputs.extended(0) is None and outputs.summary(0)[0] == ("a.py", 3)

    def test_an_output_summarised_elsewhere_is_added_as_given_and_never_unpickled(self):
        outputs = SpilledOutputs(summarise=lambda out: pytest.fail("summarised here"))
        blob = pickle.dumps(_file("a.py"))
        outputs.append_summarised("a.py", blob, ("digest", "r:a.py"), b"keys")
        outputs.append_summarised("b.py", b"not a pickle", ("other", "r:b.py"), None)  # not read here
        assert outputs.paths == ["a.py", "b.py"]
        value, ref = outputs.summary(0)
        assert value == ("digest", "r:a.py") and outputs.spill.get(ref) == b"keys"
        assert outputs.summary(1) == (("other", "r:b.py"), None)
        assert outputs[0] == _file("a.py")

    def test_extracted_text_and_chunks_wait_in_the_spill_file(self, tmp_path):
        (tmp_path / "src").mkdir()
        (tmp_path / "src" / "m.py").write_text("def f():\n    return 1\n", encoding="utf-8")
        sf = discover(tmp_path / "src").files[0]
        plain = extract_file((sf, "r", "r", 1 << 20, False, None))
        item = extract_file_packed((sf, "r", "r", 1 << 20, False, None))
        spill = SpillFile()
        item.spill(spill)
        assert item.payload is None and item.spilled is not None and spill.size > 0
        assert item.text_chunks() == (plain.text, plain.chunks) and item.text_chunks()[1] != []
        item.release()
        assert item.spilled is None and item.text_chunks() == ("", [])


def _fixture_extractions(name: str) -> list[tuple]:
    root = Path(__file__).resolve().parent.parent / "fixtures" / name
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        extractor = extractor_for_path(rel)
        if extractor is None:
            continue
        data = path.read_bytes()
        out.append((extractor.extract(rel, data), hashlib.sha256(data).hexdigest(), len(data)))
    return out


class TestSpilledResolve:
    def test_spilled_outputs_equal_the_outputs_in_memory(self):
        extractions = _fixture_extractions("wrappers-fastapi")
        paths = sorted(ex.path for ex, _, _ in extractions)
        plain_resolver, spilled_resolver = RepositoryResolver("t"), RepositoryResolver("t")
        plain_resolver.update(extractions)
        spilled_resolver.update(_fixture_extractions("wrappers-fastapi"))
        spill = SpillFile()
        puts = []
        put = spill.put
        spill.put = lambda data: puts.append(len(data)) or put(data)  # type: ignore[method-assign]
        plain, spilled = plain_resolver.resolve(paths), spilled_resolver.resolve(paths, spill=spill)
        assert isinstance(spilled.files, SpilledOutputs) and isinstance(plain.files, list)
        assert len(puts) == len(paths)  # each output spilled once, the linker's additions beside it
        assert list(spilled.files) == plain.files and spilled.call_outcomes == plain.call_outcomes
        assert spilled.link_outcomes == plain.link_outcomes
        kinds = {e.kind for out in plain.files for e in out.edges}
        assert {"EXPOSES", "WRAPS"} <= kinds  # the linker extended some outputs after they were made
        spilled_resolver.drop_tables()  # rebuilt on demand: the next resolve answers the same
        assert list(spilled_resolver.resolve(paths, spill=SpillFile()).files) == plain.files


class _FullDisk:
    """A spill file's handle whose writes fail with ENOSPC once ``full`` is set (reads keep working)."""

    def __init__(self, fh) -> None:
        self.fh, self.full = fh, False

    def write(self, data: bytes) -> int:
        if self.full:
            raise OSError(28, "No space left on device")
        return self.fh.write(data)

    def __getattr__(self, name: str):
        return getattr(self.fh, name)


def test_a_full_spill_folder_moves_the_spill_file_and_loses_nothing(tmp_path: Path) -> None:
    from indexer.spill import SpillFile

    spill = SpillFile(str(tmp_path))
    handle = _FullDisk(spill._fh)
    spill._fh = handle
    first = spill.put(b"first")
    handle.full = True
    second = spill.put(b"second" * 1000)  # refused by the cache folder: goes on in the temporary folder
    assert (spill.get(first), spill.get(second)) == (b"first", b"second" * 1000)
    assert spill._where == "temp"
    spill._fh = _FullDisk(spill._fh)
    spill._fh.full = True
    tempfile_full = spill.put(b"third")  # the temporary folder is full too: memory
    assert spill._where == "memory"
    assert [spill.get(r) for r in (first, second, tempfile_full)] == [b"first", b"second" * 1000, b"third"]
    spill.close()



def test_a_spill_file_moves_when_the_disk_refuses_what_it_buffered(tmp_path: Path) -> None:
    """The disk refuses the bytes when the buffer is flushed, not when it is written to: a small
    put (under the buffer's size) leaves them in the handle's buffer, and every later seek, flush or
    close of that handle tries to write them again. With file sizes limited to 64 KiB (the state
    folder and the temporary folder both refuse, as a full disk does) a run of small puts must end
    in memory with nothing lost, ``get`` and ``close`` included, not raise ENOSPC (EFBIG here)."""
    import resource
    import signal

    from indexer.spill import SpillFile

    limit = 64 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of the signal's kill
    spill = SpillFile(str(tmp_path))
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
        refs = [(spill.put(bytes([i % 251]) * 1000), bytes([i % 251]) * 1000) for i in range(150)]
        assert spill._where == "memory"
        assert all(spill.get(ref) == data for ref, data in refs)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
    spill.close()


def _live_binding_state() -> tuple[int, int]:
    """(``Resolver`` objects, ``FileCtx`` objects still holding their definitions) the collector tracks now."""
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

    objs = gc.get_objects()
    return (sum(1 for o in objs if type(o) is Resolver),
            sum(1 for o in objs if type(o) is FileCtx and getattr(o, "defs", None)))


def test_a_one_shot_run_frees_what_it_bound_before_the_write(tmp_path: Path, monkeypatch) -> None:
    """The lookup tables, contexts and definitions a one-shot run lets go hold each other in cycles:
    they must be gone when the write starts (its rows come on top of what is left), not at the next
    full collection. Automatic collection off, so that only what the run itself frees counts."""
    from indexer.writer import IndexWriter

    seen: list[tuple[int, int]] = []
    write = IndexWriter.write

    def spy(self, *args, **kwargs):
        seen.append(_live_binding_state())
        return write(self, *args, **kwargs)

    monkeypatch.setattr(IndexWriter, "write", spy)
    root = _tree(tmp_path / "repo")
    store = EmbeddedStore(str(tmp_path / "i.db"))
    gc.collect()
    assert _live_binding_state() == (0, 0)
    enabled = gc.isenabled()
    gc.disable()
    try:
        report = index_repository(root, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / "st")))
    finally:
        if enabled:
            gc.enable()
    store.close()
    assert report.files_written == 4
    assert seen == [(0, 0)]
