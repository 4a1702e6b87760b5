"""Hostile suite, second review of issue 12's fixes: each class is an attack or careless use the first
round of fixes still let through, kept fixed by a named regression test. Inputs are generated here.

- :class:`TestIndexPathNotAFile`: ``--db`` naming a FIFO, a character device (``/dev/null``) or a
  link to one: refused before SQLite touches it (before: an I/O error blamed on the disk, or
  "cannot rollback" after SQLite created ``/dev/null-journal``).
- :class:`TestTerminalControlCharacters`: ESC sequences in file names and string literals reached the
  terminal through every text renderer.
- :class:`TestPlantedExtractionCache`: a repository shipping ``.ripple/index.db-state/extract`` ran
  code at ``ripple index`` (pickled entries); the state folder is now the user's.
- :class:`TestMinifiedButNotNamedSo`: every function of a one-line bundle got the line's head as its
  chunk.
- :class:`TestLinkSwappedAfterDiscovery`: a link swapped between discovery and the read was read
  where it then pointed; ``.gitignore`` links were followed.

The pathological Java files of this review (a 100,000-call chain, 125,000 nested type arguments)
are cases of ``test_pathological_nesting_costs_linear_time_and_is_indexed_in_part`` in
``test_hostile_inputs.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from stores.embedded import EmbeddedStore
from stores.errors import StoreUnavailable
from tests.hostile.test_hostile_stores_cli import ripple, write_tree


class TestIndexPathNotAFile:
    """``--db`` / ``RIPPLE_DB`` naming something that is not a regular file (nor a folder, nor absent)."""

    @pytest.mark.parametrize("kind", ["fifo", "link_to_fifo", "device"])
    def test_refused_with_what_it_is_and_nothing_created_beside_it(self, tmp_path, kind):
        fifo = tmp_path / "pipe.db"
        os.mkfifo(fifo)
        if kind == "fifo":
            db = fifo
        elif kind == "link_to_fifo":
            db = tmp_path / "link.db"
            db.symlink_to(fifo)
        else:
            db = Path("/dev/null")
        beside = {p for p in db.parent.iterdir() if p.name.startswith(db.name)}
        with pytest.raises(StoreUnavailable) as info:
            EmbeddedStore(db)
        assert str(info.value) == (f"{db} is not a regular file (a FIFO or a device), not an index file; pass "
                                   "another --db (or RIPPLE_DB)")
        src = write_tree(tmp_path / "src", {"a.py": "def f():\n    pass\n"})
        for args in (["index", str(src), "--no-embed"], ["stats"], ["search", "f"]):
            result = ripple(*args, "--db", str(db))
            assert result.exit_code == 1, result.stdout
            assert " ".join(result.stderr.split()) == f"Error: {info.value}"
        assert {p for p in db.parent.iterdir() if p.name.startswith(db.name)} == beside  # no -journal, -wal


ESC_NAMES = ["esc\x1b]0;PWNED\x07.py", "esc\x1b[31mred.py", "c1\x9b2J.py", "del\x7f.py"]
"""File names holding terminal control sequences (set the title, colour the terminal, clear it)."""
ENDPOINT = "/x\x1b]52;c;cm0gLXJmIH4K\x07"  # OSC 52: write the clipboard, in a Java string literal


@pytest.fixture(scope="module")
def control_index(tmp_path_factory):
    root = tmp_path_factory.mktemp("ctl")
    src = write_tree(root / "src", {
        "target.py": "def hit():\n    return 1\n",
        "notes\x1b[2J.txt": "skipped (no extractor), named in the -v log\n",
        **{name: f"from target import hit\n\n\ndef caller{i}():\n    return hit()\n" for i, name in enumerate(ESC_NAMES)},
        "j/src/main/java/p/C.java": ("package p;\n@RestController\npublic class C {\n  @GetMapping(\""
                                     + ENDPOINT.replace("\x1b", "\\u001b").replace("\x07", "\\u0007")
                                     + "\")\n  public String h() { return S.hit(); }\n}\n"),
        "j/src/main/java/p/S.java": "package p;\npublic class S { public static String hit() { return \"\"; } }\n",
    })
    db = root / "x.db"
    assert ripple("index", str(src), "--db", str(db), "--no-embed").exit_code == 0
    return src, db


class TestTerminalControlCharacters:
    """Names, paths and endpoint paths come from the indexed repository; before, a file name or a string
    literal holding ESC sequences reached the user's terminal raw through every text renderer (set its
    title, colour it, write its clipboard with OSC 52). Text output shows them escaped; JSON keeps them."""

    @pytest.mark.parametrize("args", [["callers", "target.hit"], ["references", "target.hit"],
                                      ["impact", "target.hit"], ["impact", "C.h"], ["search", "caller0 caller1 hit"],
                                      ["-v", "index", "{src}", "--no-embed"]])
    def test_text_output_holds_no_control_character(self, control_index, args):
        src, db = control_index
        argv = [*[a.format(src=src) for a in args], "--db", str(db)]
        if args[0] == "-v":  # log records: in a process of its own (pytest holds the logging of this one)
            proc = subprocess.run([sys.executable, "-m", "lsp_server.cli", *argv], capture_output=True, text=True,
                                  env={**os.environ, "RIPPLE_DB": "", "RIPPLE_CONFIG": ""}, timeout=120)
            result = SimpleNamespace(exit_code=proc.returncode, stdout=proc.stdout, stderr=proc.stderr)
        else:
            result = ripple(*argv)
        assert result.exit_code == 0, result.stderr
        for stream in (result.stdout, result.stderr):
            bad = sorted({c for c in stream if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f})
            assert bad == [], (bad, stream)
        if args[0] == "callers":
            assert "esc\\x1b]0;PWNED\\x07.py:5:12  caller0  [exact]" in result.stdout
        if args[1] == "C.h":
            assert "/x\\x1b]52;c;cm0gLXJmIH4K\\x07" in result.stdout
        if args[0] == "-v":
            assert "notes\\x1b[2J.txt" in result.stderr

    def test_json_keeps_the_names_as_they_are(self, control_index):
        _, db = control_index
        paths = {c["path"] for c in json.loads(ripple("callers", "target.hit", "--json", "--db", str(db)).stdout)["callers"]}
        assert paths == set(ESC_NAMES)
        report = json.loads(ripple("impact", "C.h", "--json", "--db", str(db)).stdout)
        assert [e["path"] for e in report["endpoints"]] == [ENDPOINT]


class _Planted:
    """What a repository could ship pickled in its extraction cache: unpickling it runs a command."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"echo ran > {self.marker}",))


