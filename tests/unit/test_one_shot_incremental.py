"""One-shot runs (``ripple index``) re-bind only what a change can affect, through the resolver's
records kept in the state folder (:mod:`indexer.bind_state`), and bind the whole tree whenever those
records do not fit the index exactly: written by another run since, damaged, another product, an
extraction no longer cached. Every outcome is compared with a full index of the same tree (the
random walk of ``test_incremental.py`` runs the same comparison after every step)."""

from __future__ import annotations

import pickle
import shutil
import zlib
from pathlib import Path

import pytest

from indexer.bind_state import load_bind_state, save_bind_state
from indexer.resolve.tracking import pack_deps, record_tokens
from indexer.pipeline import index_repository
from indexer.run import IndexOptions, IndexReport
from stores.embedded import EmbeddedStore
from tests.index_dump import calls, dump
from tests.unit.test_incremental import BASE_CALLS, FILES

N_FILES = len(FILES)


def _write(src: Path, files: dict[str, str | None]) -> None:
    for rel, text in files.items():
        path = src / rel
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def _index(src: Path, db: Path, state: Path, product: str | None = None) -> IndexReport:
    store = EmbeddedStore(db)
    try:
        return index_repository(src, store, store, IndexOptions(repo="r", product=product, jobs=1, state_dir=str(state)))
    finally:
        store.close()


def _full(tmp: Path, src: Path) -> dict:
    db = tmp / "full.db"
    db.unlink(missing_ok=True)
    _index(src, db, tmp / "full-state")
    shutil.rmtree(tmp / "full-state")
    return dump(db)


def _setup(tmp: Path) -> tuple[Path, Path, Path]:
    src, db, state = tmp / "src", tmp / "x.db", tmp / "state"
    _write(src, dict(FILES))
    first = _index(src, db, state)
    assert (first.files_resolved, first.files_written) == (N_FILES, N_FILES)
    return src, db, state


def test_body_edit_rebinds_one_file_and_interface_edit_its_readers(tmp_path: Path) -> None:
    src, db, state = _setup(tmp_path)
    records = load_bind_state(next(state.glob("bind-*.pickle")))
    assert records is not None and sorted(records.checksums) == sorted(FILES)
    # A whole-tree run keeps each file's record packed (one bytes object), and saves it so.
    assert all(isinstance(d, bytes) for d in records.deps.values())
    assert ("name", "app/repo.py", "Repo") in record_tokens(records.deps["app/service.py"])
    assert ("name", "app/service.py", "Repo") not in record_tokens(records.deps["app/repo.py"])

    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("pass", "x = 1 + 1")})
    body = _index(src, db, state)
    assert (body.files_changed, body.files_resolved, body.files_written, body.files_extracted) == (1, 1, 1, 1)
    assert dump(db) == _full(tmp_path, src)

    # A method renamed: service.py's calls of it change; nothing else is bound again.
    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("save", "store")})
    renamed = _index(src, db, state)
    assert (renamed.files_changed, renamed.files_resolved, renamed.files_written) == (1, 2, 2)
    assert calls(db) == [c for c in BASE_CALLS if "save" not in c]
    assert dump(db) == _full(tmp_path, src)

    # A file deleted and one added in the same run.
    _write(src, {"app/impl.py": None, "app/cache.py": "class Cache:\n    def flush_all(self):\n        pass\n"})
    moved = _index(src, db, state)
    assert (moved.files_deleted, moved.files_indexed) == (1, N_FILES)
    assert moved.files_resolved < N_FILES
    assert dump(db) == _full(tmp_path, src)

    unchanged = _index(src, db, state)
    assert (unchanged.files_resolved, unchanged.files_written) == (0, 0)


def test_records_of_another_index_state_are_not_used(tmp_path: Path) -> None:
    src, db, state = _setup(tmp_path)
    # Another run (its own state folder: a different machine or cache) writes an edit to the index.
    _write(src, {"app/base.py": FILES["app/base.py"] + "\n\ndef extra():\n    pass\n"})
    other = _index(src, db, tmp_path / "other-state")
    assert other.files_resolved == N_FILES  # no records there: the whole tree
    # The first state folder's records describe the index before that run: the whole tree again.
    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("pass", "x = 1 - 1")})
    report = _index(src, db, state)
    assert (report.files_resolved, report.files_written) == (N_FILES, 1)
    assert dump(db) == _full(tmp_path, src)
    # ... after which its records are current again.
    _write(src, {"app/repo.py": FILES["app/repo.py"]})
    assert _index(src, db, state).files_resolved == 1


