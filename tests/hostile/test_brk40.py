"""Findings of hostile review brk40, each reproduced as it was found; all fixed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore

# A string literal whose escape names a lone UTF-16 surrogate ("\ud800") is legal source in each of
# these languages; the detectors decode the escape, and the surrogate reaches a node id, which SQLite
# cannot store as UTF-8: UnicodeEncodeError, a traceback, and no file of the repository is written
# (the watcher then fails every later update of that repository).
LONE_SURROGATE_FILES = {
    "flask_route": ("app.py", 'from flask import Flask\napp = Flask(__name__)\n@app.route("/a\\ud800b")\ndef r():\n    pass\n'),
    "requests_url": ("app.py", 'import requests\ndef r():\n    return requests.get("http://svc/\\udfff/x")\n'),
    "kafka_topic": ("app.py", 'from kafka import KafkaProducer\ndef r():\n    KafkaProducer().send("topic\\ud800", b"x")\n'),
    "raw_sql": ("app.py", 'def f():\n    cursor.execute("SELECT * FROM t\\ud800 WHERE a = 1")\n'),
    "django_table": ("app.py", 'from django.db import models\nclass M(models.Model):\n    class Meta:\n        db_table = "tab\\ud800le"\n'),
    "spring_route": ("App.java", 'package a;\n@RestController\npublic class App {\n  @GetMapping("/x\\uD800y")\n  public String h() { return ""; }\n}\n'),
    "express_route": ("app.js", "const express = require('express');\nconst app = express();\napp.get('/e\\uD800', (req, res) => {});\n"),
    "fetch_url": ("app.js", "function f() { fetch('/e\\uDC00x'); }\n"),
    "go_route": ("main.go", 'package main\nimport "net/http"\nfunc main() { http.HandleFunc("/x\\ud800", h) }\nfunc h(w http.ResponseWriter, r *http.Request) {}\n'),
    "kotlin_route": ("A.kt", '@RestController\nclass A { @GetMapping("/x\\uD800") fun g(): String = "" }\n'),
}


@pytest.mark.parametrize("case", sorted(LONE_SURROGATE_FILES))
def test_a_lone_surrogate_escape_in_a_string_literal_does_not_stop_the_index_run(tmp_path: Path, case: str):
    name, text = LONE_SURROGATE_FILES[case]
    root = tmp_path / "src"
    root.mkdir()
    (root / name).write_text(text, encoding="ascii")  # the file itself is plain ASCII
    (root / "other.py").write_text("def innocent():\n    return 1\n")
    with EmbeddedStore(tmp_path / "i.db") as store:
        index_repository(root, store, store, IndexOptions(repo="r", jobs=1))  # raised UnicodeEncodeError
        files = set(store.file_checksums("r"))
    assert {name, "other.py"} <= files


# A file whose name has a dot before its suffix (`x.Y.py`, like `settings.local.py` or
# `user.service.ts`) gets ids that collide with those of `x.py`'s class `Y`: `r:x.Y.z(0)` names both
# `x.py`'s method `Y.z` and `x.Y.py`'s function `z`. The second definition is silently dropped (its
# callers are shown as callers of the other), and deleting `x.py` leaves an index that differs from a
# full index of the same tree: `x.Y.py` is unchanged, so its `z` is never written back.
def _index_tree(root: Path, db: Path) -> None:
    with EmbeddedStore(db) as store:
        index_repository(root, store, store, IndexOptions(repo="r", jobs=1))


def _colliding_tree(root: Path) -> Path:
    """``x.py`` with class ``Y`` and its method ``z``, and ``x.Y.py`` with a function ``z``."""
    root.mkdir()
    (root / "x.py").write_text("class Y:\n    def z(self):\n        return 1\n")
    (root / "x.Y.py").write_text("def z():\n    return 2\ndef caller():\n    return z()\n")
    return root


def test_a_dotted_file_name_does_not_share_ids_with_a_class_of_another_file(tmp_path: Path):
    root = _colliding_tree(tmp_path / "src")
    _index_tree(root, tmp_path / "i.db")
    with EmbeddedStore(tmp_path / "i.db") as store:
        dotted = {n.name for n in store.nodes_in_file("r", "x.Y.py") if n.label == "Function"}
    assert dotted == {"z", "caller"}  # x.Y.py's ids keep the suffix: x.Y.py.z is not x.Y.z
    with EmbeddedStore(tmp_path / "i.db") as store:
        ids = sorted(n.id for p in ("x.py", "x.Y.py") for n in store.nodes_in_file("r", p))
    assert ids == ["r:x.Y", "r:x.Y.py", "r:x.Y.py.caller(0)", "r:x.Y.py.z(0)", "r:x.Y.z(0)", "r:x.py"]
    with sqlite3.connect(tmp_path / "i.db") as db:
        calls = db.execute("select src, dst from edges where kind = 'CALLS'").fetchall()
    assert calls == [("r:x.Y.py.caller(0)", "r:x.Y.py.z(0)")]  # caller's z is its own file's, not Y.z


def test_deleting_the_colliding_file_then_reindexing_equals_a_full_index(tmp_path: Path):
    from tests.index_dump import dump

    root = _colliding_tree(tmp_path / "src")
    _index_tree(root, tmp_path / "inc.db")
    (root / "x.py").unlink()
    _index_tree(root, tmp_path / "inc.db")
    _index_tree(root, tmp_path / "full.db")
    assert dump(tmp_path / "inc.db") == dump(tmp_path / "full.db")  # inc lacks x.Y.py's z, its chunk and edges


# A class named like its file's suffix (`class py` in `a.py`, `class ts` in `c.ts`) got the File
# node's id (`r:a.py`): the File node was replaced by the class (`ripple stats` counted 1 File for 3
# files), and the file CONTAINED itself. Such a file's ids now keep the suffix (`r:a.py.py`).
def test_a_class_named_like_the_suffix_keeps_the_file_node(tmp_path: Path):
    root = tmp_path / "src"
    root.mkdir()
    (root / "a.py").write_text("class py:\n    def m(self):\n        return 1\n")
    (root / "c.ts").write_text("export class ts { m() { return 1; } }\n")
    (root / "b.py").write_text("def u():\n    return 1\n")
    _index_tree(root, tmp_path / "i.db")
    with EmbeddedStore(tmp_path / "i.db") as store:
        labels = {p: sorted(n.label for n in store.nodes_in_file("r", p)) for p in ("a.py", "c.ts", "b.py")}
    assert labels["b.py"].count("File") == 1
    assert labels["a.py"].count("File") == 1 and labels["a.py"].count("Class") == 1
    assert labels["c.ts"].count("File") == 1 and labels["c.ts"].count("Class") == 1


# `ripple mcp` over stdio answers nothing to a line that is not JSON, or whose JSON holds a lone
# surrogate escape ("\ud800", valid JSON that pydantic refuses): no JSON-RPC error (-32700, id null,
# as the HTTP transport and the language server answer), so a client waits for ever; the requests
# after it are answered.
def test_mcp_stdio_answers_every_line_even_unparseable_ones(tmp_path: Path):
    import json
    import select
    import subprocess
    import sys

    root = tmp_path / "src"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n")
    _index_tree(root, tmp_path / "i.db")
    proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "mcp", "--db", str(tmp_path / "i.db")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=Path(__file__).resolve().parents[2])

    def send(line: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(line.encode("ascii") + b"\n")
        proc.stdin.flush()

    def answer(timeout: float = 15) -> dict | None:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        return json.loads(proc.stdout.readline()) if ready else None

    try:
        send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))
        assert answer(60) is not None
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"\\ud800"}}}')
        first = answer()
        send("not json")
        second = answer()
        assert first is not None  # no answer: the client hangs
        assert "error" in first or first.get("result", {}).get("isError")
        assert second is not None and second.get("error", {}).get("code") == -32700
    finally:
        proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()


# A repository whose folder (or a parent folder) has a name that is not UTF-8: `ripple index` ends in
# a traceback (UnicodeEncodeError writing the registry row, or reading files by a repo name taken from
# the folder) instead of indexing it or saying why not. Files with such names inside a repository are
# skipped as `undecodable_name`; the repository's own path is not checked.
@pytest.mark.parametrize("layout", ["parent", "folder"])
def test_a_repository_under_a_non_utf8_folder_name_gets_a_message_not_a_traceback(tmp_path: Path, layout: str):
    import os
    import subprocess
    import sys

    base = os.fsencode(tmp_path)
    root = base + (b"/p\xff/repo" if layout == "parent" else b"/bad\xffname")
    os.makedirs(root)
    with open(root + b"/a.py", "wb") as f:
        f.write(b"def f():\n    return 1\n")
    proc = subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", os.fsdecode(root), "--no-embed",
                           "--db", str(tmp_path / "i.db")], capture_output=True, cwd=Path(__file__).resolve().parents[2])
    assert b"Traceback" not in proc.stderr, proc.stderr[-400:]
    assert proc.returncode == 1 and b"is not valid UTF-8" in proc.stderr


# A cloned repository can ship `.ripple` as a link to a folder of its choosing, or `.ripple/index.db` as
# a (dangling) link: `ripple index PATH` (and the language server, the same default index) then
# creates and writes the index, its lock and its `.gitignore` outside the repository and outside the
# user's state folder. (A planted `.gitignore` link is refused with O_NOFOLLOW; these are not.)
@pytest.mark.parametrize("planted", ["index.db", ".ripple"])
def test_a_planted_index_link_does_not_make_ripple_write_outside_the_repository(tmp_path: Path, planted: str):
    import subprocess
    import sys

    root = tmp_path / "cloned"
    outside = tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n")
    if planted == "index.db":
        (root / ".ripple").mkdir()
        (root / ".ripple" / "index.db").symlink_to(outside / "created-by-ripple.db")
    else:
        (root / ".ripple").symlink_to(outside)
    subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(root), "--no-embed"],
                   capture_output=True, cwd=Path(__file__).resolve().parents[2], timeout=300)
    assert sorted(p.name for p in outside.iterdir()) == []  # was: created-by-ripple.db / index.db, .gitignore, index.db.lock


# The ANN index's manifest (`<db>.vectors/dimN.npz`) names its usearch file, and saving a new
# generation unlinks `folder / previous` where `previous` is read from the manifest on disk. A cloned
# repository can ship `.ripple/index.db.vectors/dim384.npz` naming any path (absolute, or `../..`)
# plus a `.ripple/config.toml` with `[embedded] ann_threshold = 1` (an untrusted workspace may set it:
# it is no endpoint or credential key). `ripple index .` in that clone then DELETES the named file.
# (Without the config file the same happens once the index holds 200,000 embedded chunks.) Loading
# follows the same name too (`index.load(folder / meta["file"])`: any file read as a usearch index).
def test_a_planted_vector_manifest_cannot_make_ripple_delete_a_file_outside(tmp_path: Path):
    import json
    import subprocess
    import sys

    import numpy as np

    victim = tmp_path / "home" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("keep me\n")
    root = tmp_path / "cloned"
    vectors = root / ".ripple" / "index.db.vectors"
    vectors.mkdir(parents=True)
    (root / ".ripple" / "config.toml").write_text("[embedded]\nann_threshold = 1\n")
    (root / "a.py").write_text("def compute_total(items):\n    return sum(items)\n")
    for dim in (256, 384, 512, 768):
        np.savez(vectors / f"dim{dim}.npz", keys=np.zeros(0, np.uint64), fps=np.zeros(0, np.uint64),
                 meta=np.array(json.dumps({"file": str(victim), "model": "x", "dim": dim})))
    subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", "."], cwd=root, capture_output=True, timeout=600,
                   env={**__import__("os").environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert victim.exists()  # was deleted by the ANN index's save


# `ripple index --embed=background` opens `<db>.embed.log` with open(path, "ab"), following links and
# FIFOs: a cloned repository shipping `.ripple/index.db.embed.log` as a link makes the background
# worker append its output to any file the user can write (here a stand-in for ~/.bashrc), and one
# shipping it as a FIFO makes `ripple index` hang for ever in the launcher's open().
@pytest.mark.parametrize("planted", ["link", "fifo"])
def test_a_planted_embedding_log_is_neither_written_through_nor_waited_on(tmp_path: Path, planted: str):
    import os
    import subprocess
    import sys
    import time

    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir()
    victim.write_text("export IMPORTANT=1\n")
    root = tmp_path / "cloned"
    (root / ".ripple").mkdir(parents=True)
    (root / "a.py").write_text("def compute_total(items):\n    return sum(items)\n")
    log = root / ".ripple" / "index.db.embed.log"
    if planted == "link":
        log.symlink_to(victim)
    else:
        os.mkfifo(log)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "index", ".", "--embed=background"], cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)  # the launcher blocked in open() is in this session too
        proc.wait()
        pytest.fail("ripple index --embed=background hung opening the planted FIFO")
    time.sleep(10)  # the detached worker
    assert victim.read_text() == "export IMPORTANT=1\n"


# A cloned repository can ship `.ripple/index.db` itself (force-added despite its `.gitignore`). Its
# per-file digests are trusted: an index whose digests match the tree but whose graph was edited
# (here: every edge removed, hiding all callers) is reported "up to date" by `ripple index .` even
# from a user with an empty cache, and never corrected: re-indexing does not equal a clean index.
def test_a_shipped_index_with_matching_digests_but_a_forged_graph_is_rebuilt(tmp_path: Path):
    import os
    import sqlite3
    import subprocess
    import sys

    from tests.index_dump import dump

    root = tmp_path / "cloned"
    root.mkdir()
    (root / "a.py").write_text("def alpha(x):\n    return x\n\ndef beta():\n    return alpha(1)\n")
    repo_root = str(Path(__file__).resolve().parents[2])

    def index(cache: str, *extra: str) -> None:
        env = {**os.environ, "PYTHONPATH": repo_root, "XDG_CACHE_HOME": str(tmp_path / cache)}
        subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(root), "--no-embed", *extra],
                       check=True, capture_output=True, env=env, timeout=300)

    index("attacker-cache")
    conn = sqlite3.connect(root / ".ripple" / "index.db")
    conn.execute("DELETE FROM edge_rows")  # the attacker's forgery
    conn.commit()
    conn.close()
    index("victim-cache")  # another user, nothing cached
    index("clean-cache", "--db", str(tmp_path / "clean.db"), "--repo", "cloned")
    assert dump(root / ".ripple" / "index.db") == dump(tmp_path / "clean.db")  # edges stay gone


# Same folder, another way out: `.ripple/index.db.vectors` shipped as a link to a folder of the
# repository's choosing; the ANN index's usearch file and manifest are written there.
def test_a_planted_vector_folder_link_is_not_written_through(tmp_path: Path):
    import os
    import subprocess
    import sys

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    root = tmp_path / "cloned"
    (root / ".ripple").mkdir(parents=True)
    (root / ".ripple" / "config.toml").write_text("[embedded]\nann_threshold = 1\n")
    (root / ".ripple" / "index.db.vectors").symlink_to(outside)
    (root / "a.py").write_text("def compute_total(items):\n    return sum(items)\n")
    subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", "."], cwd=root, capture_output=True, timeout=600,
                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert list(outside.iterdir()) == []  # was: dim384-<uuid>.usearch, dim384.npz


# An index whose id table lost rows (a damaged file SQLite itself still opens) makes the next
# `ripple index` end in a TypeError traceback from the FTS delete (analyze_joined(None)) instead of
# "index ... is damaged; delete it and re-index", the message other damage gets.
def test_an_index_missing_its_id_rows_is_reported_damaged_not_a_traceback(tmp_path: Path):
    import os
    import sqlite3
    import subprocess
    import sys

    root = tmp_path / "src"
    root.mkdir()
    (root / "a.py").write_text("def alpha(x):\n    return x\n")
    db = tmp_path / "i.db"
    _index_tree(root, db)
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM ids")
    conn.commit()
    conn.close()
    (root / "a.py").write_text("def alpha(x):\n    return x + 1\n")
    proc = subprocess.run([sys.executable, "-m", "lsp_server.cli", "index", str(root), "--repo", "r", "--no-embed",
                           "--db", str(db)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert "Traceback" not in proc.stderr, proc.stderr[-300:]
    assert proc.returncode == 1 and f"index {db} is damaged" in proc.stderr and "delete it and re-index" in proc.stderr


def _index_finishes(root: Path, db: Path, hung: str, seconds: float = 60) -> None:
    """``ripple index ROOT --no-embed --db DB`` in a process group of its own ends within ``seconds``
    with exit status 0; else it is killed (workers too) and the test fails with ``hung``."""
    import os
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "lsp_server.cli", "index", str(root), "--no-embed", "--db", str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()
        pytest.fail(hung)
    assert proc.returncode == 0


# A repository's `.gitignore` is compiled by pathspec into a Python regular expression; a line like
# `*a*a*a*a*a*a*a*a*b` backtracks polynomially (n^k) on a file name of many `a`s: one such line and one
# file with a 200-character name make `ripple index` (and the watcher) run for hours (4 stars: 3.4 s
# for one name; 5: over 90 s). A pathological file should be skipped or cut, never hang the run.
def test_a_backtracking_gitignore_pattern_does_not_hang_the_index_run(tmp_path: Path):

    root = tmp_path / "src"
    root.mkdir()
    (root / ".gitignore").write_text("*a" * 12 + "*b\n")
    (root / ("a" * 200 + ".py")).write_text("def f():\n    return 1\n")
    (root / "ok.py").write_text("def g():\n    return 1\n")
    _index_finishes(root, tmp_path / "i.db", "ripple index still matching the .gitignore after 60 s")


# A development-server proxy context starting with `^` is run as a regular expression against each
# relative client URL; `_safe_pattern` refuses repeated groups (`(a+)+`) but not a chain of `.*`:
# `^.*.*.*.*.*.*.*.*x` backtracks polynomially, and one `fetch("/aaaa...")` of 120 characters makes
# `ripple index` of this three-file repository run for hours (40 characters: 1 s; 80: over a minute).
def test_a_backtracking_proxy_context_does_not_hang_the_index_run(tmp_path: Path):
    import json

    root = tmp_path / "web"
    root.mkdir()
    (root / "proxy.conf.json").write_text(json.dumps({"^" + ".*" * 8 + "x": {"target": "http://backend:8080"}}))
    (root / "package.json").write_text('{"name": "web"}')
    (root / "app.js").write_text('export function load() { return fetch("/' + "a" * 120 + '"); }\n')
    _index_finishes(root, tmp_path / "i.db", "ripple index still matching the proxy context after 60 s")


# RabbitMQ topic patterns are matched by a memoised recursion bounded at 64 pattern words and 256 key
# words, but one pattern `#.#.#...x` (63 `#`) against one 256-word routing key costs ~0.3-0.4 s, and
# every binding is tried against every publish: 10 bindings x 10 publishes (9 KB of Python) link in
# 29 s, 20 x 20 in about 2 minutes, 200 x 200 in hours.
def test_pathological_topic_patterns_link_in_bounded_time(tmp_path: Path):

    n = 20
    pattern = ".".join(["#"] * 63 + ["x"])
    key = ".".join(["a"] * 256)
    root = tmp_path / "svc"
    root.mkdir()
    (root / "consumer.py").write_text("import pika\nch = pika.BlockingConnection().channel()\n" + "".join(
        f"ch.queue_bind(exchange='ex', queue='q{i}', routing_key='{pattern}')\n"
        f"def on_q{i}(ch, m, p, b):\n    pass\nch.basic_consume(queue='q{i}', on_message_callback=on_q{i})\n"
        for i in range(n)))
    (root / "producer.py").write_text("import pika\nch = pika.BlockingConnection().channel()\n" + "".join(
        f"def send{i}():\n    ch.basic_publish(exchange='ex', routing_key='{key}', body=b'x')\n" for i in range(n)))
    _index_finishes(root, tmp_path / "i.db", "ripple index still linking 20 topic bindings to 20 publishes after 60 s")


def test_ids_follow_the_files_that_come_and_go_as_a_full_index_gives_them(tmp_path: Path):
    from tests.index_dump import dump

    root = tmp_path / "src"
    root.mkdir()
    (root / "x.Y.py").write_text("def z():\n    return 2\n")
    (root / "a.py").write_text("class K:\n    pass\n")
    _index_tree(root, tmp_path / "inc.db")
    steps = [
        ("x.py", "class Y:\n    def z(self):\n        return 1\n"),  # x.Y.py's ids take the suffix
        ("a.py", "class py:\n    def m(self):\n        return 1\n"),  # a.py's ids take it
        ("a.py", "class K:\n    pass\n"),  # and lose it again
    ]
    for i, (name, text) in enumerate(steps):
        (root / name).write_text(text)
        _index_tree(root, tmp_path / "inc.db")
        _index_tree(root, tmp_path / f"full{i}.db")
        assert dump(tmp_path / "inc.db") == dump(tmp_path / f"full{i}.db"), name
    with EmbeddedStore(tmp_path / "inc.db") as store:
        assert sorted(n.id for n in store.nodes_in_file("r", "x.Y.py")) == ["r:x.Y.py", "r:x.Y.py.z(0)"]
        assert sorted(n.id for n in store.nodes_in_file("r", "a.py")) == ["r:a.K", "r:a.py"]
