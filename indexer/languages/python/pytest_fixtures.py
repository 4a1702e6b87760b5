"""pytest's fixtures: a test's parameter is what the fixture of its name returns or yields.

pytest calls a test function (``test_*``, or a method of a test class) and a fixture with, for each
parameter, the value of the fixture of that name visible from the test's module: a fixture method of
the test's own class first, then the module's fixtures, then those of each ``conftest.py`` in the
folders above it, nearest first (pytest's fixture overriding; plugins' fixtures are out of the
repository). So ``def test_ssl(worker): worker._create_ssl_context()`` with ``@pytest.fixture def
worker(): return GunicornWebWorker()`` calls ``GunicornWebWorker._create_ssl_context``. A fixture
is a callable decorated ``@pytest.fixture`` / ``@fixture`` (with or without arguments; the
resolver's decorated table by the name ``fixture``, recorded as ``("n", "python", "@fixture")``, so a
fixture added or removed anywhere re-binds its readers). A fixture renamed by ``name=`` is not read.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from indexer.resolve.multimap import entries
from indexer.resolve.values import FuncV, Value

if TYPE_CHECKING:
    from indexer.model import Definition
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["FIXTURE", "injected", "is_fixture", "is_test_file"]

FIXTURE = "fixture"
"""The decorator name pytest's fixtures carry (``@pytest.fixture``, ``@pytest.fixture(scope="module")``)."""


def is_test_file(path: str) -> bool:
    """Whether pytest collects or reads fixtures from the file at ``path`` (its default patterns:
    ``test_*.py``, ``*_test.py``, and ``conftest.py``)."""
    base = posixpath.basename(path)
    return base == "conftest.py" or (base.endswith(".py") and (base.startswith("test_") or base.endswith("_test.py")))


def injected(r: Lookup, fc: FileCtx, scope: str, name: str) -> Value:
    """The value pytest hands parameter ``name`` of the function ``scope`` of ``fc`` (a test function or
    method, or a fixture, in a file pytest reads): what the visible fixture of that name returns
    (its return annotation or inferred return) or, for a generator fixture, yields; ``None`` when the
    function is none of those, no fixture of that name is visible, or the fixture is the function
    itself (an overriding fixture requesting the one it overrides is not followed)."""
    if not is_test_file(fc.path):
        return None
    fn = next((rd for rd in entries(fc.by_qualname, scope) if rd.is_callable), None)
    if fn is None or not (fn.name.startswith("test") or (fn.shape.decorated and is_fixture(fn.d))):
        return None
    ns = fc.rules.namespace
    by_name = r.memoised((0, ns, "pytest fixtures"), lambda: _by_name(r.registered(ns, FIXTURE)))
    found = _visible(by_name.get(name, []) if isinstance(by_name, dict) else [], fc, fn)
    if found is None or found is fn:
        return None
    if found.d.yielded_refs:
        return r.yielded(found)
    return r.call_result(FuncV(found), "inferred")


def _by_name(fixtures: list[Def]) -> dict[str, list[Def]]:
    out: dict[str, list[Def]] = {}
    for f in fixtures:
        out.setdefault(f.name, []).append(f)
    return out


def is_fixture(d: Definition) -> bool:
    """Whether the definition ``d`` is a pytest fixture (a decorator named ``fixture``)."""
    return any(text.split("(", 1)[0].rpartition(".")[2].strip() == FIXTURE for text in d.decorators)


def _visible(fixtures: list[Def], fc: FileCtx, fn: Def) -> Def | None:
    """Of ``fixtures`` (one name's), the one a function ``fn`` of ``fc`` sees: its class's, its module's,
    then the nearest ``conftest.py``'s above it; the last of equals (a later definition replaces)."""
    if not fixtures:
        return None
    here = [f for f in fixtures if f.file is fc]
    own = [f for f in here if fn.parent is not None and f.parent == fn.parent]
    if own:
        return own[-1]
    module = [f for f in here if f.parent is None]
    if module:
        return module[-1]
    folder = posixpath.dirname(fc.path)
    while True:
        conftest = posixpath.join(folder, "conftest.py") if folder else "conftest.py"
        shared = [f for f in fixtures if f.file.path == conftest and f.parent is None]
        if shared:
            return shared[-1]
        if not folder:
            return None
        folder = posixpath.dirname(folder)