class TestPlantedExtractionCache:
    """A cloned repository can ship its ``.ripple/`` folder. Before, the extraction cache lived beside the
    index (``.ripple/index.db-state/extract``) and its entries were unpickled: a planted entry keyed by
    a file's checksum ran its code at ``ripple index .`` (and when an editor opened the folder)."""

    def test_a_cache_shipped_in_the_repository_is_never_loaded(self, tmp_path):
        import hashlib
        import pickle

        from indexer.extract_cache import ExtractionCache

        src = write_tree(tmp_path / "repo", {"a.py": "def f():\n    pass\n"})
        marker = tmp_path / "ran.txt"
        for folder in (src / ".ripple" / "index.db-state" / "extract", src / ".ripple" / "extract"):
            planted = ExtractionCache(folder)
            checksum = hashlib.sha256((src / "a.py").read_bytes()).hexdigest()
            planted._cache.set(planted._key("a.py", checksum), pickle.dumps(_Planted(marker)))
            planted.close()
        result = ripple("index", ".", "--no-embed", cwd=src)
        assert result.exit_code == 0, result.stderr
        assert not marker.exists()
        assert ripple("callers", "f", cwd=src).exit_code == 0  # the index was written from the file itself

    def test_the_state_folder_is_the_users_never_the_workspaces(self, tmp_path, monkeypatch):
        from stores.factory import state_dir

        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        db = tmp_path / "ws" / ".ripple" / "index.db"
        folder = state_dir(db)
        assert folder.parent == tmp_path / "cache" / "ripple" / "state"
        assert folder.name.startswith("index.db-") and len(folder.name) == len("index.db-") + 16
        assert state_dir(tmp_path / "ws" / ".ripple" / ".." / ".ripple" / "index.db") == folder  # one per real path
        assert state_dir(tmp_path / "other" / "index.db") != folder


