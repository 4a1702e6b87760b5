"""The extract phase holds no file's own-binding lists (issue 19 goal 1): each extraction parks its
call sites, type uses, injections and table accesses (:mod:`indexer.parked`) as it arrives from the
workers or the extraction cache (:class:`indexer.extraction.ExtractStage`), not when the resolver
takes the list, and the index is exactly the one written without that."""

from __future__ import annotations

from pathlib import Path

import pytest

import indexer.extraction as extraction_module
from indexer.parked import PARKED_FIELDS
from indexer.pipeline import index_repository
from indexer.resolve.repository import RepositoryResolver
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_dump import dump


def _tree(root: Path, modules: int = 70) -> Path:
    """``modules`` Python modules (64 or more: the workers extract them) calling and typing across
    files, plus a doc."""
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "notes.md").write_text("# Notes\n\nSee `Service0` and `pkg.m1.helper1`.\n", encoding="utf-8")
    for i in range(modules):
        prev = (i - 1) % modules
        (root / "pkg" / f"m{i}.py").write_text(
            f"from pkg.m{prev} import helper{prev}, Service{prev}\n\n\n"
            f"class Service{i}(Service{prev}):\n"
            f"    def run(self, other: Service{prev}) -> int:\n"
            f"        return helper{prev}(other.run(self)) + self.total()\n\n"
            f"    def total(self):\n        return len(str(self))\n\n\n"
            f"def helper{i}(x: int) -> int:\n    return Service{i}().total() + x\n", encoding="utf-8")
    return root


def _spy_update(monkeypatch) -> list[dict[str, tuple[str, ...]]]:
    """Per call of :meth:`RepositoryResolver.update`, for each file given, the types of its
    :data:`PARKED_FIELDS` lists as the call received them (before the resolver's own parking)."""
    seen: list[dict[str, tuple[str, ...]]] = []
    original = RepositoryResolver.update

    def spy(self, files, removed=(), **kw):
        seen.append({ex.path: tuple(type(getattr(ex, f)).__name__ for f in PARKED_FIELDS) for ex, _, _ in files})
        return original(self, files, removed, **kw)

    monkeypatch.setattr(RepositoryResolver, "update", spy)
    return seen


@pytest.mark.parametrize("jobs", [1, 2])
def test_extractions_reach_the_resolver_parked_from_workers_and_from_the_cache(tmp_path, monkeypatch, jobs):
    src = _tree(tmp_path / "src")
    seen = _spy_update(monkeypatch)
    state = str(tmp_path / "state")
    for run in ("parsed", "cached"):  # a second store, same cache: every extraction comes from the cache
        store = EmbeddedStore(tmp_path / f"{run}.db")
        report = index_repository(src, store, store, IndexOptions(repo="r", jobs=jobs, state_dir=state))
        store.close()
        assert report.files_indexed == 72 and report.files_extracted == (72 if run == "parsed" else 0)
    assert len(seen) == 2
    for given in seen:
        assert len(given) == 72
        code = {p: kinds for p, kinds in given.items() if p.endswith(".py") and p != "pkg/__init__.py"}
        assert len(code) == 70
        # Every module has call sites and type uses: parked, none a list or PackedCalls any more.
        assert all(kinds[0] == "ParkedList" and kinds[1] == "ParkedList" for kinds in code.values()), code
        # An empty list has nothing to park: it becomes the shared empty list (indexer.compact;
        # value reads, injections, table accesses, candidate wrapper calls here); its bindings (the
        # parameters' types) are parked.
        assert given["pkg/m0.py"][2:] == ("FrozenEmptyList", "FrozenEmptyList", "FrozenEmptyList", "ParkedList",
                                          "FrozenEmptyList")
    assert dump(tmp_path / "parsed.db") == dump(tmp_path / "cached.db")


