"""The walk's and the read phase's files kept as columns (indexer/source_files.py): the same files,
in the same order, as the lists they replace; no object a file held."""

from __future__ import annotations

import gc
import hashlib
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.discovery import discover
from indexer.source_files import HashedFiles, SourceFile, SourceFiles

FILES = [SourceFile("pkg/b.py", "/src/pkg/b.py", "python", 12, "/src"),
         SourceFile("a.ts", "/src/a.ts", "typescript", 0, None),
         SourceFile("pkg/\udcff\u00e9.py", "/elsewhere/x.py", "python", 2**40, "/src"),  # lone surrogate, not under root
         SourceFile("pkg/a.py", "/src/pkg/a.py", "python", 7, None)]


def test_source_files_give_back_every_field_in_order() -> None:
    files = SourceFiles(FILES)
    assert len(files) == 4
    assert list(files) == FILES and files == FILES and FILES == list(files)
    assert files[0] == FILES[0] and files[-1] == FILES[3] and files[2].path == "pkg/\udcff\u00e9.py"
    assert files[1:3] == FILES[1:3] and files[::-1] == FILES[::-1]
    assert [files.path(i) for i in range(4)] == [f.path for f in FILES]
    with pytest.raises(IndexError):
        files[4]  # noqa: B018
    with pytest.raises(IndexError):
        files[-5]  # noqa: B018
    assert files != FILES[:3] and files != [*FILES[:3], FILES[0]]
    assert SourceFiles() == [] and len(SourceFiles()) == 0


def test_sort_by_path_orders_as_sorting_the_list_by_path_did() -> None:
    files = SourceFiles(FILES)
    files.sort_by_path()
    expected = sorted(FILES, key=lambda f: f.path)
    assert list(files) == expected
    assert [f.path for f in files] == ["a.ts", "pkg/a.py", "pkg/b.py", "pkg/\udcff\u00e9.py"]
    again = pickle.loads(pickle.dumps(files, protocol=pickle.HIGHEST_PROTOCOL))
    assert list(again) == expected and isinstance(again, SourceFiles)


def test_hashed_files_keep_sizes_and_checksums() -> None:
    items = [(f, 3 + i, hashlib.sha256(f.path.encode("utf-8", "surrogatepass")).hexdigest()) for i, f in enumerate(FILES)]
    hashed = HashedFiles(items)
    assert list(hashed) == items and hashed == items and hashed[2] == items[2] and hashed[-1] == items[3]
    assert hashed[1:] == items[1:]
    restored = pickle.loads(pickle.dumps(hashed, protocol=pickle.HIGHEST_PROTOCOL))
    assert restored == items and isinstance(restored, HashedFiles)
    hashed.clear()
    assert hashed == [] and len(hashed) == 0
    hashed.assign(items[:2])
    assert list(hashed) == items[:2]
    upper = (FILES[0], 1, "AB" * 32)
    hashed.append(upper)
    assert hashed[-1] == (FILES[0], 1, "ab" * 32)  # read back in lower case, as hexdigest() gives


@pytest.mark.parametrize("checksum", ["ab" * 31, "ab" * 33, "zz" * 32, ""])
def test_hashed_files_refuse_what_is_not_a_sha256_hex_digest(checksum: str) -> None:
    hashed = HashedFiles()
    with pytest.raises(ValueError):
        hashed.append((FILES[0], 1, checksum))
    assert len(hashed) == 0 and list(hashed) == []  # nothing half-added


def test_discover_returns_columns_in_path_order(tmp_path: Path) -> None:
    for rel in ["z.py", "a/b/c.py", "a/x.py", "a/b.py", "m.md"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n")
    found = discover(tmp_path)
    assert isinstance(found.files, SourceFiles)
    root = str(tmp_path.resolve())
    assert [(f.path, f.abs_path, f.language, f.size, f.confine) for f in found.files] == [
        ("a/b.py", f"{root}/a/b.py", "python", 6, root), ("a/b/c.py", f"{root}/a/b/c.py", "python", 6, root),
        ("a/x.py", f"{root}/a/x.py", "python", 6, root), ("m.md", f"{root}/m.md", "markdown", 6, root),
        ("z.py", f"{root}/z.py", "python", 6, root)]


_OBJECTS = """
import gc, hashlib, sys
from indexer.source_files import HashedFiles, SourceFile
n = int(sys.argv[1])
hashed = HashedFiles()
gc.collect()
before = len(gc.get_objects())
for i in range(n):
    sf = SourceFile(f"pkg/sub{i % 50}/module_{i}.py", f"/repo/pkg/sub{i % 50}/module_{i}.py", "python", i, "/repo")
    hashed.append((sf, i, hashlib.sha256(str(i).encode()).hexdigest()))
del sf
gc.collect()
print(len(gc.get_objects()) - before)
"""


def test_holding_many_files_makes_no_tracked_object_a_file() -> None:
    # A list of (SourceFile, size, checksum) held 2 tracked objects a file (the SourceFile, the tuple)
    counts = [int(subprocess.run([sys.executable, "-c", _OBJECTS, str(n)], capture_output=True, text=True,
                                 check=True).stdout) for n in (100, 20_000)]
    assert counts[1] - counts[0] < 10
    gc.collect()
