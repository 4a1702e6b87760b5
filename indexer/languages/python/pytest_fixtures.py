"""pytest's fixtures: a test's parameter is what the fixture of its name returns or yields.

pytest calls a test function (``test_*``, or a method of a test class) and a fixture with, for each
parameter, the value of the fixture of that name visible from the test's module: a fixture method of
the test's own class first, then the module's fixtures, then those of each ``conftest.py`` in the
folders above it, nearest first (pytest's fixture overriding; plugins' fixtures are out of the
repository). So ``def test_ssl(worker): worker._create_ssl_context()`` with ``@pytest.fixture def
worker(): return GunicornWebWorker()`` calls ``GunicornWebWorker._create_ssl_context``. A fixture
is a callable decorated ``@pytest.fixture`` / ``@fixture`` (with or without arguments; the
resolver's decorated table by the name ``fixture``, recorded as ``("n", "python", "@fixture")``, so a
fixture added or removed anywhere re-binds its readers), requested by the ``name=`` of its decorator
when given (``@pytest.fixture(name="client") def client_fixture()``: :func:`fixture_name`). Below the
``conftest.py`` files (each holding the fixtures defined in it and those it imports, ``from tests.fixtures
import *``: pytest collects a conftest module's attributes) come the modules ``pytest_plugins`` lists (in the test's module, or in a file of
a folder above it, nearest first; pytest registers them as plugins, whose fixtures any test may request).

Not every parameter is a fixture (pytest's ``getfuncargnames``): one with a default value is not;
the leading ones a ``@mock.patch(...)`` / ``@patch.object(...)`` decorator without ``new`` fills (one
per such decorator of the function or, for a method, of its class) are mocks; and a name a
``@pytest.mark.parametrize`` of the function or an enclosing class lists is the parametrized value,
unless the mark sends it to the fixture (``indirect=True`` or a list naming it): :func:`requested`.
"""

from __future__ import annotations

import ast
import posixpath
from functools import lru_cache
from typing import TYPE_CHECKING

from indexer.resolve.multimap import entries
from indexer.resolve.values import FuncV, Value

if TYPE_CHECKING:
    from indexer.model import Definition
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["FIXTURE", "fixture_name", "injected", "is_fixture", "is_test_file", "requested", "visible_fixture"]

PLUGINS = "pytest_plugins"
"""The module-level constant naming plugin modules (:mod:`indexer.languages.python.frameworks.pytest_plugins`)."""

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
    requested_here, found = visible_fixture(r, fc, scope, name)
    if not requested_here or found is None:
        return None
    if found.d.yielded_refs:
        return r.yielded(found)
    return r.call_result(FuncV(found), "inferred")


def visible_fixture(r: Lookup, fc: FileCtx, scope: str, name: str) -> tuple[bool, Def | None]:
    """``(requested, fixture)`` for parameter ``name`` of the function ``scope`` of ``fc``: ``requested``
    whether pytest hands it a fixture's value (``scope`` a test function or method, or a fixture, of a file
    pytest reads, and :func:`requested` by pytest's rules), ``fixture`` the repository's fixture of that name
    the function sees (its class's, its module's, the nearest ``conftest.py``'s, a ``pytest_plugins``
    module's), ``None`` when none is visible (a plugin's own fixture, pytest-django's ``client``) or it is the
    function itself (an overriding fixture requesting the one it overrides is not followed). The linker
    reads it through the language's rules (:mod:`indexer.frameworks.fixture_clients`)."""
    if not is_test_file(fc.path):
        return False, None
    fn = next((rd for rd in entries(fc.by_qualname, scope) if rd.is_callable), None)
    if fn is None or not (fn.name.startswith("test") or (fn.shape.decorated and is_fixture(fn.d))):
        return False, None
    if not requested(fn.d, name, _class_decorators(fc, fn)):
        return False, None
    ns = fc.rules.namespace
    by_name = r.memoised((0, ns, "pytest fixtures"), lambda: _by_name(r.registered(ns, FIXTURE)))
    found = _visible(by_name.get(name, []) if isinstance(by_name, dict) else [], fc, fn, r)
    return True, (None if found is fn else found)