def test_without_parking_at_arrival_the_resolver_gets_them_whole_and_the_index_is_the_same(tmp_path, monkeypatch):
    """The negative case: with the extract stage's parking off, the resolver receives the lists as
    the workers sent them (the call sites and the type uses packed, each one pickle), parks them
    itself, and writes exactly the same index."""
    src = _tree(tmp_path / "src")
    dumps = {}
    for name in ("arrival", "update"):
        seen = _spy_update(monkeypatch)
        if name == "update":
            monkeypatch.setattr(extraction_module, "park_extraction", lambda ex, spill: ex)
        store = EmbeddedStore(tmp_path / f"{name}.db")
        index_repository(src, store, store, IndexOptions(repo="r", jobs=2, state_dir=str(tmp_path / f"state-{name}")))
        store.close()
        kinds = seen[0]["pkg/m3.py"]
        assert kinds[:2] == (("ParkedList", "ParkedList") if name == "arrival" else ("PackedCalls", "PackedList"))
        dumps[name] = dump(tmp_path / f"{name}.db")
        monkeypatch.undo()
    assert dumps["arrival"] == dumps["update"]
    assert len(dumps["arrival"]["edges"]) > 400 and any(e[0] == "CALLS" for e in dumps["arrival"]["edges"])


def _spy_resolve(monkeypatch) -> list[tuple[int, int, int]]:
    """Per call of :meth:`RepositoryResolver.resolve`: how many changed tokens and per-file changed
    name sets the resolver holds, and how many of its files have their names digested."""
    seen: list[tuple[int, int, int]] = []
    original = RepositoryResolver.resolve

    def spy(self, paths, *args, **kwargs):
        seen.append((len(self._changed_tokens), len(self._changed_names),
                     sum(fc._names is not None for fc in self.files.values())))  # indexer.heap.declared_lazily
        return original(self, paths, *args, **kwargs)

    monkeypatch.setattr(RepositoryResolver, "resolve", spy)
    return seen


def test_a_one_shot_run_records_no_change_tokens_and_writes_the_same_index(tmp_path, monkeypatch):
    """``ripple index`` (a one-shot run) never asks which files a change affects: its resolve phase
    holds no changed tokens, no changed names and no per-name digests; a watcher's first sync holds
    them all (it answers dependents later); both write exactly the same index."""
    from indexer.incremental import RepositoryIndex

    src = _tree(tmp_path / "src", modules=8)
    seen = _spy_resolve(monkeypatch)
    store = EmbeddedStore(tmp_path / "oneshot.db")
    index_repository(src, store, store, IndexOptions(repo="r", state_dir=str(tmp_path / "s1")))
    store.close()
    assert seen == [(0, 0, 0)]
    seen.clear()
    store = EmbeddedStore(tmp_path / "watcher.db")
    watcher = RepositoryIndex(src, store, store, IndexOptions(repo="r", state_dir=str(tmp_path / "s2")))
    watcher.sync()
    assert dump(tmp_path / "watcher.db") == dump(tmp_path / "oneshot.db")
    tokens, names, digested = seen[0]
    assert names == 10 and digested == 10 and tokens > 50  # 8 modules, the package's __init__ and the doc
    # ... and the watcher still answers which files an edit of the interface affects: m4 imported
    # ``Service3`` from m3, which is gone, so m4 is bound again and its base class goes unresolved.
    (src / "pkg" / "m3.py").write_text("def helper3(x: int) -> int:\n    return x\n", encoding="utf-8")
    seen.clear()
    report = watcher.update([src / "pkg" / "m3.py"])
    watcher.close()
    edges = dump(tmp_path / "watcher.db")["edges"]
    store.close()
    assert report.files_changed == 1 and len(seen) == 1
    assert not any(e[2].startswith("r:pkg/m3.Service3") for e in edges)
    assert any(e[4] == "pkg/m4.py" and e[0] == "CALLS" and e[2] == "r:pkg/m3.helper3(1)" for e in edges)
