"""SpilledOutputs keeps its bookkeeping as columns (session 61, mem61a): what it holds per output
through the resolve, the summaries read back as they were given, and the writer's compact summary."""

from __future__ import annotations

import hashlib
import pickle
import tracemalloc

import pytest

from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.tracking import record_tokens
from indexer.spill import SpilledOutputs, SpillFile, packed_ref, unpacked_ref
from indexer.writer import IndexWriter, output_digest
from stores.contracts import FileRecord, IndexedFile, Node, SymbolKey
from tests.resolution_harness import extract_fixture

FIXTURE = """
# --- path: a.py ---
def f():
    return 1
# --- path: b.py ---
from a import f


def g():
    f()
"""


def _file(path: str, nodes: int = 1) -> IndexedFile:
    extra = [Node(f"r:{path}.f{i}", "Function", f"f{i}", f"f{i}", "r", path, 2, 0, 3, 0) for i in range(nodes - 1)]
    return IndexedFile(FileRecord("r", path, "python", "c", 1),
                       nodes=[Node(f"r:{path}", "File", path, path, "r", path, 1, 0, 1, 0), *extra])


def _digest(out: IndexedFile) -> bytes:
    return hashlib.sha256(out.file.path.encode()).digest()


def test_each_summarised_output_costs_its_value_and_a_few_integers():
    """2,000 outputs spilled with a 32-byte value and a record each: what the sequence holds grows by
    the value (a 32-byte bytes object, 65 bytes), a list slot, the path's slot and four 8-byte
    integers, about 115 bytes an output (the reference and summary tuples made it 323: session 61)."""
    outputs = SpilledOutputs(SpillFile(), summarise=lambda out: (_digest(out), out.file.path.encode()))
    files = [_file(f"pkg/m{i}.py") for i in range(2000)]
    blobs = [pickle.dumps(f) for f in files]
    outputs.append(files[0], blob=blobs[0])  # the lists' first growth
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for f, blob in zip(files[1:], blobs[1:], strict=True):
            outputs.append(f, blob=blob)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename")
                if not s.traceback[0].filename.endswith("tracemalloc.py"))
    assert 97 <= grown / 1999 < 140  # the value (65) and the columns (32: 4 integers) at least; 323 before
    assert outputs.summary(1999) == (_digest(files[1999]), outputs.summary(1999)[1])
    assert outputs.spill.get(outputs.summary(1999)[1]) == b"pkg/m1999.py"


def test_columns_give_back_what_each_output_was_given():
    outputs = SpilledOutputs(SpillFile(), summarise=lambda out: (
        None if out.file.path == "none.py" else out.file.path, b"keys" if out.file.path != "bare.py" else None))
    outputs.append(_file("a.py"))
    outputs.append(_file("kept.py"), keep=True)
    outputs.append(_file("bare.py"))
    outputs.append(_file("none.py"))
    outputs.append_summarised("other.py", pickle.dumps(_file("other.py", 2)), ("v", 1), None)
    assert outputs.paths == ["a.py", "kept.py", "bare.py", "none.py", "other.py"] and len(outputs) == 5
    value, ref = outputs.summary(0)
    assert value == "a.py" and outputs.spill.get(ref) == b"keys"
    assert outputs.summary(1) is None and outputs[1] is outputs[-4]  # kept: itself, never summarised
    assert outputs.summary(2) == ("bare.py", None)  # a summary without a record
    assert outputs.summary(3)[0] is None and outputs.summary(-2) == outputs.summary(3)  # a value None is a value
    assert outputs.summary(4) == (("v", 1), None) and len(outputs[4].nodes) == 2
    assert [o.file.path for o in outputs] == outputs.paths
    outputs.replace(1, _file("kept.py", 3))  # a kept output spilled: summarised, read back as a copy
    assert outputs.summary(1)[0] == "kept.py" and len(outputs[1].nodes) == 3 and outputs[1] is not outputs[1]
    outputs.replace(0, _file("a.py", 2), keep=True)  # a spilled one kept: no summary any more
    assert outputs.summary(0) is None and len(outputs[0].nodes) == 2
    for bad in (5, -6):
        with pytest.raises(IndexError):
            outputs.summary(bad)
        with pytest.raises(IndexError):
            outputs[bad]
        with pytest.raises(IndexError):
            outputs.extend(bad, [], [])


def test_handed_columns_pickle_and_read_alike():
    spill = SpillFile()
    outputs = SpilledOutputs(spill, summarise=lambda out: (out.file.path.encode(), None))
    outputs.append(_file("a.py"))
    outputs.append(_file("b.py"), keep=True)
    outputs.extend(0, [Node("r:t", "Table", "t", "t", "r", "a.py", 1, 0, 1, 0)], [])
    handed = pickle.loads(pickle.dumps(outputs.hand_over()))
    got = SpilledOutputs.taken_over(handed, spill)
    assert got.paths == ["a.py", "b.py"] and [len(o.nodes) for o in got] == [2, 1]
    assert got.summary(0) is None and got.extended(0) == ((b"a.py", None), [Node("r:t", "Table", "t", "t", "r", "a.py", 1, 0, 1, 0)])
    assert got.summary(1) is None and got.extended(1) is None


def test_the_writer_summary_is_the_digest_as_bytes_and_no_node_id(tmp_path):
    out = _file("pkg/m.py", 3)
    writer = IndexWriter.__new__(IndexWriter)  # summary reads the product only
    writer.product = "p"
    value, keys = writer.summary(out)
    assert value == bytes.fromhex(output_digest(out, "p")) and len(value) == 32
    assert [SymbolKey._make(k).name for k in pickle.loads(keys)] == ["f0", "f1"]  # the functions a mention may link to, not the File
    assert writer.summary(_file("pkg/n.py"))[1] is None


def test_a_reference_packs_into_one_integer_and_back():
    for ref in [(0, 0), (0, 1), (7, 300), ((1 << 34) + 5, (1 << 40) - 1), ((1 << 50), 12)]:
        packed = packed_ref(ref)
        assert type(packed) is int and unpacked_ref(packed) == ref
    assert packed_ref((1, 2)) != packed_ref((2, 1)) and packed_ref((0, 1 << 39)) != packed_ref((1, 0))
    for bad in [(-1, 0), (0, -1), (0, 1 << 40)]:
        with pytest.raises(ValueError):
            packed_ref(bad)


def test_the_resolver_keeps_where_each_parked_record_is_as_one_integer():
    park = SpillFile()
    resolver = RepositoryResolver("r", park=park)
    extractions = extract_fixture(FIXTURE)
    resolver.update(extractions, track=False)
    resolver.resolve([ex.path for ex, _, _ in extractions])
    where = resolver._spilled  # noqa: SLF001 (what this test is about)
    assert sorted(where) == ["a.py", "b.py"] and all(type(n) is int for n in where.values())
    records, _, _, _ = resolver.recorded()
    assert {p: records[p] for p in records} == {p: park.get(unpacked_ref(n)) for p, n in where.items()}
    b = set(record_tokens(records["b.py"]))
    assert ("name", "a.py", "f") in b and not any(t[1] == "b.py" for t in record_tokens(records["a.py"]))
