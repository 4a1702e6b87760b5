"""Fixtures of the REST API tests: an index of the LSP test workspace's two repositories (a Java
service, ``petclinic``, and a Python client, ``client``, with embeddings), and real ``ripple api``
servers (uvicorn in a subprocess, on a free port chosen by the server and read from its stderr)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.signals import default_sigint

WORKSPACE = Path(__file__).parent.parent / "lsp" / "workspace"
LISTENING = re.compile(r"listening on (http://\S+) ")


@dataclass
class Server:
    """A running ``ripple api``: its base ``url``, process, and the folder it runs in (its --root)."""

    url: str
    proc: subprocess.Popen
    cwd: Path
    db: Path


def index_workspace(root: Path, db: Path) -> None:
    """Copy the workspace to ``root`` and index both repositories into ``db`` (petclinic without
    embeddings first, then client with them: embedding covers every pending chunk)."""
    shutil.copytree(WORKSPACE, root, dirs_exist_ok=True)
    for name, embed in (("petclinic", "--no-embed"), ("client", "--embed")):
        subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(root / name), "--db", str(db), embed,
                        "--json"], check=True, capture_output=True, env=clean_env())


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RIPPLE_")}
    return {**env, **extra}


def start_server(cwd: Path, db: Path, *args: str, env: dict[str, str] | None = None) -> Server:
    """Start ``ripple api --port 0`` and wait until it answers; fails with its stderr if it exits."""
    proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "api", "--port", "0", "--db", str(db), *args],
                            cwd=cwd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            env=env or clean_env(), preexec_fn=default_sigint)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    found = LISTENING.search(line)
    if not found:
        proc.kill()
        proc.wait()
        rest = proc.stderr.read()
        proc.stderr.close()
        raise AssertionError(f"ripple api did not start: {line}{rest}")
    url = found.group(1)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(url + "/openapi.json", timeout=2)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    return Server(url, proc, cwd, db)


def stop_server(server: Server) -> None:
    server.proc.send_signal(signal.SIGINT)
    try:
        server.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait()
    finally:
        if server.proc.stderr is not None:
            server.proc.stderr.close()


@pytest.fixture(scope="session")
def indexed(tmp_path_factory) -> tuple[Path, Path]:
    """``(workspace copy, index)``: read-only for tests; copy the index to change it."""
    root = tmp_path_factory.mktemp("api-ws")
    db = root / "index.db"
    index_workspace(root / "ws", db)
    return root / "ws", db


def copy_index(db: Path, to: Path) -> Path:
    to.mkdir(parents=True, exist_ok=True)
    target = to / "index.db"
    shutil.copyfile(db, target)
    return target


@pytest.fixture(scope="module")
def server(indexed, tmp_path_factory) -> Iterator[Server]:
    """A server over a copy of the index, its --root the workspace copy."""
    ws, db = indexed
    mine = copy_index(db, tmp_path_factory.mktemp("api-db"))
    srv = start_server(ws, mine)
    yield srv
    stop_server(srv)