def test_damaged_records_another_product_or_a_culled_cache_bind_the_whole_tree(tmp_path: Path) -> None:
    src, db, state = _setup(tmp_path)
    bind = next(state.glob("bind-*.pickle"))
    bind.write_bytes(bind.read_bytes()[:40])  # truncated
    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("pass", "x = 1 + 2")})
    report = _index(src, db, state)
    assert (report.files_resolved, report.files_written) == (N_FILES, 1)
    assert dump(db) == _full(tmp_path, src)

    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("pass", "x = 1 + 3")})
    other_product = _index(src, db, state, product="shop")  # every output changes with the product
    assert (other_product.files_resolved, other_product.files_written) == (N_FILES, N_FILES)

    shutil.rmtree(state / "extract")  # the extractions the index was built from are gone
    _write(src, {"app/repo.py": FILES["app/repo.py"]})
    culled = _index(src, db, state, product="shop")
    assert (culled.files_resolved, culled.files_written, culled.files_extracted) == (N_FILES, 1, N_FILES)
    assert _index(src, db, state, product="shop").files_resolved == 0


def test_a_damaged_record_in_a_readable_file_binds_the_whole_tree_and_an_old_layout_is_ignored(tmp_path: Path) -> None:
    """The file loads, but one file's packed record is not a pickle of tokens: an interface edit
    then binds every file (the readers cannot be known), exactly; records of the tuple-only layout
    (format 1) are not taken over at all."""
    src, db, state = _setup(tmp_path)
    bind = next(state.glob("bind-*.pickle"))
    records = load_bind_state(bind)
    assert records is not None
    records.deps["app/service.py"] = b"\x80\x05not a pickle"
    save_bind_state(bind, records)
    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("save", "store")})  # an interface edit
    report = _index(src, db, state)
    assert (report.files_changed, report.files_resolved) == (1, N_FILES)
    assert dump(db) == _full(tmp_path, src)
    # records saved by that run are whole again: a body edit binds one file
    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("save", "store").replace("pass", "x = 1 + 5")})
    assert _index(src, db, state).files_resolved == 1

    records = load_bind_state(bind)
    assert records is not None
    with open(bind, "wb") as fh:  # the same records as the earlier layout wrote them
        pickle.dump((1, records.key, records.checksums, {p: record_tokens(d) for p, d in records.deps.items()},
                     records.link_deps), fh)
    assert load_bind_state(bind) is None
    _write(src, {"app/repo.py": FILES["app/repo.py"]})
    assert _index(src, db, state).files_resolved == N_FILES


def test_extraction_cache_keeps_only_what_the_index_references(tmp_path: Path) -> None:
    import diskcache

    src, db, state = _setup(tmp_path)

    def keys() -> list[tuple[str, str, str]]:
        with diskcache.Cache(str(state / "extract")) as cache:
            return sorted(tuple(str(k).split(":", 2)) for k in cache.iterkeys())  # type: ignore[misc]

    first = keys()
    assert len(first) == N_FILES and len({v for v, _, _ in first}) == 1
    with diskcache.Cache(str(state / "extract")) as cache:  # an entry of an older extractor version
        cache.set("0ldversion0000:" + "a" * 64 + ":app/repo.py", b"x")
    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("pass", "x = 1 * 2"), "app/impl.py": None})
    report = _index(src, db, state)
    assert report.files_resolved < N_FILES  # the one-shot path prunes too
    after = keys()
    store = EmbeddedStore(db)
    try:
        held = sorted((first[0][0], checksum, path) for path, checksum in store.file_checksums("r").items())
    finally:
        store.close()
    assert after == held  # the old version of repo.py, impl.py and the foreign version are gone
    assert len(after) == N_FILES - 1


def test_a_packed_record_reads_back_as_its_tokens_and_damage_is_an_error() -> None:
    deps = (("name", "app/repo.py", "Repo"), ("file", "app/base.py", ""), ("name", "app/repo.py", "save"))
    packed = pack_deps(deps)
    assert isinstance(packed, bytes) and record_tokens(packed) == deps
    assert record_tokens(deps) is deps  # a tuple is its own tokens
    assert record_tokens(pack_deps(())) == ()
    not_a_tuple = zlib.compress(pickle.dumps(1))
    for damaged in (packed[:-3], b"not zlib", not_a_tuple):
        with pytest.raises(ValueError, match="dependency record"):
            record_tokens(damaged)


def test_equal_records_pack_to_equal_bytes_whatever_objects_their_strings_are() -> None:
    """The bytes depend on the tokens only, not on which strings are one object (pickle writes a
    string met again as a reference to the first): a file's record made by a forked copy, or with
    tokens replayed from a memo, was equal as tokens and unequal as bytes (the flaky
    test_a_forked_copy_gives_one_process_outputs_records_and_counts)."""
    path = "app/" + "repo.py"
    shared = (("name", path, "Repo"), ("name", path, "save"), ("name", path, "Repo"))
    fresh = tuple(tuple("".join(list(s)) for s in t) for t in shared)  # equal strings, none shared
    assert fresh == shared and fresh[0][1] is not shared[1][1]
    assert pack_deps(fresh) == pack_deps(shared)
    assert record_tokens(pack_deps(fresh)) == shared
    assert pack_deps(shared[:2]) != pack_deps(shared)  # different tokens: different bytes


