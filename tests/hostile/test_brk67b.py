"""Session 67, brk67b: hostile input against session 66's additions, each break with its fix
(docs/benchmarks.md, "Session 67, brk67b"). Exact expectations; a bound on time is a subprocess timeout, never a
timed assertion."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

_DAG = r"""
import json, sys
from tests.unit.test_route_names import _calls, _resolve
layers, width, tests, leaf = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
src = "import pytest\nfrom flask import Flask\napp = Flask(__name__)\n\n@app.route('/a')\ndef a():\n    return 'a'\n\n"
for i in range(layers):
    for j in range(width):
        if i == layers - 1:
            value = leaf if j == width - 1 else "app.test_client()"
            src += f"@pytest.fixture\ndef l{i}_{j}():\n    return {value}\n\n"
        else:
            ps = ", ".join(f"l{i + 1}_{k}" for k in range(width))
            rets = "".join(f"    if x == {k}:\n        return l{i + 1}_{k}\n" for k in range(width))
            src += f"@pytest.fixture\ndef l{i}_{j}({ps}):\n    x = 1\n{rets}    return l{i + 1}_0\n\n"
test = "".join(f"def test_{t}(l0_0, l1_3):\n    l0_0.get('/a')\n    l1_3.post('/a')\n\n" for t in range(tests))
print(json.dumps(_calls(_resolve("# --- path: conftest.py ---\n" + src + "# --- path: test_a.py ---\n" + test))))
"""


def _dag(leaf: str) -> list[list[object]]:
    done = subprocess.run([sys.executable, "-c", _DAG, "7", "12", "20", leaf], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


class TestLayeredFixtures:
    """Fixtures in 7 layers of 12, each handing on any of the 12 fixtures of the next layer (every ``return``
    names one of its parameters), the last layer's return a Flask test client: each request on ``l0_0`` followed
    every path through the layers, 12**6 (3 million) per request (the ``POST``: to a Flask route of ``GET`` only,
    an endpoint nobody exposes), and ``ripple index`` of such a conftest.py with
    50 tests was not done after 300 s. Each (file, function, parameter, depth) is now answered once per run."""

    def test_every_path_a_client_links_each_request_once(self) -> None:
        want = []
        for t in range(20):
            props = {"framework": "flask-test", "url": "/a"}
            want += [["test_a.py", 2 + 4 * t, f"test_a.test_{t}(2)", "CALLS_HTTP", "endpoint:GET /a", props],
                     ["test_a.py", 3 + 4 * t, f"test_a.test_{t}(2)", "CALLS_HTTP", "endpoint:POST /a", props]]
        assert _dag("app.test_client()") == sorted(want)

    def test_one_leaf_no_client_no_request(self) -> None:
        # every fixture of the first layers may hand on l6_11, which returns a dict: no fixture is a client
        assert _dag("{}") == []


_SETTINGS = r"""
import json, os, sys, resource
from pathlib import Path
from indexer.frameworks.app_settings import load_app_settings
root = Path(sys.argv[1])
csproj = '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n'
def project(name, data):
    (root / name).mkdir(parents=True)
    (root / name / f"{name}.csproj").write_text(csproj)
    if data is not None:
        (root / name / "appsettings.json").write_bytes(data)
k = "k" * 250
project("deepkeys", ('{"EventBus": {"Topic": "dk"}, "X": ' + ('{"Topic": "t", "' + k + '":') * 900 + '1' + '}' * 900
                     + '}').encode())
project("deep", ('{"EventBus": {"Topic": "deep"}, "X": ' + '{"a":' * 10000 + '1' + '}' * 10000 + '}').encode())
project("dup", b'{"EventBus": {"Topic": "first"}, "EventBus": {"Topic": "second"}}')
project("bad", b'{"EventBus": {"Topic": "ok\xff\xfe", "Queue": "jobs"}}')
project("link", None)
(root.parent / "outside.json").write_text('{"EventBus": {"Topic": "stolen"}}')
os.symlink(root.parent / "outside.json", root / "link" / "appsettings.json")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
found = load_app_settings(root)
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"settings": {p: {key.replace(k, "K"): v for key, v in s.items()} for p, s in found.items()},
                  "longest": max(len(key) for s in found.values() for key in s), "grown_mib": grown // 1024}))