def _by_name(fixtures: list[Def]) -> dict[str, list[Def]]:
    """``fixtures`` by the name tests request them by: the ``name=`` of their ``@pytest.fixture(...)``
    when given (the function's own name is then none), else the function's name."""
    out: dict[str, list[Def]] = {}
    for f in fixtures:
        out.setdefault(fixture_name(f.d), []).append(f)
    return out


def fixture_name(d: Definition) -> str:
    """The name pytest registers the fixture ``d`` under: the string ``name=`` of its ``fixture(...)``
    decorator (``@pytest.fixture(name="client")``), else ``d``'s own name."""
    for text in d.decorators:
        callee, call = _call(text)
        if callee.rpartition(".")[2] != FIXTURE or call is None:
            continue
        for k in call.keywords:
            if k.arg == "name" and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str):
                return k.value.value
    return d.name


def is_fixture(d: Definition) -> bool:
    """Whether the definition ``d`` is a pytest fixture (a decorator named ``fixture``)."""
    return any(text.split("(", 1)[0].rpartition(".")[2].strip() == FIXTURE for text in d.decorators)


def _visible(fixtures: list[Def], fc: FileCtx, fn: Def, r: Lookup) -> Def | None:
    """Of ``fixtures`` (one name's), the one a function ``fn`` of ``fc`` sees: its class's, its module's,
    the nearest ``conftest.py``'s above it, then those of the modules a ``pytest_plugins`` of ``fc`` or of a
    file in a folder above it loads (:func:`_plugin_fixture`); the last of equals (a later definition
    replaces)."""
    if not fixtures:
        return None
    found = _scoped(fixtures, fc, fn, r)
    return found if found is not None else _plugin_fixture(fixtures, fc, r)


def _scoped(fixtures: list[Def], fc: FileCtx, fn: Def, r: Lookup) -> Def | None:
    """:func:`_visible`'s class, module and ``conftest.py`` steps; a ``conftest.py`` holds the fixtures
    defined in it and those it imports (``from tests.fixtures import *``, :func:`_imported`), as pytest
    collects a conftest module's attributes."""
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
        imported = _imported(fixtures, conftest, r, fc.lang)
        if imported is not None:
            return imported
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _imported(fixtures: list[Def], conftest: str, r: Lookup, lang: str) -> Def | None:
    """The module-level fixture of ``fixtures`` the ``conftest.py`` at path ``conftest`` imports under its
    own name (a star import too), when that file exists; ``None`` otherwise."""
    def find() -> str:  # the module key (a context may be replaced by a new one: never keep contexts)
        module = conftest.removesuffix(".py").replace("/", ".")
        keys = [module[i:] for i in [0, *(n + 1 for n, c in enumerate(module) if c == ".")]]  # any source root
        return next((key for key in keys if any(f.path == conftest for f in r.module_files(lang, key))), "")

    key = r.memoised((0, lang, "conftest", conftest), find)
    for cfc in (f for f in r.module_files(lang, key) if f.path == conftest) if isinstance(key, str) and key else ():
        for f in fixtures:
            if f.parent is None and f.file is not cfc:
                v = r.resolve_name(cfc, None, f.name)
                if isinstance(v, FuncV) and v.f is f:
                    return f
    return None


def _plugin_fixture(fixtures: list[Def], fc: FileCtx, r: Lookup) -> Def | None:
    """The module-level fixture of ``fixtures`` defined in a module that a ``pytest_plugins`` list
    (:mod:`indexer.languages.python.frameworks.pytest_plugins`) of ``fc`` or of a file in a folder
    above ``fc`` names, the nearest declaring file first; the last of equals."""
    where = {f.file.path: f.file for f in fixtures if f.parent is None}
    if not where:
        return None
    folder = posixpath.dirname(fc.path)
    declaring = sorted((pf for pf in r.constant_files(fc.rules.namespace, PLUGINS)
                        if pf is fc or _above(posixpath.dirname(pf.path), folder)),
                       key=lambda pf: (pf is not fc, -pf.path.count("/")))
    for pf in declaring:
        r.use(("name", pf.path, PLUGINS))
        value = next((c.value for c in reversed(pf.ex.constants) if c.qualname == PLUGINS), None)
        text = "".join(t for kind, t in value.parts if kind == "lit") if value is not None else ""
        for module in (m.strip() for m in text.split(",")):
            paths = {m.path for m in fc.rules.module_by_name(r, pf, module)} if module else set()
            found = [f for f in fixtures if f.parent is None and f.file.path in paths]
            if found:
                return found[-1]
    return None


