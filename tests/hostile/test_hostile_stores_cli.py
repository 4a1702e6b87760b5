"""Hostile suite, stores and command line (issue 12): each class is one class of attack or careless use
that once went wrong, kept fixed by a named regression test. Every input is generated here (no
committed blobs); time budgets are loose enough for a loaded CI machine.

- :class:`TestWorkspaceTrust` (3): a cloned repository's ``.ripple/config.toml`` points the graph at
  its own Bolt server; the user's password must never reach it.
- :class:`TestMarkdownInjection` (7): paths, names and endpoint paths holding markdown / HTML.
- :class:`TestReadOnlyIndex` (16): an index on a folder nobody may write is read by every reader and
  the language server.
- :class:`TestDiskFullAndReadOnlyMessages` (17): disk full and read-only say so.
- :class:`TestInterrupt` (18): Ctrl-C in ``ripple index`` exits 130 after saying what was kept.
- :class:`TestNotAnIndex` (19): ``--db`` naming someone else's file never advises deleting it.
- :class:`TestArcadeDBRestart` (20): the throwaway Bolt server comes back on its own folder.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt

from lsp_server.cli import main
from stores.contracts import Chunk, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore
from stores.errors import NotAnIndex, StoreReadOnly, StoreUnavailable, os_error_message
from stores.factory import state_dir
from tests.signals import default_sigint

ROOT = Path(__file__).resolve().parents[2]
CLEAN_ENV = {"RIPPLE_CONFIG": None, "RIPPLE_DB": None, "XDG_CONFIG_HOME": None, "RIPPLE_GRAPH_BACKEND": None,
             "RIPPLE_SEARCH_BACKEND": None, "RIPPLE_MEMGRAPH_URI": None, "RIPPLE_ES_URL": None,
             "RIPPLE_EMBEDDING_MODEL": None, "RIPPLE_SERVICES": None}


def ripple(*args: str, cwd: Path | None = None, **env: str | None):
    """``ripple ARGS`` in process (click's runner), from ``cwd``, under ``env`` (plus a clean slate)."""
    runner = CliRunner()
    with contextlib.chdir(cwd or Path.cwd()):
        return runner.invoke(main, list(args), env={**CLEAN_ENV, **env}, catch_exceptions=False)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -------------------------------------------------------------------------------------- 3: trust


class _FakeBolt:
    """A loopback listener that speaks just enough Bolt to receive the driver's HELLO / LOGON (where
    the password travels in clear) and records every byte each connection sent."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(2.0)
                data = b""
                try:
                    data += conn.recv(20)
                    conn.sendall(b"\x00\x00\x04\x05")  # "Bolt 5.4": the driver then sends HELLO and LOGON
                    while len(data) < 4096:
                        chunk = conn.recv(4096)
                        if not chunk:
                            break
                        data += chunk
                except OSError:
                    pass
                self.received.append(data)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


class TestWorkspaceTrust:
    """Issue 12 item 3: before, ``ripple index`` in a cloned repository sent ``principal alice
    credentials alice-s3cret`` to the server its ``.ripple/config.toml`` named."""

    PASSWORD = "alice-s3cret-" + "x" * 8

    @pytest.fixture
    def servers(self) -> Iterator[tuple[_FakeBolt, _FakeBolt]]:
        team, attacker = _FakeBolt(), _FakeBolt()
        yield team, attacker
        team.close()
        attacker.close()

    def _setup(self, tmp_path: Path, team: _FakeBolt, attacker: _FakeBolt) -> tuple[Path, Path]:
        home = tmp_path / "home"
        user = write_tree(home, {".config/ripple/config.toml": f"""
[graph]
backend = "memgraph"
uri = "bolt://127.0.0.1:{team.port}"
user = "alice"
password = "{self.PASSWORD}"
"""}) / ".config/ripple/config.toml"
        user.chmod(0o600)
        repo = write_tree(tmp_path / "cloned", {
            "app.py": "def handler():\n    return 1\n",
            ".ripple/config.toml": f'[graph]\nuri = "bolt://127.0.0.1:{attacker.port}"\nuser = "mallory"\n'
                                   '[embedded]\ndb = "../../stolen.db"\n',
        })
        return home, repo

    def test_an_untrusted_workspace_reaches_no_server_of_its_choosing(self, tmp_path, servers):
        team, attacker = servers
        home, repo = self._setup(tmp_path, team, attacker)
        started = time.monotonic()
        result = ripple("index", str(repo), "--no-embed", cwd=repo, HOME=str(home))
        assert time.monotonic() - started < 60
        assert result.exit_code == 1  # the fake team server does not answer queries
        assert (f"warning: {repo}/.ripple/config.toml: ignored graph.uri, embedded.db, graph.user: this workspace is "
                "not trusted to choose where your code and credentials go; if you trust it, run `ripple trust "
                f"{repo.resolve()}`") in " ".join(result.stderr.split())
        assert attacker.received == []  # not even a connection
        assert any(self.PASSWORD.encode() in data for data in team.received)  # the user's own server
        assert not (tmp_path / "stolen.db").exists()
        doctor = ripple("doctor", str(repo), HOME=str(home))
        assert f"{repo}/.ripple/config.toml (workspace, not trusted)" in doctor.stdout

    def test_a_trusted_workspace_gets_its_server_but_never_the_users_password(self, tmp_path, servers):
        team, attacker = servers
        home, repo = self._setup(tmp_path, team, attacker)
        trusted = ripple("trust", str(repo), HOME=str(home))
        assert trusted.exit_code == 0, trusted.output
        team.received.clear()
        result = ripple("index", str(repo), "--no-embed", cwd=repo, HOME=str(home))
        assert result.exit_code == 1
        assert attacker.received and all(self.PASSWORD.encode() not in data for data in attacker.received)
        assert any(b"mallory" in data for data in attacker.received)  # its own user, from its own file
        assert team.received == []
        assert (f"warning: graph.password from {home}/.config/ripple/config.toml is not sent to the graph.uri set in "
                f"{repo}/.ripple/config.toml") in " ".join(result.stderr.split())
        assert ripple("trust", "--remove", str(repo), HOME=str(home)).exit_code == 0
        attacker.received.clear()
        ripple("index", str(repo), "--no-embed", cwd=repo, HOME=str(home))
        assert attacker.received == []


# ----------------------------------------------------------------------------------- 7: markdown


HOSTILE_DIR = "[click me](https:evil.example) <img src=x onerror=alert(1)> *a*_b_ &lt;"


def _tokens(markdown: str) -> list:
    md = MarkdownIt("commonmark").enable("table")
    out = []
    for token in md.parse(markdown):
        out.append(token)
        out.extend(token.children or [])
    return out


def _assert_inert(markdown: str, bold: tuple[str, ...]) -> list[str]:
    """No link, image, emphasis or HTML anywhere, bold only for the renderer's own ``bold`` texts;
    returns the code spans' contents."""
    tokens = _tokens(markdown)
    active = {t.type for t in tokens} & {"link_open", "image", "em_open", "html_inline", "html_block"}
    assert not active, (active, markdown)
    strong, inside = [], None
    for t in tokens:
        if t.type == "strong_open":
            inside = ""
        elif t.type == "strong_close":
            strong.append(inside)
            inside = None
        elif inside is not None:
            inside += t.content
    assert tuple(strong) == bold, markdown
    return [t.content for t in tokens if t.type == "code_inline"]


@pytest.fixture(scope="module")
def hostile_index(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("md") / "repo"
    write_tree(root, {f"{HOSTILE_DIR}/views.py": '''from flask import Flask

app = Flask(__name__)


def target():
    return 1


@app.route("/a`<b>**x**`/c")
def handler():
    return target()
'''})
    db = root.parent / "x.db"
    result = ripple("index", str(root), "--db", str(db), "--no-embed")
    assert result.exit_code == 0, result.output
    return db


class TestMarkdownInjection:
    """Issue 12 item 7: before, ``ripple impact`` printed ``[click me](https:/evil.example)/views.py:6``
    as a live link, and hover broke out of ```GET /a`...`/c``` into bold text."""

    def test_cli_report_keeps_every_path_and_name_inert(self, hostile_index):
        result = ripple("impact", "views.target", "--db", str(hostile_index))
        assert result.exit_code == 0, result.output
        spans = _assert_inert(result.stdout, ("1 direct caller · 1 endpoint",))
        assert f"{HOSTILE_DIR}/views.py:6" in spans and f"{HOSTILE_DIR}/views.py:12" in spans
        assert "GET /a`<b>**x**`/c" in spans

    def test_hover_keeps_the_endpoint_path_in_its_code_span(self, hostile_index):
        from lsp_server.features.hover import markdown
        from analysis.impact import NodesQuery, blast_radius

        with EmbeddedStore(hostile_index) as store:
            node = store.find_symbols(["target"])["target"][0]
            text = markdown(node, blast_radius(store, NodesQuery((node,))))
        spans = _assert_inert(text, ("Impact:",))
        assert "GET /a`<b>**x**`/c" in spans and "views.target" in spans

    def test_the_lsp_report_links_have_escaped_text(self, hostile_index):
        from lsp_server.features.custom import markdown_link
        from analysis.impact import SymbolQuery, blast_radius
        from analysis.impact_report import render_markdown

        with EmbeddedStore(hostile_index) as store:
            report = blast_radius(store, SymbolQuery("views.target"))
        text = render_markdown(report, lambda repo, path, line: markdown_link(path, f"https://w/{line}", line))
        links = [t for t in _tokens(text) if t.type == "link_open"]
        # ours, no other: the call site, the caller (callers by hop, at its definition), the target
        assert [t.attrs["href"] for t in links] == ["https://w/6#L6", "https://w/12#L12", "https://w/10#L10"]
        texts = [t.content for t in _tokens(text) if t.type == "text" and "views.py" in t.content]
        assert f"{HOSTILE_DIR}/views.py:6" in texts

    def test_a_signature_with_a_fence_stays_in_its_block(self):
        from lsp_server.features.hover import markdown
        from analysis.impact import BlastRadius

        node = Node("r:a.f(1)", "Function", "f", "f", "r <b>", "a.py", 1, 0, 2, 0,
                    {"signature": 'def f(x="```\n# heading\n<script>")'})
        text = markdown(node, BlastRadius("f", 5, (), (), (), (), (), (), (), (), ()))
        tokens = _tokens(text)
        assert [t.content for t in tokens if t.type == "fence"] == ['def f(x="```\n# heading\n<script>")\n']
        assert not {t.type for t in tokens} & {"heading_open", "html_block", "html_inline"}


# ---------------------------------------------------------------------------------- 16: read-only


@contextlib.contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """Make ``paths`` unwritable for this process for real: ``chmod`` for a user, ``chattr +i`` for
    root (whom modes do not stop). Skips the test where neither works."""
    if os.geteuid() != 0:
        modes = [(p, p.stat().st_mode) for p in paths]
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in modes:
                p.chmod(mode)
        return
    if shutil.which("chattr") is None:
        pytest.skip("root without chattr: cannot make a folder read-only here")
    done = []
    try:
        for p in paths:
            if subprocess.run(["chattr", "+i", str(p)], capture_output=True).returncode != 0:
                pytest.skip("chattr +i is not supported on this file system")
            done.append(p)
        yield
    finally:
        for p in done:
            subprocess.run(["chattr", "-i", str(p)], check=True)


@pytest.fixture
def small_index(tmp_path) -> tuple[Path, Path]:
    ws = write_tree(tmp_path / "ws", {
        "app/__init__.py": "",
        "app/repo.py": "class OwnerRepository:\n    def find(self, name):\n        return []\n",
        "app/service.py": "from app.repo import OwnerRepository\n\n\ndef lookup(name):\n"
                          "    return OwnerRepository().find(name)\n",
    })
    result = ripple("index", str(ws), "--no-embed")
    assert result.exit_code == 0, result.output
    return ws, ws / ".ripple" / "index.db"


class TestReadOnlyIndex:
    """Issue 12 item 16: before, every reader of an index whose folder could not be written failed
    with "unable to open database file"."""

    def test_every_reader_works_and_the_writer_says_read_only(self, small_index):
        ws, db = small_index
        assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
        with read_only(db, db.parent):
            callers = ripple("callers", "OwnerRepository.find", "--db", str(db))
            assert callers.exit_code == 0, callers.output
            assert callers.stdout.splitlines()[-1] == "app/service.py:5:30  lookup  [exact]"
            refs = ripple("references", "OwnerRepository", "--db", str(db), "--json")
            assert refs.exit_code == 0 and json.loads(refs.stdout)["targets"] == ["ws:app/repo.OwnerRepository"]
            search = ripple("search", "find owner", "--db", str(db), "--json")
            assert search.exit_code == 0 and json.loads(search.stdout)["hits"]
            impact = ripple("impact", "OwnerRepository.find", "--db", str(db))
            assert impact.exit_code == 0 and "**1 direct caller · 0 endpoints**" in impact.stdout
            stats = ripple("stats", "--db", str(db), "--json")
            assert stats.exit_code == 0 and json.loads(stats.stdout)["files"] == {"python": 3}
            doctor = ripple("doctor", str(ws))
            assert doctor.stdout.splitlines()[1].startswith(f"warn  graph   embedded {db}: read-only: ")
            index = ripple("index", str(ws), "--no-embed")
            assert index.exit_code == 1
            assert index.stderr.startswith(f"Error: cannot write index {db}: read-only: ")
            assert "another ripple process" not in index.stderr
        assert not Path(f"{db}-wal").exists()  # nothing was written beside it

    def test_the_language_server_answers_from_a_read_only_index(self, small_index):
        ws, db = small_index
        with read_only(db, db.parent), _LspProcess(ws) as lsp:
            status = lsp.request("ripple/indexStatus", {})["folders"]
            assert [(f["state"], f["files"]) for f in status] == [("ready", 3)]
            hits = lsp.request("ripple/search", {"query": "OwnerRepository find", "limit": 5})["hits"]
            assert "app.repo.OwnerRepository.find" in [h["fqn"] for h in hits]
            assert lsp.request("workspace/executeCommand", {"command": "ripple.reindex"}) == {"started": []}


class _LspProcess:
    """``ripple serve`` over stdio, driven by hand (Content-Length frames): initialize with one
    workspace folder, then requests; ``shutdown`` / ``exit`` on leaving."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "serve", "--no-embed"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=ROOT, env={**os.environ, "RIPPLE_DB": ""})
        self.next_id = 0

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> dict:
        assert self.proc.stdout is not None
        length = 0
        while (line := self.proc.stdout.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method: str, params: dict, timeout: float = 60.0) -> dict:
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self._read()
            if message.get("id") == self.next_id and "method" not in message:
                assert "error" not in message, message
                return message["result"]
            if "id" in message and "method" in message:  # a request of the server's: answer it
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        raise AssertionError(f"no answer to {method} within {timeout} s")

    def __enter__(self) -> _LspProcess:
        self.request("initialize", {"processId": os.getpid(), "capabilities": {}, "rootUri": None,
                                    "workspaceFolders": [{"uri": self.folder.as_uri(), "name": "ws"}]})
        self._send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.request("shutdown", {}, timeout=20)
            self._send({"jsonrpc": "2.0", "method": "exit"})
            self.proc.wait(20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    stream.close()


# ------------------------------------------------------------------------- 17: disk full, read-only


@contextlib.contextmanager
def small_tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A real file system of ``size`` at ``path`` (root with mount rights), else skip."""
    path.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def _big_file(repo: str, i: int) -> IndexedFile:
    path = f"pkg/m{i}.py"
    text = f"def f{i}(x):\n" + "    return x  # " + "payload " * 2000 + "\n"
    return IndexedFile(FileRecord(repo, path, "python", f"{i:064x}", len(text)), text=text,
                       nodes=[Node(f"{repo}:{path}", "File", path, path, repo, path, 1, 0, 2, 0)],
                       chunks=[Chunk(f"{repo}:{path}#0", repo, repo, path, "python", "function", f"f{i}",
                                     f"{repo}:{path}", None, 1, 2, text, f"{i:064x}")])


class TestDiskFullAndReadOnlyMessages:
    """Issue 12 item 17: before, a full disk and a read-only index both ended with "is another ripple
    process writing it?"."""

    def test_sqlite_full_says_disk_full_with_the_free_bytes(self, tmp_path):
        db = tmp_path / "index.db"
        with EmbeddedStore(db) as store:
            store._db.execute("PRAGMA max_page_count = 40")  # SQLITE_FULL, as a full disk gives
            with pytest.raises(StoreUnavailable) as info:
                store.replace_files([_big_file("r", i) for i in range(20)])
            message = str(info.value)
            assert message.startswith(f"index {db}: disk full: ") and " bytes free on /" in message
            assert "another ripple process" not in message
            assert store.repos() == []  # rolled back whole

    def test_writing_a_read_only_store_says_read_only(self, small_index):
        _, db = small_index
        with read_only(db, db.parent), EmbeddedStore(db) as store:
            assert store.read_only is not None and store.read_only.startswith("read-only: ")
            with pytest.raises(StoreReadOnly, match=r"was opened for reading only \(read-only: .*\); nothing was "
                                                    r"written$"):
                store.replace_files([_big_file("r", 1)])

    def test_a_full_file_system_in_ripple_index(self, tmp_path):
        # random comments: file texts are stored compressed, so repeated characters would fit in 1 MB
        noise = random.Random(7)
        src = write_tree(tmp_path / "src", {f"pkg/m{i}.py": f"def f{i}(x):\n    return x  # {noise.randbytes(1500).hex()}\n"
                                            for i in range(300)})
        with small_tmpfs(tmp_path / "full", "1m") as mnt:
            started = time.monotonic()
            result = ripple("index", str(src), "--db", str(mnt / "x.db"), "--no-embed", "-j", "1")
            assert time.monotonic() - started < 120
            assert result.exit_code == 1
            error = " ".join(result.stderr.split()).split("Error: ", 1)[1]
            assert "disk full: " in error and f"bytes free on {mnt} (writing {mnt}/x.db" in error
            assert "another ripple process" not in error and "Traceback" not in result.stderr

    def test_os_errors_are_named(self, tmp_path):
        full = os_error_message(OSError(errno.ENOSPC, "No space left on device"), tmp_path / "journal.json")
        assert full.startswith("disk full: ") and f"(writing {tmp_path}/journal.json)" in full
        rofs = os_error_message(OSError(errno.EROFS, "Read-only file system", str(tmp_path / "x.lock")))
        assert rofs.startswith("read-only: ")


# ------------------------------------------------------------------------------------ 18: Ctrl-C


class TestInterrupt:
    """Issue 12 item 18: before, Ctrl-C while embedding printed the summary and exited 0 (and during
    the graph phase click said "Aborted!" and exited 1)."""

    def test_ctrl_c_during_extraction_exits_130_and_keeps_the_index(self, tmp_path):
        src = write_tree(tmp_path / "src", {f"pkg/m{i}.py": "".join(f"def f{i}_{j}(x):\n    return f{i}_{j}(x)\n\n"
                                                                    for j in range(40)) for i in range(1500)})
        db = tmp_path / "x.db"
        # A cache folder of its own: one left in ~/.cache by an earlier run for the same db path (pytest
        # reuses basetemp names) would fill the threshold before this run starts.
        env = {**os.environ, "RIPPLE_DB": "", "XDG_CACHE_HOME": str(tmp_path / "xdg")}
        proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "index", str(src), "--db", str(db),
                                 "--no-embed", "-j", "1"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, env=env, preexec_fn=default_sigint)
        cache = state_dir(db, env)
        deadline = time.monotonic() + 60
        # 1 MB: opening the extraction cache (diskcache's SQLite file, its WAL and shm) already writes a
        # few hundred KB before the first file is parsed; each parsed file adds about 60 KB of 1,500.
        while sum(f.stat().st_size for f in cache.rglob("*") if f.is_file()) < 1_000_000:
            assert time.monotonic() < deadline and proc.poll() is None, "extraction did not start within 60 s"
            time.sleep(0.05)  # extraction under way: its cache is filling
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        out, err = proc.communicate(timeout=60)
        text = " ".join(err.decode().split())
        assert proc.returncode == 130, text
        assert (f"interrupted during extract: nothing of this run was written: {db} is as it was before it (files "
                "parsed so far are cached); run `ripple index` again to finish") in text
        assert "Traceback" not in text and "Aborted" not in text
        with EmbeddedStore(db) as store:
            assert store.repos() == []

    def test_ctrl_c_while_embedding_exits_130_with_the_graph_complete(self, tmp_path, monkeypatch):
        import lsp_server.cli_embed as cli_embed  # the embedding phase of `ripple index` lives there

        def interrupted(*args, **kwargs):
            raise KeyboardInterrupt

        monkeypatch.setattr(cli_embed, "embed_pending", interrupted)
        src = write_tree(tmp_path / "src", {"a.py": "def f():\n    return g()\n\n\ndef g():\n    return 1\n"})
        result = ripple("index", str(src), "--db", str(tmp_path / "x.db"))
        assert result.exit_code == 130
        assert ("interrupted while embedding: the graph and BM25 index are complete and answer; the vectors computed "
                "so far are kept; run `ripple embed` to finish") in " ".join(result.stderr.split())
        assert ripple("callers", "g", "--db", str(tmp_path / "x.db")).stdout.splitlines()[-1] == "a.py:2:12  f  [exact]"


# ------------------------------------------------------------------------------- 19: not an index


def _foreign_files(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    text = folder / "notes.txt"
    text.write_text("my notes\n" * 500, encoding="utf-8")
    binary = folder / "photo.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    other = folder / "app.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE people (name TEXT)")
    conn.execute("INSERT INTO people VALUES ('ada')")
    conn.commit()
    conn.close()
    lookalike = folder / "lookalike.db"  # a meta table, but another application's
    conn = sqlite3.connect(lookalike)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('application', 'notes-app'), ('schema_version', '4')")
    conn.commit()
    conn.close()
    return {"text": text, "binary": binary, "sqlite": other, "lookalike": lookalike}


class TestNotAnIndex:
    """Issue 12 item 19: before, ``--db`` naming any file that was not an index advised "delete it and
    re-index"."""

    @pytest.mark.parametrize("kind", ["text", "binary", "sqlite", "lookalike"])
    def test_someone_elses_file_is_named_never_to_be_deleted(self, tmp_path, kind):
        path = _foreign_files(tmp_path / "files")[kind]
        before = sha(path)
        src = write_tree(tmp_path / "src", {"a.py": "def f():\n    pass\n"})
        for args in (["stats"], ["callers", "f"], ["index", str(src), "--no-embed"]):
            result = ripple(*args, "--db", str(path))
            assert result.exit_code == 1
            message = " ".join(result.stderr.split())
            assert message.startswith(f"Error: {path} is not a ripple index (")
            assert message.endswith("ripple did not create it and leaves it alone: pass another --db (or RIPPLE_DB)")
            assert "delete" not in message.lower()
        assert sha(path) == before
        with pytest.raises(NotAnIndex):
            EmbeddedStore(path)

    def test_the_doctor_never_advises_deleting_it(self, tmp_path):
        ws = tmp_path / "ws"
        (ws / ".ripple").mkdir(parents=True)
        shutil.copy(_foreign_files(tmp_path / "files")["sqlite"], ws / ".ripple" / "index.db")
        result = ripple("doctor", str(ws))
        assert result.exit_code == 1
        assert "delete" not in result.stdout.lower()
        assert "fix: name another index file (RIPPLE_DB / [embedded] db)" in result.stdout

    def test_a_damaged_ripple_index_may_be_rebuilt(self, small_index):
        _, db = small_index
        data = db.read_bytes()
        db.write_bytes(data[:100] + b"\x00" * (len(data) - 100))  # ripple's header, pages gone
        result = ripple("stats", "--db", str(db))
        assert result.exit_code == 1
        assert " ".join(result.stderr.split()).endswith("delete it and re-index")


# ------------------------------------------------------------------------------ 20: ArcadeDB restart


class TestArcadeDBRestart:
    """Issue 12 item 20: before, ``tools/arcadedb_server.py --workdir`` could not start again on its own
    root folder (a new root password each start: "refused the credentials")."""

    def test_stop_restart_on_the_same_folder_and_reconnect(self, tmp_path):
        sys.path.insert(0, str(ROOT))
        try:
            from tools.arcadedb_server import ArcadeDBError, ArcadeDBServer, arcadedb_home
        finally:
            sys.path.remove(str(ROOT))
        try:
            arcadedb_home()
        except ArcadeDBError as exc:
            pytest.skip(str(exc))
        from stores.errors import StoreError
        from stores.memgraph import MemgraphGraphStore

        workdir = tmp_path / "arcadedb"
        started = time.monotonic()
        first = ArcadeDBServer(workdir, heap="256m", startup_timeout=120).start()
        uri = first.uri
        store = MemgraphGraphStore(uri, max_concurrency=2, connect_timeout=5, retry_time=0, query_timeout=20)
        try:
            store.replace_files([IndexedFile(FileRecord("r", "a.py", "python", "a" * 64, 1),
                                             nodes=[Node("r:a.py", "File", "a.py", "a.py", "r", "a.py", 1, 0, 1, 0)])])
            first.stop()
            with pytest.raises(StoreError):  # the outage is seen
                store.repos()
            second = ArcadeDBServer(workdir, heap="256m", startup_timeout=120)  # another process, same folder
            assert second.password == first.password
            second.start()
            try:
                assert second.uri == uri  # same password, same ports: the same URI reconnects
                assert store.repos() == ["r"]  # the data survived the restart
            finally:
                second.stop()
        finally:
            store.close()
        assert time.monotonic() - started < 240
        with pytest.raises(ArcadeDBError, match="was first started with another root password"):
            ArcadeDBServer(workdir, password="something-else")
