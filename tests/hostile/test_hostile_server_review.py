"""Hostile review of the language server's fixes for issue 12 (items 1, 2, 6, 13, 14, 15): what a
second, adversarial pass still broke, each class run against a real ``ripple serve`` (stdio or TCP
on loopback). Helpers come from :mod:`tests.hostile.test_hostile_server`; budgets are loose.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.test_hostile_server import SERVE, Raw, Server, clean_env, ready, write_python

TOKEN = "review-token-0123456789abcdef"


class TcpServer:
    """``ripple serve --tcp 127.0.0.1:0`` confined to ``root``, with the token :data:`TOKEN`."""

    def __init__(self, root: Path, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([*SERVE, "--no-embed", "--tcp", "127.0.0.1:0", "--root", str(root)],
                                     stderr=subprocess.PIPE, env={**clean_env(), "RIPPLE_SERVE_TOKEN": TOKEN, **(env or {})},
                                     cwd=root)
        line = self.proc.stderr.readline().decode()  # type: ignore[union-attr]
        m = re.fullmatch(r"ripple serve: listening on 127\.0\.0\.1:(\d+); clients send the token in \$RIPPLE_SERVE_TOKEN "
                         r"in initializationOptions\.token\n", line)
        assert m, line
        self.port = int(m[1])
        self.sockets: list[socket.socket] = []
        self.files: list[Any] = []

    def socket(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        self.sockets.append(sock)
        return sock

    def connect(self) -> Raw:
        sock = self.socket()
        reader = sock.makefile("rb")
        self.files.append(reader)
        return Raw(sock.sendall, reader)

    def initialize(self, client: Raw, folder: Path, token: Any = TOKEN) -> dict[str, Any] | None:
        return client.request(1, "initialize", {"capabilities": {}, "initializationOptions": {"token": token},
                                                "workspaceFolders": [{"uri": folder.as_uri(), "name": folder.name}]})

    def close(self) -> None:
        for sock in self.sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        for f in self.files:
            f.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.proc.stderr.close()  # type: ignore[union-attr]


@pytest.fixture
def stdio():
    started: list[Server] = []

    def start(*args: str, **kw: Any) -> Server:
        started.append(Server(*args, **kw))
        return started[-1]

    yield start
    for s in started:
        s.close()


@pytest.fixture
def tcp(tmp_path):
    root = write_python(tmp_path / "allowed" / "shop", {"app/repo.py": "def save(x):\n    return x\n"})
    server = TcpServer(tmp_path / "allowed")
    yield server, root
    server.close()


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the peer closes ``sock`` within ``seconds`` (what it sends before is read and dropped)."""
    sock.settimeout(seconds)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            if not sock.recv(1 << 16):
                return True
    except TimeoutError:
        return False
    except OSError:
        return True
    return False


class TestTcpUnauthenticatedPeer:
    """Before ``initialize`` with the token, a TCP peer is any local process: it must neither stop
    the server, nor keep the session's client out, nor make the server allocate what it likes."""

    def test_unencodable_token_is_refused_with_an_answer(self, tcp):
        # A lone surrogate in the token ("\ud800" is valid JSON) made the token check raise: the
        # initialize got no answer and the connection ended with a traceback.
        server, root = tcp
        client = server.connect()
        body = (b'{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"capabilities": {}, '
                b'"initializationOptions": {"token": "\\ud800"}}}')
        client.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        answer = client.wait(7, 10)
        assert answer is not None and answer["error"]["code"] == -32600, answer
        assert answer["error"]["message"].startswith("initialize refused: this server needs its token")
        assert client.next(10) is None  # and closed
        good = server.connect()
        assert "capabilities" in server.initialize(good, root)["result"]

    def test_idle_connection_does_not_keep_the_client_out(self, tcp):
        # A connection that never sends initialize (a port scanner, a stuck client, a hostile
        # process) held the one session slot forever: every later client was closed at once.
        server, root = tcp
        idle = server.socket()
        time.sleep(0.5)
        t0 = time.monotonic()
        answer = None
        while answer is None and time.monotonic() - t0 < 40:
            client = server.connect()
            try:
                answer = server.initialize(client, root)
            except Exception:  # noqa: BLE001 - closed at once while the idle one holds the slot
                answer = None
            if answer is None:
                time.sleep(1.0)
        assert answer is not None and "capabilities" in answer["result"], answer
        assert time.monotonic() - t0 < 30
        assert closed_within(idle, 5)

    def test_flooding_before_initialize_does_not_keep_the_client_out(self, tcp):
        server, root = tcp
        flood = server.connect()
        for i in range(200):
            flood.send({"jsonrpc": "2.0", "id": i, "method": "ripple/indexStatus", "params": {}})
        assert flood.wait(199, 10)["error"]["code"] == -32002
        t0 = time.monotonic()
        answer = None
        while answer is None and time.monotonic() - t0 < 40:
            flood.send({"jsonrpc": "2.0", "method": "$/noise", "params": {}})
            client = server.connect()
            try:
                answer = server.initialize(client, root)
            except Exception:  # noqa: BLE001
                answer = None
            if answer is None:
                time.sleep(1.0)
        assert answer is not None and "capabilities" in answer["result"], answer

    def test_large_message_before_initialize_is_refused_unread(self, tcp):
        # Before authentication a peer could make the server read and parse 64 MiB (a list of 21
        # million `{}` takes 1.6 GB and 4.5 s of the event loop).
        server, root = tcp
        sock = server.socket()
        sock.sendall(b"Content-Length: 50000000\r\n\r\n" + b"[" + b"{}," * 1000)  # the rest would follow
        reader = sock.makefile("rb")
        server.files.append(reader)
        client = Raw(sock.sendall, reader)
        answer = client.next(10)
        assert answer is not None and answer["id"] is None and answer["error"]["code"] == -32600, answer
        assert "before initialize" in answer["error"]["message"]
        assert client.next(10) is None  # closed: the rest is never read
        good = server.connect()
        assert "capabilities" in server.initialize(good, root)["result"]