def _above(folder: str, below: str) -> bool:
    """Whether ``folder`` is ``below`` or a folder above it (``""``: the repository's root)."""
    return not folder or below == folder or below.startswith(folder + "/")


def _class_decorators(fc: FileCtx, fn: Def) -> tuple[tuple[str, ...], ...]:
    """The decorator texts of each class enclosing ``fn``, innermost first."""
    out = []
    parent = fn.parent
    while parent is not None:
        c = next((rd for rd in entries(fc.by_qualname, parent) if rd.is_type), None)
        if c is None:
            break
        out.append(tuple(c.heads.decorators))
        parent = c.parent
    return tuple(out)


def requested(d: Definition, name: str, classes: tuple[tuple[str, ...], ...] = ()) -> bool:
    """Whether pytest hands parameter ``name`` of the test or fixture ``d`` a fixture's value, by
    pytest's own rules (``_pytest.compat.getfuncargnames`` and direct parametrization): not when it
    has a default value, is one of the leading parameters ``d``'s ``mock.patch`` decorators fill (or,
    ``d`` a ``test*`` method, its class's), or is listed by a direct ``pytest.mark.parametrize`` of
    ``d`` or of a class enclosing it (``classes``: their decorator texts, innermost first). A
    parameter ``d`` does not declare is requested (the caller found it)."""
    params = [p for p in d.params if not p.variadic]
    index = next((i for i, p in enumerate(params) if p.name == name), None)
    if index is None:
        return True
    if params[index].has_default:
        return False
    patched = _patches(tuple(d.decorators)) + (_patches(classes[0]) if classes and d.name.startswith("test") else 0)
    if index < patched:
        return False
    return not any(name in _parametrized(texts) for texts in (tuple(d.decorators), *classes))


def _call(text: str) -> tuple[str, ast.Call | None]:
    """A decorator text's callee (its text up to the first parenthesis) and its parsed call, ``None``
    when it does not parse (the callee alone is then known)."""
    callee = text.split("(", 1)[0].strip()
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return callee, None
    return callee, node if isinstance(node, ast.Call) else None


def _strings(node: ast.AST | None) -> list[str] | None:
    """The names a parametrize argument lists: ``"a, b"`` -> [a, b]; ``("a", "b")`` / ``["a"]`` too;
    ``None`` for any other expression."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [n.strip() for n in node.value.split(",") if n.strip()]
    if isinstance(node, ast.Tuple | ast.List) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value.strip() for e in node.elts]  # type: ignore[union-attr]
    return None


@lru_cache(maxsize=4096)
def _patches(decorators: tuple[str, ...]) -> int:
    """How many leading parameters ``decorators``' ``mock.patch`` / ``patch.object`` decorators fill
    (those given no ``new``: a second positional argument of ``patch``, a third of ``patch.object``)."""
    count = 0
    for text in decorators:
        callee, call = _call(text)
        parts = callee.split(".")
        obj = parts[-1] == "object" and len(parts) > 1 and parts[-2] == "patch"
        if parts[-1] != "patch" and not obj:
            continue
        if call is not None and (len(call.args) >= (3 if obj else 2) or any(k.arg == "new" for k in call.keywords)):
            continue
        count += 1
    return count


@lru_cache(maxsize=4096)
def _parametrized(decorators: tuple[str, ...]) -> frozenset[str]:
    """The parameter names ``decorators``' ``parametrize`` marks set directly (not those sent to a
    fixture by ``indirect=True`` or an ``indirect=[...]`` naming them; none when ``indirect`` is
    another expression)."""
    out: set[str] = set()
    for text in decorators:
        callee, call = _call(text)
        if callee.rpartition(".")[2] != "parametrize" or call is None:
            continue
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        names = _strings(call.args[0] if call.args else kw.get("argnames")) or []
        indirect = kw.get("indirect")
        if indirect is None or (isinstance(indirect, ast.Constant) and indirect.value is False):
            out.update(names)
        elif not (isinstance(indirect, ast.Constant) and indirect.value is True):
            listed = _strings(indirect)
            out.update(n for n in names if listed is not None and n not in listed)
    return frozenset(out)
