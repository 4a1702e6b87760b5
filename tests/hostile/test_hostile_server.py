"""Hostile suite, language server part: each class is the regression test of one class of attack or
carelessness found by the hostile review (issue 12), run against a real ``ripple serve`` (stdio or
TCP) on folders generated here. Budgets (seconds) are loose: CI machines are loaded.

The client is a raw JSON-RPC one (``Raw``), so malformed frames and params can be sent as they are;
the last class fuzzes framing and params with hypothesis.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

SERVE = [sys.executable, "-m", "lsp_server.cli", "serve"]
RIPPLE = [sys.executable, "-m", "lsp_server.cli"]


def clean_env() -> dict[str, str]:
    """The environment without ``RIPPLE_*``, read when a process starts (so the session's
    ``$XDG_CACHE_HOME`` of tests/conftest.py is inherited: state folders never land in ~/.cache)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("RIPPLE_")}


def frame(obj: Any) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Raw:
    """A raw LSP client over a byte stream: ``send`` frames, ``request`` waits for the response of
    one id (answering the server's own requests with ``null``), every message kept in ``seen``."""

    def __init__(self, write: Any, read: Any, close: Any = None) -> None:
        self._write, self.q, self.close = write, queue.Queue(), close or (lambda: None)
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._reader, args=(read,), daemon=True).start()

    def _reader(self, read: Any) -> None:
        try:
            while True:
                length = None
                while True:
                    line = read.readline()
                    if not line:
                        raise EOFError
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                    if line in (b"\r\n", b"\n"):
                        break
                self.q.put(json.loads(read.read(length)))
        except (EOFError, OSError, ValueError):
            self.q.put(None)

    def raw(self, data: bytes) -> None:
        self._write(data)

    def send(self, obj: Any) -> None:
        self._write(frame(obj))

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def next(self, timeout: float) -> dict[str, Any] | None:
        """The next message, ``None`` at EOF; raises ``queue.Empty`` on timeout."""
        m = self.q.get(timeout=timeout)
        if m is not None:
            self.seen.append(m)
            if "method" in m and "id" in m:
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
        return m

    def request(self, msg_id: Any, method: str, params: Any = ..., timeout: float = 20.0) -> dict[str, Any] | None:
        msg = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not ...:
            msg["params"] = params
        self.send(msg)
        return self.wait(msg_id, timeout)

    def wait(self, msg_id: Any, timeout: float = 20.0) -> dict[str, Any] | None:
        end = time.monotonic() + timeout
        while True:
            m = self.next(max(0.01, end - time.monotonic()))
            if m is None or ("method" not in m and m.get("id") == msg_id):
                return m

    def messages(self, kind: str) -> list[str]:
        return [m["params"]["message"] for m in self.seen if m.get("method") == kind]


