"""RepositoryResolver.release keeps the released files as columns (indexer.resolve.released)."""

from __future__ import annotations

import gc
import hashlib
import weakref

import pytest

from indexer.languages import extractor_for_path
from indexer.resolve.released import ReleasedFiles
from indexer.resolve.repository import RepositoryResolver

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def f():\n    return 1\n\nclass A:\n    def m(self):\n        return f()\n",
    "pkg/b.py": "from pkg.a import f\n\ndef g(:\n    f()\n",  # a parse error
    "pkg/c.py": "from pkg.b import g\n\ng()\n",
}


def _resolver() -> RepositoryResolver:
    r = RepositoryResolver("r")
    out = []
    for path, text in FILES.items():
        data = text.encode()
        out.append((extractor_for_path(path).extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    r.update(out, track=False)
    r.resolve(sorted(FILES))
    return r


def _fields(fc) -> tuple:
    ex = fc.ex
    return (fc.repo, fc.rules, fc.path, fc.lang, fc.module_key, fc.checksum, fc.size, ex.path, ex.language,
            ex.package, list(ex.errors), ex.partial, ex.id_path, list(ex.definitions), list(ex.imports),
            list(ex.calls), list(ex.bindings))


class TestRelease:
    def test_released_files_read_as_the_stubs_and_the_rest_stay(self):
        r = _resolver()
        before = dict(r.files)
        stubs = {p: fc.released() for p, fc in before.items()}
        kept = before["pkg/c.py"]
        r.release(["pkg/b.py", "pkg/a.py", "pkg/__init__.py", "nowhere.py"])
        assert isinstance(r.files, ReleasedFiles)
        assert list(r.files) == list(before) and len(r.files) == 4
        for p in ("pkg/__init__.py", "pkg/a.py", "pkg/b.py"):
            got = r.files[p]
            assert got is not before[p] and _fields(got) == _fields(stubs[p])
            assert got.ex.definitions == [] and got.ex.imports == []
        assert r.files["pkg/b.py"].ex.errors == before["pkg/b.py"].ex.errors != []
        assert r.files["pkg/a.py"].ex.errors == [] and r.files["pkg/a.py"].size == len(FILES["pkg/a.py"])
        assert r.files["pkg/a.py"].checksum == hashlib.sha256(FILES["pkg/a.py"].encode()).hexdigest()
        assert r.files["pkg/c.py"] is kept and r.files.get("pkg/c.py") is kept
        assert [fc.path for fc in r.files.values()] == list(before)

    def test_unknown_paths_are_not_there(self):
        r = _resolver()
        r.release(["pkg/a.py"])
        for p in ("nowhere.py", "pkg/a", "pkg/a.pyx", "", "pkg/__init__.pyc"):
            assert p not in r.files and r.files.get(p) is None
            with pytest.raises(KeyError):
                r.files[p]
        assert 3 not in r.files

    def test_the_released_contexts_are_let_go(self):
        r = _resolver()
        old = weakref.ref(r.files["pkg/a.py"])
        kept = weakref.ref(r.files["pkg/c.py"])
        r.release(["pkg/a.py", "pkg/b.py", "pkg/__init__.py"])
        gc.collect()
        assert old() is None and kept() is not None

    def test_release_is_once_and_final(self):
        r = _resolver()
        r.release(["pkg/a.py"])
        first = r.files
        r.release(["pkg/b.py"])
        assert r.files is first and r.files["pkg/b.py"] is r.files["pkg/b.py"]  # still the kept context
        with pytest.raises(RuntimeError):
            r.resolve(["pkg/a.py"])
        with pytest.raises(RuntimeError):
            r.update([])

    def test_an_empty_resolver_releases_to_an_empty_mapping(self):
        r = RepositoryResolver("r")
        r.release(["x.py"])
        assert len(r.files) == 0 and list(r.files) == [] and "x.py" not in r.files