class TestMinifiedButNotNamedSo:
    """A minified bundle not named ``.min.js`` is one long line of many functions. Before, every
    function's chunk was that line's first 6,000 characters (search showed the file's head for each of
    them), and a 0.9 MB file made 22,000 such chunks: 23 s and 816 MB to index."""

    def test_each_function_on_a_long_line_gets_its_own_text(self):
        from indexer.chunking import MAX_CHUNK_CHARS, chunk_file
        from indexer.languages import extractor_for_path

        source = ";".join(f"function f{i}(a){{return f{i - 1}(a)+{i}}}" for i in range(1, 3001)) + "\n"
        assert len(source) > MAX_CHUNK_CHARS
        extraction = extractor_for_path("bundle.js").extract("bundle.js", source.encode())
        chunks = {c.name: c.text for c in chunk_file("r", "r", extraction, source) if c.kind == "function"}
        assert len(chunks) == 3000
        assert chunks["f1"] == "function f1(a){return f0(a)+1}"
        assert chunks["f2999"] == "function f2999(a){return f2998(a)+2999}"
        assert sum(len(t) for t in chunks.values()) < 2 * len(source)

    def test_code_on_ordinary_lines_keeps_whole_lines(self):
        from indexer.chunking import chunk_file
        from indexer.languages import extractor_for_path

        source = "class A:\n    def m(self):  # indented: the chunk keeps its indentation\n        return 1\n"
        extraction = extractor_for_path("a.py").extract("a.py", source.encode())
        chunks = {c.name: c.text for c in chunk_file("r", "r", extraction, source)}
        assert chunks["m"] == "    def m(self):  # indented: the chunk keeps its indentation\n        return 1"