class TestTokenFile:
    """``--token-file`` readable by other users gives them the token (writable: lets them choose
    it): refuse it as ssh refuses a private key others can read."""

    @pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620])
    def test_token_file_readable_by_others_is_refused(self, tmp_path, mode):
        token = tmp_path / "token"
        token.write_text(TOKEN + "\n", encoding="utf-8")
        token.chmod(mode)
        proc = subprocess.Popen([*SERVE, "--tcp", "127.0.0.1:0", "--token-file", str(token)], stderr=subprocess.PIPE,
                                env=clean_env(), cwd=tmp_path)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            pytest.fail(f"served with a token file of mode {mode:o}: {err.decode()}")
        assert proc.returncode == 2
        assert f"{token} can be read or written by other users (mode {mode:o}): `chmod 600 {token}`" in err.decode()

    def test_private_token_file_is_accepted(self, tmp_path):
        token = tmp_path / "token"
        token.write_text(TOKEN + "\n", encoding="utf-8")
        token.chmod(0o600)
        proc = subprocess.Popen([*SERVE, "--tcp", "127.0.0.1:0", "--token-file", str(token)], stderr=subprocess.PIPE,
                                env=clean_env(), cwd=tmp_path)
        try:
            line = proc.stderr.readline().decode()  # type: ignore[union-attr]
            assert line.startswith("ripple serve: listening on 127.0.0.1:") and f"the token in {token}" in line, line
            assert TOKEN not in line
        finally:
            proc.kill()
            proc.wait(10)
            proc.stderr.close()  # type: ignore[union-attr]


class TestFramingRecovers:
    """A frame whose header has no usable ``Content-Length`` (negative, not a number) cannot be
    read, but the frames after it must be: the reader lost every later message (each body was read
    as a header line together with the next frame's ``Content-Length``), and the session went
    silent while the process lived."""

    @pytest.mark.parametrize("header", [b"Content-Length: -5\r\n", b"Content-Length: 1e3\r\n", b"Content-Length:\r\n",
                                        b"Content-Type: x\r\n"])
    def test_frames_after_a_bad_header_are_answered(self, tmp_path, stdio, header):
        root = write_python(tmp_path / "shop", {"app/repo.py": "def save(x):\n    return x\n"})
        server = stdio("--no-embed")
        server.initialize(root)
        bad = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "ripple/indexStatus", "params": {}}).encode()
        server.client.raw(header + b"\r\n" + bad)
        for i in (6, 7):
            answer = server.client.request(i, "ripple/indexStatus", {}, timeout=10)
            assert answer is not None and answer["result"]["folders"][0]["repo"] == "shop", answer
        assert not [m for m in server.client.seen if m.get("id") == 5]  # unreadable: unanswerable


class TestIndexReplacedByAnImposter:
    """Issue 12 #2, the careless variants: the index file replaced by a file that is not an index,
    or by a folder. The folder goes to state ``error`` with the reason (never touching the
    imposter), ``ripple/indexStatus`` no longer says it watches, and once the imposter is gone the
    index is rebuilt on its own."""

    @pytest.mark.parametrize("imposter", ["text", "folder"])
    def test_imposter_then_recovery(self, tmp_path, stdio, imposter):
        root = write_python(tmp_path / "shop", {"app/repo.py": "def save(x):\n    return x\n"})
        server = stdio("--no-embed")
        server.initialize(root)
        server.wait_for(lambda fs: fs[0]["state"] == "ready" and fs[0]["watching"])
        db = root / ".ripple" / "index.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        if imposter == "text":
            db.write_text("my notes\n", encoding="utf-8")
            reason = f"{db} is not a ripple index (file is not a database); ripple did not create it and leaves it alone"
        else:
            db.mkdir()
            reason = f"{db} is a folder, not an index file"
        [folder] = server.wait_for(lambda fs: fs[0]["state"] == "error", timeout=30)
        assert folder["error"].startswith(reason), folder
        # the stopped watcher's thread is gone: saved files are not re-indexed, and the status must say so
        assert folder["watching"] is False, folder
        assert db.read_text(encoding="utf-8") == "my notes\n" if imposter == "text" else db.is_dir()
        if imposter == "text":
            db.unlink()
        else:
            db.rmdir()
        [folder] = server.wait_for(lambda fs: fs[0]["state"] == "ready" and fs[0]["watching"] and fs[0].get("files") == 1,
                                   timeout=30)
        assert folder["error"] is None