def test_a_record_of_unhashable_or_malformed_tokens_binds_the_whole_tree(tmp_path: Path) -> None:
    """A hand-edited (or bit-flipped) bind state whose packed record unpickles to a tuple that is no
    tuple of tokens (a list inside, a bare string, a token of the wrong length): the run binds every
    file, exactly, instead of failing with ``TypeError: unhashable type`` or binding with a record
    no token can match."""
    src, db, state = _setup(tmp_path)
    bind = next(state.glob("bind-*.pickle"))
    for bad in [(["name", "app/repo.py", "Repo"],), ("name",), (("name", "app/repo.py"),),
                (("name", "app/repo.py", ["Repo"]),)]:
        records = load_bind_state(bind)
        assert records is not None
        records.deps["app/service.py"] = zlib.compress(pickle.dumps(bad), 1)  # pack_deps' format; it takes tokens only
        save_bind_state(bind, records)
        _write(src, {"app/repo.py": FILES["app/repo.py"].replace("save", f"store{len(repr(bad))}")})  # an interface edit
        report = _index(src, db, state)
        assert (report.files_changed, report.files_resolved) == (1, N_FILES), bad
        assert dump(db) == _full(tmp_path, src)


def test_a_bind_state_missing_a_files_record_binds_the_whole_tree(tmp_path: Path) -> None:
    """Every file the index holds has a record (its output read nothing: an empty one). A state
    whose checksums name a file without a record (edited by hand, or cut short) cannot say whether
    that file reads what an edit changed: an interface edit binds every file, exactly."""
    src, db, state = _setup(tmp_path)
    bind = next(state.glob("bind-*.pickle"))
    records = load_bind_state(bind)
    assert records is not None and set(records.deps) == set(records.checksums)
    del records.deps["app/service.py"]  # reads app/repo.py's Repo
    save_bind_state(bind, records)
    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("save", "store")})  # an interface edit
    report = _index(src, db, state)
    assert dump(db) == _full(tmp_path, src)  # the reader of Repo.save is bound again
    assert (report.files_changed, report.files_resolved) == (1, N_FILES)


def test_a_byte_flipped_in_a_saved_record_binds_the_whole_tree(tmp_path: Path) -> None:
    """Damage that still unpickles (one byte of a path inside a file's packed record, as a bad
    sector or a stray write would leave it): the file still loads and the record reads as tokens,
    only not the tokens written. The run must not trust it: an interface edit binds every file,
    exactly."""
    src, db, state = _setup(tmp_path)
    bind = next(state.glob("bind-*.pickle"))
    records = load_bind_state(bind)
    assert records is not None
    record = records.deps["app/service.py"]
    assert isinstance(record, bytes) and ("name", "app/repo.py", "Repo") in record_tokens(record)
    raw = bind.read_bytes()
    at = raw.index(record) + len(record) // 2
    bind.write_bytes(raw[:at] + bytes([raw[at] ^ 1]) + raw[at + 1:])
    _write(src, {"app/repo.py": FILES["app/repo.py"].replace("save", "store")})  # an interface edit
    report = _index(src, db, state)
    assert dump(db) == _full(tmp_path, src)
    assert (report.files_changed, report.files_resolved) == (1, N_FILES)


def test_a_one_shot_run_lets_the_loaded_list_go_before_the_resolve(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from indexer.incremental import RepositoryIndex
    from indexer.resolve.repository import RepositoryResolver

    given: list[list] = []  # type: ignore[type-arg]
    at_resolve: list[int] = []
    update, resolve = RepositoryResolver.update, RepositoryResolver.resolve

    def spy_update(self, files, *args, **kwargs):  # type: ignore[no-untyped-def]
        given.append(files)
        return update(self, files, *args, **kwargs)

    def spy_resolve(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        at_resolve.append(sum(len(f) for f in given))
        return resolve(self, *args, **kwargs)

    monkeypatch.setattr(RepositoryResolver, "update", spy_update)
    monkeypatch.setattr(RepositoryResolver, "resolve", spy_resolve)
    src = tmp_path / "src"
    _write(src, dict(FILES))
    _index(src, tmp_path / "x.db", tmp_path / "state")
    assert len(given) == 1 and at_resolve == [0]  # a one-shot run: emptied once the contexts hold them
    assert dump(tmp_path / "x.db") == _full(tmp_path, src)
    given.clear(), at_resolve.clear()
    store = EmbeddedStore(tmp_path / "w.db")
    try:  # a watcher keeps them (its writer reads them) while it binds
        RepositoryIndex(src, store, store, IndexOptions(repo="r", jobs=1)).sync()  # skip_unchanged False
    finally:
        store.close()
    assert at_resolve == [N_FILES]