"""


class TestHostileAppSettings:
    """``appsettings.json`` files (r66e's configuration-named topics): nested 900 levels of 250-character names
    with a ``Topic`` at each level (450 KB, under the size cap) made 101 MB of flattened keys (each key spells its
    parents again: N squared) in 5.3 s and a 439 MiB main process; now a key longer than ``MAX_KEY_CHARS``
    (1,000) is not read. Nested 10,000 levels: skipped as nested too deeply; duplicate keys: the last wins (as
    Python's ``json`` reads it); invalid UTF-8: the value is no name, not kept; a link out of the repository:
    not read."""

    def test_settings_exact_and_bounded(self, tmp_path) -> None:
        done = subprocess.run([sys.executable, "-c", _SETTINGS, str(tmp_path / "repo")], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        assert data["settings"] == {
            "bad": {"eventbus:queue": "jobs"},
            "deep": {},
            "deepkeys": {"eventbus:topic": "dk", "x:topic": "t", "x:K:topic": "t", "x:K:K:topic": "t",
                         "x:K:K:K:topic": "t"},
            "dup": {"eventbus:topic": "second"},
            "link": {}}
        assert data["longest"] == len("x:" + ":".join(["k" * 250] * 3) + ":topic") == 760
        assert data["grown_mib"] < 20  # (101 MB of keys before)
        assert "deep/appsettings.json ignored: nested too deeply" in done.stderr


_SPRING = r"""
import json, resource, sys
from pathlib import Path
from indexer.frameworks.spring_config import load_properties
root = Path(sys.argv[1])
lines = ["k: &k " + "k" * 20000, "l0: &l0 {a: 1}"]
lines += [f"l{i}: &l{i} {{*k : *l{i - 1}, b{i}: 2}}" for i in range(1, 60)]
(root / "src/main/resources").mkdir(parents=True)
(root / "src/main/resources/application.yml").write_text("\n".join(lines) + "\n")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
props = load_properties(root)
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"keys": sorted(props), "k": len(props["k"]), "grown_mib": grown // 1024}))
"""


class TestAliasedLongSpringKeys:
    """A Spring ``application.yml`` of 21 KB: a 20,000-character key anchored once and aliased as the key of 60
    maps nested through aliases (``l5: {*k : *l4, b5: 2}``): every flat key spells its parents, 1,831 keys of up to
    1.2 MB, 720 MB of keys and 747 MiB in 1.2 s (a few more levels: gigabytes). A key longer than
    ``MAX_KEY_CHARS`` (1,000) is no longer written nor walked below."""

    def test_keys_exact_and_bounded(self, tmp_path) -> None:
        done = subprocess.run([sys.executable, "-c", _SPRING, str(tmp_path)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        assert data["keys"] == sorted(["k", "l0.a", *(f"l{i}.b{i}" for i in range(1, 60))])
        assert data["k"] == 20000  # a long value is kept: only keys are bounded
        assert data["grown_mib"] < 20


_PARAMETRIZED = r"""
import json, sys
from indexer.languages import extractor_for_path
n, m = int(sys.argv[1]), int(sys.argv[2])
vals = ",".join(f"'/{i}'" for i in range(n))
src = ("import pytest\n\n@pytest.mark.parametrize('path', [" + vals + "])\ndef test_p(client, path):\n"
       + "".join("    client.get(path)\n" for _ in range(m)))
ex = extractor_for_path("tests/test_p.py").extract("tests/test_p.py", src.encode())
print(json.dumps({"partial": ex.partial, "calls": [[c.line, c.url.parts] for c in ex.http_calls]}))
"""


def _parametrized(values: int, calls: int) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _PARAMETRIZED, str(values), str(calls)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


class TestParametrizedUrlsBounded:
    """``@pytest.mark.parametrize("path", [...])`` URLs (acc66a) are one request per value per call: 20,000 values
    and 100 calls (a 171 KB test file) made 2,000,000 requests and 868 MiB in the extraction worker. Now a
    parameter of more than ``MAX_VALUES`` (256) values is no known URL, and one function expands at most
    ``MAX_EXPANDED`` (4,096) requests; past either, a call is one request whose URL is the parameter (unknown)."""

    def test_too_many_values_one_request_per_call(self) -> None:
        data = _parametrized(20_000, 100)
        assert data == {"partial": None, "calls": [[5 + i, [["ref", "path"]]] for i in range(100)]}

    def test_expansion_stops_at_the_function_budget(self) -> None:
        data = _parametrized(256, 17)  # 16 calls of 256 values fill the 4,096; the 17th is one request
        want = [[5 + i, [["lit", f"/{v}"]]] for i in range(16) for v in range(256)] + [[21, [["ref", "path"]]]]
        assert data == {"partial": None, "calls": want}


class TestDevProxyReadsThroughReadInside:
    """The JSON dev-proxy reader (``dev_proxy._json``) now reads through ``fsguard.read_inside`` (its own copy of
    the inside-the-root / regular-file / size steps is gone); its answers on hostile files are unchanged: a FIFO is
    never opened, a link out of the repository is not read (silently), a file over the cap or nested past the JSON
    parser's limit is skipped with a warning, a ``proxyConfig`` naming a missing file is skipped silently."""

    def test_hostile_proxy_files(self, tmp_path, caplog) -> None:
        import logging
        import os

        from indexer.frameworks.dev_proxy import MAX_FILE_BYTES, ProxyRule, load_proxies

        root = tmp_path / "repo"
        for name in ("web", "fifo", "link", "big", "deep", "angular"):
            (root / name).mkdir(parents=True)
            (root / name / "package.json").write_text(json.dumps({"name": name}))
        (root / "web" / "package.json").write_text('{"proxy": "http://api:8080"}')
        os.mkfifo(root / "fifo" / "proxy.conf.json")
        (tmp_path / "outside.json").write_text('{"/api": {"target": "http://stolen"}}')
        os.symlink(tmp_path / "outside.json", root / "link" / "proxy.conf.json")
        (root / "big" / "proxy.conf.json").write_text('{"/api": {"target": "http://big"}, "x": "' + "y" * MAX_FILE_BYTES
                                                      + '"}')
        (root / "deep" / "proxy.conf.json").write_text("[" * 100_000 + "]" * 100_000)
        (root / "angular" / "angular.json").write_text(
            '{"projects": {"p": {"architect": {"serve": {"options": {"proxyConfig": "missing.json"}}}}}}')
        with caplog.at_level(logging.WARNING, logger="indexer"):
            found = load_proxies(root)
        assert found == {"web": (ProxyRule(("/",), "http://api:8080", (), "web/package.json"),)}
        size = len('{"/api": {"target": "http://big"}, "x": ""}') + MAX_FILE_BYTES
        assert [r.getMessage() for r in caplog.records] == [
            f"{root}/big/proxy.conf.json ignored: too_large: {size} bytes",
            f"{root}/deep/proxy.conf.json ignored: maximum recursion depth exceeded while decoding a JSON array from a "
            "unicode string"]


_CYCLES = r"""
import json
from tests.unit.test_route_names import _calls, _resolve
n = 2000
src = ("import pytest\nfrom flask import Flask\napp = Flask(__name__)\n\n@app.route('/a')\ndef a():\n    return 'a'\n\n"
       "pytest_plugins = ['conftest', 'tests.conftest']\n\n")
src += "".join(f"@pytest.fixture\ndef f{i}(f{i + 1}):\n    return f{i + 1}\n\n" for i in range(n - 1))
src += f"@pytest.fixture\ndef f{n - 1}():\n    return app.test_client()\n\n"
src += "@pytest.fixture\ndef ca(cb):\n    return cb\n\n@pytest.fixture\ndef cb(ca):\n    return ca\n\n"
src += "@pytest.fixture\ndef client(client):\n    return client\n\n"
tests = ("def test_a(f0):\n    f0.get('/a')\n\ndef test_b(ca):\n    ca.get('/a')\n\ndef test_c(client):\n"
         "    client.get('/a')\n\ndef test_d(f1995):\n    f1995.get('/a')\n")
print(json.dumps(_calls(_resolve("# --- path: conftest.py ---\n" + src + "# --- path: tests/conftest.py ---\n"
                                 "pytest_plugins = 'tests.conftest'\n# --- path: test_a.py ---\n" + tests))))
"""


class TestFixtureCyclesHeld:
    """Held, pinned: fixtures in a cycle, a chain of 2,000, a fixture overriding itself and ``pytest_plugins`` naming
    its own module send nothing; a chain within ``MAX_DEPTH`` (6) hands the client on."""

    def test_only_the_short_chain_links(self) -> None:
        done = subprocess.run([sys.executable, "-c", _CYCLES], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        assert json.loads(done.stdout) == [["test_a.py", 11, "test_a.test_d(1)", "CALLS_HTTP", "endpoint:GET /a",
                                            {"framework": "flask-test", "url": "/a"}]]


class TestReadRegularDeepFolders:
    """``fsguard.read_regular`` with a root resolved the real path the kernel gives for the open descriptor
    (``/proc/self/fd``) again with ``os.path.realpath``: one ``lstat`` per folder, each resolving the folders above
    it. A repository whose conftest.py files sit 500 folders deep (1,002 files) spent 11.5 s of its read phase
    there (384,374 ``lstat`` calls). The kernel's path is compared as it is now: no ``lstat`` at all, the same
    answers (a link out of the root refused, a link inside it read)."""

    def test_deep_file_read_without_lstat(self, tmp_path, monkeypatch) -> None:
        import os

        from indexer.fsguard import SkipFile, read_regular

        root = tmp_path / "repo"
        deep = root.joinpath(*(f"d{i}" for i in range(500)))
        deep.mkdir(parents=True)
        (deep / "conftest.py").write_text("x = 1\n")
        (tmp_path / "secret.txt").write_text("secret\n")
        os.symlink(tmp_path / "secret.txt", deep / "leak.py")
        os.symlink(deep / "conftest.py", root / "near.py")
        real_root = os.path.realpath(root)
        calls: list[str] = []
        lstat = os.lstat
        monkeypatch.setattr(os, "lstat", lambda p, *a, **k: calls.append(os.fspath(p)) or lstat(p, *a, **k))
        assert read_regular(deep / "conftest.py", 100, real_root) == b"x = 1\n"
        assert read_regular(root / "near.py", 100, real_root) == b"x = 1\n"
        with pytest.raises(SkipFile) as refused:
            read_regular(deep / "leak.py", 100, real_root)
        assert refused.value.reason == "symlink_outside"
        assert calls == []


class TestDiscoveryDeepFolders:
    """Discovery took each folder's real path with ``os.path.realpath`` (one ``lstat`` per folder above it): 500
    nested folders cost 1.8 s CPU of ``discover`` (3.8 s in a profiled run). A folder that is no link, in a folder
    whose real path is known, is now that path joined with its name; a link is still resolved. Same files, same
    skips (a link into the tree walked once, a link out of it skipped)."""

    def test_deep_tree_files_and_no_lstat_for_plain_folders(self, tmp_path, monkeypatch) -> None:
        import os

        from indexer.discovery import discover

        root = tmp_path / "repo"
        deep = root.joinpath(*(f"d{i}" for i in range(300)))
        deep.mkdir(parents=True)
        (deep / "conftest.py").write_text("x = 1\n")
        (root / "d0" / "a.py").write_text("y = 2\n")
        (tmp_path / "out").mkdir()
        (tmp_path / "out" / "b.py").write_text("z = 3\n")
        os.symlink(tmp_path / "out", root / "outlink")
        os.symlink(root / "d0" / "d1", root / "inlink")
        calls: list[str] = []
        lstat = os.lstat
        monkeypatch.setattr(os, "lstat", lambda p, *a, **k: calls.append(os.fspath(p)) or lstat(p, *a, **k))
        found = discover(root)
        rel = "/".join(f"d{i}" for i in range(300))
        assert [f.path for f in found.files] == ["d0/a.py", rel + "/conftest.py"]
        assert dict(found.skipped) == {"symlink_outside": 1, "symlink_duplicate": 1}
        assert len(calls) < 1_000  # 644 here (the links resolved); base67: 47,294 (one per folder above each)
