"""Findings of hostile review brk43 (the mechanisms of session 42), each reproduced as it was found.

The cost findings are asserted as counts of work done (calls of one resolver step) or of output
(edges), never as wall-clock times."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.pipeline import index_repository
from indexer.resolve.interpreter import Resolver
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore


def _index(root: Path, db: Path, targets: tuple[str, ...] = ("r:app.User.f(0)",)):
    """Index ``root`` into ``db``: the run's report and the incoming ``CALLS`` of ``targets``."""
    with EmbeddedStore(db) as store:
        report = index_repository(root, store, store, IndexOptions(repo="r", jobs=1))
        return report, store.incoming(list(targets), ["CALLS"])


def _count_calls(monkeypatch, name: str) -> list[int]:
    """Count the calls of ``Resolver.<name>`` from now on (one-element list, updated in place)."""
    count = [0]
    original = getattr(Resolver, name)

    def counted(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)
    monkeypatch.setattr(Resolver, name, counted)
    return count


def flask_login_app(loaders: int, routes: int) -> str:
    """A Flask-Login app with ``loaders`` user loaders (all returning a ``User``) and ``routes``
    views each calling ``current_user.f()``."""
    s = ["from flask import Flask\nfrom flask_login import LoginManager, current_user\n"
         "app = Flask(__name__)\nlm = LoginManager(app)\n"
         "class User:\n    def f(self):\n        return 1\n"]
    s += [f"@lm.user_loader\ndef load{i}(uid):\n    return User()\n" for i in range(loaders)]
    s += [f"@app.route('/r{i}')\ndef r{i}():\n    return current_user.f()\n" for i in range(routes)]
    return "".join(s)


# `current_user` of Flask-Login stands for what the user loaders return (modules.proxied), and was
# worked out again, over every loader, in each scope that names it: a file of 1,000 loaders and
# 1,000 views took 24 s, 2,000 of each 98 s (a million, then four million, results of loader calls).
@pytest.mark.parametrize("n", [100, 200])
def test_current_user_is_worked_out_once_per_file_not_once_per_scope_and_loader(tmp_path, monkeypatch, n):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(flask_login_app(n, n))
    results = _count_calls(monkeypatch, "call_result")
    report, got = _index(tmp_path / "src", tmp_path / "i.db")
    assert sorted(e.src for e in got["r:app.User.f(0)"]) == sorted(f"r:app.r{i}(0)" for i in range(n))
    assert report.edges["CALLS"] == 2 * n  # and each loader's User()
    assert results[0] <= 6 * n  # was n * n + ...: 10,401 for n = 100


def test_current_user_of_loaders_that_disagree_stays_unresolved(tmp_path):
    text = flask_login_app(2, 3).replace("def load1(uid):\n    return User()", "def load1(uid):\n    return Other()")
    text += "class Other:\n    def f(self):\n        return 2\n"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(text)
    _, got = _index(tmp_path / "src", tmp_path / "i.db", ("r:app.User.f(0)", "r:app.Other.f(0)"))
    assert {k: v for k, v in got.items() if v} == {}