class TestClonedStateFolder:
    """Files ripple keeps for an index must be read and written as its own regular files, never
    through what another party put at their names: ``.ripple/.gitignore`` lives in the workspace (a
    clone may ship it); the repository registry of issue 12 #1 lives in the index's state folder
    (``stores.factory.state_dir``: the user's cache since the pickle fix, beside the index without a
    home folder), where a crashed tool, a careless user or, without a home, a clone leaves odd
    files."""

    @staticmethod
    def cloned(tmp_path: Path) -> tuple[Path, Path]:
        from stores.factory import default_db_path, state_dir

        root = write_python(tmp_path / "cloned", {"app/repo.py": "def save(x):\n    return x\n"})
        state = state_dir(default_db_path(root), {"XDG_CACHE_HOME": str(tmp_path / "cache")})
        state.mkdir(parents=True)
        return root, state

    @staticmethod
    def env(tmp_path: Path) -> dict[str, str]:
        return {"XDG_CACHE_HOME": str(tmp_path / "cache")}

    def test_registry_temp_file_link_overwrites_nothing(self, tmp_path, stdio):
        # `repositories.json.tmp` linked to ~/.bashrc: opening the folder replaced the user's file
        # with the registry's JSON (write_text follows the link; found while the state folder was
        # still the clone's `.ripple/index.db-state`).
        victim = tmp_path / "home" / ".bashrc"
        victim.parent.mkdir()
        victim.write_text("export IMPORTANT=1\n", encoding="utf-8")
        root, state = self.cloned(tmp_path)
        (state / "repositories.json.tmp").symlink_to(victim)
        server = stdio("--no-embed", env=self.env(tmp_path))
        server.initialize(root)
        [folder] = server.wait_for(ready)
        assert (folder["state"], folder["repo"]) == ("ready", "cloned")
        assert victim.read_text(encoding="utf-8") == "export IMPORTANT=1\n"
        registry = state / "repositories.json"
        assert not registry.is_symlink()
        assert json.loads(registry.read_text(encoding="utf-8")) == {"cloned": str(root)}

    def test_gitignore_link_creates_nothing(self, tmp_path, stdio):
        target = tmp_path / "elsewhere" / "created-by-ripple"
        target.parent.mkdir()
        root, _ = self.cloned(tmp_path)
        (root / ".ripple").mkdir()
        (root / ".ripple" / ".gitignore").symlink_to(target)  # dangling: exists() said no, write_text followed it
        server = stdio("--no-embed", env=self.env(tmp_path))
        server.initialize(root)
        assert server.wait_for(ready)[0]["state"] == "ready"
        assert not target.exists()

    @pytest.mark.parametrize("kind", ["fifo", "device"])
    def test_registry_that_is_not_a_regular_file(self, tmp_path, stdio, kind):
        # A FIFO blocked initialize forever (the event loop waited in open()); a link to /dev/zero
        # grew the server by 6.8 GB in 15 s.
        root, state = self.cloned(tmp_path)
        registry = state / "repositories.json"
        if kind == "fifo":
            os.mkfifo(registry)
        else:
            registry.symlink_to("/dev/zero")
        server = stdio("--no-embed", env=self.env(tmp_path))
        t0 = time.monotonic()
        server.initialize(root)
        [folder] = server.wait_for(ready, timeout=20)
        assert time.monotonic() - t0 < 20
        assert folder["state"] == "error"
        assert folder["error"] == (f"{registry} is not a regular file (the folders of the index's repositories, "
                                   "written by ripple): remove it")
        assert server.client.request(99, "ripple/indexStatus", {}, timeout=10)["result"]["folders"][0]["repo"] == "cloned"

    def test_registry_lock_link_fails_the_folder_not_the_session(self, tmp_path, stdio):
        # filelock refuses a linked lock file (ELOOP), but the OSError left claim_repository raw:
        # initialize failed with InternalError and no folder of the workspace was opened.
        victim = tmp_path / "victim"
        victim.write_text("keep\n", encoding="utf-8")
        root, state = self.cloned(tmp_path)
        (state / "repositories.json.lock").symlink_to(victim)
        other = write_python(tmp_path / "other", {"o.py": "def o():\n    return 0\n"})
        server = stdio("--no-embed", env=self.env(tmp_path))
        server.initialize(root, other)
        folders = server.wait_for(ready)
        assert [(f["repo"], f["state"]) for f in folders] == [("cloned", "error"), ("other", "ready")]
        assert folders[0]["error"].startswith(f"cannot lock {state / 'repositories.json.lock'}: ")
        assert victim.read_text(encoding="utf-8") == "keep\n"
