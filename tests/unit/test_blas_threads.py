"""The front ends run exact kNN on one BLAS thread (stores/blas_threads.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

import lsp_server.cli as cli

_PROBE = """
import json, numpy, threadpoolctl
before = [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
from stores.blas_threads import use_one_blas_thread
ok = use_one_blas_thread()
after = [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
print(json.dumps({"ok": ok, "before": before, "after": after}))
"""


def test_use_one_blas_thread_sets_every_blas_pool_of_the_process_to_one() -> None:
    # OPENBLAS_NUM_THREADS=2: the pool starts at two threads whatever this machine's core count
    env = {"OPENBLAS_NUM_THREADS": "2", "PATH": ""}
    out = json.loads(subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True,
                                    env=env).stdout)
    assert out["ok"] is True
    assert out["before"] and all(n == 2 for n in out["before"])
    assert out["after"] == [1] * len(out["before"])


def test_the_command_group_limits_blas_before_any_command(monkeypatch, tmp_path) -> None:
    calls: list[int] = []
    monkeypatch.setattr(cli, "use_one_blas_thread", lambda: calls.append(1) or True)
    result = CliRunner().invoke(cli.main, ["stats", "--db", str(tmp_path / "none.db")])
    assert calls == [1], result.output


def test_ripple_index_does_not_limit_blas_so_numpy_stays_unloaded(monkeypatch, tmp_path) -> None:
    # `ripple index` multiplies no matrices; loading numpy to limit its BLAS would keep it in the parent process
    # of the forked resolve (stores/lazy_import.py)
    calls: list[int] = []
    monkeypatch.setattr(cli, "use_one_blas_thread", lambda: calls.append(1) or True)
    result = CliRunner().invoke(cli.main, ["index", "--help"])
    assert result.exit_code == 0, result.output
    assert calls == []
    CliRunner().invoke(cli.main, ["search", "--help"])
    assert calls == [1]