class TestLinkSwappedAfterDiscovery:
    """Discovery checks where a link leads; the file is read later (hashing, extraction in a worker, a
    watcher's update). Before, a link swapped in between (another local user writing a shared
    checkout) was read where it pointed then: a loop flipping ``zz.py`` between a file inside and
    ``/tmp/outside/secret.py`` put the secret in the index in 3 runs of 4. The read itself now checks
    where the opened file is."""

    @staticmethod
    def _tree(tmp_path: Path) -> tuple[Path, Path]:
        outside = write_tree(tmp_path / "outside", {"secret.py": "TOKEN = 'hunter2'\n", "d/x.py": "SECRET = 1\n"})
        root = write_tree(tmp_path / "repo", {"inside.py": "def ok():\n    pass\n", "hidden/x.py": "def ok2():\n    pass\n",
                                             ".gitignore": "hidden/\n"})
        (root / "zz.py").symlink_to("inside.py")
        (root / "d").symlink_to("hidden")  # the one way into hidden/: walked through the link
        return root, outside

    @staticmethod
    def _swap(link: Path, target: Path) -> None:
        tmp = link.with_name(".swap")
        tmp.symlink_to(target)
        os.replace(tmp, link)

    @pytest.mark.parametrize("swapped", ["zz.py", "d/x.py"])
    def test_every_reader_refuses_a_file_that_left_the_root(self, tmp_path, swapped):
        from indexer.discovery import SkipFile, classify_path, discover, read_source
        from indexer.extraction import extract_file

        root, outside = self._tree(tmp_path)
        files = {sf.path: sf for sf in discover(root).files}
        assert sorted(files) == ["d/x.py", "inside.py", "zz.py"]
        watched = classify_path(root.resolve(), swapped)
        if swapped == "zz.py":
            self._swap(root / "zz.py", outside / "secret.py")
        else:
            self._swap(root / "d", outside / "d")
        sf = files[swapped]
        for source in (sf, watched):
            with pytest.raises(SkipFile) as info:
                read_source(source.abs_path, 1_000_000, source.confine)
            assert info.value.reason == "symlink_outside"
        result = extract_file((sf, "r", "r", 1_000_000, False, None))
        assert result.skip_reason == "symlink_outside" and result.extraction is None
        assert read_source(files["inside.py"].abs_path, 1_000_000, files["inside.py"].confine).startswith(b"def ok")

    def test_following_links_out_was_asked_for(self, tmp_path):
        from indexer.discovery import discover, read_source

        root, outside = self._tree(tmp_path)
        self._swap(root / "zz.py", outside / "secret.py")
        sf = {sf.path: sf for sf in discover(root, follow_external_symlinks=True).files}["zz.py"]
        assert sf.confine is None
        assert read_source(sf.abs_path, 1_000_000, sf.confine) == b"TOKEN = 'hunter2'\n"

    def test_gitignore_links_are_not_followed(self, tmp_path, caplog):
        """As git (2.32 on) does not: before, a ``.gitignore`` linked to a file outside the root was
        read, its patterns applied and its bad lines printed in warnings."""
        from indexer.discovery import classify_path, discover

        outside = write_tree(tmp_path / "outside", {"ignore": "a.py\nkey=s3cret\\\n"})
        root = write_tree(tmp_path / "repo", {"a.py": "def f():\n    pass\n", "sub/b.py": "def g():\n    pass\n",
                                              "local": "sub/\n"})
        (root / ".gitignore").symlink_to(outside / "ignore")
        (root / "sub" / ".gitignore").symlink_to("../local")  # inside the root, still a link: not followed
        with caplog.at_level("WARNING"):
            found = discover(root)
        assert [sf.path for sf in found.files] == ["a.py", "sub/b.py"]
        assert classify_path(root.resolve(), "a.py") != "gitignored"
        assert "s3cret" not in caplog.text
        assert f"{root.resolve()}/.gitignore ignored: a symbolic link (git does not follow it either)" in caplog.text

    def test_spring_configuration_is_read_inside_the_root_only(self, tmp_path, monkeypatch):
        from indexer.frameworks import spring_config

        outside = write_tree(tmp_path / "outside", {"application.properties": "db.password=s3cret\n"})
        root = write_tree(tmp_path / "repo", {"src/main/resources/application.properties": "server.port=8081\n"})
        link = root / "src" / "main" / "resources" / "application-prod.properties"
        link.symlink_to("application.properties")
        listed = spring_config.config_files

        def swapped(*args, **kwargs):  # the link is swapped after the listing checked it
            files = listed(*args, **kwargs)
            TestLinkSwappedAfterDiscovery._swap(link, outside / "application.properties")
            return files

        monkeypatch.setattr(spring_config, "config_files", swapped)
        assert spring_config.load_properties(root) == {"server.port": "8081"}


class TestStateFoldersOfDeletedIndexes:
    """The extraction cache of every index path ever written lives in the user's cache folder: those
    of indexes that are gone are removed after a week, nothing else."""

    def test_only_folders_of_gone_indexes_past_the_age_are_removed(self, tmp_path, monkeypatch):
        import time

        from stores.factory import PRUNE_AFTER_SECONDS, STATE_MARKER, claim_repository, prune_state_dirs, state_dir
        from stores.embedded import EmbeddedStore

        env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
        monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])  # claim_repository reads the process's
        kept_db, gone_db = tmp_path / "kept" / "index.db", tmp_path / "gone" / "index.db"
        for db in (kept_db, gone_db):
            store = EmbeddedStore(db)
            try:
                claim_repository(store, db, "r", tmp_path)
            finally:
                store.close()
        kept, gone = state_dir(kept_db, env), state_dir(gone_db, env)
        assert (gone / STATE_MARKER).read_text(encoding="utf-8") == os.path.realpath(gone_db)
        stranger = tmp_path / "cache" / "ripple" / "state" / "no-marker"  # not ours to judge
        stranger.mkdir()
        for leftover in gone_db.parent.glob("index.db*"):
            leftover.unlink()
        now = time.time()
        assert prune_state_dirs(env, now=now) == []  # too recent
        assert prune_state_dirs(env, now=now + PRUNE_AFTER_SECONDS + 60) == [gone]
        assert not gone.exists() and kept.is_dir() and stranger.is_dir()
