"""A pytest test's own applications: router keys scoped by the test.

pytest calls each test function (``test_*`` at module level, or a ``test*`` method of a ``Test*``
class) with fresh values of its function-scoped fixtures (the default scope), and a name assigned in a
test (``app = Flask(__name__)``, ``bp = Blueprint("bp", __name__)``) is that call's local. So in
Flask's own suite every test's ``app`` parameter is a different application: ``@app.before_request``
in ``test_a`` never runs for ``@app.route("/a")`` of ``test_b``, and a blueprint's
``@bp.after_app_request`` reaches only the application the same test registers ``bp`` on. The linker
keys a router by ``(file, name)`` when the name is no module-level object of the repository
(:meth:`indexer.frameworks.link._Linker.locate`); in a Python test file such a name inside a test is
keyed ``(file, "<test>#<name>")`` instead, and so is a name the test receives as a parameter (a
fixture: Flask's ``def test_x(app, client)``) even where an import of the same name elsewhere in the
file would locate it (``from blueprintapp import app`` inside another test of Flask's
``tests/test_blueprints.py``: the extraction records a function's import with the file's) (the Express detector's ``<function>#<name>`` keys of a
function's local routers, :mod:`indexer.languages.ecmascript.frameworks.express`), and an app-wide
registration written in a test (a ``Wrapper`` without router) reaches the routes keyed by the same
test only.

Left as before: a module-level application of a test file (one object for every test), names of
fixtures and other helper functions (an ``app`` fixture's own registrations), and fixtures declared with
a wider scope (``scope="module"``: one object for several tests) are not told apart from
function-scoped ones (the extraction of a test file does not see its conftest's fixture declarations).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.resolve.multimap import entries

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["owning_test", "scoped_key", "owned_by_test"]

_TEST_FILE = re.compile(r"(^|/)(test_[^/]*|[^/]*_test)\.py$")
"""pytest's default test module names (``python_files``: ``test_*.py``, ``*_test.py``)."""


def owning_test(lang: str, path: str, scope: str | None) -> str | None:
    """The qualname of the pytest test whose body holds ``scope`` (the qualname of the innermost
    definition around a registration: the test itself, or a function nested in it), or ``None``
    when ``path`` is no Python test module or ``scope`` lies in no test (``test_x`` -> ``test_x``;
    ``TestA.test_y.inner`` -> ``TestA.test_y``; ``helper`` / ``fixture_app`` -> ``None``)."""
    if lang != "python" or not scope or not _TEST_FILE.search(path):
        return None
    parts = scope.split(".")
    if parts[0].startswith("test"):
        return parts[0]
    if len(parts) > 1 and parts[0].startswith("Test") and parts[1].startswith("test"):
        return f"{parts[0]}.{parts[1]}"
    return None


def scoped_key(lang: str, path: str, scope: str | None, expr: str) -> tuple[str, str] | None:
    """The router key of ``expr`` (a receiver written in ``scope`` of the file ``path``, that names no
    module-level object) when it is a test's own object: ``(path, "<test>#<expr>")``; ``None`` when
    ``scope`` lies in no test (:func:`owning_test`) or ``expr`` already is a scoped key."""
    test = owning_test(lang, path, scope)
    if test is None or "#" in expr or not expr:
        return None
    return path, f"{test}#{expr}"


def owned_by_test(fc: FileCtx, scope: str | None, expr: str, scope_at: Callable[[int], str | None]) -> bool:
    """Whether the head of ``expr`` (written in ``scope`` of ``fc``) is a name of the pytest test
    around it even though the file imports that name: a parameter of the test (a fixture value, which
    shadows any import), or a name whose every import lies inside another function (``scope_at``: the
    qualname of the definition around a line, ``None`` at top level). ``False`` outside tests."""
    test = owning_test(fc.lang, fc.path, scope)
    if test is None:
        return False
    head = expr.partition(".")[0]
    fn = next((rd for rd in entries(fc.by_qualname, test) if rd.is_callable), None)
    if fn is not None and any(p.name == head for p in fn.d.params):
        return True
    imps = entries(fc.imports, head)
    return bool(imps) and all(_inside_other(scope_at(i.line), test) for i in imps)


def _inside_other(where: str | None, test: str) -> bool:
    """Whether a line whose innermost definition is ``where`` lies in a function other than ``test``."""
    return where is not None and where != test and not where.startswith(f"{test}.")