class Server:
    """``ripple serve`` over stdio in a subprocess, with a :class:`Raw` client."""

    def __init__(self, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen([*SERVE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env={**clean_env(), **(env or {})}, cwd=cwd)
        self.stderr: list[bytes] = []
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()  # type: ignore[arg-type]

        def write(data: bytes) -> None:
            self.proc.stdin.write(data)  # type: ignore[union-attr]
            self.proc.stdin.flush()  # type: ignore[union-attr]

        self.client = Raw(write, self.proc.stdout)
        self._ids = 1000

    def id(self) -> int:
        self._ids += 1
        return self._ids

    def initialize(self, *folders: Path, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = self.client.request(1, "initialize", {
            "capabilities": capabilities or {},
            "workspaceFolders": [{"uri": f.as_uri(), "name": f.name} for f in folders]})
        assert answer is not None and "result" in answer, answer
        self.client.notify("initialized", {})
        return answer

    def status(self) -> list[dict[str, Any]]:
        answer = self.client.request(self.id(), "ripple/indexStatus", {})
        assert answer is not None and "result" in answer, answer
        return answer["result"]["folders"]

    def wait_for(self, check: Any, timeout: float = 60.0) -> list[dict[str, Any]]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            folders = self.status()
            if check(folders):
                return folders
            time.sleep(0.1)
        raise AssertionError(f"not reached in {timeout} s: {folders}")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                pipe.close()  # type: ignore[union-attr]
            except OSError:
                pass


@pytest.fixture
def servers():
    started: list[Server] = []

    def start(*args: str, **kw: Any) -> Server:
        server = Server(*args, **kw)
        started.append(server)
        return server

    yield start
    for s in started:
        s.close()


def write_python(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def files_of(db: Path) -> list[tuple[str, str]]:
    """``(repo, path)`` of every indexed file (none while the index is being created)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return sorted(conn.execute("SELECT repo, path FROM files").fetchall())
    except sqlite3.OperationalError:
        return []
    finally:
        conn.close()


def ripple(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 120) \
        -> subprocess.CompletedProcess[str]:
    return subprocess.run([*RIPPLE, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout,
                          env={**clean_env(), **(env or {})})


def ready(folders: list[dict[str, Any]]) -> bool:
    return all(f["state"] == "error" or f["state"] == "ready" and f["watching"] for f in folders)


# ------------------------------------------------------------------------------------ data loss


class TestNoRepositoryTakeover:
    """Issue 12 #1: ``RIPPLE_DB`` naming an index that holds exactly one other repository made the
    server adopt that repository's name, and its first sync deleted the other repository's files.
    ``ripple index`` / ``watch`` of a same-named folder elsewhere did the same."""

    @pytest.fixture
    def shared(self, tmp_path: Path) -> tuple[Path, Path]:
        other = write_python(tmp_path / "other", {"pkg/o.py": "def other_fn():\n    return 1\n"})
        db = tmp_path / "shared.db"
        result = ripple("index", str(other), "--db", str(db), "--no-embed")
        assert result.returncode == 0, result.stderr
        return other, db

    def test_server_keeps_the_folder_name_and_the_other_repository(self, shared, tmp_path, servers):
        other, db = shared
        mine = write_python(tmp_path / "mine", {"lib/m.py": "def mine_fn():\n    return 2\n"})
        server = servers("--no-embed", env={"RIPPLE_DB": str(db)})
        server.initialize(mine)
        [folder] = server.wait_for(ready)
        assert (folder["repo"], folder["state"], folder["error"]) == ("mine", "ready", None)
        assert files_of(db) == [("mine", "lib/m.py"), ("other", "pkg/o.py")]

    def test_server_refuses_a_same_named_folder_elsewhere(self, shared, tmp_path, servers):
        other, db = shared
        imposter = write_python(tmp_path / "b" / "other", {"pkg/i.py": "def imposter():\n    return 0\n"})
        server = servers("--no-embed", env={"RIPPLE_DB": str(db)})
        server.initialize(imposter)
        [folder] = server.wait_for(ready, timeout=20)
        assert folder["state"] == "error"
        expected = (f"index {db} already holds repository 'other', indexed from {other}: {imposter} cannot be "
                    "indexed under the same name")
        assert folder["error"].startswith(expected)
        assert any(m.startswith("ripple: " + expected) for m in server.client.messages("window/showMessage"))
        time.sleep(1.0)  # a sync would have run by now
        assert files_of(db) == [("other", "pkg/o.py")]

    @pytest.mark.parametrize("command", ["index", "watch"])
    def test_cli_refuses_a_same_named_folder_elsewhere(self, shared, tmp_path, command):
        other, db = shared
        imposter = write_python(tmp_path / "b" / "other", {"pkg/i.py": "def imposter():\n    return 0\n"})
        result = ripple(command, str(imposter), "--db", str(db), "--no-embed", timeout=60)
        assert result.returncode == 1
        assert f"already holds repository 'other', indexed from {other}" in result.stderr
        assert files_of(db) == [("other", "pkg/o.py")]

    def test_a_deleted_index_keeps_no_claims(self, shared, tmp_path):
        # The record of which folder a repository came from lives in the user's cache folder and
        # outlives the index: once the index is deleted, a same-named folder elsewhere may use the
        # name, and then it is that folder's.
        other, db = shared
        for leftover in db.parent.glob(db.name + "*"):
            leftover.unlink()
        second = write_python(tmp_path / "b" / "other", {"pkg/i.py": "def second():\n    return 0\n"})
        result = ripple("index", str(second), "--db", str(db), "--no-embed", timeout=60)
        assert result.returncode == 0, result.stderr
        assert files_of(db) == [("other", "pkg/i.py")]
        result = ripple("index", str(other), "--db", str(db), "--no-embed", timeout=60)
        assert result.returncode == 1
        assert f"already holds repository 'other', indexed from {second}" in result.stderr
        assert files_of(db) == [("other", "pkg/i.py")]

    def test_the_cli_keeps_a_folders_name_too(self, tmp_path):
        # `ripple index F --repo shop`, then `ripple index F`: the same repository again, not a second copy
        root = write_python(tmp_path / "checkout", {"app/a.py": "def a():\n    return 1\n"})
        assert ripple("index", str(root), "--repo", "shop", "--no-embed").returncode == 0
        result = ripple("index", str(root), "--no-embed")
        assert result.returncode == 0, result.stderr
        assert files_of(root / ".ripple" / "index.db") == [("shop", "app/a.py")]
        result = ripple("index", str(root), "--repo", "other-name", "--no-embed")  # asked for: a second name
        assert result.returncode == 0, result.stderr
        assert files_of(root / ".ripple" / "index.db") == [("other-name", "app/a.py"), ("shop", "app/a.py")]

    def test_a_folder_indexed_under_another_name_keeps_it(self, tmp_path, servers):
        # `ripple index F --repo shop` then the editor opens F: served as `shop`, not as a second copy
        root = write_python(tmp_path / "checkout", {"app/a.py": "def a():\n    return 1\n"})
        assert ripple("index", str(root), "--repo", "shop", "--no-embed").returncode == 0
        server = servers("--no-embed")
        server.initialize(root)
        [folder] = server.wait_for(ready)
        assert (folder["repo"], folder["state"]) == ("shop", "ready")
        assert files_of(root / ".ripple" / "index.db") == [("shop", "app/a.py")]


class TestIndexDeletedWhileServing:
    """Issue 12 #2: deleting ``.ripple/index.db`` while the server ran: it kept writing to the
    unlinked file, said "ready", and ``ripple.reindex`` did not rebuild it."""

    @pytest.fixture
    def served(self, tmp_path, servers) -> tuple[Server, Path]:
        root = write_python(tmp_path / "shop", {"app/repo.py": "def save(x):\n    return x\n"})
        server = servers("--no-embed")
        server.initialize(root, capabilities={"window": {"workDoneProgress": True}})
        server.wait_for(ready)
        return server, root

    def test_deleted_index_is_rebuilt_with_later_edits(self, served):
        server, root = served
        db = root / ".ripple" / "index.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        (root / "app" / "new.py").write_text("def added():\n    return 3\n", encoding="utf-8")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (db.exists() and files_of(db) == [
                ("shop", "app/new.py"), ("shop", "app/repo.py")]):
            time.sleep(0.2)
        assert files_of(db) == [("shop", "app/new.py"), ("shop", "app/repo.py")]
        [folder] = server.wait_for(lambda fs: fs[0]["state"] == "ready" and fs[0].get("files") == 2)
        assert folder["error"] is None
        assert (f"ripple: the index {db} of shop was deleted while the server ran; rebuilding it"
                in server.client.messages("window/showMessage"))
        assert sum(m.get("method") == "window/workDoneProgress/create" for m in server.client.seen) == 2

    def test_replaced_index_is_reopened(self, served, tmp_path):
        server, root = served
        db = root / ".ripple" / "index.db"
        other = write_python(tmp_path / "elsewhere", {"x.py": "def x():\n    return 0\n"})
        spare = tmp_path / "spare.db"
        assert ripple("index", str(other), "--db", str(spare), "--no-embed").returncode == 0
        shutil.copy(spare, f"{db}.new")
        os.replace(f"{db}.new", db)  # another file at the path (another inode)
        said = f"ripple: the index {db} of shop was replaced while the server ran; reopening it"
        # the status counts the folder's own repository (1 file), not the copy's
        server.wait_for(lambda fs: fs[0]["state"] == "ready" and fs[0].get("files") == 1
                        and said in server.client.messages("window/showMessage")
                        and ("shop", "app/repo.py") in files_of(db), timeout=30)
        # the reopened index was brought in line with the folder: its own file is back beside the copy's
        assert files_of(db) == [("elsewhere", "x.py"), ("shop", "app/repo.py")]


# ------------------------------------------------------------------------------------ security


class TestTcpNeedsTokenAndStaysConfined:
    """Issue 12 #6: ``ripple serve --tcp`` had no authentication: any local process could connect,
    choose the workspace folder and read any file the user can."""

    @pytest.fixture
    def tcp(self, tmp_path):
        root = write_python(tmp_path / "allowed" / "shop", {"app/repo.py": "def save(x):\n    return x\n"})
        proc = subprocess.Popen([*SERVE, "--no-embed", "--tcp", "127.0.0.1:0", "--root", str(tmp_path / "allowed")],
                                stderr=subprocess.PIPE, env=clean_env(), cwd=tmp_path)
        line = proc.stderr.readline().decode()  # type: ignore[union-attr]
        m = re.fullmatch(r"ripple serve: listening on 127\.0\.0\.1:(\d+); clients send token (\S{40,}) in "
                         r"initializationOptions\.token\n", line)
        assert m, line
        self.sockets: list[socket.socket] = []
        self.readers: list[Any] = []
        yield int(m[1]), m[2], root
        for sock in self.sockets:  # end the connections first: their reader threads see EOF
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for sock in self.sockets:
            sock.close()
        for reader in self.readers:
            reader.close()
        proc.kill()
        proc.wait(10)
        proc.stderr.close()  # type: ignore[union-attr]

    def connect(self, port: int) -> Raw:
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        reader = sock.makefile("rb")
        self.sockets.append(sock)
        self.readers.append(reader)
        return Raw(sock.sendall, reader)

    @staticmethod
    def init(client: Raw, token: str | None, folder: Path) -> dict[str, Any] | None:
        options = {"token": token} if token is not None else None
        return client.request(1, "initialize", {"capabilities": {}, "initializationOptions": options,
                                                "workspaceFolders": [{"uri": folder.as_uri(), "name": folder.name}]})

    @pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.1", "example.org"])
    def test_non_loopback_host_refused(self, host):
        result = ripple("serve", "--tcp", f"{host}:0", timeout=30)
        assert result.returncode == 2
        assert f"{host} is not a loopback address" in result.stderr

    def test_initialize_without_or_with_a_wrong_token_is_refused_and_closed(self, tcp):
        port, token, root = tcp
        for presented in (None, "", token[:-1] + ("x" if token[-1] != "x" else "y")):
            client = self.connect(port)
            answer = self.init(client, presented, root)
            assert answer is not None and answer["error"]["code"] == -32600
            assert answer["error"]["message"].startswith("initialize refused: this server needs its token")
            assert client.next(10) is None  # the connection is closed
        client = self.connect(port)  # a request before initialize: not served
        assert client.request(2, "ripple/fileContent", {"uri": "file:///etc/passwd"})["error"]["code"] == -32002

    def test_session_is_confined(self, tcp, tmp_path):
        port, token, root = tcp
        client = self.connect(port)
        answer = self.init(client, token, root)
        assert answer is not None and "capabilities" in answer["result"]
        assert self.connect(port).next(10) is None  # one session: a second connection is closed at once
        secret = tmp_path / "secret.txt"
        secret.write_text("password\n", encoding="utf-8")
        for uri in (secret.as_uri(), "file:///etc/passwd", (root / ".." / ".." / "secret.txt").as_uri()):
            answer = client.request(3, "ripple/fileContent", {"uri": uri})
            assert answer["error"]["code"] == -32602, answer
            assert "is not inside a workspace folder" in answer["error"]["message"]
        (root / "link.txt").symlink_to(secret)
        answer = client.request(4, "ripple/fileContent", {"uri": (root / "link.txt").as_uri()})
        assert answer["error"]["code"] == -32602
        client.notify("workspace/didChangeWorkspaceFolders", {"event": {
            "added": [{"uri": tmp_path.as_uri(), "name": "all"}, {"uri": "file:///", "name": "root"}], "removed": []}})
        end = time.monotonic() + 20
        while time.monotonic() < end:
            folders = client.request(5, "ripple/indexStatus", {})["result"]["folders"]
            if folders and folders[0].get("watching"):
                break
            time.sleep(0.1)
        assert [f["repo"] for f in folders] == ["shop"]
        refused = [m for m in client.messages("window/showMessage") if "outside the folders this server may serve" in m]
        assert len(refused) == 2
        assert client.request(6, "ripple/fileContent", {"uri": (root / "app" / "repo.py").as_uri()})["result"] == {
            "text": "def save(x):\n    return x\n"}

    def test_token_file_must_hold_a_real_token(self, tmp_path):
        short = tmp_path / "token"
        short.write_text("abc\n", encoding="utf-8")
        short.chmod(0o600)  # private, as a token file must be
        result = ripple("serve", "--tcp", "127.0.0.1:0", "--token-file", str(short), timeout=30)
        assert result.returncode == 2
        assert "must have at least 16 characters" in result.stderr


# ------------------------------------------------------------------------------- hangs and crashes


class TestEveryRequestAnsweredOnce:
    """Issue 12 #13: requests whose params failed validation got no response; a second
    ``initialize`` ran; requests before ``initialize`` were served."""

    BAD_POSITIONS = [{"line": -1, "character": 0}, {"line": 2 ** 63, "character": 0}, {"line": "1", "character": 0},
                     {"line": 0}, None, [], "x"]

    def test_lifecycle_and_invalid_params(self, tmp_path, servers):
        root = write_python(tmp_path / "shop", {"app/repo.py": "def save(x):\n    return x\n"})
        server = servers("--no-embed")
        c = server.client
        assert c.request(11, "ripple/indexStatus", {})["error"]["code"] == -32002
        assert c.request(12, "textDocument/hover", None)["error"]["code"] == -32002
        c.notify("textDocument/didOpen", {})  # dropped before initialize: no answer
        server.initialize(root)
        second = c.request(3, "initialize", {"capabilities": {}})
        assert second["error"] == {"code": -32600, "message": "initialize was already received: it may be sent once per session"}
        doc = {"uri": (root / "app" / "repo.py").as_uri()}
        msg_id = 100
        for method in ("textDocument/hover", "textDocument/references", "textDocument/prepareCallHierarchy",
                       "textDocument/documentSymbol", "textDocument/codeLens", "ripple/blastRadius"):
            for position in self.BAD_POSITIONS:
                msg_id += 1
                params = {"textDocument": doc, "position": position, "context": {"includeDeclaration": True}}
                if method in ("textDocument/documentSymbol", "textDocument/codeLens"):
                    params = {"textDocument": position}
                answer = c.request(msg_id, method, params, timeout=10)
                assert answer is not None and answer["error"]["code"] == -32602, (method, position, answer)
            for params in (..., None, 5, "text", [1, 2]):
                msg_id += 1
                answer = c.request(msg_id, method, params, timeout=10)
                assert answer is not None and answer["error"]["code"] == -32602, (method, params, answer)
        expected = ("textDocument/hover: invalid params (invalid value for type, expected int @ "
                    "$.params.position.line)")  # "1" is not a number: no coercion
        assert c.request(999, "textDocument/hover", {"textDocument": doc, "position": {"line": "1", "character": 0}})[
            "error"]["message"] == expected
        answers = [m for m in c.seen if "method" not in m]
        ids = [m["id"] for m in answers]
        assert len(ids) == len(set(ids)), "a request was answered twice"
        assert c.request(5, "shutdown", None)["result"] is None
        assert c.request(6, "ripple/indexStatus", {})["error"]["code"] == -32600
        c.notify("exit")
        assert server.proc.wait(30) == 0

    def test_exit_without_shutdown_exits_1(self, tmp_path, servers):
        server = servers("--no-embed")
        server.initialize()
        server.client.notify("exit")
        assert server.proc.wait(30) == 1


class TestDeepNestingBounded:
    """Issue 12 #14: document symbols of deeply nested code failed with a recursion error; code lens
    answered 191 MB for one 109 KB file. Every answer is bounded."""

    DEPTH = 700

    def test_document_symbols_and_code_lens(self, tmp_path, servers):
        from lsp_server.features.code_lens import MAX_ID_BYTES
        from lsp_server.features.symbols import MAX_DEPTH
        from stores.embedded import EmbeddedStore

        root = tmp_path / "deep"
        root.mkdir()
        source = "".join(f"class K{i:04d} {{\n" for i in range(self.DEPTH)) + "void leaf() {}\n" + "}\n" * self.DEPTH
        (root / "Deep.java").write_text(source, encoding="utf-8")
        assert ripple("index", str(root), "--no-embed", timeout=240).returncode == 0
        server = servers("--no-embed")
        server.initialize(root)
        server.wait_for(ready, timeout=120)
        doc = {"textDocument": {"uri": (root / "Deep.java").as_uri()}}
        t0 = time.monotonic()
        answer = server.client.request(2, "textDocument/documentSymbol", doc, timeout=60)
        assert "result" in answer, answer
        depth, count, level = 0, 0, answer["result"]
        while level:
            depth += 1
            count += len(level)
            assert len(level) == (1 if depth < MAX_DEPTH else self.DEPTH + 1 - (MAX_DEPTH - 1))
            level = level[0]["children"] if depth < MAX_DEPTH else [c for s in level for c in s["children"]]
        assert (depth, count) == (MAX_DEPTH, self.DEPTH + 1)
        lens = server.client.request(3, "textDocument/codeLens", doc, timeout=60)
        size = len(json.dumps(lens))
        with EmbeddedStore(root / ".ripple" / "index.db") as store:
            ids = [n.id for n in store.nodes_in_file("deep", "Deep.java") if n.label in ("Class", "Method")]
        fits = next(i for i in range(len(ids) + 1) if i == len(ids) or sum(map(len, ids[:i + 1])) > MAX_ID_BYTES)
        assert len(lens["result"]) == fits < len(ids)
        assert size < MAX_ID_BYTES + 200 * fits
        assert time.monotonic() - t0 < 60
        assert server.client.request(4, "ripple/indexStatus", {})["result"]["folders"][0]["state"] == "ready"


class TestDocumentSymbolTreeUnit:
    """:func:`analysis.navigation.document_symbols` on generated nodes: overloads (one qualname, two
    nodes) both listed with the children under the first, 3,000 levels without recursion, the
    depth cap placing deeper definitions at the last level in source order, the limit."""

    @staticmethod
    def graph(qualnames: list[str]) -> Any:
        from stores.contracts import Node

        nodes = [Node(f"r:f.{q}({i})", "Method" if q.endswith("m") else "Class", q.rsplit(".", 1)[-1], q, "r", "f",
                      i + 1, 0, i + 1, 1) for i, q in enumerate(qualnames)]

        class Graph:
            def nodes_in_file(self, repo: str, path: str) -> list[Node]:
                return nodes

        return Graph()

    @staticmethod
    def shape(trees: Any) -> list[Any]:
        out: list[Any] = []
        stack = [(t, out) for t in reversed(trees)]
        while stack:
            tree, into = stack.pop()
            entry: list[Any] = [tree.node.id, []]
            into.append(entry)
            stack.extend((c, entry[1]) for c in reversed(tree.children))
        return out

    def test_overloads_depth_and_limit(self):
        from analysis.navigation import document_symbols

        g = self.graph(["A", "A.m", "A.m", "A.B", "A.B.C", "A.B.C.m", "A.B.x", "Z"])
        assert self.shape(document_symbols(g, "r", "f")) == [
            ["r:f.A(0)", [["r:f.A.m(1)", []], ["r:f.A.m(2)", []], ["r:f.A.B(3)", [
                ["r:f.A.B.C(4)", [["r:f.A.B.C.m(5)", []]]], ["r:f.A.B.x(6)", []]]]]], ["r:f.Z(7)", []]]
        assert self.shape(document_symbols(g, "r", "f", max_depth=2)) == [
            ["r:f.A(0)", [["r:f.A.m(1)", []], ["r:f.A.m(2)", []], ["r:f.A.B(3)", []], ["r:f.A.B.C(4)", []],
                          ["r:f.A.B.C.m(5)", []], ["r:f.A.B.x(6)", []]]], ["r:f.Z(7)", []]]
        assert self.shape(document_symbols(g, "r", "f", max_depth=1, limit=3)) == [
            ["r:f.A(0)", []], ["r:f.A.m(1)", []], ["r:f.A.m(2)", []]]
        deep = [".".join(f"K{i}" for i in range(k + 1)) for k in range(3_000)]
        t0 = time.monotonic()
        trees = document_symbols(self.graph(deep), "r", "f", max_depth=32)
        assert time.monotonic() - t0 < 20
        level, depth = trees, 0
        while level:
            depth += 1
            last = level
            level = level[0].children if len(level) == 1 else []
        assert (depth, len(last)) == (32, 3_000 - 31)


class TestExitWhileEmbedding:
    """Issue 12 #15: the server aborted (SIGABRT, "terminate called without an active exception")
    when ``exit`` arrived while the embedding thread ran."""

    def test_orderly_exit(self, tmp_path, servers):
        files = {f"pkg/m{i}.py": "".join(f"def f{i}_{j}(x):\n    '''{'word ' * 40}{i} {j}'''\n    return x + {j}\n\n"
                                         for j in range(40)) for i in range(20)}
        root = write_python(tmp_path / "big", files)
        server = servers()  # embeddings on
        server.initialize(root)
        server.wait_for(lambda fs: fs[0]["phase"] == "embed", timeout=120)
        time.sleep(0.5)
        assert server.client.request(2, "shutdown", None)["result"] is None
        t0 = time.monotonic()
        server.client.notify("exit")
        assert server.proc.wait(30) == 0
        assert time.monotonic() - t0 < 20
        err = b"".join(server.stderr).decode(errors="replace")
        assert "terminate called" not in err and "Fatal Python error" not in err, err[-2000:]


# ------------------------------------------------------------------------------------ fuzzing


class TestFramingUnit:
    """The frame reader in process: an oversized body is discarded in pieces and answered with an
    error of id ``null``; the next frame is read; header noise is skipped."""

    def test_oversized_and_noise(self, monkeypatch):
        import asyncio

        from lsp_server import protocol

        monkeypatch.setattr(protocol, "MAX_MESSAGE_BYTES", 1000)
        bodies: list[bytes] = []
        errors: list[tuple[Any, int]] = []

        class Sink:
            def handle_body(self, body: bytes) -> None:
                bodies.append(body)

            def message_limit(self) -> int:
                return protocol.MAX_MESSAGE_BYTES

            def refuse_oversized(self, size: int) -> None:
                errors.append((None, size))

        async def run() -> None:
            reader = asyncio.StreamReader(limit=1 << 16)
            reader.feed_data(b"Content-Length: 5000\r\n\r\n" + b"x" * 5000 + b"garbage line\r\n\r\n"
                             + b"X-Other: 1\r\ncontent-length: 2\r\nContent-Type: y\r\n\r\n{}"
                             + b"Content-Length: " + b"9" * 30 + b"\r\n\r\n"  # not a length: skipped
                             + b"A" * 100_000 + b"\r\n" + b"Content-Length: 4\r\n\r\nnull")
            reader.feed_eof()
            await protocol.read_frames(reader, Sink())  # type: ignore[arg-type]

        asyncio.run(run())
        assert bodies == [b"{}", b"null"]
        assert errors == [(None, 5000)]


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_METHODS = ["textDocument/hover", "textDocument/references", "textDocument/prepareCallHierarchy",
            "callHierarchy/incomingCalls", "callHierarchy/outgoingCalls", "textDocument/codeLens", "codeLens/resolve",
            "textDocument/documentSymbol", "workspace/symbol", "ripple/search", "ripple/blastRadius",
            "ripple/indexStatus", "ripple/fileContent", "workspace/executeCommand", "initialize",
            "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "$/cancelRequest",
            "$/setTrace", "no/such/method", ""]
_json = st.recursive(st.none() | st.booleans() | st.integers(min_value=-2 ** 70, max_value=2 ** 70)
                     | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                     max_leaves=12)
_position = st.fixed_dictionaries({"line": _json | st.integers(-5, 10), "character": _json | st.integers(-5, 10)})


@st.composite
def _params(draw: Any, uri: str) -> Any:
    shape = draw(st.sampled_from(["json", "doc", "missing", "command", "item"]))
    if shape == "missing":
        return ...
    if shape == "json":
        return draw(_json)
    if shape == "command":
        return {"command": draw(st.sampled_from(["ripple.reindex", "ripple.showCallers", "nope", 5])),
                "arguments": draw(st.lists(_json, max_size=3) | _json)}
    if shape == "item":
        rng = {"start": draw(_position), "end": {"line": 0, "character": 0}}
        item = {"name": "save", "kind": draw(st.sampled_from([12, 0, 99, "x"])), "uri": uri, "range": rng,
                "selectionRange": rng, "data": draw(st.sampled_from([{"id": "shop:app/repo.save(1)"}, {"id": 5}])) }
        return {"item": item, "range": rng, "data": item["data"]}
    return {"textDocument": draw(st.sampled_from([{"uri": uri}, {"uri": draw(st.text(max_size=30))}, {}])),
            "position": draw(_position), "query": draw(_json), "uri": draw(st.sampled_from([uri, "file:///etc/passwd"])),
            "context": {"includeDeclaration": draw(_json)}}


class TestLspFuzz:
    """Hypothesis against one real ``ripple serve`` over stdio: random frames (valid framing around
    random JSON, broken JSON, noise headers, lengths that end inside the body) and random methods,
    ids and params. Every request with a valid id gets exactly one response, nothing answers a
    notification, and the server still answers a valid request afterwards."""

    def test_fuzz(self, tmp_path, servers):
        root = write_python(tmp_path / "shop",
                            {"app/repo.py": "def save(x):\n    return x\n\ndef main():\n    return save(1)\n"})
        server = servers("--no-embed")
        server.initialize(root)
        server.wait_for(ready)
        uri = (root / "app" / "repo.py").as_uri()
        counter = iter(range(10 ** 9))

        @st.composite
        def message(draw: Any) -> tuple[bytes, Any]:
            """One frame and the id that must be answered (``None``: no answer expected)."""
            kind = draw(st.sampled_from(["request", "request", "notification", "broken-json", "noise", "not-object",
                                         "bad-id"]))
            n = next(counter)
            if kind == "noise":
                return draw(st.sampled_from([(b"\r\n", None), (b"X-Foo: bar\r\n\r\n", None),
                                             (b"Content-Length: x\r\n\r\n", None), (b"garbage\n", None),
                                             (b"Content-Length: 0\r\n\r\n", "null")]))
            if kind == "broken-json":
                body = draw(st.binary(max_size=40)) + b"{"
                return b"Content-Length: %d\r\n\r\n" % len(body) + body, "null"
            if kind == "not-object":
                body = json.dumps(draw(st.lists(_json, max_size=3) | st.integers() | st.text(max_size=5))).encode()
                return b"Content-Length: %d\r\n\r\n" % len(body) + body, "null"
            method = draw(st.sampled_from(_METHODS))
            msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
            params = draw(_params(uri))
            if params is not ...:
                msg["params"] = params
            if kind == "notification":
                return frame(msg), None
            if kind == "bad-id":
                msg["id"] = draw(st.sampled_from([None, 1.5, [1], {"a": 1}, True]))
                return frame(msg), "null"
            msg["id"] = draw(st.sampled_from([f"s{n}", n + 10_000]))
            return frame(msg), msg["id"]

        deep = os.environ.get("RIPPLE_FUZZ_EXAMPLES")  # a longer, random run: RIPPLE_FUZZ_EXAMPLES=5000

        @settings(max_examples=int(deep or 120), deadline=None, suppress_health_check=list(HealthCheck),
                  derandomize=not deep, database=None)
        @given(st.lists(message(), min_size=1, max_size=6))
        def run(batch: list[tuple[bytes, Any]]) -> None:
            before = len(server.client.seen)
            for data, _ in batch:
                server.client.raw(data)
            sentinel = f"sentinel-{next(counter)}"
            answer = server.client.request(sentinel, "ripple/indexStatus", {}, timeout=30)
            assert answer is not None and answer["result"]["folders"][0]["repo"] == "shop", answer
            answers = [m for m in server.client.seen[before:] if "method" not in m and m.get("id") != sentinel]
            expected = sorted(str(i) for _, i in batch if i is not None and i != "null")
            got = sorted(str(m["id"]) for m in answers if m.get("id") is not None)
            assert got == expected, (batch, answers)
            nulls = sum(1 for m in answers if m.get("id") is None)
            assert nulls == sum(1 for _, i in batch if i == "null"), (batch, answers)

        t0 = time.monotonic()
        run()
        assert deep or time.monotonic() - t0 < 120
        assert server.proc.poll() is None
